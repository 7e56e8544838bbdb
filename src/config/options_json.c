/*
 * The options in JSON: presets read (every key checked by its row's type,
 * unknown keys a warning) and written, their JSON Schema, the KEYS list of
 * nio-top-preset(5), and a run's configuration -- its point and its
 * settings -- as the protocol and the export carry it.  All of them walk the
 * option table; each value is read, written and described by its type.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "jsonfile.h"
#include "options_private.h"
#include "preset.h"

static void add_warning(struct options *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_warning(struct options *o, const char *fmt, ...)
{
	char *line, *all;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (r < 0)
		return;
	if (asprintf(&all, "%s%s\n", o->warnings ? o->warnings : "", line) >=
	    0) {
		free(o->warnings);
		o->warnings = all;
	}
	free(line);
}

/* Whether key is a group of keys ("topology", "ui"). */
static bool is_group(const char *key)
{
	size_t len = strlen(key);

	for (size_t i = 0; i < option_row_count; i++)
		if (option_rows[i].key &&
		    strncmp(option_rows[i].key, key, len) == 0 &&
		    option_rows[i].key[len] == '.')
			return true;
	return false;
}

static int preset_object(const cJSON *obj, const char *parent, const char *file,
			 struct options *o, char **cause)
{
	const cJSON *v;

	cJSON_ArrayForEach(v, obj)
	{
		char key[128], where[4300];
		const struct option_row *row;
		int r;

		snprintf(key, sizeof(key), "%s%s%s", parent ? parent : "",
			 parent ? "." : "", v->string);
		if (!parent &&
		    (strcmp(key, "format") == 0 || strcmp(key, "version") == 0))
			continue;
		snprintf(where, sizeof(where), "%s: %s", file, key);
		if (is_group(key)) {
			if (!cJSON_IsObject(v))
				return cause_set(cause, -EINVAL,
						 "%s: must be an object",
						 where);
			r = preset_object(v, key, file, o, cause);
			if (r < 0)
				return r;
			continue;
		}
		row = options_by_key(key);
		if (!row) {
			add_warning(o, "%s: unknown key, ignored", where);
			continue;
		}
		r = options_value_from_json(o, row, v, where, cause);
		if (r < 0)
			return r;
		if (r != OPTION_NOT_GIVEN)
			o->given[options_row_index(row)] = true;
	}
	return 0;
}

int options_load_preset(struct options *o, const char *name, char **cause)
{
	const cJSON *preset;
	char where[4200];
	cJSON *root;
	int r;

	*cause = NULL;
	r = preset_read(name, !o->no_config, &root, &preset, where,
			sizeof(where), cause);
	if (r < 0)
		return r;
	r = options_from_preset(preset, where, o, cause);
	cJSON_Delete(root);
	return r;
}

int options_from_preset(const cJSON *root, const char *file, struct options *o,
			char **cause)
{
	const cJSON *format, *version;

	*cause = NULL;
	if (!cJSON_IsObject(root))
		return cause_set(cause, -EINVAL,
				 "%s: (top level): must be an object", file);
	format = cJSON_GetObjectItemCaseSensitive(root, "format");
	version = cJSON_GetObjectItemCaseSensitive(root, "version");
	if (!format)
		return cause_set(cause, -EINVAL,
				 "%s: format: missing (a preset starts with "
				 "\"format\": \"%s\")",
				 file, PRESET_FORMAT);
	if (!cJSON_IsString(format) ||
	    strcmp(format->valuestring, PRESET_FORMAT) != 0)
		return cause_set(cause, -EINVAL, "%s: format: must be \"%s\"",
				 file, PRESET_FORMAT);
	if (!version)
		return cause_set(cause, -EINVAL,
				 "%s: version: missing (must be %d)", file,
				 PRESET_VERSION);
	if (!cJSON_IsNumber(version) || version->valuedouble != PRESET_VERSION)
		return cause_set(cause, -EINVAL,
				 "%s: version: %s is not supported (this "
				 "nio-top reads version %d)",
				 file,
				 cJSON_IsNumber(version) && version->valuestring
					 ? version->valuestring
					 : "this",
				 PRESET_VERSION);
	return preset_object(root, NULL, file, o, cause);
}

/* Whether the row holds nothing: an unset optional value, written never. */
static bool row_empty(const struct options *o, const struct option_row *row)
{
	const struct option_type_ops *type = options_type_of(row);

	return !row->def && type->empty &&
	       type->empty(row, options_at(o, row->offset));
}

/* The object that holds key's last part, made as needed. */
static cJSON *group_of(cJSON *root, const char *key, const char **last)
{
	const char *dot = strchr(key, '.');
	char group[64];
	cJSON *obj;

	*last = key;
	if (!dot)
		return root;
	snprintf(group, sizeof(group), "%.*s", (int)(dot - key), key);
	obj = cJSON_GetObjectItemCaseSensitive(root, group);
	if (!obj)
		obj = cJSON_AddObjectToObject(root, group);
	*last = dot + 1;
	return obj;
}

