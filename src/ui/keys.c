/*
 * The keys: the key table below is the one list of them -- the input handler
 * looks keys up in it, and the help, the key bar and nio-top(1)'s list are
 * printed from it.  Handlers change only the UI's own state (views, the
 * selection, sorting, freezing, questions on the status line); what changes
 * the engine goes back to the main loop as a command.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "ui_private.h"

enum ui_action {
	ACT_NEXT_CONTROL,
	ACT_PREV_CONTROL,
	ACT_UP,
	ACT_DOWN,
	ACT_DECREASE,
	ACT_INCREASE,
	ACT_TOGGLE,
	ACT_SWEEP,
	ACT_SAVE_PRESET,
	ACT_PRESETS,
	ACT_RUN_UP,
	ACT_RUN_DOWN,
	ACT_PAGE_UP,
	ACT_PAGE_DOWN,
	ACT_HOME,
	ACT_END,
	ACT_MARK,
	ACT_SORT_NEXT,
	ACT_SORT_PREV,
	ACT_SORT_INVERT,
	ACT_FILTER,
	ACT_VIEW,
	ACT_VIEW_NEXT,
	ACT_METRIC_NEXT,
	ACT_METRIC_PREV,
	ACT_CHART_LESS,
	ACT_CHART_MORE,
	ACT_CHART_MODE,
	ACT_EXPLAIN,
	ACT_HELP,
	ACT_THEME,
	ACT_FREEZE,
	ACT_EXPORT,
	ACT_QUIT,
	ACT_CLOSE,
};

/*
 * Every key, by group.  help: on the first key of an action (the help and
 * the manual list the action's other keys beside it); bar: the key bar's
 * word for a function key.
 */
static const struct ui_key {
	int key;
	const char *label;
	enum ui_action action;
	int arg;
	const char *bar;
	const char *help;
} ui_keys[] = {
	{'\t', "Tab", ACT_NEXT_CONTROL, 0, NULL, "next control"},
	{KEY_BTAB, "Shift-Tab", ACT_PREV_CONTROL, 0, NULL, "previous control"},
	{KEY_UP, "Up", ACT_UP, 0, NULL,
	 "previous control; in runs the previous run, in compare and "
	 "analysis a line up"},
	{KEY_DOWN, "Down", ACT_DOWN, 0, NULL,
	 "next control; in runs the next run, in compare and analysis a "
	 "line down"},
	{KEY_LEFT, "Left", ACT_DECREASE, 0, NULL,
	 "smaller value of the control"},
	{'-', "-", ACT_DECREASE, 0, NULL, NULL},
	{KEY_RIGHT, "Right", ACT_INCREASE, 0, NULL,
	 "larger value of the control"},
	{'+', "+", ACT_INCREASE, 0, NULL, NULL},
	{'\n', "Enter", ACT_TOGGLE, 0, NULL,
	 "run again; on Duration: continuous or timed"},
	{KEY_ENTER, "Enter", ACT_TOGGLE, 0, NULL, NULL},
	{' ', "Space", ACT_TOGGLE, 0, NULL, NULL},
	{KEY_F(5), "F5", ACT_SWEEP, 0, "Sweep",
	 "sweep every strategy over 256 B .. 1 MiB (the controls come back "
	 "after it)"},
	{'w', "w", ACT_SWEEP, 0, NULL, NULL},
	{KEY_F(3), "F3", ACT_PRESETS, 0, "Preset",
	 "load a preset, shipped or saved (its grid runs as a sweep)"},
	{'p', "p", ACT_PRESETS, 0, NULL, NULL},
	{'S', "S", ACT_SAVE_PRESET, 0, NULL,
	 "save the controls as a preset (then listed by p)"},
	{'k', "k", ACT_RUN_UP, 0, NULL, "previous run in the table"},
	{'j', "j", ACT_RUN_DOWN, 0, NULL, "next run in the table"},
	{KEY_PPAGE, "PgUp", ACT_PAGE_UP, 0, NULL,
	 "a page up: runs, compare, analysis, help"},
	{KEY_NPAGE, "PgDn", ACT_PAGE_DOWN, 0, NULL, "a page down"},
	{KEY_HOME, "Home", ACT_HOME, 0, NULL, "to the first run or line"},
	{KEY_END, "End", ACT_END, 0, NULL,
	 "to the last: the newest run, which new runs then follow"},
	{KEY_F(9), "F9", ACT_MARK, 0, "Mark",
	 "mark the selected run to compare"},
	{'c', "c", ACT_MARK, 0, NULL, NULL},
	{KEY_F(6), "F6", ACT_SORT_NEXT, 0, "Sort",
	 "sort the runs by the next column"},
	{'>', ">", ACT_SORT_NEXT, 0, NULL, NULL},
	{'<', "<", ACT_SORT_PREV, 0, NULL,
	 "sort the runs by the previous column"},
	{'I', "I", ACT_SORT_INVERT, 0, NULL, "invert the sort order"},
	{KEY_F(4), "F4", ACT_FILTER, 0, "Filter",
	 "show only the runs whose name or mode holds a text "
	 "(\"zero-copy\", \"64 KiB\", \"rr\")"},
	{'/', "/", ACT_FILTER, 0, NULL, NULL},
	{'1', "1", ACT_VIEW, VIEW_LIVE, NULL,
	 "views: live, runs, compare, chart, analysis"},
	{'2', "2", ACT_VIEW, VIEW_RUNS, NULL, NULL},
	{'3', "3", ACT_VIEW, VIEW_COMPARE, NULL, NULL},
	{'4', "4", ACT_VIEW, VIEW_CHART, NULL, NULL},
	{'5', "5", ACT_VIEW, VIEW_ANALYSIS, NULL, NULL},
	{'v', "v", ACT_VIEW_NEXT, 0, NULL, "next view"},
	{'m', "m", ACT_METRIC_NEXT, 0, NULL,
	 "next metric in the graph or chart"},
	{'M', "M", ACT_METRIC_PREV, 0, NULL, "previous metric"},
	{'[', "[", ACT_CHART_LESS, 0, NULL,
	 "chart: fewer flows (round trip: a smaller size)"},
	{']', "]", ACT_CHART_MORE, 0, NULL,
	 "chart: more flows (round trip: a larger size)"},
	{'r', "r", ACT_CHART_MODE, 0, NULL, "chart: stream or rr runs"},
	{'x', "x", ACT_EXPLAIN, 0, NULL,
	 "the strategy's data path: every copy of the payload"},
	{KEY_F(8), "F8", ACT_FREEZE, 0, "Freeze",
	 "freeze the screen to read it (runs go on underneath)"},
	{'Z', "Z", ACT_FREEZE, 0, NULL, NULL},
	{KEY_F(2), "F2", ACT_THEME, 0, "Theme",
	 "next theme (kept for the next start)"},
	{'t', "t", ACT_THEME, 0, NULL, NULL},
	{KEY_F(7), "F7", ACT_EXPORT, 0, "Export",
	 "export the finished runs as JSON"},
	{'e', "e", ACT_EXPORT, 0, NULL, NULL},
	{KEY_F(1), "F1", ACT_HELP, 0, "Help", "this help"},
	{'?', "?", ACT_HELP, 0, NULL, NULL},
	{'h', "h", ACT_HELP, 0, NULL, NULL},
	{27, "Esc", ACT_CLOSE, 0, NULL,
	 "close the help, the data path or the preset list; clear the "
	 "filter"},
	{KEY_F(10), "F10", ACT_QUIT, 0, "Quit",
	 "quit (asks first while a sweep runs or finished runs are not "
	 "saved)"},
	{'q', "q", ACT_QUIT, 0, NULL, NULL},
};

