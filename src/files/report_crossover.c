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
		snprintf(out, size, "%.3g", v);
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
	escape_print(out, "  ", "stopped: %s",
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
