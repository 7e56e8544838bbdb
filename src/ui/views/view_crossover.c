/*
 * The crossover view: the search for the size where one strategy
 * overtakes another (nio-top(1) CROSSOVER) as it runs -- the sizes tried
 * on a ruler in log size with the bracket narrowing, each size's runs,
 * ratio, interval and lead, the time left of its budget -- and the keys
 * that start one: the controls' strategy against another, on a figure.
 * A search read from an export shows the same way.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "clock.h"
#include "crossover.h"
#include "status.h"
#include "view.h"

/* The figures m steps through: the session's or the mode's, then CPU. */
static const char *const metric_keys[] = {
	"",
	"cpu_ns_per_kib.sender",
	"cpu_ns_per_kib.receiver",
};
#define METRIC_KEYS (sizeof(metric_keys) / sizeof(*metric_keys))

struct crossover_view {
	size_t other;  /* the strategy against the controls', its index */
	size_t metric; /* of metric_keys */
	size_t scroll, page;
	bool frozen; /* copy holds the search as the screen froze it */
	struct crossover copy;
};

static void *crossover_open_view(struct ui *ui)
{
	(void)ui;
	return calloc(1, sizeof(struct crossover_view));
}

static void crossover_close_view(void *state)
{
	struct crossover_view *v = state;

	if (v && v->frozen)
		crossover_fini(&v->copy);
	free(v);
}

/*
 * The controls' strategy, the search's side a: during a search the one
 * they come back to, not the run's.
 */
static const struct strategy_ops *home(const struct explorer *e)
{
	return explorer_searching(e) ? e->before_sweep.strategy
				     : e->config.strategy;
}

/* Whether strategy i may be the other side: here, not the controls'. */
static bool other_fits(const struct explorer *e, size_t i)
{
	return i < EXPLORER_STRATEGIES_MAX && e->strategy_available[i] &&
	       strategy_at(i) != home(e);
}

/*
 * The other side delta strategies on (wrapping round), past those that do
 * not fit; delta 0 keeps it where it fits.
 */
static void other_step(struct crossover_view *v, const struct explorer *e,
		       int delta)
{
	size_t n = strategy_count() < EXPLORER_STRATEGIES_MAX
			   ? strategy_count()
			   : EXPLORER_STRATEGIES_MAX;

	if (!delta && other_fits(e, v->other))
		return;
	for (size_t i = 0; i < n; i++) {
		v->other = (v->other + (delta < 0 ? n - 1 : 1)) % n;
		if (other_fits(e, v->other))
			return;
	}
}

/* What m chose, for people: "Gbit/s", "CPU per KiB, sender". */
static void metric_name(const struct crossover_view *v,
			const struct explorer *e, char *out, size_t size)
{
	const char *key = metric_keys[v->metric];

	if (!key[0])
		key = e->session->options.crossover_metric;
	if (!key[0])
		snprintf(out, size, "%s",
			 e->config.mode == RUN_RR ? "the p50 round trip"
						  : "Gbit/s");
	else if (strncmp(key, "cpu_ns_per_kib.", 15) == 0)
		snprintf(out, size, "CPU per KiB, %s", key + 15);
	else
		snprintf(out, size, "%s", key);
}

/*
 * How to start a search, and what it would compare; where the controls
 * are when they do not show beside it.
 */
static void hint(const struct ui *ui, const struct crossover_view *v,
		 const struct explorer *e, int width, struct ui_lines *l)
{
	const struct options *o = &e->session->options;
	char figure[64], text[512];

	metric_name(v, e, figure, sizeof(figure));
	snprintf(text, sizeof(text),
		 "F5 or w here searches where %s overtakes %s, or %s overtakes "
		 "%s, from %s to %s on %s, within %.0f s. Left and Right pick "
		 "the other strategy, m the figure; the controls%s set the "
		 "rest, + and - stepping the one Tab highlights.",
		 strategy_at(v->other)->name, home(e)->name, home(e)->name,
		 strategy_at(v->other)->name,
		 o->msg_size_count > 1 ? "-m's smallest" : "1 KiB",
		 o->msg_size_count > 1 ? "its largest" : "1 MiB", figure,
		 (double)(o->crossover_budget_ms ? o->crossover_budget_ms
						 : 300000) /
			 1000,
		 ui->controls.h ? "" : " (view 1)");
	ui_lines_wrap(l, ROLE_INACTIVE, width, 0, text);
}