#define UI_KEY_COUNT (sizeof(ui_keys) / sizeof(ui_keys[0]))

static const char *const view_names[VIEW_COUNT] = {
	[VIEW_LIVE] = "live",	      [VIEW_RUNS] = "runs",
	[VIEW_COMPARE] = "compare",   [VIEW_CHART] = "chart",
	[VIEW_ANALYSIS] = "analysis",
};

const char *ui_key_label(int key)
{
	for (size_t i = 0; i < UI_KEY_COUNT; i++)
		if (ui_keys[i].key == key)
			return ui_keys[i].label;
	return "the key";
}

/* "F5 w": every key of the action of ui_keys[i], from there on. */
static void action_keys(size_t i, char *out, size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	for (size_t j = i; j < UI_KEY_COUNT && len < size; j++) {
		if (ui_keys[j].action != ui_keys[i].action ||
		    (j > i && ui_keys[j].help))
			continue;
		/* Enter is two keys to curses, one to the user. */
		if (j > i &&
		    strcmp(ui_keys[j].label, ui_keys[j - 1].label) == 0)
			continue;
		len += (size_t)snprintf(out + len, size - len, "%s%s",
					len ? " " : "", ui_keys[j].label);
	}
}

void ui_man_keys(FILE *out)
{
	for (size_t i = 0; i < UI_KEY_COUNT; i++) {
		char keys[64], *k, *save = NULL;

		if (!ui_keys[i].help)
			continue;
		action_keys(i, keys, sizeof(keys));
		fprintf(out, ".It");
		for (k = strtok_r(keys, " ", &save); k;
		     k = strtok_r(NULL, " ", &save))
			fprintf(out, "%s Ic %s%s", k == keys ? "" : " ,",
				strchr("?-+<>/[]", k[0]) && !k[1] ? "\\&" : "",
				k);
		fprintf(out, "\n%s\n", ui_keys[i].help);
	}
}

/* Runs shown by the table: the frozen ones while frozen. */
static const struct explorer *shown(struct ui *ui, const struct explorer *e)
{
	return ui->frozen ? ui_frozen_view(ui, e) : e;
}

