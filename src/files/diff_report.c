/*
 * --diff and --baseline: both sides loaded as --load loads one (their
 * analysis built), compared (model/diff.h), printed as text or markdown,
 * judged by --gate (model/gate.h), and written as JSON and CSV.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff_report.h"
#include "escape.h"
#include "export.h"
#include "outfile.h"

#define DIFF_FORMAT "nio-top-diff"

static cJSON *number_or_null(double v)
{
	return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

static cJSON *side_json(const struct diff_row *row, int k)
{
	cJSON *obj = cJSON_CreateObject();

	cJSON_AddItemToObject(obj, "median", number_or_null(row->median[k]));
	cJSON_AddItemToObject(obj, "spread", number_or_null(row->spread[k]));
	cJSON_AddNumberToObject(obj, "runs", (double)row->runs[k]);
	return obj;
}

/* The sides of points with runs none of which could be compared. */
static cJSON *uncompared_json(const struct diff *d)
{
	cJSON *list = cJSON_CreateArray(), *item;

	for (int k = 0; k < 2; k++)
		for (size_t j = 0; j < d->point_count; j++) {
			const struct diff_point *p = &d->point[j];

			if (!diff_uncompared(d, j, k))
				continue;
			item = cJSON_CreateObject();
			cJSON_AddStringToObject(item, "side",
						k ? "new" : "old");
			cJSON_AddStringToObject(item, "point", p->label);
			cJSON_AddItemToObject(
				item, "settings",
				cJSON_Duplicate(p->settings, true));
			cJSON_AddNumberToObject(item, "runs",
						(double)p->count[k]);
			cJSON_AddBoolToObject(item, "failed", p->failed[k]);
			cJSON_AddStringToObject(item, "why", p->why[k]);
			cJSON_AddItemToArray(list, item);
		}
	return list;
}

static cJSON *row_json(const struct diff *d, const struct diff_row *row)
{
	cJSON *item = cJSON_CreateObject();

	cJSON_AddStringToObject(item, "metric", row->key);
	cJSON_AddItemToObject(item, "side",
			      row->side ? cJSON_CreateString(row->side)
					: cJSON_CreateNull());
	cJSON_AddStringToObject(item, "point", d->point[row->point].label);
	cJSON_AddItemToObject(
		item, "settings",
		cJSON_Duplicate(d->point[row->point].settings, true));
	cJSON_AddItemToObject(item, "old", side_json(row, 0));
	cJSON_AddItemToObject(item, "new", side_json(row, 1));
	cJSON_AddItemToObject(item, "ratio", number_or_null(row->change.ratio));
	cJSON_AddItemToObject(item, "low", number_or_null(row->change.low));
	cJSON_AddItemToObject(item, "high", number_or_null(row->change.high));
	cJSON_AddItemToObject(item, "p", number_or_null(row->p));
	cJSON_AddNumberToObject(item, "drift", row->drift);
	cJSON_AddBoolToObject(item, "too_few_runs", diff_row_too_few(row));
	cJSON_AddItemToObject(
		item, "runs_needed",
		row->too_few && row->runs_needed && row->runs_needed != SIZE_MAX
			? cJSON_CreateNumber((double)row->runs_needed)
			: cJSON_CreateNull());
	cJSON_AddBoolToObject(item, "significant", diff_row_significant(row));
	return item;
}

/* The gate's rules, status and findings; each broken rule with its row. */
static cJSON *gate_json(const struct diff *d, const struct gate *g)
{
	cJSON *obj = cJSON_CreateObject(), *list, *item;

	list = cJSON_AddArrayToObject(obj, "rules");
	for (size_t i = 0; i < g->rule_count; i++)
		cJSON_AddItemToArray(list,
				     cJSON_CreateString(g->rules[i].text));
	cJSON_AddNumberToObject(obj, "status", g->status);
	list = cJSON_AddArrayToObject(obj, "broken");
	for (size_t i = 0; i < g->count; i++) {
		const struct gate_finding *f = &g->finding[i];

		if (f->kind != GATE_BROKEN)
			continue;
		item = row_json(d, f->row);
		cJSON_AddStringToObject(item, "rule", f->rule->text);
		cJSON_AddItemToArray(list, item);
	}
	list = cJSON_AddArrayToObject(obj, "findings");
	for (size_t i = 0; i < g->count; i++) {
		item = cJSON_CreateObject();
		cJSON_AddStringToObject(item, "kind",
					gate_kind_names[g->finding[i].kind]);
		cJSON_AddStringToObject(item, "text", g->finding[i].text);
		cJSON_AddItemToArray(list, item);
	}
	return obj;
}

