/*
 * Panes: what a view or an overlay shows as lines -- the runs table, compare,
 * the analysis, the data path, the preset list -- made first, wrapped to the
 * width they get, and then drawn from a scroll offset, so that nothing is cut
 * at 80x24: what does not fit scrolls, and the box says how much more there
 * is above and below.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis.h"
#include "ui_private.h"

void ui_lines_add(struct ui_lines *l, enum theme_role role, int indent,
		  const char *fmt, ...)
{
	struct ui_line_text *line;
	va_list ap;

	if (l->count == l->capacity) {
		size_t capacity = l->capacity ? 2 * l->capacity : 32;
		void *grown = realloc(l->line, capacity * sizeof(*l->line));

		if (!grown)
			return;
		l->line = grown;
		l->capacity = capacity;
	}
	line = &l->line[l->count++];
	line->role = role;
	line->indent = indent;
	line->mark = 0;
	va_start(ap, fmt);
	vsnprintf(line->text, sizeof(line->text), fmt, ap);
	va_end(ap);
}

/* Characters (not bytes) of a UTF-8 string's first n bytes. */
static int utf8_width(const char *s, size_t n)
{
	int width = 0;

	for (size_t i = 0; i < n && s[i]; i++)
		width += ((unsigned char)s[i] & 0xc0) != 0x80;
	return width;
}

void ui_lines_wrap(struct ui_lines *l, enum theme_role role, int width,
		   int indent, const char *text)
{
	int first = 1;

	while (*text) {
		int room = width - (first ? 0 : indent);
		size_t cut = 0, fit = 0;

		/* The longest run of whole words that fits the room. */
		for (size_t i = 0; text[i]; i++) {
			if (utf8_width(text, i + 1) > room)
				break;
			fit = i + 1;
			if (text[i + 1] == ' ' || !text[i + 1])
				cut = i + 1;
		}
		if (!cut)
			cut = fit ? fit : strlen(text);
		ui_lines_add(l, role, first ? 0 : indent, "%.*s", (int)cut,
			     text);
		text += cut;
		while (*text == ' ')
			text++;
		first = 0;
	}
}

void ui_lines_mark(struct ui_lines *l, size_t i, enum theme_role role, int n)
{
	if (i >= l->count)
		return;
	l->line[i].mark = n;
	l->line[i].mark_role = role;
}

void ui_say(const struct rect *r, int dy, enum theme_role role, const char *fmt,
	    ...)
{
	struct ui_lines l = {0};
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	ui_lines_wrap(&l, role, r->w - 6, 0, text);
	for (size_t i = 0; i < l.count && dy + (int)i < r->h - 1; i++)
		ui_text(r->y + dy + (int)i, r->x + 3, r->w - 6, role, "%s",
			l.line[i].text);
	ui_lines_free(&l);
}

void ui_lines_free(struct ui_lines *l)
{
	free(l->line);
	*l = (struct ui_lines){0};
}

void ui_lines_draw(const struct ui *ui, const struct ui_lines *l,
		   const struct rect *r, size_t *scroll)
{
	size_t rows = r->h > 2 ? (size_t)(r->h - 2) : 0;
	size_t fixed = l->fixed < rows ? l->fixed : rows;
	size_t body = l->count > fixed ? l->count - fixed : 0;

	rows -= fixed;
	if (*scroll + rows > body)
		*scroll = body > rows ? body - rows : 0;
	for (size_t i = 0; i < fixed + rows; i++) {
		size_t k = i < fixed ? i : *scroll + i;
		const struct ui_line_text *line;
		int width;

		if (k >= l->count)
			break;
		line = &l->line[k];
		width = r->w - 4 - line->indent;
		ui_text(r->y + 1 + (int)i, r->x + 2 + line->indent, width,
			line->role, "%s", line->text);
		if (line->mark)
			ui_text(r->y + 1 + (int)i, r->x + 2 + line->indent,
				line->mark < width ? line->mark : width,
				line->mark_role, "%.*s", line->mark,
				line->text);
	}
	/* How much more there is, on the box's frame. */
	if (*scroll)
		ui_text(r->y, r->x + r->w - 16, 14, ROLE_TITLE, " %s %zu more ",
			ui->utf8 ? "\u25b2" : "^", *scroll);
	if (*scroll + rows < body)
		ui_text(r->y + r->h - 1, r->x + r->w - 16, 14, ROLE_TITLE,
			" %s %zu more ", ui->utf8 ? "\u25bc" : "v",
			body - *scroll - rows);
}

/* The runs table. */

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
		}
	}
	return n;
}

/* A column's figure of a run: false if it has none. */
static bool column_value(const struct run_result *r, const struct ui_column *c,
			 double *v)
{
	struct figure_quantity q = {.source = FIGURE_LATENCY,
				    .percentile = c->percentile};

	if (c->latency)
		return figure_run_value(&q, r, v);
	return run_result_metric(r, c->metric.side == SIDE_SENDER,
				 c->metric.metric, v);
}

