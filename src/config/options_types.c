/*
 * The types of option values, and what each can do: be read from
 * command-line text, be read from JSON (a preset, a run on the wire or in an
 * export) and written as JSON, give its JSON Schema, and describe itself in
 * nio-top-preset(5) and --help.  option_types[] has one entry per enum
 * option_type; a row of the option table only names its type and says where
 * its value is and within what range.  Adding a type is its functions here
 * (or in a file of their own, as the probe's are: options_probe.c) and one
 * entry in the table at the end.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "jsonfile.h"
#include "options_private.h"
#include "units.h"

/* The size of one perf event's name in struct options. */
#define EVENT_NAME_SIZE sizeof(((struct options *)0)->events[0])

/* Ranges, names and strategies: what several types say. */

/* A range of plain numbers: "1 .. 64" (to is " .. ") or "1 to 64". */
static void numbers_range(const struct option_row *row, const char *to,
			  char *out, size_t size)
{
	snprintf(out, size, "%.15g%s%.15g", row->min, to, row->max);
}

/* A range of message sizes as the command line spells them: "64 .. 4M". */
static void sizes_range(const struct option_row *row, const char *to, char *out,
			size_t size)
{
	char lo[32], hi[32];

	units_format_size((size_t)row->min, lo, sizeof(lo));
	units_format_size((size_t)row->max, hi, sizeof(hi));
	snprintf(out, size, "%s%s%s", lo, to, hi);
}

/* --help's range of a number, or of each number of a list, if it has one. */
static void numbers_help_range(const struct option_row *row, char *out,
			       size_t size)
{
	if (row->max > 0)
		numbers_range(row, " .. ", out, size);
}

static void sizes_help_range(const struct option_row *row, char *out,
			     size_t size)
{
	sizes_range(row, " .. ", out, size);
}

/* A JSON number within the row's range, or an error naming where. */
static int json_number(const struct option_row *row, const cJSON *v,
		       const char *where, bool integer, double *out,
		       char **cause)
{
	char range[64];
	double d;

	numbers_range(row, " .. ", range, sizeof(range));
	if (!cJSON_IsNumber(v))
		return cause_set(cause, -EINVAL, "%s: must be %s %s", where,
				 integer ? "an integer" : "a number", range);
	d = v->valuedouble;
	if (!isfinite(d) || d < row->min || d > row->max ||
	    (integer && d != floor(d)))
		return cause_set(cause, -EINVAL, "%s: must be %s %s (not %s)",
				 where, integer ? "an integer" : "a number",
				 range,
				 v->valuestring ? v->valuestring : "this");
	*out = d;
	return 0;
}

/* Text from JSON through the command line's reader, its error wrapped. */
static int json_via_text(struct options *o, const struct option_row *row,
			 const cJSON *v, const char *where, char **cause)
{
	char *why = NULL;
	int r;

	if (!cJSON_IsString(v))
		return cause_set(cause, -EINVAL, "%s: must be text", where);
	r = options_value_from_text(o, row, v->valuestring, &why);
	if (r < 0) {
		cause_set(cause, -EINVAL, "%s: %s", where,
			  why ? why : "not valid");
		free(why);
	}
	return r;
}

/* The choices of names as "stream, rr", or quoted for JSON. */
static void choice_list(const char *const *names, bool quoted, char *out,
			size_t size)
{
	out[0] = '\0';
	for (size_t i = 0; names[i]; i++)
		snprintf(out + strlen(out), size - strlen(out), "%s%s%s%s",
			 i ? ", " : "", quoted ? "\"" : "", names[i],
			 quoted ? "\"" : "");
}

/* The strategies known, for a message: "two-copy, one-copy, ...". */
static void strategy_list(char *out, size_t size)
{
	out[0] = '\0';
	for (size_t i = 0; i < strategy_count(); i++)
		snprintf(out + strlen(out), size - strlen(out), "%s%s",
			 i ? ", " : "", strategy_at(i)->name);
}

/* One strategy by name, available here unless only viewed. */
static int find_strategy(const char *label, const char *name, bool viewing,
			 const struct strategy_ops **ops, char **cause)
{
	char known[256], *why = NULL;
	int r;

	*ops = strategy_find(name);
	if (!*ops) {
		strategy_list(known, sizeof(known));
		return cause_set(cause, -EINVAL,
				 "%s: '%s' is not a strategy (%s, all)", label,
				 name, known);
	}
	if (viewing || strategy_probe(*ops, &why) == 0) {
		free(why);
		return 0;
	}
	r = cause_set(cause, -EINVAL, "%s: '%s' is unavailable here: %s", label,
		      name, why ? why : "probe failed");
	free(why);
	return r;
}

/* Every strategy this machine can run ("all"). */
static void strategies_all(struct options *o)
{
	o->strategy_count = 0;
	for (size_t i = 0; i < strategy_count(); i++) {
		char *why = NULL;

		if (strategy_probe(strategy_at(i), &why) == 0)
			o->strategies[o->strategy_count++] = strategy_at(i);
		free(why);
	}
}

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

/* JSON Schema fragments. */

static cJSON *schema_range(const char *type, double min, double max)
{
	cJSON *s = cJSON_CreateObject();

	cJSON_AddStringToObject(s, "type", type);
	cJSON_AddNumberToObject(s, "minimum", min);
	cJSON_AddNumberToObject(s, "maximum", max);
	return s;
}

static cJSON *schema_pattern(const char *pattern)
{
	cJSON *s = cJSON_CreateObject();

	cJSON_AddStringToObject(s, "type", "string");
	cJSON_AddStringToObject(s, "pattern", pattern);
	return s;
}

static cJSON *schema_array(cJSON *items, double least, double most)
{
	cJSON *s = cJSON_CreateObject();

	cJSON_AddStringToObject(s, "type", "array");
	cJSON_AddItemToObject(s, "items", items);
	cJSON_AddNumberToObject(s, "minItems", least);
	cJSON_AddNumberToObject(s, "maxItems", most);
	return s;
}

static cJSON *schema_one_of(cJSON *a, cJSON *b)
{
	cJSON *s = cJSON_CreateObject();
	cJSON *any = cJSON_AddArrayToObject(s, "oneOf");

	cJSON_AddItemToArray(any, a);
	cJSON_AddItemToArray(any, b);
	return s;
}

static cJSON *schema_enum(const char *const *names)
{
	cJSON *s = cJSON_CreateObject();
	cJSON *any = cJSON_AddArrayToObject(s, "enum");

	for (size_t i = 0; names[i]; i++)
		cJSON_AddItemToArray(any, cJSON_CreateString(names[i]));
	return s;
}

