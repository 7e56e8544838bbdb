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
#include "figure.h"
#include "options.h"
#include "outfile.h"
#include "report.h"
#include "report_private.h"
#include "units.h"

/*
 * The CSV's columns: each a path into the run as the export writes it
 * (export_run()), so the CSV says what the export says.  A column with a
 * condition is empty unless that path is true.  The run's point comes
 * first, then every other setting of a run as the option table lists them
 * (csv_layout), then these, then a sender and a receiver column for every
 * CSV metric of the metric table.  The row without a name stands for the
 * metric table's delivered figures, each a column of its key.
 */
static const struct {
	const char *name;
	const char *path;
	const char *when;
} csv_point[] =
	{
		{"run", "run", NULL},	      {"strategy", "strategy", NULL},
		{"mode", "mode", NULL},	      {"msg_size", "msg_size", NULL},
		{"threads", "threads", NULL}, {"round", "round", NULL},
},
  csv_columns[] = {
	  {"measured_s", "measured_s", NULL},
	  {"short", "short", NULL},
	  {"stopped_s", "stopped_s", NULL},
	  {"messages_sent", "messages_sent", NULL},
	  {"messages_received", "messages_received", NULL},
	  {"bytes_sent", "bytes_sent", NULL},
	  {"bytes_received", "bytes_received", NULL},
	  {NULL, NULL, NULL},
	  {"corrupt", "integrity.corrupt", "integrity.verified"},
	  {"zc_sends", "zerocopy.sends", NULL},
	  {"zc_completions", "zerocopy.completions", NULL},
	  {"zc_copied", "zerocopy.copied", NULL},
	  {"zc_copied_min", "zerocopy.copied_min", NULL},
	  {"zc_copied_max", "zerocopy.copied_max", NULL},
	  {"", "", NULL},
	  {"rtt_p50_us", "latency_us.p50", NULL},
	  {"rtt_p90_us", "latency_us.p90", NULL},
	  {"rtt_p99_us", "latency_us.p99", NULL},
	  {"rtt_p99_9_us", "latency_us.p99_9", NULL},
	  {"rtt_max_us", "latency_us.max", NULL},
	  {"rtt_mean_us", "latency_us.mean", NULL},
};

#define CSV_FIXED                                                              \
	(sizeof(csv_point) / sizeof(csv_point[0]) +                            \
	 sizeof(csv_columns) / sizeof(csv_columns[0]))
/*
 * The probe's figures of each window: a column per window and figure,
 * probe_idle_p99_us, ... (the windows' keys, then the figures' paths).
 */
static const char *const csv_probe_windows[] = {"idle", "loaded"};
static const struct {
	const char *name;
	const char *key;
} csv_probe_figures[] = {
	{"round_trips", "round_trips"},
	{"sent", "sent"},
	{"late", "late"},
	{"skipped", "skipped"},
	{"p50_us", "p50"},
	{"p90_us", "p90"},
	{"p99_us", "p99"},
	{"p99_9_us", "p99_9"},
	{"max_us", "max"},
	{"mean_us", "mean"},
	{"per_minute", "per_minute"},
};

#define CSV_PROBE                                                              \
	(2 + 2 * sizeof(csv_probe_figures) / sizeof(csv_probe_figures[0]))
/* The delivered figures, each side's CSV metrics, and the error. */
#define CSV_MAX                                                                \
	(CSV_FIXED + OPTIONS_MAX + 3 * METRICS_MAX + 2 * (ROLES_MAX + 1) +     \
	 2 * (REASONS_MAX + 3) + RX_MODE_COUNT * RX_COUNTERS_MAX + CSV_PROBE + \
	 1)

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

static void csv_add(const char *names[CSV_MAX], char paths[][96],
		    const char *when[CSV_MAX], size_t *n, const char *name,
		    const char *path, const char *condition)
{
	names[*n] = name;
	snprintf(paths[*n], 96, "%s", path);
	when[(*n)++] = condition;
}

/* The delivered figures' columns, by the metric table: "gbps", ... */
static void csv_add_delivered(const char *names[CSV_MAX], char paths[][96],
			      const char *when[CSV_MAX], size_t *n)
{
	for (size_t m = 0; m < metric_count; m++)
		if (metrics[m].delivered)
			csv_add(names, paths, when, n, metrics[m].key,
				metrics[m].key, NULL);
}

/*
 * Every receive side's own counters, each a column named by its key in the
 * export with its dots as underscores ("uring_rx_requests"), empty for a
 * run of another side; from column n on.
 */
static size_t csv_add_rx_sides(const char *names[CSV_MAX], char paths[][96],
			       const char *when[CSV_MAX], size_t n)
{
	static char rx_names[RX_MODE_COUNT * RX_COUNTERS_MAX][64];
	size_t k = 0;

	for (size_t i = 0; i < RX_MODE_COUNT; i++) {
		const struct record *rec =
			rx_side_of((enum rx_mode)i)->counters;

		for (size_t f = 0; rec && f < rec->count; f++) {
			char *c;

			snprintf(rx_names[k], sizeof(rx_names[k]), "%s",
				 rec->field[f].key);
			for (c = rx_names[k]; *c; c++)
				*c = *c == '.' ? '_' : *c;
			csv_add(names, paths, when, &n, rx_names[k++],
				rec->field[f].key, NULL);
		}
	}
	return n;
}

/* Whether a run key is one of the point's columns. */
static bool csv_in_point(const char *key)
{
	for (size_t c = 0; c < sizeof(csv_point) / sizeof(csv_point[0]); c++)
		if (strcmp(csv_point[c].path, key) == 0)
			return true;
	return false;
}

