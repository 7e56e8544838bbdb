/*
 * CSV and SVG reports.  The CSV is built from a table of columns, each a
 * name and a function that prints one run's cell (empty when unknown, never
 * 0 for a counter that did not count).  The SVG is plain SVG 1.1: axes,
 * polylines and text, readable by any browser, no script.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "export.h"
#include "outfile.h"
#include "report.h"
#include "units.h"

/* A growing text buffer. */
struct text {
	char *data;
	size_t len;
	size_t capacity;
	bool failed;
};

static void put(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->failed)
		return;
	for (;;) {
		size_t room = t->capacity - t->len;

		va_start(ap, fmt);
		n = vsnprintf(t->data ? t->data + t->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0) {
			t->failed = true;
			return;
		}
		if ((size_t)n < room) {
			t->len += (size_t)n;
			return;
		}
		size_t capacity = t->capacity ? 2 * t->capacity : 4096;

		while (capacity - t->len <= (size_t)n)
			capacity *= 2;
		char *grown = realloc(t->data, capacity);

		if (!grown) {
			t->failed = true;
			return;
		}
		t->data = grown;
		t->capacity = capacity;
	}
}

static int text_write(struct text *t, const char *path, char **cause)
{
	int r;

	*cause = NULL;
	if (t->failed) {
		free(t->data);
		return -ENOMEM;
	}
	r = outfile_write_text(path, t->data ? t->data : "", cause);
	free(t->data);
	return r;
}

/*
 * The CSV's columns: each a path into the run as the export writes it
 * (export_run()), so the CSV says what the export says.  A column with a
 * condition is empty unless that path is true.  After "rtt_mean_us" come a
 * sender and a receiver column for every CSV metric of the metric table.
 */
static const struct {
	const char *name;
	const char *path;
	const char *when;
} csv_columns[] = {
	{"strategy", "strategy", NULL},
	{"mode", "mode", NULL},
	{"msg_size", "msg_size", NULL},
	{"threads", "threads", NULL},
	{"round", "round", NULL},
	{"duration_s", "duration_s", NULL},
	{"warmup_s", "warmup_s", NULL},
	{"measured_s", "measured_s", NULL},
	{"messages_sent", "messages_sent", NULL},
	{"messages_received", "messages_received", NULL},
	{"bytes_sent", "bytes_sent", NULL},
	{"bytes_received", "bytes_received", NULL},
	{"gbps", "gbps", NULL},
	{"msgs_per_s", "msgs_per_s", NULL},
	{"corrupt", "integrity.corrupt", "integrity.verified"},
	{"zc_sends", "zerocopy.sends", NULL},
	{"zc_completions", "zerocopy.completions", NULL},
	{"zc_copied", "zerocopy.copied", NULL},
	{"rtt_p50_us", "latency_us.p50", NULL},
	{"rtt_p90_us", "latency_us.p90", NULL},
	{"rtt_p99_us", "latency_us.p99", NULL},
	{"rtt_p99_9_us", "latency_us.p99_9", NULL},
	{"rtt_max_us", "latency_us.max", NULL},
	{"rtt_mean_us", "latency_us.mean", NULL},
};

#define CSV_COLUMNS (sizeof(csv_columns) / sizeof(csv_columns[0]))
#define CSV_MAX	    (CSV_COLUMNS + 2 * METRICS_MAX + 1)

static const cJSON *at_path(const cJSON *obj, const char *path)
{
	char part[64];
	const char *dot;

	while ((dot = strchr(path, '.'))) {
		snprintf(part, sizeof(part), "%.*s", (int)(dot - path), path);
		obj = cJSON_GetObjectItemCaseSensitive(obj, part);
		path = dot + 1;
	}
	return cJSON_GetObjectItemCaseSensitive(obj, path);
}

