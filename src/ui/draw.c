/*
 * The screen: a header, the controls and the live gauges side by side, the
 * view below them (graphs and the runs table, or one pane: runs, compare,
 * chart, analysis), a status line and a key bar.  Below UI_ROOMY_ROWS rows
 * the controls fold their strategy list and a pane takes the whole body, so
 * every view works at 80x24 and uses more room when it has it.  Everything
 * is redrawn from the explorer on every refresh; curses sends only what
 * changed.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "analysis.h"
#include "figure.h"
#include "ui_private.h"
#include "units.h"

static const char *const control_names[CONTROL_COUNT] = {
	[CONTROL_STRATEGY] = "Strategy", [CONTROL_SIZE] = "Size",
	[CONTROL_THREADS] = "Threads",	 [CONTROL_MODE] = "Mode",
	[CONTROL_DURATION] = "Duration",
};

static const char *const side_names[SIDE_COUNT] = {"sender", "receiver"};

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

void ui_text(int y, int x, int width, enum theme_role role, const char *fmt,
	     ...)
{
	wchar_t wide[512];
	char text[1024];
	va_list ap;
	size_t n;

	if (width <= 0)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	n = mbstowcs(wide, text, sizeof(wide) / sizeof(*wide) - 1);
	attrset(theme_attr(role));
	if (n == (size_t)-1) {
		mvaddnstr(y, x, text, width);
	} else if ((int)n > width) {
		/* Cut, and say so: a word is never clipped without a mark. */
		wide[width - 1] = MB_CUR_MAX > 1 ? L'\u2026' : L'~';
		mvaddnwstr(y, x, wide, width);
	} else {
		mvaddnwstr(y, x, wide, (int)n);
	}
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

void ui_result_label(const struct run_result *r, char *out, size_t size)
{
	char bytes[24];

	ui_format_size(r->config.msg_size, bytes, sizeof(bytes));
	/* The mode has a column of its own; a zero-copy receive does not. */
	snprintf(out, size, "%s %s x%u%s", r->config.strategy->name, bytes,
		 r->config.threads,
		 r->config.settings.rx == RX_ZEROCOPY ? " rx-zc" : "");
}