/* Where the search is: running and its time, or why it stopped. */
static void where(const struct crossover *x, bool live, int width,
		  struct ui_lines *l)
{
	char status[CROSSOVER_TEXT_MAX], text[2 * CROSSOVER_TEXT_MAX + 64];
	double left = crossover_left_s(x, live ? clock_now_ns() : 0);

	crossover_status(x, status, sizeof(status));
	if (x->state == CROSSOVER_SEARCHING)
		snprintf(text, sizeof(text),
			 "searching, %d:%02d of the budget left: %s",
			 (int)left / 60, (int)left % 60, status);
	else
		snprintf(text, sizeof(text), "ended: %s; %s", x->why, status);
	ui_lines_wrap(l,
		      x->state == CROSSOVER_SEARCHING ? ROLE_TEXT : ROLE_MISC,
		      width, 0, text);
}

/* A size's row: "> 8 KiB  3+2  1.61  1.05 .. 2.46  sendfile ahead". */
static void size_row(const struct crossover *x, const struct crossover_size *z,
		     struct ui_lines *l)
{
	char size[24], lead[128], interval[48] = "-", ratio[16] = "-";
	bool running = x->asked && x->asked_size == z->msg_size;

	crossover_size_text(z->msg_size, size, sizeof(size));
	if (running && z->lead == LEAD_PENDING)
		snprintf(lead, sizeof(lead), "running");
	else
		crossover_lead_text(x, z->lead, lead, sizeof(lead));
	if (isfinite(z->difference.ratio))
		snprintf(ratio, sizeof(ratio), "%#.3g", z->difference.ratio);
	if (isfinite(z->difference.low))
		snprintf(interval, sizeof(interval), "%#.3g .. %#.3g",
			 z->difference.low, z->difference.high);
	ui_lines_add(l,
		     z->lead == LEAD_A	 ? ROLE_SENDER_MID
		     : z->lead == LEAD_B ? ROLE_RECEIVER_MID
		     : running		 ? ROLE_HIGHLIGHT
					 : ROLE_TEXT,
		     0, "%s%9s  %2zu+%-2zu%s %6s  %-15s %s",
		     running ? ">" : " ", size, z->runs[0], z->runs[1],
		     z->failed ? "!" : " ", ratio, interval, lead);
}

/* A size on the ruler, by its lead (crossover_lead's order). */
static const char ruler_marks[LEAD_COUNT] = {
	[LEAD_PENDING] = 'o', [LEAD_A] = 'a',	      [LEAD_B] = 'b',
	[LEAD_EQUAL] = '=',   [LEAD_UNDECIDED] = '?', [LEAD_FAILED] = 'x',
};

/* The ruler's cell of a size, of width cells. */
static int ruler_cell(const struct crossover *x, size_t bytes, int width)
{
	double lo = log2((double)x->question.min_size);
	double hi = log2((double)x->question.max_size);

	return (int)lround((log2((double)bytes) - lo) / (hi - lo) *
			   (width - 1));
}

/*
 * The sizes tried on a line in log size at row y, from x0, width wide:
 * "1 KiB |a....a.a=?b......b| 1 MiB", each bracket drawn with -.
 */
