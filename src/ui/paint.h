/*
 * Painting: the primitives every part of the screen draws with -- text cut
 * with a mark where it does not fit, lines and boxes (UTF-8 box drawing, or
 * curses' own characters), the formats of sizes and values, and lines of
 * text made first, wrapped to a width, and drawn scrolled, so that nothing
 * is cut at 80x24.  It knows no view and no explorer.
 */
#ifndef NIO_TOP_UI_PAINT_H
#define NIO_TOP_UI_PAINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "theme.h"

struct rect {
	int y, x, h, w;
};

/* Text in width cells; what does not fit is cut with a marker. */
void ui_text(int y, int x, int width, enum theme_role role, const char *fmt,
	     ...) __attribute__((format(printf, 5, 6)));
void ui_line(bool utf8, int y, int x, int n, bool vertical);
/* A box with rounded corners and a title on its top edge. */
void ui_box(bool utf8, const struct rect *r, enum theme_role role,
	    const char *title);
/* Blank cells over r, for a box that stands over what is under it. */
void ui_clear(const struct rect *r);
/* A box of about want_w by want_h in the middle of a rows x cols screen. */
struct rect ui_centred(int rows, int cols, int want_w, int want_h);

/* Four significant figures at most, with k, M, G: "12.3k". */
void ui_format_value(double value, char *out, size_t size);
/* A reason without its parenthesised details, where the whole does not fit. */
void ui_short_reason(const char *why, char *out, size_t size);
/* Characters (not bytes) of a UTF-8 string. */
int ui_width(const char *text);

/* Lines of a pane that scrolls, made before they are drawn. */
struct ui_line_text {
	enum theme_role role;
	int indent;
	int mark; /* the first mark characters in mark_role: a key's name */
	enum theme_role mark_role;
	char text[256];
};

struct ui_lines {
	struct ui_line_text *line;
	size_t count;
	size_t capacity;
	size_t fixed; /* the first lines stay when the rest scroll (headings) */
};

void ui_lines_add(struct ui_lines *l, enum theme_role role, int indent,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/*
 * Adds text wrapped at width, each line after the first at indent; a
 * number keeps its unit ("180 s", "32 KiB") on its line.
 */
void ui_lines_wrap(struct ui_lines *l, enum theme_role role, int width,
		   int indent, const char *text);
/* Line i's first n characters in role (the line's keys, say). */
void ui_lines_mark(struct ui_lines *l, size_t i, enum theme_role role, int n);
void ui_lines_free(struct ui_lines *l);
/*
 * Draws the lines in r (inside its box) from *scroll, clamping it, and says
 * on the frame how many more lie above and below.  Returns the rows that
 * scroll (a page).
 */
size_t ui_lines_draw(bool utf8, const struct ui_lines *l, const struct rect *r,
		     size_t *scroll);
/*
 * Up, Down, PgUp, PgDn, Home and End on lines that scroll: moves *offset
 * (a page is page lines; ui_lines_draw() clamps the end).  True when key
 * was one of them.
 */
bool ui_scroll_key(int key, size_t *offset, size_t page);
/* Text in box r from its row dy on, wrapped at words (an empty view's hint). */
void ui_say(const struct rect *r, int dy, enum theme_role role, const char *fmt,
	    ...) __attribute__((format(printf, 4, 5)));

#endif
