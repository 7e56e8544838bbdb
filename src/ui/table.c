/*
 * The runs table.  Sorting compares through file-scope pointers set for one
 * qsort() (qsort has no argument for them); the UI has one thread.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "freeze.h"
#include "measures.h"
#include "status.h"
#include "table.h"

const struct ui_keyhelp ui_runs_keys[] = {
	{"k Up", "previous run (Up in the runs view)"},
	{"j Down", "next run (Down in the runs view)"},
	{"PgUp PgDn", "a page of runs up or down"},
	{"Home End", "the first run; the newest, which new runs then follow"},
	{"F9 c", "mark the selected run to compare (3)"},
	{"F6 > <", "sort the runs by the next or previous column"},
	{"I", "invert the sort order"},
	{"F4 /",
	 "show only the runs whose name or mode holds a text (\"zero-copy\", "
	 "\"64 KiB\", \"rr\"); Esc clears it"},
};

const size_t ui_runs_key_count = sizeof(ui_runs_keys) / sizeof(ui_runs_keys[0]);

/* Each side's copy share, where the run was sampled: two columns at col. */
static size_t runs_copy_columns(struct ui_column *col)
{
	for (int s = 0; s < SIDE_COUNT; s++) {
		col[s] = (struct ui_column){.metric = {0, (enum gauge_side)s},
					    .profile = true,
					    .role = ROLES_MAX};
		snprintf(col[s].key, sizeof(col[s].key), "%s_copy_share",
			 s ? "rx" : "tx");
		snprintf(col[s].head, sizeof(col[s].head), "copy %s",
			 s ? "rx" : "tx");
	}
	return SIDE_COUNT;
}

/* Each side's largest wait and its share: two columns at col. */
static size_t runs_wait_columns(struct ui_column *col)
{
	for (int s = 0; s < SIDE_COUNT; s++) {
		col[s] = (struct ui_column){.metric = {0, (enum gauge_side)s},
					    .time = true,
					    .reason = SIZE_MAX};
		snprintf(col[s].key, sizeof(col[s].key), "%s_wait",
			 s ? "rx" : "tx");
		snprintf(col[s].head, sizeof(col[s].head), "wait %s",
			 s ? "rx" : "tx");
	}
	return SIDE_COUNT;
}

size_t ui_runs_columns(struct ui_column *col)
{
	size_t n = 0;

	for (size_t m = 0; m < metric_count && n + 2 <= UI_COLUMNS_MAX; m++) {
		if (!(metrics[m].show & METRIC_TABLE))
			continue;
		for (int s = 0; s < SIDE_COUNT; s++) {
			/* Delivery happens at the receiver: one column. */
			if (metrics[m].delivered && s == SIDE_SENDER)
				continue;
			col[n] = (struct ui_column){
				.metric = {m, (enum gauge_side)s},
				.is_metric = true,
			};
			if (metrics[m].delivered)
				snprintf(col[n].key, sizeof(col[n].key), "%s",
					 metrics[m].key);
			else
				snprintf(col[n].key, sizeof(col[n].key),
					 "%s_%s", s ? "rx" : "tx",
					 metrics[m].key);
			snprintf(col[n].head, sizeof(col[n].head),
				 metrics[m].delivered ? "%s" : "%s %s",
				 metrics[m].abbrev, s ? "rx" : "tx");
			n++;
		}
		/* What of each side's CPU was the copy, beside its CPU. */
		if (strcmp(metrics[m].key, "cpu_pct") == 0 &&
		    n + 2 * SIDE_COUNT <= UI_COLUMNS_MAX)
			n += runs_copy_columns(col + n);
		/* And where its time went off the CPU, most of it. */
		if (strcmp(metrics[m].key, "cpu_pct") == 0 &&
		    n + 2 * SIDE_COUNT <= UI_COLUMNS_MAX)
			n += runs_wait_columns(col + n);
		/* rr runs' own figures, next to the throughput. */
		if (n == 1) {
			static const enum figure_percentile p[] = {
				PERCENTILE_P50, PERCENTILE_P99};

			for (size_t i = 0; i < 2; i++) {
				col[n] = (struct ui_column){.latency = true,
							    .percentile = p[i]};
				snprintf(col[n].key, sizeof(col[n].key), "%s",
					 figure_percentile_name(p[i]));
				snprintf(col[n].head, sizeof(col[n].head),
					 "%s us", figure_percentile_name(p[i]));
				n++;
			}
			/* The probe's tail beside the load, after them. */
			col[n] = (struct ui_column){
				.probe = true, .percentile = PERCENTILE_P99};
			snprintf(col[n].key, sizeof(col[n].key), "probe_p99");
			snprintf(col[n].head, sizeof(col[n].head), "probe p99");
			n++;
		}
	}
	return n;
}

