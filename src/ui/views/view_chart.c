/*
 * The chart view: a figure against message size (or, for the round trip,
 * against flows), a series per strategy, for one mode and one flow count
 * (or size) at a time, from the model's plot (figure_plot(): the same
 * series the SVG draws).  It opens on the mode and flow count with the most
 * points; m picks the figure, [ ] the flows, r the mode -- never the
 * controls.  Markers that would land on one cell stand side by
 * side, and where there is no room the legend says which lies under which.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "freeze.h"
#include "measures.h"
#include "series.h"
#include "status.h"
#include "units.h"
#include "view.h"

#define CHARTS_MAX (UI_METRICS_MAX + 16)
#define MARKS_MAX  (FIGURE_SERIES_MAX * ANALYSIS_SIZES_MAX)

/* A chart to choose: a quantity, maybe a whisker, and its x axis. */
struct chart_def {
	struct figure_quantity quantity;
	bool has_whisker; /* a whisker up to whisker's value */
	struct figure_quantity whisker;
	enum figure_axis axis;
	bool rr_only; /* a round trip: only rr runs have it */
	char name[64];
};

struct chart {
	struct chart_def def[CHARTS_MAX];
	size_t count;
	size_t index;
	/* What the user chose; until then, the choice with most points. */
	bool mode_chosen;
	enum run_mode mode;
	size_t fixed[2]; /* by axis: the flows (by size), the size; 0: none */
};

/*
 * The figures of figure.h first (the four of the course's report, then the
 * receive side's), each quantity a chart of its own.
 */
static size_t course_charts(struct chart_def *def)
{
	size_t n = 0;

	for (size_t f = 0; f < figure_count; f++) {
		const struct figure *fig = &figures[f];

		if (fig->whisker) {
			def[n] = (struct chart_def){
				.quantity = fig->quantity[0],
				.has_whisker = true,
				.whisker = fig->quantity[1],
				.axis = fig->axis,
				.rr_only = true,
			};
			snprintf(def[n++].name, sizeof(def[0].name),
				 "Round trip p50 (to p99) us");
			continue;
		}
		for (size_t q = 0; q < fig->quantity_count; q++)
			def[n++] = (struct chart_def){
				.quantity = fig->quantity[q],
				.axis = fig->axis};
		if (fig->fallback)
			def[n++] = (struct chart_def){
				.quantity = fig->fallback->quantity[0],
				.axis = fig->fallback->axis};
	}
	return n;
}

static void *chart_open(struct ui *ui)
{
	static const enum figure_percentile percentiles[] = {
		PERCENTILE_P50, PERCENTILE_P90, PERCENTILE_P99,
		PERCENTILE_P99_9, PERCENTILE_MAX};
	struct chart *c = calloc(1, sizeof(*c));
	size_t n;

	if (!c)
		return NULL;
	n = course_charts(c->def);
	/* Every other figure of the metric table, side by side. */
	for (size_t i = 0; i < ui->metric_count && n < CHARTS_MAX; i++) {
		struct figure_quantity q = {
			.source = ui->metric[i].side == SIDE_SENDER
					  ? FIGURE_SENDER
					  : FIGURE_RECEIVER,
			.metric = metrics[ui->metric[i].metric].key,
			.label = metrics[ui->metric[i].metric].abbrev,
		};
		bool seen = false;

		for (size_t k = 0; k < n && !seen; k++)
			seen = c->def[k].quantity.source == q.source &&
			       c->def[k].quantity.metric &&
			       strcmp(c->def[k].quantity.metric, q.metric) == 0;
		if (!seen)
			c->def[n++] = (struct chart_def){
				.quantity = q, .axis = FIGURE_BY_SIZE};
	}
	/* The round trip's percentiles against message size. */
	for (size_t i = 0; i < 5 && n < CHARTS_MAX; i++)
		c->def[n++] = (struct chart_def){
			.quantity = {FIGURE_LATENCY, NULL, percentiles[i],
				     figure_percentile_name(percentiles[i])},
			.axis = FIGURE_BY_SIZE,
			.rr_only = true,
		};
	for (size_t i = 0; i < n; i++)
		if (!c->def[i].name[0])
			figure_quantity_name(&c->def[i].quantity,
					     c->def[i].name,
					     sizeof(c->def[i].name));
	c->count = n;
	return c;
}

