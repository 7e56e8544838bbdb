/*
 * The compare view: runs side by side, a column each, every figure of the
 * metric table a row, each value with its ratio to the first run's where
 * they share a mode.  It compares the marked runs, as many as fit: the first
 * stays, as the ratios' base, and Left and Right bring the others in; with
 * none marked, the selected run and the latest run of its mode that differs
 * from it in one setting (its strategy rather than its size), or in the
 * fewest, said in the title.  The runs' names stay while the figures
 * scroll.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "freeze.h"
#include "measures.h"
#include "point.h"
#include "status.h"
#include "table.h"
#include "units.h"
#include "view.h"

/*
 * The figures' names (the longest, "CPU in deliv copy % (receiver)", and a
 * space), and a run's column at the least and with a ratio.
 */
#define COMPARE_LABEL  31
#define COMPARE_NARROW 13
#define COMPARE_RATIO  17
#define COMPARE_MAX    8

struct compare {
	size_t scroll, page;
	size_t first;	/* after the base, the first marked run shown */
	uint64_t shown; /* which runs were shown: a new set scrolls home */
};

/* The runs compared, and how they were chosen. */
struct compare_set {
	size_t pick[COMPARE_MAX];
	size_t n;
	/* Marked runs in all; 0: the selected one and its peer. */
	size_t marked;
	size_t first; /* of the marked after the base, the first shown */
	int column;   /* cells a run's column takes */
	bool ratio;   /* the columns have room for ratios */
	bool rr, mixed, same;
	bool utf8;	     /* a name cut is marked "…", else "~" */
	unsigned int differ; /* none marked: the settings the two differ in */
	bool probe;	     /* a run with a probe is among them */
};

static void *compare_open(struct ui *ui)
{
	(void)ui;
	return calloc(1, sizeof(struct compare));
}

static void compare_close(void *state)
{
	free(state);
}

/*
 * The settings of a point two runs of a mode may differ in, in the order a
 * peer is chosen by (the strategy first: what nio-top compares), and their
 * names in the title.
 */
enum compare_axis {
	AXIS_STRATEGY,
	AXIS_RX,
	AXIS_GSO,
	AXIS_GRO_SIZE,
	AXIS_GRO,
	AXIS_BUSY,
	AXIS_PACE,
	AXIS_SIZE,
	AXIS_FLOWS,
	AXES,
};

static const char *const axis_names[AXES] = {
	"strategy",	"receive side", "GSO size",	"GRO size", "GRO",
	"busy polling", "load's pace",	"message size", "flows",
};

/*
 * The settings points a and b differ in, a bit per compare_axis: the
 * point key's parts, its knobs one by one.
 */
static unsigned int point_differ(const struct point_key *a,
				 const struct point_key *b)
{
	const struct settings_stack *x = &a->stack, *y = &b->stack;

	return !point_key_equal(a, b, POINT_STRATEGY) << AXIS_STRATEGY |
	       !point_key_equal(a, b, POINT_RX) << AXIS_RX |
	       (x->gso_max_size != y->gso_max_size) << AXIS_GSO |
	       (x->gro_max_size != y->gro_max_size) << AXIS_GRO_SIZE |
	       (x->gro != y->gro) << AXIS_GRO |
	       (x->busy_poll != y->busy_poll) << AXIS_BUSY |
	       (x->load_rate_mbps != y->load_rate_mbps) << AXIS_PACE |
	       !point_key_equal(a, b, POINT_SIZE) << AXIS_SIZE |
	       !point_key_equal(a, b, POINT_FLOWS) << AXIS_FLOWS;
}

/* How good a peer of that difference is: lower is better; 0: the same. */
static unsigned int differ_rank(unsigned int differ)
{
	unsigned int n = (unsigned int)__builtin_popcount(differ);

	/* One setting, the earliest axis best; then the fewest. */
	return n == 1 ? 1 + (unsigned int)__builtin_ctz(differ) : AXES * n;
}

/*
 * The run to set beside run k with nothing marked: of its mode, finished
 * cleanly, differing from it in one setting -- the strategy before the
 * receive side, the knobs, the size and the flows -- or else in the fewest;
 * the latest of those.  SIZE_MAX: none; *differ: what it differs in.
 */
