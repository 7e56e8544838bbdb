/*
 * The metric table: every figure nio-top derives from one side of a run --
 * throughput, CPU, context switches, cache misses, cost per byte -- as one
 * row that says its name, label, unit, how it is derived (of what, per what,
 * scaled how), whether higher is better, and where it is shown.  Gauges,
 * graphs, the runs table, compare, charts, the CSV and SVG reports, the
 * export and the control protocol all read this table; a new metric is a new
 * row (and a line in the manual).
 */
#ifndef NIO_TOP_METRIC_H
#define NIO_TOP_METRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "counters.h"

#define METRICS_MAX 24

/* Where a metric is shown, besides the export. */
enum metric_show {
	METRIC_GAUGE = 1 << 0, /* a row of the explorer's gauges */
	METRIC_TABLE = 1 << 1, /* a column of the runs table */
	METRIC_CSV = 1 << 2,   /* columns of the CSV report */
};

struct metric {
	const char *key;    /* in exports, on the wire, in CSV columns */
	const char *label;  /* "Ctx switches" */
	const char *abbrev; /* a narrow column's heading: "ctx/s" */
	const char *unit;   /* "/s" */
	/*
	 * value = scale * of / per.  Each is a perf event's name, or "bytes",
	 * "messages", "KiB" or "seconds" of the side's own traffic.
	 */
	const char *of;
	const char *per;
	double scale;
	bool higher_is_better;
	/* Shown for the receiving side only: delivery happens there. */
	bool delivered;
	unsigned int show;
	double full_scale; /* a gauge's full bar; 0: the largest seen */
	bool per_flow;	   /* the full bar is per flow (CPU %) */
};

extern const struct metric metrics[];
extern const size_t metric_count;

/* A side's figures, in table order; NaN where unknown. */
struct metric_values {
	double value[METRICS_MAX];
};

/* One side's traffic and counter deltas over an interval. */
struct metric_input {
	uint64_t bytes;
	uint64_t messages;
	double seconds;
	const struct counter_set *set; /* NULL: nothing counted */
	const struct counter_reading *delta;
};

/* The index of the metric called key, or -1. */
int metric_find(const char *key);
/* Whether it needs a counter (it is among the "derived" figures). */
bool metric_counted(const struct metric *m);
/* Its perf events, 0 .. 2 of them: the number, names in events. */
unsigned int metric_events(const struct metric *m, const char *events[2]);

void metric_derive(const struct metric_input *in, struct metric_values *out);
void metric_values_unknown(struct metric_values *out);

#endif