bool ui_column_value(const struct run_result *r, const struct ui_column *c,
		     double *v)
{
	struct figure_quantity q = {
		.source = !c->probe	  ? FIGURE_LATENCY
			  : c->probe_idle ? FIGURE_PROBE_IDLE
					  : FIGURE_PROBE,
		.percentile = c->percentile,
	};

	if (c->latency || c->probe)
		return figure_run_value(&q, r, v);
	if (c->time) {
		const struct run_time *t = &r->time[c->metric.side];
		size_t reason = c->reason == SIZE_MAX ? run_time_largest(t)
						      : c->reason;

		if (!t->present || t->window_s <= 0)
			return false;
		*v = 100 * (reason == reason_count ? run_time_on_cpu_share(t)
						   : run_time_share(t, reason));
		return isfinite(*v);
	}
	if (c->profile) {
		const struct run_profile *p = &r->profile[c->metric.side];

		if (!p->present || !p->samples)
			return false;
		*v = 100 * (c->role == ROLES_MAX
				    ? run_profile_copy_share(p)
				    : run_profile_share(p, c->role));
		/* NaN: sampled in user space only. */
		return isfinite(*v);
	}
	return run_result_metric(r, c->metric.side == SIDE_SENDER,
				 c->metric.metric, v);
}

bool ui_profile_user_only(const struct run_result *r, const struct ui_column *c)
{
	const struct run_profile *p = &r->profile[c->metric.side];

	return c->profile && p->present && p->samples && p->user_only;
}

/*
 * The name of a side's largest wait, or "CPU" where it never waited for a
 * reason (the column then holds its share on the CPU, as the gauge says it).
 */
static const char *largest_wait_name(const struct run_result *r,
				     const struct ui_column *c)
{
	size_t largest = run_time_largest(&r->time[c->metric.side]);

	return largest < reason_count ? reasons[largest].abbrev : "CPU";
}

void ui_column_cell(const struct run_result *r, const struct ui_column *c,
		    char *out, size_t size)
{
	double v;

	if (c->profile && ui_profile_user_only(r, c))
		snprintf(out, size, "n/a");
	else if ((c->latency || c->probe || c->profile || c->time) &&
		 !ui_column_value(r, c, &v))
		snprintf(out, size, "-");
	else if (c->time && c->reason == SIZE_MAX)
		snprintf(out, size, "%s %.0f%%", largest_wait_name(r, c), v);
	else if (c->profile || c->time) /* a sliver keeps a digit: 0.3% */
		snprintf(out, size, v > 0 && v < 9.95 ? "%.1f%%" : "%.0f%%", v);
	else if (c->latency || c->probe)
		ui_format_value(v, out, size);
	else
		ui_result_cell(r, &c->metric, out, size);
}

bool ui_runs_rr(const struct explorer *e)
{
	for (size_t k = 0; k < e->session->result_count; k++)
		if (e->session->results[k].config.mode == RUN_RR)
			return true;
	return false;
}

/* Whether a run of the table had a probe. */
static bool runs_probe(const struct explorer *e)
{
	for (size_t k = 0; k < e->session->result_count; k++)
		if (e->session->results[k].probe.present)
			return true;
	return false;
}

/*
 * The columns only some runs have: the round trip's once an rr run is in
 * the table, the probe's once a run with a probe is.
 */
struct runs_kinds {
	bool rr;
	bool probe;
};

