/*
 * The analysis view: the verdicts of nio-top(1) ANALYSIS from the runs so
 * far, each with its evidence, and why zero-copy fared as it did; it
 * scrolls.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crossover_run.h"
#include "view.h"

struct analysis_view {
	size_t scroll;
	size_t page;
};

static void *analysis_open(struct ui *ui)
{
	(void)ui;
	return calloc(1, sizeof(struct analysis_view));
}

static void analysis_close(void *state)
{
	free(state);
}

/* How many runs are analysed and why the others are not. */
static void analysed(const struct session *s, char *line, size_t size)
{
	const struct analysis *a = &s->analysis;
	size_t len;

	len = (size_t)snprintf(line, size,
			       "%zu run%s analysed, stream and rr apart; %zu "
			       "short (measured under %g s or over fewer than "
			       "%d intervals) left out",
			       a->runs, a->runs == 1 ? "" : "s", a->short_runs,
			       (double)s->options.min_measured_ms / 1000,
			       ANALYSIS_MIN_INTERVALS);
	if (a->stopped_runs && len < size)
		len += (size_t)snprintf(line + len, size - len,
					", and %zu a stop ended "
					"(--keep-stopped keeps them)",
					a->stopped_runs);
	if (len < size)
		snprintf(line + len, size - len, ".");
}

/* The verdicts, a decided one highlighted, a suspect one in warning. */
static void verdicts(const struct analysis *a, int width, struct ui_lines *l)
{
	char line[ANALYSIS_TEXT_MAX];

	for (size_t i = 0; i < a->crossover_count; i++) {
		const struct analysis_crossover *c = &a->crossovers[i];
		bool found = c->verdict == VERDICT_FROM ||
			     c->verdict == VERDICT_NEVER ||
			     c->verdict == VERDICT_BEHIND ||
			     c->verdict == VERDICT_MIXED ||
			     c->verdict == VERDICT_TIE;

		analysis_crossover_text(c, line, sizeof(line));
		ui_lines_wrap(l,
			      c->suspect ? ROLE_SENDER_HIGH
			      : found	 ? ROLE_HIGHLIGHT
					 : ROLE_TEXT,
			      width, 2, line);
		if (crossover_suggest(c, line, sizeof(line)))
			ui_lines_wrap(l, ROLE_INACTIVE, width, 4, line);
	}
}

static void analysis_draw(struct ui *ui, void *state, const struct explorer *e,
			  const struct rect *r)
{
	struct analysis_view *v = state;
	const struct analysis *a = &e->session->analysis;
	struct ui_lines l = {0};
	int width = r->w - 4;
	char line[ANALYSIS_PROBE_TEXT_MAX > ANALYSIS_TEXT_MAX
			  ? ANALYSIS_PROBE_TEXT_MAX
			  : ANALYSIS_TEXT_MAX];

	ui_box(ui->utf8, r, ROLE_BOX_HISTORY,
	       r->w >= 64 ? "Analysis: a verdict needs its 90% interval past 5%"
			  : "Analysis (90% interval, 5%)");
	analysed(e->session, line, sizeof(line));
	ui_lines_wrap(&l, ROLE_INACTIVE, width, 2, line);
	if (!a->crossover_count)
		ui_lines_wrap(&l, ROLE_INACTIVE, width, 2,
			      "No comparison yet: it needs a pair of two-copy, "
			      "one-copy and zero-copy, or uring and uring-zc, "
			      "sendfile and zero-copy, splice and one-copy, at "
			      "the same sizes, flows, mode and receive side (w "
			      "sweeps them).");
	verdicts(a, width, &l);
	for (size_t i = 0; i < a->probe_count; i++) {
		const struct analysis_probe *p = &a->probes[i];

		analysis_probe_text(a, p, line, sizeof(line));
		ui_lines_wrap(
			&l,
			p->has_versus && (p->versus.outcome == STATS_AHEAD ||
					  p->versus.outcome == STATS_BEHIND)
				? ROLE_HIGHLIGHT
				: ROLE_TEXT,
			width, 2, line);
	}
	/* --repeat is the command line's: what does it here. */
	for (size_t i = 0; i < a->crossover_count && !e->viewing; i++)
		if (a->crossovers[i].verdict == VERDICT_UNDECIDED) {
			ui_lines_wrap(&l, ROLE_INACTIVE, width, 2,
				      "More runs here (--repeat is the "
				      "command line's): w sweeps the "
				      "strategies over the sizes again, p "
				      "runs a preset again, and Enter in the "
				      "live view (1) runs the controls' point "
				      "again; each run joins its point.");
			break;
		}
	if (a->zerocopy_why[0]) {
		snprintf(line, sizeof(line), "zero-copy: %s", a->zerocopy_why);
		ui_lines_wrap(&l, ROLE_MISC, width, 2, line);
	}
	if (a->busy_why[0]) {
		snprintf(line, sizeof(line), "Measured on a busy host: %s",
			 a->busy_why);
		ui_lines_wrap(&l, ROLE_SENDER_HIGH, width, 2, line);
	}
	if (a->counters_why[0]) {
		snprintf(line, sizeof(line), "Counting: %s", a->counters_why);
		ui_lines_wrap(&l, ROLE_MISC, width, 2, line);
	}
	if (a->user_space_why[0]) {
		snprintf(line, sizeof(line), "Sampled where the CPU goes: %s",
			 a->user_space_why);
		ui_lines_wrap(&l, ROLE_INACTIVE, width, 2, line);
	}
	if (a->wait_count)
		ui_lines_wrap(&l, ROLE_TITLE, width, 0,
			      "Where the time goes (each side on its CPU, or "
			      "waiting):");
	for (size_t i = 0; i < a->wait_count; i++) {
		analysis_wait_text(a, &a->waits[i], line, sizeof(line));
		ui_lines_wrap(&l, ROLE_TEXT, width, 2, line);
	}
	for (size_t i = 0; i < a->wait_group_count; i++)
		ui_lines_wrap(&l, ROLE_HIGHLIGHT, width, 2, a->wait_groups[i]);
	v->page = ui_lines_draw(ui->utf8, &l, r, &v->scroll);
	ui_lines_free(&l);
}

static bool analysis_key(struct ui *ui, void *state, const struct explorer *e,
			 int key, struct ui_commands *out)
{
	struct analysis_view *v = state;

	(void)ui;
	(void)e;
	(void)out;
	return ui_scroll_key(key, &v->scroll, v->page);
}

const struct ui_view ui_view_analysis = {
	.name = "analysis",
	.shortcut = '5',
	.bar = NULL,
	.keys =
		{
			{"Up Down PgUp PgDn Home End", "scroll the verdicts"},
		},
	.open = analysis_open,
	.close = analysis_close,
	.draw = analysis_draw,
	.key = analysis_key,
};