static void ui_mark(struct ui *ui, const struct explorer *e)
{
	size_t n = e->session->result_count;
	bool any = false;

	if (!n) {
		snprintf(ui->note, sizeof(ui->note),
			 "no finished runs to compare yet");
		return;
	}
	if (ui->marked_capacity < n) {
		bool *grown = realloc(ui->marked, n * 2 * sizeof(*grown));

		if (!grown)
			return;
		memset(grown + ui->marked_capacity, 0,
		       (n * 2 - ui->marked_capacity) * sizeof(*grown));
		ui->marked = grown;
		ui->marked_capacity = n * 2;
	}
	if (ui->cursor >= n)
		ui->cursor = n - 1;
	ui->marked[ui->cursor] = !ui->marked[ui->cursor];
	for (size_t k = 0; k < n; k++)
		any |= ui->marked[k];
	snprintf(ui->note, sizeof(ui->note), "run %zu %s; 3 compares %s",
		 ui->cursor + 1, ui->marked[ui->cursor] ? "marked" : "unmarked",
		 any ? "the marked runs" : "the selected and latest runs");
}

/*
 * Moves the selection by delta rows of the table as it is sorted and
 * filtered (SIZE_MAX / 4 steps: to the first row, or to the newest run).
 * At the newest run, new runs are followed again.
 */
static void move_run(struct ui *ui, const struct explorer *live, long delta)
{
	const struct explorer *e = shown(ui, live);
	size_t runs = e->session->result_count, n, at = 0;
	size_t *order = calloc(runs + 1, sizeof(*order));

	if (!order)
		return;
	n = ui_runs_order(ui, e, order);
	if (!n) {
		free(order);
		return;
	}
	while (at < n && order[at] != ui->cursor)
		at++;
	if (delta >= (long)(SIZE_MAX / 4)) {
		/* End: the newest run shown, wherever the sort puts it. */
		at = 0;
		for (size_t i = 1; i < n; i++)
			if (order[i] > order[at])
				at = i;
	} else if (at == n)
		at = delta < 0 ? n - 1 : 0;
	else if (delta < 0)
		at = (size_t)-delta > at ? 0 : at - (size_t)-delta;
	else
		at = (size_t)delta >= n - at ? n - 1 : at + (size_t)delta;
	ui->cursor = order[at];
	if (ui->cursor + 1 == live->session->result_count)
		ui->new_runs = 0;
	free(order);
}

static void scroll_by(size_t *offset, long delta)
{
	if (delta < 0)
		*offset = (size_t)-delta > *offset ? 0
						   : *offset - (size_t)-delta;
	else
		*offset = (size_t)delta > SIZE_MAX / 2
				  ? SIZE_MAX / 2
				  : *offset + (size_t)delta;
}

/* How far Up, Down, PgUp, PgDn, Home and End move. */
enum ui_step {
	STEP_LINE,
	STEP_PAGE,
	STEP_END, /* to the first or the last */
};

/*
 * Up, Down, PgUp, PgDn, Home, End: what they move depends on what is in
 * front -- an overlay scrolls, compare and the analysis scroll, the runs
 * table moves the selection, and in the live view and the chart Up and Down
 * choose a control while the page keys move in the runs.
 */
static void ui_move(struct ui *ui, const struct explorer *e, int direction,
		    enum ui_step how)
{
	size_t page = 1, *offset = NULL;

	if (ui->overlay == OVERLAY_HELP || ui->overlay == OVERLAY_EXPLAIN) {
		offset = &ui->overlay_scroll;
		page = ui->overlay_rows;
	} else if (ui->view == VIEW_COMPARE || ui->view == VIEW_ANALYSIS) {
		offset = &ui->view_scroll[ui->view];
		page = ui->pane_rows;
	}
	if (offset) {
		long rows = how == STEP_END    ? (long)(SIZE_MAX / 4)
			    : how == STEP_PAGE ? (long)(page ? page : 1)
					       : 1;

		scroll_by(offset, direction * rows);
		return;
	}
	if (how == STEP_LINE && ui->view != VIEW_RUNS) {
		ui->focus = (enum explorer_control)(
			(ui->focus + CONTROL_COUNT + direction) %
			CONTROL_COUNT);
		return;
	}
	move_run(ui, e,
		 direction * (how == STEP_END	 ? (long)(SIZE_MAX / 4)
			      : how == STEP_PAGE ? (long)ui->page
						 : 1));
}

