/*
 * What the files of the reports share, and nothing outside them includes:
 * the text they print into (report_text.c), the SVG page's measures, the
 * head, footer and notes every figure has (report_page.c), and the figures
 * drawn after the four figures of the course's report: where each side's
 * CPU and time go (report_profile.c) and the probe (report_probe.c).
 */
#ifndef NIO_TOP_REPORT_PRIVATE_H
#define NIO_TOP_REPORT_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>

#include "figure.h"
#include "report.h"
#include "session.h"

/* A growing text buffer. */
struct text {
	char *data;
	size_t len;
	size_t capacity;
	bool failed;
};

void report_put(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Text for an XML attribute or element. */
void report_put_escaped(struct text *t, const char *s);
/* Writes t to path atomically and frees it: 0, or -errno with *cause. */
int report_text_write(struct text *t, const char *path, char **cause);

/*
 * How a <text> is set: its size in pixels, bold or not, and its other
 * attributes (fill, text-anchor), or NULL.
 */
struct report_font {
	double size;
	bool bold;
	const char *attrs;
};

/*
 * The width s takes in font, as DejaVu Sans (the page's first font) sets
 * it once escaped, rounded up: what a layout keeps inside the page.
 */
double report_text_width(const struct report_font *font, const char *s);
/* From a line's baseline to the next one's. */
double report_line_height(const struct report_font *font);
/*
 * s, escaped, as lines of text no wider than width, broken at spaces (a
 * word wider than a line where it must be), the first line's baseline at
 * x, y; returns their height, a line height each.
 */
double report_text_block(struct text *t, const struct report_font *font,
			 double x, double y, double width, const char *s);

/*
 * The page: as wide as a screen shows it, a figure under another, each
 * as tall as it needs to be for what it draws.
 */
#define SVG_WIDTH  1000
#define SVG_MARGIN 20
#define SVG_INSIDE (SVG_WIDTH - 2 * SVG_MARGIN) /* a line of text, a panel */
#define PANEL_GAP  20
#define PANEL_H	   280
#define FIGURE_GAP 30

/*
 * A figure's head at y: its group opened as figure-key, "Figure number.
 * title" and the note under it, each wrapped to the page; returns its
 * height, to the top of the first thing under the note.
 */
double report_figure_head(struct text *t, const char *key, size_t number,
			  const char *title, const char *note, double y);

/*
 * The footer under a figure, from y: the host, the runs of scope it draws
 * (not the options the session started with), what a point of it is, and
 * what was left out, each wrapped to the page; returns its height.
 */
double report_footer(struct text *t, const struct session *s,
		     const struct figure_scope *scope, const char *points,
		     double y);

/*
 * A note under a figure's panels at y, wrapped to the figure's width, each
 * line a <text class="cls">: the height it took.
 */
double report_note(struct text *t, const char *cls, const char *text, double y);

/*
 * Figure number at y: for each strategy at each size, the sender's and the
 * receiver's sampled CPU by role, stacked; returns its height.
 */
double report_profile_figure(struct text *t, const struct session *s,
			     size_t number, double y);
/*
 * Figure number at y: for each strategy at each size, the sender's and the
 * receiver's wall time on the CPU and off it by reason, stacked; returns
 * its height.
 */
double report_time_figure(struct text *t, const struct session *s,
			  size_t number, double y);

/*
 * Figure number at y, where runs had a probe: each point's probe beside
 * the load (p50, a whisker to p99) against its Gbit/s, the probe alone as
 * reference lines; returns its height, 0 where no run had a probe.
 */
double report_probe_figure(struct text *t, const struct session *s,
			   const struct report_style *style, size_t number,
			   double y);

/*
 * The CSV's crossover columns (report_crossover.c): their names, each
 * after a comma, and run number's cells, empty where it was no run of a
 * search.
 */
void report_crossover_csv_head(struct text *t);
void report_crossover_csv_cells(struct text *t, const struct session *s,
				size_t number);

/*
 * Figure number at y, where a crossover search ran (report_crossover.c):
 * the ratio against the size with each size's interval, the brackets
 * shaded; returns its height, 0 without a search.
 */
double report_crossover_figure(struct text *t, const struct session *s,
			       const struct report_style *style, size_t number,
			       double y);

/* 1, 2 or 5 times a power of ten, at least x. */
double report_nice_step(double x);
/* The 1, 2 or 5 times a power of ten nearest v, above (up) or below. */
double report_nice_bound(double v, bool up);
/* "2.5", "1200", "40k": a tick's value, no more digits than it needs. */
void report_tick_text(double v, double step, char *out, size_t size);

/*
 * How series i looks.  Past the palette's last colour the colours come
 * round again, each time with the next marker and dash: two series of one
 * colour differ in both for as many rounds as there are shapes, more than
 * a figure's series need with a palette of five colours or more.
 */
struct report_look {
	const char *colour;
	size_t shape;
	const char *dash;
};

struct report_look report_series_look(const struct report_style *style,
				      size_t i);
/* Marker shape at x, y (hollow: filled white). */
void report_marker(struct text *t, size_t shape, double x, double y,
		   const char *colour, bool hollow);

#endif