/* Scalars and lists: what reads and writes their value where the row says. */

/* A scalar in a preset, read and written as a run's value is. */
static int scalar_from_json(struct options *o, const struct option_row *row,
			    const cJSON *v, const char *where, char **cause)
{
	return options_type_of(row)->value_from_json(
		row, v, where, o->viewing_only, options_at(o, row->offset),
		cause);
}

static cJSON *scalar_to_json(const struct options *o,
			     const struct option_row *row)
{
	return options_type_of(row)->value_to_json(row,
						   options_at(o, row->offset));
}

/* Item i of the list at items. */
static void *item_at(const struct option_row *row, const void *items, size_t i)
{
	return options_at(items, i * options_type_of(row)->item_size);
}

/* Splits a comma list, with no empty item, into items. */
static int split_list(const char *label, const char *text, char **copy,
		      char *items[], size_t *count, size_t most, char **cause)
{
	char *save = NULL;

	*count = 0;
	if (!text[0] || text[0] == ',' || text[strlen(text) - 1] == ',' ||
	    strstr(text, ",,"))
		return cause_set(cause, -EINVAL, "%s: '%s' has an empty item",
				 label, text);
	*copy = strdup(text);
	if (!*copy)
		return -ENOMEM;
	for (char *item = strtok_r(*copy, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		if (*count == most) {
			free(*copy);
			*copy = NULL;
			return cause_set(cause, -EINVAL,
					 "%s: more than %zu items", label,
					 most);
		}
		items[(*count)++] = item;
	}
	return 0;
}

/* A list from text: each item as its type reads it, then the count. */
static int list_from_text(struct options *o, const struct option_row *row,
			  const char *label, const char *text, char **cause)
{
	const struct option_type_ops *type = options_type_of(row);
	char *items[OPTIONS_LIST_MAX], *copy = NULL;
	size_t n;
	int r = split_list(label, text, &copy, items, &n, type->most, cause);

	for (size_t i = 0; r == 0 && i < n; i++)
		r = type->item_from_text(
			row, item_at(row, options_at(o, row->offset), i), label,
			items[i], o->viewing_only, cause);
	if (r == 0)
		*(size_t *)options_at(o, row->count_offset) = n;
	free(copy);
	return r;
}

/* A JSON list into items, each as its type reads it; *n of them. */
static int json_items(const struct option_row *row, const cJSON *v,
		      const char *where, void *items, bool viewing, size_t *n,
		      char **cause)
{
	const struct option_type_ops *type = options_type_of(row);
	const cJSON *item;

	*n = 0;
	if (!cJSON_IsArray(v))
		return cause_set(cause, -EINVAL, "%s: must be a list", where);
	cJSON_ArrayForEach(item, v)
	{
		char item_where[160];
		int r;

		if (*n == type->most)
			return cause_set(cause, -EINVAL,
					 "%s: more than %zu items", where,
					 type->most);
		snprintf(item_where, sizeof(item_where), "%s[%zu]", where, *n);
		r = type->item_from_json(row, item_at(row, items, *n), item,
					 where, item_where, viewing, cause);
		if (r < 0)
			return r;
		(*n)++;
	}
	if (*n < type->least)
		return cause_set(cause, -EINVAL, "%s: must hold at least %zu",
				 where, type->least);
	return 0;
}

static int list_from_json(struct options *o, const struct option_row *row,
			  const cJSON *v, const char *where, char **cause)
{
	size_t n;
	int r = json_items(row, v, where, options_at(o, row->offset),
			   o->viewing_only, &n, cause);

	if (r == 0)
		*(size_t *)options_at(o, row->count_offset) = n;
	return r;
}

static cJSON *list_to_json(const struct options *o,
			   const struct option_row *row)
{
	const struct option_type_ops *type = options_type_of(row);
	size_t n = *(const size_t *)options_at(o, row->count_offset);
	cJSON *list = cJSON_CreateArray();

	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(
			list,
			type->item_to_json(
				row,
				item_at(row, options_at(o, row->offset), i)));
	return list;
}

static cJSON *list_schema(const struct option_row *row)
{
	const struct option_type_ops *type = options_type_of(row);

	return schema_array(type->item_schema(row), (double)type->least,
			    (double)type->most);
}

/* OPTION_FLAG and OPTION_BOOL: given is true. */

static int flag_from_text(struct options *o, const struct option_row *row,
			  const char *label, const char *text, char **cause)
{
	(void)label;
	(void)text;
	(void)cause;
	*(bool *)options_at(o, row->offset) = true;
	return 0;
}

static int bool_from_json(const struct option_row *row, const cJSON *v,
			  const char *where, bool viewing, void *value,
			  char **cause)
{
	(void)row;
	(void)viewing;
	if (!cJSON_IsBool(v))
		return cause_set(cause, -EINVAL, "%s: must be true or false",
				 where);
	*(bool *)value = cJSON_IsTrue(v);
	return 0;
}

static cJSON *bool_to_json(const struct option_row *row, const void *value)
{
	(void)row;
	return cJSON_CreateBool(*(const bool *)value);
}

static cJSON *bool_schema(const struct option_row *row)
{
	cJSON *s = cJSON_CreateObject();

	(void)row;
	cJSON_AddStringToObject(s, "type", "boolean");
	return s;
}

static void bool_describe(FILE *out, const struct option_row *row)
{
	(void)row;
	fprintf(out, ".Cm true No or Cm false .\n");
}

/*
 * Numbers: OPTION_UINT, OPTION_SECONDS, OPTION_NUMBER, the numeric form of
 * OPTION_RATE and each item of OPTION_COUNTS, within the row's range.  They
 * differ in how they are stored (get and set) and whether they are whole.
 */

static double uint_get(const void *value)
{
	return *(const unsigned int *)value;
}

static void uint_set(void *value, double number)
{
	*(unsigned int *)value = (unsigned int)number;
}

/* Seconds, stored as milliseconds. */
static double ms_get(const void *value)
{
	return (double)*(const uint64_t *)value / 1000;
}

static void ms_set(void *value, double seconds)
{
	*(uint64_t *)value = (uint64_t)llround(seconds * 1000);
}

static double double_get(const void *value)
{
	return *(const double *)value;
}

static void double_set(void *value, double number)
{
	*(double *)value = number;
}

static double u64_get(const void *value)
{
	return (double)*(const uint64_t *)value;
}

static void u64_set(void *value, double number)
{
	*(uint64_t *)value = (uint64_t)number;
}

static const struct option_number whole_number = {
	.get = uint_get,
	.set = uint_set,
	.integer = true,
	.noun = "a whole number",
	.size = sizeof(unsigned int),
};

static const struct option_number seconds_number = {
	.get = ms_get,
	.set = ms_set,
	.noun = "a duration in seconds",
	.unit = " s",
	.size = sizeof(uint64_t),
};

static const struct option_number real_number = {
	.get = double_get,
	.set = double_set,
	.noun = "a number",
	.size = sizeof(double),
};

/* A byte count given as a number: its text is read as a size ("4M"). */
static const struct option_number bytes_number = {
	.get = u64_get,
	.set = u64_set,
	.integer = true,
	.noun = "a size in bytes",
	.size = sizeof(uint64_t),
};

/* A rate given as a number: its text is read as a rate ("1G"). */
static const struct option_number rate_number = {
	.get = u64_get,
	.set = u64_set,
	.integer = true,
	.size = sizeof(uint64_t),
};

/*
 * A number from text into value; a positive minimum must not be stored as
 * nothing (a duration rounded down to 0 ms).
 */
static int number_from_item_text(const struct option_row *row, void *value,
				 const char *label, const char *text,
				 bool viewing, char **cause)
{
	const struct option_number *kind = options_type_of(row)->number;
	unsigned long whole = 0;
	double number;
	char range[64];
	int r;

	(void)viewing;
	if (kind->integer) {
		r = units_parse_uint(text, (unsigned long)row->min,
				     (unsigned long)row->max, &whole);
		number = (double)whole;
	} else {
		r = units_parse_number(text, row->min, row->max, &number);
	}
	if (r == 0)
		kind->set(value, number);
	if (r == 0 && !(row->min > 0 && kind->get(value) == 0))
		return 0;
	numbers_range(row, " .. ", range, sizeof(range));
	return cause_set(cause, -EINVAL, "%s: '%s' is not %s %s", label, text,
			 kind->noun, range);
}

static int number_from_text(struct options *o, const struct option_row *row,
			    const char *label, const char *text, char **cause)
{
	return number_from_item_text(row, options_at(o, row->offset), label,
				     text, o->viewing_only, cause);
}

static int number_from_json(const struct option_row *row, const cJSON *v,
			    const char *where, bool viewing, void *value,
			    char **cause)
{
	const struct option_number *kind = options_type_of(row)->number;
	double number;
	int r = json_number(row, v, where, kind->integer, &number, cause);

	(void)viewing;
	if (r < 0)
		return r;
	kind->set(value, number);
	if (row->min > 0 && kind->get(value) == 0)
		return cause_set(cause, -EINVAL, "%s: must be at least %g",
				 where, row->min);
	return 0;
}

static int number_from_item_json(const struct option_row *row, void *item,
				 const cJSON *v, const char *list_where,
				 const char *where, bool viewing, char **cause)
{
	(void)list_where;
	return number_from_json(row, v, where, viewing, item, cause);
}

static cJSON *number_to_json(const struct option_row *row, const void *value)
{
	return cJSON_CreateNumber(options_type_of(row)->number->get(value));
}

static bool number_empty(const struct option_row *row, const void *value)
{
	return options_type_of(row)->number->get(value) == 0;
}

static cJSON *number_schema(const struct option_row *row)
{
	return schema_range(options_type_of(row)->number->integer ? "integer"
								  : "number",
			    row->min, row->max);
}

static void number_describe(FILE *out, const struct option_row *row)
{
	char range[96];

	numbers_range(row, " to ", range, sizeof(range));
	fprintf(out, "%s %s.\n", options_type_of(row)->words, range);
}

/*
 * Seconds whose row reads 0 as a word (the duration: "continuous").  A file
 * says the word, and reads it -- or 0, as files written before said it --
 * as no duration of its own: the explorer runs until a control changes and
 * --batch takes its default or -d.  A run's own settings (the wire, each
 * run of an export) say 0: until stopped.
 */
static const char *seconds_zero_word(const struct option_row *row)
{
	return row->control ? row->control->zero : NULL;
}

static bool seconds_zero_from_json(const struct option_row *row, const cJSON *v)
{
	const char *word = seconds_zero_word(row);

	if (cJSON_IsNumber(v) && v->valuedouble == 0)
		return word || row->min == 0;
	return word && cJSON_IsString(v) && strcmp(v->valuestring, word) == 0;
}

/* A preset's: its word is no value of its own (the key is not given). */
static int seconds_from_json(struct options *o, const struct option_row *row,
			     const cJSON *v, const char *where, char **cause)
{
	if (seconds_zero_word(row) && seconds_zero_from_json(row, v))
		return OPTION_NOT_GIVEN;
	return number_from_json(row, v, where, o->viewing_only,
				options_at(o, row->offset), cause);
}

/* A run's: 0 means until stopped (a paced or endless run). */
static int seconds_value_from_json(const struct option_row *row, const cJSON *v,
				   const char *where, bool viewing, void *value,
				   char **cause)
{
	if (cJSON_IsNumber(v) && v->valuedouble == 0) {
		ms_set(value, 0);
		return 0;
	}
	if (seconds_zero_from_json(row, v)) {
		ms_set(value, 0);
		return 0;
	}
	return number_from_json(row, v, where, viewing, value, cause);
}

/* A preset's: 0 is said by the word. */
static cJSON *seconds_to_json(const struct options *o,
			      const struct option_row *row)
{
	if (ms_get(options_at(o, row->offset)) == 0 && seconds_zero_word(row))
		return cJSON_CreateString(seconds_zero_word(row));
	return scalar_to_json(o, row);
}

static cJSON *seconds_schema(const struct option_row *row)
{
	const char *word = seconds_zero_word(row);
	cJSON *zero, *any;

	if (!word)
		return number_schema(row);
	zero = cJSON_CreateObject();
	any = cJSON_AddArrayToObject(zero, "enum");
	cJSON_AddItemToArray(any, cJSON_CreateString(word));
	cJSON_AddItemToArray(any, cJSON_CreateNumber(0));
	return schema_one_of(number_schema(row), zero);
}

static void seconds_describe(FILE *out, const struct option_row *row)
{
	char range[96];

	numbers_range(row, " to ", range, sizeof(range));
	if (!seconds_zero_word(row)) {
		fprintf(out, "%s %s.\n", options_type_of(row)->words, range);
		return;
	}
	fprintf(out,
		"%s %s, or\n.Li \"%s\"\n(0 reads the same): no duration of "
		"its own, as when the key is left out.\n",
		options_type_of(row)->words, range, seconds_zero_word(row));
}

/* OPTION_RATE: bit/s (uint64_t), "1G" or a number. */

static int rate_from_text(struct options *o, const struct option_row *row,
			  const char *label, const char *text, char **cause)
{
	char lo[32], hi[32];

	if (units_parse_rate(text, (uint64_t)row->min, (uint64_t)row->max,
			     options_at(o, row->offset)) == 0)
		return 0;
	units_format_rate((uint64_t)row->min, lo, sizeof(lo));
	units_format_rate((uint64_t)row->max, hi, sizeof(hi));
	return cause_set(cause, -EINVAL,
			 "%s: '%s' is not a rate (bit/s with K, M or G, "
			 "%s .. %s)",
			 label, text, lo, hi);
}

static int rate_from_json(struct options *o, const struct option_row *row,
			  const cJSON *v, const char *where, char **cause)
{
	if (cJSON_IsString(v))
		return json_via_text(o, row, v, where, cause);
	return scalar_from_json(o, row, v, where, cause);
}

static cJSON *rate_schema(const struct option_row *row)
{
	return schema_one_of(schema_range("integer", row->min, row->max),
			     schema_pattern("^[0-9.]+[KkMmGg]?$"));
}

static void rate_describe(FILE *out, const struct option_row *row)
{
	char lo[32], hi[32];

	units_format_rate((uint64_t)row->min, lo, sizeof(lo));
	units_format_rate((uint64_t)row->max, hi, sizeof(hi));
	fprintf(out,
		"Bits per second, %s to %s: a number, or text such as\n"
		".Qq 1G .\n",
		lo, hi);
}

/*
 * OPTION_BYTES: a byte count (uint64_t), "2G" or a number, up to the row's
 * maximum where it has one.
 */

static int bytes_from_text(struct options *o, const struct option_row *row,
			   const char *label, const char *text, char **cause)
{
	uint64_t bytes = 0;
	char most[32] = "";

	if (row->max > 0)
		units_format_bytes((uint64_t)row->max, most, sizeof(most));
	if (units_parse_bytes(text, &bytes) < 0 ||
	    (row->max > 0 && (double)bytes > row->max))
		return cause_set(cause, -EINVAL,
				 "%s: '%s' is not a size (bytes, "
				 "or a number with K, M, G or T; "
				 "more than 0%s%s)",
				 label, text, most[0] ? ", at most " : "",
				 most);
	*(uint64_t *)options_at(o, row->offset) = bytes;
	return 0;
}

static int bytes_from_json(struct options *o, const struct option_row *row,
			   const cJSON *v, const char *where, char **cause)
{
	if (cJSON_IsString(v))
		return json_via_text(o, row, v, where, cause);
	return scalar_from_json(o, row, v, where, cause);
}

static cJSON *bytes_schema(const struct option_row *row)
{
	return schema_one_of(schema_range("integer", row->min, row->max),
			     schema_pattern("^[0-9.]+[KkMmGgTt]?$"));
}

static void bytes_describe(FILE *out, const struct option_row *row)
{
	char most[32];

	units_format_bytes((uint64_t)row->max, most, sizeof(most));
	fprintf(out,
		"Bytes, up to %s: a number, or text such as\n"
		".Qq 4M ;\n"
		"0 leaves the kernel's own.\n",
		most);
}

/* OPTION_SIZES: message sizes (size_t[]), "16K" or a number each. */

static int size_from_text(const struct option_row *row, void *item,
			  const char *label, const char *text, bool viewing,
			  char **cause)
{
	int r = units_parse_size(text, item);

	(void)row;
	(void)viewing;
	if (r == -EINVAL)
		return cause_set(cause, -EINVAL,
				 "%s: '%s' is not a size "
				 "(bytes, or a number with K "
				 "or M)",
				 label, text);
	if (r < 0)
		return cause_set(cause, -EINVAL,
				 "%s: '%s' is out of range (64 "
				 ".. 4M)",
				 label, text);
	return 0;
}

static int size_item_from_json(const struct option_row *row, void *item,
			       const cJSON *v, const char *list_where,
			       const char *where, bool viewing, char **cause)
{
	char label[48];
	double d;
	int r;

	(void)list_where;
	(void)viewing;
	if (!cJSON_IsString(v)) {
		r = json_number(row, v, where, true, &d, cause);
		if (r == 0)
			*(size_t *)item = (size_t)d;
		return r;
	}
	r = units_parse_size(v->valuestring, item);
	if (r == -EINVAL)
		return cause_set(cause, -EINVAL,
				 "%s: %s: '%s' is not a size (bytes, "
				 "or a number with K or M)",
				 where,
				 options_row_label(row, label, sizeof(label)),
				 v->valuestring);
	if (r < 0)
		return cause_set(cause, -EINVAL,
				 "%s: must be 64 .. 4194304 bytes "
				 "(not %s)",
				 where, v->valuestring);
	return 0;
}

static cJSON *size_item_to_json(const struct option_row *row, const void *item)
{
	(void)row;
	return cJSON_CreateNumber((double)*(const size_t *)item);
}

/* A run holds one size, in bytes, written exactly. */
static int size_value_from_json(const struct option_row *row, const cJSON *v,
				const char *where, bool viewing, void *value,
				char **cause)
{
	double d;
	int r;

	(void)viewing;
	if (!cJSON_IsNumber(v))
		return cause_set(cause, -EINVAL,
				 "%s: must be a non-negative integer", where);
	r = json_number(row, v, where, true, &d, cause);
	if (r == 0)
		*(size_t *)value = (size_t)d;
	return r;
}

static cJSON *size_value_to_json(const struct option_row *row,
				 const void *value)
{
	(void)row;
	return jsonfile_u64_item(*(const size_t *)value);
}

static double size_position(const struct option_row *row, const void *value)
{
	(void)row;
	return (double)*(const size_t *)value;
}

static void size_set_position(const struct option_row *row, void *value,
			      double position)
{
	(void)row;
	*(size_t *)value = (size_t)position;
}

static void size_text(const struct option_row *row, const void *value,
		      char *out, size_t size)
{
	(void)row;
	units_format_size_iec(*(const size_t *)value, out, size);
}

static cJSON *size_schema(const struct option_row *row)
{
	return schema_one_of(schema_range("integer", row->min, row->max),
			     schema_pattern("^[0-9]+[KkMm]?$"));
}

static void sizes_describe(FILE *out, const struct option_row *row)
{
	char range[96];

	sizes_range(row, " to ", range, sizeof(range));
	fprintf(out,
		"A list of sizes, each %s: bytes, or text such as\n"
		".Qq 16K .\n",
		range);
}

/* OPTION_STRATEGIES: strategy pointers, or "all" those available here. */

static int strategies_from_text(struct options *o, const struct option_row *row,
				const char *label, const char *text,
				char **cause)
{
	if (strcmp(text, "all") == 0) {
		strategies_all(o);
		return 0;
	}
	return list_from_text(o, row, label, text, cause);
}

static int strategy_from_text(const struct option_row *row, void *item,
			      const char *label, const char *text, bool viewing,
			      char **cause)
{
	(void)row;
	return find_strategy(label, text, viewing, item, cause);
}

static int strategies_from_json(struct options *o, const struct option_row *row,
				const cJSON *v, const char *where, char **cause)
{
	if (cJSON_IsArray(v) && cJSON_GetArraySize(v) == 1 &&
	    cJSON_IsString(v->child) &&
	    strcmp(v->child->valuestring, "all") == 0) {
		strategies_all(o);
		return 0;
	}
	return list_from_json(o, row, v, where, cause);
}

static int strategy_item_from_json(const struct option_row *row, void *item,
				   const cJSON *v, const char *list_where,
				   const char *where, bool viewing,
				   char **cause)
{
	char label[48], *why = NULL;
	int r;

	if (!cJSON_IsString(v) || !v->valuestring[0])
		return cause_set(cause, -EINVAL, "%s: must be a name", where);
	r = find_strategy(options_row_label(row, label, sizeof(label)),
			  v->valuestring, viewing, item, &why);
	if (r < 0) {
		cause_set(cause, -EINVAL, "%s: %s", list_where, why);
		free(why);
	}
	return r;
}

/* A run holds one strategy, by name. */
static int strategy_value_from_json(const struct option_row *row,
				    const cJSON *v, const char *where,
				    bool viewing, void *value, char **cause)
{
	(void)row;
	if (!cJSON_IsString(v))
		return cause_set(cause, -EINVAL, "%s: must be a name", where);
	return find_strategy(where, v->valuestring, viewing, value, cause);
}

static cJSON *strategy_to_json(const struct option_row *row, const void *value)
{
	(void)row;
	return cJSON_CreateString(
		(*(const struct strategy_ops *const *)value)->name);
}

/* A control steps through the strategies by their index. */
static double strategy_position(const struct option_row *row, const void *value)
{
	(void)row;
	return (double)strategy_index(
		*(const struct strategy_ops *const *)value);
}

static void strategy_set_position(const struct option_row *row, void *value,
				  double position)
{
	(void)row;
	*(const struct strategy_ops **)value = strategy_at((size_t)position);
}

static size_t strategy_positions(const struct option_row *row)
{
	(void)row;
	return strategy_count();
}

static void strategy_text(const struct option_row *row, const void *value,
			  char *out, size_t size)
{
	(void)row;
	snprintf(out, size, "%s",
		 (*(const struct strategy_ops *const *)value)->name);
}

/* A name in a list (a strategy, an event): no comma, as the command line's. */
static cJSON *name_item_schema(const struct option_row *row)
{
	(void)row;
	return schema_pattern("^[^,]+$");
}

static void strategies_describe(FILE *out, const struct option_row *row)
{
	char list[256];

	(void)row;
	strategy_list(list, sizeof(list));
	fprintf(out, "A list of strategy names\n.Pq %s ,\nor\n.Qq all .\n",
		list);
}

/* OPTION_EVENTS: perf events' names; none given is none counted. */

static int events_from_text(struct options *o, const struct option_row *row,
			    const char *label, const char *text, char **cause)
{
	/* --events with no event (or none) is --no-counters. */
	if (!text[0] || strcmp(text, "none") == 0) {
		*(size_t *)options_at(o, row->count_offset) = 0;
		return 0;
	}
	return list_from_text(o, row, label, text, cause);
}

static int event_from_text(const struct option_row *row, void *item,
			   const char *label, const char *text, bool viewing,
			   char **cause)
{
	(void)row;
	(void)label;
	(void)viewing;
	(void)cause;
	snprintf(item, EVENT_NAME_SIZE, "%s", text);
	return 0;
}

static int event_item_from_json(const struct option_row *row, void *item,
				const cJSON *v, const char *list_where,
				const char *where, bool viewing, char **cause)
{
	(void)row;
	(void)list_where;
	(void)viewing;
	if (!cJSON_IsString(v) || !v->valuestring[0] ||
	    strlen(v->valuestring) >= EVENT_NAME_SIZE)
		return cause_set(cause, -EINVAL, "%s: must be a name", where);
	snprintf(item, EVENT_NAME_SIZE, "%s", v->valuestring);
	return 0;
}

/* The events named, or the default set resolved: the names it has here. */
static cJSON *events_to_json(const struct options *o,
			     const struct option_row *row)
{
	cJSON *list = cJSON_CreateArray();

	(void)row;
	for (size_t i = 0; o->counters_enabled && i < o->event_count; i++)
		cJSON_AddItemToArray(list, cJSON_CreateString(o->events[i]));
	for (unsigned int i = 0;
	     o->counters_enabled && !o->event_count && i < o->counters.count;
	     i++)
		cJSON_AddItemToArray(
			list, cJSON_CreateString(o->counters.event[i].name));
	return list;
}

static void events_describe(FILE *out, const struct option_row *row)
{
	(void)row;
	fprintf(out,
		"A list of at most %d perf event names libpfm4 knows; "
		"an empty list counts none.\n",
		COUNTERS_MAX);
}

/* OPTION_CPUS: struct cpu_list, "0,2-3" or a list of numbers. */

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
	int r = json_items(row, v, where, cpus->cpu, viewing, &n, cause);

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
	int r = json_number(&cpu, v, where, true, &d, cause);

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

	return schema_range("integer", cpu.min, cpu.max);
}

