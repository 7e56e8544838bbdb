/*
 * What a session's runs say: each point (strategy, size, threads, mode) as
 * the median and spread of its repeats, and for each thread count the size
 * at which one strategy first beats another (one-copy vs two-copy, zero-copy
 * vs two-copy and one-copy, uring-zc vs uring, sendfile vs zero-copy, splice
 * vs one-copy, and each strategy with zero-copy receive vs the same with
 * copy receive) -- only where the difference lies outside the run-to-run
 * spread; otherwise a tie.  Runs with --unsafe-reuse are left out.
 */
#ifndef NIO_TOP_ANALYSIS_H
#define NIO_TOP_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>

#include "run.h"

/* With one run per point there is no spread: this margin stands in for it. */
#define ANALYSIS_MARGIN 0.05

struct analysis_point {
	const struct strategy_ops *strategy;
	size_t msg_size;
	unsigned int threads;
	enum run_mode mode;
	enum rx_mode rx;
	size_t runs;
	/* Stream: Gbit/s; rr: p50 round trip in us (lower is better). */
	double median, min, max;
	double p99_median_us; /* rr only */
};

enum analysis_verdict {
	VERDICT_FROM,  /* wins from msg_size on */
	VERDICT_NEVER, /* never wins; the other is ahead somewhere */
	VERDICT_TIE,   /* within the spread at every size */
};

struct analysis_crossover {
	unsigned int threads;
	const char *strategy;
	const char *versus;
	/* strategy with --rx zerocopy against itself with --rx copy */
	bool rx_pair;
	enum analysis_verdict verdict;
	size_t msg_size; /* VERDICT_FROM */
	size_t sizes;	 /* sizes both were measured at */
};

struct analysis {
	struct analysis_point *points;
	size_t point_count;
	struct analysis_crossover *crossovers;
	size_t crossover_count;
	bool has_zerocopy;
	char zerocopy_why[256];
};

int analysis_build(const struct run_result *results, size_t count,
		   struct analysis *out);
void analysis_fini(struct analysis *a);

/* "threads 2: one-copy beats two-copy from 4K" */
void analysis_crossover_text(const struct analysis_crossover *c, char *out,
			     size_t size);
const char *analysis_verdict_name(enum analysis_verdict verdict);

#endif
