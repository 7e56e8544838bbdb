/*
 * The reports' text: a buffer that grows as it is printed into, written to
 * its file atomically, and text escaped for SVG's XML.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

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

/* Text for an XML attribute or element. */
void report_put_escaped(struct text *t, const char *s)
{
	/* Controls and bytes that are not UTF-8 have no place in XML. */
	char *safe = text_escape(s);

	if (!safe) {
		t->failed = true;
		return;
	}
	for (const char *c = safe; *c; c++) {
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
	free(safe);
}