static void cpus_describe(FILE *out, const struct option_row *row)
{
	(void)row;
	fprintf(out, "A list of CPU numbers; an empty list pins nothing.\n");
}

/* OPTION_CHOICE: an enum (int), one of the row's names. */

static int choice_from_text(struct options *o, const struct option_row *row,
			    const char *label, const char *text, char **cause)
{
	char choices[128];

	for (int i = 0; row->names[i]; i++) {
		if (strcmp(text, row->names[i]) == 0) {
			*(int *)options_at(o, row->offset) = i;
			return 0;
		}
	}
	choice_list(row->names, false, choices, sizeof(choices));
	return cause_set(cause, -EINVAL, "%s: '%s' is not a %s (%s)", label,
			 text, row->name, choices);
}

static int choice_from_json(const struct option_row *row, const cJSON *v,
			    const char *where, bool viewing, void *value,
			    char **cause)
{
	char choices[128];

	(void)viewing;
	for (int i = 0; cJSON_IsString(v) && row->names[i]; i++) {
		if (strcmp(v->valuestring, row->names[i]) == 0) {
			*(int *)value = i;
			return 0;
		}
	}
	choice_list(row->names, true, choices, sizeof(choices));
	return cause_set(cause, -EINVAL, "%s: must be one of %s", where,
			 choices);
}

