/*
 * What every figure of the SVG page has, whoever draws it (report.c those
 * of figure.h, report_profile.c where the CPU goes): its head, the
 * footer that says where and how its numbers were made, and a note under
 * its panels.
 */
#include <stdio.h>

#include "report_private.h"

double report_figure_head(struct text *t, const char *key, size_t number,
			  const char *title, const char *note, double y)
{
	static const struct report_font title_font = {.size = 18, .bold = true};
	static const struct report_font note_font = {.size = 12,
						     .attrs = "fill=\"#333\""};
	char line[256];
	double at = y + 26; /* the title's baseline */

	report_put(t, "<g id=\"figure-%s\">\n", key);
	snprintf(line, sizeof(line), "Figure %zu. %s", number, title);
	at += report_text_block(t, &title_font, SVG_MARGIN, at, SVG_INSIDE,
				line);
	/* The note's baseline 20 under the title's last, not a line's 25. */
	at -= 5;
	at += report_text_block(t, &note_font, SVG_MARGIN, at, SVG_INSIDE,
				note);
	/* What comes next begins 16 under the note's last baseline. */
	return at - report_line_height(&note_font) + 16 - y;
}

double report_footer(struct text *t, const struct session *s,
		     const struct figure_scope *scope, const char *points,
		     double y)
{
	static const struct report_font font = {.size = 11,
						.attrs = "fill=\"#333\""};
	const struct options *o = &s->options;
	const struct host_info *h = &s->host;
	struct figure_runs drawn;
	char runs[320], line[1024];
	double at = y + 14;

	figure_runs_of(&s->analysis, s->results, scope, &drawn);
	figure_runs_text(&drawn, false, runs, sizeof(runs));
	snprintf(line, sizeof(line), "host %s, Linux %s, %s, %u CPUs, %s",
		 h->hostname[0] ? h->hostname : "unknown", h->kernel,
		 h->cpu_model, h->cpus,
		 h->pmu.available ? "hardware PMU counted"
				  : "no hardware PMU (task-clock only)");
	at += report_text_block(t, &font, SVG_MARGIN, at, SVG_INSIDE, line);
	snprintf(line, sizeof(line),
		 "nio-top " NIO_TOP_VERSION ", %s; %s over %s: %s",
		 s->date[0] ? s->date : "undated",
		 run_mode_name(scope->key.mode),
		 topo_kind_name(s->topo.options.kind), runs);
	at += report_text_block(t, &font, SVG_MARGIN, at, SVG_INSIDE, line);
	snprintf(line, sizeof(line),
		 "%s; runs measured under %g s or over fewer than %d "
		 "intervals, and runs a stop ended, are left out.",
		 points, (double)o->min_measured_ms / 1000,
		 ANALYSIS_MIN_INTERVALS);
	at += report_text_block(t, &font, SVG_MARGIN, at, SVG_INSIDE, line);
	return at - y;
}

double report_note(struct text *t, const char *cls, const char *text, double y)
{
	char attrs[64];
	const struct report_font font = {.size = 11, .attrs = attrs};

	if (!text[0])
		return 0;
	snprintf(attrs, sizeof(attrs), "class=\"%s\" fill=\"#333\"", cls);
	return report_text_block(t, &font, SVG_MARGIN, y + 11, SVG_INSIDE,
				 text) +
	       4;
}