/*
 * Each side's profile: its copy share, then each role's share, as
 * sender_copy_share, sender_stack_share, ... (0 .. 1); from column n on.
 */
static size_t csv_layout_profile(const char *names[CSV_MAX], char paths[][96],
				 const char *when[CSV_MAX], size_t n)
{
	static char role_names[2 * (ROLES_MAX + 1)][64];
	size_t k = 0;

	for (int side = 0; side < 2; side++) {
		const char *name = side ? "receiver" : "sender";

		snprintf(role_names[k], sizeof(role_names[k]), "%s_copy_share",
			 name);
		names[n] = role_names[k++];
		snprintf(paths[n], 96, "profile.%s.copy_share", name);
		when[n++] = NULL;
		for (size_t r = 0; r < role_count; r++) {
			snprintf(role_names[k], sizeof(role_names[k]),
				 "%s_%s_share", name, roles[r].key);
			names[n] = role_names[k++];
			snprintf(paths[n], 96, "profile.%s.roles.%s.share",
				 name, roles[r].key);
			when[n++] = NULL;
		}
	}
	return n;
}

/*
 * The probe's rate and size where its setting is, and its windows' figures
 * after the round trips of rr; from column n on.
 */
static size_t csv_layout_probe(const char *names[CSV_MAX], char paths[][96],
			       const char *when[CSV_MAX], size_t n,
			       bool windows)
{
	static char probe_names[CSV_PROBE][64];
	size_t k = 2;

	if (!windows) {
		csv_add(names, paths, when, &n, "probe_rate_hz",
			"probe.rate_hz", NULL);
		csv_add(names, paths, when, &n, "probe_size", "probe.size",
			NULL);
		return n;
	}
	for (size_t w = 0; w < 2; w++)
		for (size_t f = 0; f < sizeof(csv_probe_figures) /
					       sizeof(csv_probe_figures[0]);
		     f++, k++) {
			snprintf(probe_names[k], sizeof(probe_names[k]),
				 "probe_%s_%s", csv_probe_windows[w],
				 csv_probe_figures[f].name);
			names[n] = probe_names[k];
			snprintf(paths[n], 96, "probe.%s.%s",
				 csv_probe_windows[w],
				 csv_probe_figures[f].key);
			when[n++] = NULL;
		}
	return n;
}

/*
 * Each side's time: its window, its time on the CPU and its switches, then
 * each reason's seconds, as sender_window_s, sender_on_cpu_s,
 * sender_switches, sender_wait_data_s, ...; from column n on.
 */
static size_t csv_layout_time(const char *names[CSV_MAX], char paths[][96],
			      const char *when[CSV_MAX], size_t n)
{
	static const char *const parts[] = {"window_s", "on_cpu_s", "switches"};
	static char time_names[2 * (REASONS_MAX + 3)][64];
	size_t k = 0;

	for (int side = 0; side < 2; side++) {
		const char *name = side ? "receiver" : "sender";

		for (size_t i = 0; i < sizeof(parts) / sizeof(*parts); i++) {
			snprintf(time_names[k], sizeof(time_names[k]), "%s_%s",
				 name, parts[i]);
			names[n] = time_names[k++];
			snprintf(paths[n], 96, "time.%s.%s", name, parts[i]);
			when[n++] = NULL;
		}
		for (size_t r = 0; r < reason_count; r++) {
			snprintf(time_names[k], sizeof(time_names[k]),
				 "%s_wait_%s_s", name, reasons[r].key);
			names[n] = time_names[k++];
			snprintf(paths[n], 96, "time.%s.reasons.%s.seconds",
				 name, reasons[r].key);
			when[n++] = NULL;
		}
	}
	return n;
}

/* Every column, in order: its name and its path in a run. */
static size_t csv_layout(const char *names[CSV_MAX], char paths[][96],
			 const char *when[CSV_MAX])
{
	static char metric_names[2 * METRICS_MAX][64];
	size_t n = 0, k = 0;

	for (size_t c = 0; c < sizeof(csv_point) / sizeof(csv_point[0]); c++)
		csv_add(names, paths, when, &n, csv_point[c].name,
			csv_point[c].path, csv_point[c].when);
	/* A run's settings, each as its export key says it. */
	for (size_t i = 0; i < option_row_count; i++) {
		const struct option_row *row = &option_rows[i];

		/* The probe's setting is an object: a column a member. */
		if ((row->flags & OPTION_RUN) &&
		    strcmp(row->run_key, "probe") == 0)
			n = csv_layout_probe(names, paths, when, n, false);
		else if ((row->flags & OPTION_RUN) &&
			 !csv_in_point(row->run_key))
			csv_add(names, paths, when, &n, row->run_key,
				row->run_key, NULL);
	}
	for (size_t c = 0; c < sizeof(csv_columns) / sizeof(csv_columns[0]);
	     c++) {
		if (!csv_columns[c].name)
			csv_add_delivered(names, paths, when, &n);
		else if (!csv_columns[c].name[0])
			n = csv_add_rx_sides(names, paths, when, n);
		else
			csv_add(names, paths, when, &n, csv_columns[c].name,
				csv_columns[c].path, csv_columns[c].when);
	}
	n = csv_layout_probe(names, paths, when, n, true);
	for (size_t m = 0; m < metric_count; m++) {
		if (!(metrics[m].show & METRIC_CSV))
			continue;
		for (int side = 0; side < 2; side++, k++) {
			snprintf(metric_names[k], sizeof(metric_names[k]),
				 "%s_%s", side ? "receiver" : "sender",
				 metrics[m].key);
			names[n] = metric_names[k];
			snprintf(paths[n], 96, "%s.derived.%s",
				 side ? "receiver" : "sender", metrics[m].key);
			when[n++] = NULL;
		}
	}
	n = csv_layout_profile(names, paths, when, n);
	n = csv_layout_time(names, paths, when, n);
	csv_add(names, paths, when, &n, "error", "error", NULL);
	return n;
}