static cJSON *choice_to_json(const struct option_row *row, const void *value)
{
	return cJSON_CreateString(row->names[*(const int *)value]);
}

/* A control steps through the names by their index. */
static double choice_position(const struct option_row *row, const void *value)
{
	(void)row;
	return *(const int *)value;
}

static void choice_set_position(const struct option_row *row, void *value,
				double position)
{
	(void)row;
	*(int *)value = (int)position;
}

static size_t choice_positions(const struct option_row *row)
{
	size_t n = 0;

	while (row->names[n])
		n++;
	return n;
}

static void choice_text(const struct option_row *row, const void *value,
			char *out, size_t size)
{
	snprintf(out, size, "%s", row->names[*(const int *)value]);
}

static cJSON *choice_schema(const struct option_row *row)
{
	return schema_enum(row->names);
}

/* "One of "stream" or "rr"", then end as the type says. */
static void names_describe(FILE *out, const struct option_row *row,
			   const char *end)
{
	fprintf(out, "One of\n");
	for (size_t i = 0; row->names[i]; i++)
		fprintf(out, "%s.Qq %s%s\n",
			i && !row->names[i + 1] ? "or\n" : "", row->names[i],
			!row->names[i + 1]  ? end
			: row->names[i + 2] ? " ,"
					    : "");
}

