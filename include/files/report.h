/*
 * Reports for people: a CSV file with one row per run (the columns are a
 * table, documented in nio-top(1)), and an SVG file of charts drawn from the
 * analysis -- throughput against message size per strategy, one panel per
 * thread count, and for rr runs the round trip (p50 and p99) the same way.
 * Both are written atomically.
 */
#ifndef NIO_TOP_REPORT_H
#define NIO_TOP_REPORT_H

#include <stddef.h>

#include "session.h"

int report_write_csv(const char *path, const struct session *s, char **cause);
int report_write_svg(const char *path, const struct session *s, char **cause);

#endif