static struct runs_kinds runs_kinds_of(const struct explorer *e)
{
	return (struct runs_kinds){.rr = ui_runs_rr(e), .probe = runs_probe(e)};
}

static bool column_shown(const struct ui_column *c,
			 const struct runs_kinds *kinds)
{
	return (!c->latency || kinds->rr) && (!c->probe || kinds->probe);
}

/*
 * Whether the table sorts on column c by key: a column some runs have only
 * once such a run is in it (until then it is not shown, and the table goes
 * by run number).
 */
static bool sort_on(const struct explorer *e, const struct ui_column *c,
		    const char *key)
{
	struct runs_kinds kinds = runs_kinds_of(e);

	return strcmp(c->key, key) == 0 && column_shown(c, &kinds);
}

/* Sorting: the order's run list, and the column it sorts on (found once). */
static const struct ui *sort_ui;
static const struct explorer *sort_explorer;
static struct ui_column sort_column;
static bool sort_by_column;

static double sort_value(size_t k)
{
	const struct run_result *r = &sort_explorer->session->results[k];
	double v;

	if (strcmp(sort_ui->runs.sort, "secs") == 0)
		return r->measured_s;
	if (sort_by_column)
		return ui_column_value(r, &sort_column, &v) ? v : NAN;
	return (double)k; /* "#" */
}

/* -1, 0 or 1 as x is below, at or above y. */
static int cmp_size(size_t x, size_t y)
{
	return (x > y) - (x < y);
}

/*
 * By name, as the row says it, A to Z: the strategy, its size and flows as
 * numbers, then the words after them -- the receive side's tag, the knobs
 * -- and the mode.
 */
static int cmp_names(size_t x, size_t y)
{
	const struct run_config *cx =
		&sort_explorer->session->results[x].config;
	const struct run_config *cy =
		&sort_explorer->session->results[y].config;
	int order = strcmp(cx->strategy->name, cy->strategy->name);
	struct settings_stack kx, ky;
	char tx[96], ty[96];

	if (!order)
		order = cmp_size(cx->msg_size, cy->msg_size);
	if (!order)
		order = cmp_size(cx->threads, cy->threads);
	if (!order)
		order = strcmp(rx_side_of(cx->settings.rx)->tag,
			       rx_side_of(cy->settings.rx)->tag);
	if (!order) {
		kx = settings_stack_of(&cx->settings);
		ky = settings_stack_of(&cy->settings);
		settings_stack_tag(&kx, tx, sizeof(tx));
		settings_stack_tag(&ky, ty, sizeof(ty));
		order = strcmp(tx, ty);
	}
	if (!order)
		order = strcmp(run_mode_name(cx->mode),
			       run_mode_name(cy->mode));
	return order;
}

static int cmp_runs(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int order = 0;

	if (strcmp(sort_ui->runs.sort, "run") == 0) {
		order = cmp_names(x, y);
	} else {
		double vx = sort_value(x), vy = sort_value(y);

		/* A run without the value ("-") goes last either way. */
		if (isnan(vx) != isnan(vy))
			return isnan(vx) ? 1 : -1;
		order = vx < vy ? -1 : vx > vy;
	}
	if (!order)
		order = x < y ? -1 : x > y;
	return sort_ui->runs.descending ? -order : order;
}

/* A run's label with its mode, as the filter matches it. */
static void filter_label(const struct run_result *r, char *out, size_t size)
{
	char label[UI_LABEL_MAX];

	ui_result_label(r, label, sizeof(label));
	snprintf(out, size, "%s %s", label, run_mode_name(r->config.mode));
}

size_t ui_runs_order(const struct ui *ui, const struct explorer *e,
		     size_t *order)
{
	struct ui_column col[UI_COLUMNS_MAX];
	size_t runs = e->session->result_count, n = 0;
	size_t columns = ui_runs_columns(col);

	for (size_t k = 0; k < runs; k++) {
		char label[UI_LABEL_MAX + 16];

		filter_label(&e->session->results[k], label, sizeof(label));
		if (!ui->runs.filter[0] || strcasestr(label, ui->runs.filter))
			order[n++] = k;
	}
	sort_ui = ui;
	sort_explorer = e;
	sort_by_column = false;
	for (size_t c = 0; c < columns && !sort_by_column; c++)
		if (sort_on(e, &col[c], ui->runs.sort)) {
			sort_column = col[c];
			sort_by_column = true;
		}
	qsort(order, n, sizeof(*order), cmp_runs);
	return n;
}

