/*
 * Graphs: the last minute of one metric in braille (2 x 4 dots a cell, as
 * btop draws them; '#' and ':' without UTF-8), and the chart of a figure
 * against message size (or flows) per strategy, from the analysis: one mode
 * at a time, short runs left out, each point the median of its runs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui_private.h"

#define GRAPH_COLUMNS_MAX 512

/* Braille dot bits, by dot row (0 = top), for the left and right column. */
static const unsigned int braille_left[4] = {0x01, 0x02, 0x04, 0x40};
static const unsigned int braille_right[4] = {0x08, 0x10, 0x20, 0x80};

static void put_braille(int y, int x, unsigned int bits)
{
	unsigned int code = 0x2800 + bits;
	char utf8[4] = {(char)(0xe0 | (code >> 12)),
			(char)(0x80 | ((code >> 6) & 0x3f)),
			(char)(0x80 | (code & 0x3f)), 0};

	mvaddstr(y, x, utf8);
}

/* How many of a cell's 4 dot rows a column of height dots fills. */
static int cell_fill(int dots, int row_from_bottom)
{
	int fill = dots - 4 * row_from_bottom;

	return fill < 0 ? 0 : fill > 4 ? 4 : fill;
}

void ui_graph(struct ui *ui, const struct explorer *e, const struct rect *r,
	      const struct ui_metric *metric, enum theme_role low,
	      enum theme_role high)
{
	double column[GRAPH_COLUMNS_MAX];
	int width = r->w - 2, height = r->h - 2;
	int columns = ui->utf8 ? 2 * width : width;
	const struct explorer_point *newest = explorer_history_at(e, 0);
	const struct explorer_point *p;
	double max = 0, span_ns = EXPLORER_HISTORY_S * 1e9;
	size_t known = 0; /* points with a value */
	char name[64], brief[64], title[64 + 192 + 8], now[24] = "-", top[24];
	char value[192] = "-";

	ui_metric_name(metric, name, sizeof(name));
	if (columns > GRAPH_COLUMNS_MAX)
		columns = GRAPH_COLUMNS_MAX;
	for (int i = 0; i < columns; i++)
		column[i] = NAN;
	for (size_t age = 0; newest && (p = explorer_history_at(e, age));
	     age++) {
		double v = p->value[metric->side][metric->metric];
		int c = columns - 1 -
			(int)((double)(newest->t_ns - p->t_ns) / span_ns *
			      columns);

		if (c < 0)
			break;
		if (isnan(v))
			continue;
		known++;
		if (isnan(column[c]) || v > column[c])
			column[c] = v;
		if (v > max)
			max = v;
	}
	/* Between runs the newest reading is the last, not the current. */
	if (newest && !isnan(newest->value[metric->side][metric->metric]))
		ui_format_value(newest->value[metric->side][metric->metric],
				now, sizeof(now));
	if (!e->live.running && newest)
		snprintf(now, sizeof(now), "idle");
	ui_format_value(max, top, sizeof(top));
	if (known) {
		snprintf(value, sizeof(value), "%s, top %s", now, top);
	} else if (newest) {
		char why[sizeof(e->live.gauge[0][0].why)];

		ui_short_reason(e->live.gauge[metric->side][metric->metric].why,
				why, sizeof(why));
		snprintf(value, sizeof(value), "n/a: %s", why);
	}
	snprintf(title, sizeof(title), "%s: %s", name, value);
	/* Narrow: the side as tx or rx, then without the top. */
	snprintf(brief, sizeof(brief), "%s %s %s",
		 metrics[metric->metric].label, metrics[metric->metric].unit,
		 metric->side == SIDE_SENDER ? "tx" : "rx");
	if ((int)strlen(title) > r->w - 6)
		snprintf(title, sizeof(title), "%s: %s", brief, value);
	if ((int)strlen(title) > r->w - 6 && known)
		snprintf(title, sizeof(title), "%s: %s", brief, now);
	ui_box(ui, r, ROLE_BOX_GRAPH, title);
	if (max <= 0 || height <= 0)
		return;
	for (int row = 0; row < height; row++) {
		int from_bottom = height - 1 - row;
		enum theme_role role = from_bottom * 3 >= height * 2 ? high
				       : from_bottom * 3 >= height   ? low + 1
								     : low;

		attrset(theme_attr(role));
		for (int cell = 0; cell < width; cell++) {
			int y = r->y + 1 + row, x = r->x + 1 + cell;

			if (ui->utf8) {
				unsigned int bits = 0;

				for (int half = 0; half < 2; half++) {
					double v = column[2 * cell + half];
					int dots = isnan(v) ? 0
							    : (int)lround(
								      v / max *
								      height *
								      4);
					int fill = cell_fill(dots, from_bottom);
					const unsigned int *bit =
						half ? braille_right
						     : braille_left;

					for (int d = 0; d < fill; d++)
						bits |= bit[3 - d];
				}
				if (bits)
					put_braille(y, x, bits);
			} else {
				double v = column[cell];
				int dots = isnan(v) ? 0
						    : (int)lround(v / max *
								  height * 4);
				int fill = cell_fill(dots, from_bottom);

				if (fill)
					mvaddch(y, x, fill == 4 ? '#' : ':');
			}
		}
	}
	attrset(theme_attr(ROLE_TEXT));
}

