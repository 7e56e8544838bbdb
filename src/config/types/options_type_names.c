/*
 * The types of names and paths, kept as text: a name (safe as a file name),
 * any text, a path or an address kept from argv, and -p's preset, which the
 * command line loads itself.
 */
#include <errno.h>
#include <string.h>

#include "cause.h"
#include "options_type_common.h"
#include "units.h"

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

	return r < 0 ? r : options_json_via_text(o, row, v, where, cause);
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

const struct option_type_ops option_type_name = {
	.from_text = name_from_text,
	.from_json = name_from_json,
	.to_json = text_to_json,
	.empty = text_empty,
	.schema = name_schema,
	.describe = name_describe,
	.value_from_json = name_value_from_json,
	.value_to_json = name_value_to_json,
};

const struct option_type_ops option_type_text = {
	.from_text = text_from_text,
	.from_json = text_from_json,
	.to_json = text_to_json,
	.empty = text_empty,
	.schema = text_schema,
	.describe = text_describe,
};

/* OPTION_PATH: a file or an address, kept from argv. */

static int path_from_text(struct options *o, const struct option_row *row,
			  const char *label, const char *text, char **cause)
{
	if (!text[0])
		return cause_set(cause, -EINVAL, "%s: empty", label);
	*(const char **)options_at(o, row->offset) = text;
	return 0;
}

const struct option_type_ops option_type_path = {
	.from_text = path_from_text,
};

/* OPTION_PRESET: -p, another preset's options, loaded by the command line. */
const struct option_type_ops option_type_preset = {
	.preset = true,
};