/* The runs table's sort: the columns in order, "#" first. */
static void ui_sort(struct ui *ui, const struct explorer *e, int delta)
{
	struct ui_column col[UI_COLUMNS_MAX];
	size_t n = ui_runs_columns(col), at = 0, count = 3;
	const char *key[UI_COLUMNS_MAX + 3] = {"#", "run", "secs"};
	bool rr = ui_runs_rr(e);
	char name[32];

	/* The round trip's columns only while the table shows them. */
	for (size_t c = 0; c < n; c++)
		if (rr || !col[c].latency)
			key[count++] = col[c].key;
	for (size_t c = 0; c < count; c++)
		if (strcmp(key[c], ui->sort) == 0)
			at = c;
	at = (at + (delta < 0 ? count - 1 : 1)) % count;
	snprintf(ui->sort, sizeof(ui->sort), "%s", key[at]);
	/* Figures read best largest first; names and numbers in order. */
	ui->descending = at >= 2;
	ui_sort_name(ui, e, name, sizeof(name));
	snprintf(ui->note, sizeof(ui->note),
		 "runs sorted by %s, %s (I inverts)", name,
		 ui_sort_direction(ui, name));
}

/* Z: the screen holds still; the runs go on underneath. */
static void ui_freeze(struct ui *ui, const struct explorer *e)
{
	struct explorer *f = &ui->frozen_explorer;
	struct explorer_point *history = NULL;

	if (ui->frozen) {
		size_t frozen_newest = ui->frozen_session.result_count;

		ui->frozen = false;
		free(ui->frozen_history);
		ui->frozen_history = NULL;
		analysis_fini(&ui->frozen_analysis);
		/* Looking at the newest run when frozen: follow again. */
		if ((!frozen_newest || ui->cursor + 1 == frozen_newest) &&
		    e->session->result_count) {
			ui->cursor = e->session->result_count - 1;
			ui->new_runs = 0;
		}
		snprintf(ui->note, sizeof(ui->note), "live again");
		return;
	}
	if (e->history_capacity) {
		history = calloc(e->history_capacity, sizeof(*history));
		if (!history) {
			snprintf(ui->note, sizeof(ui->note),
				 "cannot freeze: out of memory");
			return;
		}
		memcpy(history, e->history,
		       e->history_capacity * sizeof(*history));
	}
	*f = *e;
	f->history = history;
	ui->frozen_history = history;
	ui->frozen_session = *e->session;
	memset(&ui->frozen_analysis, 0, sizeof(ui->frozen_analysis));
	analysis_build(e->session->results, e->session->run_facts,
		       e->session->result_count, &ui->frozen_analysis);
	ui->frozen = true;
	snprintf(ui->note, sizeof(ui->note),
		 "frozen: runs go on underneath; Z or F8 shows them");
}

/* The view the frozen screen draws: the runs as they were. */
const struct explorer *ui_frozen_view(struct ui *ui, const struct explorer *e)
{
	size_t n = ui->frozen_session.result_count;

	/* The results may have moved; the first n stay as they were. */
	ui->frozen_session = *e->session;
	ui->frozen_session.result_count = n;
	if (ui->frozen_session.run_fact_count > n)
		ui->frozen_session.run_fact_count = n;
	ui->frozen_session.analysis = ui->frozen_analysis;
	ui->frozen_explorer.session = &ui->frozen_session;
	ui->frozen_explorer.presets = e->presets;
	ui->frozen_explorer.preset_count = e->preset_count;
	return &ui->frozen_explorer;
}

static size_t push(struct ui_command *cmd, size_t n, enum ui_command_kind kind,
		   enum explorer_control control, int arg)
{
	if (n < UI_COMMANDS_MAX)
		cmd[n++] = (struct ui_command){kind, control, arg};
	return n;
}

static const char *const control_words[CONTROL_COUNT] = {
	[CONTROL_STRATEGY] = "the strategy", [CONTROL_SIZE] = "the size",
	[CONTROL_THREADS] = "the threads",   [CONTROL_MODE] = "the mode",
	[CONTROL_DURATION] = "the duration",
};

/*
 * A command that changes what runs: during a sweep it would end the sweep,
 * so it waits for the same key again (or y) first, as q does.
 */
static size_t change(struct ui *ui, const struct explorer *e, int key,
		     struct ui_command *cmd, size_t n,
		     enum ui_command_kind kind, int arg)
{
	if (explorer_sweeping(e) && ui->confirm != CONFIRM_CHANGE) {
		ui->confirm = CONFIRM_CHANGE;
		ui->confirm_key = key;
		ui->pending = (struct ui_command){kind, ui->focus, arg};
		snprintf(ui->pending_what, sizeof(ui->pending_what), "%s",
			 kind == UI_SWEEP	  ? "start a new sweep"
			 : kind == UI_LOAD_PRESET ? "load the preset"
			 : kind == UI_RESTART	  ? "run the controls again"
						  : "change ");
		if (kind == UI_STEP || kind == UI_SET_STRATEGY ||
		    kind == UI_DURATION_TOGGLE)
			snprintf(ui->pending_what, sizeof(ui->pending_what),
				 "change %s", control_words[ui->focus]);
		return n;
	}
	return push(cmd, n, kind, ui->focus, arg);
}