/* In registry order: two-copy, one-copy, zero-copy, uring, uring-zc, ... */
const char ui_chart_markers[UI_CHART_SERIES + 1] = "21zuZfs";
const enum theme_role ui_chart_roles[UI_CHART_SERIES] = {
	ROLE_SENDER_HIGH,  ROLE_RECEIVER_HIGH, ROLE_HIGHLIGHT,	ROLE_SENDER_MID,
	ROLE_RECEIVER_MID, ROLE_MISC,	       ROLE_SENDER_LOW,
};

void ui_charts_init(struct ui *ui)
{
	static const enum figure_percentile percentiles[] = {
		PERCENTILE_P50, PERCENTILE_P90, PERCENTILE_P99,
		PERCENTILE_P99_9, PERCENTILE_MAX};
	size_t n = 0;

	/* The course's figures first, each quantity a chart of its own. */
	for (size_t f = 0; f < figure_count; f++) {
		const struct figure *fig = &figures[f];

		if (fig->whisker) {
			ui->chart[n] = (struct ui_chart){
				.quantity = fig->quantity[0],
				.has_whisker = true,
				.whisker = fig->quantity[1],
				.axis = fig->axis,
				.rr_only = true,
			};
			snprintf(ui->chart[n++].name, sizeof(ui->chart[0].name),
				 "Round trip p50 (to p99) us");
			continue;
		}
		for (size_t q = 0; q < fig->quantity_count; q++)
			ui->chart[n++] = (struct ui_chart){
				.quantity = fig->quantity[q],
				.axis = fig->axis,
			};
		if (fig->fallback)
			ui->chart[n++] = (struct ui_chart){
				.quantity = fig->fallback->quantity[0],
				.axis = fig->fallback->axis,
			};
	}
	/* Every other figure of the metric table, side by side. */
	for (size_t i = 0; i < ui->metric_count && n < UI_CHARTS_MAX; i++) {
		struct figure_quantity q = {
			.source = ui->metric[i].side == SIDE_SENDER
					  ? FIGURE_SENDER
					  : FIGURE_RECEIVER,
			.metric = metrics[ui->metric[i].metric].key,
			.label = metrics[ui->metric[i].metric].abbrev,
		};
		bool seen = false;

		for (size_t k = 0; k < n && !seen; k++)
			seen = ui->chart[k].quantity.source == q.source &&
			       ui->chart[k].quantity.metric &&
			       strcmp(ui->chart[k].quantity.metric, q.metric) ==
				       0;
		if (!seen)
			ui->chart[n++] = (struct ui_chart){
				.quantity = q, .axis = FIGURE_BY_SIZE};
	}
	/* The round trip's percentiles against message size. */
	for (size_t i = 0; i < sizeof(percentiles) / sizeof(*percentiles) &&
			   n < UI_CHARTS_MAX;
	     i++)
		ui->chart[n++] = (struct ui_chart){
			.quantity = {FIGURE_LATENCY, NULL, percentiles[i],
				     figure_percentile_name(percentiles[i])},
			.axis = FIGURE_BY_SIZE,
			.rr_only = true,
		};
	for (size_t i = 0; i < n; i++)
		if (!ui->chart[i].name[0])
			figure_quantity_name(&ui->chart[i].quantity,
					     ui->chart[i].name,
					     sizeof(ui->chart[i].name));
	ui->chart_count = n;
}

enum run_mode ui_chart_mode(const struct ui *ui, const struct explorer *e)
{
	if (ui->chart[ui->chart_index].rr_only)
		return RUN_RR;
	return ui->chart_mode_chosen ? ui->chart_mode : e->config.mode;
}