/* Every column, in order: its name and its path in a run. */
static size_t csv_layout(const char *names[CSV_MAX], char paths[][96],
			 const char *when[CSV_MAX])
{
	static char metric_names[2 * METRICS_MAX][64];
	size_t n = 0, k = 0;

	for (size_t c = 0; c < CSV_COLUMNS; c++, n++) {
		names[n] = csv_columns[c].name;
		snprintf(paths[n], 96, "%s", csv_columns[c].path);
		when[n] = csv_columns[c].when;
	}
	for (size_t m = 0; m < metric_count; m++) {
		if (!(metrics[m].show & METRIC_CSV))
			continue;
		for (int side = 0; side < 2; side++, n++, k++) {
			snprintf(metric_names[k], sizeof(metric_names[k]),
				 "%s_%s", side ? "receiver" : "sender",
				 metrics[m].key);
			names[n] = metric_names[k];
			snprintf(paths[n], 96, "%s.derived.%s",
				 side ? "receiver" : "sender", metrics[m].key);
			when[n] = NULL;
		}
	}
	names[n] = "error";
	snprintf(paths[n], 96, "error");
	when[n++] = NULL;
	return n;
}

/* One cell: empty where the value is unknown or does not apply, never 0. */
static void csv_cell(struct text *t, const cJSON *v)
{
	if (cJSON_IsRaw(v)) {
		put(t, "%s", v->valuestring);
	} else if (cJSON_IsNumber(v)) {
		put(t, "%.6g", v->valuedouble);
	} else if (cJSON_IsString(v) && strpbrk(v->valuestring, ",\"\n")) {
		/* Quoted, with inner quotes doubled (RFC 4180). */
		put(t, "\"");
		for (const char *c = v->valuestring; *c; c++)
			put(t, *c == '"' ? "\"\"" : "%c", *c);
		put(t, "\"");
	} else if (cJSON_IsString(v)) {
		put(t, "%s", v->valuestring);
	}
}

int report_write_csv(const char *path, const struct session *s, char **cause)
{
	const char *names[CSV_MAX], *when[CSV_MAX];
	char paths[CSV_MAX][96];
	size_t n = csv_layout(names, paths, when);
	struct text t = {0};

	for (size_t c = 0; c < n; c++)
		put(&t, "%s%s", c ? "," : "", names[c]);
	put(&t, "\n");
	for (size_t i = 0; i < s->result_count; i++) {
		cJSON *run = export_run(s, &s->results[i]);

		for (size_t c = 0; c < n; c++) {
			if (c)
				put(&t, ",");
			if (!when[c] || cJSON_IsTrue(at_path(run, when[c])))
				csv_cell(&t, at_path(run, paths[c]));
		}
		put(&t, "\n");
		cJSON_Delete(run);
	}
	/* outfile_write_text() ends the file with a newline of its own. */
	if (!t.failed && t.len)
		t.data[--t.len] = '\0';
	return text_write(&t, path, cause);
}

/* The SVG charts. */
#define SVG_WIDTH   960
#define PANEL_H	    330
#define PLOT_LEFT   80
#define PLOT_RIGHT  200 /* room for the legend */
#define PLOT_TOP    50
#define PLOT_BOTTOM 50

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
	"#ff7f0e", "#8c564b", "#e377c2", "#17becf",
};

static const char *strategy_colour(const struct strategy_ops *ops)
{
	return palette[strategy_index(ops) %
		       (sizeof(palette) / sizeof(*palette))];
}

struct chart {
	const struct analysis *a;
	enum run_mode mode;
	unsigned int threads;
	double y0; /* the panel's top */
	double lo_log, hi_log, y_max;
};

static double chart_x(const struct chart *c, size_t msg_size)
{
	double span = c->hi_log - c->lo_log;
	double f = span > 0 ? (log2((double)msg_size) - c->lo_log) / span : 0.5;

	return PLOT_LEFT + f * (SVG_WIDTH - PLOT_LEFT - PLOT_RIGHT);
}

static double chart_y(const struct chart *c, double v)
{
	double h = PANEL_H - PLOT_TOP - PLOT_BOTTOM;

	return c->y0 + PLOT_TOP + h - (c->y_max > 0 ? v / c->y_max : 0) * h;
}