static void chart_close(void *state)
{
	free(state);
}

/* The flows (by size) or the sizes (by flows) measured in mode. */
static size_t chart_choices(const struct chart *c, const struct explorer *e,
			    enum run_mode mode, size_t *out)
{
	const struct analysis *a = &e->session->analysis;
	enum figure_axis axis = c->def[c->index].axis;
	struct figure_scope scope = figure_chart_scope(a, mode, axis, 0);

	return figure_panel_values(a, axis, mode, rx_side_of(scope.key.rx)->own,
				   out, ANALYSIS_SIZES_MAX);
}

static void chart_plot(const struct chart *c, const struct explorer *e,
		       enum run_mode mode, size_t fixed,
		       struct figure_plot *plot)
{
	const struct chart_def *d = &c->def[c->index];
	const struct analysis *a = &e->session->analysis;
	const struct figure_quantity q[2] = {d->quantity, d->whisker};
	const struct figure_scope scope = figure_chart_scope(a, mode, d->axis,
							     fixed);

	figure_plot(a, e->session->results, q, d->has_whisker ? 2 : 1, &scope,
		    plot);
}

/* The points a plot draws. */
static size_t plot_points(const struct figure_plot *plot)
{
	size_t n = 0;

	for (size_t s = 0; s < plot->series_count; s++)
		for (size_t i = 0; i < plot->series[s].count; i++)
			n += plot->series[s].point[i].value[0].runs > 0;
	return n;
}

/* In mode, the fixed value with the most points (the controls' on a tie). */
static size_t best_fixed(const struct chart *c, const struct explorer *e,
			 enum run_mode mode, size_t *points)
{
	bool by_size = c->def[c->index].axis == FIGURE_BY_SIZE;
	size_t controls = by_size ? e->config.threads : e->config.msg_size;
	size_t choice[ANALYSIS_SIZES_MAX], n, best = 0;
	struct figure_plot *plot = malloc(sizeof(*plot));

	*points = 0;
	n = plot ? chart_choices(c, e, mode, choice) : 0;
	for (size_t i = 0; i < n; i++) {
		size_t have;

		chart_plot(c, e, mode, choice[i], plot);
		have = plot_points(plot);
		if (have > *points ||
		    (have == *points && choice[i] == controls)) {
			*points = have;
			best = choice[i];
		}
	}
	free(plot);
	return best ? best : controls;
}

/* The chart's mode and flows (or size) now: as chosen, else most points. */
static void chart_where(const struct chart *c, const struct explorer *e,
			enum run_mode *mode, size_t *fixed)
{
	const struct chart_def *d = &c->def[c->index];
	size_t chosen = c->fixed[d->axis], choice[ANALYSIS_SIZES_MAX];
	size_t here, there, n;

	if (d->rr_only)
		*mode = RUN_RR;
	else if (c->mode_chosen)
		*mode = c->mode;
	else {
		enum run_mode other = e->config.mode == RUN_RR ? RUN_STREAM
							       : RUN_RR;

		*mode = e->config.mode;
		best_fixed(c, e, *mode, &here);
		best_fixed(c, e, other, &there);
		if (there > here)
			*mode = other;
	}
	n = chart_choices(c, e, *mode, choice);
	for (size_t i = 0; i < n && chosen; i++)
		if (choice[i] == chosen) {
			*fixed = chosen;
			return;
		}
	*fixed = best_fixed(c, e, *mode, &here);
}

