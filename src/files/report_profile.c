/*
 * The figure of where each side's CPU goes: for every analysed stream point
 * with a profile -- a strategy at a message size, a panel per flow count --
 * two stacked bars, the sender's and the receiver's samples by role (its
 * runs' samples pooled), each to 100%.  What a copy costs, against the
 * stack and the wake-ups, at a glance.
 */
#include <stdio.h>
#include <string.h>

#include "analysis.h"
#include "report_private.h"
#include "role.h"
#include "units.h"

#define BAR_W_MIN  9  /* a side's bar, at its narrowest */
#define BAR_W_MAX  36 /* and at its widest */
#define BAR_GAP	   5  /* between a strategy's two bars and the next */
#define PANEL_TOP  58 /* the heading, the sizes, the copy shares */
#define PANEL_FOOT 56 /* the sizes and strategies under the bars */
#define PANEL_LEFT 48 /* the percentages */

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

/* Whether the point is drawn: stream, in this panel, sampled. */
static bool point_drawn(const struct analysis *a,
			const struct run_result *results,
			const struct analysis_point *p, unsigned int threads)
{
	struct run_profile tx;

	return p->mode == RUN_STREAM && p->threads == threads &&
	       point_profile(a, results, p, 0, &tx);
}

/*
 * One side's bar, bar_w wide: its roles stacked from the bottom, copies
 * first, and its copy share over it.
 */
static void side_bar(struct text *t, const struct run_profile *p, double x,
		     double bar_w, double bottom, double height)
{
	double y = bottom;

	/* Sampled in user space only: an empty bar that says n/a. */
	if (p->user_only) {
		report_put(t,
			   "<rect class=\"role-na\" x=\"%.1f\" y=\"%.1f\" "
			   "width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
			   "stroke=\"#999\" stroke-dasharray=\"3 3\">"
			   "<title>user space only: CPU by role n/a</title>"
			   "</rect>\n<text class=\"copy-share\" x=\"%.1f\" "
			   "y=\"%.1f\" font-size=\"9\" "
			   "text-anchor=\"middle\">n/a</text>\n",
			   x, bottom - height, bar_w, height, x + bar_w / 2,
			   bottom - height - 3);
		return;
	}

	for (size_t r = 0; r < role_count; r++) {
		double h = height * (double)p->role[r] / (double)p->samples;

		if (h <= 0)
			continue;
		y -= h;
		report_put(t,
			   "<rect class=\"role\" x=\"%.1f\" y=\"%.1f\" "
			   "width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
			   "<title>%s %.0f%%</title></rect>\n",
			   x, y, bar_w, h, role_colour(r), roles[r].label,
			   100.0 * (double)p->role[r] / (double)p->samples);
	}
	report_put(t,
		   "<text class=\"copy-share\" x=\"%.1f\" y=\"%.1f\" "
		   "font-size=\"9\" text-anchor=\"middle\">%.0f</text>\n",
		   x + bar_w / 2, bottom - height - 3,
		   100 * run_profile_copy_share(p));
}

/* The sizes of the points drawn at a flow count, smallest first. */
static size_t panel_sizes(const struct session *s, unsigned int threads,
			  size_t *sizes, size_t most)
{
	const struct analysis *a = &s->analysis;
	size_t n = 0;

	for (size_t i = 0; i < a->point_count; i++) {
		const struct analysis_point *p = &a->points[i];
		size_t at = n;

		if (!point_drawn(a, s->results, p, threads))
			continue;
		for (size_t k = 0; k < n; k++)
			if (sizes[k] == p->msg_size)
				at = SIZE_MAX;
		if (at == SIZE_MAX || n == most)
			continue;
		while (at > 0 && sizes[at - 1] > p->msg_size) {
			sizes[at] = sizes[at - 1];
			at--;
		}
		sizes[at] = p->msg_size;
		n++;
	}
	return n;
}

/* A point's two bars at x, each bar_w wide, its name under them. */
static void point_bars(struct text *t, const struct session *s,
		       const struct analysis_point *p, double x, double bar_w,
		       double bottom, double height)
{
	struct run_profile tx, rx;

	point_profile(&s->analysis, s->results, p, 0, &tx);
	side_bar(t, &tx, x, bar_w, bottom, height);
	if (point_profile(&s->analysis, s->results, p, 1, &rx))
		side_bar(t, &rx, x + bar_w + 1, bar_w, bottom, height);
	report_put(t,
		   "<text x=\"%.0f\" y=\"%.0f\" font-size=\"10\" "
		   "transform=\"rotate(60 %.0f %.0f)\">",
		   x + 2, bottom + 6, x + 2, bottom + 6);
	report_put_escaped(t, p->strategy->name);
	report_put(t, "%s</text>\n", strategy_rx_tag(p->rx));
}