static bool in_chart(const struct chart *c, const struct analysis_point *p)
{
	return p->runs && p->mode == c->mode && p->threads == c->threads;
}

static void chart_axes(struct text *t, const struct chart *c, const char *title,
		       const char *unit)
{
	double bottom = c->y0 + PANEL_H - PLOT_BOTTOM;
	double right = SVG_WIDTH - PLOT_RIGHT;

	put(t,
	    "<text x=\"%d\" y=\"%.0f\" font-size=\"16\" "
	    "font-weight=\"bold\">%s, %u flow%s</text>\n",
	    PLOT_LEFT, c->y0 + 28, title, c->threads,
	    c->threads == 1 ? "" : "s");
	put(t,
	    "<line x1=\"%d\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" "
	    "stroke=\"#000\"/>\n",
	    PLOT_LEFT, bottom, right, bottom);
	put(t,
	    "<line x1=\"%d\" y1=\"%.0f\" x2=\"%d\" y2=\"%.0f\" "
	    "stroke=\"#000\"/>\n",
	    PLOT_LEFT, c->y0 + PLOT_TOP, PLOT_LEFT, bottom);
	for (int i = 0; i <= 4; i++) {
		double v = c->y_max * i / 4, y = chart_y(c, v);

		put(t,
		    "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" "
		    "stroke=\"#ddd\"/>\n",
		    PLOT_LEFT, y, right, y);
		put(t,
		    "<text x=\"%d\" y=\"%.1f\" font-size=\"12\" "
		    "text-anchor=\"end\">%.3g</text>\n",
		    PLOT_LEFT - 6, y + 4, v);
	}
	put(t,
	    "<text x=\"16\" y=\"%.0f\" font-size=\"12\" "
	    "transform=\"rotate(-90 16 %.0f)\" text-anchor=\"middle\">"
	    "%s</text>\n",
	    c->y0 + PANEL_H / 2.0, c->y0 + PANEL_H / 2.0, unit);
	/* One tick per size measured. */
	for (size_t i = 0; i < c->a->point_count; i++) {
		const struct analysis_point *p = &c->a->points[i];
		char size[24];

		if (!in_chart(c, p))
			continue;
		units_format_size(p->msg_size, size, sizeof(size));
		put(t,
		    "<text x=\"%.1f\" y=\"%.0f\" font-size=\"12\" "
		    "text-anchor=\"middle\">%s</text>\n",
		    chart_x(c, p->msg_size), bottom + 18, size);
	}
	put(t,
	    "<text x=\"%.0f\" y=\"%.0f\" font-size=\"12\" "
	    "text-anchor=\"middle\">message size (bytes, log scale)</text>\n",
	    (PLOT_LEFT + right) / 2, bottom + 38);
}

/* One strategy's line through its points, in size order. */
static void chart_series(struct text *t, const struct chart *c,
			 const struct strategy_ops *ops, bool p99,
			 unsigned int legend)
{
	size_t last = 0;
	bool any = false;

	put(t,
	    "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s "
	    "points=\"",
	    strategy_colour(ops), p99 ? " stroke-dasharray=\"6 4\"" : "");
	for (;;) {
		const struct analysis_point *next = NULL;

		for (size_t i = 0; i < c->a->point_count; i++) {
			const struct analysis_point *p = &c->a->points[i];

			if (in_chart(c, p) && p->strategy == ops &&
			    p->msg_size > last &&
			    (!next || p->msg_size < next->msg_size))
				next = p;
		}
		if (!next)
			break;
		put(t, "%.1f,%.1f ", chart_x(c, next->msg_size),
		    chart_y(c, p99 ? next->p99_median_us : next->median));
		last = next->msg_size;
		any = true;
	}
	put(t, "\"/>\n");
	if (!any || p99)
		return;
	/* Each point's median, and its spread when it was repeated. */
	for (size_t i = 0; i < c->a->point_count; i++) {
		const struct analysis_point *p = &c->a->points[i];
		double x = chart_x(c, p->msg_size);

		if (!in_chart(c, p) || p->strategy != ops)
			continue;
		put(t,
		    "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" "
		    "fill=\"%s\"><title>%s %zu B: %.4g (%zu run%s)</title>"
		    "</circle>\n",
		    x, chart_y(c, p->median), strategy_colour(ops), ops->name,
		    p->msg_size, p->median, p->runs, p->runs == 1 ? "" : "s");
		if (p->runs > 1)
			put(t,
			    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			    "y2=\"%.1f\" stroke=\"%s\"/>\n",
			    x, chart_y(c, p->min), x, chart_y(c, p->max),
			    strategy_colour(ops));
	}
	put(t,
	    "<rect x=\"%d\" y=\"%.0f\" width=\"14\" height=\"4\" "
	    "fill=\"%s\"/><text x=\"%d\" y=\"%.0f\" font-size=\"13\">"
	    "%s</text>\n",
	    SVG_WIDTH - PLOT_RIGHT + 16, c->y0 + PLOT_TOP + 20.0 * legend,
	    strategy_colour(ops), SVG_WIDTH - PLOT_RIGHT + 36,
	    c->y0 + PLOT_TOP + 20.0 * legend + 5, ops->name);
}