/* [ ], Left Right: the next measured flows (or size) either way. */
static void chart_step(struct ui *ui, struct chart *c, const struct explorer *e,
		       int delta)
{
	const struct chart_def *d = &c->def[c->index];
	size_t choice[ANALYSIS_SIZES_MAX], n, now, next;
	enum run_mode mode;
	char what[32];

	chart_where(c, e, &mode, &now);
	n = chart_choices(c, e, mode, choice);
	if (!n) {
		ui_note(ui, "the chart has no %s runs to choose from yet",
			run_mode_name(mode));
		return;
	}
	next = delta > 0 ? choice[n - 1] : choice[0];
	for (size_t i = 0; i < n; i++)
		if (delta > 0 && choice[n - 1 - i] > now)
			next = choice[n - 1 - i];
		else if (delta < 0 && choice[i] < now)
			next = choice[i];
	c->fixed[d->axis] = next;
	if (d->axis == FIGURE_BY_SIZE)
		snprintf(what, sizeof(what), "%zu flow%s", next,
			 next == 1 ? "" : "s");
	else
		units_format_size_iec(next, what, sizeof(what));
	ui_note(ui, "chart: %s%s", what,
		next == now ? (delta > 0 ? " (the most measured)"
					 : " (the fewest measured)")
			    : "");
}

/* r: stream or rr runs. */
static void chart_mode(struct ui *ui, struct chart *c, const struct explorer *e)
{
	enum run_mode mode;
	size_t fixed;

	chart_where(c, e, &mode, &fixed);
	c->mode = mode == RUN_STREAM ? RUN_RR : RUN_STREAM;
	c->mode_chosen = true;
	if (c->def[c->index].rr_only && c->mode == RUN_STREAM) {
		/* A round trip is rr's alone: the first stream figure. */
		c->index = 0;
		ui_note(ui,
			"stream runs chosen; a round trip is rr's alone, "
			"so the chart shows %s",
			c->def[0].name);
	} else {
		ui_note(ui, "chart: %s runs", run_mode_name(c->mode));
	}
}

/* m, M: the next figure that some run has (none n/a everywhere). */
static void chart_figure(struct ui *ui, struct chart *c,
			 const struct explorer *e, int delta)
{
	struct figure_plot *plot = malloc(sizeof(*plot));
	enum run_mode mode;
	size_t fixed;

	for (size_t tries = 0; plot && tries < c->count; tries++) {
		c->index = (c->index + (delta > 0 ? 1 : c->count - 1)) %
			   c->count;
		chart_where(c, e, &mode, &fixed);
		chart_plot(c, e, mode, fixed, plot);
		if (plot->series_count || !e->session->result_count)
			break;
	}
	free(plot);
	ui_note(ui, "chart: %s (m next, M previous, [ ] flows, r mode)",
		c->def[c->index].name);
}

/* The plot's area in the box, and the x axis's mapping. */
struct chart_frame {
	const struct rect *r;
	int left, bottom, plot_w, plot_h;
	int x_left, x_width;
	double lo, hi, max;
};

/* Where value v (a size or flows) goes on the chart's x axis. */
static int chart_x(const struct chart_frame *f, double v)
{
	if (f->hi <= f->lo)
		return f->x_left + f->x_width / 2;
	return f->x_left + (int)lround((log2(v) - f->lo) / (f->hi - f->lo) *
				       (f->x_width - 1));
}

static int chart_y(const struct chart_frame *f, double v)
{
	return f->bottom - (int)lround(v / f->max * (f->plot_h - 1));
}

/* A marker drawn, and the markers that could not be placed. */
struct chart_mark_at {
	int y, x;
	char marker;
};

struct chart_marks {
	struct chart_mark_at at[MARKS_MAX];
	size_t count;
	char hidden[160]; /* "2 under Z at 64K; ..." */
};

/*
 * A marker at (y, x), or beside it when another holds that cell; where
 * both sides are taken too, the legend says which lies under which.
 */