static size_t ui_quit(struct ui *ui, const struct explorer *e,
		      struct ui_command *cmd, size_t n)
{
	if (ui->confirm == CONFIRM_QUIT ||
	    (!explorer_sweeping(e) && !explorer_unsaved(e)))
		return push(cmd, n, UI_QUIT, ui->focus, 0);
	ui->confirm = CONFIRM_QUIT;
	return n;
}

static size_t ui_action(struct ui *ui, const struct explorer *e,
			const struct ui_key *k, struct ui_command *cmd,
			size_t n)
{
	switch (k->action) {
	case ACT_NEXT_CONTROL:
		ui->focus = (ui->focus + 1) % CONTROL_COUNT;
		break;
	case ACT_PREV_CONTROL:
		ui->focus = (ui->focus + CONTROL_COUNT - 1) % CONTROL_COUNT;
		break;
	case ACT_UP:
		ui_move(ui, e, -1, STEP_LINE);
		break;
	case ACT_DOWN:
		ui_move(ui, e, 1, STEP_LINE);
		break;
	case ACT_DECREASE:
		return change(ui, e, k->key, cmd, n, UI_STEP, -1);
	case ACT_INCREASE:
		return change(ui, e, k->key, cmd, n, UI_STEP, 1);
	case ACT_TOGGLE:
		return change(ui, e, k->key, cmd, n,
			      ui->focus == CONTROL_DURATION ? UI_DURATION_TOGGLE
							    : UI_RESTART,
			      0);
	case ACT_SWEEP:
		return change(ui, e, k->key, cmd, n, UI_SWEEP, 0);
	case ACT_SAVE_PRESET:
		return push(cmd, n, UI_SAVE_PRESET, ui->focus, 0);
	case ACT_PRESETS:
		if (!e->preset_count) {
			snprintf(ui->note, sizeof(ui->note),
				 "no presets found (set NIO_TOP_PRESETS)");
			break;
		}
		ui->overlay = OVERLAY_PRESETS;
		ui->overlay_scroll = 0;
		if (ui->preset_cursor >= e->preset_count)
			ui->preset_cursor = 0;
		break;
	case ACT_RUN_UP:
		move_run(ui, e, -1);
		break;
	case ACT_RUN_DOWN:
		move_run(ui, e, 1);
		break;
	case ACT_PAGE_UP:
		ui_move(ui, e, -1, STEP_PAGE);
		break;
	case ACT_PAGE_DOWN:
		ui_move(ui, e, 1, STEP_PAGE);
		break;
	case ACT_HOME:
		ui_move(ui, e, -1, STEP_END);
		break;
	case ACT_END:
		ui_move(ui, e, 1, STEP_END);
		break;
	case ACT_MARK:
		ui_mark(ui, shown(ui, e));
		break;
	case ACT_SORT_NEXT:
		ui_sort(ui, e, 1);
		break;
	case ACT_SORT_PREV:
		ui_sort(ui, e, -1);
		break;
	case ACT_SORT_INVERT:
		ui->descending = !ui->descending;
		snprintf(ui->note, sizeof(ui->note), "runs sorted %s",
			 ui->descending ? "largest first" : "smallest first");
		break;
	case ACT_FILTER:
		ui->confirm = CONFIRM_FILTER;
		break;
	case ACT_VIEW:
	case ACT_VIEW_NEXT:
		ui->view = k->action == ACT_VIEW ? (enum ui_view)k->arg
						 : (ui->view + 1) % VIEW_COUNT;
		snprintf(ui->note, sizeof(ui->note),
			 "view: %s (1-5 go straight to one)",
			 view_names[ui->view]);
		break;
	case ACT_METRIC_NEXT:
	case ACT_METRIC_PREV: {
		bool chart = ui->view == VIEW_CHART;
		size_t *m = chart ? &ui->chart_index : &ui->graph_metric;
		size_t count = chart ? ui->chart_count : ui->metric_count;

		*m = (*m + (k->action == ACT_METRIC_NEXT ? 1 : count - 1)) %
		     count;
		/* A note about the figure before is stale now. */
		if (chart)
			snprintf(ui->note, sizeof(ui->note),
				 "chart: m next figure, M previous, [ ] "
				 "flows, r stream or rr");
		break;
	}
	case ACT_CHART_LESS:
	case ACT_CHART_MORE:
	case ACT_CHART_MODE:
		/* The chart's own choices: the live controls stay. */
		if (ui->view != VIEW_CHART) {
			snprintf(ui->note, sizeof(ui->note),
				 "that key is the chart's: 4 shows the chart");
			break;
		}
		if (k->action == ACT_CHART_MODE) {
			ui->chart_mode = ui_chart_mode(ui, e) == RUN_STREAM
						 ? RUN_RR
						 : RUN_STREAM;
			ui->chart_mode_chosen = true;
			if (ui->chart[ui->chart_index].rr_only &&
			    ui->chart_mode == RUN_STREAM)
				snprintf(ui->note, sizeof(ui->note),
					 "stream runs chosen; a round trip is "
					 "rr's alone, so m picks a stream "
					 "figure");
			else
				snprintf(ui->note, sizeof(ui->note),
					 "chart: %s runs",
					 run_mode_name(ui->chart_mode));
		} else {
			ui_chart_step(ui, e,
				      k->action == ACT_CHART_MORE ? 1 : -1);
		}
		break;
	case ACT_EXPLAIN:
		ui->overlay = ui->overlay == OVERLAY_EXPLAIN ? OVERLAY_NONE
							     : OVERLAY_EXPLAIN;
		ui->overlay_scroll = 0;
		break;
	case ACT_HELP:
		ui->overlay = ui->overlay == OVERLAY_HELP ? OVERLAY_NONE
							  : OVERLAY_HELP;
		ui->overlay_scroll = 0;
		break;
	case ACT_THEME:
		ui_next_theme(ui);
		break;
	case ACT_FREEZE:
		ui_freeze(ui, e);
		break;
	case ACT_EXPORT:
		return push(cmd, n, UI_EXPORT, ui->focus, 0);
	case ACT_QUIT:
		return ui_quit(ui, e, cmd, n);
	case ACT_CLOSE:
		if (ui->overlay == OVERLAY_NONE && ui->filter[0]) {
			ui->filter[0] = '\0';
			snprintf(ui->note, sizeof(ui->note), "filter cleared");
		}
		ui->overlay = OVERLAY_NONE;
		break;
	}
	return n;
}

