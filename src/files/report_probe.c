/*
 * The figure of the probe: for every analysed stream point whose runs had
 * a probe -- a strategy at a message size, a panel per flow count -- its
 * round trip beside the load against the throughput the load had there,
 * a marker at the median p50 and a whisker up to the median p99, and the
 * probe alone as two grey lines (p50 dashed, p99 dotted).  A point up and
 * to the right moved more bytes and hurt the small request more; at equal
 * Gbit/s (--load-rate), the higher whisker is the worse tail.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "report_private.h"
#include "units.h"

#define PLOT_LEFT     62
#define PLOT_RIGHT    14
#define PLOT_TOP      28
#define PLOT_BOTTOM   44
#define PROBE_PANEL_H 300
#define LEGEND_ROW    18
#define LEGEND_LINE   28
#define SERIES_MAX    FIGURE_SERIES_MAX

static const struct report_font legend_font = {.size = 13};
static const struct report_font note_font = {.size = 12,
					     .attrs = "fill=\"#333\""};

/* A series: a strategy with a receive side and a set of knobs. */
/* A line: a point's strategy, receive side and knobs (POINT_LINE). */
struct probe_series {
	struct point_key key;
};

struct probe_figure {
	struct text *t;
	const struct session *s;
	const struct report_style *style;
	struct probe_series series[SERIES_MAX];
	size_t series_count;
	size_t left_out; /* points of series past SERIES_MAX */
};

/* One panel: its place, its flows and its scales. */
struct probe_panel {
	double x, y, w, h;
	unsigned int threads;
	double x_top, x_step; /* Gbit/s: 0 .. x_top */
	double y_lo, y_hi;    /* microseconds, log */
};

static const struct analysis_point *probe_point(const struct analysis *a,
						size_t i)
{
	return &a->points[a->probes[i].point];
}

/* Whether probe i is drawn: a stream point's. */
static bool probe_drawn(const struct analysis *a, size_t i)
{
	return probe_point(a, i)->key.mode == RUN_STREAM;
}

/* Point p's series, or SIZE_MAX if it has none (past SERIES_MAX). */
static size_t series_of(const struct probe_figure *f,
			const struct analysis_point *p)
{
	for (size_t k = 0; k < f->series_count; k++)
		if (point_key_equal(&f->series[k].key, &p->key, POINT_LINE))
			return k;
	return SIZE_MAX;
}

/* The series, in registry order, then as the points came. */
static void probe_series(struct probe_figure *f)
{
	const struct analysis *a = &f->s->analysis;

	for (size_t r = 0; r < strategy_count(); r++)
		for (size_t i = 0; i < a->probe_count; i++) {
			const struct analysis_point *p = probe_point(a, i);

			if (!probe_drawn(a, i) ||
			    p->key.strategy != strategy_at(r) ||
			    series_of(f, p) != SIZE_MAX)
				continue;
			if (f->series_count == SERIES_MAX) {
				f->left_out++;
				continue;
			}
			f->series[f->series_count++] = (struct probe_series){
				.key = p->key};
		}
}

static void series_name(const struct probe_series *s, char *out, size_t size)
{
	char knobs[96];

	settings_stack_tag(&s->key.stack, knobs, sizeof(knobs));
	snprintf(out, size, "%s%s%s", s->key.strategy->name,
		 rx_side_of(s->key.rx)->tag, knobs);
}

/* The legend, in columns, then how to read the rest; returns its height. */
static double probe_legend(const struct probe_figure *f, double y)
{
	double widest = 0, row_y = y + LEGEND_ROW / 2;
	char name[160];
	size_t columns;

	for (size_t i = 0; i < f->series_count; i++) {
		series_name(&f->series[i], name, sizeof(name));
		widest = fmax(widest, report_text_width(&legend_font, name));
	}
	widest += LEGEND_LINE + 6 + 16;
	columns = (size_t)fmax(1, floor((SVG_INSIDE + 16) / widest));
	for (size_t i = 0; i < f->series_count; i++) {
		struct report_look look = report_series_look(f->style, i);
		double x = SVG_MARGIN + (double)(i % columns) * widest;

		if (i && i % columns == 0)
			row_y += LEGEND_ROW;
		report_put(f->t,
			   "<g class=\"legend series-%zu\"><line x1=\"%.0f\" "
			   "y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" "
			   "stroke-width=\"1.8\"%s%s%s/>",
			   i, x, row_y, x + LEGEND_LINE, row_y, look.colour,
			   *look.dash ? " stroke-dasharray=\"" : "", look.dash,
			   *look.dash ? "\"" : "");
		report_marker(f->t, look.shape, x + LEGEND_LINE / 2, row_y,
			      look.colour, false);
		series_name(&f->series[i], name, sizeof(name));
		report_text_block(f->t, &legend_font, x + LEGEND_LINE + 6,
				  row_y + 4, SVG_INSIDE - LEGEND_LINE - 6,
				  name);
		report_put(f->t, "</g>\n");
	}
	row_y += LEGEND_ROW / 2 + 4;
	row_y += report_text_block(
		f->t, &note_font, SVG_MARGIN, row_y + 8, SVG_INSIDE,
		"grey lines: the probe alone, before the load (p50 dashed, "
		"p99 dotted; the median over the panel's points); each "
		"marker is named by its message size");
	if (f->left_out) {
		snprintf(name, sizeof(name),
			 "%zu more points not drawn: a figure draws at most "
			 "%d series",
			 f->left_out, SERIES_MAX);
		row_y += report_text_block(f->t, &note_font, SVG_MARGIN,
					   row_y + 8, SVG_INSIDE, name);
	}
	return row_y - y;
}

