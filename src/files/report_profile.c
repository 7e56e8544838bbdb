/*
 * The figures of where each side's CPU and time go: for every analysed
 * stream point that has them -- a strategy at a message size, a panel per
 * flow count -- two stacked bars, the sender's and the receiver's, each to
 * 100%: the samples by role (its runs' pooled), what a copy costs against
 * the stack and the wake-ups; and the wall time on the CPU and off it by
 * reason (its runs' pooled), who waits for whom.  One layout, two kinds of
 * bar (struct bars_kind).
 */
#include <math.h>
#include <stdio.h>

#include "analysis.h"
#include "reason.h"
#include "report_private.h"
#include "role.h"
#include "units.h"

/* The most parts a bar stacks: a role each, or the CPU and each reason. */
#define BAR_PARTS_MAX                                                          \
	(ROLES_MAX > REASONS_MAX + 1 ? ROLES_MAX : REASONS_MAX + 1)

/* A side's bar of a point: its parts, bottom first, and its number over. */
struct bar_parts {
	double part[BAR_PARTS_MAX]; /* in any unit: stacked to their sum */
	double over;		    /* the number over the bar, in % */
	bool na;		    /* sampled, but no share of it is known */
};

/* What a figure's bars stack, and how it names and colours them. */
struct bars_kind {
	const char *key;      /* the figure's: "profile", its panels' class */
	const char *part_cls; /* a part's rect: "role" */
	/* A side's bar of point p: false where that side has none. */
	bool (*bar)(const struct session *s, const struct analysis_point *p,
		    int side, struct bar_parts *out);
	const char *(*label)(size_t part);
	const char *(*colour)(size_t part);
	const char *over;    /* what the number over each bar is */
	const char *na_text; /* a bar n/a's title */
};

#define BAR_W_MIN  13  /* a side's bar, at its narrowest: "88" over it */
#define BAR_W_MAX  36  /* and at its widest */
#define BAR_GAP	   5   /* between a strategy's two bars and the next */
#define BAR_H	   156 /* a row's bars, from 0 to 100% */
#define ROW_TOP	   34  /* over a row's bars: the sizes, the copy shares */
#define PANEL_HEAD 26  /* the panel's heading */
#define PANEL_LEFT 48  /* the percentages */

static const struct report_font size_font = {.size = 12, .bold = true};
static const struct report_font label_font = {.size = 10};

/* A colour per role, in the role table's order; other grey. */
static const char *const role_colours[] = {
	"#c0392b", "#f39c12", "#8e44ad", "#e84393", "#16a085",
	"#a3cb38", "#2980b9", "#f1c40f", "#2c3e50", "#8d6e63",
	"#bdc3c7", "#6d214f", "#00cec9", "#eeeeee",
};

static const char *role_colour(size_t r)
{
	return r == role_other ? "#eeeeee"
	       : r < sizeof(role_colours) / sizeof(*role_colours)
		       ? role_colours[r]
		       : "#999999";
}

/*
 * A point's runs' samples pooled, one side's, those of user space only
 * left out (they are no share of the CPU): out->user_only where only such
 * were sampled.  False: nothing sampled.
 */
static bool point_profile(const struct analysis *a,
			  const struct run_result *results,
			  const struct analysis_point *p, int side,
			  struct run_profile *out)
{
	bool user_only = false;

	*out = (struct run_profile){0};
	for (size_t k = 0; k < p->runs; k++) {
		const struct run_profile *r =
			&results[a->member[p->first + k]].profile[side];

		if (!r->present || !r->samples)
			continue;
		user_only |= r->user_only;
		if (r->user_only)
			continue;
		out->samples += r->samples;
		for (size_t i = 0; i < role_count; i++)
			out->role[i] += r->role[i];
	}
	out->user_only = user_only && !out->samples;
	return out->samples > 0 || out->user_only;
}