static void ruler(const struct crossover *x, int y, int x0, int width)
{
	char lo[24], hi[24];
	int inner;

	crossover_size_text(x->question.min_size, lo, sizeof(lo));
	crossover_size_text(x->question.max_size, hi, sizeof(hi));
	inner = width - (int)strlen(lo) - (int)strlen(hi) - 4;
	if (inner < 8)
		return;
	ui_text(y, x0, width, ROLE_INACTIVE, "%s |%*s| %s", lo, inner, "", hi);
	x0 += (int)strlen(lo) + 2;
	for (int c = 0; c < inner; c++)
		ui_text(y, x0 + c, 1, ROLE_INACTIVE, ".");
	for (size_t i = 0; i < x->bracket_count; i++) {
		int a = ruler_cell(x, x->bracket[i].below, inner);
		int b = ruler_cell(x, x->bracket[i].above, inner);

		for (int c = a; c <= b; c++)
			ui_text(y, x0 + c, 1, ROLE_HIGHLIGHT, "-");
	}
	for (size_t i = 0; i < x->size_count; i++) {
		const struct crossover_size *z = &x->size[i];
		bool running = x->asked && x->asked_size == z->msg_size;

		ui_text(y, x0 + ruler_cell(x, z->msg_size, inner), 1,
			running		    ? ROLE_HIGHLIGHT
			: z->lead == LEAD_A ? ROLE_SENDER_HIGH
			: z->lead == LEAD_B ? ROLE_RECEIVER_HIGH
					    : ROLE_TEXT,
			"%c", running ? '*' : ruler_marks[z->lead]);
	}
}

/* The search on screen: its frozen copy while the screen is frozen. */
static const struct crossover *shown(struct ui *ui, struct crossover_view *v,
				     const struct explorer *e)
{
	const struct crossover *x = e->session->crossover;

	if (!ui->frozen && v->frozen) {
		crossover_fini(&v->copy);
		v->frozen = false;
	}
	if (ui->frozen && x && !v->frozen)
		v->frozen = crossover_copy(&v->copy, x) == 0;
	return v->frozen ? &v->copy : x;
}

/*
 * The search's runs measured on a busy host, as the analysis names them,
 * with their side and size: "run 51 (sendfile, 672 KiB): 22% steal; ..."
 * ("" if none, or its runs not here).
 */
static void busy_runs(const struct crossover *x, const struct session *s,
		      char *out, size_t size)
{
	struct analysis_busy_list l;

	analysis_busy_start(&l, out, size);
	for (size_t i = 0; i < x->run_count; i++) {
		size_t n = x->run[i].number;
		char at[24], about[128];

		if (!n || n > s->result_count)
			continue;
		crossover_size_text(x->run[i].msg_size, at, sizeof(at));
		snprintf(about, sizeof(about), "%s, %s",
			 x->label[x->run[i].side == 1], at);
		analysis_busy_add(&l, &s->results[n - 1], n, about);
	}
	analysis_busy_end(&l);
}

/* Lines of a search: what it compares, where it is, its sizes, its line. */
static size_t search_lines(const struct crossover *x, const struct session *s,
			   bool live, int width, struct ui_lines *l)
{
	char busy[400];
	char text[CROSSOVER_TEXT_MAX + 128];
	size_t ruler_at;

	snprintf(text, sizeof(text), "%s; on %s, %s is better", x->context,
		 x->metric_label,
		 x->question.higher_is_better ? "higher" : "lower");
	ui_lines_wrap(l, ROLE_TEXT, width, 0, text);
	where(x, live, width, l);
	ruler_at = l->count;
	ui_lines_add(l, ROLE_INACTIVE, 0, " ");
	snprintf(
		text, sizeof(text),
		"a: %s ahead, b: %s ahead, =: equal, ?: undecided, o: pending, "
		"x: failed, *: running, -: a bracket",
		x->label[0], x->label[1]);
	ui_lines_wrap(l, ROLE_INACTIVE, width, 0, text);
	ui_lines_add(l, ROLE_TITLE, 0, " %9s  %-6s %6s  %-15s %s", "size",
		     "a+b", "ratio", "90% interval", "lead");
	l->fixed = l->count;
	for (size_t i = 0; i < x->size_count; i++)
		size_row(x, &x->size[i], l);
	busy_runs(x, s, busy, sizeof(busy));
	if (busy[0]) {
		snprintf(text, sizeof(text), "Measured on a busy host: %s",
			 busy);
		ui_lines_wrap(l, ROLE_SENDER_HIGH, width, 2, text);
	}
	crossover_line(x, text, sizeof(text));
	ui_lines_wrap(l, ROLE_HIGHLIGHT, width, 0, text);
	return ruler_at;
}

