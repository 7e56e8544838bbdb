/*
 * The crossover search for people: its report after the runs' table (each
 * size tried with its runs, ratio, interval and lead, each bracket, why it
 * stopped, and the line a user quotes, last), its cells of the CSV, and
 * its figure: the ratio against the size on log scales, each size's 90%
 * interval as a whisker, the minimum effect either side of 1 as a band,
 * and each bracket shaded.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crossover.h"
#include "escape.h"
#include "report_private.h"

/* "ratio 1.40 [1.32, 1.47]" parts: a number, or "-" when unknown. */
static void number_text(double v, char *out, size_t size)
{
	if (isfinite(v))
		snprintf(out, size, "%#.3g", v);
	else
		snprintf(out, size, "-");
}

/* One size's row: "  9 KiB  3+3  1.40  1.32 .. 1.47  sendfile ahead". */
static void print_size(FILE *out, const struct crossover *x,
		       const struct crossover_size *z)
{
	char size[24], runs[64], ratio[16], low[16], high[16], lead[128];
	char interval[40];

	crossover_size_text(z->msg_size, size, sizeof(size));
	snprintf(runs, sizeof(runs), "%zu+%zu", z->runs[0], z->runs[1]);
	if (z->failed)
		snprintf(runs + strlen(runs), sizeof(runs) - strlen(runs),
			 " (%zu left out)", z->failed);
	number_text(z->difference.ratio, ratio, sizeof(ratio));
	number_text(z->difference.low, low, sizeof(low));
	number_text(z->difference.high, high, sizeof(high));
	if (isfinite(z->difference.low))
		snprintf(interval, sizeof(interval), "%s .. %s", low, high);
	else
		snprintf(interval, sizeof(interval), "-");
	crossover_lead_text(x, z->lead, lead, sizeof(lead));
	escape_print(out, "", "  %10s  %-16s %6s  %-14s %s%s", size, runs,
		     ratio, interval, lead,
		     z->hopeless ? " (its spread would need more runs)" : "");
}

void report_crossover_print(FILE *out, const struct session *s)
{
	const struct crossover *x = s->crossover;
	char lo[24], hi[24], line[CROSSOVER_TEXT_MAX], took[32], budget[32];

	if (!x)
		return;
	crossover_size_text(x->question.min_size, lo, sizeof(lo));
	crossover_size_text(x->question.max_size, hi, sizeof(hi));
	fflush(out);
	escape_print(out, "\n", "crossover of %s against %s in %s..%s: %s",
		     x->label[1], x->label[0], lo, hi, x->context);
	escape_print(out, "  ",
		     "on %s (%s is better); the ratio says how many times "
		     "better %s is; a lead needs its %.0f%% interval past "
		     "%.0f%%, a tie within it (nio-top(1) CROSSOVER)",
		     x->metric_label,
		     x->question.higher_is_better ? "higher" : "lower",
		     x->label[1], STATS_INTERVAL_LEVEL * 100,
		     STATS_MIN_EFFECT * 100);
	escape_print(out, "", "  %10s  %-16s %6s  %-14s %s", "size",
		     "runs (a+b)", "ratio", "90% interval", "lead");
	for (size_t i = 0; i < x->size_count; i++)
		print_size(out, x, &x->size[i]);
	escape_print(out, "  ", "ended: %s",
		     x->why[0] ? x->why : "still searching");
	crossover_duration_text(x->elapsed_s, took, sizeof(took));
	crossover_duration_text((double)x->question.budget_ms / 1000, budget,
				sizeof(budget));
	escape_print(out, "  ",
		     "%zu size%s, %zu run%s (%zu left out%s%s), %s "
		     "of a budget of %s",
		     x->size_count, x->size_count == 1 ? "" : "s", x->runs,
		     x->runs == 1 ? "" : "s", x->failed,
		     x->failed && x->failure[0] ? "; the last: " : "",
		     x->failed ? x->failure : "", took, budget);
	crossover_line(x, line, sizeof(line));
	escape_print(out, "", "%s", line);
}

void report_crossover_csv_head(struct text *t)
{
	report_put(t, ",crossover_side,crossover_value,crossover_counted,"
		      "crossover_ratio,crossover_low,crossover_high,"
		      "crossover_lead");
}

/* A number's cell: empty when unknown. */
static void csv_number(struct text *t, double v)
{
	if (isfinite(v))
		report_put(t, ",%.6g", v);
	else
		report_put(t, ",");
}