void ui_sort_name(const struct ui *ui, const struct explorer *e, char *out,
		  size_t size)
{
	struct ui_column col[UI_COLUMNS_MAX];
	size_t n = ui_runs_columns(col);
	const char *sort = ui->runs.sort;
	const char *name = strcmp(sort, "run") == 0    ? "name"
			   : strcmp(sort, "secs") == 0 ? "seconds"
						       : "run number";

	for (size_t c = 0; c < n; c++)
		if (sort_on(e, &col[c], sort))
			name = col[c].head;
	snprintf(out, size, "%s", name);
}

const char *ui_sort_direction(const struct ui *ui, const char *name)
{
	bool down = ui->runs.descending;

	if (strcmp(name, "name") == 0)
		return down ? "Z to A" : "A to Z";
	if (strcmp(name, "run number") == 0)
		return down ? "newest first" : "oldest first";
	return down ? "largest first" : "smallest first";
}

void ui_runs_sort_by(struct ui *ui, const char *key, bool descending)
{
	struct ui_column col[UI_COLUMNS_MAX];
	size_t n = ui_runs_columns(col);
	bool known = strcmp(key, "run") == 0 || strcmp(key, "secs") == 0;

	for (size_t c = 0; c < n; c++)
		known |= strcmp(col[c].key, key) == 0;
	if (!known)
		return;
	snprintf(ui->runs.sort, sizeof(ui->runs.sort), "%s", key);
	ui->runs.descending = descending;
}

/* The sort: the columns in order, "#" first. */
static void sort_step(struct ui *ui, const struct explorer *e, int delta)
{
	struct ui_column col[UI_COLUMNS_MAX];
	size_t n = ui_runs_columns(col), at = 0, count = 3;
	const char *key[UI_COLUMNS_MAX + 3] = {"#", "run", "secs"};
	struct runs_kinds kinds = runs_kinds_of(e);
	char name[32];

	/* The round trip's columns only while the table shows them. */
	for (size_t c = 0; c < n; c++)
		if (column_shown(&col[c], &kinds))
			key[count++] = col[c].key;
	for (size_t c = 0; c < count; c++)
		if (strcmp(key[c], ui->runs.sort) == 0)
			at = c;
	at = (at + (delta < 0 ? count - 1 : 1)) % count;
	snprintf(ui->runs.sort, sizeof(ui->runs.sort), "%s", key[at]);
	/* Figures read best largest first; names and numbers in order. */
	ui->runs.descending = at >= 2;
	ui_sort_name(ui, e, name, sizeof(name));
	ui_note(ui, "runs sorted by %s, %s (I inverts)", name,
		ui_sort_direction(ui, name));
}

bool ui_runs_marked(const struct ui *ui, size_t k)
{
	return k < ui->runs.marked_capacity && ui->runs.marked[k];
}

static void mark(struct ui *ui, const struct explorer *e)
{
	struct ui_runs *t = &ui->runs;
	size_t n = e->session->result_count;
	bool any = false;

	if (!n) {
		ui_note(ui, "no finished runs to compare yet");
		return;
	}
	if (t->marked_capacity < n) {
		bool *grown = realloc(t->marked, n * 2 * sizeof(*grown));

		if (!grown)
			return;
		memset(grown + t->marked_capacity, 0,
		       (n * 2 - t->marked_capacity) * sizeof(*grown));
		t->marked = grown;
		t->marked_capacity = n * 2;
	}
	if (t->cursor >= n)
		t->cursor = n - 1;
	t->marked[t->cursor] = !t->marked[t->cursor];
	for (size_t k = 0; k < n; k++)
		any |= t->marked[k];
	ui_note(ui, "run %zu %s; 3 compares %s", t->cursor + 1,
		t->marked[t->cursor] ? "marked" : "unmarked",
		any ? "the marked runs"
		    : "the selected run and the one before");
}