/* The comparison as JSON (format "nio-top-diff"), its gate's if judged. */
static cJSON *diff_json(const struct diff *d, const struct gate *g,
			const char *const paths[2])
{
	cJSON *root = cJSON_CreateObject(), *list;
	char legend[512];

	cJSON_AddStringToObject(root, "format", DIFF_FORMAT);
	cJSON_AddNumberToObject(root, "version", 1);
	cJSON_AddStringToObject(root, "old", paths[0]);
	cJSON_AddStringToObject(root, "new", paths[1]);
	cJSON_AddStringToObject(root, "test", diff_test_names[d->how.test]);
	cJSON_AddNumberToObject(root, "level", STATS_INTERVAL_LEVEL);
	diff_legend(d, legend, sizeof(legend));
	cJSON_AddStringToObject(root, "legend", legend);
	cJSON_AddItemToObject(root, "differences",
			      cJSON_Duplicate(d->differences, true));
	list = cJSON_AddArrayToObject(root, "rows");
	for (size_t i = 0; i < d->row_count; i++)
		cJSON_AddItemToArray(list, row_json(d, &d->row[i]));
	cJSON_AddItemToObject(root, "uncompared", uncompared_json(d));
	for (int k = 0; k < 2; k++) {
		list = cJSON_AddArrayToObject(root,
					      k ? "only_new" : "only_old");
		for (size_t j = 0; j < d->point_count; j++)
			if (d->point[j].count[k] && !d->point[j].count[!k])
				cJSON_AddItemToArray(
					list,
					cJSON_CreateString(d->point[j].label));
	}
	cJSON_AddItemToObject(root, "gate",
			      g ? gate_json(d, g) : cJSON_CreateNull());
	return root;
}

/* A CSV cell: a number, or empty where unknown; then a comma. */
static void csv_number(struct outfile *f, double v)
{
	char cell[40];

	if (isfinite(v))
		snprintf(cell, sizeof(cell), "%.6g,", v);
	else
		snprintf(cell, sizeof(cell), ",");
	outfile_puts(f, cell);
}

static int diff_csv(const struct diff *d, const char *path, char **cause)
{
	struct outfile f;

	outfile_open(&f, path);
	outfile_puts(&f, "metric,side,point,old_median,old_spread,old_runs,"
			 "new_median,new_spread,new_runs,ratio,low,high,p,"
			 "significant,drift\n");
	for (size_t i = 0; i < d->row_count; i++) {
		const struct diff_row *row = &d->row[i];
		char head[DIFF_LABEL_MAX + 96];

		/* Labels hold no comma or quote: keys, names and numbers. */
		snprintf(head, sizeof(head), "%s,%s,\"%s\",", row->key,
			 row->side ? row->side : "",
			 d->point[row->point].label);
		outfile_puts(&f, head);
		for (int k = 0; k < 2; k++) {
			csv_number(&f, row->median[k]);
			csv_number(&f, row->spread[k]);
			csv_number(&f, (double)row->runs[k]);
		}
		csv_number(&f, row->change.ratio);
		csv_number(&f, row->change.low);
		csv_number(&f, row->change.high);
		csv_number(&f, row->p);
		outfile_puts(&f,
			     diff_row_significant(row) ? "true," : "false,");
		snprintf(head, sizeof(head), "%.6g\n", row->drift);
		outfile_puts(&f, head);
	}
	return outfile_commit(&f, cause);
}

static void print_line(void *arg, const char *text)
{
	(void)arg;
	printf("%s\n", text);
}

void diff_print(const struct diff *d)
{
	diff_text(d, &(const struct diff_text){.line = print_line});
}

/* An export read as --load reads it, the command line's threshold first. */
static int diff_load(const char *path, const struct options *given,
		     struct session *s, char **cause)
{
	struct options o = *given;
	int r;

	o.viewing_only = true;
	r = export_load(path, s, &o, cause);
	if (r == 0 && options_given(given, "min-measured")) {
		s->options.min_measured_ms = given->min_measured_ms;
		session_analyse(s);
	}
	return r;
}