/*
 * The receive side the chart draws for mode: the copying one, or --rx
 * zerocopy's where every run of the mode used it (one side only: a
 * strategy's two receive sides are compared in the analysis, and would put
 * two points of a strategy at one x here).
 */
static enum rx_mode chart_rx(const struct analysis *a, enum run_mode mode)
{
	bool zerocopy = false;

	for (size_t i = 0; i < a->point_count; i++) {
		if (!a->points[i].runs || a->points[i].mode != mode)
			continue;
		if (a->points[i].rx == RX_COPY)
			return RX_COPY;
		zerocopy = true;
	}
	/* With no runs at all, the chart is the copying receivers'. */
	return zerocopy ? RX_ZEROCOPY : RX_COPY;
}

/* Whether a point is the chart's: of its mode and its receive side. */
static bool charted(const struct analysis_point *p, enum run_mode mode,
		    enum rx_mode rx)
{
	return p->runs && p->mode == mode && p->rx == rx;
}

/* The panel values the chart can show: flows, or sizes, sorted. */
static size_t chart_choices(const struct ui *ui, const struct explorer *e,
			    size_t *out, size_t most)
{
	const struct analysis *a = &e->session->analysis;
	enum run_mode mode = ui_chart_mode(ui, e);

	return figure_panel_values(a, ui->chart[ui->chart_index].axis, mode,
				   chart_rx(a, mode) == RX_COPY, out, most);
}

/*
 * The flows (by size) or the size (by flows) the chart shows now: the one
 * chosen, else the controls' if it was measured, else the first measured.
 */
static size_t chart_fixed(const struct ui *ui, const struct explorer *e)
{
	bool by_size = ui->chart[ui->chart_index].axis == FIGURE_BY_SIZE;
	size_t chosen = by_size ? ui->chart_threads : ui->chart_size;
	size_t controls = by_size ? e->config.threads : e->config.msg_size;
	size_t choice[ANALYSIS_SIZES_MAX];
	size_t n = chart_choices(ui, e, choice, ANALYSIS_SIZES_MAX);

	if (chosen)
		return chosen;
	for (size_t i = 0; i < n; i++)
		if (choice[i] == controls)
			return controls;
	return n ? choice[0] : controls;
}

void ui_chart_step(struct ui *ui, const struct explorer *e, int delta)
{
	size_t choice[ANALYSIS_SIZES_MAX];
	size_t n = chart_choices(ui, e, choice, ANALYSIS_SIZES_MAX);
	size_t now = chart_fixed(ui, e), next = now;

	if (!n) {
		snprintf(ui->note, sizeof(ui->note),
			 "the chart has no %s runs to choose from yet",
			 run_mode_name(ui_chart_mode(ui, e)));
		return;
	}
	/* The next measured value past the current one, or the first. */
	if (delta > 0) {
		next = choice[n - 1];
		for (size_t i = n; i-- > 0;)
			if (choice[i] > now)
				next = choice[i];
	} else {
		next = choice[0];
		for (size_t i = 0; i < n; i++)
			if (choice[i] < now)
				next = choice[i];
	}
	if (ui->chart[ui->chart_index].axis == FIGURE_BY_SIZE)
		ui->chart_threads = (unsigned int)next;
	else
		ui->chart_size = next;
}

/* Where value v (a size or flows) goes on the chart's x axis. */
static int chart_x(double lo, double hi, int left, int width, double v)
{
	if (hi <= lo)
		return left + width / 2;
	return left + (int)lround((log2(v) - lo) / (hi - lo) * (width - 1));
}

/*
 * The runs the chart draws, on its bottom edge: how many, how long, after
 * what warm-up, how often repeated -- theirs, not the session's options.
 */
static void chart_footer(const struct explorer *e, const struct rect *r,
			 enum run_mode mode, enum figure_axis axis,
			 size_t fixed, enum rx_mode rx)
{
	const struct figure_scope scope = {
		.mode = mode, .axis = axis, .fixed = fixed, .rx = rx};
	struct figure_runs drawn;
	char text[320];

	figure_runs_of(&e->session->analysis, e->session->results, &scope,
		       &drawn);
	figure_runs_text(&drawn, true, text, sizeof(text));
	ui_text(r->y + r->h - 1, r->x + 2, r->w - 4, ROLE_GRAPH_TEXT, " %s ",
		text);
}

