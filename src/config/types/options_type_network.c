/*
 * The types of the network's values: lists of CPUs ("0,2-3"), each one
 * this process may run on, and an IPv4 subnet ("198.18.0.0/30").
 */
#include <arpa/inet.h>
#include <errno.h>
#include <sched.h>
#include <string.h>

#include "cause.h"
#include "options_type_common.h"
#include "units.h"

/* OPTION_CPUS: struct cpu_list, "0,2-3" or a list of numbers. */

/* A CPU list every CPU of which this process may run on. */
static int check_cpus(const char *label, const struct cpu_list *cpus,
		      char **cause)
{
	cpu_set_t allowed;

	if (sched_getaffinity(0, sizeof(allowed), &allowed) < 0)
		return 0;
	for (unsigned int i = 0; i < cpus->count; i++) {
		if (CPU_ISSET(cpus->cpu[i], &allowed))
			continue;
		char list[128] = "";
		struct cpu_list own = {0};

		for (unsigned int c = 0;
		     c < CPU_SETSIZE && own.count < SETTINGS_CPUS_MAX; c++)
			if (CPU_ISSET(c, &allowed))
				own.cpu[own.count++] = (uint16_t)c;
		units_format_cpus(&own, list, sizeof(list));
		return cause_set(cause, -EINVAL,
				 "%s: CPU %u is not one this process may "
				 "run on (%s)",
				 label, cpus->cpu[i], list);
	}
	return 0;
}

static int cpus_from_text(struct options *o, const struct option_row *row,
			  const char *label, const char *text, char **cause)
{
	struct cpu_list *cpus = options_at(o, row->offset);

	if (units_parse_cpus(text, cpus) < 0)
		return cause_set(cause, -EINVAL,
				 "%s: '%s' is not a CPU list (such "
				 "as 0,1 or 0-3; at most %d)",
				 label, text, SETTINGS_CPUS_MAX);
	return check_cpus(label, cpus, cause);
}

static int cpus_from_json(const struct option_row *row, const cJSON *v,
			  const char *where, bool viewing, void *value,
			  char **cause)
{
	struct cpu_list *cpus = value;
	size_t n;
	int r = options_list_items(row, v, where, cpus->cpu, viewing, &n,
				   cause);

	if (r < 0)
		return r;
	cpus->count = (unsigned int)n;
	return check_cpus(where, cpus, cause);
}

/* A CPU's number: below CPU_SETSIZE, whatever the row's range. */
static struct option_row cpu_row(const struct option_row *row)
{
	struct option_row cpu = *row;

	cpu.min = 0;
	cpu.max = CPU_SETSIZE - 1;
	return cpu;
}

static int cpu_item_from_json(const struct option_row *row, void *item,
			      const cJSON *v, const char *list_where,
			      const char *where, bool viewing, char **cause)
{
	struct option_row cpu = cpu_row(row);
	double d;
	int r = options_json_number(&cpu, v, where, true, &d, cause);

	(void)list_where;
	(void)viewing;
	if (r == 0)
		*(uint16_t *)item = (uint16_t)d;
	return r;
}

static cJSON *cpus_to_json(const struct option_row *row, const void *value)
{
	const struct cpu_list *cpus = value;
	cJSON *list = cJSON_CreateArray();

	(void)row;
	for (unsigned int i = 0; i < cpus->count; i++)
		cJSON_AddItemToArray(list, cJSON_CreateNumber(cpus->cpu[i]));
	return list;
}

static bool cpus_empty(const struct option_row *row, const void *value)
{
	(void)row;
	return ((const struct cpu_list *)value)->count == 0;
}

static cJSON *cpu_item_schema(const struct option_row *row)
{
	struct option_row cpu = cpu_row(row);

	return options_schema_range("integer", cpu.min, cpu.max);
}

static void cpus_describe(FILE *out, const struct option_row *row)
{
	(void)row;
	fprintf(out, "A list of CPU numbers; an empty list pins nothing.\n");
}

const struct option_type_ops option_type_cpus = {
	.from_text = cpus_from_text,
	.from_json = options_scalar_from_json,
	.to_json = options_scalar_to_json,
	.empty = cpus_empty,
	.schema = options_list_schema,
	.describe = cpus_describe,
	.value_from_json = cpus_from_json,
	.value_to_json = cpus_to_json,
	.value_size = sizeof(struct cpu_list),
	.item_from_json = cpu_item_from_json,
	.item_schema = cpu_item_schema,
	.least = 0,
	.most = SETTINGS_CPUS_MAX,
	.item_size = sizeof(uint16_t),
};

/* OPTION_SUBNET: struct in_addr, and its prefix in o->topo. */

static int subnet_from_text(struct options *o, const struct option_row *row,
			    const char *label, const char *text, char **cause)
{
	if (topo_subnet_parse(text, options_at(o, row->offset),
			      &o->topo.prefix) < 0)
		return cause_set(cause, -EINVAL,
				 "%s: '%s' is not an IPv4 subnet "
				 "(a.b.c.d/8 .. /30, host bits "
				 "zero)",
				 label, text);
	return 0;
}

static cJSON *subnet_to_json(const struct options *o,
			     const struct option_row *row)
{
	char text[INET_ADDRSTRLEN + 4];

	inet_ntop(AF_INET, options_at(o, row->offset), text, INET_ADDRSTRLEN);
	snprintf(text + strlen(text), 5, "/%u", o->topo.prefix);
	return cJSON_CreateString(text);
}

static cJSON *subnet_schema(const struct option_row *row)
{
	(void)row;
	return options_schema_pattern("^[0-9.]+/[0-9]+$");
}

static void subnet_describe(FILE *out, const struct option_row *row)
{
	fprintf(out, "An IPv4 subnet, /8 to /30, such as\n.Qq %s .\n",
		row->def);
}

const struct option_type_ops option_type_subnet = {
	.from_text = subnet_from_text,
	.from_json = options_json_via_text,
	.to_json = subnet_to_json,
	.schema = subnet_schema,
	.describe = subnet_describe,
};