/* One cell: empty where the value is unknown or does not apply, never 0. */
static void csv_cell(struct text *t, const cJSON *v)
{
	const cJSON *item;

	if (cJSON_IsArray(v) && !v->child) {
		return;
	} else if (cJSON_IsArray(v)) {
		/* A list as the command line spells it: "0,1", quoted. */
		report_put(t, "\"");
		cJSON_ArrayForEach(item, v)
		{
			report_put(t, "%s", item == v->child ? "" : ",");
			csv_cell(t, item);
		}
		report_put(t, "\"");
	} else if (cJSON_IsRaw(v)) {
		report_put(t, "%s", v->valuestring);
	} else if (cJSON_IsNumber(v)) {
		report_put(t, "%.6g", v->valuedouble);
	} else if (cJSON_IsBool(v)) {
		report_put(t, "%s", cJSON_IsTrue(v) ? "true" : "false");
	} else if (cJSON_IsString(v) && strpbrk(v->valuestring, ",\"\n")) {
		/* Quoted, with inner quotes doubled (RFC 4180). */
		report_put(t, "\"");
		for (const char *c = v->valuestring; *c; c++)
			report_put(t, *c == '"' ? "\"\"" : "%c", *c);
		report_put(t, "\"");
	} else if (cJSON_IsString(v)) {
		report_put(t, "%s", v->valuestring);
	}
}

int report_write_csv(const char *path, const struct session *s, char **cause)
{
	const char *names[CSV_MAX], *when[CSV_MAX];
	char paths[CSV_MAX][96];
	size_t n = csv_layout(names, paths, when);
	struct text t = {0};

	for (size_t c = 0; c < n; c++)
		report_put(&t, "%s%s", c ? "," : "", names[c]);
	report_crossover_csv_head(&t);
	report_put(&t, "\n");
	for (size_t i = 0; i < s->result_count; i++) {
		cJSON *run = export_run(s, &s->results[i]);

		for (size_t c = 0; c < n; c++) {
			if (c)
				report_put(&t, ",");
			if (!when[c] || cJSON_IsTrue(at_path(run, when[c])))
				csv_cell(&t, at_path(run, paths[c]));
		}
		report_crossover_csv_cells(&t, s, i + 1);
		report_put(&t, "\n");
		cJSON_Delete(run);
	}
	/* outfile_write_text() ends the file with a newline of its own. */
	if (!t.failed && t.len)
		t.data[--t.len] = '\0';
	return report_text_write(&t, path, cause);
}

/*
 * The SVG report: the figures of figure.h (the four of the course's report,
 * the receive side's) and where each side's CPU goes, one under the other,
 * each a title, a legend, a grid of panels and a footer that says where and
 * how the numbers were made, so that a figure cut out of the page still
 * stands on its own.  A figure is laid out for every series it draws, as
 * many as a plot holds: its legend and its panels wrap into rows, and its
 * words wrap to the page.  Series differ by colour, by marker shape and
 * (where a figure plots one quantity) by dash pattern, so that they stay
 * apart in grey print and past the palette's last colour.
 */
#define PLOT_LEFT   62
#define PLOT_RIGHT  14
#define PLOT_TOP    28
#define PLOT_BOTTOM 44
#define SERIES_MAX  FIGURE_SERIES_MAX
#define LEGEND_ROW  18 /* a legend's row */
#define LEGEND_LINE 28 /* the line drawn for a series in its legend */
#define SERIES_NAME 160

static const struct report_font legend_font = {.size = 13};
static const struct report_font legend_note_font = {.size = 12,
						    .attrs = "fill=\"#333\""};

/* Dash patterns and marker shapes, as many of each. */
static const char *const dashes[] = {
	"", "7 3", "2 3", "9 3 2 3", "4 2 1 2", "12 4", "1 2",
};
#define SHAPES (sizeof(dashes) / sizeof(*dashes))
/* Enough colours that series_look() tells SERIES_MAX series apart. */
#define SVG_COLOURS_MIN 5
_Static_assert(SERIES_MAX <= SVG_COLOURS_MIN * SHAPES,
	       "series of one colour differ in marker and dash");

void report_style_default(struct report_style *style)
{
	static const char *const palette[] = {
		"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
		"#ff7f0e", "#8c564b", "#e377c2", "#17becf",
	};

	style->colour_count = sizeof(palette) / sizeof(*palette);
	for (size_t i = 0; i < style->colour_count; i++)
		snprintf(style->colour[i], sizeof(style->colour[i]), "%s",
			 palette[i]);
}

/* sRGB component (0 .. 1) to linear light, and back. */
static double linear(double c)
{
	return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static double gamma_encode(double c)
{
	return c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055;
}

void report_style_colour(struct report_style *style, size_t i,
			 const unsigned char rgb[3])
{
	double c[3], luminance;

	if (i >= REPORT_COLOURS_MAX)
		return;
	for (int k = 0; k < 3; k++)
		c[k] = linear(rgb[k] / 255.0);
	luminance = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
	/*
	 * A theme's colours are made for a dark terminal: on white paper a
	 * light one is darkened, hue kept, to a contrast of 4:1 or more.
	 */
	for (int k = 0; luminance > 0.2 && k < 3; k++)
		c[k] *= 0.2 / luminance;
	snprintf(style->colour[i], sizeof(style->colour[i]), "#%02x%02x%02x",
		 (unsigned int)lround(gamma_encode(c[0]) * 255),
		 (unsigned int)lround(gamma_encode(c[1]) * 255),
		 (unsigned int)lround(gamma_encode(c[2]) * 255));
	if (style->colour_count <= i)
		style->colour_count = i + 1;
}

/* 1, 2 or 5 times a power of ten, at least x. */
double report_nice_step(double x)
{
	double power = pow(10, floor(log10(x)));
	double f = x / power;

	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * power;
}

/* "2.5", "1200", "0.04": a tick's value, no more digits than it needs. */
void report_tick_text(double v, double step, char *out, size_t size)
{
	int decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);

	if (v >= 1e6)
		snprintf(out, size, "%gM", v / 1e6);
	else if (v >= 1e4)
		snprintf(out, size, "%gk", v / 1e3);
	else
		snprintf(out, size, "%.*f", decimals, v);
}