void ui_chart(struct ui *ui, const struct explorer *e, const struct rect *r)
{
	const struct ui_chart *c = &ui->chart[ui->chart_index];
	const struct analysis *a = &e->session->analysis;
	const struct run_result *results = e->session->results;
	bool by_size = c->axis == FIGURE_BY_SIZE;
	enum run_mode mode = ui_chart_mode(ui, e);
	enum rx_mode rx = chart_rx(a, mode);
	size_t fixed = chart_fixed(ui, e), choice[ANALYSIS_SIZES_MAX];
	size_t choices = chart_choices(ui, e, choice, ANALYSIS_SIZES_MAX);
	double lo = INFINITY, hi = -INFINITY, max = 0;
	int left = r->x + 9, bottom = r->y + r->h - 3;
	int plot_w = r->w - 13, plot_h = r->h - 5;
	int x_left = left, x_width = plot_w - 6;
	char title[192], label[24], where[32];
	struct figure_stat stat, top;

	if (by_size)
		snprintf(where, sizeof(where), "%zu flow%s", fixed,
			 fixed == 1 ? "" : "s");
	else
		ui_format_size(fixed, where, sizeof(where));
	snprintf(title, sizeof(title), "%s vs %s, %s%s, %s (m [ ] r)", c->name,
		 by_size ? "size" : "flows", run_mode_name(mode),
		 rx == RX_ZEROCOPY ? " rx-zc" : "", where);
	ui_box(ui, r, ROLE_BOX_GRAPH, title);
	for (size_t i = 0; i < a->point_count; i++) {
		const struct analysis_point *p = &a->points[i];
		double x = by_size ? (double)p->msg_size : p->threads;

		if (!charted(p, mode, rx) ||
		    (by_size ? p->threads : p->msg_size) != fixed ||
		    !figure_point_value(&c->quantity, a, results, p, &stat))
			continue;
		lo = fmin(lo, log2(x));
		hi = fmax(hi, log2(x));
		max = fmax(max, stat.median);
		if (c->has_whisker &&
		    figure_point_value(&c->whisker, a, results, p, &top))
			max = fmax(max, top.median);
	}
	if (plot_w < 10 || plot_h < 2) {
		ui_say(r, 1, ROLE_INACTIVE,
		       "Too little room to draw the chart: a taller "
		       "terminal shows it.");
		return;
	}
	if (!(max > 0)) {
		char have[96] = "";
		bool valued = false;

		for (size_t i = 0, len = 0; i < choices && len < sizeof(have);
		     i++) {
			char v[24];

			if (by_size)
				snprintf(v, sizeof(v), "%zu", choice[i]);
			else
				ui_format_size(choice[i], v, sizeof(v));
			len += (size_t)snprintf(have + len, sizeof(have) - len,
						"%s%s", i ? ", " : "", v);
		}
		/* A figure no run has (a counter that cannot count here). */
		for (size_t i = 0; i < a->point_count && !valued; i++)
			valued = charted(&a->points[i], mode, rx) &&
				 figure_point_value(&c->quantity, a, results,
						    &a->points[i], &stat);
		if (choices && !valued)
			ui_say(r, 2, ROLE_INACTIVE,
			       "No run has a value of %s: it is n/a in every "
			       "run (compare, 3, says why); m picks another "
			       "figure.",
			       c->name);
		else if (choices)
			ui_say(r, 2, ROLE_INACTIVE,
			       "Nothing to draw here: [ and ] choose among "
			       "the %s measured: %s.",
			       by_size ? "flows" : "sizes", have);
		else if (e->config.mode == mode)
			ui_say(r, 2, ROLE_INACTIVE,
			       "No finished %s runs yet%s: w sweeps the "
			       "strategies over the sizes; r shows %s runs.",
			       run_mode_name(mode),
			       a->short_runs ? " (short ones are left out)"
					     : "",
			       mode == RUN_RR ? "stream" : "rr");
		else
			ui_say(r, 2, ROLE_INACTIVE,
			       "No finished %s runs yet%s: set the Mode "
			       "control to %s, then w sweeps the strategies "
			       "over the sizes; r shows %s runs.",
			       run_mode_name(mode),
			       a->short_runs ? " (short ones are left out)"
					     : "",
			       run_mode_name(mode),
			       mode == RUN_RR ? "stream" : "rr");
		return;
	}
	/* The legend: the strategies this chart has points of. */
	for (size_t s = 0, x = (size_t)r->x + 2; s < strategy_count(); s++) {
		bool present = false;

		for (size_t i = 0; i < a->point_count && !present; i++) {
			const struct analysis_point *p = &a->points[i];

			present = charted(p, mode, rx) &&
				  p->strategy == strategy_at(s) &&
				  (by_size ? p->threads : p->msg_size) ==
					  fixed &&
				  figure_point_value(&c->quantity, a, results,
						     p, &stat);
		}
		if (!present)
			continue;
		/* Inside the frame: a name that does not fit is cut. */
		if ((int)x + 3 > r->x + r->w - 2)
			break;
		ui_text(r->y + 1, (int)x, r->x + r->w - 2 - (int)x,
			ui_chart_roles[s % UI_CHART_SERIES], "%c %s",
			ui_chart_markers[s % UI_CHART_SERIES],
			strategy_at(s)->name);
		x += strlen(strategy_at(s)->name) + 4;
	}
	ui_format_value(max, label, sizeof(label));
	ui_text(bottom - plot_h + 1, r->x + 1, 8, ROLE_GRAPH_TEXT, "%7s",
		label);
	ui_text(bottom, r->x + 1, 8, ROLE_GRAPH_TEXT, "%7s", "0");
	if (plot_h >= 5) {
		ui_format_value(max / 2, label, sizeof(label));
		ui_text(bottom - (int)lround((plot_h - 1) / 2.0), r->x + 1, 8,
			ROLE_GRAPH_TEXT, "%7s", label);
	}
	attrset(theme_attr(ROLE_METER_BG));
	ui_line(ui, bottom - plot_h + 1, left - 1, plot_h, true);
	ui_line(ui, bottom + 1, left, plot_w, false);
	/* Whisker charts set strategies side by side: a column each way. */
	if (c->has_whisker) {
		x_left = left + 1;
		x_width = plot_w - 8;
	}
	/* x labels at the measured values, as many as fit. */
	for (int e2 = (int)ceil(lo), last_end = -1; e2 <= (int)floor(hi);
	     e2++) {
		double v = exp2(e2);
		int x = chart_x(lo, hi, x_left, x_width, v);

		if (by_size)
			ui_format_size((size_t)v, label, sizeof(label));
		else
			snprintf(label, sizeof(label), "%.0f", v);
		if (x <= last_end)
			continue;
		ui_text(bottom + 1, x, 8, ROLE_GRAPH_TEXT, "%s", label);
		last_end = x + (int)strlen(label);
	}
	chart_footer(e, r, mode, c->axis, fixed, rx);
	for (size_t s = 0; s < strategy_count(); s++) {
		enum theme_role role = ui_chart_roles[s % UI_CHART_SERIES];
		int px = -1, py = -1;

		/* The strategy's points in x order, joined by dots. */
		for (double last = 0;;) {
			const struct analysis_point *next = NULL;
			double best = INFINITY;
			int x, y;

			for (size_t i = 0; i < a->point_count; i++) {
				const struct analysis_point *p = &a->points[i];
				double v = by_size ? (double)p->msg_size
						   : p->threads;

				if (charted(p, mode, rx) &&
				    p->strategy == strategy_at(s) &&
				    (by_size ? p->threads : p->msg_size) ==
					    fixed &&
				    v > last && v < best) {
					best = v;
					next = p;
				}
			}
			if (!next)
				break;
			last = best;
			if (!figure_point_value(&c->quantity, a, results, next,
						&stat))
				continue;
			x = chart_x(lo, hi, x_left, x_width, best);
			/* Side by side where every strategy shares an x. */
			if (c->has_whisker)
				x += (int)(s % 3) - 1;
			y = bottom -
			    (int)lround(stat.median / max * (plot_h - 1));
			attrset(theme_attr(role));
			for (int step = 1; px >= 0 && step < x - px; step++)
				mvaddch(py + (y - py) * step / (x - px),
					px + step, '.');
			/* The round trip's whisker, up to its p99. */
			if (c->has_whisker &&
			    figure_point_value(&c->whisker, a, results, next,
					       &top)) {
				int y99 = bottom -
					  (int)lround(top.median / max *
						      (plot_h - 1));

				for (int k = y99; k < y; k++)
					mvaddstr(k, x,
						 k == y99   ? "-"
						 : ui->utf8 ? "\u2502"
							    : "|");
			}
			mvaddch(y, x,
				(chtype)ui_chart_markers[s % UI_CHART_SERIES] |
					A_BOLD);
			px = x;
			py = y;
		}
	}
	attrset(theme_attr(ROLE_TEXT));
}
