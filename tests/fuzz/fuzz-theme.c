/*
 * The theme parser (--theme, the files in themes/): any text either gives a
 * theme or an error that says which line, and never reads past the text.
 */
#include "theme.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), *cause = NULL;
	struct theme theme;
	int r;

	theme_default(&theme);
	r = theme_parse(text, &theme, &cause);
	if (r < 0 && (!cause || strncmp(cause, "line ", 5) != 0))
		fuzz_fail("an error without its line: \"%s\"",
			  cause ? cause : "(none)");
	if (r == 0 && cause)
		fuzz_fail("success with an error: \"%s\"", cause);
	free(cause);
	free(text);
	return 0;
}
