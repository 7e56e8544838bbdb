/*
 * The screen: a header, the controls and the live gauges side by side, then
 * the history graphs (or the comparison, or the chart), the run history, and
 * a status line.  Everything is redrawn from the explorer on every refresh;
 * curses sends only what changed.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "figure.h"
#include "ui_private.h"
#include "units.h"

void ui_metrics_init(struct ui *ui)
{
	ui->metric_count = 0;
	for (size_t i = 0; i < metric_count; i++) {
		if (!(metrics[i].show & METRIC_GAUGE))
			continue;
		/* Delivery happens at the receiver; the rest on both sides. */
		if (!metrics[i].delivered)
			ui->metric[ui->metric_count++] = (struct ui_metric){
				i, SIDE_SENDER};
		ui->metric[ui->metric_count++] = (struct ui_metric){
			i, SIDE_RECEIVER};
	}
}

static const char *const control_names[CONTROL_COUNT] = {
	[CONTROL_STRATEGY] = "Strategy", [CONTROL_SIZE] = "Size",
	[CONTROL_THREADS] = "Threads",	 [CONTROL_MODE] = "Mode",
	[CONTROL_DURATION] = "Duration",
};

static const char *const side_names[SIDE_COUNT] = {"sender", "receiver"};

void ui_text(int y, int x, int width, enum theme_role role, const char *fmt,
	     ...)
{
	char text[512];
	va_list ap;

	if (width <= 0)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	attrset(theme_attr(role));
	mvaddnstr(y, x, text, width);
	attrset(theme_attr(ROLE_TEXT));
}

/* Box-drawing characters in UTF-8; curses' ACS ones otherwise. */
void ui_line(const struct ui *ui, int y, int x, int n, bool vertical)
{
	for (int i = 0; i < n; i++) {
		int yy = vertical ? y + i : y, xx = vertical ? x : x + i;

		if (ui->utf8)
			mvaddstr(yy, xx, vertical ? "\u2502" : "\u2500");
		else
			mvaddch(yy, xx, vertical ? ACS_VLINE : ACS_HLINE);
	}
}

static void box_corner(const struct ui *ui, int y, int x, int which)
{
	static const char *const utf8[] = {"\u256d", "\u256e", "\u2570",
					   "\u256f"};
	const chtype acs[] = {ACS_ULCORNER, ACS_URCORNER, ACS_LLCORNER,
			      ACS_LRCORNER};

	if (ui->utf8)
		mvaddstr(y, x, utf8[which]);
	else
		mvaddch(y, x, acs[which]);
}

void ui_box(const struct ui *ui, const struct rect *r, enum theme_role role,
	    const char *title)
{
	attrset(theme_attr(ROLE_TEXT));
	for (int y = r->y + 1; y < r->y + r->h - 1; y++)
		mvhline(y, r->x + 1, ' ', r->w - 2);
	attrset(theme_attr(role));
	box_corner(ui, r->y, r->x, 0);
	ui_line(ui, r->y, r->x + 1, r->w - 2, false);
	box_corner(ui, r->y, r->x + r->w - 1, 1);
	ui_line(ui, r->y + 1, r->x, r->h - 2, true);
	ui_line(ui, r->y + 1, r->x + r->w - 1, r->h - 2, true);
	box_corner(ui, r->y + r->h - 1, r->x, 2);
	ui_line(ui, r->y + r->h - 1, r->x + 1, r->w - 2, false);
	box_corner(ui, r->y + r->h - 1, r->x + r->w - 1, 3);
	if (title)
		ui_text(r->y, r->x + 2, r->w - 4, ROLE_TITLE, " %s ", title);
	attrset(theme_attr(ROLE_TEXT));
}

void ui_format_size(size_t bytes, char *out, size_t size)
{
	if (bytes >= 1048576 && bytes % 1048576 == 0)
		snprintf(out, size, "%zu MiB", bytes / 1048576);
	else if (bytes >= 1024 && bytes % 1024 == 0)
		snprintf(out, size, "%zu KiB", bytes / 1024);
	else
		snprintf(out, size, "%zu B", bytes);
}

/* Four significant figures at most, with k, M, G. */
void ui_format_value(double v, char *out, size_t size)
{
	static const char *const suffix[] = {"", "k", "M", "G", "T"};
	int s = 0;

	while (fabs(v) >= 10000 && s < 4) {
		v /= 1000;
		s++;
	}
	if (fabs(v) >= 100 || (s == 0 && v == floor(v) && fabs(v) >= 10))
		snprintf(out, size, "%.0f%s", v, suffix[s]);
	else if (fabs(v) >= 10)
		snprintf(out, size, "%.1f%s", v, suffix[s]);
	else
		snprintf(out, size, "%.2f%s", v, suffix[s]);
}

void ui_format_duration(uint64_t ms, char *out, size_t size)
{
	if (!ms)
		snprintf(out, size, "continuous");
	else
		snprintf(out, size, "%.3g s", (double)ms / 1000);
}