/* The run on a row of the table, or SIZE_MAX. */
static size_t run_at_row(struct ui *ui, const struct explorer *e, int y)
{
	size_t runs = e->session->result_count, row, n, k = SIZE_MAX;
	size_t *order;

	if (y < ui->history.y + 2 || y >= ui->history.y + ui->history.h - 1)
		return SIZE_MAX;
	order = calloc(runs + 1, sizeof(*order));
	if (!order)
		return SIZE_MAX;
	n = ui_runs_order(ui, e, order);
	row = ui->history_first + (size_t)(y - ui->history.y - 2);
	if (row < n)
		k = order[row];
	free(order);
	return k;
}

/* A click or the wheel: on a control, a strategy, or a run. */
static size_t ui_mouse(struct ui *ui, const struct explorer *e,
		       struct ui_command *cmd, size_t n)
{
	MEVENT ev;
	int wheel, clicks;

	if (getmouse(&ev) != OK)
		return n;
	clicks = ev.bstate & BUTTON1_TRIPLE_CLICKED   ? 3
		 : ev.bstate & BUTTON1_DOUBLE_CLICKED ? 2
						      : 1;
	wheel = ev.bstate & BUTTON4_PRESSED   ? -1
		: ev.bstate & BUTTON5_PRESSED ? 1
					      : 0;
	if (ui->overlay != OVERLAY_NONE) {
		if (wheel && ui->overlay != OVERLAY_PRESETS)
			scroll_by(&ui->overlay_scroll, wheel * 3);
		return n;
	}
	if (ui->history.h && ev.y >= ui->history.y &&
	    ev.y < ui->history.y + ui->history.h && ev.x >= ui->history.x &&
	    ev.x < ui->history.x + ui->history.w) {
		size_t k;

		if (wheel) {
			move_run(ui, e, wheel);
			return n;
		}
		k = run_at_row(ui, shown(ui, e), ev.y);
		if (k != SIZE_MAX)
			ui->cursor = k;
		return n;
	}
	if (!ui->controls.h || ev.x < ui->controls.x ||
	    ev.x >= ui->controls.x + ui->controls.w || ev.y < ui->controls.y ||
	    ev.y >= ui->controls.y + ui->controls.h)
		return n;
	if (wheel)
		return change(ui, e, KEY_MOUSE, cmd, n, UI_STEP, -wheel);
	for (int c = 0; c < CONTROL_COUNT; c++) {
		if (ev.y != ui->control_row[c])
			continue;
		ui->focus = (enum explorer_control)c;
		/* The left third steps down, the right third up. */
		if (ev.x < ui->controls.x + ui->controls.w / 3)
			return change(ui, e, KEY_MOUSE, cmd, n, UI_STEP,
				      -clicks);
		if (ev.x >= ui->controls.x + 2 * ui->controls.w / 3)
			return change(ui, e, KEY_MOUSE, cmd, n, UI_STEP,
				      clicks);
		return n;
	}
	if (ui->strategy_row >= 0 && ev.y >= ui->strategy_row &&
	    ev.y < ui->strategy_row + (int)strategy_count()) {
		ui->focus = CONTROL_STRATEGY;
		return change(ui, e, KEY_MOUSE, cmd, n, UI_SET_STRATEGY,
			      ev.y - ui->strategy_row);
	}
	return n;
}