static void crossover_draw(struct ui *ui, void *state, const struct explorer *e,
			   const struct rect *r)
{
	struct crossover_view *v = state;
	const struct crossover *x = shown(ui, v, e);
	struct ui_lines l = {0};
	int width = r->w - 4;
	size_t ruler_at = SIZE_MAX;
	char title[240];

	other_step(v, e, 0);
	if (x)
		snprintf(title, sizeof(title), "Crossover: %s against %s",
			 x->label[1], x->label[0]);
	else
		snprintf(title, sizeof(title), "Crossover: no search yet");
	ui_box(ui->utf8, r, ROLE_BOX_HISTORY, title);
	if (x)
		ruler_at = search_lines(x, e->session, !v->frozen, width, &l);
	if (!e->viewing && !explorer_searching(e))
		hint(ui, v, e, width, &l);
	if (!x && e->viewing)
		ui_lines_wrap(&l, ROLE_INACTIVE, width, 0,
			      "The export holds no crossover search.");
	v->page = ui_lines_draw(ui->utf8, &l, r, &v->scroll);
	if (ruler_at < l.fixed && (int)ruler_at < r->h - 2)
		ruler(x, r->y + 1 + (int)ruler_at, r->x + 2, width);
	ui_lines_free(&l);
}

static bool crossover_key(struct ui *ui, void *state, const struct explorer *e,
			  int key, struct ui_commands *out)
{
	struct crossover_view *v = state;
	size_t before = out->count;
	char figure[64];

	switch (key) {
	case KEY_LEFT:
	case KEY_RIGHT:
		other_step(v, e, key == KEY_LEFT ? -1 : 1);
		ui_note(ui, "crossover: %s%s against %s%s",
			explorer_searching(e) ? "the next search pits " : "",
			strategy_at(v->other)->name, home(e)->name,
			explorer_searching(e)
				? " (this one goes on as it began)"
				: "");
		return true;
	case 'm':
		v->metric = (v->metric + 1) % METRIC_KEYS;
		metric_name(v, e, figure, sizeof(figure));
		if (explorer_searching(e))
			ui_note(ui,
				"crossover: the next search is on %s (this "
				"one goes on as it began)",
				figure);
		else
			ui_note(ui, "crossover: on %s", figure);
		return true;
	case KEY_F(5):
	case 'w':
		ui_change(ui, e, key, out, UI_CROSSOVER, (int)v->other);
		if (out->count > before)
			snprintf(out->cmd[before].text,
				 sizeof(out->cmd[before].text), "%s",
				 metric_keys[v->metric]);
		else if (ui->prompt == PROMPT_CHANGE)
			snprintf(ui->pending.text, sizeof(ui->pending.text),
				 "%s", metric_keys[v->metric]);
		return true;
	default:
		return ui_scroll_key(key, &v->scroll, v->page);
	}
}

const struct ui_view ui_view_crossover = {
	.name = "crossover",
	.shortcut = '6',
	.bar = "<-> vs  m figure",
	.sweep_bar = "Search",
	.keys =
		{
			{"Left Right", "the strategy against the controls'"},
			{"m", "the figure: the mode's (or --metric), CPU per "
			      "KiB of the sender, of the receiver"},
			{"F5 w", "search where either overtakes the other "
				 "(the controls come back after it)"},
			{"Up Down PgUp PgDn Home End", "scroll the sizes"},
		},
	.open = crossover_open_view,
	.close = crossover_close_view,
	.draw = crossover_draw,
	.key = crossover_key,
};