void report_crossover_csv_cells(struct text *t, const struct session *s,
				size_t number)
{
	const struct crossover *x = s->crossover;
	const struct crossover_run *r = x ? crossover_run_of(x, number) : NULL;
	const struct crossover_size *z;
	char *value;

	if (!r) {
		report_put(t, ",,,,,,,");
		return;
	}
	z = crossover_size_of(x, r->msg_size);
	report_put(t, ",%s,", r->side ? "b" : "a");
	/* A value of the pair is the command line's words, quoted (RFC 4180). */
	value = text_escape(x->value[r->side]);
	report_put(t, "\"");
	for (const char *c = value ? value : ""; *c; c++)
		report_put(t, *c == '"' ? "\"\"" : "%c", *c);
	report_put(t, "\",%s", r->usable ? "true" : "false");
	free(value);
	csv_number(t, z ? z->difference.ratio : NAN);
	csv_number(t, z ? z->difference.low : NAN);
	csv_number(t, z ? z->difference.high : NAN);
	report_put(t, ",%s", z ? crossover_lead_names[z->lead] : "");
}

/* The figure: its panel, the plot inside it, and its scales. */
#define CROSS_PANEL_H 300
#define CROSS_LEFT    64
#define CROSS_RIGHT   24
#define CROSS_TOP     16
#define CROSS_BOTTOM  44
#define CROSS_LEGEND  18
#define CROSS_LINE    28

static const struct report_font legend_font = {.size = 13};

struct cross_plot {
	struct text *t;
	const struct crossover *x;
	double left, right, top, bottom; /* the plot, on the page */
	double x_lo, x_hi;		 /* log2 of bytes */
	double y_lo, y_hi;		 /* log of the ratio */
	struct report_look look[3];	 /* A ahead, B ahead, neither */
};

static double cross_px(const struct cross_plot *p, double bytes)
{
	return p->left + (log2(bytes) - p->x_lo) / (p->x_hi - p->x_lo) *
				 (p->right - p->left);
}

/* A ratio's height, kept inside the plot. */
static double cross_py(const struct cross_plot *p, double ratio)
{
	double v = fmin(fmax(log(ratio), p->y_lo), p->y_hi);

	return p->bottom -
	       (v - p->y_lo) / (p->y_hi - p->y_lo) * (p->bottom - p->top);
}

/* The ratios' range, 1 and the minimum effect within it, padded. */
static void cross_scale(struct cross_plot *p)
{
	const struct crossover *x = p->x;
	double lo = log(1 / (1 + 2 * STATS_MIN_EFFECT));
	double hi = -lo, pad;

	for (size_t i = 0; i < x->size_count; i++) {
		const struct stats_difference *d = &x->size[i].difference;
		double v[3] = {d->ratio, d->low, d->high};

		for (int k = 0; k < 3; k++)
			if (isfinite(v[k]) && v[k] > 0) {
				lo = fmin(lo, log(v[k]));
				hi = fmax(hi, log(v[k]));
			}
	}
	/* Past 16 times either way, whiskers are cut at the edge. */
	lo = fmax(lo, log(1.0 / 16));
	hi = fmin(hi, log(16.0));
	pad = (hi - lo) * 0.06;
	p->y_lo = lo - pad;
	p->y_hi = hi + pad;
	p->x_lo = log2((double)x->question.min_size) - 0.25;
	p->x_hi = log2((double)x->question.max_size) + 0.25;
}