static void choice_describe(FILE *out, const struct option_row *row)
{
	names_describe(out, row, " .");
}

/* OPTION_CHOICES: "One of "stream" or "rr", or a list of them". */
static void choices_describe(FILE *out, const struct option_row *row)
{
	names_describe(out, row, " ,");
	fprintf(out, "or a list of them, each once.\n");
}

/* OPTION_CHOICES: int[] of the row's names' indices, each once. */

/* Name as the index of one of row's choices, not yet in list: 0 or -EINVAL. */
static int add_choice(const struct option_row *row, const char *where,
		      const char *name, int *list, size_t *count, char **cause)
{
	char choices[128];

	for (int i = 0; row->names[i]; i++) {
		if (strcmp(name, row->names[i]) != 0)
			continue;
		for (size_t k = 0; k < *count; k++)
			if (list[k] == i)
				return cause_set(cause, -EINVAL,
						 "%s: '%s' is given twice",
						 where, name);
		list[(*count)++] = i;
		return 0;
	}
	choice_list(row->names, false, choices, sizeof(choices));
	return cause_set(cause, -EINVAL, "%s: '%s' is not a %s (%s)", where,
			 name, row->name ? row->name : row->key, choices);
}

/* A list of choices into o. */
static void choices_store(struct options *o, const struct option_row *row,
			  const int *list, size_t count)
{
	memcpy(options_at(o, row->offset), list, count * sizeof(int));
	*(size_t *)options_at(o, row->count_offset) = count;
}