void ui_runs_track(struct ui *ui, const struct explorer *e)
{
	struct ui_runs *t = &ui->runs;
	size_t runs = e->session->result_count;

	if (runs > t->seen) {
		bool follow = !ui->frozen &&
			      (!t->seen || t->cursor + 1 >= t->seen);

		if (follow)
			t->cursor = runs - 1;
		else
			t->new_runs += runs - t->seen;
	}
	t->seen = runs;
	if (runs && t->cursor + 1 == runs && !ui->frozen)
		t->new_runs = 0;
}

/* The row index in order[0 .. n) to go to from at by delta rows. */
static size_t move_to(const size_t *order, size_t n, size_t at, long delta)
{
	size_t newest = 0;

	if (delta >= (long)(SIZE_MAX / 4)) {
		/* End: the newest run shown, wherever the sort puts it. */
		for (size_t i = 1; i < n; i++)
			if (order[i] > order[newest])
				newest = i;
		return newest;
	}
	if (delta <= -(long)(SIZE_MAX / 4))
		return 0; /* Home: the first row, selected or not before */
	if (at == n)
		return delta < 0 ? n - 1 : 0;
	if (delta < 0)
		return (size_t)-delta > at ? 0 : at - (size_t)-delta;
	return (size_t)delta >= n - at ? n - 1 : at + (size_t)delta;
}

void ui_runs_move(struct ui *ui, const struct explorer *live, long delta)
{
	const struct explorer *e = ui_shown(ui, live);
	size_t runs = e->session->result_count, n, at = 0;
	size_t *order = calloc(runs + 1, sizeof(*order));

	if (!order)
		return;
	n = ui_runs_order(ui, e, order);
	if (n) {
		while (at < n && order[at] != ui->runs.cursor)
			at++;
		ui->runs.cursor = order[move_to(order, n, at, delta)];
		if (ui->runs.cursor + 1 == live->session->result_count)
			ui->runs.new_runs = 0;
	}
	free(order);
}

size_t ui_runs_at_row(const struct ui *ui, const struct explorer *e, int y)
{
	const struct rect *at = &ui->runs.at;
	size_t runs = e->session->result_count, row, n, k = SIZE_MAX;
	size_t *order;

	if (!at->h || y < at->y + 2 || y >= at->y + at->h - 1)
		return SIZE_MAX;
	order = calloc(runs + 1, sizeof(*order));
	if (!order)
		return SIZE_MAX;
	n = ui_runs_order(ui, e, order);
	row = ui->runs.first + (size_t)(y - at->y - 2);
	if (row < n)
		k = order[row];
	free(order);
	return k;
}

bool ui_runs_is_key(int key)
{
	static const int keys[] = {'k',	     'j',     KEY_PPAGE, KEY_NPAGE,
				   KEY_HOME, KEY_END, KEY_F(9),	 'c',
				   KEY_F(6), '>',     '<',	 'I',
				   KEY_F(4), '/'};

	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++)
		if (keys[i] == key)
			return true;
	return false;
}

bool ui_runs_key(struct ui *ui, const struct explorer *e, int key, bool arrows)
{
	long page = ui->runs.page ? (long)ui->runs.page : 1;

	switch (key) {
	case KEY_UP:
	case KEY_DOWN:
		if (!arrows)
			return false;
		ui_runs_move(ui, e, key == KEY_UP ? -1 : 1);
		return true;
	case 'k':
	case 'j':
		ui_runs_move(ui, e, key == 'k' ? -1 : 1);
		return true;
	case KEY_PPAGE:
	case KEY_NPAGE:
		ui_runs_move(ui, e, key == KEY_PPAGE ? -page : page);
		return true;
	case KEY_HOME:
	case KEY_END:
		ui_runs_move(ui, e,
			     key == KEY_HOME ? -(long)(SIZE_MAX / 4)
					     : (long)(SIZE_MAX / 4));
		return true;
	case KEY_F(9):
	case 'c':
		mark(ui, ui_shown(ui, e));
		return true;
	case KEY_F(6):
	case '>':
	case '<':
		sort_step(ui, e, key == '<' ? -1 : 1);
		return true;
	case 'I': {
		char name[32];

		ui->runs.descending = !ui->runs.descending;
		ui_sort_name(ui, e, name, sizeof(name));
		ui_note(ui, "runs sorted by %s, %s", name,
			ui_sort_direction(ui, name));
		return true;
	}
	case KEY_F(4):
	case '/':
		ui->prompt = PROMPT_FILTER;
		return true;
	}
	return false;
}

