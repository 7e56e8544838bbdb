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
	const char *names[] = {"pa02", "quick", "zerocopy-crossover", "latency",
			       "uring"};

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
		   a.thread_count == 4 && a.msg_sizes[1] == 1024,
	   "pa02 is 3 strategies x 4 sizes x 4 thread counts");
	cJSON_Delete(pa);
	cJSON_Delete(pb);
}

static void test_man(const char *man)
{
	char *text = read_text(man);
	bool all = text != NULL;

	for (size_t i = 0; text && i < option_row_count; i++) {
		char want[160];

		if (!option_rows[i].key)
			continue;
		snprintf(want, sizeof(want), ".It Li %s", option_rows[i].key);
		if (!strstr(text, want)) {
			ok(false, "nio-top-preset(5) documents %s",
			   option_rows[i].key);
			all = false;
		}
	}
	ok(all, "nio-top-preset(5) documents every key of the table");
	free(text);
}

int main(int argc, char **argv)
{
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
	test_man(argv[2]);
	return tap_done();
}