/* A side's profile bar: its roles, its copy share over it. */
static bool profile_bar(const struct session *s, const struct analysis_point *p,
			int side, struct bar_parts *out)
{
	struct run_profile pooled;

	*out = (struct bar_parts){.over = NAN};
	if (!point_profile(&s->analysis, s->results, p, side, &pooled))
		return false;
	out->na = pooled.user_only;
	for (size_t r = 0; r < role_count; r++)
		out->part[r] = (double)pooled.role[r];
	if (!out->na)
		out->over = 100 * run_profile_copy_share(&pooled);
	return true;
}

static const char *role_label(size_t r)
{
	return roles[r].label;
}

/* A colour per reason, after the CPU's; other grey. */
static const char *const reason_colours[] = {
	"#2980b9", "#c0392b", "#8e44ad", "#16a085",
	"#e84393", "#8d6e63", "#f1c40f", "#eeeeee",
};

/* Part 0 is the CPU, then each reason in the table's order. */
static const char *time_colour(size_t part)
{
	if (part == 0)
		return "#2c3e50";
	if (part - 1 == reason_other)
		return "#eeeeee";
	return part - 1 < sizeof(reason_colours) / sizeof(*reason_colours)
		       ? reason_colours[part - 1]
		       : "#999999";
}

static const char *time_label(size_t part)
{
	return part == 0 ? "on the CPU" : reasons[part - 1].label;
}

/*
 * A side's time bar: its runs' wall time pooled, on the CPU then by
 * reason, its share on the CPU over it.
 */
static bool time_bar(const struct session *s, const struct analysis_point *p,
		     int side, struct bar_parts *out)
{
	const struct analysis *a = &s->analysis;
	double window = 0;

	*out = (struct bar_parts){.over = NAN};
	for (size_t k = 0; k < p->runs; k++) {
		const struct run_time *t =
			&s->results[a->member[p->first + k]].time[side];

		if (!t->present || t->window_s <= 0)
			continue;
		window += t->window_s;
		out->part[0] += t->on_cpu_s;
		for (size_t r = 0; r < reason_count; r++)
			out->part[r + 1] += t->reason[r].seconds;
	}
	if (window > 0)
		out->over = 100 * out->part[0] / window;
	return window > 0;
}

static const struct bars_kind profile_kind = {
	.key = "profile",
	.part_cls = "role",
	.bar = profile_bar,
	.label = role_label,
	.colour = role_colour,
	.over = "its copy share over each bar",
	.na_text = "user space only: CPU by role n/a",
};

static const struct bars_kind time_kind = {
	.key = "time",
	.part_cls = "reason",
	.bar = time_bar,
	.label = time_label,
	.colour = time_colour,
	.over = "its share on the CPU over each bar",
	.na_text = "time n/a",
};

/* The parts a kind stacks: its table's rows (known only at run time). */
static size_t kind_parts(const struct bars_kind *k)
{
	return k == &profile_kind ? role_count : reason_count + 1;
}

/* Whether the point is drawn: stream, in this panel, with a bar. */
static bool point_drawn(const struct bars_kind *k, const struct session *s,
			const struct analysis_point *p, unsigned int threads)
{
	struct bar_parts tx;

	return p->key.mode == RUN_STREAM && p->key.threads == threads &&
	       k->bar(s, p, 0, &tx);
}

/*
 * One side's bar, bar_w wide: its parts stacked from the bottom, and its
 * number over it.
 */