static void chart_panel(struct text *t, struct chart *c)
{
	unsigned int legend = 0;

	c->lo_log = INFINITY;
	c->hi_log = -INFINITY;
	c->y_max = 0;
	for (size_t i = 0; i < c->a->point_count; i++) {
		const struct analysis_point *p = &c->a->points[i];
		double top = c->mode == RUN_RR ? fmax(p->max, p->p99_median_us)
					       : p->max;

		if (!in_chart(c, p))
			continue;
		c->lo_log = fmin(c->lo_log, log2((double)p->msg_size));
		c->hi_log = fmax(c->hi_log, log2((double)p->msg_size));
		c->y_max = fmax(c->y_max, top);
	}
	c->y_max *= 1.1;
	if (c->mode == RUN_RR)
		chart_axes(t, c, "Round trip: p50 (solid), p99 (dashed)",
			   "microseconds");
	else
		chart_axes(t, c, "Throughput", "Gbit/s (delivered)");
	for (size_t i = 0; i < strategy_count(); i++) {
		const struct strategy_ops *ops = strategy_at(i);
		bool present = false;

		for (size_t j = 0; j < c->a->point_count; j++)
			present |= in_chart(c, &c->a->points[j]) &&
				   c->a->points[j].strategy == ops;
		if (!present)
			continue;
		chart_series(t, c, ops, false, legend++);
		if (c->mode == RUN_RR)
			chart_series(t, c, ops, true, legend);
	}
}

int report_write_svg(const char *path, const struct session *s, char **cause)
{
	const struct analysis *a = &s->analysis;
	struct text body = {0}, t = {0};
	unsigned int panels = 0;

	*cause = NULL;
	/* A panel per mode and thread count, in the order first run. */
	for (size_t i = 0; i < a->point_count; i++) {
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = a->points[j].threads == a->points[i].threads &&
			       a->points[j].mode == a->points[i].mode;
		if (seen || !a->points[i].runs)
			continue;
		struct chart c = {
			.a = a,
			.mode = a->points[i].mode,
			.threads = a->points[i].threads,
			.y0 = (double)panels++ * PANEL_H,
		};
		chart_panel(&body, &c);
	}
	put(&t,
	    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
	    "width=\"%d\" height=\"%u\" viewBox=\"0 0 %d %u\" "
	    "font-family=\"sans-serif\">\n"
	    "<title>nio-top: %zu runs</title>\n"
	    "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
	    SVG_WIDTH, panels ? panels * PANEL_H : 40, SVG_WIDTH,
	    panels ? panels * PANEL_H : 40, s->result_count);
	if (!panels)
		put(&t, "<text x=\"10\" y=\"25\">no runs</text>\n");
	put(&t, "%s</svg>", body.data ? body.data : "");
	t.failed |= body.failed;
	free(body.data);
	return text_write(&t, path, cause);
}
