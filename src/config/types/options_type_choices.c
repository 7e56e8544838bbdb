/*
 * The types of lists and choices, values named from what nio-top or the
 * machine knows: strategies (or "all" those this machine can run), perf
 * events' names, one of a row's names and a list of them, each once.  A run
 * holds one strategy or one name, which a control steps through by index.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "options_type_common.h"

/* A row's names, as OPTION_CHOICE and OPTION_CHOICES say them. */

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

/* The schema of one of names. */
static cJSON *schema_enum(const char *const *names)
{
	cJSON *s = cJSON_CreateObject();
	cJSON *any = cJSON_AddArrayToObject(s, "enum");

	for (size_t i = 0; names[i]; i++)
		cJSON_AddItemToArray(any, cJSON_CreateString(names[i]));
	return s;
}

/* OPTION_STRATEGIES: strategy pointers, or "all" those available here. */

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

static int strategies_from_text(struct options *o, const struct option_row *row,
				const char *label, const char *text,
				char **cause)
{
	if (strcmp(text, "all") == 0) {
		strategies_all(o);
		return 0;
	}
	return options_list_from_text(o, row, label, text, cause);
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
	return options_list_from_json(o, row, v, where, cause);
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
	return options_schema_pattern("^[^,]+$");
}

static void strategies_describe(FILE *out, const struct option_row *row)
{
	char list[256];

	(void)row;
	strategy_list(list, sizeof(list));
	fprintf(out, "A list of strategy names\n.Pq %s ,\nor\n.Qq all .\n",
		list);
}

const struct option_type_ops option_type_strategies = {
	.from_text = strategies_from_text,
	.from_json = strategies_from_json,
	.to_json = options_list_to_json,
	.schema = options_list_schema,
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
	.item_size = sizeof(const struct strategy_ops *),
};

/* OPTION_EVENTS: perf events' names; none given is none counted. */

/* The size of one perf event's name in struct options. */
#define EVENT_NAME_SIZE sizeof(((struct options *)0)->events[0])

static int events_from_text(struct options *o, const struct option_row *row,
			    const char *label, const char *text, char **cause)
{
	/* --events with no event (or none) is --no-counters. */
	if (!text[0] || strcmp(text, "none") == 0) {
		*(size_t *)options_at(o, row->count_offset) = 0;
		return 0;
	}
	return options_list_from_text(o, row, label, text, cause);
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

const struct option_type_ops option_type_events = {
	.from_text = events_from_text,
	.from_json = options_list_from_json,
	.to_json = events_to_json,
	.schema = options_list_schema,
	.describe = events_describe,
	.item_from_text = event_from_text,
	.item_from_json = event_item_from_json,
	.item_schema = name_item_schema,
	.least = 0,
	.most = COUNTERS_MAX,
	.item_size = EVENT_NAME_SIZE,
};

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

const struct option_type_ops option_type_choice = {
	.from_text = choice_from_text,
	.from_json = options_scalar_from_json,
	.to_json = options_scalar_to_json,
	.schema = choice_schema,
	.describe = choice_describe,
	.value_from_json = choice_from_json,
	.value_to_json = choice_to_json,
	.position = choice_position,
	.set_position = choice_set_position,
	.positions = choice_positions,
	.text = choice_text,
	.value_size = sizeof(int),
};

/* OPTION_CHOICES: int[] of the row's names' indices, each once. */

/* "One of "stream" or "rr", or a list of them". */
static void choices_describe(FILE *out, const struct option_row *row)
{
	names_describe(out, row, " ,");
	fprintf(out, "or a list of them, each once.\n");
}

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
	int r = options_list_split(label, text, &copy, items, &n,
				   (size_t)row->max, cause);

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
	return options_list_to_json(o, row);
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
	cJSON *list = options_schema_array(schema_enum(row->names), 1,
					   row->max);

	cJSON_AddBoolToObject(list, "uniqueItems", true);
	return options_schema_one_of(schema_enum(row->names), list);
}

const struct option_type_ops option_type_choices = {
	.from_text = choices_from_text,
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
	.item_size = sizeof(int),
};