/* The preset list: Up, Down, PgUp... choose, Enter loads, Esc or p closes. */
static bool ui_preset_key(struct ui *ui, const struct explorer *e, int ch,
			  struct ui_command *cmd, size_t *n)
{
	switch (ch) {
	case KEY_UP:
	case 'k':
		if (ui->preset_cursor > 0)
			ui->preset_cursor--;
		return true;
	case KEY_DOWN:
	case 'j':
		if (ui->preset_cursor + 1 < e->preset_count)
			ui->preset_cursor++;
		return true;
	case KEY_PPAGE:
		ui->preset_cursor = ui->preset_cursor > ui->overlay_rows
					    ? ui->preset_cursor -
						      ui->overlay_rows
					    : 0;
		return true;
	case KEY_NPAGE:
		ui->preset_cursor += ui->overlay_rows;
		if (ui->preset_cursor >= e->preset_count)
			ui->preset_cursor = e->preset_count
						    ? e->preset_count - 1
						    : 0;
		return true;
	case KEY_HOME:
		ui->preset_cursor = 0;
		return true;
	case KEY_END:
		ui->preset_cursor = e->preset_count ? e->preset_count - 1 : 0;
		return true;
	case '\n':
	case KEY_ENTER:
		ui->overlay = OVERLAY_NONE;
		*n = change(ui, e, ch, cmd, *n, UI_LOAD_PRESET,
			    (int)ui->preset_cursor);
		return true;
	case 'p':
	case KEY_F(3):
		ui->overlay = OVERLAY_NONE;
		return true;
	}
	return false;
}

/* Typing the filter: it applies as it is typed. */
static void ui_filter_key(struct ui *ui, int ch)
{
	size_t len = strlen(ui->filter);

	if (ch == '\n' || ch == KEY_ENTER) {
		ui->confirm = CONFIRM_NONE;
		snprintf(ui->note, sizeof(ui->note), "%s",
			 ui->filter[0] ? "filter kept (/ changes it, Esc "
					 "clears it)"
				       : "no filter");
	} else if (ch == 27) {
		ui->confirm = CONFIRM_NONE;
		ui->filter[0] = '\0';
		snprintf(ui->note, sizeof(ui->note), "no filter");
	} else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
		if (len)
			ui->filter[len - 1] = '\0';
	} else if (ch >= ' ' && ch < 127 && len + 1 < sizeof(ui->filter)) {
		ui->filter[len] = (char)ch;
		ui->filter[len + 1] = '\0';
	}
}

/* The answer to a question on the status line. */
static size_t ui_answer(struct ui *ui, int ch, struct ui_command *cmd, size_t n)
{
	enum ui_confirm asked = ui->confirm;

	ui->confirm = CONFIRM_NONE;
	if (asked == CONFIRM_QUIT) {
		if (ch == 'q' || ch == KEY_F(10))
			return push(cmd, n, UI_QUIT, ui->focus, 0);
		if (ch == 'e' || ch == KEY_F(7))
			return push(cmd, n, UI_EXPORT, ui->focus, 0);
		snprintf(ui->note, sizeof(ui->note), "not quitting");
		return n;
	}
	if (ch == ui->confirm_key || ch == 'y') {
		ui->pending.control = ui->focus;
		return push(cmd, n, ui->pending.kind, ui->pending.control,
			    ui->pending.arg);
	}
	snprintf(ui->note, sizeof(ui->note), "the sweep goes on");
	return n;
}

static bool help_key(int ch)
{
	static const int keys[] = {KEY_UP,   KEY_DOWN, KEY_PPAGE, KEY_NPAGE,
				   KEY_HOME, KEY_END,  'q',	  KEY_F(10)};

	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++)
		if (keys[i] == ch)
			return true;
	return false;
}

size_t ui_read(struct ui *ui, const struct explorer *e,
	       struct ui_command cmd[UI_COMMANDS_MAX])
{
	size_t n = 0;
	int ch;

	while ((ch = getch()) != ERR) {
		bool known = false;

		/* resizeterm() queued it: the size is already known. */
		if (ch == KEY_RESIZE) {
			getmaxyx(stdscr, ui->rows, ui->cols);
			continue;
		}
		if (ch == KEY_MOUSE) {
			n = ui_mouse(ui, e, cmd, n);
			continue;
		}
		if (ch == '\r')
			ch = '\n';
		if (ui->confirm == CONFIRM_FILTER) {
			ui_filter_key(ui, ch);
			continue;
		}
		/* Not quitting: any other key then does what it does. */
		if (ui->confirm == CONFIRM_QUIT && ch != 'q' && ch != 'e' &&
		    ch != KEY_F(10) && ch != KEY_F(7) && ch != 27) {
			ui->confirm = CONFIRM_NONE;
			snprintf(ui->note, sizeof(ui->note), "not quitting");
		} else if (ui->confirm != CONFIRM_NONE) {
			n = ui_answer(ui, ch, cmd, n);
			continue;
		}
		if (ui->overlay == OVERLAY_PRESETS &&
		    ui_preset_key(ui, e, ch, cmd, &n))
			continue;
		/* Over the help, keys scroll, q quits, and the rest close. */
		if (ui->overlay == OVERLAY_HELP && !help_key(ch)) {
			ui->overlay = OVERLAY_NONE;
			continue;
		}
		if (ui->overlay == OVERLAY_EXPLAIN && ch == 'x') {
			ui->overlay = OVERLAY_NONE;
			continue;
		}
		for (size_t i = 0; i < UI_KEY_COUNT && !known; i++) {
			if (ui_keys[i].key != ch)
				continue;
			known = true;
			n = ui_action(ui, e, &ui_keys[i], cmd, n);
		}
		if (!known)
			snprintf(ui->note, sizeof(ui->note),
				 "no such key; F1 or ? lists the keys");
	}
	return n;
}