static void side_bar(struct text *t, const struct bars_kind *k,
		     const struct bar_parts *b, double x, double bar_w,
		     double bottom, double height)
{
	double y = bottom, sum = 0;
	size_t parts = kind_parts(k);

	/* Sampled, but no share known: an empty bar that says n/a. */
	if (b->na) {
		report_put(t,
			   "<rect class=\"%s-na\" x=\"%.1f\" y=\"%.1f\" "
			   "width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
			   "stroke=\"#999\" stroke-dasharray=\"3 3\">"
			   "<title>%s</title>"
			   "</rect>\n<text class=\"bar-over\" x=\"%.1f\" "
			   "y=\"%.1f\" font-size=\"9\" "
			   "text-anchor=\"middle\">n/a</text>\n",
			   k->part_cls, x, bottom - height, bar_w, height,
			   k->na_text, x + bar_w / 2, bottom - height - 3);
		return;
	}
	for (size_t i = 0; i < parts; i++)
		sum += b->part[i];
	for (size_t i = 0; i < parts && sum > 0; i++) {
		double h = height * b->part[i] / sum;

		if (h <= 0)
			continue;
		y -= h;
		report_put(t,
			   "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" "
			   "width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
			   "<title>%s %.0f%%</title></rect>\n",
			   k->part_cls, x, y, bar_w, h, k->colour(i),
			   k->label(i), 100.0 * b->part[i] / sum);
	}
	if (isfinite(b->over))
		report_put(t,
			   "<text class=\"bar-over\" x=\"%.1f\" y=\"%.1f\" "
			   "font-size=\"9\" text-anchor=\"middle\">%.0f"
			   "</text>\n",
			   x + bar_w / 2, bottom - height - 3, b->over);
}

/* The sizes of the points drawn at a flow count, smallest first. */
static size_t panel_sizes(const struct bars_kind *kind, const struct session *s,
			  unsigned int threads, size_t *sizes, size_t most)
{
	const struct analysis *a = &s->analysis;
	size_t n = 0;

	for (size_t i = 0; i < a->point_count; i++) {
		const struct analysis_point *p = &a->points[i];
		size_t at = n;

		if (!point_drawn(kind, s, p, threads))
			continue;
		for (size_t k = 0; k < n; k++)
			if (sizes[k] == p->key.msg_size)
				at = SIZE_MAX;
		if (at == SIZE_MAX || n == most)
			continue;
		while (at > 0 && sizes[at - 1] > p->key.msg_size) {
			sizes[at] = sizes[at - 1];
			at--;
		}
		sizes[at] = p->key.msg_size;
		n++;
	}
	return n;
}

/* "uring rx-trunc (bound) busy-poll 50us": the name under a point's bars. */
static void point_name(const struct analysis_point *p, char *out, size_t size)
{
	point_key_label(&p->key, POINT_LINE, out, size);
}

/*
 * How a panel's bars are laid out: as wide as the panel lets them be
 * within reason, from left to right, in rows row_h apart whose labels,
 * under the bars, are as long as the longest.
 */
struct bar_layout {
	const struct bars_kind *kind;
	const struct session *s;
	unsigned int threads;
	double left, right;
	double bar_w;
	double row_h;
};

/*
 * A point's two bars at x, each l->bar_w wide, under the row's top, and
 * its name under them, read upwards to the bars.
 */
static void point_bars(struct text *t, const struct bar_layout *l,
		       const struct analysis_point *p, double x, double top)
{
	double bottom = top + ROW_TOP + BAR_H, middle = x + l->bar_w + 0.5;
	struct bar_parts tx, rx;
	char name[160];

	report_put(t, "<g class=\"bars\">\n");
	l->kind->bar(l->s, p, 0, &tx);
	side_bar(t, l->kind, &tx, x, l->bar_w, bottom, BAR_H);
	if (l->kind->bar(l->s, p, 1, &rx))
		side_bar(t, l->kind, &rx, x + l->bar_w + 1, l->bar_w, bottom,
			 BAR_H);
	/* Turned, a glyph's body lies left of its baseline: centre it. */
	report_put(t,
		   "<text x=\"%.1f\" y=\"%.0f\" font-size=\"%g\" "
		   "text-anchor=\"end\" transform=\"rotate(-90 %.1f %.0f)\">",
		   middle + label_font.size / 4, bottom + 5, label_font.size,
		   middle + label_font.size / 4, bottom + 5);
	point_name(p, name, sizeof(name));
	report_put_escaped(t, name);
	report_put(t, "</text>\n</g>\n");
}

