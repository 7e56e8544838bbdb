/*
 * The estimator: what a run says of one figure -- any row of the metric
 * table, on either side, or a round trip's percentile -- and how sure that
 * is within the run.  The analysis and --diff both read a run's figures
 * here and nowhere else, and both make a point of them with stats_point(),
 * so that every figure they compare has its runs' spread and, beneath
 * it, the floor its intervals set (stats.h).
 */
#ifndef NIO_TOP_ESTIMATE_H
#define NIO_TOP_ESTIMATE_H

#include <stdbool.h>

#include "run.h"
#include "stats.h"

/* Which figure: a row of the metric table at a side, or a round trip's. */
struct estimate_of {
	int metric;		 /* metrics[metric]; -1: a round trip */
	bool sender;		 /* the side (a delivered figure's: false) */
	unsigned int percentile; /* a round trip's: 50 or 99 */
};

/*
 * The figure the analysis compares in a mode: the delivered Gbit/s of a
 * stream, the p50 round trip of rr (lower is better).
 */
struct estimate_of estimate_figure_of(enum run_mode mode);

/* Its key, as --diff and --gate name it: "gbps", "p50_us", "cpu_pct". */
const char *estimate_key(const struct estimate_of *of);

/*
 * Run r's value of the figure, and its measured intervals' series (the
 * warm-up left out; a sliver of a tick joined to the interval before it,
 * weighted by time).  A round trip has no figure per interval: its
 * intervals' messages a second (the inverse of their mean round trip)
 * stand in for its series.  The series is filled whatever the value;
 * false where the run does not know the value.
 */
bool estimate_run(const struct run_result *r, const struct estimate_of *of,
		  double *value, struct stats_series *series);

#endif
