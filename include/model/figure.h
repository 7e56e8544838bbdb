/*
 * Figures: what a chart plots, described once for the SVG report and the
 * explorer's chart view.  A quantity is a figure of a run -- a row of the
 * metric table on one side or summed over both ends, or a round-trip
 * percentile -- and a point's value is the median of its analysed runs,
 * with their range for error bars.  The table figures[] holds the four
 * figures of the course's report -- throughput against message size, the
 * rr round trip against flows, cache misses per KiB and the cost per byte
 * against message size -- and the receiver's CPU time per KiB against
 * size, a line per receive side.
 */
#ifndef NIO_TOP_FIGURE_H
#define NIO_TOP_FIGURE_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis.h"
#include "run.h"

enum figure_source {
	FIGURE_RECEIVER,   /* a metric at the receiving side */
	FIGURE_SENDER,	   /* a metric at the sending side */
	FIGURE_BOTH,	   /* a cost metric summed over both ends */
	FIGURE_LATENCY,	   /* a round-trip percentile (rr) */
	FIGURE_PROBE,	   /* the probe's round trip beside the load */
	FIGURE_PROBE_IDLE, /* the probe's round trip alone */
};

enum figure_percentile {
	PERCENTILE_P50,
	PERCENTILE_P90,
	PERCENTILE_P99,
	PERCENTILE_P99_9,
	PERCENTILE_MAX,
	PERCENTILE_COUNT,
};

struct figure_quantity {
	enum figure_source source;
	const char *metric; /* a metric table key; NULL for a round trip */
	enum figure_percentile percentile;
	const char *label; /* in a legend: "L1d", "p50" */
};

enum figure_axis {
	FIGURE_BY_SIZE,	   /* x: message size (log 2); a panel per flows */
	FIGURE_BY_THREADS, /* x: flows; a panel per message size */
};

#define FIGURE_QUANTITIES_MAX 2

struct figure {
	const char *key;
	const char *title;
	const char *note; /* how to read it, under the title */
	const char *unit;
	enum run_mode mode;
	enum figure_axis axis;
	/* Plotted at each point; the latency figure's second is a whisker. */
	struct figure_quantity quantity[FIGURE_QUANTITIES_MAX];
	size_t quantity_count;
	bool whisker;	/* quantity[1] is drawn as a whisker of [0] */
	bool log_y;	/* values that span decades: a log axis */
	bool needs_pmu; /* hardware events: without them, say so */
	/* When the quantities are unknown: this figure instead (or NULL). */
	const struct figure *fallback;
};

/*
 * The four figures of the course's report, in its order, then the
 * receiver's CPU time per KiB.
 */
extern const struct figure figures[];
extern const size_t figure_count;

/* A run's value of q: false when unknown (not counted, not rr, failed). */
bool figure_run_value(const struct figure_quantity *q,
		      const struct run_result *result, double *value);

/* A point's value of q over its analysed runs. */
struct figure_stat {
	size_t runs; /* with a known value */
	double median, min, max;
};

bool figure_point_value(const struct figure_quantity *q,
			const struct analysis *a,
			const struct run_result *results,
			const struct analysis_point *point,
			struct figure_stat *out);

/*
 * Whether any point of the figure's mode has a value of its first quantity
 * (else a fallback, or a "not measured" panel).
 */
bool figure_has_data(const struct figure *f, const struct analysis *a,
		     const struct run_result *results);

/*
 * The panels' fixed values of a figure on axis: the flow counts (by size)
 * or the message sizes (by flows) of mode's points, sorted, at most most;
 * copy_rx_only leaves out the points received with --rx zerocopy.
 */
size_t figure_panel_values(const struct analysis *a, enum figure_axis axis,
			   enum run_mode mode, bool copy_rx_only, size_t *out,
			   size_t most);

/*
 * Which points a figure (or a chart, or a summary) draws from: those that
 * agree with key in parts (POINT_MODE, POINT_RX, POINT_STACK; 0: every
 * point), on axis at one fixed value (0: every panel).
 */
struct figure_scope {
	struct point_key key;
	unsigned int parts;
	enum figure_axis axis;
	size_t fixed;
};

bool figure_in_scope(const struct figure_scope *scope,
		     const struct analysis_point *p);

/*
 * What a chart of mode draws on axis at fixed: one receive side, the
 * copying one, or where no run of the mode copied, the side its first
 * point used; and one set of knobs, the links as built where a run of
 * them has points, else the first point's.  One of each, because a
 * strategy's receive sides and knobs are compared in the analysis, and
 * would put several points of a strategy at one x here.  With no runs:
 * copy, as built.
 */
struct figure_scope figure_chart_scope(const struct analysis *a,
				       enum run_mode mode,
				       enum figure_axis axis, size_t fixed);

/*
 * What the runs behind a scope's points were, for a footer that describes
 * the runs drawn rather than the options a session started with: how many,
 * their measured windows, warm-ups, runs per point and fields per message
 * (each a range, equal ends where they all agree), and how many of the
 * scope's runs were left out (short, or a stop ended them).
 */
struct figure_runs {
	size_t runs;
	size_t left_out;
	double measured_min_s, measured_max_s;
	double warmup_min_s, warmup_max_s;
	size_t per_point_min, per_point_max;
	unsigned int fields_min, fields_max;
	size_t counted; /* runs with counters */
	size_t pinned;	/* runs with --pin */
};

void figure_runs_of(const struct analysis *a, const struct run_result *results,
		    const struct figure_scope *scope, struct figure_runs *out);
/*
 * "12 runs of 1.0-2.0 s measured after 0.5 s warm-up, repeat 1-3, 8
 * fields, counters on" (and ", 2 left out" when some were); brief, for a
 * chart's edge: "12 runs, 1.0-2.0 s after 0.5 s warm-up, repeat 1-3, 8
 * fields".
 */
void figure_runs_text(const struct figure_runs *r, bool brief, char *out,
		      size_t size);

/* One point of a plot: its x (a size or flows) and each quantity there. */
struct figure_plot_point {
	double x;
	struct figure_stat value[FIGURE_QUANTITIES_MAX]; /* runs 0: none */
	const struct analysis_point *point;
};

/*
 * A line: the points of one strategy, receive side and set of knobs
 * (key's POINT_LINE parts; its other parts are its first point's), in x
 * order.
 */
struct figure_plot_series {
	struct point_key key;
	struct figure_plot_point point[ANALYSIS_SIZES_MAX];
	size_t count;
};

#define FIGURE_SERIES_MAX (2 * STRATEGIES_MAX)

/*
 * What a chart or a figure's panel draws, ready to be mapped to cells or
 * pixels: a series per strategy and receive side that has a value, in
 * registry order, their x range (log 2) and y range (the smallest positive
 * value, for a log axis, and the largest, range bars included), the largest
 * median, and what the runs behind them were (a footer's words).
 */
struct figure_plot {
	struct figure_plot_series series[FIGURE_SERIES_MAX];
	size_t series_count;
	double x_lo, x_hi;
	double y_min, y_max;
	double median_max;
	struct figure_runs runs;
};

/* The plot of quantity_count quantities over the points of scope. */
void figure_plot(const struct analysis *a, const struct run_result *results,
		 const struct figure_quantity *quantity, size_t quantity_count,
		 const struct figure_scope *scope, struct figure_plot *out);

/* "p99.9" */
const char *figure_percentile_name(enum figure_percentile p);

/* "L1d misses/KiB (both ends)": a quantity's name for a title. */
void figure_quantity_name(const struct figure_quantity *q, char *out,
			  size_t size);

#endif