/*
 * The comparison on standard output, in the format asked for, and its
 * gate's findings on standard error, the verdict last.
 */
static void diff_show(const struct options *o, const struct diff *d,
		      const struct gate *g, const char *const paths[2])
{
	char summary[160];

	if (o->diff_format == DIFF_FORMAT_MARKDOWN) {
		diff_markdown(stdout, d, g, paths);
	} else {
		for (int k = 0; k < 2; k++)
			escape_print(stdout, "", "%s: %s", k ? "new" : "old",
				     paths[k]);
		diff_print(d);
		fflush(stdout);
	}
	if (!g)
		return;
	for (size_t i = 0; i < g->count; i++)
		escape_print(stderr, "nio-top: gate: ", "%s",
			     g->finding[i].text);
	gate_summary(g, summary, sizeof(summary));
	escape_print(stderr, "nio-top: gate ", "%s", summary);
}

/*
 * d shown and judged; written to json_path and csv_path (either NULL), or
 * as JSON into *json (json NULL: not).  0 with *status, or -errno.
 */
static int diff_report(const struct options *o, const struct diff *d,
		       const char *const paths[2], const char *json_path,
		       const char *csv_path, cJSON **json, int *status,
		       char **cause)
{
	struct gate gate, *g = o->gate[0] ? &gate : NULL;
	cJSON *root;
	char *text;
	int r = g ? gate_judge(d, o, g) : 0;

	if (r < 0)
		return r;
	*status = g ? g->status : 0;
	diff_show(o, d, g, paths);
	if (csv_path)
		r = diff_csv(d, csv_path, cause);
	root = r == 0 && (json_path || json) ? diff_json(d, g, paths) : NULL;
	if (root && json) {
		*json = root;
		root = NULL;
	} else if (root) {
		text = cJSON_Print(root);
		r = text ? outfile_write_text(json_path, text, cause) : -ENOMEM;
		cJSON_free(text);
	} else if (r == 0 && (json_path || json)) {
		r = -ENOMEM;
	}
	cJSON_Delete(root);
	if (g)
		gate_fini(g);
	return r;
}

/* How given's comparison calls a change. */
static struct diff_how diff_how_of(const struct options *given)
{
	return (struct diff_how){.test = (enum diff_test)given->diff_test,
				 .drift = given->drifts,
				 .drift_count = given->drift_count};
}

int diff_exports(const struct options *given, int *status,
		 size_t *uncompared_new, char **cause)
{
	const char *const paths[2] = {given->diff, given->diff_new};
	struct diff_how how = diff_how_of(given);
	struct session s[2];
	struct diff d;
	int r;

	*cause = NULL;
	*status = 0;
	*uncompared_new = 0;
	session_init(&s[0]);
	session_init(&s[1]);
	r = diff_load(paths[0], given, &s[0], cause);
	if (r == 0)
		r = diff_load(paths[1], given, &s[1], cause);
	if (r == 0)
		r = diff_build(&d,
			       (struct diff_side[2]){
				       {&s[0], &s[0], 0, s[0].result_count},
				       {&s[1], &s[1], 0, s[1].result_count}},
			       &how);
	if (r == 0) {
		*uncompared_new = diff_uncompared_new(&d);
		r = diff_report(given, &d, paths, given->output, given->csv,
				NULL, status, cause);
		diff_fini(&d);
	}
	session_close(&s[0]);
	session_close(&s[1]);
	return r;
}

int diff_baseline_load(const struct options *given, struct session *old,
		       char **cause)
{
	*cause = NULL;
	session_init(old);
	return diff_load(given->baseline, given, old, cause);
}

int diff_baseline(const struct options *given, const struct session *old,
		  const struct session *s, int *status, cJSON **json,
		  char **cause)
{
	const char *const paths[2] = {
		given->baseline, given->output ? given->output : "this study"};
	struct diff_how how = diff_how_of(given);
	struct diff d;
	int r;

	*cause = NULL;
	*status = 0;
	*json = NULL;
	r = diff_build(&d,
		       (struct diff_side[2]){{old, old, 0, old->result_count},
					     {s, s, 0, s->result_count}},
		       &how);
	if (r == 0) {
		r = diff_report(given, &d, paths, NULL, NULL, json, status,
				cause);
		diff_fini(&d);
	}
	return r;
}