static int choices_from_text(struct options *o, const struct option_row *row,
			     const char *label, const char *text, char **cause)
{
	char *items[OPTIONS_LIST_MAX], *copy = NULL;
	int list[OPTIONS_LIST_MAX];
	size_t n, count = 0;
	int r = split_list(label, text, &copy, items, &n, (size_t)row->max,
			   cause);

	for (size_t i = 0; r == 0 && i < n; i++)
		r = add_choice(row, label, items[i], list, &count, cause);
	free(copy);
	if (r < 0)
		return r;
	choices_store(o, row, list, count);
	return 0;
}

/*
 * A list of choices from JSON: one name (as files before lists had it) or a
 * list of names, each once.
 */
static int choices_read(const struct option_row *row, const cJSON *v,
			const char *where, int *list, size_t *count,
			char **cause)
{
	char choices[128], item_where[4400];
	const cJSON *item;

	*count = 0;
	choice_list(row->names, true, choices, sizeof(choices));
	if (cJSON_IsString(v)) {
		if (add_choice(row, where, v->valuestring, list, count, cause) <
		    0) {
			free(*cause);
			*cause = NULL;
			return cause_set(cause, -EINVAL,
					 "%s: must be one of %s, or a list "
					 "of them",
					 where, choices);
		}
	} else if (cJSON_IsArray(v)) {
		cJSON_ArrayForEach(item, v)
		{
			snprintf(item_where, sizeof(item_where), "%s[%zu]",
				 where, *count);
			if (*count == (size_t)row->max || !cJSON_IsString(item))
				return cause_set(cause, -EINVAL,
						 "%s: must be one of %s",
						 item_where, choices);
			if (add_choice(row, item_where, item->valuestring, list,
				       count, cause) < 0)
				return -EINVAL;
		}
	}
	if (!*count)
		return cause_set(cause, -EINVAL,
				 "%s: must be one of %s, or a list of them",
				 where, choices);
	return 0;
}

static int choices_from_json(struct options *o, const struct option_row *row,
			     const cJSON *v, const char *where, char **cause)
{
	int list[OPTIONS_LIST_MAX];
	size_t count;
	int r = choices_read(row, v, where, list, &count, cause);

	if (r == 0)
		choices_store(o, row, list, count);
	return r;
}

/* One is written as one name: presets older nio-tops read. */
static cJSON *choices_to_json(const struct options *o,
			      const struct option_row *row)
{
	if (*(const size_t *)options_at(o, row->count_offset) == 1)
		return choice_to_json(row, options_at(o, row->offset));
	return list_to_json(o, row);
}

/* A run has one. */
static int choices_value_from_json(const struct option_row *row, const cJSON *v,
				   const char *where, bool viewing, void *value,
				   char **cause)
{
	int list[OPTIONS_LIST_MAX];
	size_t count;
	int r = choices_read(row, v, where, list, &count, cause);

	(void)viewing;
	if (r < 0)
		return r;
	if (count != 1)
		return cause_set(cause, -EINVAL, "%s: must be one name", where);
	*(int *)value = list[0];
	return 0;
}

static cJSON *choices_schema(const struct option_row *row)
{
	cJSON *list = schema_array(schema_enum(row->names), 1, row->max);

	cJSON_AddBoolToObject(list, "uniqueItems", true);
	return schema_one_of(schema_enum(row->names), list);
}

/* OPTION_NAME and OPTION_TEXT: char[size], of min .. max characters. */

