/*
 * --diff OLD NEW: two exports compared as Go's benchstat compares two sets
 * of benchmark runs.  Runs are matched into points by every setting that
 * changes the work (strategy, size, flows, mode, receive side, fields and
 * every other run setting; not the duration, warm-up, round or profile
 * rate, which only change how it was measured); for each metric and point
 * it prints the old and new medians with their spread, and the change with
 * its interval by the analysis' own statistics (stats.h: runs on a log
 * scale, Welch's t, each bound one-sided 95%), "~" where the interval
 * holds no change.  Differences of host, settings and environment come
 * first; points only one side has are listed last.
 */
#ifndef NIO_TOP_DIFF_H
#define NIO_TOP_DIFF_H

#include "options.h"

/*
 * Compares given->diff (old) with given->diff_new, both read as --load
 * reads one under the given options; prints the comparison on standard
 * output and writes it to json_path and csv_path (each may be NULL).  0, or
 * -errno with *cause (caller frees).
 */
int diff_exports(const struct options *given, const char *json_path,
		 const char *csv_path, char **cause);

#endif
