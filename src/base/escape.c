/*
 * Text from elsewhere, escaped for showing.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"

/*
 * The length of the UTF-8 sequence at p (1 .. 4), or 0 if it is not one:
 * an overlong form, a surrogate (U+D800 .. U+DFFF) or a code point past
 * U+10FFFF is not (RFC 3629), and no XML parser takes one.
 */
static size_t utf8_length(const unsigned char *p)
{
	size_t n = p[0] >= 0xf0 && p[0] <= 0xf4	  ? 4
		   : p[0] >= 0xe0 && p[0] <= 0xef ? 3
		   : p[0] >= 0xc2 && p[0] <= 0xdf ? 2
						  : 0;
	/* The second byte's range is narrower after these four. */
	unsigned char low = p[0] == 0xe0 ? 0xa0 : p[0] == 0xf0 ? 0x90 : 0x80;
	unsigned char high = p[0] == 0xed ? 0x9f : p[0] == 0xf4 ? 0x8f : 0xbf;

	if (n && (p[1] < low || p[1] > high))
		return 0;
	for (size_t i = 2; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* U+FFFE and U+FFFF: UTF-8, but characters XML forbids. */
static bool xml_noncharacter(const unsigned char *p, size_t n)
{
	return n == 3 && p[0] == 0xef && p[1] == 0xbf && p[2] >= 0xbe;
}

char *text_escape(const char *text)
{
	const unsigned char *p = (const unsigned char *)text;
	char *out = malloc(4 * strlen(text) + 1), *o = out;

	if (!out)
		return NULL;
	while (*p) {
		size_t n = *p < 0x80 ? 1 : utf8_length(p);

		/*
		 * C0 controls, DEL, the C1 controls (U+0080 .. U+009F: CSI
		 * among them), U+FFFE and U+FFFF, and bytes that are not
		 * UTF-8 are written as \xHH, so that nothing the other side
		 * sent can move a terminal's cursor, forge a line or break an
		 * XML document.
		 */
		if (n == 0 || *p < 0x20 || *p == 0x7f ||
		    (n == 2 && p[0] == 0xc2 && p[1] < 0xa0) ||
		    xml_noncharacter(p, n)) {
			for (size_t i = 0; i < (n ? n : 1); i++)
				o += sprintf(o, "\\x%02x", p[i]);
			p += n ? n : 1;
			continue;
		}
		memcpy(o, p, n);
		o += n;
		p += n;
	}
	*o = '\0';
	return out;
}

void escape_vprint(FILE *f, const char *prefix, const char *fmt, va_list ap)
{
	char *text = NULL, *safe = NULL;

	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	if (text)
		safe = text_escape(text);
	fprintf(f, "%s%s\n", prefix,
		safe ? safe : "(out of memory for a line)");
	fflush(f);
	free(safe);
	free(text);
}

void escape_print(FILE *f, const char *prefix, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	escape_vprint(f, prefix, fmt, ap);
	va_end(ap);
}