/* Text of the row's length into o; a name is also safe as a file name. */
static int text_store(struct options *o, const struct option_row *row,
		      const char *label, const char *text, bool name,
		      char **cause)
{
	if (strlen(text) < row->min || strlen(text) > row->max ||
	    (name && !units_name_valid(text, (size_t)row->max)))
		return cause_set(cause, -EINVAL,
				 "%s: '%s' is not a name (%.0f .. %.0f of "
				 "A-Z a-z 0-9 _ . -, not starting with .)",
				 label, text, row->min, row->max);
	snprintf(options_at(o, row->offset), row->size, "%s", text);
	return 0;
}

static int name_from_text(struct options *o, const struct option_row *row,
			  const char *label, const char *text, char **cause)
{
	return text_store(o, row, label, text, true, cause);
}

static int text_from_text(struct options *o, const struct option_row *row,
			  const char *label, const char *text, char **cause)
{
	return text_store(o, row, label, text, false, cause);
}

/* Whether v is text of the row's length. */
static int text_check(const struct option_row *row, const cJSON *v,
		      const char *where, char **cause)
{
	if (!cJSON_IsString(v) || strlen(v->valuestring) < row->min ||
	    strlen(v->valuestring) > row->max)
		return cause_set(cause, -EINVAL,
				 "%s: must be text of %.0f .. %.0f "
				 "characters",
				 where, row->min, row->max);
	return 0;
}

/* A name is checked as the command line checks it. */
static int name_from_json(struct options *o, const struct option_row *row,
			  const cJSON *v, const char *where, char **cause)
{
	int r = text_check(row, v, where, cause);

	return r < 0 ? r : json_via_text(o, row, v, where, cause);
}

static int text_from_json(struct options *o, const struct option_row *row,
			  const cJSON *v, const char *where, char **cause)
{
	int r = text_check(row, v, where, cause);

	if (r == 0)
		snprintf(options_at(o, row->offset), row->size, "%s",
			 v->valuestring);
	return r;
}

static cJSON *text_to_json(const struct options *o,
			   const struct option_row *row)
{
	return cJSON_CreateString(options_at(o, row->offset));
}

/* A run's name (row->size bytes at value): "" is none, the kernel's own. */
static int name_value_from_json(const struct option_row *row, const cJSON *v,
				const char *where, bool viewing, void *value,
				char **cause)
{
	(void)viewing;
	if (!cJSON_IsString(v) || strlen(v->valuestring) > row->max ||
	    (v->valuestring[0] &&
	     !units_name_valid(v->valuestring, (size_t)row->max)))
		return cause_set(cause, -EINVAL,
				 "%s: must be a name of up to %.0f of "
				 "A-Z a-z 0-9 _ . -, or \"\"",
				 where, row->max);
	snprintf(value, row->size, "%s", v->valuestring);
	return 0;
}

static cJSON *name_value_to_json(const struct option_row *row,
				 const void *value)
{
	(void)row;
	return cJSON_CreateString(value);
}

static bool text_empty(const struct option_row *row, const void *value)
{
	(void)row;
	return !*(const char *)value;
}

static cJSON *text_schema(const struct option_row *row)
{
	cJSON *s = cJSON_CreateObject();

	cJSON_AddStringToObject(s, "type", "string");
	cJSON_AddNumberToObject(s, "minLength", row->min);
	cJSON_AddNumberToObject(s, "maxLength", row->max);
	return s;
}

static cJSON *name_schema(const struct option_row *row)
{
	cJSON *s = text_schema(row);

	cJSON_AddStringToObject(s, "pattern", "^[A-Za-z0-9_-][A-Za-z0-9_.-]*$");
	return s;
}

static void name_describe(FILE *out, const struct option_row *row)
{
	fprintf(out,
		"A name of %.0f to %.0f letters, digits, _ . and -, "
		"not starting with a dot.\n",
		row->min, row->max);
}

static void text_describe(FILE *out, const struct option_row *row)
{
	fprintf(out, "Text of %.0f to %.0f characters.\n", row->min, row->max);
}

/* OPTION_PATH: a file or an address, kept from argv. */

static int path_from_text(struct options *o, const struct option_row *row,
			  const char *label, const char *text, char **cause)
{
	if (!text[0])
		return cause_set(cause, -EINVAL, "%s: empty", label);
	*(const char **)options_at(o, row->offset) = text;
	return 0;
}

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
	return schema_pattern("^[0-9.]+/[0-9]+$");
}

static void subnet_describe(FILE *out, const struct option_row *row)
{
	fprintf(out, "An IPv4 subnet, /8 to /30, such as\n.Qq %s .\n",
		row->def);
}

/* OPTION_PRESET: -p, another preset's options. */

static int preset_from_text(struct options *o, const struct option_row *row,
			    const char *label, const char *text, char **cause)
{
	(void)row;
	(void)label;
	return options_load_preset(o, text, cause);
}

/*
 * A number and nothing more (OPTION_UINT, OPTION_NUMBER): stored as kind
 * says, called words in the manual.
 */
#define PLAIN_NUMBER(kind, manual_words)                                       \
	{                                                                      \
		.from_text = number_from_text, .from_json = scalar_from_json,  \
		.to_json = scalar_to_json, .empty = number_empty,              \
		.schema = number_schema, .describe = number_describe,          \
		.help_range = numbers_help_range,                              \
		.value_from_json = number_from_json,                           \
		.value_to_json = number_to_json, .number = &(kind),            \
		.words = (manual_words),                                       \
	}

