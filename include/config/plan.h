/*
 * The plan: the runs a grid of options asks for -- every combination of
 * their lists (modes, receive sides, GRO settings, GSO sizes, busy-poll
 * settings, load rates, strategies, message sizes and thread counts, in
 * that order), with their settings, the whole grid repeated --repeat times
 * (repeats interleaved, so a slow minute of a shared machine spreads over
 * every point).  The one grid expansion: batch runs it, the explorer sweeps it.
 */
#ifndef NIO_TOP_PLAN_H
#define NIO_TOP_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "options.h"
#include "run.h"

/*
 * The grid's first point (the first value of every list) with o's settings;
 * base gives what options do not: which ends run here (role) and the
 * counters.
 */
struct run_config plan_point(const struct options *o,
			     const struct run_config *base);

/* The most runs one plan may hold (a 1.4 KB preset could ask millions). */
#define PLAN_RUNS_MAX 100000

/*
 * Every run of the grid, in order: 0 with *plan (caller frees) and *count,
 * or -errno with *cause (-E2BIG: more than PLAN_RUNS_MAX runs, refused
 * before any is built).  given_only: a list not given (on the command line
 * or in a preset) contributes base's value alone, not its default.
 */
int plan_build(const struct options *o, const struct run_config *base,
	       bool given_only, struct run_config **plan, size_t *count,
	       char **cause);

/*
 * --crossover DIM=A,B: the pair's dimension as a run names it ("strategy",
 * "gso_max_size"), its two values as given, the range of -m's sizes, and
 * each side's run -- o's one point with DIM at A, and at B, at the
 * smallest size -- made as plan_point() makes a run.
 */
struct plan_pair {
	char dimension[32];
	char value[2][64];
	size_t min_size, max_size;
	struct run_config side[2];
};

/*
 * The pair of o->crossover: 0, or -EINVAL with *cause when it names no
 * run setting, not two values, two alike, or when a list of o other than
 * the pair's and -m's has more than one value (a crossover compares one
 * pair) or -m no range.
 */
int plan_crossover(const struct options *o, const struct run_config *base,
		   struct plan_pair *pair, char **cause);

#endif
