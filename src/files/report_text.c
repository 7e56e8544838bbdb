/*
 * The reports' text: a buffer that grows as it is printed into, written to
 * its file atomically, and text escaped for SVG's XML.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "outfile.h"
#include "report_private.h"

void report_put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->failed)
		return;
	for (;;) {
		size_t room = t->capacity - t->len;

		va_start(ap, fmt);
		n = vsnprintf(t->data ? t->data + t->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0) {
			t->failed = true;
			return;
		}
		if ((size_t)n < room) {
			t->len += (size_t)n;
			return;
		}
		size_t capacity = t->capacity ? 2 * t->capacity : 4096;

		while (capacity - t->len <= (size_t)n)
			capacity *= 2;
		char *grown = realloc(t->data, capacity);

		if (!grown) {
			t->failed = true;
			return;
		}
		t->data = grown;
		t->capacity = capacity;
	}
}

int report_text_write(struct text *t, const char *path, char **cause)
{
	int r;

	*cause = NULL;
	if (t->failed) {
		free(t->data);
		return -ENOMEM;
	}
	r = outfile_write_text(path, t->data ? t->data : "", cause);
	free(t->data);
	return r;
}

/* n bytes of safe (already escaped) text, with XML's five marks as entities. */
static void put_xml(struct text *t, const char *safe, size_t n)
{
	for (const char *c = safe; c < safe + n; c++) {
		switch (*c) {
		case '&':
			report_put(t, "&amp;");
			break;
		case '<':
			report_put(t, "&lt;");
			break;
		case '>':
			report_put(t, "&gt;");
			break;
		case '"':
			report_put(t, "&quot;");
			break;
		default:
			report_put(t, "%c", *c);
		}
	}
}

/* Text for an XML attribute or element. */
void report_put_escaped(struct text *t, const char *s)
{
	/* Controls and bytes that are not UTF-8 have no place in XML. */
	char *safe = text_escape(s);

	if (!safe) {
		t->failed = true;
		return;
	}
	put_xml(t, safe, strlen(safe));
	free(safe);
}

/*
 * A character's width in DejaVu Sans, in ems, by the byte that starts it:
 * the narrow, the half-narrow, the wide and the capitals apart, the rest
 * as wide as a digit, a little generous each; anything outside ASCII as a
 * whole em.
 */
static double char_em(unsigned char c)
{
	if (c >= 0x80)
		return 1;
	if (c && strchr(" .,:;'|ijlIJ", c))
		return 0.32;
	if (c && strchr("()[]-/\\!frt", c))
		return 0.42;
	if (c && strchr("mwMW%@#&=+<>^~", c))
		return 1;
	if (isupper(c))
		return 0.8;
	return 0.64;
}

/* The width of the n bytes at s, in ems. */
static double width_em(const char *s, size_t n)
{
	double em = 0;

	for (size_t i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			em += char_em((unsigned char)s[i]);
	return em;
}

/* Bold is a little wider. */
static double font_em(const struct report_font *font)
{
	return font->size * (font->bold ? 1.12 : 1);
}

double report_text_width(const struct report_font *font, const char *s)
{
	char *safe = text_escape(s);
	double width = safe ? width_em(safe, strlen(safe)) * font_em(font) : 0;

	free(safe);
	return width;
}

double report_line_height(const struct report_font *font)
{
	return ceil(font->size * 1.35);
}

/*
 * Where the line that starts at s ends: at the last space before it grows
 * wider than width ems, else (one long word) at the last character that
 * fits, and never before one character.
 */
static size_t line_end(const char *s, double width)
{
	size_t space = 0, i = 0;
	double em = 0;

	for (; s[i]; i++) {
		if (((unsigned char)s[i] & 0xc0) == 0x80)
			continue;
		if (s[i] == ' ')
			space = i;
		em += char_em((unsigned char)s[i]);
		if (em > width && i > 0)
			return space ? space : i;
	}
	return i;
}

double report_text_block(struct text *t, const struct report_font *font,
			 double x, double y, double width, const char *s)
{
	char *safe = text_escape(s);
	double line = report_line_height(font);
	size_t lines = 0;

	if (!safe) {
		t->failed = true;
		return 0;
	}
	for (const char *at = safe; *at; lines++) {
		size_t n = line_end(at, width / font_em(font));

		report_put(
			t,
			"<text x=\"%.1f\" y=\"%.1f\" font-size=\"%g\"%s%s%s>",
			x, y + (double)lines * line, font->size,
			font->bold ? " font-weight=\"bold\"" : "",
			font->attrs ? " " : "", font->attrs ? font->attrs : "");
		put_xml(t, at, n);
		report_put(t, "</text>\n");
		for (at += n; *at == ' '; at++)
			;
	}
	free(safe);
	return (double)lines * line;
}