const char *ui_run_mark(const struct explorer *e, size_t k)
{
	const struct analysis_run *facts;

	if (k >= e->session->run_fact_count)
		return "";
	facts = &e->session->run_facts[k];
	return facts->stopped ? "stopped" : facts->short_run ? "short" : "";
}

/* A failed run's note leads with the cause: "Connection reset by peer". */
static const char *result_note(const struct run_result *res)
{
	const char *cause;

	if (!res->error)
		return "";
	cause = strrchr(res->error, ':');
	return cause && cause[1] == ' ' ? cause + 2 : res->error;
}

/*
 * The cells a column's figure takes: a largest wait says its name too
 * ("preempt 100%").
 */
static int column_width(const struct ui_column *c)
{
	return c->time && c->reason == SIZE_MAX ? 12 : 9;
}

/*
 * The figure columns that fit in width cells after the run's own, in the
 * table's order (the round trip's only when an rr run is there, the
 * probe's when a probe is); the sorted one is always among them.  Returns
 * how many.
 */
static size_t runs_fit(const struct ui *ui, const struct ui_column *col,
		       size_t columns, const struct runs_kinds *kinds,
		       int width, size_t *shown)
{
	size_t n = 0, c;
	int used = 0;

	for (c = 0; c < columns; c++) {
		if (!column_shown(&col[c], kinds))
			continue;
		if (used + 1 + column_width(&col[c]) > width)
			break;
		used += 1 + column_width(&col[c]);
		shown[n++] = c;
	}
	for (; c < columns && n; c++)
		if (strcmp(col[c].key, ui->runs.sort) == 0)
			shown[n - 1] = c;
	return n;
}

/* How many of the columns the table can show at all. */
static size_t runs_columns_shown(const struct ui_column *col, size_t columns,
				 const struct runs_kinds *kinds)
{
	size_t n = 0;

	for (size_t c = 0; c < columns; c++)
		n += column_shown(&col[c], kinds);
	return n;
}

#define RUNS_LABEL     20
#define RUNS_LABEL_MAX 30
/* Wide, a label may take this much (receive sides and knobs named). */
#define RUNS_LABEL_WIDE 56
#define RUNS_WIDE	110
/* "*", the number, the run, its mode, its seconds (and maybe a mark) */
#define RUNS_OWN(number, label) (1 + 1 + (number) + 1 + (label) + 8 + 7)

/* What a draw of the table lays out: columns, widths and order. */
struct table_layout {
	struct ui_column col[UI_COLUMNS_MAX];
	size_t show[UI_COLUMNS_MAX];
	size_t columns, shown;
	struct runs_kinds kinds;
	int number_w, label_w, mark_w, width;
};

static void table_layout(const struct ui *ui, const struct explorer *e,
			 int width, struct table_layout *t)
{
	t->columns = ui_runs_columns(t->col);
	t->kinds = runs_kinds_of(e);
	/* The numbers as wide as the last (three digits at least). */
	t->number_w = snprintf(NULL, 0, "%zu", e->session->result_count);
	if (t->number_w < 3)
		t->number_w = 3;
	t->label_w = RUNS_LABEL;
	t->mark_w = 0;
	t->width = width;
	for (size_t k = 0; k < e->session->result_count; k++) {
		char label[UI_LABEL_MAX];
		int len, w = (int)strlen(ui_run_mark(e, k));
		int most = width >= RUNS_WIDE ? RUNS_LABEL_WIDE
					      : RUNS_LABEL_MAX;

		ui_result_label(&e->session->results[k], label, sizeof(label));
		len = (int)strlen(label);
		if (len > t->label_w)
			t->label_w = len < most ? len : most;
		if (w && w + 1 > t->mark_w)
			t->mark_w = w + 1;
	}
	t->shown = runs_fit(
		ui, t->col, t->columns, &t->kinds,
		width - RUNS_OWN(t->number_w, t->label_w) - t->mark_w, t->show);
}