static size_t peer_of(const struct explorer *e, size_t k, unsigned int *differ)
{
	const struct run_result *r = e->session->results;
	struct point_key key = point_key_of(&r[k].config), other;
	size_t best = SIZE_MAX;
	unsigned int best_rank = 0;

	for (size_t i = e->session->result_count; i-- > 0;) {
		unsigned int d, rank;

		other = point_key_of(&r[i].config);
		if (i == k || !point_key_equal(&key, &other, POINT_MODE) ||
		    r[i].error)
			continue;
		d = point_differ(&key, &other);
		/* The same point, run again, is the least to learn from. */
		rank = d ? differ_rank(d) : AXES * AXES;
		if (best == SIZE_MAX || rank < best_rank) {
			best = i;
			best_rank = rank;
			*differ = d;
		}
	}
	return best;
}

/*
 * The first marked run, the ratios' base, then the others from the first
 * shown, as many as fit in width.
 */
static void pick_marked(const struct ui *ui, struct compare *c,
			const struct explorer *e, int width,
			struct compare_set *set)
{
	size_t runs = e->session->result_count;
	size_t fit = width > 0 ? (size_t)width / COMPARE_RATIO : 1;
	size_t others = set->marked - 1;

	/* Ratios where two runs fit with them; more runs, narrow, where not. */
	if (fit < 2)
		fit = width > 0 ? (size_t)width / COMPARE_NARROW : 1;
	if (fit > COMPARE_MAX)
		fit = COMPARE_MAX;
	if (fit < 2)
		fit = 2;
	if (c->first + fit - 1 > others)
		c->first = others > fit - 1 ? others - (fit - 1) : 0;
	set->first = c->first;
	for (size_t k = 0, seen = 0; k < runs && set->n < fit; k++) {
		if (!ui_runs_marked(ui, k))
			continue;
		if (seen == 0 || seen - 1 >= c->first)
			set->pick[set->n++] = k;
		seen++;
	}
}

static void compare_pick(const struct ui *ui, struct compare *c,
			 const struct explorer *e, int width,
			 struct compare_set *set)
{
	size_t runs = e->session->result_count, peer;

	*set = (struct compare_set){.utf8 = ui->utf8};
	for (size_t k = 0; k < runs; k++)
		set->marked += ui_runs_marked(ui, k);
	if (set->marked >= 2) {
		pick_marked(ui, c, e, width, set);
		return;
	}
	/* The one marked, or the selected run, and the one before it. */
	for (size_t k = 0; k < runs && !set->n; k++)
		if (ui_runs_marked(ui, k))
			set->pick[set->n++] = k;
	if (!set->n && runs)
		set->pick[set->n++] = ui->runs.cursor < runs ? ui->runs.cursor
							     : runs - 1;
	peer = set->n ? peer_of(e, set->pick[0], &set->differ) : SIZE_MAX;
	if (peer != SIZE_MAX)
		set->pick[set->n++] = peer;
}

/* The columns' width, whether there is room for ratios, and the modes. */
static void compare_layout(const struct explorer *e, int room,
			   struct compare_set *set)
{
	const struct run_result *results = e->session->results;

	set->column = set->n ? room / (int)set->n : room;
	if (set->column > 22)
		set->column = 22;
	/* A ratio needs room: "12.3k x1.23". */
	set->ratio = set->n > 1 && set->column >= COMPARE_RATIO;
	for (size_t i = 0; i < set->n; i++) {
		enum run_mode mode = results[set->pick[i]].config.mode;

		set->rr |= mode == RUN_RR;
		set->probe |= results[set->pick[i]].probe.present;
		set->mixed |= set->ratio &&
			      mode != results[set->pick[0]].config.mode;
		set->same |= i && mode == results[set->pick[0]].config.mode;
	}
}

/*
 * With none marked, what the second run is to the first, in width cells:
 * "run 3 differs in strategy alone", "in strategy and message size", "in
 * 2 settings", or "is the same point run again".
 */