void ui_metric_name(const struct ui_metric *m, char *out, size_t size)
{
	const struct metric *g = &metrics[m->metric];

	snprintf(out, size, "%s%s%s (%s)", g->label, *g->unit ? " " : "",
		 g->unit, side_names[m->side]);
}

static void control_value(const struct explorer *e, enum explorer_control c,
			  char *out, size_t size)
{
	switch (c) {
	case CONTROL_STRATEGY:
		snprintf(out, size, "%s", e->config.strategy->name);
		break;
	case CONTROL_SIZE:
		ui_format_size(e->config.msg_size, out, size);
		break;
	case CONTROL_THREADS:
		snprintf(out, size, "%u", e->config.threads);
		break;
	case CONTROL_MODE:
		snprintf(out, size, "%s", run_mode_name(e->config.mode));
		break;
	case CONTROL_DURATION:
		ui_format_duration(e->config.settings.duration_ms, out, size);
		break;
	case CONTROL_COUNT:
		out[0] = '\0';
		break;
	}
}

static void draw_controls(struct ui *ui, const struct explorer *e,
			  const struct rect *r)
{
	int y = r->y + 1;
	int inner = r->w - 2;

	ui->controls = *r;
	ui_box(ui, r, ROLE_BOX_CONTROLS, "Controls");
	for (int c = 0; c < CONTROL_COUNT; c++) {
		bool focused = ui->focus == (enum explorer_control)c;
		enum theme_role role = focused ? ROLE_SELECTED : ROLE_TEXT;
		char value[48], line[96];

		control_value(e, (enum explorer_control)c, value,
			      sizeof(value));
		snprintf(line, sizeof(line), " %-9s%s %-14s %s",
			 control_names[c], ui->utf8 ? "\u25c0" : "<", value,
			 ui->utf8 ? "\u25b6" : ">");
		ui->control_row[c] = y;
		attrset(theme_attr(role));
		mvhline(y, r->x + 1, ' ', inner);
		ui_text(y, r->x + 1, inner, role, "%s", line);
		y++;
		if (c != CONTROL_STRATEGY)
			continue;
		ui->strategy_row = y;
		for (size_t i = 0; i < strategy_count(); i++, y++) {
			const struct strategy_ops *ops = strategy_at(i);
			bool current = ops == e->config.strategy;

			if (!e->strategy_available[i])
				ui_text(y, r->x + 3, inner - 2, ROLE_INACTIVE,
					"  %-9s n/a: %s", ops->name,
					e->strategy_why[i]);
			else
				ui_text(y, r->x + 3, inner - 2,
					current ? ROLE_HIGHLIGHT : ROLE_TEXT,
					"%s %s",
					current ? (ui->utf8 ? "\u25cf" : "*")
						: " ",
					ops->name);
		}
	}
}

/* A bar of frac (0 .. 1) over width cells, coloured by its level. */
static void draw_bar(struct ui *ui, int y, int x, int width, double frac,
		     enum theme_role low)
{
	static const char *const part[] = {"",	     "\u258f", "\u258e",
					   "\u258d", "\u258c", "\u258b",
					   "\u258a", "\u2589"};
	int eighths, full;
	enum theme_role role = frac > 0.66   ? low + 2
			       : frac > 0.33 ? low + 1
					     : low;

	if (width <= 0)
		return;
	if (!(frac >= 0))
		frac = 0;
	if (frac > 1)
		frac = 1;
	eighths = (int)lround(frac * width * 8);
	full = eighths / 8;
	attrset(theme_attr(ROLE_METER_BG));
	for (int i = 0; i < width; i++)
		mvaddstr(y, x + i, ui->utf8 ? "\u2500" : "-");
	attrset(theme_attr(role));
	for (int i = 0; i < full; i++)
		mvaddstr(y, x + i, ui->utf8 ? "\u2588" : "#");
	if (full < width && eighths % 8 && ui->utf8)
		mvaddstr(y, x + full, part[eighths % 8]);
	attrset(theme_attr(ROLE_TEXT));
}

/* The bar's full scale: fixed, or the largest value of the last minute. */
static double gauge_scale(const struct explorer *e, size_t g)
{
	const struct explorer_point *p;
	double max = metrics[g].full_scale;

	if (metrics[g].per_flow)
		return max * e->running.threads;
	if (max > 0)
		return max;
	for (size_t age = 0; (p = explorer_history_at(e, age)); age++)
		for (int s = 0; s < SIDE_COUNT; s++)
			if (p->value[s][g] > max)
				max = p->value[s][g];
	return max;
}

static void draw_gauge(struct ui *ui, const struct explorer *e, size_t g,
		       enum gauge_side side, int y, int x, int width)
{
	const struct gauge_reading *reading = &e->live.gauge[side][g];
	enum theme_role low = side == SIDE_SENDER ? ROLE_SENDER_LOW
						  : ROLE_RECEIVER_LOW;
	char value[32];
	int bar = width - 15;