/* The box and its title: the filter, the sort, and what does not fit. */
static void table_box(struct ui *ui, const struct explorer *e,
		      const struct rect *r, const struct table_layout *t)
{
	char title[200], sort[32];
	size_t n = (size_t)snprintf(title, sizeof(title), "Runs");

	ui_sort_name(ui, e, sort, sizeof(sort));
	if (ui->runs.filter[0])
		n += (size_t)snprintf(title + n, sizeof(title) - n,
				      " matching '%s'", ui->runs.filter);
	n += (size_t)snprintf(title + n, sizeof(title) - n, ", by %s, %s", sort,
			      ui_sort_direction(ui, sort));
	if (t->shown < runs_columns_shown(t->col, t->columns, &t->kinds))
		snprintf(title + n, sizeof(title) - n,
			 "; %zu of %zu figures (view 3 has all)", t->shown,
			 runs_columns_shown(t->col, t->columns, &t->kinds));
	ui_box(ui->utf8, r, ROLE_BOX_HISTORY, title);
}

static void table_head(const struct rect *r, const struct table_layout *t)
{
	char line[512];
	size_t n = (size_t)snprintf(
		line, sizeof(line), "  %*s %-*s  %-6s %6s%*s", t->number_w, "#",
		t->label_w, "name", "mode", "secs", t->mark_w, "");

	for (size_t c = 0; c < t->shown && n < sizeof(line); c++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %*s",
				      column_width(&t->col[t->show[c]]),
				      t->col[t->show[c]].head);
	ui_text(r->y + 1, r->x + 2, t->width, ROLE_GRAPH_TEXT, "%s", line);
}

static void table_row(const struct ui *ui, const struct explorer *e, size_t k,
		      int y, const struct rect *r, const struct table_layout *t)
{
	const struct run_result *res = &e->session->results[k];
	/* Left out of the analysis and the chart: dimmed. */
	const char *mark = res->error ? "" : ui_run_mark(e, k);
	char label[UI_LABEL_MAX], field[UI_LABEL_MAX + 4], cell[16], line[512];
	size_t n;

	ui_result_label(res, label, sizeof(label));
	ui_label_fit(ui->utf8, label, t->label_w, field, sizeof(field));
	n = (size_t)snprintf(line, sizeof(line), "%s %*zu %s  %-6s %6.2f%*s",
			     ui_runs_marked(ui, k) ? "*" : " ", t->number_w,
			     k + 1, field, run_mode_name(res->config.mode),
			     res->measured_s, t->mark_w, mark);
	/* A failed run says why where its figures would be. */
	if (res->error)
		snprintf(line + n, sizeof(line) - n, "  failed: %s",
			 result_note(res));
	for (size_t c = 0; c < t->shown && !res->error && n < sizeof(line);
	     c++) {
		ui_column_cell(res, &t->col[t->show[c]], cell, sizeof(cell));
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %*s",
				      column_width(&t->col[t->show[c]]), cell);
	}
	ui_text(y, r->x + 2, t->width,
		k == ui->runs.cursor ? ROLE_SELECTED
		: *mark		     ? ROLE_INACTIVE
				     : ROLE_TEXT,
		"%s", line);
}

/* The first row shown: the selected run in sight, no blank page end. */
static size_t table_first(struct ui *ui, const size_t *order, size_t count,
			  int rows)
{
	size_t row = 0, first = ui->runs.first;

	while (row < count && order[row] != ui->runs.cursor)
		row++;
	if (row == count)
		row = count ? count - 1 : 0;
	if (row < first)
		first = row;
	if (rows > 0 && row >= first + (size_t)rows)
		first = row - (size_t)rows + 1;
	if (rows > 0 && first + (size_t)rows > count)
		first = count > (size_t)rows ? count - (size_t)rows : 0;
	return first;
}

