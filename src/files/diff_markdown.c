/*
 * A comparison as markdown (--format markdown): to paste in a review or to
 * append to a CI job's summary.  The same words as the text, a table per
 * figure, the gate's verdict and findings after them.  Every word that may
 * come from a file is escaped twice: for a terminal (text_escape) and for
 * markdown, whose punctuation would otherwise make tables, links or HTML.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff_report.h"
#include "escape.h"

/* text on out, safe in a table's cell and in a paragraph. */
static void md_put(FILE *out, const char *text)
{
	char *safe = text_escape(text);

	for (const char *c = safe ? safe : "?"; *c; c++) {
		/* A tilde before a space ("~ (-2.1% .. +4.0%)") strikes nothing. */
		if (strchr("\\`*_[]<>|#", *c) || (*c == '~' && c[1] != ' '))
			fputc('\\', out);
		fputc(*c, out);
	}
	free(safe);
}

/* A rule in a code span: as it was given (rules hold no backtick). */
static void md_code(FILE *out, const char *text)
{
	char *safe = text_escape(text);

	fputc('`', out);
	for (const char *c = safe ? safe : "?"; *c; c++)
		if (*c != '`')
			fputc(*c, out);
	fputc('`', out);
	free(safe);
}

static void md_context(FILE *out, const struct diff *d)
{
	const cJSON *item;

	if (!cJSON_GetArraySize(d->differences)) {
		fprintf(out, "Host, settings and environment: the same.\n\n");
	} else {
		fprintf(out, "| differs | old | new |\n|:--|:--|:--|\n");
		cJSON_ArrayForEach(item, d->differences)
		{
			const cJSON *old = cJSON_GetObjectItem(item, "old");
			const cJSON *new = cJSON_GetObjectItem(item, "new");

			fprintf(out, "| ");
			md_put(out,
			       cJSON_GetObjectItem(item, "key")->valuestring);
			fprintf(out, " | ");
			md_put(out,
			       old->valuestring ? old->valuestring : "(none)");
			fprintf(out, " | ");
			md_put(out,
			       new->valuestring ? new->valuestring : "(none)");
			fprintf(out, " |\n");
		}
		fprintf(out, "\n");
	}
	for (int k = 0; k < 2; k++)
		if (d->side[k].context->analysis.busy_why[0]) {
			fprintf(out, "%s measured on a busy host: ",
				k ? "New" : "Old");
			md_put(out, d->side[k].context->analysis.busy_why);
			fprintf(out, "\n\n");
		}
}

static void md_rows(FILE *out, const struct diff *d)
{
	char text[200];

	for (size_t i = 0; i < d->row_count; i++) {
		const struct diff_row *row = &d->row[i];

		if (i == 0 || strcmp(row->metric, d->row[i - 1].metric) != 0) {
			fprintf(out, "%s| ", i ? "\n" : "");
			md_put(out, row->metric);
			diff_change_heading(row, text, sizeof(text));
			fprintf(out, " | old | new | ");
			md_put(out, text);
			fprintf(out, " |\n|:--|--:|--:|:--|\n");
		}
		fprintf(out, "| ");
		md_put(out, d->point[row->point].label);
		for (int k = 0; k < 2; k++) {
			diff_side_text(row, k, text, sizeof(text));
			fprintf(out, " | ");
			md_put(out, text);
		}
		diff_change_text(row, text, sizeof(text));
		fprintf(out, " | %s", diff_row_significant(row) ? "**" : "");
		md_put(out, text);
		fprintf(out, "%s |\n", diff_row_significant(row) ? "**" : "");
	}
}

static void md_gate(FILE *out, const struct gate *g)
{
	char summary[160];

	gate_summary(g, summary, sizeof(summary));
	fprintf(out, "**Gate ");
	for (size_t i = 0; i < g->rule_count; i++) {
		fprintf(out, "%s", i ? ", " : "");
		md_code(out, g->rules[i].text);
	}
	fprintf(out, "**: ");
	md_put(out, summary);
	fprintf(out, "\n\n");
	for (size_t i = 0; i < g->count; i++) {
		fprintf(out, "- %s",
			g->finding[i].kind == GATE_BROKEN ||
					g->finding[i].kind == GATE_FAILED
				? "**"
				: "");
		md_put(out, g->finding[i].text);
		fprintf(out, "%s\n",
			g->finding[i].kind == GATE_BROKEN ||
					g->finding[i].kind == GATE_FAILED
				? "**"
				: "");
	}
}

void diff_markdown(FILE *out, const struct diff *d, const struct gate *g,
		   const char *const paths[2])
{
	char legend[512];

	fprintf(out, "### nio-top: ");
	md_put(out, paths[0]);
	fprintf(out, " against ");
	md_put(out, paths[1]);
	fprintf(out, "\n\n");
	md_context(out, d);
	diff_legend(d, legend, sizeof(legend));
	md_put(out, legend);
	fprintf(out, "\n\n");
	md_rows(out, d);
	fprintf(out, "\n");
	for (int k = 0; k < 2; k++)
		for (size_t j = 0; j < d->point_count; j++) {
			const struct diff_point *p = &d->point[j];

			if (!p->count[k] || p->count[!k])
				continue;
			fprintf(out, "Only in %s: ", k ? "new" : "old");
			md_put(out, p->label);
			fprintf(out, " (%zu run%s)\n\n", p->count[k],
				p->count[k] == 1 ? "" : "s");
		}
	for (int k = 0; k < 2; k++)
		for (size_t j = 0; j < d->point_count; j++) {
			const struct diff_point *p = &d->point[j];

			if (!diff_uncompared(d, j, k))
				continue;
			fprintf(out,
				"%s, no run to compare: ", k ? "New" : "Old");
			md_put(out, p->label);
			fprintf(out, " (%zu run%s, %s: ", p->count[k],
				p->count[k] == 1 ? "" : "s",
				p->failed[k] ? "all failed" : "none compared");
			md_put(out, p->why[k]);
			fprintf(out, ")\n\n");
		}
	if (g)
		md_gate(out, g);
	fflush(out);
}