cJSON *options_to_preset(const struct options *o)
{
	cJSON *obj = cJSON_CreateObject();

	cJSON_AddStringToObject(obj, "format", PRESET_FORMAT);
	cJSON_AddNumberToObject(obj, "version", PRESET_VERSION);
	for (size_t i = 0; i < option_row_count; i++) {
		const struct option_row *row = &option_rows[i];
		const struct option_type_ops *type = options_type_of(row);
		const char *last;
		cJSON *group;

		if (!row->key || row_empty(o, row))
			continue;
		group = group_of(obj, row->key, &last);
		cJSON_AddItemToObject(group, last,
				      type->to_json ? type->to_json(o, row)
						    : cJSON_CreateNull());
	}
	return obj;
}

/* A row's schema: its type's, described by its help. */
static cJSON *schema_of(const struct option_row *row)
{
	const struct option_type_ops *type = options_type_of(row);
	cJSON *s = type->schema ? type->schema(row) : cJSON_CreateObject();

	cJSON_AddStringToObject(s, "description", row->help);
	return s;
}

/* The properties object of an object schema, made as needed. */
static cJSON *schema_properties(cJSON *schema)
{
	cJSON *props = cJSON_GetObjectItemCaseSensitive(schema, "properties");

	return props ? props : cJSON_AddObjectToObject(schema, "properties");
}

/* Adds schema s at key ("topology.mtu") of props, its group made as needed. */
static void schema_add(cJSON *props, const char *key, cJSON *s)
{
	const char *dot = strchr(key, '.');
	cJSON *into = props;

	if (dot) {
		char group[64];
		cJSON *g;

		snprintf(group, sizeof(group), "%.*s", (int)(dot - key), key);
		g = cJSON_GetObjectItemCaseSensitive(props, group);
		if (!g) {
			g = cJSON_AddObjectToObject(props, group);
			cJSON_AddStringToObject(g, "type", "object");
		}
		into = schema_properties(g);
	}
	cJSON_AddItemToObject(into, dot ? dot + 1 : key, s);
}

cJSON *options_schema(void)
{
	cJSON *root = cJSON_CreateObject(), *props, *s;
	const char *required[] = {"format", "version"};

	cJSON_AddStringToObject(root, "$schema",
				"https://json-schema.org/draft/2020-12/schema");
	cJSON_AddStringToObject(root, "$id", "nio-top-preset.schema.json");
	cJSON_AddStringToObject(root, "title", "nio-top preset, version 1");
	cJSON_AddStringToObject(root, "type", "object");
	cJSON_AddItemToObject(root, "required",
			      cJSON_CreateStringArray(required, 2));
	props = schema_properties(root);
	s = cJSON_AddObjectToObject(props, "format");
	cJSON_AddStringToObject(s, "const", PRESET_FORMAT);
	cJSON_AddStringToObject(s, "description",
				"what the file is: \"" PRESET_FORMAT "\"");
	s = cJSON_AddObjectToObject(props, "version");
	cJSON_AddNumberToObject(s, "const", PRESET_VERSION);
	cJSON_AddStringToObject(s, "description",
				"the preset format's version: 1");
	for (size_t i = 0; i < option_row_count; i++) {
		const struct option_row *row = &option_rows[i];
		char former[160];

		if (!row->key)
			continue;
		schema_add(props, row->key, schema_of(row));
		if (!row->was || !row->was->key)
			continue;
		/* Read still, written never: valid, and said to be old. */
		s = schema_of(row);
		snprintf(former, sizeof(former),
			 "the former name of %s, read still", row->key);
		cJSON_ReplaceItemInObjectCaseSensitive(
			s, "description", cJSON_CreateString(former));
		cJSON_AddTrueToObject(s, "deprecated");
		schema_add(props, row->was->key, s);
	}
	return root;
}

/* What the groups of preset keys are, for the manual. */
static const struct {
	const char *key;
	const char *doc;
} option_groups[] = {
	{"topology", "The network the flows run over."},
	{"socket", "The flows' sockets' own knobs, each set on the end it "
		   "belongs to and read back: a run records what they became."},
	{"ui", "The screen."},
};

/* What a row's value is, in a sentence of mdoc, and its default. */
static void man_type(FILE *out, const struct option_row *row)
{
	const struct option_type_ops *type = options_type_of(row);

	if (type->describe)
		type->describe(out, row);
	if (row->def)
		fprintf(out, "Default\n.Li %s .\n", row->def);
}

