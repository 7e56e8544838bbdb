/*
 * Presets.  Each key of the table is checked for its type and range here,
 * with the key path in the message, and then applied through the command
 * line's own option (cli_set), so a preset means exactly what the same
 * options typed by hand mean.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export.h"
#include "jsonfile.h"
#include "message.h"
#include "preset.h"

static const char *const modes[] = {"stream", "rr", NULL};
static const char *const kinds[] = {"veth", "loopback", "current", "remote",
				    NULL};

#define NO_LIMIT 0, 0

const struct preset_key preset_keys[] = {
	{"format", PRESET_FORMAT_KEY, NO_LIMIT, NULL, NULL,
	 "always \"" PRESET_FORMAT "\""},
	{"version", PRESET_VERSION_KEY, NO_LIMIT, NULL, NULL, "always 1"},
	{"name", PRESET_TEXT, 1, 64, NULL, NULL, "a short name"},
	{"description", PRESET_TEXT, 0, 1024, NULL, NULL,
	 "what the preset is for"},
	{"strategies", PRESET_NAMES, 1, 64, NULL, "strategy",
	 "strategy names, or \"all\""},
	{"msg_sizes", PRESET_SIZES, MESSAGE_SIZE_MIN, MESSAGE_SIZE_MAX, NULL,
	 "msg-size", "message sizes: bytes, or text such as \"16K\""},
	{"threads", PRESET_INTEGERS, 1, CLI_THREADS_MAX, NULL, "threads",
	 "flows per run"},
	{"mode", PRESET_CHOICE, NO_LIMIT, modes, "mode",
	 "\"stream\" or \"rr\""},
	{"duration_s", PRESET_NUMBER, 0.001, 86400, NULL, "duration",
	 "measured seconds per run"},
	{"warmup_s", PRESET_NUMBER, 0, 3600, NULL, "warmup",
	 "seconds run first and left out"},
	{"repeat", PRESET_INTEGER, 1, 100, NULL, "repeat",
	 "runs of each point, interleaved"},
	{"verify", PRESET_BOOL, NO_LIMIT, NULL, "verify",
	 "check every message received"},
	{"slots", PRESET_INTEGER, 1, STRATEGY_SLOTS_MAX, NULL, "slots",
	 "message slots per zero-copy sender"},
	{"uring_depth", PRESET_INTEGER, 1, STRATEGY_URING_DEPTH_MAX, NULL,
	 "uring-depth", "messages per io_uring submission"},
	{"uring_fixed", PRESET_BOOL, NO_LIMIT, NULL, "uring-fixed",
	 "uring-zc sends from registered buffers"},
	{"topology", PRESET_OBJECT, NO_LIMIT, NULL, NULL,
	 "the network the flows run over"},
	{"topology.kind", PRESET_CHOICE, NO_LIMIT, kinds, "topology",
	 "\"veth\", \"loopback\", \"current\" or \"remote\" (which needs "
	 "--connect)"},
	{"topology.mtu", PRESET_INTEGER, TOPO_MTU_MIN, TOPO_MTU_MAX, NULL,
	 "mtu", "MTU of the veth pair"},
	{"topology.subnet", PRESET_TEXT, 9, 18, NULL, "subnet",
	 "IPv4 subnet of the veth, such as \"198.18.0.0/30\""},
	{"topology.rate", PRESET_RATE, TOPO_RATE_MIN_BPS, TOPO_RATE_MAX_BPS,
	 NULL, "rate", "tbf rate: bit/s, or text such as \"1G\""},
	{"topology.delay_ms", PRESET_NUMBER, 0, 10000, NULL, "delay",
	 "netem delay, ms"},
	{"topology.loss_pct", PRESET_NUMBER, 0, 100, NULL, "loss",
	 "netem loss, %"},
	{"events", PRESET_NAMES, 0, COUNTERS_MAX, NULL, "events",
	 "perf events (libpfm4 names); [] counts none"},
	{"ui", PRESET_OBJECT, NO_LIMIT, NULL, NULL, "the screen"},
	{"ui.theme", PRESET_TEXT, 1, 64, NULL, "theme", "colour theme name"},
	{"ui.refresh_ms", PRESET_INTEGER, 20, 10000, NULL, "refresh",
	 "redraw interval, ms"},
};

const size_t preset_key_count = sizeof(preset_keys) / sizeof(preset_keys[0]);

static int preset_error(char **cause, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int preset_error(char **cause, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(cause, fmt, ap) < 0)
		*cause = NULL;
	va_end(ap);
	return -EINVAL;
}

static void add_warning(struct options *opts, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_warning(struct options *opts, const char *fmt, ...)
{
	char *line, *all;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (r < 0)
		return;
	if (asprintf(&all, "%s%s\n", opts->warnings ? opts->warnings : "",
		     line) >= 0) {
		free(opts->warnings);
		opts->warnings = all;
	}
	free(line);
}

static const struct preset_key *find_key(const char *parent, const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "%s%s%s", parent ? parent : "",
		 parent ? "." : "", name);
	for (size_t i = 0; i < preset_key_count; i++)
		if (strcmp(preset_keys[i].path, path) == 0)
			return &preset_keys[i];
	return NULL;
}

/* What a number must be, for messages: "64 .. 4194304". */
static void range_text(const struct preset_key *k, char *out, size_t size)
{
	snprintf(out, size, "%.15g .. %.15g", k->min, k->max);
}