static void chart_mark(const struct chart_frame *f, struct chart_marks *m,
		       int y, int x, char marker, enum theme_role role,
		       const char *where)
{
	static const int beside[] = {0, 1, -1};
	char below = 0;

	for (size_t k = 0; k < sizeof(beside) / sizeof(*beside); k++) {
		int xx = x + beside[k];
		bool taken = xx < f->left || xx >= f->left + f->plot_w;

		for (size_t i = 0; i < m->count && !taken; i++)
			if (m->at[i].y == y && m->at[i].x == xx) {
				taken = true;
				below = below ? below : m->at[i].marker;
			}
		if (taken)
			continue;
		if (m->count < MARKS_MAX)
			m->at[m->count++] = (struct chart_mark_at){y, xx,
								   marker};
		attrset(theme_attr(role));
		mvaddch(y, xx, (chtype)marker | A_BOLD);
		return;
	}
	snprintf(m->hidden + strlen(m->hidden),
		 sizeof(m->hidden) - strlen(m->hidden), "%s%c under %c at %s",
		 m->hidden[0] ? "; " : "", marker, below, where);
}

/*
 * "64 KiB" or "x2" (flows, as a run's label says them, and no marker's
 * digit): where a point is, as its x label says it.
 */
static void chart_where_text(const struct chart_def *d, double x, char *out,
			     size_t size)
{
	if (d->axis == FIGURE_BY_SIZE)
		units_format_size_iec((size_t)x, out, size);
	else
		snprintf(out, size, "x%.0f", x);
}

/*
 * A series: its points in x order joined by dots, and whiskers (lines);
 * or its markers, drawn after every series' lines so that no dot covers
 * one (!lines).
 */
static void chart_series(const struct ui *ui, const struct chart_def *d,
			 const struct chart_frame *f,
			 const struct figure_plot_series *s, size_t nth,
			 bool lines, struct chart_marks *m)
{
	size_t i = ui_series_of(s->key.strategy);
	enum theme_role role = ui_series_roles[i];
	int px = -1, py = -1;

	for (size_t k = 0; k < s->count; k++) {
		const struct figure_plot_point *p = &s->point[k];
		int x = chart_x(f, p->x), y;
		char where[24];

		if (!p->value[0].runs)
			continue;
		/* Side by side where every strategy shares an x. */
		if (d->has_whisker)
			x += (int)(nth % 3) - 1;
		y = chart_y(f, p->value[0].median);
		attrset(theme_attr(role));
		for (int step = 1; lines && px >= 0 && step < x - px; step++)
			mvaddch(py + (y - py) * step / (x - px), px + step,
				'.');
		/* The round trip's whisker, up to its p99. */
		if (lines && d->has_whisker && p->value[1].runs) {
			int y99 = chart_y(f, p->value[1].median);

			for (int yy = y99; yy < y; yy++)
				mvaddstr(yy, x,
					 yy == y99  ? "-"
					 : ui->utf8 ? "\u2502"
						    : "|");
		}
		chart_where_text(d, p->x, where, sizeof(where));
		if (!lines)
			chart_mark(f, m, y, x, ui_series_markers[i], role,
				   where);
		px = x;
		py = y;
	}
}

/* Nothing to draw: why, and where there is something. */
static void chart_empty(const struct ui *ui, const struct chart *c,
			const struct explorer *e, const struct rect *r,
			enum run_mode mode)
{
	const struct chart_def *d = &c->def[c->index];
	const struct analysis *a = &e->session->analysis;
	size_t choice[ANALYSIS_SIZES_MAX],
		n = chart_choices(c, e, mode, choice);
	char have[96] = "";

