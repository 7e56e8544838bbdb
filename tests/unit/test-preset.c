/*
 * Presets against their table: presets/schema.json is what the key table
 * generates (regenerate it with `test-preset --print-schema`), every shipped
 * preset loads without a warning, a preset's options come back unchanged as
 * a preset, and the man page lists every key.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonfile.h"
#include "options.h"
#include "preset.h"
#include "tap.h"
#include "text.h"

static void test_schema(const char *dir)
{
	char path[4096], *want;
	cJSON *schema = options_schema(), *file;
	char *cause = NULL;

	snprintf(path, sizeof(path), "%s/schema.json", dir);
	ok(jsonfile_read(path, PRESET_SIZE_MAX, &file, &cause) == 0,
	   "presets/schema.json reads (%s)", cause ? cause : "ok");
	free(cause);
	want = cJSON_PrintUnformatted(schema);
	ok(file && cJSON_Compare(schema, file, true),
	   "presets/schema.json is what the key table generates");
	cJSON_free(want);
	cJSON_Delete(file);
	cJSON_Delete(schema);
}

static void test_shipped(const char *dir)
{
	const char *names[] = {"pa02",	  "quick", "zerocopy-crossover",
			       "latency", "uring", "latency-under-load"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct options opts;
		char path[4096], *cause = NULL;
		char *argv[] = {"nio-top", NULL};
		int r;

		snprintf(path, sizeof(path), "%s/%s.json", dir, names[i]);
		options_parse(1, argv, &opts, &cause);
		free(cause);
		r = options_load_preset(&opts, path, &cause);
		ok(r == 0 && !opts.warnings &&
			   strcmp(opts.preset_name, names[i]) == 0,
		   "%s loads cleanly (%s)", names[i],
		   cause	   ? cause
		   : opts.warnings ? opts.warnings
				   : "ok");
		free(cause);
		free(opts.warnings);
	}
}

static void test_round_trip(const char *dir)
{
	struct options a, b;
	char path[4096], *cause = NULL;
	char *argv[] = {"nio-top", NULL};
	cJSON *pa, *pb;

	snprintf(path, sizeof(path), "%s/pa02.json", dir);
	options_parse(1, argv, &a, &cause);
	free(cause);
	options_load_preset(&a, path, &cause);
	free(cause);
	pa = options_to_preset(&a);
	options_parse(1, argv, &b, &cause);
	free(cause);
	ok(options_from_preset(pa, "memory", &b, &cause) == 0 && !b.warnings,
	   "a preset made from options applies (%s)", cause ? cause : "ok");
	free(cause);
	pb = options_to_preset(&b);
	ok(cJSON_Compare(pa, pb, true),
	   "options -> preset -> options -> preset is unchanged");
	ok(a.strategy_count == 3 && a.msg_size_count == 4 &&
		   a.thread_count == 4 && a.msg_sizes[1] == 1024 &&
		   a.mode_count == 2 && a.modes[0] == RUN_STREAM &&
		   a.modes[1] == RUN_RR && a.repeat == 3,
	   "pa02 is 3 strategies x 4 sizes x 4 thread counts x stream and "
	   "rr, 3 times");
	cJSON_Delete(pa);
	cJSON_Delete(pb);
}

/* The preset text {"format": ..., "version": 1, <body>} onto fresh options. */
static int preset_text(const char *body, struct options *o, char **cause)
{
	char text[512], *argv[] = {"nio-top", NULL};
	cJSON *root;
	int r;

	snprintf(text, sizeof(text),
		 "{\"format\": \"nio-top-preset\", \"version\": 1, %s}", body);
	options_parse(1, argv, o, cause);
	free(*cause);
	*cause = NULL;
	root = cJSON_Parse(text);
	r = options_from_preset(root, "t.json", o, cause);
	cJSON_Delete(root);
	return r;
}

/* "mode": one name as before lists, a list, and what is written back. */
static void test_modes(void)
{
	struct options o;
	char *cause = NULL, *text;
	cJSON *back;

	ok(preset_text("\"mode\": \"rr\"", &o, &cause) == 0 &&
		   o.mode_count == 1 && o.modes[0] == RUN_RR,
	   "\"mode\": \"rr\" (one name) still reads (%s)",
	   cause ? cause : "ok");
	free(cause);
	back = options_to_preset(&o);
	text = cJSON_PrintUnformatted(cJSON_GetObjectItem(back, "mode"));
	ok(text && strcmp(text, "\"rr\"") == 0,
	   "one mode is written as one name (%s)", text ? text : "none");
	cJSON_free(text);
	cJSON_Delete(back);
	ok(preset_text("\"mode\": [\"stream\", \"rr\"]", &o, &cause) == 0 &&
		   o.mode_count == 2 && o.modes[0] == RUN_STREAM &&
		   o.modes[1] == RUN_RR,
	   "a list of modes reads in order (%s)", cause ? cause : "ok");
	free(cause);
	back = options_to_preset(&o);
	text = cJSON_PrintUnformatted(cJSON_GetObjectItem(back, "mode"));
	ok(text && strcmp(text, "[\"stream\",\"rr\"]") == 0,
	   "two modes are written as a list (%s)", text ? text : "none");
	cJSON_free(text);
	cJSON_Delete(back);
	cause = NULL;
	ok(preset_text("\"mode\": [\"rr\", \"rr\"]", &o, &cause) < 0 && cause &&
		   strstr(cause, "t.json: mode[1]: 'rr' is given twice"),
	   "a mode twice is refused, naming it (%s)", cause ? cause : "none");
	free(cause);
	cause = NULL;
	ok(preset_text("\"mode\": []", &o, &cause) < 0 && cause &&
		   strstr(cause, "t.json: mode: must be one of"),
	   "no mode at all is refused (%s)", cause ? cause : "none");
	free(cause);
	cause = NULL;
	ok(preset_text("\"mode\": [\"stream\", 3]", &o, &cause) < 0 && cause &&
		   strstr(cause, "t.json: mode[1]: must be one of"),
	   "a mode that is not a name is refused (%s)", cause ? cause : "none");
	free(cause);
}

/*
 * The KEYS list of nio-top-preset(5) is what the table generates (regenerate
 * it with `test-preset --print-man-keys`).
 */
static void test_man(const char *man)
{
	char *text = read_text(man), *want = NULL, *start, *end;
	size_t size = 0;
	FILE *f = open_memstream(&want, &size);

	options_man_keys(f);
	fclose(f);
	start = text ? strstr(text, ".Sh KEYS\n.Bl -tag -width Ds\n") : NULL;
	end = start ? strstr(start, "\n.El\n") : NULL;
	if (start) {
		start += strlen(".Sh KEYS\n.Bl -tag -width Ds\n");
		end[1] = '\0';
	}
	ok(start && strcmp(start, want) == 0,
	   "nio-top-preset(5) lists the keys as the table says "
	   "(test-preset --print-man-keys)");
	free(want);
	free(text);
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--print-man-keys") == 0) {
		options_man_keys(stdout);
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "--print-schema") == 0) {
		cJSON *schema = options_schema();
		char *text = cJSON_Print(schema);

		printf("%s\n", text);
		cJSON_free(text);
		cJSON_Delete(schema);
		return 0;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: test-preset PRESETS-DIR MAN-PAGE\n");
		return 2;
	}
	test_schema(argv[1]);
	test_shipped(argv[1]);
	test_round_trip(argv[1]);
	test_modes();
	test_man(argv[2]);
	return tap_done();
}