	if (!e->live.running || !e->live.ready) {
		ui_text(y, x, width, ROLE_INACTIVE, "-");
		return;
	}
	if (!reading->known) {
		ui_text(y, x, width, ROLE_INACTIVE, "n/a  %s", reading->why);
		return;
	}
	ui_format_value(reading->value, value, sizeof(value));
	draw_bar(ui, y, x, bar, reading->value / gauge_scale(e, g), low);
	ui_text(y, x + bar + 1, 14, ROLE_TEXT, "%7s %-6s", value,
		metrics[g].unit);
}

static void draw_zerocopy(const struct explorer *e, int y, int x, int width)
{
	const struct run_totals *t = &e->live.totals;
	char moved[32], delivered[32];

	if (!e->live.running)
		return;
	if (e->running.strategy->zerocopy) {
		if (!t->zc_completions)
			ui_text(y, x, width, ROLE_MISC,
				"Zero-copy: %llu sends pinned, none completed "
				"yet",
				(unsigned long long)t->zc_sends);
		else
			ui_text(y, x, width, ROLE_MISC,
				"Zero-copy: kernel copied %.0f%% of zero-copy "
				"sends (%llu of %llu completed)",
				100.0 * (double)t->zc_copied /
					(double)t->zc_completions,
				(unsigned long long)t->zc_copied,
				(unsigned long long)t->zc_completions);
		return;
	}
	ui_format_value((double)t->bytes_sent, moved, sizeof(moved));
	ui_format_value((double)t->bytes_received, delivered,
			sizeof(delivered));
	ui_text(y, x, width, ROLE_MISC, "Moved: %sB sent, %sB delivered%s",
		moved, delivered,
		e->running.settings.verify
			? (t->corrupt ? ", CORRUPT messages" : ", 0 corrupt")
			: "");
}

/* rr: the round trips measured so far, merged over the flows. */
static void draw_latency(const struct explorer *e, int y, int x, int width)
{
	const struct latency_summary *l = &e->live.latency;

	if (!e->live.running || e->running.mode != RUN_RR)
		return;
	if (!l->count) {
		ui_text(y, x, width, ROLE_MISC, "Round trip: %s",
			e->live.warmup ? "warming up" : "none measured yet");
		return;
	}
	ui_text(y, x, width, ROLE_HIGHLIGHT,
		"Round trip: p50 %.1f us  p90 %.1f  p99 %.1f  p99.9 %.1f  max "
		"%.1f  (%llu)",
		l->p50_us, l->p90_us, l->p99_us, l->p99_9_us, l->max_us,
		(unsigned long long)l->count);
}

/* "Sender", or over two hosts which host's: "Receiver (agent 10.0.0.2:5310)". */
static void side_title(const struct explorer *e, enum gauge_side side,
		       char *out, size_t size)
{
	const struct session *s = e->session;
	const char *name = side == SIDE_SENDER ? "Sender" : "Receiver";
	bool here = (side == SIDE_SENDER) == !s->options.reverse;

	if (!s->has_agent)
		snprintf(out, size, "%s", name);
	else if (here)
		snprintf(out, size, "%s (here)", name);
	else
		snprintf(out, size, "%s (agent %s)", name, s->agent.address);
}

static void draw_gauges(struct ui *ui, const struct explorer *e,
			const struct rect *r)
{
	int label = 14;
	int column = (r->w - 2 - label - 1) / 2;
	int y = r->y + 1;
	int x0 = r->x + 1 + label;
	char title[128];

	snprintf(title, sizeof(title), "Gauges, over the last %.1f s",
		 (double)e->window_ms / 1000);
	ui_box(ui, r, ROLE_BOX_GAUGES, title);
	side_title(e, SIDE_SENDER, title, sizeof(title));
	ui_text(y, x0, column, ROLE_SENDER_HIGH, "%s", title);
	side_title(e, SIDE_RECEIVER, title, sizeof(title));
	ui_text(y, x0 + column + 1, column, ROLE_RECEIVER_HIGH, "%s", title);
	y++;
	for (size_t g = 0; g < metric_count && y < r->y + r->h - 3; g++) {
		const struct gauge_reading *tx = &e->live.gauge[SIDE_SENDER][g];
		const struct gauge_reading *rx =
			&e->live.gauge[SIDE_RECEIVER][g];

		if (!(metrics[g].show & METRIC_GAUGE))
			continue;
		ui_text(y, r->x + 2, label - 1, ROLE_GRAPH_TEXT, "%s",
			metrics[g].label);
		/* The same reason on both sides is said once. */
		if (e->live.running && e->live.ready && !tx->known &&
		    !rx->known && strcmp(tx->why, rx->why) == 0) {
			ui_text(y++, x0, r->w - 3 - label, ROLE_INACTIVE,
				"n/a  %s", tx->why);
			continue;
		}
		draw_gauge(ui, e, g, SIDE_SENDER, y, x0, column - 1);
		draw_gauge(ui, e, g, SIDE_RECEIVER, y, x0 + column + 1,
			   column - 1);
		y++;
	}
	draw_latency(e, r->y + r->h - 3, r->x + 2, r->w - 4);
	draw_zerocopy(e, r->y + r->h - 2, r->x + 2, r->w - 4);
}