	for (size_t i = 0, len = 0; i < n && len < sizeof(have); i++) {
		char v[24];

		chart_where_text(d, (double)choice[i], v, sizeof(v));
		len += (size_t)snprintf(have + len, sizeof(have) - len, "%s%s",
					i ? ", " : "", v);
	}
	if (n)
		ui_say(r, 2, ROLE_INACTIVE,
		       "No run has a value of %s: it is n/a in every run "
		       "(compare, 3, says why); m picks another figure.",
		       d->name);
	else if (e->config.mode == mode || e->viewing)
		ui_say(r, 2, ROLE_INACTIVE,
		       "No finished %s runs yet%s: w sweeps the strategies "
		       "over the sizes; r shows %s runs.",
		       run_mode_name(mode),
		       a->short_runs || a->stopped_runs
			       ? " (short and stopped ones are left out)"
			       : "",
		       mode == RUN_RR ? "stream" : "rr");
	else
		ui_say(r, 2, ROLE_INACTIVE,
		       "No finished %s runs yet%s: set the Mode control to %s, "
		       "then w sweeps the strategies over the sizes; r shows "
		       "%s runs.",
		       run_mode_name(mode),
		       a->short_runs || a->stopped_runs
			       ? " (short and stopped ones are left out)"
			       : "",
		       run_mode_name(mode), mode == RUN_RR ? "stream" : "rr");
	(void)ui;
}

/* The legend: the strategies drawn, and what lies under what. */
static void chart_legend(const struct figure_plot *plot, const struct rect *r,
			 const char *hidden)
{
	int x = r->x + 2, end = r->x + r->w - 2;

	for (size_t s = 0; s < plot->series_count; s++) {
		size_t i = ui_series_of(plot->series[s].key.strategy);
		const char *name = plot->series[s].key.strategy->name;

		/* Inside the frame: a name that does not fit is cut. */
		if (x + 3 > end)
			break;
		ui_text(r->y + 1, x, end - x, ui_series_roles[i], "%c %s",
			ui_series_markers[i], name);
		x += (int)strlen(name) + 3;
	}
	if (hidden[0] && x + 4 < end)
		ui_text(r->y + 1, x, end - x, ROLE_INACTIVE, "(%s)", hidden);
}

/* The axes and their labels: y at the top, the middle and 0, x measured. */
static void chart_axes(const struct ui *ui, const struct chart_def *d,
		       const struct chart_frame *f)
{
	char label[24];

	ui_format_value(f->max, label, sizeof(label));
	ui_text(f->bottom - f->plot_h + 1, f->r->x + 1, 8, ROLE_GRAPH_TEXT,
		"%7s", label);
	ui_text(f->bottom, f->r->x + 1, 8, ROLE_GRAPH_TEXT, "%7s", "0");
	if (f->plot_h >= 5) {
		ui_format_value(f->max / 2, label, sizeof(label));
		ui_text(f->bottom - (int)lround((f->plot_h - 1) / 2.0),
			f->r->x + 1, 8, ROLE_GRAPH_TEXT, "%7s", label);
	}
	attrset(theme_attr(ROLE_METER_BG));
	ui_line(ui->utf8, f->bottom - f->plot_h + 1, f->left - 1, f->plot_h,
		true);
	ui_line(ui->utf8, f->bottom + 1, f->left, f->plot_w, false);
	/* x labels at the measured powers of two, as many as fit. */
	for (int e2 = (int)ceil(f->lo), last_end = -1; e2 <= (int)floor(f->hi);
	     e2++) {
		int x = chart_x(f, exp2(e2));

		chart_where_text(d, exp2(e2), label, sizeof(label));
		if (x <= last_end)
			continue;
		ui_text(f->bottom + 1, x, 8, ROLE_GRAPH_TEXT, "%s", label);
		last_end = x + (int)strlen(label);
	}
	/* What the x axis counts, under the y axis's labels. */
	ui_text(f->bottom + 1, f->r->x + 1, 8, ROLE_GRAPH_TEXT, "%7s",
		d->axis == FIGURE_BY_SIZE ? "size" : "flows");
}