struct svg {
	struct text *t;
	const struct session *s;
	const struct report_style *style;
	const struct figure *f;
	/*
	 * The lines present (a strategy, a receive side, a set of knobs: the
	 * key of a point of each), in registry order.
	 */
	struct point_key series[SERIES_MAX];
	size_t series_count;
	size_t series_left_out; /* past SERIES_MAX */
};

/* One panel: its place, the x values it holds and its y scale. */
struct panel {
	double x, y, w, h;
	size_t fixed; /* the flows (by size) or the size (by flows) */
	struct figure_plot *plot; /* what it draws, from the model */
	double lo, hi;		  /* the x axis, log 2 */
	double top, step; /* the y axis: 0 .. top, or bottom .. top (log) */
	double bottom;	  /* log y: its lowest tick */
	bool log_y;
};

static double panel_left(const struct panel *p)
{
	return p->x + PLOT_LEFT;
}

static double panel_right(const struct panel *p)
{
	return p->x + p->w - PLOT_RIGHT;
}

static double panel_bottom(const struct panel *p)
{
	return p->y + p->h - PLOT_BOTTOM;
}

static double px(const struct panel *p, double value)
{
	double f = (log2(value) - p->lo) / (p->hi - p->lo);

	return panel_left(p) + f * (panel_right(p) - panel_left(p));
}

static double py(const struct panel *p, double value)
{
	double bottom = panel_bottom(p), top = p->y + PLOT_TOP, f;

	if (p->log_y)
		f = (log10(fmax(value, p->bottom)) - log10(p->bottom)) /
		    (log10(p->top) - log10(p->bottom));
	else
		f = p->top > 0 ? value / p->top : 0;
	return bottom - f * (bottom - top);
}

/* The 1, 2 or 5 times a power of ten nearest v, above (up) or below. */
double report_nice_bound(double v, bool up)
{
	static const double steps[] = {1, 2, 5, 10};
	double power = pow(10, floor(log10(v)));
	double best = up ? 10 * power : power;

	for (size_t i = 0; i < 4; i++) {
		double n = steps[i] * power;

		if (up && n >= v * 0.9999 && n < best)
			best = n;
		if (!up && n <= v * 1.0001 && n > best)
			best = n;
	}
	return best;
}

/* The panel's plot: every series of the figure's mode at its value. */
static void panel_plot(const struct svg *g, struct panel *p)
{
	const struct figure_scope scope = {.key.mode = g->f->mode,
					   .parts = POINT_MODE,
					   .axis = g->f->axis,
					   .fixed = p->fixed};

	figure_plot(&g->s->analysis, g->s->results, g->f->quantity,
		    g->f->quantity_count, &scope, p->plot);
}

/* The x range and the y scale of a panel, from what it will draw. */
static void panel_scale(const struct svg *g, struct panel *p)
{
	double lo = p->plot->x_lo, hi = p->plot->x_hi;
	double max = p->plot->y_max, min = p->plot->y_min;

	/* Half a step of room at each end; one value sits in the middle. */
	p->lo = lo - (hi > lo ? 0.5 : 1);
	p->hi = hi + (hi > lo ? 0.5 : 1);
	/* A log scale has no place for 0 (an empty run): linear then. */
	p->log_y = g->f->log_y && max > 0 && min > 0 && isfinite(min);
	if (p->log_y) {
		p->bottom = report_nice_bound(min, false);
		p->top = report_nice_bound(max, true);
		if (p->top <= p->bottom)
			p->top = report_nice_bound(p->bottom * 1.5, true);
		return;
	}
	p->step = report_nice_step((max > 0 ? max : 1) / 5);
	p->top = ceil((max > 0 ? max : 1) * 1.02 / p->step) * p->step;
}

/* One y tick: a grid line and its value. */
static void y_tick(struct text *t, const struct panel *p, double v, double step)
{
	char label[32];
	double y = py(p, v);

	report_tick_text(v, step, label, sizeof(label));
	report_put(t,
		   "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" "
		   "stroke=\"#d9d9d9\" stroke-width=\"0.8\"/>"
		   "<text x=\"%.0f\" y=\"%.1f\" font-size=\"11\" "
		   "text-anchor=\"end\">%s</text>\n",
		   panel_left(p), y, panel_right(p), y, panel_left(p) - 5,
		   y + 4, label);
}

/*
 * Log y: every 1, 2 and 5 times a power of ten in range, or only the powers
 * when that is too many.
 */
static void y_ticks_log(struct text *t, const struct panel *p)
{
	static const double steps[] = {1, 2, 5};
	double decades = log10(p->top) - log10(p->bottom);

	for (double power = pow(10, floor(log10(p->bottom)));
	     power <= p->top * 1.0001; power *= 10)
		for (size_t i = 0; i < 3; i++) {
			double v = steps[i] * power;

			if (v < p->bottom * 0.9999 || v > p->top * 1.0001 ||
			    (decades > 3 && i))
				continue;
			y_tick(t, p, v, v);
		}
}

