/*
 * The preset loader (-p FILE): any text either applies or is refused with an
 * error naming the file; what applies comes back as the same preset when the
 * options are written out and read again.
 */
#include "fuzz.h"
#include "jsonfile.h"
#include "options.h"

/* The options a bare `nio-top` starts from, made once. */
static const struct options *defaults(void)
{
	static struct options opts;
	static int made;
	char *argv[] = {"nio-top", NULL}, *cause = NULL;

	if (!made) {
		if (options_parse(1, argv, &opts, &cause) < 0)
			fuzz_fail("the defaults do not parse: %s", cause);
		made = 1;
	}
	return &opts;
}

/* Options -> preset -> options -> preset gives the same preset twice. */
static void check_round_trip(const struct options *opts)
{
	struct options again = *defaults();
	cJSON *first = options_to_preset(opts), *parsed = NULL, *second;
	char *text = cJSON_PrintUnformatted(first), *cause = NULL;
	int r;

	if (!text)
		fuzz_fail("cannot print the preset");
	/*
	 * The machine may change under a long fuzz run (another test disables
	 * io_uring): reading back is about the text, not the machine.
	 */
	again.viewing_only = true;
	r = jsonfile_parse("again.json", text, strlen(text), &parsed, &cause);
	if (r == 0)
		r = options_from_preset(parsed, "again.json", &again, &cause);
	if (r < 0)
		fuzz_fail("a preset nio-top wrote does not load: %s\n%s",
			  cause ? cause : "?", text);
	second = options_to_preset(&again);
	if (!cJSON_Compare(first, second, 1))
		fuzz_fail("the preset changed on a round trip:\n%s", text);
	free(again.warnings);
	cJSON_Delete(second);
	cJSON_Delete(parsed);
	cJSON_free(text);
	cJSON_Delete(first);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct options opts = *defaults();
	char *text = fuzz_text(data, size), *cause = NULL;
	cJSON *root = NULL;
	int r;

	r = jsonfile_parse("fuzz.json", text, size, &root, &cause);
	if (r == 0)
		r = options_from_preset(root, "fuzz.json", &opts, &cause);
	if (r < 0 && (!cause || strncmp(cause, "fuzz.json", 9) != 0))
		fuzz_fail("an error that does not name the file: \"%s\"",
			  cause ? cause : "(none)");
	if (r == 0)
		check_round_trip(&opts);
	free(opts.warnings);
	free(cause);
	cJSON_Delete(root);
	free(text);
	return 0;
}