void options_man_keys(FILE *out)
{
	const char *group = "";

	fprintf(out,
		".It Li format\nWhat the file is: always\n"
		".Qq %s .\n.It Li version\nThe format's version: always "
		"%d.\n",
		PRESET_FORMAT, PRESET_VERSION);
	for (size_t i = 0; i < option_row_count; i++) {
		const struct option_row *row = &option_rows[i];
		const char *dot = row->key ? strchr(row->key, '.') : NULL;

		if (!row->key)
			continue;
		if (dot && strncmp(group, row->key, (size_t)(dot - row->key))) {
			for (size_t g = 0;
			     g < sizeof(option_groups) / sizeof(*option_groups);
			     g++) {
				if (strncmp(option_groups[g].key, row->key,
					    (size_t)(dot - row->key)) != 0)
					continue;
				group = option_groups[g].key;
				fprintf(out, ".It Li %s\n%s\n", group,
					option_groups[g].doc);
			}
		}
		fprintf(out, ".It Li %s\n%c%s.\n", row->key,
			toupper((unsigned char)row->help[0]), row->help + 1);
		man_type(out, row);
		if (row->was && row->was->key)
			fprintf(out,
				"Read also under its former name\n.Li %s ,\n"
				"which older presets use.\n",
				row->was->key);
	}
}

/* A run's configuration: its point and settings, through the same rows. */

/* Reads a run's value of row from JSON into the run config c. */
static int run_value(const struct option_row *row, const cJSON *v,
		     const char *where, bool viewing, struct run_config *c,
		     char **cause)
{
	const struct option_type_ops *type = options_type_of(row);

	if (!type->value_from_json)
		return cause_set(cause, -EINVAL, "%s: not a run setting",
				 where);
	return type->value_from_json(row, v, where, viewing,
				     options_at(c, row->run_offset), cause);
}

void options_run_to_json(const struct run_config *c, cJSON *into)
{
	cJSON *events;

	for (size_t i = 0; i < option_row_count; i++) {
		const struct option_row *row = &option_rows[i];
		const struct option_type_ops *type = options_type_of(row);

		if (!(row->flags & OPTION_RUN))
			continue;
		cJSON_AddItemToObject(
			into, row->run_key,
			type->value_to_json
				? type->value_to_json(
					  row, options_at(c, row->run_offset))
				: cJSON_CreateNull());
	}
	cJSON_AddNumberToObject(into, "round", c->round);
	events = cJSON_AddArrayToObject(into, "events");
	for (unsigned int i = 0; c->counters && i < c->counters->count; i++)
		cJSON_AddItemToArray(
			events, cJSON_CreateString(c->counters->event[i].name));
}

int options_run_from_json(const cJSON *from, const char *path,
			  enum codec_mode mode, bool viewing,
			  struct run_config *c, char events[][48],
			  unsigned int *event_count, char **cause)
{
	const cJSON *item;
	char where[256];
	uint64_t round;

	*cause = NULL;
	if (!cJSON_IsObject(from))
		return cause_set(cause, -EINVAL, "%s: must be an object", path);
	for (size_t i = 0; i < option_row_count; i++) {
		const struct option_row *row = &option_rows[i];

		if (!(row->flags & OPTION_RUN))
			continue;
		snprintf(where, sizeof(where), "%s.%s", path, row->run_key);
		item = options_run_item(from, row, mode == CODEC_FILE);
		if (!item) {
			/* A file older than the setting keeps the session's. */
			if (mode == CODEC_FILE)
				continue;
			return cause_set(cause, -EINVAL, "%s: missing", where);
		}
		if (run_value(row, item, where, viewing, c, cause) < 0)
			return -EINVAL;
	}
	item = cJSON_GetObjectItemCaseSensitive(from, "round");
	if (jsonfile_u64(item, &round) < 0 || round < 1 || round > UINT32_MAX)
		return cause_set(cause, -EINVAL,
				 "%s.round: must be an integer 1 .. %u", path,
				 UINT32_MAX);
	c->round = (unsigned int)round;
	*event_count = 0;
	item = cJSON_GetObjectItemCaseSensitive(from, "events");
	snprintf(where, sizeof(where), "%s.events", path);
	if (item || mode == CODEC_STRICT) {
		const cJSON *name;

		if (!cJSON_IsArray(item) ||
		    cJSON_GetArraySize(item) > COUNTERS_MAX)
			return cause_set(cause, -EINVAL,
					 "%s: must be a list of at most %d "
					 "names",
					 where, COUNTERS_MAX);
		cJSON_ArrayForEach(name, item)
		{
			if (!cJSON_IsString(name) || !name->valuestring[0] ||
			    strlen(name->valuestring) >= 48)
				return cause_set(cause, -EINVAL,
						 "%s[%u]: must be an event "
						 "name",
						 where, *event_count);
			snprintf(events[(*event_count)++], 48, "%s",
				 name->valuestring);
		}
	}
	if (mode == CODEC_STRICT) {
		cJSON_ArrayForEach(item, from)
		{
			const struct option_row *row = NULL;

			for (size_t i = 0; i < option_row_count && !row; i++)
				if (option_rows[i].run_key &&
				    strcmp(option_rows[i].run_key,
					   item->string) == 0)
					row = &option_rows[i];
			if (!row && strcmp(item->string, "round") != 0 &&
			    strcmp(item->string, "events") != 0)
				return cause_set(cause, -EINVAL,
						 "%s.%s: not a key of a run",
						 path, item->string);
		}
	}
	return 0;
}