void report_marker(struct text *t, size_t shape, double x, double y,
		   const char *colour, bool hollow)
{
	const char *fill = hollow ? "#fff" : colour;

	switch (shape % SHAPES) {
	case 0:
		report_put(
			t,
			"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\" "
			"stroke=\"%s\" stroke-width=\"1.2\"/>",
			x, y, fill, colour);
		break;
	case 1:
		report_put(t,
			   "<rect x=\"%.1f\" y=\"%.1f\" width=\"7.5\" "
			   "height=\"7.5\" "
			   "fill=\"%s\" stroke=\"%s\" stroke-width=\"1.2\"/>",
			   x - 3.75, y - 3.75, fill, colour);
		break;
	case 2:
		report_put(t,
			   "<path d=\"M%.1f,%.1fl4.5,8h-9z\" fill=\"%s\" "
			   "stroke=\"%s\" stroke-width=\"1.2\"/>",
			   x, y - 5, fill, colour);
		break;
	case 3:
		report_put(t,
			   "<path d=\"M%.1f,%.1fl5,5l-5,5l-5,-5z\" fill=\"%s\" "
			   "stroke=\"%s\" stroke-width=\"1.2\"/>",
			   x, y - 5, fill, colour);
		break;
	case 4:
		report_put(t,
			   "<path d=\"M%.1f,%.1fl8,8m0,-8l-8,8\" stroke=\"%s\" "
			   "stroke-width=\"2.2\"/>",
			   x - 4, y - 4, colour);
		break;
	case 5:
		report_put(t,
			   "<path d=\"M%.1f,%.1fl4.5,-8h-9z\" fill=\"%s\" "
			   "stroke=\"%s\" stroke-width=\"1.2\"/>",
			   x, y + 5, fill, colour);
		break;
	default:
		report_put(t,
			   "<path d=\"M%.1f,%.1fh10m-5,-5v10\" stroke=\"%s\" "
			   "stroke-width=\"2.2\"/>",
			   x - 5, y, colour);
	}
}

/* Two lines a strategy (L1d and LLC): dashes tell them apart, not series. */
static bool figure_two_lines(const struct figure *f)
{
	return f->quantity_count > 1 && !f->whisker;
}

struct report_look report_series_look(const struct report_style *style,
				      size_t i)
{
	size_t colours = style->colour_count;
	size_t k = i % colours + i / colours;

	return (struct report_look){
		.colour = style->colour[i % colours],
		.shape = k % SHAPES,
		.dash = dashes[k % SHAPES],
	};
}

static struct report_look series_look(const struct svg *g, size_t i)
{
	return report_series_look(g->style, i);
}

/* "one-copy rx-trunc (bound) busy-poll 50us": series i's name. */
static void series_name(const struct svg *g, size_t i, char *out, size_t size)
{
	point_key_label(&g->series[i], POINT_LINE, out, size);
}

static void panel_axes(const struct svg *g, const struct panel *p)
{
	struct text *t = g->t;
	double left = panel_left(p), right = panel_right(p);
	double bottom = panel_bottom(p), top = p->y + PLOT_TOP;
	char label[48], bytes[24];
	size_t n;

	units_format_size(p->fixed, bytes, sizeof(bytes));
	if (g->f->axis == FIGURE_BY_SIZE)
		snprintf(label, sizeof(label), "%zu flow%s", p->fixed,
			 p->fixed == 1 ? "" : "s");
	else if (p->fixed >= 1024 && strchr("KM", bytes[strlen(bytes) - 1]))
		snprintf(label, sizeof(label), "%.*s %ciB messages",
			 (int)strlen(bytes) - 1, bytes,
			 bytes[strlen(bytes) - 1]);
	else
		snprintf(label, sizeof(label), "%s B messages", bytes);
	report_put(t,
		   "<text x=\"%.0f\" y=\"%.0f\" font-size=\"13\" "
		   "font-weight=\"bold\">%s</text>\n",
		   left, p->y + 16, label);
	if (p->log_y)
		y_ticks_log(t, p);
	else
		for (double v = 0; v <= p->top * 1.0001; v += p->step)
			y_tick(t, p, v, p->step);
	/* x: every power of two in range (every other when crowded). */
	n = 0;
	for (double e = ceil(p->lo); e <= floor(p->hi); e++)
		n++;
	for (double e = ceil(p->lo); e <= floor(p->hi); e++) {
		double v = exp2(e), x = px(p, v);

		if (n > 9 && (long)e % 2)
			continue;
		if (g->f->axis == FIGURE_BY_SIZE)
			units_format_size((size_t)v, label, sizeof(label));
		else
			snprintf(label, sizeof(label), "%.0f", v);
		report_put(
			t,
			"<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" "
			"stroke=\"#ececec\" stroke-width=\"0.8\"/>"
			"<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" "
			"stroke=\"#000\"/>"
			"<text x=\"%.1f\" y=\"%.0f\" font-size=\"11\" "
			"text-anchor=\"middle\">%s</text>\n",
			x, top, x, bottom, x, bottom, x, bottom + 4, x,
			bottom + 16, label);
	}
	report_put(t,
		   "<path d=\"M%.0f,%.0fV%.0fH%.0f\" fill=\"none\" "
		   "stroke=\"#000\"/>\n",
		   left, top, bottom, right);
	report_put(t,
		   "<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\" "
		   "text-anchor=\"middle\">%s</text>\n",
		   (left + right) / 2, bottom + 32,
		   g->f->axis == FIGURE_BY_SIZE
			   ? "message size, bytes (log 2 scale)"
			   : "flows (log 2 scale)");
	report_put(
		t,
		"<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\" "
		"text-anchor=\"middle\" transform=\"rotate(-90 %.0f %.0f)\">",
		p->x + 14, (top + bottom) / 2, p->x + 14, (top + bottom) / 2);
	report_put_escaped(t, g->f->unit);
	report_put(t, "%s</text>\n", p->log_y ? ", log scale" : "");
}