static double panel_left(const struct probe_panel *p)
{
	return p->x + PLOT_LEFT;
}

static double panel_right(const struct probe_panel *p)
{
	return p->x + p->w - PLOT_RIGHT;
}

static double panel_bottom(const struct probe_panel *p)
{
	return p->y + p->h - PLOT_BOTTOM;
}

static double px(const struct probe_panel *p, double gbps)
{
	return panel_left(p) +
	       gbps / p->x_top * (panel_right(p) - panel_left(p));
}

static double py(const struct probe_panel *p, double us)
{
	double f = (log10(fmax(us, p->y_lo)) - log10(p->y_lo)) /
		   (log10(p->y_hi) - log10(p->y_lo));

	return panel_bottom(p) - f * (panel_bottom(p) - (p->y + PLOT_TOP));
}

/* The scales of a panel, from the points it draws. */
static void panel_scale(const struct probe_figure *f, struct probe_panel *p)
{
	const struct analysis *a = &f->s->analysis;
	double gbps = 0, lo = INFINITY, hi = 0;

	for (size_t i = 0; i < a->probe_count; i++) {
		const struct analysis_probe *q = &a->probes[i];

		if (!probe_drawn(a, i) ||
		    probe_point(a, i)->key.threads != p->threads)
			continue;
		gbps = fmax(gbps, q->gbps);
		lo = fmin(lo, fmin(q->loaded_p50_us, q->idle_p50_us));
		hi = fmax(hi, fmax(q->loaded_p99_us, q->idle_p99_us));
	}
	p->x_step = report_nice_step((gbps > 0 ? gbps : 1) * 1.05 / 5);
	p->x_top = ceil((gbps > 0 ? gbps : 1) * 1.05 / p->x_step) * p->x_step;
	p->y_lo = report_nice_bound(lo > 0 && isfinite(lo) ? lo : 1, false);
	p->y_hi = report_nice_bound(hi > p->y_lo ? hi : p->y_lo * 2, true);
	if (p->y_hi <= p->y_lo)
		p->y_hi = report_nice_bound(p->y_lo * 1.5, true);
}