/* A row's scale, 0 to 100%, left of its bars. */
static void row_scale(struct text *t, const struct bar_layout *l, double top)
{
	double bottom = top + ROW_TOP + BAR_H;

	for (int pct = 0; pct <= 100; pct += 25)
		report_put(t,
			   "<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\" "
			   "text-anchor=\"end\">%d%%</text>\n",
			   l->left - 6, bottom - BAR_H * pct / 100 + 4, pct);
}

/* How many points of a flow count are drawn at a size. */
static size_t size_points(const struct bar_layout *l, size_t msg_size)
{
	const struct analysis *a = &l->s->analysis;
	size_t n = 0;

	for (size_t i = 0; i < a->point_count; i++)
		n += a->points[i].key.msg_size == msg_size &&
		     point_drawn(l->kind, l->s, &a->points[i], l->threads);
	return n;
}

/* Where the next bars go: at x, in a row. */
struct bar_cursor {
	double x;
	size_t row;
};

/* The next row, its scale drawn; returns its top. */
static double next_row(struct text *t, const struct bar_layout *l, double y,
		       struct bar_cursor *c)
{
	double top = y + (double)++c->row * l->row_h;

	c->x = l->left;
	if (t)
		row_scale(t, l, top);
	return top;
}

/*
 * The panel's bars from y, size after size, each size's name over its
 * first bars.  A size goes on in the row it begins in only if all its bars
 * fit there, else in the next; one with more than a row holds is shared
 * out evenly over the fewest rows, named over each.  Draws them when t is
 * not NULL; returns the rows.
 */
static size_t bar_rows(struct text *t, const struct bar_layout *l, double y)
{
	const struct analysis *a = &l->s->analysis;
	size_t sizes[ANALYSIS_SIZES_MAX];
	size_t size_count = panel_sizes(l->kind, l->s, l->threads, sizes,
					ANALYSIS_SIZES_MAX);
	double pitch = 2 * l->bar_w + 1 + BAR_GAP, top = y;
	size_t most = (size_t)fmax(
		1, floor((l->right - l->left + BAR_GAP) / pitch));
	struct bar_cursor c = {.x = l->left};
	char size[24];

	if (t)
		row_scale(t, l, y);
	for (size_t k = 0; k < size_count; k++) {
		size_t n = size_points(l, sizes[k]), in_row = 0, rows, per_row;
		double name_w, named_to = c.x;

		if (!n)
			continue;
		rows = (n + most - 1) / most;
		per_row = (n + rows - 1) / rows;
		units_format_size_iec(sizes[k], size, sizeof(size));
		name_w = report_text_width(&size_font, size);
		if (c.x > l->left &&
		    c.x + fmax((double)per_row * pitch - BAR_GAP, name_w) >
			    l->right)
			top = next_row(t, l, y, &c);
		for (size_t i = 0; i < a->point_count; i++) {
			const struct analysis_point *p = &a->points[i];

			if (p->key.msg_size != sizes[k] ||
			    !point_drawn(l->kind, l->s, p, l->threads))
				continue;
			if (in_row == per_row) {
				top = next_row(t, l, y, &c);
				in_row = 0;
			}
			if (!in_row && t)
				report_put(t,
					   "<text class=\"size\" x=\"%.0f\" "
					   "y=\"%.0f\" font-size=\"%g\" "
					   "font-weight=\"bold\">%s</text>\n",
					   c.x, top + 14, size_font.size, size);
			if (!in_row)
				named_to = c.x + name_w;
			if (t)
				point_bars(t, l, p, c.x, top);
			c.x += pitch;
			in_row++;
		}
		c.x = fmax(c.x, named_to + BAR_GAP) + 2 * BAR_GAP;
	}
	return c.row + 1;
}

/*
 * Why some bars are n/a (runs sampled in user space only), under the
 * panels from y: the height it took.
 */
