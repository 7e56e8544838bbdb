/*
 * The panel: the header, the controls, the gauges and the key bar.  The
 * gauges of metrics that are n/a on both sides for one reason share a line
 * that says so once, as whole as the room allows.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "crossover.h"
#include "keymap.h"
#include "measures.h"
#include "panel.h"
#include "table.h"
#include "units.h"

void ui_draw_controls(struct ui *ui, const struct explorer *e,
		      const struct rect *r, bool compact)
{
	int y = r->y + 1;
	int inner = r->w - 2;

	ui->controls = *r;
	ui->strategy_row = -1;
	ui_box(ui->utf8, r, ROLE_BOX_CONTROLS, "Controls");
	for (size_t c = 0; c < ui_control_count(); c++) {
		const struct option_row *row = options_control_at(c);
		enum theme_role role = ui->focus == c ? ROLE_SELECTED
						      : ROLE_TEXT;
		char value[48], line[96];

		options_control_text(row, &e->config, value, sizeof(value));
		snprintf(line, sizeof(line), " %-9s%s %-14s %s",
			 row->control->label, ui->utf8 ? "\u25c0" : "<", value,
			 ui->utf8 ? "\u25b6" : ">");
		ui->control_row[c] = y;
		attrset(theme_attr(role));
		mvhline(y, r->x + 1, ' ', inner);
		ui_text(y, r->x + 1, inner, role, "%s", line);
		y++;
		/* Under the strategy, every strategy and why one is n/a. */
		if (row->type != OPTION_STRATEGIES || compact)
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

size_t ui_control_count(void)
{
	size_t n = options_control_count();

	return n < UI_CONTROLS_MAX ? n : UI_CONTROLS_MAX;
}

int ui_controls_rows(bool compact)
{
	return (int)ui_control_count() + 2 +
	       (compact ? 0 : (int)strategy_count());
}