/* A column's cell: the figure, "-" where the mode has none, or "n/a". */
static void column_cell(const struct run_result *r, const struct ui_column *c,
			char *out, size_t size)
{
	double v;

	if (c->latency && !column_value(r, c, &v))
		snprintf(out, size, "-");
	else if (c->latency)
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

/*
 * Whether the table sorts on column c by key: the round trip's columns only
 * once an rr run is in it (until then they are not shown, and the table
 * goes by run number).
 */
static bool sort_on(const struct explorer *e, const struct ui_column *c,
		    const char *key)
{
	return strcmp(c->key, key) == 0 && (!c->latency || ui_runs_rr(e));
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

	if (strcmp(sort_ui->sort, "secs") == 0)
		return r->measured_s;
	if (sort_by_column)
		return column_value(r, &sort_column, &v) ? v : -INFINITY;
	return (double)k; /* "#" */
}

/* -1, 0 or 1 as x is below, at or above y. */
static int cmp_size(size_t x, size_t y)
{
	return (x > y) - (x < y);
}

static int cmp_runs(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int order = 0;

	if (strcmp(sort_ui->sort, "run") == 0) {
		/* By name: strategy, then size and flows as numbers. */
		const struct run_config *cx, *cy;

		cx = &sort_explorer->session->results[x].config;
		cy = &sort_explorer->session->results[y].config;
		order = strcmp(cx->strategy->name, cy->strategy->name);
		if (!order)
			order = cmp_size(cx->msg_size, cy->msg_size);
		if (!order)
			order = cmp_size(cx->threads, cy->threads);
		if (!order)
			order = (int)cx->settings.rx - (int)cy->settings.rx;
	} else {
		double vx = sort_value(x), vy = sort_value(y);

		order = vx < vy ? -1 : vx > vy;
	}
	if (!order)
		order = x < y ? -1 : x > y;
	return sort_ui->descending ? -order : order;
}

/* A run's label with its mode, as the filter matches it. */
static void filter_label(const struct run_result *r, char *out, size_t size)
{
	char label[96];

	ui_result_label(r, label, sizeof(label));
	snprintf(out, size, "%s %s", label, run_mode_name(r->config.mode));
}

size_t ui_runs_order(struct ui *ui, const struct explorer *e, size_t *order)
{
	struct ui_column col[UI_COLUMNS_MAX];
	size_t runs = e->session->result_count, n = 0;
	size_t columns = ui_runs_columns(col);

	for (size_t k = 0; k < runs; k++) {
		char label[128];

		filter_label(&e->session->results[k], label, sizeof(label));
		if (!ui->filter[0] || strcasestr(label, ui->filter))
			order[n++] = k;
	}
	sort_ui = ui;
	sort_explorer = e;
	sort_by_column = false;
	for (size_t c = 0; c < columns && !sort_by_column; c++)
		if (sort_on(e, &col[c], ui->sort)) {
			sort_column = col[c];
			sort_by_column = true;
		}
	qsort(order, n, sizeof(*order), cmp_runs);
	return n;
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

void ui_sort_name(const struct ui *ui, const struct explorer *e, char *out,
		  size_t size)
{
	struct ui_column col[UI_COLUMNS_MAX];
	size_t n = ui_runs_columns(col);
	const char *name = strcmp(ui->sort, "run") == 0	   ? "name"
			   : strcmp(ui->sort, "secs") == 0 ? "seconds"
							   : "run number";

	for (size_t c = 0; c < n; c++)
		if (sort_on(e, &col[c], ui->sort))
			name = col[c].head;
	snprintf(out, size, "%s", name);
}

const char *ui_sort_direction(const struct ui *ui, const char *name)
{
	if (strcmp(name, "name") == 0)
		return ui->descending ? "Z to A" : "A to Z";
	if (strcmp(name, "run number") == 0)
		return ui->descending ? "newest first" : "oldest first";
	return ui->descending ? "largest first" : "smallest first";
}

/*
 * The figure columns that fit in width cells after the run's own, in the
 * table's order (the round trip's only when an rr run is there); the sorted
 * one is always among them.  Returns how many.
 */
static size_t runs_fit(const struct ui *ui, const struct ui_column *col,
		       size_t columns, bool rr, int width, size_t *shown)
{
	size_t fit = width > 0 ? (size_t)width / 10 : 0, n = 0, c;

	for (c = 0; c < columns && n < fit; c++)
		if (rr || !col[c].latency)
			shown[n++] = c;
	for (; c < columns && n; c++)
		if (strcmp(col[c].key, ui->sort) == 0)
			shown[n - 1] = c;
	return n;
}

/* How many of the columns the table can show at all. */
static size_t runs_columns_shown(const struct ui_column *col, size_t columns,
				 bool rr)
{
	size_t n = 0;

	for (size_t c = 0; c < columns; c++)
		n += rr || !col[c].latency;
	return n;
}

#define RUNS_LABEL     20
#define RUNS_LABEL_MAX 30
/*
 * Why run k is left out of the analysis and the chart, as its row says it:
 * "stopped" (a stop ended its window), "short", or "".
 */
static const char *run_mark(const struct explorer *e, size_t k)
{
	const struct analysis_run *facts;

	if (k >= e->session->run_fact_count)
		return "";
	facts = &e->session->run_facts[k];
	return facts->stopped ? "stopped" : facts->short_run ? "short" : "";
}

/* "*", the number, the run, its mode, its seconds (and maybe a mark) */
#define RUNS_OWN(label) (1 + 4 + 1 + (label) + 8 + 7)

/* The run column: as wide as its longest label ("... x1 rx-zc"). */
static int runs_label_width(const struct explorer *e)
{
	int w = RUNS_LABEL;

	for (size_t k = 0; k < e->session->result_count; k++) {
		char label[96];
		int len;

		ui_result_label(&e->session->results[k], label, sizeof(label));
		len = (int)strlen(label);
		if (len > w)
			w = len < RUNS_LABEL_MAX ? len : RUNS_LABEL_MAX;
	}
	return w;
}

void ui_draw_runs(struct ui *ui, const struct explorer *e, const struct rect *r)
{
	size_t runs = e->session->result_count, count, first, row = 0;
	size_t *order = calloc(runs + 1, sizeof(*order));
	struct ui_column col[UI_COLUMNS_MAX];
	size_t columns = ui_runs_columns(col), show[UI_COLUMNS_MAX], shown, n;
	int rows = r->h - 3, width = r->w - 4;
	char title[200], sort[32], line[512];
	/* The round trip's columns, and a mark, only where a run has them. */
	bool rr = ui_runs_rr(e);
	int label_w = runs_label_width(e), mark_w = 0;

	for (size_t k = 0; k < e->session->result_count; k++) {
		int w = (int)strlen(run_mark(e, k));

		mark_w = w && w + 1 > mark_w ? w + 1 : mark_w;
	}
	ui->history = *r;
	shown = runs_fit(ui, col, columns, rr,
			 width - RUNS_OWN(label_w) - mark_w, show);
	ui_sort_name(ui, e, sort, sizeof(sort));
	n = (size_t)snprintf(title, sizeof(title), "Runs");
	if (ui->filter[0])
		n += (size_t)snprintf(title + n, sizeof(title) - n,
				      " matching '%s'", ui->filter);
	n += (size_t)snprintf(title + n, sizeof(title) - n, ", by %s, %s", sort,
			      ui_sort_direction(ui, sort));
	if (shown < runs_columns_shown(col, columns, rr))
		snprintf(title + n, sizeof(title) - n,
			 "; %zu of %zu figures (view 3 has all)", shown,
			 runs_columns_shown(col, columns, rr));
	ui_box(ui, r, ROLE_BOX_HISTORY, title);
	if (!order)
		return;
	n = (size_t)snprintf(line, sizeof(line), "  %3s %-*s  %-6s %6s%*s", "#",
			     label_w, "run", "mode", "secs", mark_w, "");
	for (size_t c = 0; c < shown && n < sizeof(line); c++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %9s",
				      col[show[c]].head);
	ui_text(r->y + 1, r->x + 2, width, ROLE_GRAPH_TEXT, "%s", line);
	count = ui_runs_order(ui, e, order);
	ui->page = rows > 1 ? (size_t)rows - 1 : 1;
	while (row < count && order[row] != ui->cursor)
		row++;
	if (row == count)
		row = count ? count - 1 : 0;
	first = ui->history_first;
	if (row < first)
		first = row;
	if (rows > 0 && row >= first + (size_t)rows)
		first = row - (size_t)rows + 1;
	if (rows > 0 && first + (size_t)rows > count)
		first = count > (size_t)rows ? count - (size_t)rows : 0;
	ui->history_first = first;
	for (int i = 0; i < rows && first + (size_t)i < count; i++) {
		size_t k = order[first + (size_t)i];
		const struct run_result *res = &e->session->results[k];
		bool marked = k < ui->marked_capacity && ui->marked[k];
		/* Left out of the analysis and the chart: dimmed. */
		const char *mark = res->error ? "" : run_mark(e, k);
		bool brief = *mark;
		char label[64], cell[16];

		ui_result_label(res, label, sizeof(label));
		n = (size_t)snprintf(
			line, sizeof(line), "%s %3zu %-*.*s  %-6s %6.2f%*s",
			marked ? "*" : " ", k + 1, label_w, label_w, label,
			run_mode_name(res->config.mode), res->measured_s,
			mark_w, *mark ? mark : "");
		/* A failed run says why where its figures would be. */
		if (res->error)
			snprintf(line + n, sizeof(line) - n, "  failed: %s",
				 result_note(res));
		for (size_t c = 0; c < shown && !res->error && n < sizeof(line);
		     c++) {
			column_cell(res, &col[show[c]], cell, sizeof(cell));
			n += (size_t)snprintf(line + n, sizeof(line) - n,
					      " %9s", cell);
		}
		ui_text(r->y + 2 + i, r->x + 2, width,
			k == ui->cursor ? ROLE_SELECTED
			: brief		? ROLE_INACTIVE
					: ROLE_TEXT,
			"%s", line);
	}
	if (!runs)
		ui_say(r, 2, ROLE_INACTIVE,
		       "No finished runs yet: change a control, or let a "
		       "timed run end, and it lands here.");
	else if (!count)
		ui_say(r, 2, ROLE_INACTIVE,
		       "No run matches '%s' (/ changes the filter, Esc "
		       "clears it).",
		       ui->filter);
	if (rows > 0 && count > (size_t)rows)
		ui_text(r->y + r->h - 1, r->x + r->w - 22, 20, ROLE_TITLE,
			" %zu-%zu of %zu ", first + 1,
			first + (size_t)rows < count ? first + (size_t)rows
						     : count,
			count);
	free(order);
}

/* The figures' names, and a run's column at the least and with a ratio. */
#define COMPARE_LABEL  30
#define COMPARE_NARROW 13
#define COMPARE_RATIO  17

/*
 * The runs compared: the marked ones that fit, or else the selected one and
 * the latest ones, as many as fit with their ratios (two at the least).
 * Returns how many; *marked says how many are marked.
 */
static size_t compare_pick(const struct ui *ui, const struct explorer *e,
			   int width, size_t *pick, size_t *marked)
{
	size_t runs = e->session->result_count, n = 0;
	size_t fit = width > 0 ? (size_t)width / COMPARE_NARROW : 1;
	size_t fit_ratio = width > 0 ? (size_t)width / COMPARE_RATIO : 1;

	*marked = 0;
	for (size_t k = 0; k < runs; k++)
		if (k < ui->marked_capacity && ui->marked[k]) {
			if (n < fit && n < 8)
				pick[n++] = k;
			++*marked;
		}
	if (n)
		return n;
	if (fit_ratio < 2)
		fit_ratio = 2;
	if (ui->cursor < runs)
		pick[n++] = ui->cursor;
	for (size_t k = runs; k-- > 0 && n < 4 && n < fit_ratio;)
		if (k != ui->cursor)
			pick[n++] = k;
	return n;
}

/*
 * A compare cell, column wide: the value, and with ratio its ratio to base
 * (the first run's) in the last 7 characters.
 */
static void compare_cell(const struct run_result *r, const struct ui_column *c,
			 bool ratio, bool base_known, double base, int column,
			 char *out, size_t size)
{
	char value[16], suffix[16] = "";
	double v;

	column_cell(r, c, value, sizeof(value));
	if (ratio && base_known && base > 0 && isfinite(base) &&
	    column_value(r, c, &v))
		/* Two decimals, one from x10 on: "x0.64", "x1.10", "x12.3". */
		snprintf(suffix, sizeof(suffix), " x%-5.*f",
			 v / base < 9.995 ? 2 : 1, v / base);
	else if (ratio)
		snprintf(suffix, sizeof(suffix), "%7s", "");
	snprintf(out, size, "%*s%s", column - (ratio ? 7 : 0), value, suffix);
}

/*
 * A run's share as a cell, "37%": of its zero-copy completions the kernel
 * copied (share 0), or of its received bytes read in mapped pages (1).
 * False if the run has none.
 */
static bool compare_share(const struct run_result *r, int share, char *out,
			  size_t size)
{
	const struct run_totals *t = &r->totals;
	uint64_t whole = t->rx_mapped + t->rx_copied;
	char text[32];

	if (!share)
		return sampler_zc_copied(t, out ? out : text,
					 out ? size : sizeof(text));
	if (!whole)
		return false;
	if (out)
		snprintf(out, size, "%.0f%%",
			 100.0 * (double)t->rx_mapped / (double)whole);
	return true;
}

/*
 * The figures none of the compared runs has, grouped by why not: each
 * metric once, with the sides it is missing on.
 */
struct compare_group {
	const char *why;
	unsigned int sides[METRICS_MAX]; /* a bit per gauge_side */
};

struct compare_unknown {
	struct compare_group group[8];
	size_t count;
};

static void compare_unknown(struct compare_unknown *u,
			    const struct run_result *r,
			    const struct ui_metric *m)
{
	const char *why = run_result_metric_why(r, m->side == SIDE_SENDER,
						m->metric);
	size_t i;

	for (i = 0; i < u->count && strcmp(u->group[i].why, why); i++)
		;
	if (i == sizeof(u->group) / sizeof(*u->group))
		return;
	if (i == u->count)
		u->group[u->count++] = (struct compare_group){.why = why};
	u->group[i].sides[m->metric] |= 1u << m->side;
}

/* "L1d misses, IPC tx: n/a in these runs: why" */
static void compare_unknown_text(const struct compare_unknown *u, size_t i,
				 char *out, size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	for (size_t g = 0; g < metric_count && len < size; g++) {
		unsigned int sides = u->group[i].sides[g];

		if (!sides)
			continue;
		len += (size_t)snprintf(out + len, size - len, "%s%s%s",
					len ? ", " : "", metrics[g].label,
					sides == 1u << SIDE_SENDER     ? " tx"
					: sides == 1u << SIDE_RECEIVER ? " rx"
								       : "");
	}
	if (len < size)
		snprintf(out + len, size - len, ": n/a in these runs: %s",
			 u->group[i].why);
}

void ui_draw_compare(struct ui *ui, const struct explorer *e,
		     const struct rect *r)
{
	static const enum figure_percentile latency_rows[] = {
		PERCENTILE_P50, PERCENTILE_P90, PERCENTILE_P99,
		PERCENTILE_P99_9, PERCENTILE_MAX};
	const size_t latency_count = sizeof(latency_rows) /
				     sizeof(*latency_rows);
	const struct run_result *results = e->session->results;
	struct ui_lines l = {0};
	int label = COMPARE_LABEL, room = r->w - 4 - label, column;
	size_t pick[8], marked, n = compare_pick(ui, e, room, pick, &marked);
	bool rr = false, ratio;
	char line[512], title[160];
	struct compare_unknown unknown = {0};
	bool mixed = false;
	size_t len, same = 0;
	uint64_t runs_seen = n;
	int pad;

	if (!n) {
		ui_box(ui, r, ROLE_BOX_GRAPH, "Compare (c marks runs)");
		ui_say(r, 2, ROLE_INACTIVE, "No finished runs to compare yet.");
		return;
	}
	/* Other runs: their figures from the top, not the old scroll. */
	for (size_t i = 0; i < n; i++)
		runs_seen = runs_seen * 1000003u + pick[i] + 1;
	if (runs_seen != ui->compare_runs) {
		ui->compare_runs = runs_seen;
		ui->view_scroll[VIEW_COMPARE] = 0;
	}
	column = room / (int)n;
	if (column > 22)
		column = 22;
	/* A ratio needs room: "12.3k x1.23". */
	ratio = n > 1 && column >= COMPARE_RATIO;
	pad = ratio ? 7 : 0;
	len = (size_t)snprintf(title, sizeof(title), "Compare");
	if (marked > n)
		len += (size_t)snprintf(title + len, sizeof(title) - len,
					": %zu of %zu marked runs fit", n,
					marked);
	for (size_t i = 0; i < n; i++) {
		rr |= results[pick[i]].config.mode == RUN_RR;
		mixed |= ratio && results[pick[i]].config.mode !=
					  results[pick[0]].config.mode;
		same += i && results[pick[i]].config.mode ==
				     results[pick[0]].config.mode;
	}
	/* Ratios only where a run shares the first run's mode. */
	if (ratio && same)
		snprintf(title + len, sizeof(title) - len,
			 "%s ratios to run %zu (c marks runs)",
			 marked > n ? ";" : ":", pick[0] + 1);
	else if (n > 1 && !ratio)
		snprintf(title + len, sizeof(title) - len,
			 " (c marks runs; wider shows ratios)");
	else
		snprintf(title + len, sizeof(title) - len, " (c marks runs)");
	ui_box(ui, r, ROLE_BOX_GRAPH, title);
	/* The runs' names, sizes and modes stay while the figures scroll. */
	for (int head = 0; head < 3; head++) {
		len = (size_t)snprintf(line, sizeof(line), "%-*s", label,
				       head == 2 ? "(Up/Down scroll)" : "");
		for (size_t i = 0; i < n && len < sizeof(line); i++) {
			const struct run_result *res = &results[pick[i]];
			char size[24], cell[48];

			ui_format_size(res->config.msg_size, size,
				       sizeof(size));
			if (head == 0)
				snprintf(cell, sizeof(cell), "%s #%zu",
					 res->config.strategy->name,
					 pick[i] + 1);
			else if (head == 1)
				snprintf(cell, sizeof(cell), "%s x%u", size,
					 res->config.threads);
			else
				snprintf(cell, sizeof(cell), "%s%s",
					 run_mode_name(res->config.mode),
					 res->config.settings.rx == RX_ZEROCOPY
						 ? " rx-zc"
						 : "");
			/* Over the value, left of the ratio. */
			len += (size_t)snprintf(
				line + len, sizeof(line) - len, "%*.*s%*s",
				column - pad, column - pad - 1, cell, pad, "");
		}
		ui_lines_add(&l, head == 2 ? ROLE_INACTIVE : ROLE_HIGHLIGHT, 0,
			     "%s", line);
	}
	l.fixed = l.count;
	/*
	 * Before the rows they explain: why some have no ratio, and the
	 * figures none of these runs has, grouped by why.
	 */
	if (mixed)
		ui_lines_wrap(&l, ROLE_INACTIVE, r->w - 4, 2,
			      "No ratio between a stream and an rr run: they "
			      "measure different things.");
	for (size_t m = 0; m < ui->metric_count; m++) {
		struct ui_column c = {.metric = ui->metric[m]};
		bool any = false;
		double v;

		for (size_t i = 0; i < n; i++)
			any |= column_value(&results[pick[i]], &c, &v);
		if (!any)
			compare_unknown(&unknown, &results[pick[0]],
					&ui->metric[m]);
	}
	for (size_t i = 0; i < unknown.count; i++) {
		compare_unknown_text(&unknown, i, line, sizeof(line));
		ui_lines_wrap(&l, ROLE_INACTIVE, r->w - 4, 2, line);
	}
	/* The throughput, then the round trip's rows when an rr run is here. */
	for (size_t row = 0; row < ui->metric_count + latency_count; row++) {
		size_t m = row == 0		  ? 0
			   : row <= latency_count ? ui->metric_count + row - 1
						  : row - latency_count;
		bool is_latency = m >= ui->metric_count;
		struct ui_column c = {.latency = is_latency};
		char name[64];
		double base;
		bool base_known;

		if (is_latency && !rr)
			continue;
		if (is_latency) {
			c.percentile = latency_rows[m - ui->metric_count];
			snprintf(name, sizeof(name), "Round trip %s us",
				 figure_percentile_name(c.percentile));
		} else {
			c.metric = ui->metric[m];
			ui_metric_name(&ui->metric[m], name, sizeof(name));
		}
		base_known = column_value(&results[pick[0]], &c, &base);
		/* A figure none of these runs has: said once, above. */
		if (!is_latency) {
			bool any = false;
			double v;

			for (size_t i = 0; i < n; i++)
				any |= column_value(&results[pick[i]], &c, &v);
			if (!any)
				continue;
		}
		len = (size_t)snprintf(line, sizeof(line), "%-*.*s", label,
				       label - 1, name);
		for (size_t i = 0; i < n && len < sizeof(line); i++) {
			char cell[48];

			/* Stream and rr runs measure different things. */
			compare_cell(
				&results[pick[i]], &c, ratio,
				i > 0 && base_known &&
					results[pick[i]].config.mode ==
						results[pick[0]].config.mode,
				base, column, cell, sizeof(cell));
			len += (size_t)snprintf(line + len, sizeof(line) - len,
						"%s", cell);
		}
		ui_lines_add(&l, ROLE_TEXT, 0, "%s", line);
	}
	/* Shares the gauges' foot gives live: what the kernel did. */
	for (int share = 0; share < 2; share++) {
		bool any = false;

		for (size_t i = 0; i < n; i++)
			any |= compare_share(&results[pick[i]], share, NULL, 0);
		if (!any)
			continue;
		len = (size_t)snprintf(line, sizeof(line), "%-*.*s", label,
				       label - 1,
				       share ? "Rx bytes read mapped"
					     : "Zero-copy sends copied");
		for (size_t i = 0; i < n && len < sizeof(line); i++) {
			char cell[24];

			if (!compare_share(&results[pick[i]], share, cell,
					   sizeof(cell)))
				snprintf(cell, sizeof(cell), "-");
			len += (size_t)snprintf(line + len, sizeof(line) - len,
						"%*s%*s", column - pad, cell,
						pad, "");
		}
		ui_lines_add(&l, ROLE_TEXT, 0, "%s", line);
	}
	ui->pane_rows = r->h > 2 + (int)l.fixed ? (size_t)(r->h - 2) - l.fixed
						: 1;
	ui_lines_draw(ui, &l, r, &ui->view_scroll[VIEW_COMPARE]);
	ui_lines_free(&l);
}

void ui_draw_analysis(struct ui *ui, const struct explorer *e,
		      const struct rect *r)
{
	const struct session *s = e->session;
	const struct analysis *a = &s->analysis;
	struct ui_lines l = {0};
	int width = r->w - 4;
	char line[600];
	size_t len;

	ui_box(ui, r, ROLE_BOX_HISTORY,
	       r->w >= 64 ? "Analysis: 95% confidence of a 5% difference"
			  : "Analysis (95% confidence of 5%)");
	len = (size_t)snprintf(line, sizeof(line),
			       "%zu run%s analysed, stream and rr apart; %zu "
			       "short (measured under %g s or over fewer than "
			       "%d intervals) left out",
			       a->runs, a->runs == 1 ? "" : "s", a->short_runs,
			       (double)s->options.min_measured_ms / 1000,
			       ANALYSIS_MIN_INTERVALS);
	if (a->stopped_runs)
		snprintf(line + len, sizeof(line) - len,
			 ", and %zu a stop ended (--keep-stopped keeps them)",
			 a->stopped_runs);
	snprintf(line + strlen(line), sizeof(line) - strlen(line), ".");
	ui_lines_wrap(&l, ROLE_INACTIVE, width, 2, line);
	if (!a->crossover_count)
		ui_lines_wrap(&l, ROLE_INACTIVE, width, 2,
			      "No comparison yet: it needs a pair of two-copy, "
			      "one-copy and zero-copy, or uring and uring-zc, "
			      "sendfile and zero-copy, splice and one-copy, at "
			      "the same sizes, flows, mode and receive side (w "
			      "sweeps them).");
	for (size_t i = 0; i < a->crossover_count; i++) {
		const struct analysis_crossover *c = &a->crossovers[i];
		bool found = c->verdict == VERDICT_FROM ||
			     c->verdict == VERDICT_NEVER ||
			     c->verdict == VERDICT_MIXED ||
			     c->verdict == VERDICT_TIE;

		analysis_crossover_text(c, line, sizeof(line));
		ui_lines_wrap(&l,
			      c->suspect ? ROLE_SENDER_HIGH
			      : found	 ? ROLE_HIGHLIGHT
					 : ROLE_TEXT,
			      width, 2, line);
	}
	/* --repeat is the command line's: what does it here. */
	for (size_t i = 0; i < a->crossover_count && !e->viewing; i++)
		if (a->crossovers[i].verdict == VERDICT_UNDECIDED) {
			ui_lines_wrap(&l, ROLE_INACTIVE, width, 2,
				      "More runs here (--repeat is the "
				      "command line's): Enter runs the "
				      "controls' point again, w sweeps the "
				      "strategies over the sizes again, p "
				      "loads a preset again; each run joins "
				      "its point.");
			break;
		}
	if (a->zerocopy_why[0]) {
		snprintf(line, sizeof(line), "zero-copy: %s", a->zerocopy_why);
		ui_lines_wrap(&l, ROLE_MISC, width, 2, line);
	}
	ui->pane_rows = r->h > 2 ? (size_t)(r->h - 2) : 1;
	ui_lines_draw(ui, &l, r, &ui->view_scroll[VIEW_ANALYSIS]);
	ui_lines_free(&l);
}

/* An overlay's box: most of the screen, over the body. */
static struct rect overlay_rect(const struct ui *ui, int want_w, int want_h)
{
	struct rect r;

	r.w = ui->cols - 4 < want_w ? ui->cols - 4 : want_w;
	r.h = ui->rows - 4 < want_h ? ui->rows - 4 : want_h;
	r.y = 1 + (ui->rows - 3 - r.h) / 2;
	r.x = (ui->cols - r.w) / 2;
	return r;
}

/*
 * The path a run of config takes: the sender's, and with --rx zerocopy that
 * receive side's from the receiver's TCP queue on (the sender's stage is
 * kept: it says whose pages are queued), as it fares with these pages.
 */
static int explain_path(const struct run_config *config,
			struct strategy_step path[STRATEGY_STEPS_MAX])
{
	const struct strategy_ops *ops = config->strategy;
	const struct strategy_ops *rx = strategy_receiver(ops,
							  &config->settings);
	const struct strategy_step *rx_path = strategy_rx_path(ops);
	const char *queue = rx_path[0].stage;
	int n = 0;

	while (n < STRATEGY_STEPS_MAX && ops->path[n].stage) {
		path[n] = ops->path[n];
		n++;
	}
	for (int i = 0; rx != ops && i < n; i++) {
		if (strncmp(path[i].stage, queue, strlen(queue)) != 0)
			continue;
		path[i].move = rx_path[0].move;
		path[i].copies = rx_path[0].copies;
		n = i + 1;
		for (int j = 1; n < STRATEGY_STEPS_MAX && rx_path[j].stage; j++)
			path[n++] = rx_path[j];
		break;
	}
	return n;
}

/*
 * The strategy's data path, top to bottom: each stage, then each move and
 * whether it copies the payload, wrapped to the width there is.
 */
void ui_draw_explain(struct ui *ui, const struct explorer *e)
{
	const struct strategy_ops *ops = e->config.strategy;
	struct strategy_step path[STRATEGY_STEPS_MAX];
	struct ui_lines l = {0}, move = {0};
	int steps = explain_path(&e->config, path), copies = 0;
	unsigned int fields = e->config.settings.fields
				      ? e->config.settings.fields
				      : MESSAGE_FIELDS_DEFAULT;
	char title[96], text[512];
	struct rect r = overlay_rect(ui, 112, 40);
	int width = r.w - 4;

	for (int i = 0; i < steps; i++) {
		const struct strategy_step *s = &path[i];
		char said[256];

		strategy_step_text(s->stage, fields, said, sizeof(said));
		ui_lines_wrap(&l, ROLE_SELECTED, width, 2, said);
		if (!s->move)
			break;
		copies += s->copies;
		strategy_step_text(s->move, fields, said, sizeof(said));
		snprintf(text, sizeof(text), "%s%s",
			 s->copies ? "COPY  " : "no copy  ", said);
		/* The connector runs down every line of the move. */
		ui_lines_wrap(&move, ROLE_TEXT, width - 4, 2, text);
		for (size_t k = 0; k < move.count; k++)
			ui_lines_add(&l,
				     s->copies ? ROLE_SENDER_HIGH
					       : ROLE_RECEIVER_HIGH,
				     2, "%s %*s%s", ui->utf8 ? "\u2502" : "|",
				     move.line[k].indent, "",
				     move.line[k].text);
		ui_lines_free(&move);
		ui_lines_add(&l, ROLE_TEXT, 2, "%s", ui->utf8 ? "\u25bc" : "v");
	}
	if (ops->zerocopy && e->live.running) {
		const struct run_totals *t = &e->live.totals;
		char share[32] = "0%";

		sampler_zc_copied(t, share, sizeof(share));
		snprintf(text, sizeof(text),
			 "Live: %llu sends pinned, %llu completed; the kernel "
			 "copied %s at delivery (%llu completions flagged)",
			 (unsigned long long)t->zc_sends,
			 (unsigned long long)t->zc_completions, share,
			 (unsigned long long)t->zc_copied);
		ui_lines_wrap(&l, ROLE_HIGHLIGHT, width, 2, text);
	}
	if (e->config.settings.rx == RX_ZEROCOPY &&
	    strategy_rx_unmapped_why(ops)) {
		snprintf(
			text, sizeof(text),
			"Why none is mapped: TCP_ZEROCOPY_RECEIVE maps only "
			"whole pages that are the kernel's own alone (over "
			"veth, those it copied at delivery, as for a zero-copy "
			"sender), and %s.",
			strategy_rx_unmapped_why(ops));
		ui_lines_wrap(&l, ROLE_HIGHLIGHT, width, 2, text);
	}
	if (e->live.running && e->running.settings.rx == RX_ZEROCOPY &&
	    e->live.totals.rx_mapped + e->live.totals.rx_copied) {
		char share[320];

		strategy_rx_share(e->running.strategy, e->live.totals.rx_mapped,
				  e->live.totals.rx_copied, false, share,
				  sizeof(share));
		snprintf(text, sizeof(text),
			 "Live, --rx zerocopy (TCP_ZEROCOPY_RECEIVE): %s",
			 share);
		ui_lines_wrap(&l, ROLE_HIGHLIGHT, width, 2, text);
	}
	snprintf(text, sizeof(text),
		 "%d cop%s of the payload per message on the whole path, the "
		 "kernel's and the receiver's included.  A strategy's name "
		 "counts something else: the sender's copies, up to the "
		 "socket (two-copy: the program's own serialization and the "
		 "kernel's copy into the socket; one-copy: the kernel's copy "
		 "only; zero-copy: none, where the kernel can avoid it).",
		 copies, copies == 1 ? "y" : "ies");
	ui_lines_add(&l, ROLE_TEXT, 0, "%s", "");
	ui_lines_wrap(&l, ROLE_HIGHLIGHT, width, 0, text);
	attrset(theme_attr(ROLE_TEXT));
	for (int y = r.y; y < r.y + r.h; y++)
		mvhline(y, r.x, ' ', r.w);
	snprintf(title, sizeof(title), "Data path of %s%s (x or Esc closes)",
		 ops->name,
		 e->config.settings.rx == RX_ZEROCOPY ? ", rx zerocopy" : "");
	ui_box(ui, &r, ROLE_TITLE, title);
	ui->overlay_rows = r.h > 2 ? (size_t)(r.h - 2) : 1;
	ui_lines_draw(ui, &l, &r, &ui->overlay_scroll);
	ui_lines_free(&l);
}

/* "288 runs, about 12 min: " -- what loading a preset starts. */
static void preset_size(const struct preset_entry *p, char *out, size_t size)
{
	if (!p->runs)
		snprintf(out, size, "%s", "");
	else if (!p->seconds)
		snprintf(out, size, "%zu run%s, continuous: ", p->runs,
			 p->runs == 1 ? "" : "s");
	else if (p->seconds < 90)
		snprintf(out, size, "%zu run%s, about %.0f s: ", p->runs,
			 p->runs == 1 ? "" : "s", p->seconds);
	else
		snprintf(out, size, "%zu run%s, about %.0f min: ", p->runs,
			 p->runs == 1 ? "" : "s", p->seconds / 60);
}

/* The preset list (p): each preset's name and what it is for. */
void ui_draw_presets(struct ui *ui, const struct explorer *e)
{
	struct rect r = overlay_rect(ui, 96, ui->rows);
	struct ui_lines l = {0};
	size_t cursor_line = 0, cursor_end = 0;
	int name_w = 8;

	/* The names' column: as wide as the longest, within reason. */
	for (size_t i = 0; i < e->preset_count; i++)
		if ((int)strlen(e->presets[i].name) > name_w)
			name_w = (int)strlen(e->presets[i].name);
	if (name_w > r.w / 3)
		name_w = r.w / 3;
	for (size_t i = 0; i < e->preset_count; i++) {
		const struct preset_entry *p = &e->presets[i];
		char text[1200], size[64];

		if (i == ui->preset_cursor)
			cursor_line = l.count;
		preset_size(p, size, sizeof(size));
		snprintf(text, sizeof(text), "%-*s %s%s", name_w, p->name, size,
			 p->description[0] ? p->description
					   : "(no description)");
		ui_lines_wrap(
			&l, i == ui->preset_cursor ? ROLE_SELECTED : ROLE_TEXT,
			r.w - 4, name_w + 1, text);
		if (i == ui->preset_cursor)
			cursor_end = l.count - 1;
	}
	/* As tall as the list, where it fits. */
	r = overlay_rect(ui, 96, (int)l.count + 2);
	attrset(theme_attr(ROLE_TEXT));
	for (int y = r.y; y < r.y + r.h; y++)
		mvhline(y, r.x, ' ', r.w);
	ui_box(ui, &r, ROLE_TITLE, "Presets (Enter loads, Esc closes)");
	/* A page of PgUp/PgDn: about as many presets as lines fit. */
	ui->overlay_rows = r.h > 2 ? (size_t)(r.h - 2) : 1;
	/* The chosen preset stays in sight, all its lines. */
	if (cursor_line < ui->overlay_scroll)
		ui->overlay_scroll = cursor_line;
	if (r.h > 2 && cursor_end >= ui->overlay_scroll + (size_t)(r.h - 2))
		ui->overlay_scroll = cursor_end - (size_t)(r.h - 3);
	ui_lines_draw(ui, &l, &r, &ui->overlay_scroll);
	ui_lines_free(&l);
}