static double profile_note(struct text *t, const struct session *s, double y)
{
	char line[sizeof(s->analysis.user_space_why) + 8];

	if (!s->analysis.user_space_why[0])
		return 0;
	snprintf(line, sizeof(line), "n/a: %s", s->analysis.user_space_why);
	return report_note(t, "profile-note", line, y);
}

/*
 * The bars of a flow count as wide as one row lets them be, within
 * reason, the rows as tall as the longest name under them.
 */
static void bar_layout(struct bar_layout *l, const struct bars_kind *kind,
		       const struct session *s, unsigned int threads, double x,
		       double w)
{
	const struct analysis *a = &s->analysis;
	size_t sizes[ANALYSIS_SIZES_MAX];
	size_t size_count = panel_sizes(kind, s, threads, sizes,
					ANALYSIS_SIZES_MAX);
	double longest = 0;
	size_t points = 0;
	char name[160];

	*l = (struct bar_layout){.kind = kind,
				 .s = s,
				 .threads = threads,
				 .left = x + PANEL_LEFT,
				 .right = x + w - 8};
	for (size_t i = 0; i < a->point_count; i++) {
		if (!point_drawn(kind, s, &a->points[i], threads))
			continue;
		points++;
		point_name(&a->points[i], name, sizeof(name));
		longest = fmax(longest, report_text_width(&label_font, name));
	}
	l->bar_w = points ? ((l->right - l->left -
			      (double)size_count * 3 * BAR_GAP) /
				     (double)points -
			     BAR_GAP - 1) /
				    2
			  : BAR_W_MIN;
	l->bar_w = fmin(fmax(l->bar_w, BAR_W_MIN), BAR_W_MAX);
	l->row_h = ROW_TOP + BAR_H + 5 + longest + 10;
}

/* One panel at y, the points of a flow count; returns its height. */
static double bars_panel(struct text *t, const struct bars_kind *kind,
			 const struct session *s, unsigned int threads,
			 size_t index, double y)
{
	static const struct report_font head_font = {.size = 13};
	struct bar_layout l;
	char head[200];
	double h;

	bar_layout(&l, kind, s, threads, SVG_MARGIN, SVG_INSIDE);
	h = PANEL_HEAD + (double)bar_rows(NULL, &l, 0) * l.row_h;
	report_put(t,
		   "<rect class=\"%s-panel\" id=\"%s-panel-%zu\" "
		   "x=\"%d\" y=\"%.0f\" width=\"%d\" height=\"%.0f\" "
		   "fill=\"none\" stroke=\"#999\"/>\n",
		   kind->key, kind->key, index, SVG_MARGIN, y, SVG_INSIDE, h);
	snprintf(head, sizeof(head),
		 "%u flow%s: each strategy's sender (left) and receiver "
		 "(right), %s",
		 threads, threads == 1 ? "" : "s", kind->over);
	report_text_block(t, &head_font, SVG_MARGIN + 8, y + 18,
			  SVG_INSIDE - 16, head);
	bar_rows(t, &l, y + PANEL_HEAD);
	return h;
}

/* The parts' colours and labels, row after row; returns their height. */
static double bars_legend(struct text *t, const struct bars_kind *kind,
			  double y)
{
	static const struct report_font font = {.size = 12};
	double x = SVG_MARGIN, row = y + 12;

	for (size_t r = 0; r < kind_parts(kind); r++) {
		double w = 16 + report_text_width(&font, kind->label(r)) + 14;

		if (x > SVG_MARGIN && x + w > SVG_WIDTH - SVG_MARGIN) {
			x = SVG_MARGIN;
			row += 18;
		}
		report_put(t,
			   "<g class=\"legend\"><rect x=\"%.0f\" y=\"%.0f\" "
			   "width=\"12\" height=\"12\" fill=\"%s\"/>\n",
			   x, row - 10, kind->colour(r));
		report_text_block(t, &font, x + 16, row, SVG_INSIDE - 16,
				  kind->label(r));
		report_put(t, "</g>\n");
		x += w;
	}
	return row + 10 - y;
}