const struct option_type_ops option_types[OPTION_TYPE_COUNT] = {
	[OPTION_FLAG] = {.from_text = flag_from_text},
	[OPTION_BOOL] = {.from_text = flag_from_text,
			 .from_json = scalar_from_json,
			 .to_json = scalar_to_json,
			 .schema = bool_schema,
			 .describe = bool_describe,
			 .value_from_json = bool_from_json,
			 .value_to_json = bool_to_json,
			 .value_size = sizeof(bool)},
	[OPTION_UINT] = PLAIN_NUMBER(whole_number, "An integer,"),
	[OPTION_SECONDS] = {.from_text = number_from_text,
			    .from_json = seconds_from_json,
			    .to_json = seconds_to_json,
			    .schema = seconds_schema,
			    .describe = seconds_describe,
			    .help_range = numbers_help_range,
			    .value_from_json = seconds_value_from_json,
			    .value_to_json = number_to_json,
			    .number = &seconds_number,
			    .words = "A number of seconds,"},
	[OPTION_NUMBER] = PLAIN_NUMBER(real_number, "A number,"),
	[OPTION_RATE] = {.from_text = rate_from_text,
			 .from_json = rate_from_json,
			 .to_json = scalar_to_json,
			 .empty = number_empty,
			 .schema = rate_schema,
			 .describe = rate_describe,
			 .value_from_json = number_from_json,
			 .value_to_json = number_to_json,
			 .number = &rate_number},
	[OPTION_BYTES] = {.from_text = bytes_from_text,
			  .from_json = bytes_from_json,
			  .to_json = scalar_to_json,
			  .empty = number_empty,
			  .schema = bytes_schema,
			  .describe = bytes_describe,
			  .value_from_json = number_from_json,
			  .value_to_json = number_to_json,
			  .number = &bytes_number},
	[OPTION_SIZES] = {.from_text = list_from_text,
			  .from_json = list_from_json,
			  .to_json = list_to_json,
			  .schema = list_schema,
			  .describe = sizes_describe,
			  .help_range = sizes_help_range,
			  .value_from_json = size_value_from_json,
			  .value_to_json = size_value_to_json,
			  .position = size_position,
			  .set_position = size_set_position,
			  .text = size_text,
			  .item_from_text = size_from_text,
			  .item_from_json = size_item_from_json,
			  .item_to_json = size_item_to_json,
			  .item_schema = size_schema,
			  .least = 1,
			  .most = OPTIONS_LIST_MAX,
			  .item_size = sizeof(size_t)},
	[OPTION_COUNTS] = {.from_text = list_from_text,
			   .from_json = list_from_json,
			   .to_json = list_to_json,
			   .schema = list_schema,
			   .describe = number_describe,
			   .help_range = numbers_help_range,
			   .value_from_json = number_from_json,
			   .value_to_json = number_to_json,
			   .number = &whole_number,
			   .words = "A list of integers, each",
			   .item_from_text = number_from_item_text,
			   .item_from_json = number_from_item_json,
			   .item_to_json = number_to_json,
			   .item_schema = number_schema,
			   .least = 1,
			   .most = OPTIONS_LIST_MAX,
			   .item_size = sizeof(unsigned int)},
	[OPTION_STRATEGIES] = {.from_text = strategies_from_text,
			       .from_json = strategies_from_json,
			       .to_json = list_to_json,
			       .schema = list_schema,
			       .describe = strategies_describe,
			       .value_from_json = strategy_value_from_json,
			       .value_to_json = strategy_to_json,
			       .position = strategy_position,
			       .set_position = strategy_set_position,
			       .positions = strategy_positions,
			       .text = strategy_text,
			       .item_from_text = strategy_from_text,
			       .item_from_json = strategy_item_from_json,
			       .item_to_json = strategy_to_json,
			       .item_schema = name_item_schema,
			       .least = 1,
			       .most = OPTIONS_LIST_MAX,
			       .item_size = sizeof(
				       const struct strategy_ops *)},
	[OPTION_CHOICE] = {.from_text = choice_from_text,
			   .from_json = scalar_from_json,
			   .to_json = scalar_to_json,
			   .schema = choice_schema,
			   .describe = choice_describe,
			   .value_from_json = choice_from_json,
			   .value_to_json = choice_to_json,
			   .position = choice_position,
			   .set_position = choice_set_position,
			   .positions = choice_positions,
			   .text = choice_text,
			   .value_size = sizeof(int)},
	[OPTION_CHOICES] = {.from_text = choices_from_text,
			    .from_json = choices_from_json,
			    .to_json = choices_to_json,
			    .schema = choices_schema,
			    .describe = choices_describe,
			    .value_from_json = choices_value_from_json,
			    .value_to_json = choice_to_json,
			    .position = choice_position,
			    .set_position = choice_set_position,
			    .positions = choice_positions,
			    .text = choice_text,
			    .item_to_json = choice_to_json,
			    .item_size = sizeof(int)},
	[OPTION_NAME] = {.from_text = name_from_text,
			 .from_json = name_from_json,
			 .to_json = text_to_json,
			 .empty = text_empty,
			 .schema = name_schema,
			 .describe = name_describe,
			 .value_from_json = name_value_from_json,
			 .value_to_json = name_value_to_json},
	[OPTION_TEXT] = {.from_text = text_from_text,
			 .from_json = text_from_json,
			 .to_json = text_to_json,
			 .empty = text_empty,
			 .schema = text_schema,
			 .describe = text_describe},
	[OPTION_PATH] = {.from_text = path_from_text},
	[OPTION_SUBNET] = {.from_text = subnet_from_text,
			   .from_json = json_via_text,
			   .to_json = subnet_to_json,
			   .schema = subnet_schema,
			   .describe = subnet_describe},
	[OPTION_EVENTS] = {.from_text = events_from_text,
			   .from_json = list_from_json,
			   .to_json = events_to_json,
			   .schema = list_schema,
			   .describe = events_describe,
			   .item_from_text = event_from_text,
			   .item_from_json = event_item_from_json,
			   .item_schema = name_item_schema,
			   .least = 0,
			   .most = COUNTERS_MAX,
			   .item_size = EVENT_NAME_SIZE},
	[OPTION_CPUS] = {.from_text = cpus_from_text,
			 .from_json = scalar_from_json,
			 .to_json = scalar_to_json,
			 .empty = cpus_empty,
			 .schema = list_schema,
			 .describe = cpus_describe,
			 .value_from_json = cpus_from_json,
			 .value_to_json = cpus_to_json,
			 .value_size = sizeof(struct cpu_list),
			 .item_from_json = cpu_item_from_json,
			 .item_schema = cpu_item_schema,
			 .least = 0,
			 .most = SETTINGS_CPUS_MAX,
			 .item_size = sizeof(uint16_t)},
	[OPTION_PRESET] = {.from_text = preset_from_text, .first = true},
	[OPTION_PROBE] = {.from_text = options_probe_from_text,
			  .from_json = options_probe_from_json,
			  .to_json = options_probe_to_json,
			  .empty = options_probe_empty,
			  .schema = options_probe_schema,
			  .describe = options_probe_describe,
			  .help_range = options_probe_help_range,
			  .value_from_json = options_probe_value_from_json,
			  .value_to_json = options_probe_value_to_json,
			  .value_size = sizeof(struct probe_settings)},
};

int options_value_from_text(struct options *o, const struct option_row *row,
			    const char *text, char **cause)
{
	char label[48];

	options_row_label(row, label, sizeof(label));
	return options_type_of(row)->from_text(o, row, label, text, cause);
}

int options_value_from_json(struct options *o, const struct option_row *row,
			    const cJSON *v, const char *where, char **cause)
{
	const struct option_type_ops *type = options_type_of(row);

	if (!type->from_json)
		return cause_set(cause, -EINVAL, "%s: not a preset key", where);
	return type->from_json(o, row, v, where, cause);
}
