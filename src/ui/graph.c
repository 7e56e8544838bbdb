/*
 * The graph.  Each column of dots is the largest value of the refreshes
 * that fall in it, so a short peak is never averaged away.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "graph.h"
#include "measures.h"

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

/*
 * The minute of metric in columns (NaN where nothing was read): how many
 * readings had a value, and their largest in *max.
 */
static size_t graph_columns(const struct explorer *e,
			    const struct ui_metric *metric, double *column,
			    int columns, double *max)
{
	const struct explorer_point *newest = explorer_history_at(e, 0);
	const struct explorer_point *p;
	double span_ns = EXPLORER_HISTORY_S * 1e9;
	size_t known = 0;

	*max = 0;
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
		if (v > *max)
			*max = v;
	}
	return known;
}

/* The title in form, from the values: "CPU % (sender): 99.8, top 99.9". */
static void graph_title(const struct explorer *e,
			const struct ui_metric *metric,
			enum ui_graph_title form, char *out, size_t size)
{
	const struct explorer_point *newest = explorer_history_at(e, 0);
	const struct metric *m = &metrics[metric->metric];
	double column[GRAPH_COLUMNS_MAX], max;
	size_t known = graph_columns(e, metric, column, 1, &max);
	char name[64], now[24] = "-", top[24], value[192] = "-";

	if (form == GRAPH_TITLE_FULL)
		ui_metric_name(metric, name, sizeof(name));
	else
		snprintf(name, sizeof(name), "%s %s %s", m->label, m->unit,
			 metric->side == SIDE_SENDER ? "tx" : "rx");
	/* Between runs the newest reading is the last, not the current. */
	if (newest && !isnan(newest->value[metric->side][metric->metric]))
		ui_format_value(newest->value[metric->side][metric->metric],
				now, sizeof(now));
	if (!e->live.running && newest)
		snprintf(now, sizeof(now), "idle");
	ui_format_value(max, top, sizeof(top));
	if (known && form != GRAPH_TITLE_NOW) {
		snprintf(value, sizeof(value), "%s, top %s", now, top);
	} else if (known) {
		snprintf(value, sizeof(value), "%s", now);
	} else if (newest && form == GRAPH_TITLE_NOW) {
		snprintf(value, sizeof(value), "n/a (the gauges say why)");
	} else if (newest) {
		char why[sizeof(e->live.gauge[0][0].why)];

		ui_short_reason(e->live.gauge[metric->side][metric->metric].why,
				why, sizeof(why));
		snprintf(value, sizeof(value), "n/a: %s", why);
	}
	snprintf(out, size, "%s: %s", name, value);
}

enum ui_graph_title ui_graph_title_fit(const struct explorer *e,
				       const struct rect *r,
				       const struct ui_metric *metric)
{
	char title[300];
	int form;

	for (form = GRAPH_TITLE_FULL; form < GRAPH_TITLE_NOW; form++) {
		graph_title(e, metric, (enum ui_graph_title)form, title,
			    sizeof(title));
		if (ui_width(title) <= r->w - 6)
			break;
	}
	return (enum ui_graph_title)form;
}

/* One row of cells, dot columns from the columns, in role. */
static void graph_row(const struct ui *ui, const struct rect *r,
		      const double *column, double max, int row)
{
	int height = r->h - 2, from_bottom = height - 1 - row;

	for (int cell = 0; cell < r->w - 2; cell++) {
		int y = r->y + 1 + row, x = r->x + 1 + cell;
		unsigned int bits = 0;

		for (int half = 0; half < (ui->utf8 ? 2 : 1); half++) {
			double v = column[(ui->utf8 ? 2 : 1) * cell + half];
			int dots = isnan(v) ? 0
					    : (int)lround(v / max * height * 4);
			int fill = cell_fill(dots, from_bottom);
			const unsigned int *bit = half ? braille_right
						       : braille_left;

			for (int d = 0; d < fill && ui->utf8; d++)
				bits |= bit[3 - d];
			if (!ui->utf8 && fill)
				mvaddch(y, x, fill == 4 ? '#' : ':');
		}
		if (bits)
			put_braille(y, x, bits);
	}
}

void ui_graph(const struct ui *ui, const struct explorer *e,
	      const struct rect *r, const struct ui_metric *metric,
	      enum ui_graph_title form)
{
	double column[GRAPH_COLUMNS_MAX], max;
	int height = r->h - 2, columns = ui->utf8 ? 2 * (r->w - 2) : r->w - 2;
	enum theme_role low = metric->side == SIDE_SENDER ? ROLE_SENDER_LOW
							  : ROLE_RECEIVER_LOW;
	char title[300];

	if (columns > GRAPH_COLUMNS_MAX)
		columns = GRAPH_COLUMNS_MAX;
	graph_columns(e, metric, column, columns, &max);
	graph_title(e, metric, form, title, sizeof(title));
	ui_box(ui->utf8, r, ROLE_BOX_GRAPH, title);
	if (max <= 0 || height <= 0)
		return;
	for (int row = 0; row < height; row++) {
		int from_bottom = height - 1 - row;

		/* Low, middle and high thirds in the side's three colours. */
		attrset(theme_attr(from_bottom * 3 >= height * 2 ? low + 2
				   : from_bottom * 3 >= height	 ? low + 1
								 : low));
		graph_row(ui, r, column, max, row);
	}
	attrset(theme_attr(ROLE_TEXT));
}
