/*
 * The size parser (-m, preset msg_sizes as text): it accepts only digits with
 * an optional K or M, within 64 .. 4M, and what it accepts spells back to the
 * same size through units_format_size().
 */
#include <errno.h>

#include "units.h"
#include "fuzz.h"
#include "message.h"

static int size_syntax(const char *text)
{
	size_t digits = strspn(text, "0123456789");

	if (digits == 0)
		return 0;
	text += digits;
	if (*text && strchr("KkMm", *text))
		text++;
	return *text == '\0';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), again[32];
	size_t bytes = 0, back = 0;
	int r = units_parse_size(text, &bytes);

	if (r == 0) {
		if (!size_syntax(text))
			fuzz_fail("accepted \"%s\", which is not a size", text);
		if (bytes < MESSAGE_SIZE_MIN || bytes > MESSAGE_SIZE_MAX)
			fuzz_fail("\"%s\" gave %zu, out of range", text, bytes);
		units_format_size(bytes, again, sizeof(again));
		if (units_parse_size(again, &back) != 0 || back != bytes)
			fuzz_fail("%zu spells \"%s\", which reads back as %zu",
				  bytes, again, back);
	} else if (r != -EINVAL && r != -ERANGE) {
		fuzz_fail("\"%s\": unexpected error %d", text, r);
	}
	free(text);
	return 0;
}
