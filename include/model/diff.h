/*
 * Two sets of runs compared as Go's benchstat compares two sets of
 * benchmark runs.  Runs are matched into points by every setting that
 * changes the work (strategy, size, flows, mode, receive side, fields and
 * every other run setting; not the duration, warm-up, round or profile
 * rate, which only change how it was measured).  A setting each side ran
 * with one value, a different one in each (--fields 8 against 1), is the
 * change under test: it does not split points.  For each metric and point
 * both sides have: the old and new medians with their spread, and the
 * change with its 90% interval by the analysis' own estimator, one for
 * every figure (estimate.h, stats.h: runs on a log scale, Welch's t, the
 * runs' intervals a floor under their spread), "~" unless the interval
 * lies wholly beyond DIFF_MIN_CHANGE either way; with fewer than
 * DIFF_MIN_RUNS runs a side, no interval but how many runs would tell.
 * Beside it, benchstat's U test and its p-value, for those who ask for it
 * (--diff-test utest).  Differences of host, settings and environment come
 * first; points only one side has are listed last, and so are the sides of
 * points that have runs of which none can be compared (every one failed,
 * stopped or delivered nothing, or was too short): such a point gives no
 * row, and a silent one would hide a regression that broke it.
 */
#ifndef NIO_TOP_DIFF_H
#define NIO_TOP_DIFF_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "rules.h"
#include "session.h"
#include "stats.h"

#define DIFF_LABEL_MAX 160
#define DIFF_WHY_MAX   200
/* Fewer runs a side give a change no interval: too few to tell. */
#define DIFF_MIN_RUNS 3
/*
 * A change is called only when its whole interval lies beyond this either
 * way: a fraction of a per cent in a count per message is below what runs
 * on a shared machine resolve, and would be called in one row of ten.
 */
#define DIFF_MIN_CHANGE 0.01
/* The most runs a side a row's "would tell" names. */
#define DIFF_RUNS_HINT_MAX 50

/*
 * One side: the session whose host, environment and settings it had, and
 * its runs, results[first .. first + count) of a session (its own, or one
 * that holds both sides' runs).
 */
struct diff_side {
	const struct session *context;
	const struct session *runs;
	size_t first, count;
};

struct diff_point {
	char *key;	 /* its settings as JSON text: what matches runs */
	cJSON *settings; /* the same, parsed */
	enum run_mode mode;
	size_t *run[2]; /* results of the old side and of the new */
	size_t count[2];
	char label[DIFF_LABEL_MAX]; /* "zero-copy 4K x1 stream fields=1" */
	/*
	 * Of each side's runs, those the comparison uses; where a side has
	 * runs and uses none: whether every one failed (an error, a stop,
	 * nothing delivered) rather than ran too briefly, and why
	 * ("connection reset", and how many runs had another reason).
	 */
	size_t compared[2];
	bool failed[2];
	char why[2][DIFF_WHY_MAX];
};

/* One metric at one point: the medians, and the change from old to new. */
struct diff_row {
	char metric[64];  /* "Gbit/s delivered", "CPU (%), sender" */
	const char *key;  /* the metric's: "gbps", "p50_us", "cpu_pct" */
	const char *side; /* "sender", "receiver"; NULL: delivered */
	size_t point;
	double median[2];
	double spread[2]; /* SD / mean between runs; of the intervals: 1 run */
	size_t runs[2];
	struct stats_difference change; /* ratio new / old, its interval */
	double drift; /* of the figure between studies, each side's (drift.h) */
	/*
	 * Fewer than DIFF_MIN_RUNS runs a side: no interval; about how many
	 * runs a side would tell a change of STATS_MIN_EFFECT (0: not known,
	 * a side has one run; SIZE_MAX: more than DIFF_RUNS_HINT_MAX).
	 */
	bool too_few;
	size_t runs_needed;
	double p; /* the U test's two-sided p-value; NaN: none */
	enum diff_test test;
};

/*
 * How a comparison calls a change: its test, and each figure's drift
 * between the two studies (--drift's; none: the defaults, drift.h).
 */
struct diff_how {
	enum diff_test test;
	const struct drift_rule *drift;
	size_t drift_count;
};

struct diff {
	struct diff_side side[2];
	struct diff_how how; /* its test (the drift only while built) */
	struct diff_point *point;
	size_t point_count;
	struct diff_row *row;
	size_t row_count;
	cJSON *differences; /* [{"key", "old", "new"}]: null where absent */
};

/* 0, or -ENOMEM (nothing held); how's drift is read while it builds. */
int diff_build(struct diff *d, const struct diff_side side[2],
	       const struct diff_how *how);
void diff_fini(struct diff *d);

/*
 * Whether side k (0 old, 1 new) of point j has runs and none the
 * comparison can use: listed by diff_text(), and --diff's exit status for
 * the new side.
 */
bool diff_uncompared(const struct diff *d, size_t j, int k);
/* The points whose new runs none can be compared. */
size_t diff_uncompared_new(const struct diff *d);

bool diff_row_interval(const struct diff_row *row);
/*
 * Whether the row's test calls it changed: its interval lies wholly beyond
 * DIFF_MIN_CHANGE either way (welch), or its p-value is under
 * STATS_UTEST_ALPHA (utest).
 */
bool diff_row_significant(const struct diff_row *row);
/* Whether too few runs were measured to tell (under the row's test). */
bool diff_row_too_few(const struct diff_row *row);
/*
 * The change as said in every format: "~ (-2.1% .. +4.0%)", "+66.7%
 * (+60.1% .. +73.5%)", "too few runs to tell (n=2 vs 3): ...", or with
 * the U test "-2.0% (p=0.008 n=5+5)".
 */
void diff_change_text(const struct diff_row *row, char *out, size_t size);
/*
 * The heading over a figure's changes: "change (drift 4%)", the drift its
 * interval took in; "change" under the U test, which takes none.
 */
void diff_change_heading(const struct diff_row *row, char *out, size_t size);
/* "4.012 ±3% n=3": side k (0 old, 1 new) of a row. */
void diff_side_text(const struct diff_row *row, int k, char *out, size_t size);

/* What the numbers of a comparison are, said once, as every format says. */
void diff_legend(const struct diff *d, char *out, size_t size);

/*
 * The comparison as text, a line at a time (escaped): width 0 as wide as
 * its tables take, else a point's figures under its name where the table
 * would be wider.
 */
struct diff_text {
	int width;
	void (*line)(void *arg, const char *text);
	void *arg;
};
void diff_text(const struct diff *d, const struct diff_text *t);

#endif
