/*
 * The export loader (--load FILE): any text either loads as runs or is
 * refused with an error naming the file, and a refused load leaves nothing
 * allocated behind.
 */
#include "export.h"
#include "fuzz.h"
#include "jsonfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct options defaults;
	static int made;
	char *argv[] = {"nio-top", NULL};
	char *text = fuzz_text(data, size), *cause = NULL;
	struct options opts;
	struct session session;
	cJSON *root = NULL;
	int r;

	if (!made) {
		if (options_parse(1, argv, &defaults, &cause) < 0)
			fuzz_fail("the defaults do not parse: %s", cause);
		defaults.viewing_only = 1;
		made = 1;
	}
	opts = defaults;
	r = jsonfile_parse("fuzz.json", text, size, &root, &cause);
	if (r == 0) {
		r = export_from_json(root, "fuzz.json", &session, &opts,
				     &cause);
		if (r == 0) {
			if (session.result_count > 0 && !session.results)
				fuzz_fail("runs counted but not kept");
			session_close(&session);
		}
	}
	if (r < 0 && (!cause || strncmp(cause, "fuzz.json", 9) != 0))
		fuzz_fail("an error that does not name the file: \"%s\"",
			  cause ? cause : "(none)");
	free(opts.warnings);
	free(cause);
	cJSON_Delete(root);
	free(text);
	return 0;
}
