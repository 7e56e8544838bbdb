/*
 * What the types of option values share (options_type_common.h): a row's
 * value read by its type from command-line text or JSON, the row's label in
 * errors, ranges, JSON numbers, fragments of JSON Schema, scalars kept where
 * the row says and the lists' machinery -- a list's items read one by one by
 * its type from text ("a,b") or JSON, and written and described the same
 * way.  It reads one row at a time, never the table.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "options_type_common.h"

/* Ranges and numbers. */

/* A range of plain numbers: "1 .. 64" (to is " .. ") or "1 to 64". */
void options_range(const struct option_row *row, const char *to, char *out,
		   size_t size)
{
	snprintf(out, size, "%.15g%s%.15g", row->min, to, row->max);
}

/* A JSON number within the row's range, or an error naming where. */
int options_json_number(const struct option_row *row, const cJSON *v,
			const char *where, bool integer, double *out,
			char **cause)
{
	char range[64];
	double d;

	options_range(row, " .. ", range, sizeof(range));
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
int options_json_via_text(struct options *o, const struct option_row *row,
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

/* JSON Schema fragments. */

cJSON *options_schema_range(const char *type, double min, double max)
{
	cJSON *s = cJSON_CreateObject();

	cJSON_AddStringToObject(s, "type", type);
	cJSON_AddNumberToObject(s, "minimum", min);
	cJSON_AddNumberToObject(s, "maximum", max);
	return s;
}

cJSON *options_schema_pattern(const char *pattern)
{
	cJSON *s = cJSON_CreateObject();

	cJSON_AddStringToObject(s, "type", "string");
	cJSON_AddStringToObject(s, "pattern", pattern);
	return s;
}

cJSON *options_schema_array(cJSON *items, double least, double most)
{
	cJSON *s = cJSON_CreateObject();

	cJSON_AddStringToObject(s, "type", "array");
	cJSON_AddItemToObject(s, "items", items);
	cJSON_AddNumberToObject(s, "minItems", least);
	cJSON_AddNumberToObject(s, "maxItems", most);
	return s;
}

cJSON *options_schema_one_of(cJSON *a, cJSON *b)
{
	cJSON *s = cJSON_CreateObject();
	cJSON *any = cJSON_AddArrayToObject(s, "oneOf");

	cJSON_AddItemToArray(any, a);
	cJSON_AddItemToArray(any, b);
	return s;
}

/* Scalars and lists: what reads and writes their value where the row says. */

/* A scalar in a preset, read and written as a run's value is. */
int options_scalar_from_json(struct options *o, const struct option_row *row,
			     const cJSON *v, const char *where, char **cause)
{
	return options_type_of(row)->value_from_json(
		row, v, where, o->viewing_only, options_at(o, row->offset),
		cause);
}

cJSON *options_scalar_to_json(const struct options *o,
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
int options_list_split(const char *label, const char *text, char **copy,
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
int options_list_from_text(struct options *o, const struct option_row *row,
			   const char *label, const char *text, char **cause)
{
	const struct option_type_ops *type = options_type_of(row);
	char *items[OPTIONS_LIST_MAX], *copy = NULL;
	size_t n;
	int r = options_list_split(label, text, &copy, items, &n, type->most,
				   cause);

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
int options_list_items(const struct option_row *row, const cJSON *v,
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

int options_list_from_json(struct options *o, const struct option_row *row,
			   const cJSON *v, const char *where, char **cause)
{
	size_t n;
	int r = options_list_items(row, v, where, options_at(o, row->offset),
				   o->viewing_only, &n, cause);

	if (r == 0)
		*(size_t *)options_at(o, row->count_offset) = n;
	return r;
}

cJSON *options_list_to_json(const struct options *o,
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

cJSON *options_list_schema(const struct option_row *row)
{
	const struct option_type_ops *type = options_type_of(row);

	return options_schema_array(type->item_schema(row), (double)type->least,
				    (double)type->most);
}

/* A row and its value, by its type. */

const char *options_row_label(const struct option_row *row, char *out,
			      size_t size)
{
	if (row->name)
		snprintf(out, size, "--%s", row->name);
	else
		snprintf(out, size, "%s", row->key);
	return out;
}

int options_value_from_text(struct options *o, const struct option_row *row,
			    const char *text, char **cause)
{
	const struct option_type_ops *type = options_type_of(row);
	char label[48];

	options_row_label(row, label, sizeof(label));
	if (!type->from_text)
		return cause_set(cause, -EINVAL, "%s: not read from text",
				 label);
	return type->from_text(o, row, label, text, cause);
}

int options_value_from_json(struct options *o, const struct option_row *row,
			    const cJSON *v, const char *where, char **cause)
{
	const struct option_type_ops *type = options_type_of(row);

	if (!type->from_json)
		return cause_set(cause, -EINVAL, "%s: not a preset key", where);
	return type->from_json(o, row, v, where, cause);
}