/*
 * Keeps the newest run in sight as runs finish, unless the user is looking
 * at an older one: then the header counts the new ones.
 */
void ui_track_runs(struct ui *ui, const struct explorer *e)
{
	size_t runs = e->session->result_count;

	if (runs > ui->seen_runs) {
		bool follow = !ui->frozen && (!ui->seen_runs ||
					      ui->cursor + 1 >= ui->seen_runs);

		if (follow)
			ui->cursor = runs - 1;
		else
			ui->new_runs += runs - ui->seen_runs;
	}
	ui->seen_runs = runs;
	if (runs && ui->cursor + 1 == runs && !ui->frozen)
		ui->new_runs = 0;
}

/* The help, from the key table: every action with all its keys. */
void ui_draw_help(struct ui *ui)
{
	struct rect r = {1, 2, ui->rows - 3, ui->cols - 4};
	struct ui_lines l = {0};
	int width = r.w - 4, keys_w = 15;

	if (r.w > 100) {
		r.w = 100;
		r.x = (ui->cols - r.w) / 2;
		width = r.w - 4;
	}
	for (size_t i = 0; i < UI_KEY_COUNT; i++) {
		char keys[64], text[512];

		if (!ui_keys[i].help)
			continue;
		action_keys(i, keys, sizeof(keys));
		snprintf(text, sizeof(text), "%-*s %s", keys_w, keys,
			 ui_keys[i].help);
		ui_lines_wrap(&l, ROLE_TEXT, width, keys_w + 1, text);
		/* The keys stand out from what they do. */
		ui_lines_mark(&l, l.count - 1, ROLE_HIGHLIGHT, keys_w);
	}
	ui_lines_add(&l, ROLE_TEXT, 0, "%s", "");
	ui_lines_wrap(&l, ROLE_INACTIVE, width, 0,
		      "The mouse: a click on the left or right end of a "
		      "control steps it, on a strategy picks it, on a run "
		      "selects it; the wheel steps the focused control, or "
		      "scrolls what it is over.");
	ui_lines_wrap(&l, ROLE_INACTIVE, width, 0,
		      "q or F10 quits from anywhere; the bottom bar names "
		      "the function keys. The keys marked chart: act on the "
		      "chart (view 4); every other key works in every view.");
	attrset(theme_attr(ROLE_TEXT));
	for (int y = r.y; y < r.y + r.h; y++)
		mvhline(y, r.x, ' ', r.w);
	ui_box(ui, &r, ROLE_TITLE,
	       "Keys (Up/Down/PgUp/PgDn/Home/End scroll, Esc closes)");
	ui->overlay_rows = r.h > 2 ? (size_t)(r.h - 2) : 1;
	ui_lines_draw(ui, &l, &r, &ui->overlay_scroll);
	ui_lines_free(&l);
}

/*
 * The bottom line, htop's: F1 Help ... F10 Quit, from the key table, each
 * key in the bar's colour and its word beside it, six cells wide.
 */
void ui_draw_keybar(const struct ui *ui)
{
	int y = ui->rows - 1, x = 0;

	attrset(theme_attr(ROLE_TEXT));
	mvhline(y, 0, ' ', ui->cols);
	for (int f = 1; f <= 10; f++)
		for (size_t i = 0; i < UI_KEY_COUNT; i++) {
			const char *word = ui_keys[i].bar;

			if (ui_keys[i].key != KEY_F(f) || !word)
				continue;
			if (f == 8 && ui->frozen)
				word = "Thaw";
			/* The last word may end at the edge, as htop's. */
			if (x + (int)strlen(ui_keys[i].label) +
				    (int)strlen(word) >
			    ui->cols)
				return;
			ui_text(y, x, 3, ROLE_TEXT, "%s", ui_keys[i].label);
			x += (int)strlen(ui_keys[i].label);
			ui_text(y, x, ui->cols - x, ROLE_SELECTED, "%-*s",
				ui->cols - x < 6 ? ui->cols - x : 6, word);
			x += 6;
		}
	if (x + 24 <= ui->cols)
		ui_text(y, x + 1, ui->cols - x - 1, ROLE_INACTIVE,
			"v view  x data path");
}