/* A series' polyline through its medians. */
static void series_line(const struct svg *g, const struct panel *p,
			const struct figure_plot_series *s, size_t series,
			size_t q, const char *colour, const char *dash,
			double dodge)
{
	struct text *t = g->t;

	report_put(t,
		   "<polyline class=\"series-%zu\" fill=\"none\" "
		   "stroke=\"%s\" stroke-width=\"1.8\"%s%s%s points=\"",
		   series, colour, *dash ? " stroke-dasharray=\"" : "", dash,
		   *dash ? "\"" : "");
	for (size_t k = 0; k < s->count; k++)
		if (s->point[k].value[q].runs)
			report_put(t, "%.1f,%.1f ",
				   px(p, s->point[k].x) + dodge,
				   py(p, s->point[k].value[q].median));
	report_put(t, "\"/>\n");
}

/* A point's marker, with its runs' range and (latency) its whisker. */
static void series_point(const struct svg *g, const struct panel *p,
			 const struct figure_plot_point *pt, size_t series,
			 size_t q, const struct report_look *look, double dodge)
{
	const struct figure_stat *stat = &pt->value[q];
	const struct analysis_point *a = pt->point;
	double cx = px(p, pt->x) + dodge;
	struct text *t = g->t;
	char size[24], name[SERIES_NAME];

	/* The runs' range: an error bar with caps. */
	if (stat->runs > 1 && stat->max > stat->min)
		report_put(
			t,
			"<path d=\"M%.1f,%.1fV%.1fM%.1f,%.1fh6M%.1f,%.1fh6\" "
			"stroke=\"%s\" stroke-width=\"1.2\"/>\n",
			cx, py(p, stat->min), py(p, stat->max), cx - 3,
			py(p, stat->min), cx - 3, py(p, stat->max),
			look->colour);
	/* The latency figure: p50's whisker up to p99. */
	if (g->f->whisker && q == 0 && pt->value[1].runs)
		report_put(
			t,
			"<path d=\"M%.1f,%.1fV%.1fM%.1f,%.1fh8\" stroke=\"%s\" "
			"stroke-width=\"0.9\"/>\n",
			cx, py(p, stat->median), py(p, pt->value[1].median),
			cx - 4, py(p, pt->value[1].median), look->colour);
	units_format_size(a->key.msg_size, size, sizeof(size));
	series_name(g, series, name, sizeof(name));
	report_put(t,
		   "<g class=\"series-%zu\"><title>%s %s x%u %s: %.4g (median "
		   "of %zu run%s, %.4g .. %.4g)</title>",
		   series, name, size, a->key.threads, g->f->quantity[q].label,
		   stat->median, stat->runs, stat->runs == 1 ? "" : "s",
		   stat->min, stat->max);
	report_marker(t, look->shape, cx, py(p, stat->median), look->colour,
		      q > 0);
	report_put(t, "</g>\n");
}

/*
 * Series k of the legend in the panel: each of its plot's series.  The
 * latency figure sets a point's series side by side, all of them within
 * four fifths of the way to the next x value.
 */
static void panel_series(const struct svg *g, const struct panel *p,
			 size_t series, size_t q)
{
	struct report_look look = series_look(g, series);
	double step = (panel_right(p) - panel_left(p)) / (p->hi - p->lo);
	double apart = fmin(7, 0.8 * step / (double)g->series_count);
	double dodge = g->f->whisker ? ((double)series -
					(double)(g->series_count - 1) / 2) *
					       apart
				     : 0;

	if (figure_two_lines(g->f))
		look.dash = dashes[q ? 1 : 0];
	for (size_t i = 0; i < p->plot->series_count; i++) {
		const struct figure_plot_series *s = &p->plot->series[i];

		if (!point_key_equal(&s->key, &g->series[series], POINT_LINE))
			continue;
		series_line(g, p, s, series, q, look.colour, look.dash, dodge);
		for (size_t k = 0; k < s->count; k++)
			if (s->point[k].value[q].runs)
				series_point(g, p, &s->point[k], series, q,
					     &look, dodge);
	}
}

/* A panel with nothing to plot: why, in its middle. */
static void panel_note(const struct svg *g, const struct panel *p,
		       const char *line, const char *detail)
{
	static const struct report_font why_font = {
		.size = 15, .attrs = "text-anchor=\"middle\""};
	static const struct report_font detail_font = {
		.size = 11, .attrs = "fill=\"#555\" text-anchor=\"middle\""};
	double y = p->y + p->h / 2 - 6;

	report_put(g->t,
		   "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" "
		   "fill=\"#f6f6f6\" stroke=\"#bbb\"/>\n",
		   p->x, p->y, p->w, p->h);
	y += report_text_block(g->t, &why_font, p->x + p->w / 2, y, p->w - 20,
			       line);
	if (detail && *detail)
		report_text_block(g->t, &detail_font, p->x + p->w / 2, y + 4,
				  p->w - 20, detail);
}