void ui_result_cell(const struct run_result *r, const struct ui_metric *m,
		    char *out, size_t size)
{
	double v;

	if (run_result_metric(r, m->side == SIDE_SENDER, m->metric, &v))
		ui_format_value(v, out, size);
	else
		snprintf(out, size, "n/a");
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

/* The controls; compact: without the strategy list (Left/Right pick). */
static void draw_controls(struct ui *ui, const struct explorer *e,
			  const struct rect *r, bool compact)
{
	int y = r->y + 1;
	int inner = r->w - 2;

	ui->controls = *r;
	ui->strategy_row = -1;
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
		if (c != CONTROL_STRATEGY || compact)
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

static int controls_height(bool compact)
{
	return CONTROL_COUNT + 2 + (compact ? 0 : (int)strategy_count());
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

/* "counts user space only: run as root, or sysctl ..." */
void ui_short_reason(const char *why, char *out, size_t size)
{
	size_t n = 0;
	int depth = 0;

	for (const char *c = why; *c && n + 1 < size; c++) {
		if (*c == '(' && c > why && c[-1] == ' ' && n)
			n--; /* the space before it goes too */
		if (*c == '(')
			depth++;
		else if (*c == ')' && depth)
			depth--;
		else if (!depth)
			out[n++] = *c;
	}
	out[n] = '\0';
}

static void draw_gauge(struct ui *ui, const struct explorer *e, size_t g,
		       enum gauge_side side, int y, int x, int width)
{
	const struct gauge_reading *reading = &e->live.gauge[side][g];
	enum theme_role low = side == SIDE_SENDER ? ROLE_SENDER_LOW
						  : ROLE_RECEIVER_LOW;
	char value[32], why[sizeof(reading->why)];
	int bar = width - 15;

	if (!e->live.running || !e->live.ready) {
		ui_text(y, x, width, ROLE_INACTIVE, "-");
		return;
	}
	if (!reading->known) {
		ui_short_reason(reading->why, why, sizeof(why));
		ui_text(y, x, width, ROLE_INACTIVE, "n/a: %s",
			(int)strlen(reading->why) + 5 <= width ? reading->why
							       : why);
		return;
	}
	ui_format_value(reading->value, value, sizeof(value));
	/* Narrow: the figure alone. */
	if (bar < 4) {
		int w = width - 7;

		ui_text(y, x, width, ROLE_TEXT, "%*s %s", w > 1 ? w : 1, value,
			metrics[g].unit);
		return;
	}
	draw_bar(ui, y, x, bar, reading->value / gauge_scale(e, g), low);
	ui_text(y, x + bar + 1, 14, ROLE_TEXT, "%7s %-6s", value,
		metrics[g].unit);
}

/*
 * One line of the gauges: a metric, or several in a row that say n/a for
 * the same reason on both sides (said once: "L1d misses, IPC: n/a on both
 * sides", the reason wrapped below it where it does not fit beside).
 */
struct gauge_line {
	size_t metric;	     /* the first */
	size_t count;	     /* metrics on the line */
	bool shared_why;     /* n/a on both sides, for one reason */
	char text[160];	     /* shared_why: the metrics' labels */
	struct ui_lines why; /* shared_why: the reason, as drawn */
};

static bool same_na(const struct explorer *e, size_t g, const char *why)
{
	const struct gauge_reading *tx = &e->live.gauge[SIDE_SENDER][g];
	const struct gauge_reading *rx = &e->live.gauge[SIDE_RECEIVER][g];

	return e->live.running && e->live.ready && !tx->known && !rx->known &&
	       strcmp(tx->why, rx->why) == 0 && (!why || !strcmp(tx->why, why));
}

/* How much of an n/a reason the gauges give, as room allows. */
enum gauge_why {
	WHY_WHOLE,    /* wrapped, whole */
	WHY_SHORT,    /* wrapped, without its details */
	WHY_ONE_LINE, /* one line, cut with an ellipsis */
};

/*
 * The gauges' lines for a box width cells wide, their reasons as told.
 * Returns how many; gauge_lines_free() after.
 */
static size_t gauge_lines(const struct explorer *e, int width,
			  enum gauge_why told, struct gauge_line *line)
{
	size_t n = 0;

	for (size_t g = 0; g < metric_count; g++) {
		const char *why = e->live.gauge[SIDE_SENDER][g].why;
		struct gauge_line *l = n ? &line[n - 1] : NULL;

		if (!(metrics[g].show & METRIC_GAUGE))
			continue;
		if (l && l->shared_why && same_na(e, g, why) &&
		    !strcmp(e->live.gauge[SIDE_SENDER][l->metric].why, why)) {
			l->count++;
			snprintf(l->text + strlen(l->text),
				 sizeof(l->text) - strlen(l->text), ", %s",
				 metrics[g].label);
			continue;
		}
		line[n] = (struct gauge_line){
			g, 1, same_na(e, g, NULL), "", {0}};
		snprintf(line[n].text, sizeof(line[n].text), "%s",
			 metrics[g].label);
		n++;
	}
	for (size_t i = 0; i < n; i++) {
		const char *why =
			e->live.gauge[SIDE_SENDER][line[i].metric].why;
		char text[512], reason[256];

		if (!line[i].shared_why)
			continue;
		if (told == WHY_WHOLE)
			snprintf(reason, sizeof(reason), "%s", why);
		else
			ui_short_reason(why, reason, sizeof(reason));
		snprintf(text, sizeof(text), "%s: n/a on both sides: %s",
			 line[i].text, reason);
		if (told == WHY_ONE_LINE)
			ui_lines_add(&line[i].why, ROLE_INACTIVE, 0, "%s",
				     text);
		else
			ui_lines_wrap(&line[i].why, ROLE_INACTIVE, width, 2,
				      text);
	}
	return n;
}

static void gauge_lines_free(struct gauge_line *line, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ui_lines_free(&line[i].why);
}

/*
 * The lines below the gauges, wrapped to width, for the run going on or
 * else the last one finished: in rr its round trips; for zero-copy what the
 * kernel copied anyway, else what moved; with --rx zerocopy what was mapped.
 * These are the run's totals, not the gauges' window, and say so.
 */
static void gauge_foot(const struct ui *ui, const struct explorer *e, int width,
		       struct ui_lines *foot)
{
	/* A percentile's name and its value are never split by a wrap. */
	const char *nb = ui->utf8 ? "\u00a0" : "=";
	const struct session *s = e->session;
	const struct run_config *c = &e->running;
	const struct run_totals *t = &e->live.totals;
	const struct latency_summary *l = &e->live.latency;
	char text[256], moved[32], delivered[32], when[32] = "so far";

	if (!e->live.running && !s->result_count)
		return;
	if (!e->live.running) {
		const struct run_result *last =
			&s->results[s->result_count - 1];

		c = &last->config;
		t = &last->totals;
		l = &last->latency;
		snprintf(when, sizeof(when), "in run %zu", s->result_count);
	}
	if (c->mode == RUN_RR && !l->count)
		snprintf(text, sizeof(text), "Round trips %s: %s", when,
			 !e->live.running ? "none measured"
			 : e->live.warmup ? "warming up"
					  : "none measured yet");
	else if (c->mode == RUN_RR)
		snprintf(text, sizeof(text),
			 "Round trip %s, us: p50%s%.1f  p90%s%.1f  "
			 "p99%s%.1f  p99.9%s%.1f  max%s%.1f  (%llu round "
			 "trips)",
			 when, nb, l->p50_us, nb, l->p90_us, nb, l->p99_us, nb,
			 l->p99_9_us, nb, l->max_us,
			 (unsigned long long)l->count);
	if (c->mode == RUN_RR)
		ui_lines_wrap(foot, l->count ? ROLE_HIGHLIGHT : ROLE_MISC,
			      width, 2, text);
	if (c->strategy->zerocopy && !t->zc_completions) {
		snprintf(text, sizeof(text),
			 "Zero-copy %s: %llu sends pinned, none completed%s",
			 when, (unsigned long long)t->zc_sends,
			 e->live.running ? " yet" : "");
	} else if (c->strategy->zerocopy) {
		char share[32];

		sampler_zc_copied(t, share, sizeof(share));
		snprintf(text, sizeof(text),
			 "Zero-copy %s: the kernel copied %s (%llu of %llu "
			 "completions flagged)",
			 when, share, (unsigned long long)t->zc_copied,
			 (unsigned long long)t->zc_completions);
	} else {
		units_format_bytes(t->bytes_sent, moved, sizeof(moved));
		units_format_bytes(t->bytes_received, delivered,
				   sizeof(delivered));
		snprintf(text, sizeof(text),
			 "Moved %s: %s sent, %s delivered%s", when, moved,
			 delivered,
			 c->settings.verify ? (t->corrupt ? ", CORRUPT messages"
							  : ", 0 corrupt")
					    : "");
	}
	ui_lines_wrap(foot, ROLE_MISC, width, 2, text);
	if (c->settings.rx == RX_ZEROCOPY && t->rx_mapped + t->rx_copied) {
		const char *why = strategy_rx_unmapped_why(c->strategy);
		char share[128];

		strategy_rx_share(c->strategy, t->rx_mapped, t->rx_copied,
				  false, share, sizeof(share));
		snprintf(text, sizeof(text), "Receive %s: %s%s%s", when, share,
			 why ? ": " : "", why ? why : "");
		ui_lines_wrap(foot, ROLE_MISC, width, 2, text);
	}
}

/* The rows n gauge lines take. */
static int gauge_lines_rows(const struct gauge_line *line, size_t n)
{
	int rows = 0;

	for (size_t i = 0; i < n; i++)
		rows += line[i].shared_why ? (int)line[i].why.count : 1;
	return rows;
}

/* Rows of the gauges box: its frame, the sides, the lines, the foot. */
static int gauges_rows(const struct gauge_line *line, size_t n,
		       const struct ui_lines *foot)
{
	return 2 + 1 + (int)(foot->count ? foot->count : 1) +
	       gauge_lines_rows(line, n);
}

/* The gauges' lines that fit in at most max rows: whole reasons if they can. */
static size_t gauges_layout(const struct ui *ui, const struct explorer *e,
			    int width, int max, struct gauge_line *line,
			    struct ui_lines *foot, int *rows)
{
	size_t n = gauge_lines(e, width, WHY_WHOLE, line);

	gauge_foot(ui, e, width, foot);
	*rows = gauges_rows(line, n, foot);
	for (int told = WHY_SHORT; *rows > max && told <= WHY_ONE_LINE;
	     told++) {
		gauge_lines_free(line, n);
		n = gauge_lines(e, width, (enum gauge_why)told, line);
		*rows = gauges_rows(line, n, foot);
	}
	return n;
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
			const struct rect *r, struct gauge_line *line,
			size_t lines, const struct ui_lines *foot)
{
	int label = 14;
	int column = (r->w - 2 - label - 1) / 2;
	int y = r->y + 1;
	int x0 = r->x + 1 + label;
	int last = r->y + r->h - 1 - (int)foot->count;
	char title[128];

	snprintf(title, sizeof(title), "Gauges, over the last %.1f s",
		 (double)e->window_ms / 1000);
	ui_box(ui, r, ROLE_BOX_GAUGES, title);
	side_title(e, SIDE_SENDER, title, sizeof(title));
	ui_text(y, x0, column, ROLE_SENDER_HIGH, "%s", title);
	side_title(e, SIDE_RECEIVER, title, sizeof(title));
	ui_text(y, x0 + column + 1, column, ROLE_RECEIVER_HIGH, "%s", title);
	y++;
	for (size_t i = 0; i < lines && y < last; i++) {
		size_t g = line[i].metric;
		int room = last - y;
		int need = line[i].shared_why ? (int)line[i].why.count : 1;

		/* What does not fit is counted on a row kept for it, not cut. */
		if (gauge_lines_rows(line + i, lines - i) > room &&
		    need > room - 1) {
			ui_text(y, r->x + 2, r->w - 4, ROLE_INACTIVE,
				"%zu more gauge%s a taller terminal", lines - i,
				lines - i == 1 ? " needs" : "s need");
			break;
		}

		if (line[i].shared_why) {
			for (size_t k = 0; k < line[i].why.count && y < last;
			     k++, y++)
				ui_text(y,
					r->x + 2 + line[i].why.line[k].indent,
					r->w - 4 - line[i].why.line[k].indent,
					ROLE_INACTIVE, "%s",
					line[i].why.line[k].text);
			continue;
		}
		ui_text(y, r->x + 2, label - 1, ROLE_GRAPH_TEXT, "%s",
			metrics[g].label);
		draw_gauge(ui, e, g, SIDE_SENDER, y, x0, column - 1);
		draw_gauge(ui, e, g, SIDE_RECEIVER, y, x0 + column + 1,
			   column - 1);
		y++;
	}
	/* The foot, at the bottom whatever is above it. */
	y = r->y + r->h - 1 - (int)foot->count;
	for (size_t k = 0; k < foot->count; k++, y++)
		if (y > r->y)
			ui_text(y, r->x + 2 + foot->line[k].indent,
				r->w - 4 - foot->line[k].indent,
				foot->line[k].role, "%s", foot->line[k].text);
}

/* The header's parts, most needed first: what runs, then where. */
static void draw_header(const struct ui *ui, const struct explorer *e)
{
	const struct session *s = e->session;
	char size[24], where[96] = "", state[160], flags[128] = "";
	char sweep[80] = "", line[512];
	/* A teaching run that breaks the buffer rule says so first. */
	const char *unsafe = e->state != EXPLORER_IDLE &&
					     e->running.settings.unsafe_reuse
				     ? "UNSAFE REUSE  "
				     : "";

	attrset(theme_attr(ROLE_SELECTED));
	mvhline(0, 0, ' ', ui->cols);
	if (e->viewing)
		snprintf(where, sizeof(where), "no network built");
	else if (s->topo.options.kind == TOPO_CURRENT)
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
	if (e->viewing)
		snprintf(state, sizeof(state), "loaded export, %zu runs",
			 s->result_count);
	else if (e->state == EXPLORER_RUNNING && e->live.starting)
		snprintf(state, sizeof(state),
			 "run %u: %s %s x%u%s, getting ready", e->run_number,
			 e->running.strategy->name, size, e->running.threads,
			 e->running.mode == RUN_RR ? " rr" : "");
	else if (e->state == EXPLORER_RUNNING)
		snprintf(state, sizeof(state), "run %u: %s %s x%u%s, %.1f s%s",
			 e->run_number, e->running.strategy->name, size,
			 e->running.threads,
			 e->running.mode == RUN_RR ? " rr" : "",
			 e->live.elapsed_s,
			 e->live.warmup ? " warming up" : "");
	else if (e->state == EXPLORER_STOPPING)
		snprintf(state, sizeof(state), "run %u: stopping",
			 e->run_number);
	else
		snprintf(state, sizeof(state), "idle");
	if (e->state != EXPLORER_IDLE && e->running.settings.pin.count) {
		char cpus[64];

		units_format_cpus(&e->running.settings.pin, cpus, sizeof(cpus));
		snprintf(flags + strlen(flags), sizeof(flags) - strlen(flags),
			 "  pin %s", cpus);
	}
	if (e->state != EXPLORER_IDLE && e->running.settings.rx == RX_ZEROCOPY)
		snprintf(flags + strlen(flags), sizeof(flags) - strlen(flags),
			 "  rx-zc");
	if (ui->frozen)
		snprintf(flags + strlen(flags), sizeof(flags) - strlen(flags),
			 "  FROZEN (Z)");
	if (ui->new_runs)
		snprintf(flags + strlen(flags), sizeof(flags) - strlen(flags),
			 "  %zu new run%s", ui->new_runs,
			 ui->new_runs == 1 ? "" : "s");
	if (explorer_sweeping(e)) {
		size_t done, total;
		double left_s;

		explorer_sweep_progress(e, &done, &total, &left_s);
		/* The run in progress, as the status line counts it. */
		if (e->state != EXPLORER_IDLE && done < total)
			done++;
		if (isnan(left_s))
			snprintf(sweep, sizeof(sweep), "  sweep %zu/%zu", done,
				 total);
		else
			snprintf(sweep, sizeof(sweep),
				 "  sweep %zu/%zu, %d:%02d left", done, total,
				 (int)ceil(left_s) / 60,
				 (int)ceil(left_s) % 60);
	}
	/* What is left out first when the line is too long: where, the name. */
	snprintf(line, sizeof(line), " %snio-top %s  %s  %s%s%s", unsafe,
		 NIO_TOP_VERSION, where, state, flags, sweep);
	if ((int)strlen(line) > ui->cols)
		snprintf(line, sizeof(line), " %snio-top  %s%s%s", unsafe,
			 state, flags, sweep);
	if ((int)strlen(line) > ui->cols)
		snprintf(line, sizeof(line), " %s%s%s%s", unsafe, state, flags,
			 sweep);
	ui_text(0, 0, ui->cols, ROLE_SELECTED, "%s", line);
}

/* The explorer's news becomes the note, once. */
static void status_news(struct ui *ui, const struct explorer *e)
{
	if (e->said != ui->seen_said) {
		ui->seen_said = e->said;
		snprintf(ui->note, sizeof(ui->note), "%s", e->message);
	}
}

/* What the status line says: a question being asked, or the note. */
static enum theme_role status_text(const struct ui *ui,
				   const struct explorer *e, char *text,
				   size_t size)
{
	size_t unsaved = explorer_unsaved(e);
	const char *them = unsaved == 1 ? "it" : "them";

	switch (ui->confirm) {
	case CONFIRM_QUIT:
		if (explorer_sweeping(e) && unsaved)
			snprintf(text, size,
				 "A sweep runs and %zu run%s not saved: q "
				 "quits without %s, e exports %s, other keys "
				 "go on",
				 unsaved, unsaved == 1 ? " is" : "s are", them,
				 them);
		else if (explorer_sweeping(e))
			snprintf(text, size,
				 "A sweep runs: q again quits%s, other keys go "
				 "on",
				 e->session->result_count
					 ? " (the finished runs are saved)"
					 : "");
		else
			snprintf(text, size,
				 "%zu run%s not saved: q quits without %s, e "
				 "exports %s, other keys go on",
				 unsaved, unsaved == 1 ? "" : "s", them, them);
		return ROLE_HIGHLIGHT;
	case CONFIRM_CHANGE:
		snprintf(text, size,
			 "A sweep runs: %s again or y ends it to %s; other "
			 "keys let it go on",
			 ui_key_label(ui->confirm_key), ui->pending_what);
		return ROLE_HIGHLIGHT;
	case CONFIRM_FILTER:
		snprintf(text, size,
			 "Filter runs: %s_  (Enter keeps it, Esc clears it)",
			 ui->filter);
		return ROLE_HIGHLIGHT;
	case CONFIRM_NONE:
		break;
	}
	snprintf(text, size, "%s", ui->note);
	return ROLE_MISC;
}

/* The status line's rows: two for a text too long for one. */
static int status_rows(const struct ui *ui, const char *text)
{
	return (int)mbstowcs(NULL, text, 0) > ui->cols - 2 ? 2 : 1;
}

/* Wrapped at words; what a second row cannot hold ends in an ellipsis. */
static void draw_status(const struct ui *ui, const char *text,
			enum theme_role role, int rows)
{
	int y = ui->rows - 1 - rows;
	struct ui_lines l = {0};

	attrset(theme_attr(ROLE_TEXT));
	for (int i = 0; i < rows; i++)
		mvhline(y + i, 0, ' ', ui->cols);
	if (rows == 1) {
		ui_text(y, 1, ui->cols - 2, role, "%s", text);
		return;
	}
	ui_lines_wrap(&l, role, ui->cols - 2, 0, text);
	if (l.count)
		ui_text(y, 1, ui->cols - 2, role, "%s", l.line[0].text);
	if (l.count > 1) {
		/* The rest, from the second line's first word on. */
		const char *rest = text + strlen(l.line[0].text);

		while (*rest == ' ')
			rest++;
		ui_text(y + 1, 1, ui->cols - 2, role, "%s", rest);
	}
	ui_lines_free(&l);
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

/* The live view's lower area: the graphs, and the runs table if it fits. */
static void draw_live(struct ui *ui, const struct explorer *e,
		      const struct rect *area)
{
	struct rect graphs = *area, runs = *area, left, right;
	const struct ui_metric *m = &ui->metric[ui->graph_metric];

	if (area->h >= 11) {
		graphs.h = area->h / 2 > 5 ? area->h / 2 : 5;
		runs.y = area->y + graphs.h;
		runs.h = area->h - graphs.h;
		ui_draw_runs(ui, e, &runs);
	} else {
		ui->history.h = 0;
	}
	left = right = graphs;
	left.w = ui->cols / 2;
	right.x = left.w;
	right.w = ui->cols - left.w;
	ui_graph(ui, e, &left, &ui->metric[0], ROLE_RECEIVER_LOW,
		 ROLE_RECEIVER_HIGH);
	ui_graph(ui, e, &right, m,
		 m->side == SIDE_SENDER ? ROLE_SENDER_LOW : ROLE_RECEIVER_LOW,
		 m->side == SIDE_SENDER ? ROLE_SENDER_HIGH
					: ROLE_RECEIVER_HIGH);
}

void ui_draw_screen(struct ui *ui, const struct explorer *live)
{
	const struct explorer *e;
	int body, status;
	bool compact = ui->rows < UI_ROOMY_ROWS;
	int top, controls_w = 36;
	struct rect area;
	char status_line[sizeof(ui->note) + 128];
	enum theme_role status_role;

	ui_track_runs(ui, live);
	status_news(ui, live);
	status_role = status_text(ui, live, status_line, sizeof(status_line));
	status = status_rows(ui, status_line);
	body = ui->rows - 2 - status;
	e = ui->frozen ? ui_frozen_view(ui, live) : live;
	if (ui->rows < UI_MIN_ROWS || ui->cols < UI_MIN_COLS) {
		draw_too_small(ui);
		return;
	}
	bkgdset((chtype)theme_attr(ROLE_TEXT) | ' ');
	erase();
	draw_header(ui, e);
	ui->history.h = 0;
	if (compact && ui->view != VIEW_LIVE) {
		/* Small: the pane takes the whole body. */
		area = (struct rect){1, 0, body, ui->cols};
		ui->controls.h = 0;
	} else {
		struct rect controls, gauges;
		struct gauge_line line[METRICS_MAX];
		struct ui_lines foot = {0};
		size_t lines;
		int rows;

		lines = gauges_layout(ui, e, ui->cols - controls_w - 4,
				      body - 5, line, &foot, &rows);
		top = controls_height(compact);
		if (rows > top)
			top = rows;
		if (top > body - 5)
			top = body - 5;
		controls = (struct rect){1, 0, top, controls_w};
		gauges = (struct rect){1, controls_w, top,
				       ui->cols - controls_w};
		draw_controls(ui, e, &controls, compact);
		draw_gauges(ui, e, &gauges, line, lines, &foot);
		gauge_lines_free(line, lines);
		ui_lines_free(&foot);
		area = (struct rect){1 + top, 0, body - top, ui->cols};
	}
	switch (ui->view) {
	case VIEW_LIVE:
		draw_live(ui, e, &area);
		break;
	case VIEW_RUNS:
		ui_draw_runs(ui, e, &area);
		break;
	case VIEW_COMPARE:
		ui_draw_compare(ui, e, &area);
		break;
	case VIEW_ANALYSIS:
		ui_draw_analysis(ui, e, &area);
		break;
	default:
		ui_chart(ui, e, &area);
		break;
	}
	draw_status(ui, status_line, status_role, status);
	ui_draw_keybar(ui);
	/* An overlay stands alone: no edge of a box under it peeks out. */
	if (ui->overlay != OVERLAY_NONE) {
		attrset(theme_attr(ROLE_TEXT));
		for (int y = 1; y <= body; y++)
			mvhline(y, 0, ' ', ui->cols);
	}
	switch (ui->overlay) {
	case OVERLAY_EXPLAIN:
		ui_draw_explain(ui, e);
		break;
	case OVERLAY_PRESETS:
		ui_draw_presets(ui, e);
		break;
	case OVERLAY_HELP:
		ui_draw_help(ui);
		break;
	case OVERLAY_NONE:
		break;
	}
}

void ui_draw(struct ui *ui, const struct explorer *e)
{
	ui_draw_screen(ui, e);
	refresh();
}