static int check_number(const char *file, const char *path,
			const struct preset_key *k, const cJSON *v,
			bool integer, char **cause)
{
	char range[64];
	double d;

	range_text(k, range, sizeof(range));
	if (!cJSON_IsNumber(v))
		return preset_error(cause, "%s: %s: must be %s %s", file, path,
				    integer ? "an integer" : "a number", range);
	d = v->valuedouble;
	if (!isfinite(d) || d < k->min || d > k->max ||
	    (integer && d != floor(d)))
		return preset_error(cause, "%s: %s: must be %s %s (not %s)",
				    file, path,
				    integer ? "an integer" : "a number", range,
				    v->valuestring ? v->valuestring : "this");
	return 0;
}

static int check_choice(const char *file, const char *path,
			const struct preset_key *k, const cJSON *v,
			char **cause)
{
	char list[128] = "";

	for (size_t i = 0; k->choices[i]; i++) {
		if (cJSON_IsString(v) &&
		    strcmp(v->valuestring, k->choices[i]) == 0)
			return 0;
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
			 "%s\"%s\"", i ? ", " : "", k->choices[i]);
	}
	return preset_error(cause, "%s: %s: must be one of %s", file, path,
			    list);
}

/* A size as the command line spells it, checked against the range. */
static int size_text(const char *file, const char *path,
		     const struct preset_key *k, const cJSON *v, char *out,
		     size_t size, char **cause)
{
	size_t bytes;

	if (cJSON_IsString(v)) {
		int r = cli_parse_size(v->valuestring, &bytes);

		if (r == -EINVAL)
			return preset_error(
				cause,
				"%s: %s: '%s' is not a size (bytes, "
				"or a number with K or M)",
				file, path, v->valuestring);
		if (r < 0)
			return preset_error(cause,
					    "%s: %s: must be 64 .. 4194304 "
					    "bytes (not %s)",
					    file, path, v->valuestring);
		snprintf(out, size, "%zu", bytes);
		return 0;
	}
	if (check_number(file, path, k, v, true, cause) < 0)
		return -EINVAL;
	snprintf(out, size, "%.0f", v->valuedouble);
	return 0;
}

/* A list key as one comma-separated option value. */
static int list_text(const char *file, const struct preset_key *k,
		     const cJSON *v, char *out, size_t size, char **cause)
{
	/* Names count their items in min, max; the others bound each value. */
	size_t least = k->kind == PRESET_NAMES ? (size_t)k->min : 1;
	size_t most = k->kind == PRESET_NAMES ? (size_t)k->max : CLI_LIST_MAX;
	size_t n = 0, used = 0;
	const cJSON *item;

	out[0] = '\0';
	if (!cJSON_IsArray(v))
		return preset_error(cause, "%s: %s: must be a list", file,
				    k->path);
	cJSON_ArrayForEach(item, v)
	{
		char path[96], text[128];

		snprintf(path, sizeof(path), "%s[%zu]", k->path, n);
		if (k->kind == PRESET_SIZES) {
			if (size_text(file, path, k, item, text, sizeof(text),
				      cause) < 0)
				return -EINVAL;
		} else if (k->kind == PRESET_INTEGERS) {
			if (check_number(file, path, k, item, true, cause) < 0)
				return -EINVAL;
			snprintf(text, sizeof(text), "%.0f", item->valuedouble);
		} else {
			if (!cJSON_IsString(item) || !item->valuestring[0] ||
			    strchr(item->valuestring, ','))
				return preset_error(cause,
						    "%s: %s: must be a name",
						    file, path);
			snprintf(text, sizeof(text), "%s", item->valuestring);
		}
		if (++n > most)
			return preset_error(cause,
					    "%s: %s: more than %zu items", file,
					    k->path, most);
		if (used + strlen(text) + 2 > size)
			return preset_error(cause,
					    "%s: %s: the list is too long",
					    file, k->path);
		used += (size_t)snprintf(out + used, size - used, "%s%s",
					 used ? "," : "", text);
	}
	if (n < least)
		return preset_error(cause, "%s: %s: must hold at least %zu",
				    file, k->path, least);
	return 0;
}