static void draw_header(const struct ui *ui, const struct explorer *e)
{
	const struct session *s = e->session;
	char size[24], where[96], state[160], sweep[64] = "", pin[80] = "";
	char elapsed[24];

	attrset(theme_attr(ROLE_SELECTED));
	mvhline(0, 0, ' ', ui->cols);
	if (s->topo.options.kind == TOPO_CURRENT)
		snprintf(where, sizeof(where), "current namespace, loopback");
	else if (s->has_agent && !e->viewing)
		snprintf(where, sizeof(where), "remote: agent %s",
			 s->agent.address);
	else if (s->topo.options.kind == TOPO_REMOTE)
		snprintf(where, sizeof(where), "remote");
	else
		snprintf(where, sizeof(where), "%s %s",
			 topo_kind_name(s->topo.options.kind),
			 s->topo.options.kind != TOPO_VETH ? "lo"
			 : ui->utf8			   ? "nio0 \u2192 nio1"
							   : "nio0 -> nio1");
	ui_format_size(e->running.msg_size, size, sizeof(size));
	if (e->running.settings.pin.count) {
		char cpus[64];

		units_format_cpus(&e->running.settings.pin, cpus, sizeof(cpus));
		snprintf(pin, sizeof(pin), " pin %s", cpus);
	}
	if (e->running.settings.rx == RX_ZEROCOPY)
		snprintf(pin + strlen(pin), sizeof(pin) - strlen(pin),
			 " rx-zc");
	snprintf(elapsed, sizeof(elapsed), "%.1f s", e->live.elapsed_s);
	/* A teaching run that breaks the buffer rule says so first. */
	if (e->state == EXPLORER_RUNNING)
		snprintf(state, sizeof(state), "%srun %u: %s %s x%u%s, %s%s",
			 e->running.settings.unsafe_reuse ? "UNSAFE REUSE " : "",
			 e->run_number, e->running.strategy->name, size,
			 e->running.threads, pin,
			 e->live.starting ? "getting ready" : elapsed,
			 !e->live.starting && e->live.warmup ? " (warm-up)" : "");
	else if (e->state == EXPLORER_STOPPING)
		snprintf(state, sizeof(state), "run %u: stopping",
			 e->run_number);
	else
		snprintf(state, sizeof(state), "idle");
	if (explorer_sweeping(e)) {
		size_t done, total, filled;
		double left_s;
		char bar[11];

		explorer_sweep_progress(e, &done, &total, &left_s);
		filled = total ? 10 * done / total : 0;
		for (size_t i = 0; i < 10; i++)
			bar[i] = i < filled ? '#' : '.';
		bar[10] = '\0';
		if (isnan(left_s))
			snprintf(sweep, sizeof(sweep), "  sweep [%s] %zu/%zu",
				 bar, done, total);
		else
			snprintf(sweep, sizeof(sweep),
				 "  sweep [%s] %zu/%zu ETA %d:%02d", bar, done,
				 total, (int)left_s / 60, (int)left_s % 60);
	}
	if (e->viewing)
		snprintf(state, sizeof(state), "loaded export, %zu runs",
			 s->result_count);
	ui_text(0, 0, ui->cols, ROLE_SELECTED, " nio-top %s  %s  %s%s%s",
		NIO_TOP_VERSION, where, state,
		e->state != EXPLORER_IDLE && e->running.mode == RUN_RR ? " rr"
								       : "",
		sweep);
	ui_text(0, ui->cols - 12, 12, ROLE_SELECTED, " F1/? help ");
}

static void draw_status(struct ui *ui, const struct explorer *e)
{
	if (strcmp(e->message, ui->seen_message) != 0) {
		snprintf(ui->seen_message, sizeof(ui->seen_message), "%s",
			 e->message);
		snprintf(ui->note, sizeof(ui->note), "%s", e->message);
	}
	attrset(theme_attr(ROLE_TEXT));
	mvhline(ui->rows - 1, 0, ' ', ui->cols);
	if (ui->confirm_quit)
		ui_text(ui->rows - 1, 1, ui->cols - 2, ROLE_HIGHLIGHT,
			"A sweep is running: q again quits, any other key "
			"goes on");
	else
		ui_text(ui->rows - 1, 1, ui->cols - 2, ROLE_MISC, "%s",
			ui->note);
}

static void result_label(const struct run_result *r, char *out, size_t size)
{
	char bytes[24];

	ui_format_size(r->config.msg_size, bytes, sizeof(bytes));
	snprintf(out, size, "%s %s x%u", r->config.strategy->name, bytes,
		 r->config.threads);
}