/*
 * Under the rows, beside the round trips' columns: that they hold nio-top's
 * counters, and what counting did to them, as the runs measured it.
 */
static void table_rr_note(const struct explorer *e,
			  const struct table_layout *t, int width,
			  struct ui_lines *l)
{
	const char *said = e->session->analysis.counters_why;
	char heads[96] = "", text[600];
	size_t len = 0;

	for (size_t c = 0; c < t->shown && said[0]; c++)
		if (t->col[t->show[c]].latency && len < sizeof(heads))
			len += (size_t)snprintf(
				heads + len, sizeof(heads) - len, "%s%s",
				len ? ", " : "", t->col[t->show[c]].head);
	if (!len)
		return;
	snprintf(text, sizeof(text), "%s: %s", heads, said);
	ui_lines_wrap(l, ROLE_INACTIVE, width, 2, text);
}

/*
 * Under the rows, why a profile column says n/a: its runs were sampled in
 * user space only (the first such side's reason, which says the fix); and
 * what the round trips hold.
 */
static void table_note(const struct explorer *e, const struct table_layout *t,
		       const size_t *order, size_t count, int width,
		       struct ui_lines *l)
{
	const char *why = NULL;
	char heads[96] = "", text[400];
	size_t len = 0;

	for (size_t c = 0; c < t->shown; c++) {
		const struct ui_column *col = &t->col[t->show[c]];

		for (size_t i = 0; col->profile && i < count; i++) {
			const struct run_result *res =
				&e->session->results[order[i]];

			if (!ui_profile_user_only(res, col))
				continue;
			why = why ? why : res->profile[col->metric.side].why;
			if (len < sizeof(heads))
				len += (size_t)snprintf(
					heads + len, sizeof(heads) - len,
					"%s%s", len ? ", " : "", col->head);
			break;
		}
	}
	if (why) {
		snprintf(text, sizeof(text), "%s n/a: %s", heads, why);
		ui_lines_wrap(l, ROLE_INACTIVE, width, 2, text);
	}
	table_rr_note(e, t, width, l);
}

void ui_runs_draw(struct ui *ui, const struct explorer *e, const struct rect *r)
{
	size_t runs = e->session->result_count, count, first;
	size_t *order = calloc(runs + 1, sizeof(*order));
	int rows = r->h - 3;
	struct table_layout t;
	struct ui_lines note = {0};

	ui->runs.at = *r;
	table_layout(ui, e, r->w - 4, &t);
	table_box(ui, e, r, &t);
	if (!order)
		return;
	table_head(r, &t);
	count = ui_runs_order(ui, e, order);
	table_note(e, &t, order, count, r->w - 4, &note);
	/* The note below the rows, as long as a row is left above it. */
	if ((int)note.count < rows - 1) {
		rows -= (int)note.count;
		/* A click on the note picks no run. */
		ui->runs.at.h -= (int)note.count;
		for (size_t i = 0; i < note.count; i++)
			ui_text(r->y + 2 + rows + (int)i,
				r->x + 2 + note.line[i].indent,
				r->w - 4 - note.line[i].indent,
				note.line[i].role, "%s", note.line[i].text);
	}
	ui_lines_free(&note);
	ui->runs.page = rows > 1 ? (size_t)rows - 1 : 1;
	first = ui->runs.first = table_first(ui, order, count, rows);
	for (int i = 0; i < rows && first + (size_t)i < count; i++)
		table_row(ui, e, order[first + (size_t)i], r->y + 2 + i, r, &t);
	if (!runs)
		ui_say(r, 2, ROLE_INACTIVE,
		       "No finished runs yet: change a control, or let a "
		       "timed run end, and it lands here.");
	else if (!count)
		ui_say(r, 2, ROLE_INACTIVE,
		       "No run matches '%s' (/ changes the filter, Esc "
		       "clears it).",
		       ui->runs.filter);
	if (rows > 0 && count > (size_t)rows)
		ui_text(r->y + r->h - 1, r->x + r->w - 22, 20, ROLE_TITLE,
			" %zu-%zu of %zu ", first + 1,
			first + (size_t)rows < count ? first + (size_t)rows
						     : count,
			count);
	free(order);
}