static void peer_words(const struct compare_set *set, int width, char *out,
		       size_t size)
{
	size_t len = (size_t)snprintf(out, size, "run %zu ", set->pick[1] + 1);
	int n = __builtin_popcount(set->differ), said = 0;

	if (!n) {
		snprintf(out + len, size - len, "is the same point run again");
		return;
	}
	len += (size_t)snprintf(out + len, size - len, "differs in ");
	for (int a = 0; a < AXES && len < size; a++)
		if (set->differ & 1u << a)
			len += (size_t)snprintf(out + len, size - len, "%s%s",
						!said++	    ? ""
						: said == n ? " and "
							    : ", ",
						axis_names[a]);
	if (n == 1 && len < size)
		snprintf(out + len, size - len, " alone");
	else if (ui_width(out) > width)
		snprintf(out, size, "run %zu differs in %d settings",
			 set->pick[1] + 1, n);
}

/*
 * "Compare: ratios to run 7 (c marks runs)", or which of the marked runs
 * show and how to reach the others, or, none marked, the run the selected
 * one is compared with and how it differs -- in width cells where it can.
 */
static void compare_title(const struct compare_set *set, int width, char *out,
			  size_t size)
{
	size_t len = (size_t)snprintf(out, size, "Compare:");
	char peer[160];

	/* The base is marked run 1; the others shown, by their place. */
	if (set->marked > set->n && !set->first)
		len += (size_t)snprintf(out + len, size - len,
					" 1-%zu of %zu marked (Left/Right),",
					set->n, set->marked);
	else if (set->marked > set->n && set->n == 2)
		len += (size_t)snprintf(out + len, size - len,
					" 1, %zu of %zu marked (Left/Right),",
					set->first + 2, set->marked);
	else if (set->marked > set->n)
		len += (size_t)snprintf(out + len, size - len,
					" 1, %zu-%zu of %zu marked "
					"(Left/Right),",
					set->first + 2, set->first + set->n,
					set->marked);
	if (set->marked < 2) {
		/* How to choose others goes first where room is short. */
		peer_words(set, width - 27, peer, sizeof(peer));
		snprintf(out + len, size - len, " %s %zu; %s (c marks others)",
			 set->ratio ? "ratios to run" : "run", set->pick[0] + 1,
			 peer);
		if (ui_width(out) > width)
			out[strlen(out) - strlen(" (c marks others)")] = '\0';
	} else if (!set->ratio || !set->same)
		snprintf(out + len, size - len, " %s",
			 set->ratio ? "no ratios across modes"
				    : "a wider terminal shows ratios");
	else if (set->marked > set->n)
		snprintf(out + len, size - len, " ratios to run %zu",
			 set->pick[0] + 1);
	else
		snprintf(out + len, size - len,
			 " ratios to run %zu (c marks runs)", set->pick[0] + 1);
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

	ui_column_cell(r, c, value, sizeof(value));
	if (ratio && base_known && base > 0 && isfinite(base) &&
	    ui_column_value(r, c, &v))
		/* Two decimals, one from x10 on: "x0.64", "x1.10", "x12.3". */
		snprintf(suffix, sizeof(suffix), " x%-5.*f",
			 v / base < 9.995 ? 2 : 1, v / base);
	else if (ratio)
		snprintf(suffix, sizeof(suffix), "%7s", "");
	snprintf(out, size, "%*s%s", column - (ratio ? 7 : 0), value, suffix);
}

/*
 * A run's share as a cell, "37%": of its zero-copy completions the kernel
 * copied (side NULL), or a receive side's own figure (its cell_label), of
 * a run of that side.  False if the run has none.
 */
