/*
 * The painting primitives.  Text goes through wide characters so that a
 * cut never splits a UTF-8 sequence, and a cut is always marked.
 */
#include <ctype.h>
#include <curses.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "paint.h"

void ui_text(int y, int x, int width, enum theme_role role, const char *fmt,
	     ...)
{
	wchar_t wide[512];
	char text[1024];
	va_list ap;
	size_t n;

	if (width <= 0)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	n = mbstowcs(wide, text, sizeof(wide) / sizeof(*wide) - 1);
	attrset(theme_attr(role));
	if (n == (size_t)-1) {
		mvaddnstr(y, x, text, width);
	} else if ((int)n > width) {
		/* Cut, and say so: a word is never clipped without a mark. */
		wide[width - 1] = MB_CUR_MAX > 1 ? L'\u2026' : L'~';
		mvaddnwstr(y, x, wide, width);
	} else {
		mvaddnwstr(y, x, wide, (int)n);
	}
	attrset(theme_attr(ROLE_TEXT));
}

/* Box-drawing characters in UTF-8; curses' ACS ones otherwise. */
void ui_line(bool utf8, int y, int x, int n, bool vertical)
{
	for (int i = 0; i < n; i++) {
		int yy = vertical ? y + i : y, xx = vertical ? x : x + i;

		if (utf8)
			mvaddstr(yy, xx, vertical ? "\u2502" : "\u2500");
		else
			mvaddch(yy, xx, vertical ? ACS_VLINE : ACS_HLINE);
	}
}

static void box_corner(bool utf8, int y, int x, int which)
{
	static const char *const rounded[] = {"\u256d", "\u256e", "\u2570",
					      "\u256f"};
	const chtype acs[] = {ACS_ULCORNER, ACS_URCORNER, ACS_LLCORNER,
			      ACS_LRCORNER};

	if (utf8)
		mvaddstr(y, x, rounded[which]);
	else
		mvaddch(y, x, acs[which]);
}

void ui_box(bool utf8, const struct rect *r, enum theme_role role,
	    const char *title)
{
	attrset(theme_attr(ROLE_TEXT));
	for (int y = r->y + 1; y < r->y + r->h - 1; y++)
		mvhline(y, r->x + 1, ' ', r->w - 2);
	attrset(theme_attr(role));
	box_corner(utf8, r->y, r->x, 0);
	ui_line(utf8, r->y, r->x + 1, r->w - 2, false);
	box_corner(utf8, r->y, r->x + r->w - 1, 1);
	ui_line(utf8, r->y + 1, r->x, r->h - 2, true);
	ui_line(utf8, r->y + 1, r->x + r->w - 1, r->h - 2, true);
	box_corner(utf8, r->y + r->h - 1, r->x, 2);
	ui_line(utf8, r->y + r->h - 1, r->x + 1, r->w - 2, false);
	box_corner(utf8, r->y + r->h - 1, r->x + r->w - 1, 3);
	if (title)
		ui_text(r->y, r->x + 2, r->w - 4, ROLE_TITLE, " %s ", title);
	attrset(theme_attr(ROLE_TEXT));
}

void ui_clear(const struct rect *r)
{
	attrset(theme_attr(ROLE_TEXT));
	for (int y = r->y; y < r->y + r->h; y++)
		mvhline(y, r->x, ' ', r->w);
}

struct rect ui_centred(int rows, int cols, int want_w, int want_h)
{
	struct rect r;

	r.w = cols - 4 < want_w ? cols - 4 : want_w;
	r.h = rows - 4 < want_h ? rows - 4 : want_h;
	r.y = 1 + (rows - 3 - r.h) / 2;
	r.x = (cols - r.w) / 2;
	return r;
}

void ui_format_value(double v, char *out, size_t size)
{
	static const char *const suffix[] = {"", "k", "M", "G", "T"};
	int s = 0;

	while (fabs(v) >= 10000 && s < 4) {
		v /= 1000;
		s++;
	}
	if (fabs(v) >= 100 || (s == 0 && v == floor(v) && fabs(v) >= 10))
		snprintf(out, size, "%.0f%s", v, suffix[s]);
	else if (fabs(v) >= 10)
		snprintf(out, size, "%.1f%s", v, suffix[s]);
	else
		snprintf(out, size, "%.2f%s", v, suffix[s]);
}

void ui_short_reason(const char *why, char *out, size_t size)
{
	size_t n = 0;
	int depth = 0;

	for (const char *c = why; *c && n + 1 < size; c++) {
		if (*c == '(' && c > why && c[-1] == ' ' && n)
			n--; /* the space before it goes too */
		if (*c == '(')
			depth++;
		else if (*c == ')' && depth)
			depth--;
		else if (!depth)
			out[n++] = *c;
	}
	out[n] = '\0';
}

/* Characters (not bytes) of a UTF-8 string's first n bytes. */
static int utf8_width(const char *s, size_t n)
{
	int width = 0;

	for (size_t i = 0; i < n && s[i]; i++)
		width += ((unsigned char)s[i] & 0xc0) != 0x80;
	return width;
}

int ui_width(const char *text)
{
	return utf8_width(text, strlen(text));
}

