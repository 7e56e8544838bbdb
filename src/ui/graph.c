/*
 * Graphs: the last minute of one metric in braille (2 x 4 dots a cell, as
 * btop draws them; '#' and ':' without UTF-8), and the chart of a metric
 * against message size per strategy, built from the run history.
 */
#include <math.h>
#include <stdio.h>
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
	char name[64], title[160], now[24] = "-", top[24];

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
		if (isnan(column[c]) || v > column[c])
			column[c] = v;
		if (v > max)
			max = v;
	}
	if (newest && !isnan(newest->value[metric->side][metric->metric]))
		ui_format_value(newest->value[metric->side][metric->metric],
				now, sizeof(now));
	ui_format_value(max, top, sizeof(top));
	snprintf(title, sizeof(title), "%s: %s, top %s", name, now, top);
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

static const char chart_markers[] = "21zuZ";
static const enum theme_role chart_roles[] = {
	ROLE_SENDER_HIGH, ROLE_RECEIVER_HIGH, ROLE_HIGHLIGHT,
	ROLE_SENDER_MID,  ROLE_RECEIVER_MID,
};

/* The latest result of strategy i at size for threads, or NaN. */
static double chart_value(const struct explorer *e, size_t strategy,
			  size_t size, unsigned int threads,
			  const struct ui_metric *metric)
{
	for (size_t k = e->session->result_count; k-- > 0;) {
		const struct run_result *r = &e->session->results[k];
		double v;

		if (r->config.strategy == strategy_at(strategy) &&
		    r->config.msg_size == size &&
		    r->config.threads == threads && !r->error &&
		    run_result_metric(r, metric->side == SIDE_SENDER,
				      metric->metric, &v))
			return v;
	}
	return NAN;
}

void ui_chart(struct ui *ui, const struct explorer *e, const struct rect *r,
	      const struct ui_metric *metric)
{
	unsigned int threads = e->config.threads;
	size_t first = explorer_size_count, last = 0;
	double max = 0;
	int left = r->x + 9, bottom = r->y + r->h - 3;
	int plot_w = r->w - 12, plot_h = r->h - 5;
	char name[64], title[160], label[24];

	ui_metric_name(metric, name, sizeof(name));
	snprintf(title, sizeof(title),
		 "%s vs message size, %u thread%s (m: "
		 "metric; S sweeps)",
		 name, threads, threads == 1 ? "" : "s");
	ui_box(ui, r, ROLE_BOX_GRAPH, title);
	for (size_t s = 0; s < strategy_count(); s++)
		for (size_t z = 0; z < explorer_size_count; z++) {
			double v = chart_value(e, s, explorer_sizes[z], threads,
					       metric);

			if (isnan(v))
				continue;
			first = z < first ? z : first;
			last = z > last ? z : last;
			max = v > max ? v : max;
		}
	if (first > last || max <= 0 || plot_w < 10 || plot_h < 2) {
		ui_text(r->y + 2, r->x + 3, r->w - 6, ROLE_INACTIVE,
			"No finished runs with %u thread%s yet: S runs a sweep "
			"that fills this chart.",
			threads, threads == 1 ? "" : "s");
		return;
	}
	for (size_t s = 0, x = (size_t)r->x + 2; s < strategy_count(); s++) {
		ui_text(r->y + 1, (int)x, 16, chart_roles[s % 5], "%c %s",
			chart_markers[s % 5], strategy_at(s)->name);
		x += strlen(strategy_at(s)->name) + 4;
	}
	ui_format_value(max, label, sizeof(label));
	ui_text(bottom - plot_h + 1, r->x + 1, 8, ROLE_GRAPH_TEXT, "%7s",
		label);
	ui_text(bottom, r->x + 1, 8, ROLE_GRAPH_TEXT, "%7s", "0");
	attrset(theme_attr(ROLE_METER_BG));
	ui_line(ui, bottom - plot_h + 1, left - 1, plot_h, true);
	ui_line(ui, bottom + 1, left, plot_w, false);
	for (size_t z = first; z <= last; z++) {
		int x = last == first ? left + plot_w / 2
				      : left + (int)((z - first) *
						     (size_t)(plot_w - 6) /
						     (last - first));

		ui_format_size(explorer_sizes[z], label, sizeof(label));
		if (z == first || z == last || (z - first) % 2 == 0)
			ui_text(bottom + 1, x, 8, ROLE_GRAPH_TEXT, "%s", label);
	}
	for (size_t s = 0; s < strategy_count(); s++) {
		int px = -1, py = -1;

		for (size_t z = first; z <= last; z++) {
			double v = chart_value(e, s, explorer_sizes[z], threads,
					       metric);
			int x, y;

			if (isnan(v))
				continue;
			x = last == first ? left + plot_w / 2
					  : left + (int)((z - first) *
							 (size_t)(plot_w - 6) /
							 (last - first));
			y = bottom - (int)lround(v / max * (plot_h - 1));
			attrset(theme_attr(chart_roles[s % 5]));
			/* A dotted line from the previous point. */
			for (int step = 1; px >= 0 && step < x - px; step++)
				mvaddch(py + (y - py) * step / (x - px),
					px + step, '.');
			mvaddch(y, x, (chtype)chart_markers[s % 5] | A_BOLD);
			px = x;
			py = y;
		}
	}
	attrset(theme_attr(ROLE_TEXT));
}