static void result_cell(const struct run_result *r, size_t metric,
			enum gauge_side side, char *out, size_t size)
{
	double v;

	if (run_result_metric(r, side == SIDE_SENDER, metric, &v))
		ui_format_value(v, out, size);
	else
		snprintf(out, size, "n/a");
}

/* A round-trip percentile of an rr run, or "-" for stream. */
static void latency_cell(const struct run_result *r, enum figure_percentile p,
			 char *out, size_t size)
{
	struct figure_quantity q = {.source = FIGURE_LATENCY, .percentile = p};
	double v;

	if (figure_run_value(&q, r, &v))
		ui_format_value(v, out, size);
	else
		snprintf(out, size, "-");
}

/*
 * The runs table's figures: the first of the metric table's (throughput),
 * the round trip's p50 and p99, then the rest, a column each or two.
 */
#define TABLE_COLUMNS 10

struct table_column {
	bool latency;
	enum figure_percentile percentile;
	struct ui_metric metric;
	char head[16];
};

static size_t table_columns(struct table_column *col)
{
	size_t n = 0;

	for (size_t m = 0; m < metric_count && n + 2 <= TABLE_COLUMNS; m++) {
		if (!(metrics[m].show & METRIC_TABLE))
			continue;
		if (metrics[m].delivered) {
			col[n] = (struct table_column){
				.metric = {m, SIDE_RECEIVER}};
			snprintf(col[n++].head, 16, "%s", metrics[m].abbrev);
		} else {
			for (int s = 0; s < SIDE_COUNT; s++) {
				col[n] = (struct table_column){
					.metric = {m, (enum gauge_side)s}};
				snprintf(col[n++].head, 16, "%s %s",
					 metrics[m].abbrev,
					 s == SIDE_SENDER ? "tx" : "rx");
			}
		}
		/* rr rows' own figures, next to the throughput. */
		if (n == 1) {
			col[n] = (struct table_column){
				.latency = true, .percentile = PERCENTILE_P50};
			snprintf(col[n++].head, 16, "p50 us");
			col[n] = (struct table_column){
				.latency = true, .percentile = PERCENTILE_P99};
			snprintf(col[n++].head, 16, "p99 us");
		}
	}
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

static void draw_history(struct ui *ui, const struct explorer *e,
			 const struct rect *r)
{
	const struct session *s = e->session;
	size_t runs = s->result_count;
	int rows = r->h - 3;
	struct table_column col[TABLE_COLUMNS];
	char line[320];
	size_t first, columns, n;

	ui->history = *r;
	ui_box(ui, r, ROLE_BOX_HISTORY,
	       "Runs (PgUp/PgDn select, c mark, v compare/chart)");
	columns = table_columns(col);
	n = (size_t)snprintf(line, sizeof(line), "  %3s %-20s %-6s %5s %-5s",
			     "#", "run", "mode", "secs", "");
	for (size_t c = 0; c < columns && n < sizeof(line); c++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %7s",
				      col[c].head);
	if (n < sizeof(line))
		snprintf(line + n, sizeof(line) - n, "  note");
	ui_text(r->y + 1, r->x + 2, r->w - 4, ROLE_GRAPH_TEXT, "%s", line);
	if (rows <= 0)
		return;
	/* A cursor on the latest run follows the runs that finish. */
	if (runs > ui->seen_runs && ui->cursor + 1 >= ui->seen_runs)
		ui->cursor = runs - 1;
	ui->seen_runs = runs;
	if (ui->cursor >= runs && runs)
		ui->cursor = runs - 1;
	first = ui->history_first;
	if (ui->cursor < first)
		first = ui->cursor;
	if (ui->cursor >= first + (size_t)rows)
		first = ui->cursor - (size_t)rows + 1;
	ui->history_first = first;
	for (int i = 0; i < rows && first + (size_t)i < runs; i++) {
		size_t k = first + (size_t)i;
		const struct run_result *res = &s->results[k];
		bool marked = k < ui->marked_capacity && ui->marked[k];
		bool brief = k < s->run_fact_count &&
			     s->run_facts[k].short_run && !res->error;
		char label[64], cell[16];

		result_label(res, label, sizeof(label));
		n = (size_t)snprintf(line, sizeof(line),
				     "%s %3zu %-20.20s %-6s %5.2f %-5s",
				     marked ? "*" : " ", k + 1, label,
				     run_mode_name(res->config.mode),
				     res->measured_s, brief ? "short" : "");
		for (size_t c = 0; c < columns && n < sizeof(line); c++) {
			if (col[c].latency)
				latency_cell(res, col[c].percentile, cell,
					     sizeof(cell));
			else
				result_cell(res, col[c].metric.metric,
					    col[c].metric.side, cell,
					    sizeof(cell));
			n += (size_t)snprintf(line + n, sizeof(line) - n,
					      " %7s", cell);
		}
		if (n < sizeof(line))
			snprintf(line + n, sizeof(line) - n, "  %s",
				 result_note(res));
		ui_text(r->y + 2 + i, r->x + 2, r->w - 4,
			k == ui->cursor ? ROLE_SELECTED
			: brief		? ROLE_INACTIVE
					: ROLE_TEXT,
			"%s", line);
	}
	if (!runs)
		ui_text(r->y + 2, r->x + 4, r->w - 6, ROLE_INACTIVE,
			"No finished runs yet: change a control, or let a "
			"timed run end, and it lands here.");
}

/* A compare cell: the value, and after the first run its ratio to it. */
static void compare_cell(double v, bool known, double base, bool ratio,
			 char *out, size_t size)
{
	char value[16];

	if (!known) {
		snprintf(out, size, "%9s", "-");
		return;
	}
	ui_format_value(v, value, sizeof(value));
	if (ratio && base > 0 && isfinite(base))
		snprintf(out, size, "%9s x%-5.3g", value, v / base);
	else
		snprintf(out, size, "%9s", value);
}

/* The marked runs (or the selected and latest ones) side by side. */
static void draw_compare(struct ui *ui, const struct explorer *e,
			 const struct rect *r)
{
	static const enum figure_percentile latency_rows[] = {
		PERCENTILE_P50, PERCENTILE_P90, PERCENTILE_P99,
		PERCENTILE_P99_9, PERCENTILE_MAX};
	const size_t latency_count = sizeof(latency_rows) /
				     sizeof(*latency_rows);
	size_t runs = e->session->result_count, pick[8], n = 0;
	int label = ui->cols < 100 ? 26 : 32, column, y;
	/* Unmarked, as many of the latest as fit with their ratios. */
	size_t fit = (size_t)(r->w - 3 - label) / 18;
	bool marked = false, ratio, any_rr = false;

	for (size_t k = 0; k < runs && n < 8; k++)
		if (k < ui->marked_capacity && ui->marked[k])
			pick[n++] = k;
	marked = n > 0;
	if (fit < 2)
		fit = 2;
	if (!n) {
		if (ui->cursor < runs)
			pick[n++] = ui->cursor;
		for (size_t k = runs; k-- > 0 && n < fit && n < 4;)
			if (k != ui->cursor)
				pick[n++] = k;
	}
	ui_box(ui, r, ROLE_BOX_GRAPH,
	       marked ? "Compare: the marked runs, ratios to the first"
		      : "Compare (c marks runs; ratios to the first)");
	if (!n) {
		ui_text(r->y + 2, r->x + 3, r->w - 6, ROLE_INACTIVE,
			"No finished runs to compare yet.");
		return;
	}
	column = (r->w - 3 - label) / (int)n;
	if (column > 22)
		column = 22;
	/* A ratio needs room: "12.3k x1.23". */
	ratio = column >= 17 && n > 1;
	for (size_t i = 0; i < n; i++) {
		const struct run_result *res = &e->session->results[pick[i]];
		int x = r->x + 2 + label + (int)i * column;
		char size[24];

		any_rr |= res->config.mode == RUN_RR;
		ui_format_size(res->config.msg_size, size, sizeof(size));
		ui_text(r->y + 1, x, column - 1, ROLE_HIGHLIGHT, "%9s #%zu",
			res->config.strategy->name, pick[i] + 1);
		ui_text(r->y + 2, x, column - 1, ROLE_HIGHLIGHT, "%9s x%u %s",
			size, res->config.threads,
			run_mode_name(res->config.mode));
	}
	y = r->y + 3;
	for (size_t m = 0; m < ui->metric_count + latency_count; m++) {
		bool is_latency = m >= ui->metric_count;
		const struct run_result *base = &e->session->results[pick[0]];
		struct figure_quantity q = {.source = FIGURE_LATENCY};
		char name[64];
		double b = NAN;

		if (y >= r->y + r->h - 1)
			break;
		if (is_latency && !any_rr)
			break;
		if (is_latency) {
			q.percentile = latency_rows[m - ui->metric_count];
			snprintf(name, sizeof(name), "Round trip %s us",
				 figure_percentile_name(q.percentile));
			figure_run_value(&q, base, &b);
		} else {
			ui_metric_name(&ui->metric[m], name, sizeof(name));
			if (!run_result_metric(
				    base, ui->metric[m].side == SIDE_SENDER,
				    ui->metric[m].metric, &b))
				b = NAN;
		}
		ui_text(y, r->x + 2, label - 1, ROLE_GRAPH_TEXT, "%s", name);
		for (size_t i = 0; i < n; i++) {
			const struct run_result *res =
				&e->session->results[pick[i]];
			char cell[32];
			double v;
			bool known = is_latency ? figure_run_value(&q, res, &v)
						: run_result_metric(
							  res,
							  ui->metric[m].side ==
								  SIDE_SENDER,
							  ui->metric[m].metric,
							  &v);

			compare_cell(v, known, b, ratio && i > 0, cell,
				     sizeof(cell));
			ui_text(y, r->x + 2 + label + (int)i * column,
				column - 1, ROLE_TEXT, "%s", cell);
		}
		y++;
	}
}

/*
 * The strategy's data path, top to bottom: each stage a filled box, each move
 * an arrow that says whether it copies the payload.
 */
static void draw_explain(struct ui *ui, const struct explorer *e)
{
	const struct strategy_ops *ops = e->config.strategy;
	int steps = 0, copies = 0, y;
	char title[96];
	struct rect r;

	while (steps < STRATEGY_STEPS_MAX && ops->path[steps].stage)
		steps++;
	r.w = ui->cols - 8 < 112 ? ui->cols - 8 : 112;
	r.h = steps * 3 + 3;
	if (r.h > ui->rows - 2)
		r.h = ui->rows - 2;
	r.y = (ui->rows - r.h) / 2;
	r.x = (ui->cols - r.w) / 2;
	snprintf(title, sizeof(title), "Data path of %s (x closes)", ops->name);
	ui_box(ui, &r, ROLE_TITLE, title);
	y = r.y + 1;
	for (int i = 0; i < steps && y < r.y + r.h - 2; i++) {
		const struct strategy_step *s = &ops->path[i];

		ui_text(y++, r.x + 3, r.w - 6, ROLE_SELECTED, " %s ", s->stage);
		if (!s->move)
			break;
		copies += s->copies;
		ui_text(y++, r.x + 5, r.w - 8,
			s->copies ? ROLE_SENDER_HIGH : ROLE_RECEIVER_HIGH,
			"%s %s%s", ui->utf8 ? "\u2502" : "|",
			s->copies ? "COPY  " : "no copy  ", s->move);
		ui_text(y++, r.x + 5, 4, ROLE_TEXT, "%s",
			ui->utf8 ? "\u25bc" : "v");
	}
	if (ops->zerocopy && e->live.running) {
		const struct run_totals *t = &e->live.totals;

		ui_text(r.y + r.h - 2, r.x + 3, r.w - 6, ROLE_HIGHLIGHT,
			"Live: %llu sends pinned, %llu completed; the kernel "
			"copied %llu (%.0f%%) at delivery",
			(unsigned long long)t->zc_sends,
			(unsigned long long)t->zc_completions,
			(unsigned long long)t->zc_copied,
			t->zc_completions ? 100.0 * (double)t->zc_copied /
						    (double)t->zc_completions
					  : 0.0);
	} else {
		ui_text(r.y + r.h - 2, r.x + 3, r.w - 6, ROLE_HIGHLIGHT,
			"%d cop%s of the payload per message", copies,
			copies == 1 ? "y" : "ies");
	}
}

/*
 * Text wrapped at spaces into rows of width, the rows after the first
 * indented by indent; returns the next free row.
 */
static int draw_wrapped(int y, int last, int x, int width, int indent,
			enum theme_role role, const char *text)
{
	const char *p = text;

	while (*p && y <= last) {
		int room = width - (p == text ? 0 : indent);
		int len = (int)strlen(p), cut = len;

		if (len > room) {
			cut = room;
			while (cut > 0 && p[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = room;
		}
		ui_text(y++, x + (p == text ? 0 : indent), cut, role, "%.*s",
			cut, p);
		p += cut;
		while (*p == ' ')
			p++;
	}
	return y;
}

/* What the finished runs say: the verdicts and the zero-copy reason. */
static void draw_analysis(struct ui *ui, const struct explorer *e,
			  const struct rect *r)
{
	const struct session *s = e->session;
	const struct analysis *a = &s->analysis;
	int y = r->y + 1, last = r->y + r->h - 2, width = r->w - 4;
	char line[600];

	ui_box(ui, r, ROLE_BOX_HISTORY,
	       "Analysis: 95% confidence of a 5% difference (nio-top(1))");
	snprintf(line, sizeof(line),
		 "%zu run%s analysed, stream and rr apart; %zu short (under "
		 "%g s) left out.",
		 a->runs, a->runs == 1 ? "" : "s", a->short_runs,
		 (double)s->options.min_measured_ms / 1000);
	y = draw_wrapped(y, last, r->x + 2, width, 2, ROLE_INACTIVE, line);
	if (!a->crossover_count)
		y = draw_wrapped(
			y, last, r->x + 2, width, 2, ROLE_INACTIVE,
			"No comparison yet: it needs two of two-copy, "
			"one-copy, zero-copy (or uring and uring-zc) at the "
			"same sizes, flows and mode (w sweeps them).");
	for (size_t i = 0; i < a->crossover_count && y <= last; i++) {
		const struct analysis_crossover *c = &a->crossovers[i];
		bool found = c->verdict == VERDICT_FROM ||
			     c->verdict == VERDICT_NEVER ||
			     c->verdict == VERDICT_MIXED ||
			     c->verdict == VERDICT_TIE;

		analysis_crossover_text(c, line, sizeof(line));
		y = draw_wrapped(y, last, r->x + 2, width, 2,
				 c->suspect ? ROLE_SENDER_HIGH
				 : found    ? ROLE_HIGHLIGHT
					    : ROLE_TEXT,
				 line);
	}
	if (a->zerocopy_why[0] && y <= last) {
		snprintf(line, sizeof(line), "zero-copy: %s", a->zerocopy_why);
		draw_wrapped(y, last, r->x + 2, width, 2, ROLE_MISC, line);
	}
}

/* The preset list (p): a name per line, the chosen one highlighted. */
static void draw_presets(struct ui *ui, const struct explorer *e)
{
	int h = (int)e->preset_count + 4;
	struct rect r = {3, (ui->cols - 50) / 2,
			 h < ui->rows - 4 ? h : ui->rows - 4, 50};

	attrset(theme_attr(ROLE_TEXT));
	for (int y = r.y; y < r.y + r.h; y++)
		mvhline(y, r.x, ' ', r.w);
	ui_box(ui, &r, ROLE_TITLE, "Presets (Enter loads, Esc closes)");
	for (size_t i = 0; i < e->preset_count && (int)i < r.h - 3; i++)
		ui_text(r.y + 2 + (int)i, r.x + 2, r.w - 4,
			i == ui->preset_cursor ? ROLE_SELECTED : ROLE_TEXT,
			" %-44s", e->presets[i]);
}

static void draw_too_small(const struct ui *ui)
{
	attrset(theme_attr(ROLE_TEXT));
	erase();
	ui_text(ui->rows / 2 - 1, 1, ui->cols - 2, ROLE_HIGHLIGHT,
		"Terminal too small");
	ui_text(ui->rows / 2, 1, ui->cols - 2, ROLE_TEXT, "%dx%d, need %dx%d",
		ui->cols, ui->rows, UI_MIN_COLS, UI_MIN_ROWS);
	ui_text(ui->rows / 2 + 1, 1, ui->cols - 2, ROLE_INACTIVE, "q quits");
}

void ui_draw_screen(struct ui *ui, const struct explorer *e)
{
	int body = ui->rows - 2;
	int top = body >= 40 ? 15 : 14;
	int controls_w = 36;
	int lower, graph_h;
	struct rect controls, gauges, panel, history;

	if (ui->rows < UI_MIN_ROWS || ui->cols < UI_MIN_COLS) {
		draw_too_small(ui);
		return;
	}
	bkgdset((chtype)theme_attr(ROLE_TEXT) | ' ');
	erase();
	draw_header(ui, e);
	controls = (struct rect){1, 0, top, controls_w};
	gauges = (struct rect){1, controls_w, top, ui->cols - controls_w};
	draw_controls(ui, e, &controls);
	draw_gauges(ui, e, &gauges);

	lower = body - top;
	graph_h = ui->view == VIEW_LIVE ? lower / 2 : lower * 3 / 5;
	if (graph_h < 5)
		graph_h = 5;
	panel = (struct rect){1 + top, 0, graph_h, ui->cols};
	history = (struct rect){1 + top + graph_h, 0, lower - graph_h,
				ui->cols};
	if (ui->view == VIEW_LIVE) {
		struct rect left = panel, right = panel;

		left.w = ui->cols / 2;
		right.x = left.w;
		right.w = ui->cols - left.w;
		ui_graph(ui, e, &left, &ui->metric[0], ROLE_RECEIVER_LOW,
			 ROLE_RECEIVER_HIGH);
		ui_graph(ui, e, &right, &ui->metric[ui->graph_metric],
			 ui->metric[ui->graph_metric].side == SIDE_SENDER
				 ? ROLE_SENDER_LOW
				 : ROLE_RECEIVER_LOW,
			 ui->metric[ui->graph_metric].side == SIDE_SENDER
				 ? ROLE_SENDER_HIGH
				 : ROLE_RECEIVER_HIGH);
	} else if (ui->view == VIEW_COMPARE) {
		draw_compare(ui, e, &panel);
	} else if (ui->view == VIEW_ANALYSIS) {
		draw_analysis(ui, e, &panel);
	} else {
		ui_chart(ui, e, &panel);
	}
	draw_history(ui, e, &history);
	draw_status(ui, e);
	if (ui->explain)
		draw_explain(ui, e);
	if (ui->preset_menu)
		draw_presets(ui, e);
	if (ui->help) {
		struct rect r = {2, (ui->cols - 76) / 2, ui->rows - 4, 76};

		ui_help(ui, &r);
	}
}

void ui_draw(struct ui *ui, const struct explorer *e)
{
	ui_draw_screen(ui, e);
	refresh();
}