/* A bar of frac (0 .. 1) over width cells, coloured by its level. */
static void draw_bar(const struct ui *ui, int y, int x, int width, double frac,
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

/*
 * What an n/a side's cell says: its whole reason where it fits, else
 * without its details (false: not even that fits, and it is said in words
 * below instead).
 */
static bool na_cell(const struct gauge_reading *reading, int width, char *out,
		    size_t size)
{
	char why[sizeof(reading->why)];

	snprintf(out, size, "n/a: %s", reading->why);
	if (ui_width(out) <= width)
		return true;
	ui_short_reason(reading->why, why, sizeof(why));
	snprintf(out, size, "n/a: %s", why);
	return ui_width(out) <= width;
}

static void draw_gauge(const struct ui *ui, const struct explorer *e, size_t g,
		       enum gauge_side side, int y, int x, int width)
{
	const struct gauge_reading *reading = &e->live.gauge[side][g];
	enum theme_role low = side == SIDE_SENDER ? ROLE_SENDER_LOW
						  : ROLE_RECEIVER_LOW;
	char value[32], na[sizeof(reading->why) + 8];
	int bar = width - 15;

	if (!e->live.running || !e->live.ready) {
		ui_text(y, x, width, ROLE_INACTIVE, "-");
		return;
	}
	if (!reading->known) {
		/* One that does not fit is a line of words (sides_why). */
		na_cell(reading, width, na, sizeof(na));
		ui_text(y, x, width, ROLE_INACTIVE, "%s", na);
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
 * sides", the reason wrapped below it where it does not fit beside).  A
 * metric whose sides' reasons differ and do not fit their cells is said
 * in words the same way: "CPU per KiB: sender n/a: ...; receiver ...".
 */
struct gauge_line {
	size_t metric;	     /* the first */
	size_t count;	     /* metrics on the line */
	bool shared_why;     /* n/a on both sides, for one reason */
	bool sides_why;	     /* n/a on a side, said in words, not cells */
	char text[160];	     /* shared_why: the metrics' labels */
	struct ui_lines why; /* shared_why, sides_why: the words, as drawn */
};

/* The cells of one side's gauges in a box whose text is width wide. */
static int gauge_cell_width(int width)
{
	return (width - 13) / 2 - 1;
}

static bool same_na(const struct explorer *e, size_t g, const char *why)
{
	const struct gauge_reading *tx = &e->live.gauge[SIDE_SENDER][g];
	const struct gauge_reading *rx = &e->live.gauge[SIDE_RECEIVER][g];

	return e->live.running && e->live.ready && !tx->known && !rx->known &&
	       strcmp(tx->why, rx->why) == 0 && (!why || !strcmp(tx->why, why));
}

/*
 * How much of an n/a reason the gauges give, as room allows: always
 * wrapped, never cut; past the last, gauges give way instead.
 */
enum gauge_why {
	WHY_WHOLE,   /* whole */
	WHY_SHORT,   /* without its details */
	WHY_FIX,     /* what to do about it only */
	WHY_COUNTED, /* that, the gauges counted, not named: "n/a (4)" */
};

/* The line already giving why's reason, or NULL. */
static struct gauge_line *line_of_reason(const struct explorer *e,
					 struct gauge_line *line, size_t n,
					 const char *why)
{
	for (size_t i = 0; i < n; i++)
		if (line[i].shared_why &&
		    !strcmp(e->live.gauge[SIDE_SENDER][line[i].metric].why,
			    why))
			return &line[i];
	return NULL;
}

/*
 * The reason of a shared line, as told: whole, without its details, or
 * only its fix -- the last clause, which is where a reason says what to do
 * ("run as root, or sysctl kernel.perf_event_paranoid=1").
 */
static void told_reason(const char *why, enum gauge_why told, char *out,
			size_t size)
{
	char brief[256];
	const char *fix;

	if (told == WHY_WHOLE) {
		snprintf(out, size, "%s", why);
		return;
	}
	ui_short_reason(why, brief, sizeof(brief));
	fix = strrchr(brief, ':');
	if (told >= WHY_FIX && fix && fix[1] == ' ')
		snprintf(out, size, "%s", fix + 2);
	else
		snprintf(out, size, "%s", brief);
}

/* Whether each n/a side of metric g fits its cell in a box width wide. */
static bool sides_fit(const struct explorer *e, size_t g, int width)
{
	char na[sizeof(e->live.gauge[0][0].why) + 8];

	if (!e->live.running || !e->live.ready)
		return true;
	for (int side = 0; side < SIDE_COUNT; side++) {
		const struct gauge_reading *r = &e->live.gauge[side][g];

		if (!r->known &&
		    !na_cell(r, gauge_cell_width(width), na, sizeof(na)))
			return false;
	}
	return true;
}

/*
 * Metric g's sides in words, their reasons as told: "CPU per KiB: sender
 * n/a: ...; receiver 412 ns".
 */
static void sides_words(const struct explorer *e, size_t g, enum gauge_why told,
			char *out, size_t size)
{
	static const char *const names[] = {"sender", "receiver"};
	size_t len = (size_t)snprintf(out, size, "%s:", metrics[g].label);

	for (int side = 0; side < SIDE_COUNT && len < size; side++) {
		const struct gauge_reading *r = &e->live.gauge[side][g];
		char said[256];

		if (r->known) {
			ui_format_value(r->value, said, sizeof(said));
			len += (size_t)snprintf(out + len, size - len,
						"%s %s %s %s", side ? ";" : "",
						names[side], said,
						metrics[g].unit);
		} else {
			told_reason(r->why, told, said, sizeof(said));
			len += (size_t)snprintf(
				out + len, size - len, "%s %s n/a: %s",
				side ? ";" : "", names[side], said);
		}
	}
}

/*
 * The gauges' lines for a box width cells wide, their reasons as told: the
 * metrics n/a on both sides for one reason share one line, wherever they
 * stand in the table.  Returns how many; gauge_lines_free() after.
 */
static size_t gauge_lines(const struct explorer *e, int width,
			  enum gauge_why told, struct gauge_line *line)
{
	size_t n = 0;

	for (size_t g = 0; g < metric_count; g++) {
		const char *why = e->live.gauge[SIDE_SENDER][g].why;
		struct gauge_line *l;

		if (!(metrics[g].show & METRIC_GAUGE))
			continue;
		l = same_na(e, g, NULL) ? line_of_reason(e, line, n, why)
					: NULL;
		if (l) {
			l->count++;
			snprintf(l->text + strlen(l->text),
				 sizeof(l->text) - strlen(l->text), ", %s",
				 metrics[g].label);
			continue;
		}
		line[n] = (struct gauge_line){g,     1,	 same_na(e, g, NULL),
					      false, "", {0}};
		line[n].sides_why = !line[n].shared_why &&
				    !sides_fit(e, g, width);
		snprintf(line[n].text, sizeof(line[n].text), "%s",
			 metrics[g].label);
		n++;
	}
	for (size_t i = 0; i < n; i++) {
		char text[512], reason[256];

		if (line[i].sides_why) {
			sides_words(e, line[i].metric, told, text,
				    sizeof(text));
			ui_lines_wrap(&line[i].why, ROLE_INACTIVE, width, 2,
				      text);
		}
		if (!line[i].shared_why)
			continue;
		told_reason(e->live.gauge[SIDE_SENDER][line[i].metric].why,
			    told, reason, sizeof(reason));
		if (told == WHY_COUNTED && line[i].count > 1)
			snprintf(text, sizeof(text), "n/a (%zu): %s",
				 line[i].count, reason);
		else
			snprintf(text, sizeof(text), "%s: n/a%s: %s",
				 line[i].text,
				 told >= WHY_FIX ? "" : " on both sides",
				 reason);
		ui_lines_wrap(&line[i].why, ROLE_INACTIVE, width, 2, text);
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
 * kernel copied anyway, else what moved; what the receive side counted
 * (brief: without why).  These are the run's totals, not the gauges'
 * window, and say so.
 */
static void gauge_foot(const struct ui *ui, const struct explorer *e, int width,
		       bool brief, struct ui_lines *foot)
{
	/* A percentile's name and its value are never split by a wrap. */
	const char *nb = ui->utf8 ? "\u00a0" : "=";
	const struct session *s = e->session;
	const struct run_config *c = &e->running;
	const struct run_totals *t = &e->live.totals;
	const struct latency_summary *l = &e->live.latency;
	char text[512], said[384], moved[32], delivered[32],
		when[32] = "so far";

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
			 "trips%s)",
			 when, nb, l->p50_us, nb, l->p90_us, nb, l->p99_us, nb,
			 l->p99_9_us, nb, l->max_us,
			 (unsigned long long)l->count,
			 /* The counters' cost is in them: said beside. */
			 c->counters ? ", with counters on" : "");
	if (c->mode == RUN_RR)
		ui_lines_wrap(foot, l->count ? ROLE_HIGHLIGHT : ROLE_MISC,
			      width, 2, text);
	if (c->strategy->zerocopy && !t->zc_completions) {
		snprintf(text, sizeof(text),
			 "Zero-copy %s: %llu sends pinned, none completed%s",
			 when, (unsigned long long)t->zc_sends,
			 e->live.running ? " yet" : "");
	} else if (c->strategy->zerocopy) {
		char copied[200];

		ui_zc_copied(t, copied, sizeof(copied));
		snprintf(text, sizeof(text), "Zero-copy %s: the kernel %s",
			 when, copied);
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
	/* Brief where rows are short: without the kernel's reasons. */
	if (rx_side_say(c->settings.rx, c->strategy, t->rx_side, !brief, said,
			sizeof(said))) {
		snprintf(text, sizeof(text), "Receive %s: %s", when, said);
		ui_lines_wrap(foot, ROLE_MISC, width, 2, text);
	}
}

/*
 * What a sampled side could not sample (user space only: its kernel roles
 * n/a; kernel functions unnamed) and the fix, as told, under the sides'
 * lines: once where both say it.  Always wrapped, never cut: at most down
 * to the fix.  A side without samples said it in its own line.
 */
static void profile_foot_why(const struct run_profile *const p[SIDE_COUNT],
			     int width, enum gauge_why told,
			     struct ui_lines *foot)
{
	char text[sizeof(p[0]->why) + 48], reason[sizeof(p[0]->why)];

	for (int side = 0; side < SIDE_COUNT; side++) {
		if (!p[side] || !p[side]->samples || !p[side]->why[0])
			continue;
		if (side == SIDE_RECEIVER && p[SIDE_SENDER] &&
		    p[SIDE_SENDER]->samples &&
		    strcmp(p[SIDE_SENDER]->why, p[side]->why) == 0)
			continue;
		told_reason(p[side]->why, told < WHY_FIX ? told : WHY_FIX,
			    reason, sizeof(reason));
		/* Down to the fix, the kernel's roles are said n/a. */
		snprintf(text, sizeof(text), "  %s%s",
			 p[side]->user_only && told >= WHY_FIX ? "kernel n/a: "
							       : "",
			 reason);
		ui_lines_wrap(foot, ROLE_INACTIVE, width, 4, text);
	}
}

/* "31/48": a window's p50 and p99, in us, as the gauges' numbers read. */
static void probe_pair(const struct probe_summary *w, char *out, size_t size)
{
	char p50[16], p99[16];

	ui_format_value(w->rtt.p50_us, p50, sizeof(p50));
	ui_format_value(w->rtt.p99_us, p99, sizeof(p99));
	snprintf(out, size, "%s/%s", p50, p99);
}

/*
 * The probe's line, for the run going on or else the last one: its p50
 * and p99 alone and beside the load, its round trips and late sends (its
 * own timer's error, never hidden).  A figure's name stays with it when
 * the line wraps.
 */
static void gauge_probe(const struct ui *ui, const struct explorer *e,
			int width, struct ui_lines *foot)
{
	const char *nb = ui->utf8 ? "\u00a0" : "=";
	const struct session *s = e->session;
	const struct run_probe *p = &e->live.probe;
	enum run_probe_phase phase = e->live.probe_phase;
	char alone[48] = "warming up", loaded[48], text[256];
	const struct probe_summary *w;

	if (!e->live.running) {
		if (!s->result_count)
			return;
		p = &s->results[s->result_count - 1].probe;
		phase = p->present ? RUN_PROBE_DONE : RUN_PROBE_NONE;
	}
	if (phase == RUN_PROBE_NONE)
		return;
	if (p->idle.rtt.count)
		probe_pair(&p->idle, alone, sizeof(alone));
	if (phase == RUN_PROBE_ALONE) {
		snprintf(text, sizeof(text),
			 "Probe alone before the load, p50/p99 us: %s (%llu "
			 "round trips, %llu late)",
			 alone, (unsigned long long)p->idle.rtt.count,
			 (unsigned long long)p->idle.late);
		ui_lines_wrap(foot, ROLE_MISC, width, 2, text);
		return;
	}
	w = &p->loaded;
	if (w->rtt.count)
		probe_pair(w, loaded, sizeof(loaded));
	else
		snprintf(loaded, sizeof(loaded), "%s",
			 e->live.running && e->live.warmup ? "warming up"
							   : "none yet");
	/* Narrow, the words give way to the numbers. */
	if (width < 60)
		snprintf(text, sizeof(text),
			 "Probe p50/p99 us: alone%s%s, loaded%s%s (%llu late)",
			 nb, alone, nb, loaded, (unsigned long long)w->late);
	else
		snprintf(text, sizeof(text),
			 "Probe p50/p99 us: alone%s%s%s, under the load%s%s "
			 "(%llu round trips, %llu late%s)",
			 nb, alone, p->idle_reused ? " (earlier)" : "", nb,
			 loaded, (unsigned long long)w->rtt.count,
			 (unsigned long long)w->late,
			 w->skipped ? ", some skipped" : "");
	ui_lines_wrap(foot, w->rtt.count ? ROLE_HIGHLIGHT : ROLE_MISC, width, 2,
		      text);
}

/*
 * Where each side's CPU goes, from the sampled intervals of the run going
 * on or else the last one: a line that says what the rows are (at a width
 * that has room, with what sampling did there), a row per side, and what
 * could not be sampled, told as room allows.  Nothing where nothing was
 * sampled.
 */
static void gauge_profile(const struct explorer *e, int width,
			  enum gauge_why told, struct ui_lines *foot)
{
	static const char *const side_names[] = {"Sender", "Receiver"};
	const struct session *s = e->session;
	const struct run_profile *p[SIDE_COUNT] = {NULL, NULL};
	double effect = NAN;
	char text[256], roles_text[192];

	for (int side = 0; side < SIDE_COUNT; side++) {
		if (e->live.running && e->live.profiled[side])
			p[side] = &e->live.profile[side];
		else if (!e->live.running && s->result_count &&
			 s->results[s->result_count - 1].profile[side].present)
			p[side] =
				&s->results[s->result_count - 1].profile[side];
	}
	if (!p[SIDE_SENDER] && !p[SIDE_RECEIVER])
		return;
	effect = e->live.running
			 ? e->live.sampling_effect
			 : s->results[s->result_count - 1].sampling_effect;
	if (width >= 60 && isfinite(effect))
		snprintf(text, sizeof(text),
			 "Where the CPU goes, sampled one interval in five "
			 "(sampling %s msg/s %+.0f%% there, left out of the "
			 "figures):",
			 e->live.running ? "moves" : "moved", 100 * effect);
	else
		snprintf(text, sizeof(text), "%s",
			 width >= 60 ? "Where the CPU goes, sampled:"
				     : "Sampled share of each side's CPU:");
	ui_lines_wrap(foot, ROLE_MISC, width, 2, text);
	for (int side = 0; side < SIDE_COUNT; side++) {
		if (!p[side])
			continue;
		/* Narrow, the label gives its room to the roles. */
		int label = width >= 60 ? 14 : 3;

		if (p[side]->samples)
			ui_profile_text(p[side], width - 1 - label, roles_text,
					sizeof(roles_text));
		else
			told_reason(p[side]->why[0] ? p[side]->why
						    : "no samples yet",
				    told < WHY_FIX ? told : WHY_FIX, roles_text,
				    sizeof(roles_text));
		snprintf(text, sizeof(text), "%-*s%s", label,
			 width >= 60 ? side_names[side]
			 : side	     ? "rx"
				     : "tx",
			 roles_text);
		ui_lines_wrap(foot,
			      p[side]->samples ? ROLE_TEXT : ROLE_INACTIVE,
			      width, label, text);
	}
	profile_foot_why(p, width, told, foot);
}

/*
 * Where each side's time goes in the same intervals, under where its CPU
 * goes: a line per side ("Receiver time", "rx time"), its share on the CPU
 * then its largest waits; why where it could not be watched.  Nothing
 * where it was not.
 */
static void gauge_time(const struct explorer *e, int width, enum gauge_why told,
		       struct ui_lines *foot)
{
	static const char *const side_names[] = {"Sender time",
						 "Receiver time"};
	const struct session *s = e->session;
	const struct run_time *t[SIDE_COUNT] = {NULL, NULL};
	char text[320], parts[256];
	/* Narrow, the label gives its room to the parts. */
	int label = width >= 60 ? 14 : 8;

	for (int side = 0; side < SIDE_COUNT; side++) {
		if (e->live.running && e->live.timed[side])
			t[side] = &e->live.time[side];
		else if (!e->live.running && s->result_count &&
			 s->results[s->result_count - 1].time[side].present)
			t[side] = &s->results[s->result_count - 1].time[side];
	}
	if (!t[SIDE_SENDER] && !t[SIDE_RECEIVER])
		return;
	for (int side = 0; side < SIDE_COUNT; side++) {
		bool known = t[side] && t[side]->window_s > 0;

		if (!t[side])
			continue;
		if (known)
			ui_time_text(t[side], width - 1 - label, parts,
				     sizeof(parts));
		else
			told_reason(t[side]->why[0] ? t[side]->why
						    : "no interval watched yet",
				    told < WHY_FIX ? told : WHY_FIX, parts,
				    sizeof(parts));
		snprintf(text, sizeof(text), "%-*s%s", label,
			 width >= 60 ? side_names[side]
			 : side	     ? "rx time"
				     : "tx time",
			 parts);
		ui_lines_wrap(foot, known ? ROLE_TEXT : ROLE_INACTIVE, width,
			      label, text);
	}
}

/* The rows n gauge lines take. */
static int gauge_lines_rows(const struct gauge_line *line, size_t n)
{
	int rows = 0;

	for (size_t i = 0; i < n; i++)
		rows += line[i].why.count ? (int)line[i].why.count : 1;
	return rows;
}

/* The gauges as laid out: their lines, and the foot below them. */
struct ui_gauges {
	struct gauge_line line[METRICS_MAX];
	size_t lines;
	size_t left_out; /* gauges that gave way, counted on a row */
	char left_names[160];
	struct ui_lines foot;
};

/*
 * Rows of the gauges box: its frame, the sides, the lines, the row that
 * counts those left out, the foot.
 */
static int gauges_rows(const struct ui_gauges *g)
{
	return 2 + 1 + (int)(g->foot.count ? g->foot.count : 1) +
	       gauge_lines_rows(g->line, g->lines) + (g->left_out ? 1 : 0);
}

/* Whether gauge m is a figure that a setting the runs vary moves most. */
static bool varied_figure(const struct explorer *e, size_t m)
{
	for (size_t c = 0; c < options_control_count(); c++) {
		const struct option_row *row = options_control_at(c);
		const char *const *f = row->control->figures;

		for (; f && *f && explorer_varies(e, row); f++)
			if (strcmp(*f, metrics[m].key) == 0)
				return true;
	}
	return false;
}

/*
 * How much a line is wanted, the least first to give way: the first
 * gauge (Throughput) most, then those the varied settings move
 * (struct option_control's figures), then the rest in the table's order.
 */
static size_t line_want(const struct explorer *e, const struct gauge_line *l)
{
	if (l->metric == 0)
		return 0;
	return l->shared_why || !varied_figure(e, l->metric) ? 1 + l->metric
							     : 1;
}

/*
 * Fewer rows than the gauges need: lines give way, the least wanted
 * first, counted and named on a row of their own, until the rest fit.
 */
static void gauges_give_way(const struct explorer *e, struct ui_gauges *g,
			    int max, int *rows)
{
	while (*rows > max && g->lines > 1) {
		size_t worst = 0;

		for (size_t i = 1; i < g->lines; i++)
			if (line_want(e, &g->line[i]) >=
			    line_want(e, &g->line[worst]))
				worst = i;
		g->left_out += g->line[worst].count;
		snprintf(g->left_names + strlen(g->left_names),
			 sizeof(g->left_names) - strlen(g->left_names), "%s%s",
			 g->left_names[0] ? ", " : "",
			 g->line[worst].shared_why
				 ? g->line[worst].text
				 : metrics[g->line[worst].metric].label);
		ui_lines_free(&g->line[worst].why);
		memmove(&g->line[worst], &g->line[worst + 1],
			(g->lines - worst - 1) * sizeof(*g->line));
		g->lines--;
		*rows = gauges_rows(g);
	}
}

/*
 * What the foot gives up, last first, where the gauges would not show at
 * all: the time rows, then the CPU rows, both a keypress away in the data
 * path (x), which the foot then says.
 */
enum foot_shed {
	SHED_NONE,
	SHED_TIME,
	SHED_CPU,
};

/*
 * The lines below the gauges, less what shed gives up; brief past whole
 * reasons.
 */
static void gauges_foot(const struct ui *ui, const struct explorer *e,
			int width, enum gauge_why told, enum foot_shed shed,
			struct ui_lines *foot)
{
	struct ui_lines given_up = {0};

	gauge_foot(ui, e, width, told > WHY_WHOLE, foot);
	gauge_probe(ui, e, width, foot);
	gauge_profile(e, width, told, shed >= SHED_CPU ? &given_up : foot);
	gauge_time(e, width, told, shed >= SHED_TIME ? &given_up : foot);
	if (given_up.count)
		ui_lines_wrap(foot, ROLE_INACTIVE, width, 2,
			      "Where each side's CPU and time go: x");
	ui_lines_free(&given_up);
}

/*
 * The gauges' lines that fit in at most max rows: whole reasons if they
 * can, then shorter ones and a brief foot, then the foot's CPU and time
 * rows where they would leave no room for gauges, then the gauges least
 * wanted give way (line_want).
 */
struct ui_gauges *ui_gauges_layout(const struct ui *ui,
				   const struct explorer *e, int width, int max,
				   int *rows)
{
	struct ui_gauges *g = calloc(1, sizeof(*g));
	enum gauge_why told = WHY_WHOLE;
	enum foot_shed shed = SHED_NONE;

	if (!g)
		return NULL;
	for (;;) {
		g->lines = gauge_lines(e, width, told, g->line);
		gauges_foot(ui, e, width, told, shed, &g->foot);
		*rows = gauges_rows(g);
		if (*rows <= max)
			break;
		if (told < WHY_COUNTED) {
			told++;
		} else {
			/*
			 * Rows for three gauges and the count of the rest, or
			 * the foot gives up what it can.
			 */
			int room = max - (*rows -
					  gauge_lines_rows(g->line, g->lines));

			if (room >= 4 || shed == SHED_CPU)
				break;
			shed++;
		}
		gauge_lines_free(g->line, g->lines);
		ui_lines_free(&g->foot);
	}
	gauges_give_way(e, g, max, rows);
	return g;
}

void ui_gauges_free(struct ui_gauges *g)
{
	if (!g)
		return;
	gauge_lines_free(g->line, g->lines);
	ui_lines_free(&g->foot);
	free(g);
}

/*
 * "Sender", or over two hosts which host's: "Receiver (agent
 * 10.0.0.2:5310)".
 */
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

/*
 * The row that counts the gauges left out, naming them where the names
 * fit: "Messages, Ctx switches: a taller terminal shows them".
 */
static void draw_left_out(const struct rect *r, int y, size_t count,
			  const char *names)
{
	char text[256];

	snprintf(text, sizeof(text), "%s: a taller terminal shows %s", names,
		 count == 1 ? "it" : "them");
	if (ui_width(text) > r->w - 4)
		snprintf(text, sizeof(text),
			 "%zu more gauge%s a taller terminal", count,
			 count == 1 ? " needs" : "s need");
	ui_text(y, r->x + 2, r->w - 4, ROLE_INACTIVE, "%s", text);
}

void ui_draw_gauges(struct ui *ui, const struct explorer *e,
		    const struct rect *r, struct ui_gauges *g)
{
	const struct gauge_line *line = g->line;
	const struct ui_lines *foot = &g->foot;
	size_t lines = g->lines;
	int label = 14;
	int column = (r->w - 2 - label - 1) / 2;
	int y = r->y + 1;
	int x0 = r->x + 1 + label;
	int last = r->y + r->h - 1 - (int)foot->count;
	char title[128];

	snprintf(title, sizeof(title), "Gauges, over the last %.1f s",
		 (double)e->window_ms / 1000);
	ui_box(ui->utf8, r, ROLE_BOX_GAUGES, title);
	side_title(e, SIDE_SENDER, title, sizeof(title));
	ui_text(y, x0, column, ROLE_SENDER_HIGH, "%s", title);
	side_title(e, SIDE_RECEIVER, title, sizeof(title));
	ui_text(y, x0 + column + 1, column, ROLE_RECEIVER_HIGH, "%s", title);
	y++;
	for (size_t i = 0; i < lines && y < last; i++) {
		size_t m = line[i].metric;
		int room = last - y;
		int need = line[i].why.count ? (int)line[i].why.count : 1;

		/*
		 * What does not fit is counted on a row kept for it, not cut:
		 * gauges, a line of several n/a for one reason counting each.
		 */
		if (gauge_lines_rows(line + i, lines - i) + (g->left_out > 0) >
			    room &&
		    need > room - 1) {
			size_t gauges = g->left_out;
			char names[sizeof(g->left_names) + 64];

			snprintf(names, sizeof(names), "%s", g->left_names);
			for (size_t k = i; k < lines; k++) {
				gauges += line[k].count;
				snprintf(names + strlen(names),
					 sizeof(names) - strlen(names), "%s%s",
					 names[0] ? ", " : "",
					 line[k].shared_why
						 ? line[k].text
						 : metrics[line[k].metric]
							   .label);
			}
			draw_left_out(r, y, gauges, names);
			y = last;
			break;
		}

		if (line[i].why.count) {
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
			metrics[m].label);
		draw_gauge(ui, e, m, SIDE_SENDER, y, x0, column - 1);
		draw_gauge(ui, e, m, SIDE_RECEIVER, y, x0 + column + 1,
			   column - 1);
		y++;
	}
	if (g->left_out && y < last)
		draw_left_out(r, y, g->left_out, g->left_names);
	/* The foot, at the bottom whatever is above it. */
	y = r->y + r->h - 1 - (int)foot->count;
	for (size_t k = 0; k < foot->count; k++, y++)
		if (y > r->y)
			ui_text(y, r->x + 2 + foot->line[k].indent,
				r->w - 4 - foot->line[k].indent,
				foot->line[k].role, "%s", foot->line[k].text);
}

/* Where the flows run: "veth nio0 -> nio1", "remote: agent ...". */
static void header_where(const struct ui *ui, const struct explorer *e,
			 char *out, size_t size)
{
	const struct session *s = e->session;
	enum topo_kind kind = s->topo.options.kind;

	if (e->viewing)
		snprintf(out, size, "no network built");
	else if (kind == TOPO_CURRENT)
		snprintf(out, size, "current namespace, loopback");
	else if (s->has_agent)
		snprintf(out, size, "remote: agent %s", s->agent.address);
	else if (kind == TOPO_REMOTE)
		snprintf(out, size, "remote");
	else
		snprintf(out, size, "%s %s", topo_kind_name(kind),
			 kind != TOPO_VETH ? "lo"
			 : ui->utf8	   ? "nio0 \u2192 nio1"
					   : "nio0 -> nio1");
}

/*
 * What runs: "run 3: one-copy 64 KiB x1, 2.1 s", "idle"; brief: without
 * its time.
 */
static void header_state(const struct explorer *e, bool brief, char *out,
			 size_t size)
{
	const struct run_config *c = &e->running;
	char bytes[24];

	units_format_size_iec(c->msg_size, bytes, sizeof(bytes));
	if (e->viewing)
		snprintf(out, size, "loaded export, %zu run%s",
			 e->session->result_count,
			 e->session->result_count == 1 ? "" : "s");
	else if (e->state == EXPLORER_RUNNING && !brief && e->live.starting &&
		 e->live.probe_phase == RUN_PROBE_ALONE)
		snprintf(out, size, "run %u: %s %s x%u%s, the probe alone %s",
			 e->run_number, c->strategy->name, bytes, c->threads,
			 c->mode == RUN_RR ? " rr" : "",
			 e->live.probe.idle.measured_s > 0 ? "measuring"
							   : "warming up");
	else if (e->state == EXPLORER_RUNNING && (brief || e->live.starting))
		snprintf(out, size, "run %u: %s %s x%u%s%s", e->run_number,
			 c->strategy->name, bytes, c->threads,
			 c->mode == RUN_RR ? " rr" : "",
			 brief ? "" : ", getting ready");
	else if (e->state == EXPLORER_RUNNING)
		snprintf(out, size, "run %u: %s %s x%u%s, %.1f s%s",
			 e->run_number, c->strategy->name, bytes, c->threads,
			 c->mode == RUN_RR ? " rr" : "", e->live.elapsed_s,
			 e->live.warmup ? " warming up" : "");
	else if (e->state == EXPLORER_STOPPING)
		snprintf(out, size, "run %u: stopping", e->run_number);
	else
		snprintf(out, size, "idle");
}

/*
 * What goes on now, whatever the screen shows: new runs, and a sweep's or a
 * crossover search's progress ("  2 new runs  sweep 5/7, 0:40 left"); ""
 * if none.
 */
static void header_live(const struct ui *ui, const struct explorer *live,
			char *out, size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	if (ui->runs.new_runs)
		len += (size_t)snprintf(out, size, "  %zu new run%s",
					ui->runs.new_runs,
					ui->runs.new_runs == 1 ? "" : "s");
	if (explorer_searching(live) && len < size) {
		double left = crossover_left_s(live->session->crossover,
					       clock_now_ns());

		snprintf(out + len, size - len,
			 "  crossover %zu run%s, %d:%02d left",
			 live->session->crossover->runs,
			 live->session->crossover->runs == 1 ? "" : "s",
			 (int)left / 60, (int)left % 60);
	} else if (explorer_sweeping(live) && len < size) {
		size_t done, total;
		double left_s;

		explorer_sweep_progress(live, &done, &total, &left_s);
		/* The run in progress, as the status line counts it. */
		if (live->state != EXPLORER_IDLE && done < total)
			done++;
		len += (size_t)snprintf(out + len, size - len,
					"  sweep %zu/%zu", done, total);
		if (!isnan(left_s) && len < size)
			snprintf(out + len, size - len, ", %d:%02d left",
				 (int)ceil(left_s) / 60,
				 (int)ceil(left_s) % 60);
	}
}

/*
 * What is worth knowing beside it: pinning, the receive side and the knobs
 * of the run shown; frozen; and what goes on now -- said to be now where
 * the screen is frozen, so that it and the status line, which is live,
 * agree.
 */
static void header_flags(const struct ui *ui, const struct explorer *e,
			 const struct explorer *live, char *out, size_t size)
{
	char now[128];
	size_t len = 0;

	out[0] = '\0';
	if (e->state != EXPLORER_IDLE && e->running.settings.pin.count) {
		char cpus[64];

		units_format_cpus(&e->running.settings.pin, cpus, sizeof(cpus));
		len += (size_t)snprintf(out + len, size - len, "  pin %s",
					cpus);
	}
	/* The receive side first: the knobs give way to it. */
	if (e->state != EXPLORER_IDLE &&
	    !rx_side_of(e->running.settings.rx)->own)
		len += (size_t)snprintf(
			out + len, size - len, " %s",
			rx_side_of(e->running.settings.rx)->tag);
	if (e->state != EXPLORER_IDLE && len < size) {
		struct settings_stack stack = settings_stack_of(
			&e->running.settings);
		char knobs[96];

		settings_stack_tag(&stack, knobs, sizeof(knobs));
		if (knobs[0])
			len += (size_t)snprintf(out + len, size - len, " %s",
						knobs);
	}
	header_live(ui, live, now, sizeof(now));
	if (ui->frozen && len < size)
		snprintf(out + len, size - len, "  FROZEN (Z)%s%s",
			 now[0] ? "; now:" : "", now[0] ? now + 1 : "");
	else if (len < size)
		snprintf(out + len, size - len, "%s", now);
}

/* The header's parts, most needed first: what runs, then where. */
void ui_draw_header(const struct ui *ui, const struct explorer *e,
		    const struct explorer *live)
{
	char where[96], state[160], flags[200], line[512];
	/* A teaching run that breaks the buffer rule says so first. */
	const char *unsafe = e->state != EXPLORER_IDLE &&
					     e->running.settings.unsafe_reuse
				     ? "UNSAFE REUSE  "
				     : "";

	attrset(theme_attr(ROLE_SELECTED));
	mvhline(0, 0, ' ', ui->cols);
	header_where(ui, e, where, sizeof(where));
	header_state(e, false, state, sizeof(state));
	header_flags(ui, e, live, flags, sizeof(flags));
	/*
	 * What is left out first when the line is too long: where, the name,
	 * the run's time.
	 */
	snprintf(line, sizeof(line), " %snio-top %s  %s  %s%s", unsafe,
		 NIO_TOP_VERSION, where, state, flags);
	if (ui_width(line) > ui->cols)
		snprintf(line, sizeof(line), " %snio-top  %s%s", unsafe, state,
			 flags);
	if (ui_width(line) > ui->cols)
		snprintf(line, sizeof(line), " %s%s%s", unsafe, state, flags);
	if (ui_width(line) > ui->cols) {
		header_state(e, true, state, sizeof(state));
		snprintf(line, sizeof(line), " %s%s%s", unsafe, state, flags);
	}
	ui_text(0, 0, ui->cols, ROLE_SELECTED, "%s", line);
}

void ui_draw_too_small(const struct ui *ui)
{
	attrset(theme_attr(ROLE_TEXT));
	erase();
	ui_text(ui->rows / 2 - 1, 1, ui->cols - 2, ROLE_HIGHLIGHT,
		"Terminal too small");
	ui_text(ui->rows / 2, 1, ui->cols - 2, ROLE_TEXT, "%dx%d, need %dx%d",
		ui->cols, ui->rows, UI_MIN_COLS, UI_MIN_ROWS);
	ui_text(ui->rows / 2 + 1, 1, ui->cols - 2, ROLE_INACTIVE, "q quits");
}

void ui_draw_waiting(struct ui *ui, const char *what)
{
	attrset(theme_attr(ROLE_TEXT));
	erase();
	ui_text(ui->rows / 2 - 1, 1, ui->cols - 2, ROLE_HIGHLIGHT, "%s", what);
	ui_text(ui->rows / 2, 1, ui->cols - 2, ROLE_INACTIVE, "q quits");
	refresh();
}

/* A function key in the bar: its label, its word, how much it is needed. */
struct bar_item {
	const char *label;
	const char *word;
	int rank; /* 1: always; a narrow bar drops the highest first */
};

/*
 * The table's function keys, while it is on screen: before the theme and
 * the freeze, which a narrow bar drops first.
 */
static const struct bar_item table_bar[] = {
	{"F4", "Filter", 5},
	{"F6", "Sort", 6},
	{"F9", "Mark", 5},
};

/*
 * The bar's function keys in their order, F1 first: how many.  Where
 * nothing runs (viewing), none that starts runs; F5 as the view names it.
 */
static size_t bar_items(const struct ui_view *view, bool table, bool viewing,
			struct bar_item *item, size_t most)
{
	size_t n = 0;

	for (int f = 1; f <= 10; f++) {
		char label[8];

		snprintf(label, sizeof(label), "F%d", f);
		for (size_t i = 0; i < ui_key_count && n < most; i++)
			if (ui_keys[i].bar &&
			    !(viewing && ui_action_runs(ui_keys[i].action)) &&
			    strcmp(ui_keys[i].label, label) == 0)
				item[n++] = (struct bar_item){
					ui_keys[i].label,
					ui_keys[i].action == ACT_SWEEP &&
							view && view->sweep_bar
						? view->sweep_bar
						: ui_keys[i].bar,
					ui_keys[i].bar_rank};
		for (size_t i = 0; table && i < 3 && n < most; i++)
			if (strcmp(table_bar[i].label, label) == 0)
				item[n++] = table_bar[i];
	}
	return n;
}

/*
 * A view's keys for the bar, "<-> runs" naming Left and Right: as arrows
 * where the terminal draws them ("\u2190\u2192 runs").
 */
static void bar_keys(bool utf8, const char *bar, char *out, size_t size)
{
	const char *both = strstr(bar, "<->");

	if (utf8 && both)
		snprintf(out, size, "%.*s\u2190\u2192%s", (int)(both - bar),
			 bar, both + 3);
	else
		snprintf(out, size, "%s", bar);
}

void ui_draw_keybar(const struct ui *ui, const struct ui_view *view,
		    const struct ui_view *over, bool table, bool viewing)
{
	struct bar_item item[16];
	size_t n = bar_items(view, table, viewing, item, 16);
	const struct ui_view *keys = over ? over : view;
	char tail[96], own[64] = "";
	int y = ui->rows - 1, x = 0, width;

	if (keys && keys->bar)
		bar_keys(ui->utf8, keys->bar, own, sizeof(own));
	snprintf(tail, sizeof(tail), "%s%sv view  x path", own,
		 own[0] ? "  " : "");
	/* Narrow: the least needed function keys go first. */
	for (;;) {
		size_t worst = 0;

		width = ui_width(tail) + 1;
		for (size_t i = 0; i < n; i++) {
			width += (int)strlen(item[i].label) + 6;
			if (item[i].rank > item[worst].rank)
				worst = i;
		}
		if (width <= ui->cols || !n || item[worst].rank <= 1)
			break;
		memmove(&item[worst], &item[worst + 1],
			(n - worst - 1) * sizeof(*item));
		n--;
	}
	attrset(theme_attr(ROLE_TEXT));
	mvhline(y, 0, ' ', ui->cols);
	for (size_t i = 0; i < n && x < ui->cols; i++) {
		const char *word = item[i].word;

		if (strcmp(item[i].label, "F8") == 0 && ui->frozen)
			word = "Thaw";
		ui_text(y, x, 3, ROLE_TEXT, "%s", item[i].label);
		x += (int)strlen(item[i].label);
		ui_text(y, x, ui->cols - x, ROLE_SELECTED, "%-*s",
			ui->cols - x < 6 ? ui->cols - x : 6, word);
		x += 6;
	}
	if (x + 1 < ui->cols)
		ui_text(y, x + 1, ui->cols - x - 1, ROLE_INACTIVE, "%s", tail);
}