/* One panel: the points of a flow count, grouped by size. */
static void profile_panel(struct text *t, const struct session *s,
			  unsigned int threads, size_t index, double x,
			  double y, double w, double h)
{
	const struct analysis *a = &s->analysis;
	double bottom = y + h - PANEL_FOOT, height = h - PANEL_TOP - PANEL_FOOT;
	double at = x + PANEL_LEFT;
	size_t sizes[ANALYSIS_SIZES_MAX];
	size_t size_count = panel_sizes(s, threads, sizes, ANALYSIS_SIZES_MAX);
	size_t points = 0;
	double bar_w;
	char size[24];

	/* The bars as wide as the panel lets them be, within reason. */
	for (size_t i = 0; i < a->point_count; i++)
		points += point_drawn(a, s->results, &a->points[i], threads);
	bar_w = points ? ((w - PANEL_LEFT - 8 -
			   (double)size_count * 3 * BAR_GAP) /
				  (double)points -
			  BAR_GAP - 1) /
				 2
		       : BAR_W_MIN;
	bar_w = bar_w < BAR_W_MIN   ? BAR_W_MIN
		: bar_w > BAR_W_MAX ? BAR_W_MAX
				    : bar_w;

	report_put(t,
		   "<rect class=\"profile-panel\" id=\"profile-panel-%zu\" "
		   "x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" "
		   "fill=\"none\" stroke=\"#999\"/>\n",
		   index, x, y, w, h);
	report_put(
		t,
		"<text x=\"%.0f\" y=\"%.0f\" font-size=\"13\">%u flow%s: "
		"each strategy's sender (left) and receiver (right), its copy "
		"share over each bar</text>\n",
		x + 8, y + 18, threads, threads == 1 ? "" : "s");
	for (int pct = 0; pct <= 100; pct += 25)
		report_put(t,
			   "<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\" "
			   "text-anchor=\"end\">%d%%</text>\n",
			   x + PANEL_LEFT - 6, bottom - height * pct / 100 + 4,
			   pct);
	for (size_t k = 0; k < size_count; k++) {
		/* Each size: its name over the gap before its bars. */
		units_format_size_iec(sizes[k], size, sizeof(size));
		report_put(t,
			   "<text x=\"%.0f\" y=\"%.0f\" font-size=\"12\" "
			   "font-weight=\"bold\">%s</text>\n",
			   at, y + PANEL_TOP - 18, size);
		for (size_t i = 0; i < a->point_count; i++) {
			const struct analysis_point *p = &a->points[i];

			if (p->msg_size != sizes[k] ||
			    !point_drawn(a, s->results, p, threads) ||
			    at + 2 * bar_w + 1 > x + w)
				continue;
			point_bars(t, s, p, at, bar_w, bottom, height);
			at += 2 * bar_w + 1 + BAR_GAP;
		}
		at += 3 * BAR_GAP;
	}
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

/* The roles' colours and labels. */
static void profile_legend(struct text *t, double y)
{
	double x = SVG_MARGIN;

	for (size_t r = 0; r < role_count; r++) {
		report_put(t,
			   "<rect x=\"%.0f\" y=\"%.0f\" width=\"12\" "
			   "height=\"12\" fill=\"%s\"/>\n"
			   "<text x=\"%.0f\" y=\"%.0f\" font-size=\"12\">%s"
			   "</text>\n",
			   x, y - 10, role_colour(r), x + 16, y,
			   roles[r].label);
		x += 30 + 6.5 * (double)strlen(roles[r].label);
		if (x > SVG_WIDTH - 160 && r + 1 < role_count) {
			x = SVG_MARGIN;
			y += 18;
		}
	}
}

double report_profile_figure(struct text *t, const struct session *s,
			     size_t number, double y)
{
	const struct analysis *a = &s->analysis;
	const struct figure_scope scope = {
		.mode = RUN_STREAM, .axis = FIGURE_BY_SIZE, .rx_any = true};
	unsigned int flows[ANALYSIS_SIZES_MAX];
	size_t panels = 0;
	double height;

	for (size_t i = 0; i < a->point_count; i++) {
		const struct analysis_point *p = &a->points[i];
		size_t k = 0;

		while (k < panels && flows[k] != p->threads)
			k++;
		if (k == panels && panels < ANALYSIS_SIZES_MAX &&
		    point_drawn(a, s->results, p, p->threads))
			flows[panels++] = p->threads;
	}
	report_put(t,
		   "<g id=\"figure-profile\">\n<text x=\"%d\" y=\"%.0f\" "
		   "font-size=\"18\" font-weight=\"bold\">Figure %zu. Where "
		   "each side's CPU goes</text>\n"
		   "<text x=\"%d\" y=\"%.0f\" font-size=\"12\" fill=\"#333\">"
		   "stream, a panel per flow count. Sampled (cpu-clock with "
		   "call chains) in intervals left out of every other figure; "
		   "the copy roles at the bottom of each bar.</text>\n",
		   SVG_MARGIN, y + 26, number, SVG_MARGIN, y + 46);
	if (!panels) {
		report_put(
			t,
			"<rect class=\"profile-panel\" id=\"profile-panel-1\" "
			"x=\"%d\" y=\"%.0f\" width=\"%d\" height=\"80\" "
			"fill=\"none\" stroke=\"#999\"/>\n<text x=\"%d\" "
			"y=\"%.0f\" font-size=\"14\">no stream run was "
			"sampled: --profile-hz samples where the CPU goes "
			"(not with --no-profile)</text>\n",
			SVG_MARGIN, y + FIGURE_HEAD, SVG_WIDTH - 2 * SVG_MARGIN,
			SVG_MARGIN + 16, y + FIGURE_HEAD + 44);
		height = FIGURE_HEAD + 90;
	} else {
		profile_legend(t, y + 70);
		for (size_t i = 0; i < panels; i++)
			profile_panel(t, s, flows[i], i + 1, SVG_MARGIN,
				      y + FIGURE_HEAD + 20 +
					      (double)i * PANEL_H,
				      SVG_WIDTH - 2 * SVG_MARGIN, PANEL_H - 10);
		height = FIGURE_HEAD + 20 + (double)panels * PANEL_H;
		height += profile_note(t, s, y + height);
	}
	report_footer(t, s, &scope,
		      "Each bar pools the samples of its point's runs",
		      y + height + 14);
	report_put(t, "</g>\n");
	return height + FIGURE_FOOT;
}