static int apply_named(const char *file, const struct preset_key *k,
		       const char *option, const char *arg,
		       struct options *opts, char **cause)
{
	char *why = NULL;
	int r = cli_set(opts, option, arg, &why);

	if (r < 0) {
		preset_error(cause, "%s: %s: %s", file, k->path,
			     why ? why : strerror(-r));
		free(why);
	}
	return r;
}

static int apply_option(const char *file, const struct preset_key *k,
			const char *arg, struct options *opts, char **cause)
{
	return apply_named(file, k, k->option, arg, opts, cause);
}

static int apply_key(const char *file, const struct preset_key *k,
		     const cJSON *v, struct options *opts, char **cause)
{
	char text[4096];

	switch (k->kind) {
	case PRESET_OBJECT:
		return 0;
	case PRESET_FORMAT_KEY:
		if (!cJSON_IsString(v) || strcmp(v->valuestring, PRESET_FORMAT))
			return preset_error(cause, "%s: format: must be \"%s\"",
					    file, PRESET_FORMAT);
		return 0;
	case PRESET_VERSION_KEY:
		if (!cJSON_IsNumber(v) || v->valuedouble != PRESET_VERSION)
			return preset_error(cause,
					    "%s: version: %s is not supported "
					    "(this nio-top reads version %d)",
					    file,
					    cJSON_IsNumber(v) && v->valuestring
						    ? v->valuestring
						    : "this",
					    PRESET_VERSION);
		return 0;
	case PRESET_TEXT:
		if (!cJSON_IsString(v) || strlen(v->valuestring) < k->min ||
		    strlen(v->valuestring) > k->max)
			return preset_error(cause,
					    "%s: %s: must be text of %.0f .. "
					    "%.0f characters",
					    file, k->path, k->min, k->max);
		if (strcmp(k->path, "name") == 0)
			snprintf(opts->preset_name, sizeof(opts->preset_name),
				 "%s", v->valuestring);
		else if (strcmp(k->path, "description") == 0)
			snprintf(opts->preset_description,
				 sizeof(opts->preset_description), "%s",
				 v->valuestring);
		else if (strcmp(k->path, "ui.theme") == 0) {
			snprintf(opts->theme_name, sizeof(opts->theme_name),
				 "%s", v->valuestring);
			return apply_option(file, k, opts->theme_name, opts,
					    cause);
		}
		if (!k->option)
			return 0;
		return apply_option(file, k, v->valuestring, opts, cause);
	case PRESET_CHOICE:
		if (check_choice(file, k->path, k, v, cause) < 0)
			return -EINVAL;
		return apply_option(file, k, v->valuestring, opts, cause);
	case PRESET_NUMBER:
	case PRESET_INTEGER:
		if (check_number(file, k->path, k, v, k->kind == PRESET_INTEGER,
				 cause) < 0)
			return -EINVAL;
		snprintf(text, sizeof(text), "%.17g", v->valuedouble);
		return apply_option(file, k, text, opts, cause);
	case PRESET_RATE:
		if (cJSON_IsString(v))
			return apply_option(file, k, v->valuestring, opts,
					    cause);
		if (check_number(file, k->path, k, v, true, cause) < 0)
			return -EINVAL;
		snprintf(text, sizeof(text), "%.0f", v->valuedouble);
		return apply_option(file, k, text, opts, cause);
	case PRESET_BOOL:
		if (!cJSON_IsBool(v))
			return preset_error(cause,
					    "%s: %s: must be true or false",
					    file, k->path);
		if (strcmp(k->option, "verify") == 0)
			opts->verify = cJSON_IsTrue(v);
		else
			opts->uring_fixed = cJSON_IsTrue(v);
		return 0;
	case PRESET_SIZES:
	case PRESET_INTEGERS:
	case PRESET_NAMES:
		if (list_text(file, k, v, text, sizeof(text), cause) < 0)
			return -EINVAL;
		/* No events: nothing is counted. */
		if (strcmp(k->option, "events") == 0 && !text[0])
			return apply_named(file, k, "no-counters", NULL, opts,
					   cause);
		return apply_option(file, k, text, opts, cause);
	}
	return -EINVAL;
}

