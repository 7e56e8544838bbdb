/*
 * --diff: both exports loaded as --load loads one (their analysis built),
 * compared (model/diff.h), printed, and written as JSON and CSV.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
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
	cJSON_AddBoolToObject(item, "too_few_runs", diff_row_too_few(row));
	cJSON_AddItemToObject(
		item, "runs_needed",
		row->too_few && row->runs_needed && row->runs_needed != SIZE_MAX
			? cJSON_CreateNumber((double)row->runs_needed)
			: cJSON_CreateNull());
	cJSON_AddBoolToObject(item, "significant", diff_row_significant(row));
	return item;
}

/* The comparison as JSON (format "nio-top-diff"). */
static cJSON *diff_json(const struct diff *d, const char *const paths[2])
{
	cJSON *root = cJSON_CreateObject(), *list;
	char legend[400];

	cJSON_AddStringToObject(root, "format", DIFF_FORMAT);
	cJSON_AddNumberToObject(root, "version", 1);
	cJSON_AddStringToObject(root, "old", paths[0]);
	cJSON_AddStringToObject(root, "new", paths[1]);
	cJSON_AddStringToObject(root, "test", diff_test_names[d->test]);
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
			 "significant\n");
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
			     diff_row_significant(row) ? "true\n" : "false\n");
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

int diff_exports(const struct options *given, const char *json_path,
		 const char *csv_path, size_t *uncompared_new, char **cause)
{
	const char *const paths[2] = {given->diff, given->diff_new};
	struct session s[2];
	struct diff d;
	cJSON *json;
	char *out;
	int r;

	*cause = NULL;
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
			       (enum diff_test)given->diff_test);
	if (r < 0)
		goto out;
	for (int k = 0; k < 2; k++) {
		char *safe = text_escape(paths[k]);

		printf("%s: %s\n", k ? "new" : "old", safe ? safe : "?");
		free(safe);
	}
	diff_print(&d);
	*uncompared_new = diff_uncompared_new(&d);
	if (csv_path)
		r = diff_csv(&d, csv_path, cause);
	if (r == 0 && json_path) {
		json = diff_json(&d, paths);
		out = json ? cJSON_Print(json) : NULL;
		r = out ? outfile_write_text(json_path, out, cause) : -ENOMEM;
		cJSON_free(out);
		cJSON_Delete(json);
	}
	diff_fini(&d);
out:
	session_close(&s[0]);
	session_close(&s[1]);
	return r;
}