static bool compare_share(const struct run_result *r,
			  const struct rx_side *side, char *out, size_t size)
{
	char text[32];

	if (!out) {
		out = text;
		size = sizeof(text);
	}
	if (!side)
		return sampler_zc_copied(&r->totals, out, size);
	return side->cell && rx_side_of(r->config.settings.rx) == side &&
	       side->cell(r->totals.rx_side, out, size);
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

/*
 * The knobs a head row may name: BIG TCP's sizes, GRO, busy polling, the
 * load's pace.
 */
enum compare_knob {
	KNOB_GSO,
	KNOB_GRO_SIZE,
	KNOB_GRO,
	KNOB_BUSY,
	KNOB_PACE,
	KNOBS
};

/*
 * Knob k of settings s, in a cell: "gso-ipv4 185000", or "gso-ipv4
 * as-built"; false where it is as built.
 */
static bool knob_cell(const struct run_settings *s, int k, char *out,
		      size_t size)
{
	static const char *const names[KNOBS] = {"gso-ipv4", "gro-ipv4", "GRO",
						 "busy-poll", "paced"};
	unsigned int n = k == KNOB_GSO	      ? s->gso_max_size
			 : k == KNOB_GRO_SIZE ? s->gro_max_size
			 : k == KNOB_GRO      ? (unsigned int)s->gro
			 : k == KNOB_BUSY     ? s->busy_poll
					      : s->load_rate_mbps;

	if (!n && k == KNOB_BUSY)
		snprintf(out, size, "no busy-poll");
	else if (!n && k == KNOB_PACE)
		snprintf(out, size, "flat out");
	else if (k == KNOB_PACE)
		snprintf(out, size, "paced %uM", n);
	else if (!n)
		snprintf(out, size, "%s as-built", names[k]);
	else if (k == KNOB_GRO)
		snprintf(out, size, "GRO %s", gro_mode_names[s->gro]);
	else
		snprintf(out, size, "%s %u%s", names[k], n,
			 k == KNOB_BUSY ? "us" : "");
	return n != 0;
}

/*
 * The runs' names, sizes, modes and receive sides, then a row for each knob
 * any of them set: the lines that stay as rows scroll.
 */
static void compare_head(bool utf8, const struct explorer *e,
			 const struct compare_set *set, struct ui_lines *l)
{
	int pad = set->ratio ? 7 : 0, rows[3 + KNOBS], heads = 0;
	char line[512];

	for (int head = 0; head < 3; head++)
		rows[heads++] = head;
	for (int k = 0; k < KNOBS; k++)
		for (size_t i = 0; i < set->n; i++) {
			char cell[48];

			if (knob_cell(&e->session->results[set->pick[i]]
					       .config.settings,
				      k, cell, sizeof(cell))) {
				rows[heads++] = 3 + k;
				break;
			}
		}
	for (int h = 0; h < heads; h++) {
		int head = rows[h];
		size_t len = (size_t)snprintf(line, sizeof(line), "%-*s",
					      COMPARE_LABEL, "");

		for (size_t i = 0; i < set->n && len < sizeof(line); i++) {
			const struct run_result *res =
				&e->session->results[set->pick[i]];
			char size[24], cell[48];

			units_format_size_iec(res->config.msg_size, size,
					      sizeof(size));
			if (head == 0)
				snprintf(cell, sizeof(cell), "%s #%zu",
					 res->config.strategy->name,
					 set->pick[i] + 1);
			else if (head == 1)
				snprintf(cell, sizeof(cell), "%s x%u", size,
					 res->config.threads);
			else if (head == 2)
				snprintf(cell, sizeof(cell), "%s%s %s",
					 run_mode_name(res->config.mode),
					 rx_side_of(res->config.settings.rx)
						 ->tag,
					 ui_run_mark(e, set->pick[i]));
			else
				knob_cell(&res->config.settings, head - 3, cell,
					  sizeof(cell));
			/*
			 * Over the value, left of the ratio; a longer name
			 * takes the ratio's room too.
			 */
			if ((int)strlen(cell) < set->column - pad)
				len += (size_t)snprintf(
					line + len, sizeof(line) - len,
					"%*s%*s", set->column - pad, cell, pad,
					"");
			else {
				char fitted[64];

				/*
				 * Too long: cut with a marker, never
				 * silently.
				 */
				ui_label_fit(utf8, cell, set->column - 1,
					     fitted, sizeof(fitted));
				len += (size_t)snprintf(line + len,
							sizeof(line) - len,
							" %s", fitted);
			}
		}
		ui_lines_add(l, head >= 2 ? ROLE_INACTIVE : ROLE_HIGHLIGHT, 0,
			     "%s", line);
	}
	l->fixed = l->count;
}

/* Whether any compared run has a value of column c. */
static bool any_value(const struct explorer *e, const struct compare_set *set,
		      const struct ui_column *c)
{
	double v;

	for (size_t i = 0; i < set->n; i++)
		if (ui_column_value(&e->session->results[set->pick[i]], c, &v))
			return true;
	return false;
}

/*
 * Before the rows they explain: why some have no ratio, and the figures
 * none of these runs has, grouped by why.
 */
static void compare_notes(const struct ui *ui, const struct explorer *e,
			  const struct compare_set *set, int width,
			  struct ui_lines *l)
{
	struct compare_unknown unknown = {0};
	char line[512];

	if (set->mixed)
		ui_lines_wrap(l, ROLE_INACTIVE, width, 2,
			      "No ratio between a stream and an rr run: they "
			      "measure different things.");
	for (size_t m = 0; m < ui->metric_count; m++) {
		struct ui_column c = {.metric = ui->metric[m]};

		if (!any_value(e, set, &c))
			compare_unknown(&unknown,
					&e->session->results[set->pick[0]],
					&ui->metric[m]);
	}
	for (size_t i = 0; i < unknown.count; i++) {
		compare_unknown_text(&unknown, i, line, sizeof(line));
		ui_lines_wrap(l, ROLE_INACTIVE, width, 2, line);
	}
}

/*
 * A row's name in the names' column: padded, or where it is longer cut
 * with a marker, never silently.  Returns its length.
 */
static size_t row_name(const struct compare_set *set, const char *name,
		       char *out, size_t size)
{
	ui_label_fit(set->utf8, name, COMPARE_LABEL - 1, out, size);
	strncat(out, " ", size - strlen(out) - 1);
	return strlen(out);
}

/* One figure's row: its name, then each run's value and ratio. */
static void compare_row(const struct explorer *e, const struct compare_set *set,
			const struct ui_column *c, const char *name,
			struct ui_lines *l)
{
	const struct run_result *results = e->session->results;
	char line[512];
	double base;
	bool base_known = ui_column_value(&results[set->pick[0]], c, &base);
	size_t len = row_name(set, name, line, sizeof(line));

	for (size_t i = 0; i < set->n && len < sizeof(line); i++) {
		const struct run_result *r = &results[set->pick[i]];
		char cell[48];

		/* Stream and rr runs measure different things. */
		compare_cell(r, c, set->ratio,
			     i > 0 && base_known &&
				     r->config.mode ==
					     results[set->pick[0]].config.mode,
			     base, set->column, cell, sizeof(cell));
		len += (size_t)snprintf(line + len, sizeof(line) - len, "%s",
					cell);
	}
	ui_lines_add(l, ROLE_TEXT, 0, "%s", line);
}

/*
 * Under the round trip's rows: whether each run timed them with nio-top's
 * counters on, whose cost is inside them -- round trips with and without
 * are not alike.
 */
static void compare_counting(const struct explorer *e,
			     const struct compare_set *set, struct ui_lines *l)
{
	const struct run_result *results = e->session->results;
	int pad = set->ratio ? 7 : 0;
	char line[512];
	size_t len = row_name(set, "Round trip with counters", line,
			      sizeof(line));

	for (size_t i = 0; i < set->n && len < sizeof(line); i++) {
		const struct run_config *c = &results[set->pick[i]].config;

		len += (size_t)snprintf(line + len, sizeof(line) - len,
					"%*s%*s", set->column - pad,
					c->mode != RUN_RR ? "-"
					: c->counters	  ? "on"
							  : "off",
					pad, "");
	}
	ui_lines_add(l, ROLE_INACTIVE, 0, "%s", line);
}

/*
 * The probe's rows, where a run had one: its p50 and p99 alone, then its
 * p50, p99 and p99.9 beside the load.
 */
static void compare_probe_rows(const struct explorer *e,
			       const struct compare_set *set,
			       struct ui_lines *l)
{
	static const struct {
		bool idle;
		enum figure_percentile percentile;
	} rows[] = {
		{true, PERCENTILE_P50},	   {true, PERCENTILE_P99},
		{false, PERCENTILE_P50},   {false, PERCENTILE_P99},
		{false, PERCENTILE_P99_9},
	};
	char name[64];

	for (size_t i = 0; set->probe && i < sizeof(rows) / sizeof(*rows);
	     i++) {
		struct ui_column c = {.probe = true,
				      .probe_idle = rows[i].idle,
				      .percentile = rows[i].percentile};

		snprintf(name, sizeof(name), "Probe %s %s us",
			 rows[i].idle ? "alone" : "loaded",
			 figure_percentile_name(rows[i].percentile));
		compare_row(e, set, &c, name, l);
	}
}

/* The throughput, the round trip's rows when an rr run is here, the rest. */
static void compare_rows(const struct ui *ui, const struct explorer *e,
			 const struct compare_set *set, struct ui_lines *l)
{
	static const enum figure_percentile latency[] = {
		PERCENTILE_P50, PERCENTILE_P90, PERCENTILE_P99,
		PERCENTILE_P99_9, PERCENTILE_MAX};
	size_t percentiles = set->rr ? sizeof(latency) / sizeof(*latency) : 0;
	char name[64];

	for (size_t row = 0; row < ui->metric_count + percentiles; row++) {
		size_t m = row == 0		? 0
			   : row <= percentiles ? SIZE_MAX
						: row - percentiles;
		struct ui_column c = {.latency = m == SIZE_MAX};

		if (c.latency) {
			c.percentile = latency[row - 1];
			snprintf(name, sizeof(name), "Round trip %s us",
				 figure_percentile_name(c.percentile));
		} else {
			c.metric = ui->metric[m];
			ui_metric_name(&ui->metric[m], name, sizeof(name));
			/* A figure none of these runs has: said above. */
			if (!any_value(e, set, &c))
				continue;
		}
		compare_row(e, set, &c, name, l);
		if (row == percentiles && percentiles)
			compare_counting(e, set, l);
		/* The probe's rows after the throughput, as in the table. */
		if (row == 0)
			compare_probe_rows(e, set, l);
	}
}

/*
 * Whether any compared run has a share of column c (a role's of its
 * profile, a reason's of its time) of half a per cent or more.
 */
static bool any_share(const struct explorer *e, const struct compare_set *set,
		      const struct ui_column *c)
{
	double v;

	for (size_t i = 0; i < set->n; i++)
		if (ui_column_value(&e->session->results[set->pick[i]], c,
				    &v) &&
		    v >= 0.5)
			return true;
	return false;
}

/*
 * The runs sampled in user space only, by number, and why (the first's
 * reason, with its fix): their roles' rows say n/a.
 */
static void compare_user_only(const struct explorer *e,
			      const struct compare_set *set, int width,
			      struct ui_lines *l)
{
	const struct run_result *results = e->session->results;
	const char *why = NULL;
	char runs[96] = "", line[512];
	size_t len = 0, count = 0;

	for (size_t i = 0; i < set->n; i++)
		for (int side = 0; side < SIDE_COUNT; side++) {
			const struct run_profile *p =
				&results[set->pick[i]].profile[side];

			if (!p->present || !p->samples || !p->user_only)
				continue;
			why = why ? why : p->why;
			if (len < sizeof(runs))
				len += (size_t)snprintf(
					runs + len, sizeof(runs) - len, "%s%zu",
					count ? ", " : "", set->pick[i] + 1);
			count++;
			break;
		}
	if (!why)
		return;
	snprintf(line, sizeof(line), "CPU by role n/a in run%s %s: %s",
		 count > 1 ? "s" : "", runs, why);
	ui_lines_wrap(l, ROLE_INACTIVE, width, 2, line);
}

/*
 * Where each side's CPU went, a row per role that any of these runs has,
 * and what sampling did to each run: their profiles, side by side.
 */
static void compare_profiles(const struct explorer *e,
			     const struct compare_set *set, int width,
			     struct ui_lines *l)
{
	const struct run_result *results = e->session->results;
	int pad = set->ratio ? 7 : 0;
	char name[64], line[512];
	size_t len;
	bool sampled = false;

	compare_user_only(e, set, width, l);

	for (int side = 0; side < SIDE_COUNT; side++)
		for (size_t r = 0; r <= role_count; r++) {
			/* role_count: the copy roles together, first. */
			struct ui_column c = {
				.metric = {0, (enum gauge_side)side},
				.profile = true,
				.role = r == 0 ? ROLES_MAX : r - 1};

			if (!any_share(e, set, &c))
				continue;
			snprintf(name, sizeof(name), "CPU in %s %% (%s)",
				 c.role == ROLES_MAX ? "copies"
						     : roles[c.role].abbrev,
				 side ? "receiver" : "sender");
			compare_row(e, set, &c, name, l);
		}
	for (size_t i = 0; i < set->n; i++)
		sampled |= isfinite(results[set->pick[i]].sampling_effect);
	if (!sampled)
		return;
	len = row_name(set, "Sampling moved msg/s", line, sizeof(line));
	for (size_t i = 0; i < set->n && len < sizeof(line); i++) {
		double effect = results[set->pick[i]].sampling_effect;
		char cell[24] = "-";

		if (isfinite(effect))
			snprintf(cell, sizeof(cell), "%+.0f%%", 100 * effect);
		len += (size_t)snprintf(line + len, sizeof(line) - len,
					"%*s%*s", set->column - pad, cell, pad,
					"");
	}
	ui_lines_add(l, ROLE_INACTIVE, 0, "%s", line);
}

/*
 * Where each side's time went: a row for its share on the CPU, then one per
 * reason any of these runs waited for (1% or more), side by side.
 */
static void compare_times(const struct explorer *e,
			  const struct compare_set *set, struct ui_lines *l)
{
	char name[64];

	for (int side = 0; side < SIDE_COUNT; side++)
		for (size_t r = 0; r <= reason_count; r++) {
			/* reason_count: on the CPU, first. */
			struct ui_column c = {
				.metric = {0, (enum gauge_side)side},
				.time = true,
				.reason = r == 0 ? reason_count : r - 1};

			if (!any_share(e, set, &c))
				continue;
			if (c.reason == reason_count)
				snprintf(name, sizeof(name),
					 "Time on the CPU %% (%s)",
					 side ? "receiver" : "sender");
			else
				snprintf(name, sizeof(name),
					 "Waiting: %s %% (%s)",
					 reasons[c.reason].abbrev,
					 side ? "receiver" : "sender");
			compare_row(e, set, &c, name, l);
		}
}

/* Shares the gauges' foot gives live: what the kernel did. */
static void compare_shares(const struct explorer *e,
			   const struct compare_set *set, struct ui_lines *l)
{
	const struct run_result *results = e->session->results;
	int pad = set->ratio ? 7 : 0;
	char line[512];

	/* Row -1: zero-copy's; then each receive side's own figure. */
	for (int row = -1; row < RX_MODE_COUNT; row++) {
		const struct rx_side *side =
			row < 0 ? NULL : rx_side_of((enum rx_mode)row);
		bool any = false;
		size_t len;

		for (size_t i = 0; i < set->n; i++)
			any |= compare_share(&results[set->pick[i]], side, NULL,
					     0);
		if (!any)
			continue;
		len = row_name(
			set, side ? side->cell_label : "Zero-copy sends copied",
			line, sizeof(line));
		for (size_t i = 0; i < set->n && len < sizeof(line); i++) {
			char cell[24];

			if (!compare_share(&results[set->pick[i]], side, cell,
					   sizeof(cell)))
				snprintf(cell, sizeof(cell), "-");
			len += (size_t)snprintf(line + len, sizeof(line) - len,
						"%*s%*s", set->column - pad,
						cell, pad, "");
		}
		ui_lines_add(l, ROLE_TEXT, 0, "%s", line);
	}
}

/* With nothing to compare: what to do to have something. */
static void compare_empty(const struct ui *ui, const struct explorer *e,
			  const struct compare_set *set, const struct rect *r)
{
	const struct run_result *only;

	ui_box(ui->utf8, r, ROLE_BOX_GRAPH, "Compare (c marks runs)");
	if (!set->n) {
		ui_say(r, 2, ROLE_INACTIVE, "No finished runs to compare yet.");
		return;
	}
	only = &e->session->results[set->pick[0]];
	ui_say(r, 2, ROLE_INACTIVE,
	       "Run %zu is the only %s run so far: mark the runs to compare "
	       "with c in the runs table (2), or let more runs finish.",
	       set->pick[0] + 1, run_mode_name(only->config.mode));
}

static void diff_line(void *arg, const char *text)
{
	ui_lines_add(arg, text[0] == ' ' || !text[0] ? ROLE_TEXT : ROLE_TITLE,
		     0, "%s", text);
}

/*
 * --load OLD NEW with no runs marked: the two compared as --diff says it,
 * a point's figures under its name where the table is too wide.
 */
static void compare_diff(struct ui *ui, struct compare *c,
			 const struct explorer *e, const struct rect *r)
{
	struct ui_lines l = {0};
	char title[120];

	snprintf(title, sizeof(title),
		 "Compare: runs 1-%zu against %zu-%zu (c marks runs)",
		 e->diff->side[0].count, e->diff->side[0].count + 1,
		 e->diff->side[0].count + e->diff->side[1].count);
	ui_box(ui->utf8, r, ROLE_BOX_GRAPH, title);
	diff_text(e->diff, &(const struct diff_text){.width = r->w - 4,
						     .line = diff_line,
						     .arg = &l});
	if (c->shown != 1) {
		c->shown = 1;
		c->scroll = 0;
	}
	c->page = ui_lines_draw(ui->utf8, &l, r, &c->scroll);
	ui_lines_free(&l);
}

static void compare_draw(struct ui *ui, void *state, const struct explorer *e,
			 const struct rect *r)
{
	struct compare *c = state;
	struct compare_set set;
	struct ui_lines l = {0};
	uint64_t shown;
	char title[320];

	compare_pick(ui, c, e, r->w - 4 - COMPARE_LABEL, &set);
	if (e->diff && set.marked < 2) {
		compare_diff(ui, c, e, r);
		return;
	}
	if (set.n < 2) {
		compare_empty(ui, e, &set, r);
		return;
	}
	compare_layout(e, r->w - 4 - COMPARE_LABEL, &set);
	/* Other runs: their figures from the top, not the old scroll. */
	shown = set.n;
	for (size_t i = 0; i < set.n; i++)
		shown = shown * 1000003u + set.pick[i] + 1;
	if (shown != c->shown) {
		c->shown = shown;
		c->scroll = 0;
	}
	/* Scrolled, the frame's top right says how much lies above. */
	compare_title(&set, r->w - 6 - (c->scroll ? 16 : 0), title,
		      sizeof(title));
	ui_box(ui->utf8, r, ROLE_BOX_GRAPH, title);
	compare_head(ui->utf8, e, &set, &l);
	compare_notes(ui, e, &set, r->w - 4, &l);
	compare_rows(ui, e, &set, &l);
	compare_shares(e, &set, &l);
	compare_profiles(e, &set, r->w - 4, &l);
	compare_times(e, &set, &l);
	/* Where the rows scroll, the corner over the names says how. */
	if (r->h - 2 - (int)l.fixed < (int)(l.count - l.fixed))
		memcpy(l.line[2].text, "(Up/Down scroll)", 16);
	c->page = ui_lines_draw(ui->utf8, &l, r, &c->scroll);
	ui_lines_free(&l);
}

static bool compare_key(struct ui *ui, void *state, const struct explorer *e,
			int key, struct ui_commands *out)
{
	struct compare *c = state;

	(void)out;
	if (key == KEY_LEFT || key == KEY_RIGHT) {
		struct compare_set set;

		compare_pick(ui, c, ui_shown(ui, e),
			     ui->cols - 4 - COMPARE_LABEL, &set);
		if (set.marked <= set.n) {
			ui_note(ui, "%s",
				set.marked >= 2 ? "every marked run is shown"
						: "mark runs with c in the "
						  "runs table (2) to compare "
						  "more of them");
			return true;
		}
		if (key == KEY_LEFT && c->first)
			c->first--;
		else if (key == KEY_RIGHT &&
			 c->first + set.n - 1 < set.marked - 1)
			c->first++;
		return true;
	}
	return ui_scroll_key(key, &c->scroll, c->page);
}

const struct ui_view ui_view_compare = {
	.name = "compare",
	.shortcut = '3',
	.bar = "<-> runs",
	.keys =
		{
			{"Left Right",
			 "the marked runs before and after those shown"},
			{"Up Down PgUp PgDn Home End", "scroll the figures"},
		},
	.open = compare_open,
	.close = compare_close,
	.draw = compare_draw,
	.key = compare_key,
};