static void chart_title(const struct chart *c, const struct explorer *e,
			enum run_mode mode, size_t fixed, char *out,
			size_t size)
{
	const struct chart_def *d = &c->def[c->index];
	struct figure_scope scope = figure_chart_scope(&e->session->analysis,
						       mode, d->axis, fixed);
	char where[32], points[160];

	if (d->axis == FIGURE_BY_SIZE)
		snprintf(where, sizeof(where), "%zu flow%s", fixed,
			 fixed == 1 ? "" : "s");
	else
		units_format_size_iec(fixed, where, sizeof(where));
	point_key_label(&scope.key, scope.parts, points, sizeof(points));
	snprintf(out, size, "%s vs %s, %s, %s (m [ ] r)", d->name,
		 d->axis == FIGURE_BY_SIZE ? "size" : "flows", points, where);
}

static void chart_draw(struct ui *ui, void *state, const struct explorer *e,
		       const struct rect *r)
{
	struct chart *c = state;
	const struct chart_def *d = &c->def[c->index];
	struct figure_plot *plot = malloc(sizeof(*plot));
	struct chart_marks *m = calloc(1, sizeof(*m));
	struct chart_frame f = {.r = r,
				.left = r->x + 9,
				.bottom = r->y + r->h - 3,
				.plot_w = r->w - 13,
				.plot_h = r->h - 5};
	enum run_mode mode;
	size_t fixed;
	char text[320];

	if (!plot || !m)
		goto out;
	chart_where(c, e, &mode, &fixed);
	chart_plot(c, e, mode, fixed, plot);
	chart_title(c, e, mode, fixed, text, sizeof(text));
	ui_box(ui->utf8, r, ROLE_BOX_GRAPH, text);
	if (f.plot_w < 10 || f.plot_h < 2) {
		ui_say(r, 1, ROLE_INACTIVE,
		       "Too little room to draw the chart: a taller terminal "
		       "shows it.");
		goto out;
	}
	if (!(plot->median_max > 0)) {
		chart_empty(ui, c, e, r, mode);
		goto out;
	}
	f.lo = plot->x_lo;
	f.hi = plot->x_hi;
	f.max = plot->median_max;
	/* Whisker charts set strategies side by side: a column each way. */
	f.x_left = f.left + (d->has_whisker ? 1 : 0);
	f.x_width = f.plot_w - (d->has_whisker ? 8 : 6);
	chart_axes(ui, d, &f);
	for (int pass = 0; pass < 2; pass++)
		for (size_t s = 0; s < plot->series_count; s++)
			chart_series(ui, d, &f, &plot->series[s], s, pass == 0,
				     m);
	chart_legend(plot, r, m->hidden);
	/* What the points stand on, on the bottom edge. */
	figure_runs_text(&plot->runs, true, text, sizeof(text));
	ui_text(r->y + r->h - 1, r->x + 2, r->w - 4, ROLE_GRAPH_TEXT, " %s ",
		text);
out:
	attrset(theme_attr(ROLE_TEXT));
	free(plot);
	free(m);
}

static bool chart_key(struct ui *ui, void *state, const struct explorer *e,
		      int key, struct ui_commands *out)
{
	struct chart *c = state;

	(void)out;
	e = ui_shown(ui, e);
	switch (key) {
	case 'm':
	case 'M':
		chart_figure(ui, c, e, key == 'm' ? 1 : -1);
		return true;
	case '[':
	case ']':
		chart_step(ui, c, e, key == ']' ? 1 : -1);
		return true;
	case 'r':
		chart_mode(ui, c, e);
		return true;
	}
	return false;
}

const struct ui_view ui_view_chart = {
	.name = "chart",
	.shortcut = '4',
	.bar = "m [ ] r",
	.keys =
		{
			{"m M", "the next or previous figure (those n/a in "
				"every run are skipped)"},
			{"[ ]", "fewer or more flows (round trip: a smaller or "
				"larger size)"},
			{"r", "stream or rr runs"},
		},
	.open = chart_open,
	.close = chart_close,
	.draw = chart_draw,
	.key = chart_key,
};
