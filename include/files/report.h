/*
 * Reports for people: a CSV file with one row per run (the columns are a
 * table, documented in nio-top(1)), and an SVG file of the four figures of
 * the course's report (figure.h): throughput against message size, the rr
 * round trip against flows, cache misses per KiB and the cost per byte
 * against message size, each with the machine and the run configuration
 * beneath it.  Both are written atomically.
 */
#ifndef NIO_TOP_REPORT_H
#define NIO_TOP_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "session.h"

#define REPORT_COLOURS_MAX 8

/* The strategies' colours, in registry order: "#rrggbb". */
struct report_style {
	char colour[REPORT_COLOURS_MAX][8];
	size_t colour_count;
};

/* A palette of its own, for when no theme gives one. */
void report_style_default(struct report_style *style);
/* Colour i from a theme's, darkened as white paper needs. */
void report_style_colour(struct report_style *style, size_t i,
			 const unsigned char rgb[3]);

int report_write_csv(const char *path, const struct session *s, char **cause);
/*
 * The crossover search's report (s->crossover, if any) on out, after the
 * runs' table: each size tried, the brackets, why it stopped, and last
 * the one line a user quotes.
 */
void report_crossover_print(FILE *out, const struct session *s);
/* style NULL: report_style_default(). */
int report_write_svg(const char *path, const struct session *s,
		     const struct report_style *style, char **cause);

#endif
