/*
 * The live view: two graphs of the last minute -- the delivered throughput,
 * and a figure m chooses -- and, where there is room, the runs table below
 * them, whose keys then work here too.
 */
#include <stdlib.h>

#include "graph.h"
#include "measures.h"
#include "status.h"
#include "table.h"
#include "view.h"

struct live {
	size_t metric; /* the right graph's: an index of ui->metric[] */
};

static void *live_open(struct ui *ui)
{
	struct live *l = calloc(1, sizeof(*l));

	/* Beside the delivered throughput: what it cost the sender. */
	for (size_t i = 0; l && i < ui->metric_count; i++)
		if (ui->metric[i].metric == (size_t)metric_find("cpu_pct") &&
		    ui->metric[i].side == SIDE_SENDER)
			l->metric = i;
	return l;
}

static void live_close(void *state)
{
	free(state);
}

static void live_draw(struct ui *ui, void *state, const struct explorer *e,
		      const struct rect *area)
{
	struct live *l = state;
	struct rect graphs = *area, runs = *area, left, right;
	const struct ui_metric *m = &ui->metric[l->metric];
	enum ui_graph_title form, right_form;

	if (area->h >= 11) {
		graphs.h = area->h / 2 > 5 ? area->h / 2 : 5;
		runs.y = area->y + graphs.h;
		runs.h = area->h - graphs.h;
		ui_runs_draw(ui, e, &runs);
	}
	left = right = graphs;
	left.w = ui->cols / 2;
	right.x = left.w;
	right.w = ui->cols - left.w;
	/* Side by side, both titles say as much as the narrower can. */
	form = ui_graph_title_fit(e, &left, &ui->metric[0]);
	right_form = ui_graph_title_fit(e, &right, m);
	if (right_form > form)
		form = right_form;
	ui_graph(ui, e, &left, &ui->metric[0], form);
	ui_graph(ui, e, &right, m, form);
}

/* m, M: the next figure that has a value anywhere (none without a PMU). */
static void live_step_metric(struct ui *ui, struct live *l,
			     const struct explorer *e, int delta)
{
	size_t n = ui->metric_count;
	char name[64];

	for (size_t tries = 0; tries < n; tries++) {
		l->metric = (l->metric + (delta > 0 ? 1 : n - 1)) % n;
		if (ui_metric_known(e, &ui->metric[l->metric]))
			break;
	}
	ui_metric_name(&ui->metric[l->metric], name, sizeof(name));
	ui_note(ui, "graph: %s (m next, M previous)", name);
}

static bool live_key(struct ui *ui, void *state, const struct explorer *e,
		     int key, struct ui_commands *out)
{
	(void)out;
	if (key == 'm' || key == 'M') {
		live_step_metric(ui, state, e, key == 'm' ? 1 : -1);
		return true;
	}
	return ui->runs.at.h && ui_runs_key(ui, e, key, false);
}

const struct ui_view ui_view_live = {
	.name = "live",
	.shortcut = '1',
	.bar = "m graph",
	.keys =
		{
			{"m M", "the next or previous figure in the right "
				"graph (those n/a everywhere are skipped)"},
		},
	.open = live_open,
	.close = live_close,
	.draw = live_draw,
	.key = live_key,
};
