/*
 * What the files of the reports share, and nothing outside them includes:
 * the text they print into (report_text.c), the SVG page's measures, the
 * footer every figure has, and the figure of where each side's CPU goes
 * (report_profile.c), drawn after the course's four.
 */
#ifndef NIO_TOP_REPORT_PRIVATE_H
#define NIO_TOP_REPORT_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>

#include "figure.h"
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

#define SVG_WIDTH   1000
#define SVG_MARGIN  20
#define PANEL_GAP   20
#define PANEL_H	    280
#define FIGURE_HEAD 90 /* title, note and legend */
#define FIGURE_FOOT 64
#define FIGURE_GAP  30

/*
 * The footer under a figure at y: the host, the runs of scope it draws (not
 * the options the session started with), what a point of it is, and what
 * was left out.
 */
void report_footer(struct text *t, const struct session *s,
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

#endif