static int apply_object(const cJSON *obj, const char *parent, const char *file,
			struct options *opts, char **cause)
{
	const cJSON *v;

	cJSON_ArrayForEach(v, obj)
	{
		const struct preset_key *k = find_key(parent, v->string);
		int r;

		if (!k) {
			add_warning(opts, "%s: %s%s%s: unknown key, ignored",
				    file, parent ? parent : "",
				    parent ? "." : "", v->string);
			continue;
		}
		if (k->kind == PRESET_OBJECT) {
			if (!cJSON_IsObject(v))
				return preset_error(cause,
						    "%s: %s: must be an object",
						    file, k->path);
			r = apply_object(v, k->path, file, opts, cause);
		} else {
			r = apply_key(file, k, v, opts, cause);
		}
		if (r < 0)
			return r;
	}
	return 0;
}

int preset_apply(const cJSON *root, const char *file, struct options *opts,
		 char **cause)
{
	*cause = NULL;
	if (!cJSON_IsObject(root))
		return preset_error(cause, "%s: (top level): must be an object",
				    file);
	if (!cJSON_GetObjectItemCaseSensitive(root, "format"))
		return preset_error(cause,
				    "%s: format: missing (a preset starts "
				    "with \"format\": \"%s\")",
				    file, PRESET_FORMAT);
	if (!cJSON_GetObjectItemCaseSensitive(root, "version"))
		return preset_error(cause, "%s: version: missing (must be %d)",
				    file, PRESET_VERSION);
	return apply_object(root, NULL, file, opts, cause);
}

void preset_dirs(const char *dirs[4])
{
	size_t n = 0;
	const char *env = getenv("NIO_TOP_PRESETS");

	if (env && env[0])
		dirs[n++] = env;
	dirs[n++] = NIO_TOP_PRESET_DIR;
	dirs[n++] = NIO_TOP_SOURCE_PRESET_DIR;
	dirs[n] = NULL;
}

/* A bare name is looked up in the preset folders; anything else is a path. */
static int preset_path(const char *name, char *out, size_t size, char **cause)
{
	const char *dirs[4];

	if (strchr(name, '/') || strstr(name, ".json")) {
		snprintf(out, size, "%s", name);
		return 0;
	}
	preset_dirs(dirs);
	for (size_t i = 0; dirs[i]; i++) {
		snprintf(out, size, "%s/%s.json", dirs[i], name);
		if (access(out, R_OK) == 0)
			return 0;
	}
	return preset_error(cause,
			    "--preset: no preset named '%s' (in %s or %s; "
			    "or give a path)",
			    name, dirs[0], dirs[1]);
}

int preset_load(const char *name, struct options *opts, char **cause)
{
	const cJSON *preset, *format;
	char path[4096], where[4200];
	cJSON *root;
	int r;

	*cause = NULL;
	r = preset_path(name, path, sizeof(path), cause);
	if (r < 0)
		return r;
	r = jsonfile_read(path, PRESET_SIZE_MAX, &root, cause);
	if (r < 0)
		return -EINVAL;
	preset = root;
	snprintf(where, sizeof(where), "%s", path);
	format = cJSON_GetObjectItemCaseSensitive(root, "format");
	if (cJSON_IsString(format) &&
	    strcmp(format->valuestring, EXPORT_FORMAT) == 0) {
		/* A saved run replays through the preset it embeds. */
		preset = cJSON_GetObjectItemCaseSensitive(root, "preset");
		snprintf(where, sizeof(where), "%s: preset", path);
		if (!preset) {
			cJSON_Delete(root);
			return preset_error(cause,
					    "%s: an export without an embedded "
					    "preset",
					    path);
		}
	}
	r = preset_apply(preset, where, opts, cause);
	cJSON_Delete(root);
	return r;
}

static void add_u64_list(cJSON *obj, const char *key, const size_t *values,
			 size_t count)
{
	cJSON *list = cJSON_AddArrayToObject(obj, key);

	for (size_t i = 0; i < count; i++)
		cJSON_AddItemToArray(list,
				     cJSON_CreateNumber((double)values[i]));
}

