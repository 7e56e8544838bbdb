/*
 * The statistics behind the analysis's verdicts, kept apart so that they can
 * be tested on their own.  A run is the unit of replication: its figure is
 * taken on a log scale (so that differences are ratios), its uncertainty
 * within the run comes from its 100 ms intervals by a moving-block bootstrap
 * (neighbouring intervals are correlated, so they are resampled in blocks),
 * and a point with several runs is compared with another by Welch's t on the
 * runs' logs, its variance never below what the intervals allow (and,
 * between two studies, widened by what they drift apart).  One run
 * per point says nothing of the run-to-run spread: no verdict is made from
 * it.  nio-top(1) describes the method for users.
 */
#ifndef NIO_TOP_STATS_H
#define NIO_TOP_STATS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * One-sided, as "A is ahead with 95% confidence": each bound of an
 * interval, so the interval between them holds 90% (the level said).
 */
#define STATS_CONFIDENCE     0.95
#define STATS_INTERVAL_LEVEL (2 * STATS_CONFIDENCE - 1)
/* Less than this is no difference worth a verdict (5%). */
#define STATS_MIN_EFFECT 0.05

/* One run's series of interval figures, summarized. */
struct stats_series {
	size_t count;  /* intervals */
	double mean;   /* of the intervals */
	double spread; /* their standard deviation / mean; NaN below 2 */
	double rel_se; /* the block bootstrap's standard error / mean */
	size_t block;  /* intervals per block */
};

/*
 * The intervals' mean and the standard error of that mean by a moving-block
 * bootstrap: blocks of round(n^(1/3)) intervals (at most n/2), a resample
 * n values of blocks drawn from the n - b + 1 places with equal chance, the
 * last one cut short.  Its variance is computed exactly, not by drawing:
 * (n div b) times the variance of a b-block's sum over the places, plus
 * the variance of the sum of a block's first n mod b values, over n^2.
 * Values that are not finite are skipped.
 */
void stats_series(const double *values, size_t count, struct stats_series *out);

/* A point: k runs' figures (all > 0) and their intervals' series. */
struct stats_point {
	size_t runs;
	double log_mean; /* mean of ln(figure) */
	/*
	 * The variance of log_mean: the larger of the variance between the
	 * runs and the runs' mean variance within, over k.  NaN below 2 runs.
	 */
	double variance;
	double between; /* of ln(figure) between the runs; 0 below 2 runs */
	double within;	/* the runs' mean rel_se^2; NaN where none is known */
	double df;	/* degrees of freedom of variance: k - 1 */
	double spread;	/* between runs: SD / mean; one run: its intervals' */
	/*
	 * How far a study's level of the figure moves from another's, beyond
	 * what its runs and intervals spread: an SD of ln(figure), known from
	 * elsewhere (--diff's --drift), not from these runs.  0 where points
	 * of one study are compared: they share its level.
	 */
	double drift;
};

/*
 * The one estimate of a point, for every figure the analysis and --diff
 * compare: figures[i] > 0 of run i, series[i] its intervals' (a rel_se of
 * NaN where unknown: no floor from that run).
 */
void stats_point(const double *figures, const struct stats_series *series,
		 size_t runs, struct stats_point *out);

enum stats_outcome {
	STATS_AHEAD,	   /* a better by at least the minimum effect */
	STATS_BEHIND,	   /* b better by at least the minimum effect */
	STATS_EQUAL,	   /* within the minimum effect of each other */
	STATS_UNDECIDED,   /* none of these at the stated confidence */
	STATS_TOO_FEW_RUNS /* a point has fewer than 2 runs */
};

struct stats_difference {
	enum stats_outcome outcome;
	/* How many times better a is than b, and its 90% interval (each bound
	 * one-sided 95%); low and high are NaN with too few runs. */
	double ratio, low, high;
};

/*
 * a against b: ahead when the one-sided 95% lower bound of a's advantage
 * is above 1 + STATS_MIN_EFFECT, behind when the upper bound is below
 * 1 / (1 + STATS_MIN_EFFECT), equal when the 90% interval lies between
 * the two (two one-sided tests); higher_is_better says which way is better.
 * Each side's drift adds to the variance of the difference: it widens
 * the interval, and the degrees of freedom stay the runs'.
 */
void stats_compare(const struct stats_point *a, const struct stats_point *b,
		   bool higher_is_better, struct stats_difference *out);

/*
 * Go's benchstat's test, for --diff-test utest: Mann-Whitney's U, two-sided,
 * its p-value from the exact distribution for samples of up to 50 each (25
 * with ties, whose exact distribution is taken over the tied blocks), else
 * from the normal with the tie and continuity corrections.  NaN where it
 * cannot be taken (an empty sample, every value alike).
 */
#define STATS_UTEST_ALPHA	    0.05
#define STATS_UTEST_EXACT_MAX(tied) ((tied) ? 25u : 50u)
double stats_utest(const double *a, size_t na, const double *b, size_t nb);
/*
 * The fewest runs a side with which the U test can reach alpha at all
 * (benchstat's "need >= 4 samples": 4 at 0.05); 0 past 50.
 */
size_t stats_utest_runs_needed(double alpha);

/*
 * How many runs a side would give a 90% interval narrower than effect
 * either way (a change of that size told from none), at the per-run
 * variance a and b showed (their floors included) and their drift, which
 * no number of runs narrows: 0 when either has fewer than 2 runs,
 * SIZE_MAX when more than most would not.
 */
size_t stats_runs_to_tell(const struct stats_point *a,
			  const struct stats_point *b, double effect,
			  size_t most);

/* Student's t quantile for one-sided 95% at df degrees of freedom. */
double stats_t95(double df);
/* And the normal's, where df is without end. */
#define STATS_Z95 1.6448536

const char *stats_outcome_name(enum stats_outcome outcome);

#endif