/* Series i's entry in the legend, its line's middle at x, y. */
static void legend_entry(const struct svg *g, size_t i, double x, double y)
{
	struct report_look look = series_look(g, i);
	char name[SERIES_NAME];

	if (figure_two_lines(g->f))
		look.dash = "";
	report_put(g->t,
		   "<g class=\"legend series-%zu\"><line x1=\"%.0f\" "
		   "y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" "
		   "stroke-width=\"1.8\"%s%s%s/>",
		   i, x, y, x + LEGEND_LINE, y, look.colour,
		   *look.dash ? " stroke-dasharray=\"" : "", look.dash,
		   *look.dash ? "\"" : "");
	report_marker(g->t, look.shape, x + LEGEND_LINE / 2, y, look.colour,
		      false);
	series_name(g, i, name, sizeof(name));
	report_text_block(g->t, &legend_font, x + LEGEND_LINE + 6, y + 4,
			  SVG_INSIDE - LEGEND_LINE - 6, name);
	report_put(g->t, "</g>\n");
}

/*
 * The legend from y: a series an entry, in columns as wide as the widest
 * entry and as many as the page holds, row after row; then how to tell
 * two quantities apart, and the series a plot had no room for.  Returns
 * its height.
 */
static double figure_legend(const struct svg *g, double y)
{
	double widest = 0, row_y = y + LEGEND_ROW / 2;
	size_t columns;
	char name[SERIES_NAME], note[160];

	for (size_t i = 0; i < g->series_count; i++) {
		series_name(g, i, name, sizeof(name));
		widest = fmax(widest, report_text_width(&legend_font, name));
	}
	widest += LEGEND_LINE + 6 + 16;
	columns = (size_t)fmax(1, floor((SVG_INSIDE + 16) / widest));
	for (size_t i = 0; i < g->series_count; i++) {
		if (i && i % columns == 0)
			row_y += LEGEND_ROW;
		legend_entry(g, i, SVG_MARGIN + (double)(i % columns) * widest,
			     row_y);
	}
	row_y += LEGEND_ROW / 2 + 4;
	if (figure_two_lines(g->f)) {
		snprintf(note, sizeof(note),
			 "solid, filled: %s; dashed, hollow: %s",
			 g->f->quantity[0].label, g->f->quantity[1].label);
		row_y += report_text_block(g->t, &legend_note_font, SVG_MARGIN,
					   row_y + 8, SVG_INSIDE, note);
	}
	if (g->series_left_out) {
		snprintf(note, sizeof(note),
			 "%zu more series not drawn: a figure draws at most %d",
			 g->series_left_out, SERIES_MAX);
		row_y += report_text_block(g->t, &legend_note_font, SVG_MARGIN,
					   row_y + 8, SVG_INSIDE, note);
	}
	return row_y - y;
}

/* Where and how the numbers were made, under each figure. */
static double figure_footer(const struct svg *g, double y)
{
	const struct figure_scope scope = {.key.mode = g->f->mode,
					   .parts = POINT_MODE,
					   .axis = g->f->axis};

	return report_footer(
		g->t, g->s, &scope,
		"Each point is the median of its runs, a bar their range", y);
}

/* Whether the figure has point p's series already. */
static bool figure_has_series(const struct svg *g,
			      const struct analysis_point *p)
{
	for (size_t k = 0; k < g->series_count; k++)
		if (point_key_equal(&g->series[k], &p->key, POINT_LINE))
			return true;
	return false;
}

/*
 * Point j's series, new to the figure: the next one, or one more left out
 * (when no point before j was of it) once the figure has SERIES_MAX.
 */
static void figure_add_series(struct svg *g, size_t j)
{
	const struct analysis *a = &g->s->analysis;
	const struct analysis_point *p = &a->points[j];

	if (g->series_count < SERIES_MAX) {
		g->series[g->series_count++] = p->key;
		return;
	}
	for (size_t k = 0; k < j; k++)
		if (a->points[k].runs &&
		    point_key_equal(&a->points[k].key, &p->key,
				    POINT_MODE | POINT_LINE))
			return;
	g->series_left_out++;
}

/*
 * The strategies the figure has points of, each with every receive side and
 * set of knobs it has points of: a series each, in registry order, then
 * receive side, then as the points came; those past SERIES_MAX counted.
 */
static void figure_series(struct svg *g)
{
	const struct analysis *a = &g->s->analysis;

	g->series_count = 0;
	g->series_left_out = 0;
	for (size_t i = 0; i < strategy_count(); i++)
		for (int rx = 0; rx < RX_MODE_COUNT; rx++) {
			const struct point_key line = {
				.mode = g->f->mode,
				.strategy = strategy_at(i),
				.rx = (enum rx_mode)rx,
			};

			for (size_t j = 0; j < a->point_count; j++) {
				const struct analysis_point *p = &a->points[j];

				if (!p->runs ||
				    !point_key_equal(&p->key, &line,
						     POINT_MODE |
							     POINT_STRATEGY |
							     POINT_RX) ||
				    figure_has_series(g, p))
					continue;
				figure_add_series(g, j);
			}
		}
}

/*
 * Why a figure has nothing to draw (NULL: it has), and the reason's
 * details in reason: no runs of its mode, all of them left out, or
 * counters that did not count.
 */
static const char *figure_why(const struct svg *g, size_t panels, char *line,
			      size_t size, char *reason, size_t reason_size)
{
	const struct session *s = g->s;
	struct figure_runs drawn;

	figure_runs_of(&s->analysis, s->results,
		       &(struct figure_scope){.key.mode = g->f->mode,
					      .parts = POINT_MODE,
					      .axis = g->f->axis},
		       &drawn);
	if (!panels && drawn.left_out) {
		snprintf(line, size,
			 "every %s run was left out (%zu short, or ended by a "
			 "stop): --min-measured 0 and --keep-stopped keep "
			 "them",
			 run_mode_name(g->f->mode), drawn.left_out);
		return line;
	}
	if (!panels)
		return g->f->mode == RUN_RR ? "no rr runs: --mode stream,rr "
					      "measures the round trip too"
					    : "no stream runs to draw";
	if (!g->f->needs_pmu || figure_has_data(g->f, &s->analysis, s->results))
		return NULL;
	if (!s->options.counters_enabled) {
		snprintf(line, size, "not measured: counters were off");
	} else if (!s->host.pmu.available) {
		snprintf(line, size, "no hardware PMU on %s: not measured",
			 s->host.hostname[0] ? s->host.hostname : "this host");
		snprintf(reason, reason_size, "%s", s->host.pmu.reason);
	} else {
		snprintf(line, size,
			 "not measured: the cache events did not count");
	}
	return line;
}