cJSON *preset_from_options(const struct options *o)
{
	cJSON *obj = cJSON_CreateObject();
	cJSON *list, *topo, *ui;
	char subnet[INET_ADDRSTRLEN + 4];

	cJSON_AddStringToObject(obj, "format", PRESET_FORMAT);
	cJSON_AddNumberToObject(obj, "version", PRESET_VERSION);
	cJSON_AddStringToObject(obj, "name",
				o->preset_name[0] ? o->preset_name : "saved");
	if (o->preset_description[0])
		cJSON_AddStringToObject(obj, "description",
					o->preset_description);
	list = cJSON_AddArrayToObject(obj, "strategies");
	for (size_t i = 0; i < o->strategy_count; i++)
		cJSON_AddItemToArray(
			list, cJSON_CreateString(o->strategies[i]->name));
	add_u64_list(obj, "msg_sizes", o->msg_sizes, o->msg_size_count);
	list = cJSON_AddArrayToObject(obj, "threads");
	for (size_t i = 0; i < o->thread_count; i++)
		cJSON_AddItemToArray(list, cJSON_CreateNumber(o->threads[i]));
	cJSON_AddStringToObject(obj, "mode", run_mode_name(o->mode));
	cJSON_AddNumberToObject(obj, "duration_s",
				(double)o->duration_ms / 1000);
	cJSON_AddNumberToObject(obj, "warmup_s", (double)o->warmup_ms / 1000);
	cJSON_AddNumberToObject(obj, "repeat", o->repeat);
	cJSON_AddBoolToObject(obj, "verify", o->verify);
	cJSON_AddNumberToObject(obj, "slots", o->slots);
	cJSON_AddNumberToObject(obj, "uring_depth", o->uring_depth);
	cJSON_AddBoolToObject(obj, "uring_fixed", o->uring_fixed);

	topo = cJSON_AddObjectToObject(obj, "topology");
	cJSON_AddStringToObject(topo, "kind", topo_kind_name(o->topo.kind));
	if (o->topo.mtu)
		cJSON_AddNumberToObject(topo, "mtu", o->topo.mtu);
	inet_ntop(AF_INET, &o->topo.subnet, subnet, INET_ADDRSTRLEN);
	snprintf(subnet + strlen(subnet), 5, "/%u", o->topo.prefix);
	cJSON_AddStringToObject(topo, "subnet", subnet);
	if (o->topo.rate_bps)
		cJSON_AddNumberToObject(topo, "rate", (double)o->topo.rate_bps);
	if (o->topo.delay_us)
		cJSON_AddNumberToObject(topo, "delay_ms",
					(double)o->topo.delay_us / 1000);
	if (o->topo.loss_pct)
		cJSON_AddNumberToObject(topo, "loss_pct", o->topo.loss_pct);

	list = cJSON_AddArrayToObject(obj, "events");
	for (unsigned int i = 0; o->counters_enabled && i < o->counters.count;
	     i++)
		cJSON_AddItemToArray(
			list, cJSON_CreateString(o->counters.event[i].name));
	ui = cJSON_AddObjectToObject(obj, "ui");
	cJSON_AddStringToObject(ui, "theme", o->theme);
	cJSON_AddNumberToObject(ui, "refresh_ms", o->refresh_ms);
	return obj;
}

static const char *const schema_types[] = {
	[PRESET_OBJECT] = "object",	  [PRESET_FORMAT_KEY] = "string",
	[PRESET_VERSION_KEY] = "integer", [PRESET_TEXT] = "string",
	[PRESET_CHOICE] = "string",	  [PRESET_NUMBER] = "number",
	[PRESET_INTEGER] = "integer",	  [PRESET_BOOL] = "boolean",
	[PRESET_SIZES] = "array",	  [PRESET_INTEGERS] = "array",
	[PRESET_NAMES] = "array",	  [PRESET_RATE] = NULL,
};

static cJSON *schema_range(const char *type, double min, double max)
{
	cJSON *s = cJSON_CreateObject();

	cJSON_AddStringToObject(s, "type", type);
	cJSON_AddNumberToObject(s, "minimum", min);
	cJSON_AddNumberToObject(s, "maximum", max);
	return s;
}

static cJSON *schema_size_text(void)
{
	cJSON *s = cJSON_CreateObject();

	cJSON_AddStringToObject(s, "type", "string");
	cJSON_AddStringToObject(s, "pattern", "^[0-9]+[KkMm]?$");
	return s;
}