/* The flow counts of the points a kind draws, in the points' order. */
static size_t bars_flows(const struct bars_kind *kind, const struct session *s,
			 unsigned int *flows)
{
	const struct analysis *a = &s->analysis;
	size_t panels = 0;

	for (size_t i = 0; i < a->point_count; i++) {
		const struct analysis_point *p = &a->points[i];
		size_t k = 0;

		while (k < panels && flows[k] != p->key.threads)
			k++;
		if (k == panels && panels < ANALYSIS_SIZES_MAX &&
		    point_drawn(kind, s, p, p->key.threads))
			flows[panels++] = p->key.threads;
	}
	return panels;
}

/* A figure of nothing drawn: one panel that says why; its height. */
static double bars_none(struct text *t, const struct bars_kind *kind, double at,
			const char *why)
{
	static const struct report_font none_font = {.size = 14};

	report_put(t,
		   "<rect class=\"%s-panel\" id=\"%s-panel-1\" x=\"%d\" "
		   "y=\"%.0f\" width=\"%d\" height=\"80\" fill=\"none\" "
		   "stroke=\"#999\"/>\n",
		   kind->key, kind->key, SVG_MARGIN, at + 10, SVG_INSIDE);
	report_text_block(t, &none_font, SVG_MARGIN + 16, at + 54,
			  SVG_INSIDE - 32, why);
	return 100;
}

double report_profile_figure(struct text *t, const struct session *s,
			     size_t number, double y)
{
	const struct figure_scope scope = {.key.mode = RUN_STREAM,
					   .parts = POINT_MODE,
					   .axis = FIGURE_BY_SIZE};
	unsigned int flows[ANALYSIS_SIZES_MAX];
	size_t panels = bars_flows(&profile_kind, s, flows);
	double at;

	at = y + report_figure_head(
			 t, "profile", number, "Where each side's CPU goes",
			 "stream, a panel per flow count. Sampled (cpu-clock "
			 "with call chains) in intervals left out of every "
			 "other figure; the copy roles at the bottom of each "
			 "bar.",
			 y);
	if (!panels) {
		at += bars_none(t, &profile_kind, at,
				"no stream run was sampled: --profile-hz "
				"samples where the CPU goes (not with "
				"--no-profile)");
	} else {
		at += bars_legend(t, &profile_kind, at) + 12;
		for (size_t i = 0; i < panels; i++)
			at += bars_panel(t, &profile_kind, s, flows[i], i + 1,
					 at) +
			      10;
		at += profile_note(t, s, at);
	}
	at += report_footer(t, s, &scope,
			    "Each bar pools the samples of its point's runs",
			    at);
	report_put(t, "</g>\n");
	return at - y;
}

double report_time_figure(struct text *t, const struct session *s,
			  size_t number, double y)
{
	const struct figure_scope scope = {.key.mode = RUN_STREAM,
					   .parts = POINT_MODE,
					   .axis = FIGURE_BY_SIZE};
	unsigned int flows[ANALYSIS_SIZES_MAX];
	size_t panels = bars_flows(&time_kind, s, flows);
	double at;

	at = y + report_figure_head(
			 t, "time", number, "Where each side's time goes",
			 "stream, a panel per flow count. Each side's wall "
			 "time in the sampled intervals: on the CPU at the "
			 "bottom, then waiting by reason (every context switch "
			 "sampled with its call chain); who waits for whom.",
			 y);
	if (!panels) {
		at += bars_none(t, &time_kind, at,
				"no stream run was watched: each side's "
				"context switches are sampled in the profile's "
				"intervals (not with --no-waits)");
	} else {
		at += bars_legend(t, &time_kind, at) + 12;
		for (size_t i = 0; i < panels; i++)
			at += bars_panel(t, &time_kind, s, flows[i], i + 1,
					 at) +
			      10;
	}
	at += report_footer(t, s, &scope,
			    "Each bar pools the wall time of its point's runs",
			    at);
	report_put(t, "</g>\n");
	return at - y;
}