void ui_lines_add(struct ui_lines *l, enum theme_role role, int indent,
		  const char *fmt, ...)
{
	struct ui_line_text *line;
	va_list ap;

	if (l->count == l->capacity) {
		size_t capacity = l->capacity ? 2 * l->capacity : 32;
		void *grown = realloc(l->line, capacity * sizeof(*l->line));

		if (!grown)
			return;
		l->line = grown;
		l->capacity = capacity;
	}
	line = &l->line[l->count++];
	line->role = role;
	line->indent = indent;
	line->mark = 0;
	va_start(ap, fmt);
	vsnprintf(line->text, sizeof(line->text), fmt, ap);
	va_end(ap);
}

/* Whether word is a unit, which a number before it keeps on its line. */
static bool unit_word(const char *word)
{
	static const char *const units[] = {
		"B",	   "KiB", "MiB", "GiB", "s",	  "ms",	   "us",
		"\u00b5s", "ns",  "min", "h",	"Gbit/s", "msg/s",
	};
	size_t n = strcspn(word, " ,;:.)");

	for (size_t i = 0; i < sizeof(units) / sizeof(*units); i++)
		if (strlen(units[i]) == n && strncmp(word, units[i], n) == 0)
			return true;
	return false;
}

void ui_lines_wrap(struct ui_lines *l, enum theme_role role, int width,
		   int indent, const char *text)
{
	int first = 1;

	while (*text) {
		int room = width - (first ? 0 : indent);
		size_t cut = 0, fit = 0;

		/* The longest run of whole words that fits the room. */
		for (size_t i = 0; text[i]; i++) {
			if (utf8_width(text, i + 1) > room)
				break;
			fit = i + 1;
			if (!text[i + 1] ||
			    (text[i + 1] == ' ' &&
			     !(isdigit((unsigned char)text[i]) &&
			       unit_word(text + i + 2))))
				cut = i + 1;
		}
		if (!cut)
			cut = fit ? fit : strlen(text);
		ui_lines_add(l, role, first ? 0 : indent, "%.*s", (int)cut,
			     text);
		text += cut;
		while (*text == ' ')
			text++;
		first = 0;
	}
}

void ui_lines_mark(struct ui_lines *l, size_t i, enum theme_role role, int n)
{
	if (i >= l->count)
		return;
	l->line[i].mark = n;
	l->line[i].mark_role = role;
}

void ui_lines_free(struct ui_lines *l)
{
	free(l->line);
	*l = (struct ui_lines){0};
}

size_t ui_lines_draw(bool utf8, const struct ui_lines *l, const struct rect *r,
		     size_t *scroll)
{
	size_t rows = r->h > 2 ? (size_t)(r->h - 2) : 0;
	size_t fixed = l->fixed < rows ? l->fixed : rows;
	size_t body = l->count > fixed ? l->count - fixed : 0;

	rows -= fixed;
	if (*scroll + rows > body)
		*scroll = body > rows ? body - rows : 0;
	for (size_t i = 0; i < fixed + rows; i++) {
		size_t k = i < fixed ? i : *scroll + i;
		const struct ui_line_text *line;
		int width;

		if (k >= l->count)
			break;
		line = &l->line[k];
		width = r->w - 4 - line->indent;
		ui_text(r->y + 1 + (int)i, r->x + 2 + line->indent, width,
			line->role, "%s", line->text);
		if (line->mark)
			ui_text(r->y + 1 + (int)i, r->x + 2 + line->indent,
				line->mark < width ? line->mark : width,
				line->mark_role, "%.*s", line->mark,
				line->text);
	}
	/* How much more there is, on the box's frame. */
	if (*scroll)
		ui_text(r->y, r->x + r->w - 16, 14, ROLE_TITLE, " %s %zu more ",
			utf8 ? "\u25b2" : "^", *scroll);
	if (*scroll + rows < body)
		ui_text(r->y + r->h - 1, r->x + r->w - 16, 14, ROLE_TITLE,
			" %s %zu more ", utf8 ? "\u25bc" : "v",
			body - *scroll - rows);
	return rows ? rows : 1;
}

void ui_say(const struct rect *r, int dy, enum theme_role role, const char *fmt,
	    ...)
{
	struct ui_lines l = {0};
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	ui_lines_wrap(&l, role, r->w - 6, 0, text);
	for (size_t i = 0; i < l.count && dy + (int)i < r->h - 1; i++)
		ui_text(r->y + dy + (int)i, r->x + 3, r->w - 6, role, "%s",
			l.line[i].text);
	ui_lines_free(&l);
}

bool ui_scroll_key(int key, size_t *offset, size_t page)
{
	size_t step = page ? page : 1;

	switch (key) {
	case KEY_UP:
		*offset = *offset ? *offset - 1 : 0;
		return true;
	case KEY_DOWN:
		*offset = *offset + 1;
		return true;
	case KEY_PPAGE:
		*offset = *offset > step ? *offset - step : 0;
		return true;
	case KEY_NPAGE:
		*offset = *offset + step;
		return true;
	case KEY_HOME:
		*offset = 0;
		return true;
	case KEY_END:
		*offset = SIZE_MAX / 2;
		return true;
	}
	return false;
}