static cJSON *schema_of(const struct preset_key *k)
{
	cJSON *s = cJSON_CreateObject(), *any;

	cJSON_AddStringToObject(s, "description", k->doc);
	switch (k->kind) {
	case PRESET_FORMAT_KEY:
		cJSON_AddStringToObject(s, "const", PRESET_FORMAT);
		break;
	case PRESET_VERSION_KEY:
		cJSON_AddNumberToObject(s, "const", PRESET_VERSION);
		break;
	case PRESET_TEXT:
		cJSON_AddStringToObject(s, "type", "string");
		cJSON_AddNumberToObject(s, "minLength", k->min);
		cJSON_AddNumberToObject(s, "maxLength", k->max);
		break;
	case PRESET_CHOICE:
		any = cJSON_AddArrayToObject(s, "enum");
		for (size_t i = 0; k->choices[i]; i++)
			cJSON_AddItemToArray(any,
					     cJSON_CreateString(k->choices[i]));
		break;
	case PRESET_NUMBER:
	case PRESET_INTEGER:
		cJSON_AddStringToObject(s, "type", schema_types[k->kind]);
		cJSON_AddNumberToObject(s, "minimum", k->min);
		cJSON_AddNumberToObject(s, "maximum", k->max);
		break;
	case PRESET_RATE:
		any = cJSON_AddArrayToObject(s, "oneOf");
		cJSON_AddItemToArray(any,
				     schema_range("integer", k->min, k->max));
		cJSON_AddItemToArray(any,
				     cJSON_Parse("{\"type\": \"string\", "
						 "\"pattern\": "
						 "\"^[0-9.]+[KkMmGg]?$\"}"));
		break;
	case PRESET_BOOL:
		cJSON_AddStringToObject(s, "type", "boolean");
		break;
	case PRESET_SIZES:
	case PRESET_INTEGERS:
	case PRESET_NAMES: {
		cJSON *items;

		cJSON_AddStringToObject(s, "type", "array");
		if (k->kind == PRESET_SIZES) {
			items = cJSON_CreateObject();
			any = cJSON_AddArrayToObject(items, "oneOf");
			cJSON_AddItemToArray(
				any, schema_range("integer", k->min, k->max));
			cJSON_AddItemToArray(any, schema_size_text());
			cJSON_AddNumberToObject(s, "minItems", 1);
			cJSON_AddNumberToObject(s, "maxItems", CLI_LIST_MAX);
		} else if (k->kind == PRESET_INTEGERS) {
			items = schema_range("integer", k->min, k->max);
			cJSON_AddNumberToObject(s, "minItems", 1);
			cJSON_AddNumberToObject(s, "maxItems", CLI_LIST_MAX);
		} else {
			items = cJSON_CreateObject();
			cJSON_AddStringToObject(items, "type", "string");
			cJSON_AddStringToObject(items, "pattern", "^[^,]+$");
			cJSON_AddNumberToObject(s, "minItems", k->min);
			cJSON_AddNumberToObject(s, "maxItems", k->max);
		}
		cJSON_AddItemToObject(s, "items", items);
		break;
	}
	case PRESET_OBJECT:
		cJSON_AddStringToObject(s, "type", "object");
		break;
	}
	return s;
}

/* The schema of the keys under parent (NULL: the top level). */
static cJSON *schema_object(const char *parent, cJSON *obj)
{
	cJSON *props = cJSON_AddObjectToObject(obj, "properties");
	size_t plen = parent ? strlen(parent) + 1 : 0;

	for (size_t i = 0; i < preset_key_count; i++) {
		const struct preset_key *k = &preset_keys[i];
		const char *name = k->path + plen;
		cJSON *s;

		if (parent && (strncmp(k->path, parent, plen - 1) ||
			       k->path[plen - 1] != '.'))
			continue;
		if (!parent && strchr(k->path, '.'))
			continue;
		s = schema_of(k);
		if (k->kind == PRESET_OBJECT)
			schema_object(k->path, s);
		cJSON_AddItemToObject(props, name, s);
	}
	return obj;
}

cJSON *preset_schema(void)
{
	cJSON *root = cJSON_CreateObject();
	const char *required[] = {"format", "version"};

	cJSON_AddStringToObject(root, "$schema",
				"https://json-schema.org/draft/2020-12/schema");
	cJSON_AddStringToObject(root, "$id", "nio-top-preset.schema.json");
	cJSON_AddStringToObject(root, "title", "nio-top preset, version 1");
	cJSON_AddStringToObject(root, "type", "object");
	cJSON_AddItemToObject(root, "required",
			      cJSON_CreateStringArray(required, 2));
	return schema_object(NULL, root);
}