/* The frame, the band of a tie, 1, the ticks and the axes' names. */
static void cross_axes(const struct cross_plot *p)
{
	static const double ratios[] = {
		1.0 / 16, 1.0 / 8, 1.0 / 4, 1.0 / 2, 2.0 / 3, 0.8, 0.9, 1,
		1.1,	  1.25,	   1.5,	    2,	     4,	      8,   16};
	double span = p->x_hi - p->x_lo, dense = span > 14 ? 2 : 1;
	char label[32];

	report_put(p->t,
		   "<rect class=\"band\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		   "height=\"%.1f\" fill=\"#ececec\"/>\n",
		   p->left, cross_py(p, 1 + STATS_MIN_EFFECT),
		   p->right - p->left,
		   cross_py(p, 1 / (1 + STATS_MIN_EFFECT)) -
			   cross_py(p, 1 + STATS_MIN_EFFECT));
	for (size_t i = 0; i < sizeof(ratios) / sizeof(*ratios); i++) {
		double y = cross_py(p, ratios[i]), fine = fabs(log(ratios[i]));

		/* Ticks near 1 only where the scale has room for them. */
		if (log(ratios[i]) < p->y_lo || log(ratios[i]) > p->y_hi ||
		    (fine > 0 && fine < 0.3 && p->y_hi - p->y_lo > 1.5) ||
		    (fine > 0.3 && fine < 0.6 && p->y_hi - p->y_lo > 3))
			continue;
		report_put(p->t,
			   "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			   "y2=\"%.1f\" stroke=\"%s\"/>\n"
			   "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" "
			   "text-anchor=\"end\">%.3g</text>\n",
			   p->left, y, p->right, y,
			   ratios[i] == 1 ? "#777" : "#e2e2e2", p->left - 5,
			   y + 4, ratios[i]);
	}
	for (double e = ceil(p->x_lo); e <= p->x_hi; e += dense) {
		double bytes = exp2(e), x = cross_px(p, bytes);

		crossover_size_text((size_t)bytes, label, sizeof(label));
		report_put(p->t,
			   "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			   "y2=\"%.1f\" stroke=\"#e2e2e2\"/>\n"
			   "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" "
			   "text-anchor=\"middle\">%s</text>\n",
			   x, p->top, x, p->bottom, x, p->bottom + 15, label);
	}
	report_put(p->t,
		   "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" "
		   "text-anchor=\"middle\">message size (log 2)</text>\n",
		   (p->left + p->right) / 2, p->bottom + 34);
	snprintf(label, sizeof(label), "times better (log)");
	report_put(p->t,
		   "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" "
		   "text-anchor=\"middle\" transform=\"rotate(-90 %.1f "
		   "%.1f)\">%s</text>\n",
		   p->left - 44, (p->top + p->bottom) / 2, p->left - 44,
		   (p->top + p->bottom) / 2, label);
}

/* Each bracket, shaded from its lower end to its upper. */
static void cross_brackets(const struct cross_plot *p)
{
	char lo[24], hi[24];

	for (size_t i = 0; i < p->x->bracket_count; i++) {
		const struct crossover_bracket *b = &p->x->bracket[i];
		double x0 = cross_px(p, (double)b->below);
		double x1 = cross_px(p, (double)b->above);

		crossover_size_text(b->below, lo, sizeof(lo));
		crossover_size_text(b->above, hi, sizeof(hi));
		report_put(p->t,
			   "<rect class=\"bracket\" x=\"%.1f\" y=\"%.1f\" "
			   "width=\"%.1f\" height=\"%.1f\" fill=\"#f5d76e\" "
			   "fill-opacity=\"0.45\"><title>",
			   x0, p->top, fmax(x1 - x0, 1), p->bottom - p->top);
		report_put_escaped(p->t, p->x->label[b->lead_above == LEAD_B]);
		report_put(p->t, " overtakes ");
		report_put_escaped(p->t, p->x->label[b->lead_below == LEAD_B]);
		report_put(p->t, " between %s and %s</title></rect>\n", lo, hi);
	}
}

/* Each size tried with a ratio: a whisker over its interval, a marker. */
static void cross_sizes(const struct cross_plot *p)
{
	char size[24], lead[128];

	for (size_t i = 0; i < p->x->size_count; i++) {
		const struct crossover_size *z = &p->x->size[i];
		size_t k = z->lead == LEAD_A ? 0 : z->lead == LEAD_B ? 1 : 2;
		const struct report_look *look = &p->look[k];
		double x = cross_px(p, (double)z->msg_size);

		if (!isfinite(z->difference.ratio) || z->difference.ratio <= 0)
			continue;
		if (isfinite(z->difference.low))
			report_put(p->t,
				   "<line class=\"interval\" x1=\"%.1f\" "
				   "y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				   "stroke=\"%s\" stroke-width=\"1.5\"/>\n",
				   x, cross_py(p, z->difference.low), x,
				   cross_py(p, z->difference.high),
				   look->colour);
		crossover_size_text(z->msg_size, size, sizeof(size));
		crossover_lead_text(p->x, z->lead, lead, sizeof(lead));
		report_put(p->t, "<g class=\"series-%zu\"><title>%s: %.3g, ", k,
			   size, z->difference.ratio);
		report_put_escaped(p->t, lead);
		report_put(p->t, " (%zu+%zu runs)</title>", z->runs[0],
			   z->runs[1]);
		report_marker(p->t, look->shape, x,
			      cross_py(p, z->difference.ratio), look->colour,
			      k == 2);
		report_put(p->t, "</g>\n");
	}
}