/* The figure's title and how to read it; returns its height. */
static double figure_head(const struct svg *g, size_t number, double y)
{
	char note[512];

	snprintf(note, sizeof(note), "%s, %s. %s", run_mode_name(g->f->mode),
		 g->f->axis == FIGURE_BY_SIZE ? "a panel per flow count"
					      : "a panel per message size",
		 g->f->note);
	return report_figure_head(g->t, g->f->key, number, g->f->title, note,
				  y);
}

/* Panel i of a figure: its frame, then the note or the plot. */
static void svg_panel(const struct svg *g, struct panel *p, size_t i,
		      const char *why, const char *reason)
{
	/* Its bounds, for whoever checks the drawing (tests do). */
	report_put(g->t,
		   "<rect class=\"panel\" id=\"%s-panel-%zu\" x=\"%.0f\" "
		   "y=\"%.0f\" "
		   "width=\"%.0f\" height=\"%.0f\" fill=\"none\"/>\n",
		   g->f->key, i + 1, p->x, p->y, p->w, p->h);
	if (why) {
		panel_note(g, p, why, reason);
		return;
	}
	panel_plot(g, p);
	panel_scale(g, p);
	panel_axes(g, p);
	for (size_t k = 0; k < g->series_count; k++)
		for (size_t q = 0; q < g->f->quantity_count; q++)
			if (!g->f->whisker || q == 0)
				panel_series(g, p, k, q);
}

/* One figure at y; returns its height. */
static double svg_figure(struct svg *g, size_t number, double y)
{
	const struct session *s = g->s;
	size_t fixed[ANALYSIS_SIZES_MAX], panels, columns, rows;
	struct figure_plot *plot = malloc(sizeof(*plot));
	char reason[256] = "", line[160];
	double panel_w, top;
	const char *why;

	/* No cycles where no PMU counted them: the CPU time it took. */
	if (g->f->fallback && !figure_has_data(g->f, &s->analysis, s->results))
		g->f = g->f->fallback;
	figure_series(g);
	panels = figure_panel_values(&g->s->analysis, g->f->axis, g->f->mode,
				     false, fixed, ANALYSIS_SIZES_MAX);
	why = figure_why(g, panels, line, sizeof(line), reason, sizeof(reason));
	if (!plot) {
		g->t->failed = true;
		why = "out of memory";
	}
	columns = why || panels == 1 ? 1 : 2;
	rows = why ? 1 : (panels + columns - 1) / columns;
	panel_w = (SVG_INSIDE - (double)(columns - 1) * PANEL_GAP) /
		  (double)columns;
	top = y + figure_head(g, number, y);
	if (!why)
		top += figure_legend(g, top) + 4;
	for (size_t i = 0; i < (why ? 1 : panels); i++) {
		struct panel p = {
			.x = SVG_MARGIN +
			     (double)(i % columns) * (panel_w + PANEL_GAP),
			.y = top + (double)(i / columns) * PANEL_H,
			.w = panel_w,
			.h = PANEL_H - 10,
			.fixed = why ? 0 : fixed[i],
			.plot = plot,
		};

		svg_panel(g, &p, i, why, reason);
	}
	free(plot);
	top += (double)rows * PANEL_H;
	/* Round trips hold the counters' cost: said under them. */
	if (g->f->mode == RUN_RR && s->analysis.counters_why[0] && !why) {
		char note[sizeof(s->analysis.counters_why) + 16];

		snprintf(note, sizeof(note), "Counting: %s",
			 s->analysis.counters_why);
		top += report_note(g->t, "counters-note", note, top);
	}
	top += figure_footer(g, top);
	report_put(g->t, "</g>\n");
	return top - y;
}

int report_write_svg(const char *path, const struct session *s,
		     const struct report_style *style, char **cause)
{
	struct report_style fallback;
	struct text body = {0}, t = {0};
	struct svg g = {.t = &body, .s = s, .style = style};
	double y = 0, probe_h, cross_h;

	*cause = NULL;
	if (!style || style->colour_count < SVG_COLOURS_MIN) {
		report_style_default(&fallback);
		g.style = &fallback;
	}
	for (size_t i = 0; i < figure_count; i++) {
		g.f = &figures[i];
		y += svg_figure(&g, i + 1, y) + FIGURE_GAP;
	}
	y += report_profile_figure(&body, s, figure_count + 1, y) + FIGURE_GAP;
	y += report_time_figure(&body, s, figure_count + 2, y) + FIGURE_GAP;
	probe_h = report_probe_figure(&body, s, g.style, figure_count + 3, y);
	if (probe_h > 0)
		y += probe_h + FIGURE_GAP;
	cross_h = report_crossover_figure(&body, s, g.style,
					  figure_count + 3 + (probe_h > 0), y);
	if (cross_h > 0)
		y += cross_h + FIGURE_GAP;
	report_put(
		&t,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\" "
		"font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
		"<title>nio-top: %zu runs</title>\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
		SVG_WIDTH, y, SVG_WIDTH, y, s->result_count);
	report_put(&t, "%s</svg>", body.data ? body.data : "");
	t.failed |= body.failed;
	free(body.data);
	return report_text_write(&t, path, cause);
}