/* The frame, the heading, the ticks and the axes' names. */
static void panel_axes(const struct probe_figure *f,
		       const struct probe_panel *p, size_t number)
{
	static const double steps[] = {1, 2, 5};
	double decades = log10(p->y_hi) - log10(p->y_lo);
	char label[32];

	report_put(f->t,
		   "<rect class=\"panel\" id=\"probe-panel-%zu\" x=\"%.0f\" "
		   "y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\"/>\n"
		   "<text x=\"%.0f\" y=\"%.0f\" font-size=\"13\" "
		   "font-weight=\"bold\">%u flow%s</text>\n",
		   number, p->x, p->y, p->w, p->h, panel_left(p), p->y + 16,
		   p->threads, p->threads == 1 ? "" : "s");
	for (double power = pow(10, floor(log10(p->y_lo)));
	     power <= p->y_hi * 1.0001; power *= 10)
		for (size_t i = 0; i < 3; i++) {
			double v = steps[i] * power, y = py(p, v);

			if (v < p->y_lo * 0.9999 || v > p->y_hi * 1.0001 ||
			    (decades > 3 && i))
				continue;
			report_tick_text(v, v, label, sizeof(label));
			report_put(f->t,
				   "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" "
				   "y2=\"%.1f\" stroke=\"#d9d9d9\" "
				   "stroke-width=\"0.8\"/><text x=\"%.0f\" "
				   "y=\"%.1f\" font-size=\"11\" "
				   "text-anchor=\"end\">%s</text>\n",
				   panel_left(p), y, panel_right(p), y,
				   panel_left(p) - 5, y + 4, label);
		}
	for (double v = 0; v <= p->x_top * 1.0001; v += p->x_step) {
		report_tick_text(v, p->x_step, label, sizeof(label));
		report_put(f->t,
			   "<text x=\"%.1f\" y=\"%.0f\" font-size=\"11\" "
			   "text-anchor=\"middle\">%s</text>\n",
			   px(p, v), panel_bottom(p) + 16, label);
	}
	report_put(f->t,
		   "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" "
		   "stroke=\"#333\"/>\n"
		   "<text x=\"%.0f\" y=\"%.0f\" font-size=\"12\" "
		   "text-anchor=\"middle\">Gbit/s delivered</text>\n"
		   "<text x=\"%.0f\" y=\"%.0f\" font-size=\"12\" "
		   "text-anchor=\"middle\" transform=\"rotate(-90 %.0f "
		   "%.0f)\">probe round trip, us</text>\n",
		   panel_left(p), panel_bottom(p), panel_right(p),
		   panel_bottom(p), (panel_left(p) + panel_right(p)) / 2,
		   panel_bottom(p) + 34, p->x + 14,
		   (p->y + PLOT_TOP + panel_bottom(p)) / 2, p->x + 14,
		   (p->y + PLOT_TOP + panel_bottom(p)) / 2);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The probe alone: its median p50 and p99 over the panel's points. */
static void panel_idle(const struct probe_figure *f,
		       const struct probe_panel *p)
{
	const struct analysis *a = &f->s->analysis;
	double *v[2];
	size_t n = 0;

	v[0] = calloc(a->probe_count + 1, sizeof(double));
	v[1] = calloc(a->probe_count + 1, sizeof(double));
	for (size_t i = 0; v[0] && v[1] && i < a->probe_count; i++) {
		if (!probe_drawn(a, i) ||
		    probe_point(a, i)->key.threads != p->threads)
			continue;
		v[0][n] = a->probes[i].idle_p50_us;
		v[1][n++] = a->probes[i].idle_p99_us;
	}
	for (int k = 0; n && k < 2; k++) {
		double y, median;

		qsort(v[k], n, sizeof(double), cmp_double);
		median = n % 2 ? v[k][n / 2]
			       : (v[k][n / 2 - 1] + v[k][n / 2]) / 2;
		y = py(p, median);
		report_put(f->t,
			   "<line class=\"idle\" x1=\"%.0f\" y1=\"%.1f\" "
			   "x2=\"%.0f\" y2=\"%.1f\" stroke=\"#888\" "
			   "stroke-width=\"1.4\" stroke-dasharray=\"%s\"/>"
			   "<text x=\"%.0f\" y=\"%.1f\" font-size=\"10\" "
			   "fill=\"#666\" text-anchor=\"end\">alone %s %.0f "
			   "us</text>\n",
			   panel_left(p), y, panel_right(p), y,
			   k ? "2 3" : "6 3", panel_right(p) - 2, y - 3,
			   k ? "p99" : "p50", median);
	}
	free(v[0]);
	free(v[1]);
}

/* Probes i and j by their points' message sizes. */
static const struct analysis *sort_analysis;

static int cmp_size(const void *a, const void *b)
{
	size_t x = probe_point(sort_analysis, *(const size_t *)a)->key.msg_size;
	size_t y = probe_point(sort_analysis, *(const size_t *)b)->key.msg_size;

	return x < y ? -1 : x > y;
}

/* One point's whisker from p50 up to p99, its marker, its size's name. */
static void point_draw(const struct probe_figure *f,
		       const struct probe_panel *p, size_t i,
		       const struct report_look *look)
{
	const struct analysis *a = &f->s->analysis;
	const struct analysis_probe *q = &a->probes[i];
	double x = px(p, q->gbps), y50 = py(p, q->loaded_p50_us);
	double y99 = py(p, q->loaded_p99_us);
	bool left = x > panel_right(p) - 40;
	char size[24];

	report_put(f->t,
		   "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		   "stroke=\"%s\" stroke-width=\"1.2\"/><line x1=\"%.1f\" "
		   "y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		   "stroke-width=\"1.2\"/>",
		   x, y50, x, y99, look->colour, x - 4, y99, x + 4, y99,
		   look->colour);
	report_marker(f->t, look->shape, x, y50, look->colour, false);
	units_format_size(probe_point(a, i)->key.msg_size, size, sizeof(size));
	report_put(f->t,
		   "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" "
		   "fill=\"#555\"%s>%s</text>",
		   x + (left ? -7 : 7), y50 + 12,
		   left ? " text-anchor=\"end\"" : "", size);
}

/* Series k's points in the panel, by size: a line, whiskers, markers. */
static void panel_series(const struct probe_figure *f,
			 const struct probe_panel *p, size_t k)
{
	const struct analysis *a = &f->s->analysis;
	struct report_look look = report_series_look(f->style, k);
	size_t *mine = calloc(a->probe_count + 1, sizeof(*mine)), n = 0;

	for (size_t i = 0; mine && i < a->probe_count; i++)
		if (probe_drawn(a, i) &&
		    probe_point(a, i)->key.threads == p->threads &&
		    series_of(f, probe_point(a, i)) == k)
			mine[n++] = i;
	if (!n) {
		free(mine);
		return;
	}
	sort_analysis = a;
	qsort(mine, n, sizeof(*mine), cmp_size);
	report_put(f->t,
		   "<polyline class=\"series-%zu\" fill=\"none\" "
		   "stroke=\"%s\" stroke-width=\"1.2\"%s%s%s points=\"",
		   k, look.colour, *look.dash ? " stroke-dasharray=\"" : "",
		   look.dash, *look.dash ? "\"" : "");
	for (size_t j = 0; j < n; j++)
		report_put(f->t, "%s%.1f,%.1f", j ? " " : "",
			   px(p, a->probes[mine[j]].gbps),
			   py(p, a->probes[mine[j]].loaded_p50_us));
	report_put(f->t, "\"/>\n<g class=\"series-%zu\">", k);
	for (size_t j = 0; j < n; j++)
		point_draw(f, p, mine[j], &look);
	report_put(f->t, "</g>\n");
	free(mine);
}

/* The flow counts of the drawn points, in the order they came. */
static size_t probe_flows(const struct analysis *a, unsigned int *flows,
			  size_t most)
{
	size_t n = 0;

	for (size_t i = 0; i < a->probe_count; i++) {
		unsigned int t = probe_point(a, i)->key.threads;
		size_t k = 0;

		while (k < n && flows[k] != t)
			k++;
		if (k == n && n < most && probe_drawn(a, i))
			flows[n++] = t;
	}
	return n;
}

double report_probe_figure(struct text *t, const struct session *s,
			   const struct report_style *style, size_t number,
			   double y)
{
	const struct figure_scope scope = {.key.mode = RUN_STREAM,
					   .parts = POINT_MODE,
					   .axis = FIGURE_BY_SIZE};
	struct probe_figure f = {.t = t, .s = s, .style = style};
	unsigned int flows[ANALYSIS_SIZES_MAX];
	size_t panels = probe_flows(&s->analysis, flows, ANALYSIS_SIZES_MAX);
	size_t columns = panels == 1 ? 1 : 2;
	double at, panel_w;

	if (!panels)
		return 0;
	probe_series(&f);
	at = y + report_figure_head(
			 t, "probe", number,
			 "The probe beside the load against the load's "
			 "throughput: p50, whisker to p99",
			 "stream, a panel per flow count. The probe's own "
			 "connection (send/recv, TCP_NODELAY) beside each "
			 "strategy's stream, over the same measured window; "
			 "lower is a shorter round trip for a small request.",
			 y);
	at += probe_legend(&f, at) + 4;
	panel_w = (SVG_INSIDE - (double)(columns - 1) * PANEL_GAP) /
		  (double)columns;
	for (size_t i = 0; i < panels; i++) {
		struct probe_panel p = {
			.x = SVG_MARGIN +
			     (double)(i % columns) * (panel_w + PANEL_GAP),
			.y = at + (double)(i / columns) * PROBE_PANEL_H,
			.w = panel_w,
			.h = PROBE_PANEL_H - 10,
			.threads = flows[i],
		};

		panel_scale(&f, &p);
		panel_axes(&f, &p, i + 1);
		panel_idle(&f, &p);
		for (size_t k = 0; k < f.series_count; k++)
			panel_series(&f, &p, k);
	}
	at += (double)((panels + columns - 1) / columns) * PROBE_PANEL_H;
	at += report_footer(t, s, &scope,
			    "Each marker is the median p50 of its point's "
			    "runs beside the load, its whisker up to their "
			    "median p99, at their median Gbit/s",
			    at);
	report_put(t, "</g>\n");
	return at - y;
}