/* The legend: what the markers' colours say, from y; its height. */
static double cross_legend(const struct cross_plot *p, double y)
{
	char name[3][160];
	double x = SVG_MARGIN, row_y = y + CROSS_LEGEND / 2;

	snprintf(name[0], sizeof(name[0]), "%s ahead", p->x->label[0]);
	snprintf(name[1], sizeof(name[1]), "%s ahead", p->x->label[1]);
	snprintf(name[2], sizeof(name[2]),
		 "equal within %.0f%%, undecided or running",
		 STATS_MIN_EFFECT * 100);
	for (size_t k = 0; k < 3; k++) {
		double w = CROSS_LINE + 6 +
			   report_text_width(&legend_font, name[k]) + 16;

		if (k && x + w > SVG_MARGIN + SVG_INSIDE) {
			x = SVG_MARGIN;
			row_y += CROSS_LEGEND;
		}
		report_put(p->t,
			   "<g class=\"legend series-%zu\"><line x1=\"%.0f\" "
			   "y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"%s\" "
			   "stroke-width=\"1.8\"/>",
			   k, x, row_y, x + CROSS_LINE, row_y,
			   p->look[k].colour);
		report_marker(p->t, p->look[k].shape, x + CROSS_LINE / 2, row_y,
			      p->look[k].colour, k == 2);
		report_text_block(p->t, &legend_font, x + CROSS_LINE + 6,
				  row_y + 4, SVG_INSIDE - CROSS_LINE - 6,
				  name[k]);
		report_put(p->t, "</g>\n");
		x += w;
	}
	return row_y + CROSS_LEGEND / 2 + 4 - y;
}

double report_crossover_figure(struct text *t, const struct session *s,
			       const struct report_style *style, size_t number,
			       double y)
{
	const struct crossover *x = s->crossover;
	struct cross_plot p = {.t = t, .x = x};
	const struct figure_scope scope = {.key.mode = x ? x->side[0].mode : 0,
					   .parts = POINT_MODE,
					   .axis = FIGURE_BY_SIZE};
	char title[400], note[640], line[CROSSOVER_TEXT_MAX];
	double at;

	if (!x || !x->size_count)
		return 0;
	snprintf(title, sizeof(title),
		 "Where %s overtakes %s: how many times better it is on %s, "
		 "against the message size",
		 x->label[1], x->label[0], x->metric_label);
	snprintf(note, sizeof(note),
		 "%s; %s is better. Each size tried is a marker at the ratio "
		 "of its runs and a whisker over its 90%% interval; within "
		 "the grey band (%.0f%% either way) is a tie, and a shaded "
		 "bracket lies between neighbours decided for one side and "
		 "for the other.",
		 x->context, x->question.higher_is_better ? "higher" : "lower",
		 STATS_MIN_EFFECT * 100);
	at = y + report_figure_head(t, "crossover", number, title, note, y);
	p.look[0] = report_series_look(style, 0);
	p.look[1] = report_series_look(style, 1);
	p.look[2] = (struct report_look){.colour = "#777777", .dash = ""};
	p.left = SVG_MARGIN + CROSS_LEFT;
	p.right = SVG_MARGIN + SVG_INSIDE - CROSS_RIGHT;
	p.top = at + CROSS_TOP;
	p.bottom = at + CROSS_PANEL_H - CROSS_BOTTOM;
	cross_scale(&p);
	report_put(t,
		   "<rect class=\"panel\" x=\"%d\" y=\"%.0f\" width=\"%d\" "
		   "height=\"%d\" fill=\"none\" stroke=\"#bbb\"/>\n",
		   SVG_MARGIN, at, SVG_INSIDE, CROSS_PANEL_H);
	cross_axes(&p);
	cross_brackets(&p);
	cross_sizes(&p);
	at += CROSS_PANEL_H + 8;
	at += cross_legend(&p, at);
	crossover_line(x, line, sizeof(line));
	at += report_note(t, "crossover-line", line, at);
	at += report_footer(t, s, &scope,
			    "Each ratio is of its size's runs (the geometric "
			    "means, the analysis's estimator)",
			    at);
	report_put(t, "</g>\n");
	return at - y;
}
