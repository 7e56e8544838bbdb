/*
 * The comparison: each side's runs matched into points by their settings
 * as JSON text, and one row per metric and point both sides have, said as
 * tables a metric each, like benchstat's.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "diff.h"
#include "drift.h"
#include "escape.h"
#include "estimate.h"
#include "options.h"
#include "stats.h"
#include "units.h"

/* Run settings that change how a point was measured, not what it is. */
static const char *const measuring_keys[] = {
	"run",	      "round",	  "duration_s", "warmup_s",
	"profile_hz", "no_waits", "events",	NULL,
};
/* In every point's label, whether or not they vary. */
static const char *const named_keys[] = {
	"strategy", "msg_size", "threads", "mode", NULL,
};

static bool listed(const char *const *list, const char *key)
{
	for (size_t i = 0; list[i]; i++)
		if (strcmp(list[i], key) == 0)
			return true;
	return false;
}

/* A value as a label shows it: text without its quotes. */
static void value_text(const cJSON *item, char *out, size_t size)
{
	char *text;

	if (cJSON_IsString(item)) {
		snprintf(out, size, "%s", item->valuestring);
		return;
	}
	text = cJSON_PrintUnformatted(item);
	snprintf(out, size, "%s", text ? text : "?");
	cJSON_free(text);
}

/* The run settings of each run of a side, measuring keys left out. */
static cJSON *diff_settings(const struct diff_side *side)
{
	cJSON *list = cJSON_CreateArray();

	for (size_t i = 0; list && i < side->count; i++) {
		cJSON *settings = cJSON_CreateObject();

		options_run_to_json(
			&side->runs->results[side->first + i].config, settings);
		for (size_t j = 0; measuring_keys[j]; j++)
			cJSON_DeleteItemFromObjectCaseSensitive(
				settings, measuring_keys[j]);
		cJSON_AddItemToArray(list, settings);
	}
	return list;
}

/* The one value key has in every run of list, or NULL. */
static const cJSON *uniform(const cJSON *list, const char *key)
{
	const cJSON *run, *first = NULL;

	cJSON_ArrayForEach(run, list)
	{
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(run, key);

		if (!v || (first && !cJSON_Compare(first, v, true)))
			return NULL;
		first = v;
	}
	return first;
}

/*
 * A setting each export ran with one value, a different one in each (the
 * change under test, as --fields 8 against 1): it does not split points,
 * and the settings' differences say it.
 */
static void drop_treatments(cJSON *settings[2])
{
	const cJSON *first = cJSON_GetArrayItem(settings[0], 0), *key;
	char name[64];

	for (key = first ? first->child : NULL; key;) {
		const cJSON *a = uniform(settings[0], key->string);
		const cJSON *b = uniform(settings[1], key->string);

		snprintf(name, sizeof(name), "%s", key->string);
		key = key->next;
		if (!a || !b || cJSON_Compare(a, b, true))
			continue;
		for (int k = 0; k < 2; k++) {
			cJSON *run;

			cJSON_ArrayForEach(run, settings[k])
				cJSON_DeleteItemFromObjectCaseSensitive(run,
									name);
		}
	}
}

/* Result i of side k into the point of its settings: found, or added. */
static int diff_match(struct diff *d, int k, size_t i, cJSON *settings)
{
	struct diff_point *p = NULL;
	char *key = cJSON_PrintUnformatted(settings);
	size_t *grown;

	if (!key)
		return -ENOMEM;
	for (size_t j = 0; j < d->point_count && !p; j++)
		if (strcmp(d->point[j].key, key) == 0)
			p = &d->point[j];
	if (p) {
		cJSON_free(key);
	} else {
		void *more = realloc(d->point,
				     (d->point_count + 1) * sizeof(*d->point));

		if (!more) {
			cJSON_free(key);
			return -ENOMEM;
		}
		d->point = more;
		p = &d->point[d->point_count++];
		*p = (struct diff_point){
			.key = key,
			.settings = cJSON_Duplicate(settings, true),
			.mode = d->side[k].runs->results[i].config.mode};
	}
	grown = realloc(p->run[k], (p->count[k] + 1) * sizeof(*p->run[k]));
	if (!grown)
		return -ENOMEM;
	p->run[k] = grown;
	p->run[k][p->count[k]++] = i;
	return 0;
}

/* Whether key's value differs between any two points. */
static bool diff_varies(const struct diff *d, const char *key)
{
	char first[96], other[96];

	value_text(cJSON_GetObjectItemCaseSensitive(d->point[0].settings, key),
		   first, sizeof(first));
	for (size_t j = 1; j < d->point_count; j++) {
		value_text(cJSON_GetObjectItemCaseSensitive(
				   d->point[j].settings, key),
			   other, sizeof(other));
		if (strcmp(first, other) != 0)
			return true;
	}
	return false;
}

/* "one-copy 4K x1 stream fields=1": the settings that tell points apart. */
static void diff_labels(struct diff *d)
{
	const cJSON *item;

	for (size_t j = 0; j < d->point_count; j++) {
		struct diff_point *p = &d->point[j];
		size_t len = 0;
		uint64_t size;
		char value[96];

		for (size_t n = 0; named_keys[n]; n++) {
			item = cJSON_GetObjectItemCaseSensitive(p->settings,
								named_keys[n]);
			/* Written exactly: raw digits (jsonfile_u64_item). */
			if (strcmp(named_keys[n], "msg_size") == 0 &&
			    cJSON_IsRaw(item) &&
			    sscanf(item->valuestring, "%" SCNu64, &size) == 1)
				units_format_size((size_t)size, value,
						  sizeof(value));
			else
				value_text(item, value, sizeof(value));
			len += (size_t)snprintf(
				p->label + len, sizeof(p->label) - len,
				"%s%s%s", n ? " " : "",
				strcmp(named_keys[n], "threads") ? "" : "x",
				value);
			if (len >= sizeof(p->label))
				break;
		}
		cJSON_ArrayForEach(item, p->settings)
		{
			if (len >= sizeof(p->label) ||
			    listed(named_keys, item->string) ||
			    !diff_varies(d, item->string))
				continue;
			value_text(item, value, sizeof(value));
			len += (size_t)snprintf(p->label + len,
						sizeof(p->label) - len,
						" %s=%s", item->string, value);
		}
	}
}

/*
 * Result i's value of a figure, and its intervals' series: false for a run
 * the analysis leaves out, or one that does not know the figure.
 */
static bool run_value(const struct session *s, size_t i,
		      const struct estimate_of *of, double *value,
		      struct stats_series *series)
{
	const struct analysis_run *facts = &s->run_facts[i];

	if (i >= s->run_fact_count || !facts->usable || facts->short_run ||
	    facts->stopped)
		return false;
	return estimate_run(&s->results[i], of, value, series);
}

/*
 * Why result i of s is left out of the comparison (into why), or NULL
 * when it is not; *failed: it failed, rather than ran too briefly.
 */
static const char *run_left_out(const struct session *s, size_t i, bool *failed,
				char *why, size_t size)
{
	const struct run_result *r = &s->results[i];
	const struct analysis_run *facts = &s->run_facts[i];

	*failed = true;
	if (i >= s->run_fact_count) {
		snprintf(why, size, "not analysed");
	} else if (r->error) {
		snprintf(why, size, "%s", r->error);
	} else if (facts->usable && facts->stopped) {
		snprintf(why, size,
			 "stopped for %.1f s while measuring "
			 "(--keep-stopped keeps it)",
			 r->stopped_s);
	} else if (!facts->usable && r->config.settings.unsafe_reuse) {
		snprintf(why, size, "unsafe reuse (a teaching run)");
	} else if (!facts->usable) {
		snprintf(why, size, "nothing delivered in %.3g s measured",
			 r->measured_s);
	} else if (facts->short_run) {
		*failed = false;
		snprintf(why, size,
			 "short (measured %.3g s; --min-measured 0 keeps it)",
			 r->measured_s);
	} else {
		return NULL;
	}
	return why;
}

/*
 * Side k of point p: the runs the comparison uses, and where it uses none,
 * why: the first failure's reason (else the first short run's), and how
 * many runs had another.
 */
static void diff_compared(const struct diff *d, struct diff_point *p, int k)
{
	char why[DIFF_WHY_MAX], first[DIFF_WHY_MAX] = "";
	bool failed, first_failed = false;
	size_t other = 0;

	p->failed[k] = true;
	for (size_t n = 0; n < p->count[k]; n++) {
		if (!run_left_out(d->side[k].runs, p->run[k][n], &failed, why,
				  sizeof(why))) {
			p->compared[k]++;
			continue;
		}
		p->failed[k] &= failed;
		/* A failure is the news, a short run not. */
		if (!first[0] || (failed && !first_failed)) {
			snprintf(first, sizeof(first), "%s", why);
			first_failed = failed;
		}
	}
	for (size_t n = 0; n < p->count[k]; n++)
		other += run_left_out(d->side[k].runs, p->run[k][n], &failed,
				      why, sizeof(why)) &&
			 strcmp(why, first) != 0;
	if (other)
		snprintf(p->why[k], sizeof(p->why[k]),
			 "%.120s (%zu run%s for another reason)", first, other,
			 other == 1 ? "" : "s");
	else
		snprintf(p->why[k], sizeof(p->why[k]), "%s", first);
}

bool diff_uncompared(const struct diff *d, size_t j, int k)
{
	return d->point[j].count[k] && !d->point[j].compared[k];
}

size_t diff_uncompared_new(const struct diff *d)
{
	size_t n = 0;

	for (size_t j = 0; j < d->point_count; j++)
		n += diff_uncompared(d, j, 1);
	return n;
}

static int double_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of n values (n > 0), sorted in place. */
static double median_of(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), double_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * One side's runs at a point: their values (values[], count + 1 of them)
 * and the estimate of stats_point(); the number of runs with a value.
 */
static size_t diff_side(const struct diff *d, const struct diff_point *p, int k,
			const struct estimate_of *of, double *values,
			struct stats_point *estimate)
{
	struct stats_series *series = calloc(p->count[k] + 1, sizeof(*series));
	bool positive = true;
	size_t n = 0;

	*estimate = (struct stats_point){.spread = NAN};
	if (!series)
		return 0;
	for (size_t j = 0; j < p->count[k]; j++)
		n += run_value(d->side[k].runs, p->run[k][j], of, &values[n],
			       &series[n]);
	for (size_t j = 0; j < n; j++)
		positive &= values[j] > 0;
	if (n && positive)
		stats_point(values, series, n, estimate);
	free(series);
	return n;
}

/* "Gbit/s delivered", "p99 round trip (us)", "CPU (%), sender" */
static void row_name(struct diff_row *row, const struct estimate_of *of)
{
	const struct metric *m;
	bool per;

	row->key = estimate_key(of);
	if (of->metric < 0 || strcmp(row->key, "gbps") == 0) {
		snprintf(row->metric, sizeof(row->metric), "%s",
			 of->metric >= 0	? "Gbit/s delivered"
			 : of->percentile == 99 ? "p99 round trip (us)"
						: "p50 round trip (us)");
		return;
	}
	m = &metrics[of->metric];
	per = m->unit[0] == '/';
	row->side = m->delivered ? NULL : of->sender ? "sender" : "receiver";
	snprintf(row->metric, sizeof(row->metric), "%s%s%s%s%s%s", m->label,
		 m->unit[0] && !per ? " (" : "", m->unit,
		 m->unit[0] && !per ? ")" : "", row->side ? ", " : "",
		 row->side ? row->side : "");
}

/*
 * The change from old to new and what can be said of it: its interval by
 * Welch's t, none with fewer than DIFF_MIN_RUNS runs a side (and how many
 * would tell); the U test's p-value beside it.
 */
static void row_change(struct diff_row *row, const struct stats_point est[2],
		       double *const values[2])
{
	row->change = (struct stats_difference){.ratio = NAN,
						.low = NAN,
						.high = NAN,
						.outcome = STATS_TOO_FEW_RUNS};
	if (est[0].runs && est[1].runs)
		stats_compare(&est[1], &est[0], true, &row->change);
	row->p = stats_utest(values[0], row->runs[0], values[1], row->runs[1]);
	if (row->runs[0] >= DIFF_MIN_RUNS && row->runs[1] >= DIFF_MIN_RUNS)
		return;
	row->too_few = true;
	row->change.low = row->change.high = NAN;
	row->change.outcome = STATS_TOO_FEW_RUNS;
	if (est[0].runs >= 2 && est[1].runs >= 2)
		row->runs_needed = stats_runs_to_tell(
			&est[0], &est[1], STATS_MIN_EFFECT, DIFF_RUNS_HINT_MAX);
}

/* The row of a figure at point j, if both exports measured it there. */
static int diff_row_add(struct diff *d, size_t j, const struct estimate_of *of)
{
	const struct diff_point *p = &d->point[j];
	double *values[2] = {calloc(p->count[0] + 1, sizeof(double)),
			     calloc(p->count[1] + 1, sizeof(double))};
	struct stats_point estimate[2];
	struct diff_row row = {.point = j, .p = NAN, .test = d->how.test};
	int r = -ENOMEM;
	void *more;

	if (!values[0] || !values[1])
		goto out;
	r = 0;
	row_name(&row, of);
	row.drift = drift_of(d->how.drift, d->how.drift_count, row.key,
			     row.side);
	for (int k = 0; k < 2; k++) {
		row.runs[k] = diff_side(d, p, k, of, values[k], &estimate[k]);
		row.spread[k] = estimate[k].spread;
		estimate[k].drift = row.drift;
		if (!row.runs[k])
			goto out;
	}
	row_change(&row, estimate, values);
	for (int k = 0; k < 2; k++)
		row.median[k] = median_of(values[k], row.runs[k]);
	if (!isfinite(row.change.ratio) && row.median[0] != 0)
		row.change.ratio = row.median[1] / row.median[0];
	more = realloc(d->row, (d->row_count + 1) * sizeof(*d->row));
	if (!more) {
		r = -ENOMEM;
		goto out;
	}
	d->row = more;
	d->row[d->row_count++] = row;
out:
	free(values[0]);
	free(values[1]);
	return r;
}

/* Every point of a mode, each with the figure of. */
static int diff_rows_of(struct diff *d, enum run_mode mode,
			const struct estimate_of *of)
{
	int r = 0;

	for (size_t j = 0; j < d->point_count && r == 0; j++)
		if (d->point[j].mode == mode)
			r = diff_row_add(d, j, of);
	return r;
}

/*
 * The rows, a figure at a time: the analysis' figure of stream points
 * (Gbit/s), then rr points' p50 and p99 round trips, then each metric of
 * the table, each side.
 */
static int diff_rows(struct diff *d)
{
	struct estimate_of of = estimate_figure_of(RUN_STREAM);
	int r = diff_rows_of(d, RUN_STREAM, &of);

	of = estimate_figure_of(RUN_RR);
	if (r == 0)
		r = diff_rows_of(d, RUN_RR, &of);
	of.percentile = 99;
	if (r == 0)
		r = diff_rows_of(d, RUN_RR, &of);
	for (size_t m = 0; m < metric_count && r == 0; m++) {
		if (strcmp(metrics[m].key, "gbps") == 0)
			continue;
		for (int side = 0; side < 2 && r == 0; side++) {
			if (metrics[m].delivered && side == 0)
				continue;
			of = (struct estimate_of){.metric = (int)m,
						  .sender = side == 0};
			for (size_t j = 0; j < d->point_count && r == 0; j++)
				r = diff_row_add(d, j, &of);
		}
	}
	return r;
}

/* Every leaf under item as "prefix.key" = text, into the object out. */
static void flatten(const cJSON *item, const char *prefix, cJSON *out)
{
	char path[512], text[1024];
	const cJSON *child;

	if (cJSON_IsObject(item) && item->child) {
		cJSON_ArrayForEach(child, item)
		{
			snprintf(path, sizeof(path), "%s.%s", prefix,
				 child->string);
			flatten(child, path, out);
		}
		return;
	}
	value_text(item, text, sizeof(text));
	cJSON_AddStringToObject(out, prefix, text);
}

/* The host, the environment and the settings of side k, flattened. */
static cJSON *diff_context(const struct diff *d, int k)
{
	const struct session *s = d->side[k].context;
	cJSON *out = cJSON_CreateObject(), *part;

	part = codec_host(&s->host);
	flatten(part, "host", out);
	cJSON_Delete(part);
	part = s->has_env ? codec_environment(&s->env) : cJSON_CreateNull();
	flatten(part, "environment", out);
	cJSON_Delete(part);
	part = options_to_preset(&s->options);
	flatten(part, "settings", out);
	cJSON_Delete(part);
	return out;
}

static void difference_add(cJSON *list, const char *key, const char *old,
			   const char *new)
{
	cJSON *item = cJSON_CreateObject();

	cJSON_AddStringToObject(item, "key", key);
	cJSON_AddItemToObject(item, "old",
			      old ? cJSON_CreateString(old)
				  : cJSON_CreateNull());
	cJSON_AddItemToObject(item, "new",
			      new ? cJSON_CreateString(new)
				  : cJSON_CreateNull());
	cJSON_AddItemToArray(list, item);
}

/* What differs besides the runs: [{"key", "old", "new"}], null: absent. */
static void diff_context_changes(struct diff *d)
{
	cJSON *old = diff_context(d, 0), *new = diff_context(d, 1);
	const cJSON *a, *b;

	d->differences = cJSON_CreateArray();
	cJSON_ArrayForEach(a, old)
	{
		b = cJSON_GetObjectItemCaseSensitive(new, a->string);
		if (!b || strcmp(a->valuestring, b->valuestring) != 0)
			difference_add(d->differences, a->string,
				       a->valuestring,
				       b ? b->valuestring : NULL);
	}
	cJSON_ArrayForEach(
		b, new) if (!cJSON_GetObjectItemCaseSensitive(old, b->string))
		difference_add(d->differences, b->string, NULL, b->valuestring);
	cJSON_Delete(old);
	cJSON_Delete(new);
}

/* "+12.3%", "-0.4%" of a ratio. */
static void percent(double ratio, char *out, size_t size)
{
	if (isfinite(ratio))
		snprintf(out, size, "%+.1f%%", (ratio - 1) * 100);
	else
		snprintf(out, size, "?");
}

bool diff_row_interval(const struct diff_row *row)
{
	return isfinite(row->change.low) && isfinite(row->change.high);
}

bool diff_row_too_few(const struct diff_row *row)
{
	size_t need = stats_utest_runs_needed(STATS_UTEST_ALPHA);

	if (row->test == DIFF_TEST_UTEST)
		return !(row->p <= STATS_UTEST_ALPHA) && row->runs[0] < need &&
		       row->runs[1] < need;
	return row->too_few;
}

bool diff_row_significant(const struct diff_row *row)
{
	if (row->test == DIFF_TEST_UTEST)
		return row->p < STATS_UTEST_ALPHA;
	return !row->too_few && diff_row_interval(row) &&
	       (row->change.low > 1 + DIFF_MIN_CHANGE ||
		row->change.high < 1 / (1 + DIFF_MIN_CHANGE));
}

/* "too few runs to tell (n=2 vs 3): about 6 runs a side would tell ..." */
static void too_few_text(const struct diff_row *row, char *out, size_t size)
{
	char p[24] = "";
	int len;

	if (row->test == DIFF_TEST_UTEST && !isnan(row->p))
		snprintf(p, sizeof(p), ", p=%.3f", row->p);
	len = snprintf(out, size,
		       "too few runs to tell (n=%zu vs %zu%s): ", row->runs[0],
		       row->runs[1], p);
	size_t need = row->runs_needed;

	if (len < 0 || (size_t)len >= size)
		return;
	out += len;
	size -= (size_t)len;
	if (row->test == DIFF_TEST_UTEST)
		snprintf(out, size,
			 "the U test needs %zu runs a side at p < %g",
			 stats_utest_runs_needed(STATS_UTEST_ALPHA),
			 STATS_UTEST_ALPHA);
	else if (!need)
		snprintf(out, size, "%d runs a side at least", DIFF_MIN_RUNS);
	else if (need == SIZE_MAX &&
		 STATS_Z95 * sqrt(2) * row->drift >= log(1 + STATS_MIN_EFFECT))
		snprintf(
			out, size,
			"no number of runs tells %.0f%% through a %.3g%% drift",
			STATS_MIN_EFFECT * 100, row->drift * 100);
	else if (need == SIZE_MAX)
		snprintf(out, size,
			 "more than %d runs a side to tell a %.0f%% change",
			 DIFF_RUNS_HINT_MAX, STATS_MIN_EFFECT * 100);
	else
		snprintf(out, size,
			 "about %zu runs a side would tell a %.0f%% change",
			 need < DIFF_MIN_RUNS ? DIFF_MIN_RUNS : need,
			 STATS_MIN_EFFECT * 100);
}

void diff_change_text(const struct diff_row *row, char *out, size_t size)
{
	char ratio[24], low[24], high[24];
	bool changed = diff_row_significant(row);

	if (diff_row_too_few(row)) {
		too_few_text(row, out, size);
		return;
	}
	if (row->test == DIFF_TEST_UTEST) {
		/* As benchstat says it: the medians' change, the p-value. */
		percent(row->median[0] ? row->median[1] / row->median[0] : NAN,
			ratio, sizeof(ratio));
		if (isnan(row->p))
			snprintf(out, size, "~ (all equal n=%zu+%zu)",
				 row->runs[0], row->runs[1]);
		else
			snprintf(out, size, "%s (p=%.3f n=%zu+%zu)",
				 changed ? ratio : "~", row->p, row->runs[0],
				 row->runs[1]);
		return;
	}
	percent(row->change.ratio, ratio, sizeof(ratio));
	percent(row->change.low, low, sizeof(low));
	percent(row->change.high, high, sizeof(high));
	if (!diff_row_interval(row))
		snprintf(out, size, "%s (no interval: a figure of 0)", ratio);
	else
		snprintf(out, size, "%s (%s .. %s)", changed ? ratio : "~", low,
			 high);
}

/* "4.012", "26.9k", "1.23M": four digits at most, as benchstat shows. */
static void figure_text(double v, char *out, size_t size)
{
	static const struct {
		double from, unit;
		const char *prefix;
	} si[] = {{1e9, 1e9, "G"}, {1e6, 1e6, "M"}, {1e4, 1e3, "k"}};

	for (size_t i = 0; i < sizeof(si) / sizeof(si[0]); i++)
		if (fabs(v) >= si[i].from) {
			snprintf(out, size, "%.4g%s", v / si[i].unit,
				 si[i].prefix);
			return;
		}
	snprintf(out, size, "%.4g", v);
}

/* "4.012 ±3% n=3" */
void diff_side_text(const struct diff_row *row, int k, char *out, size_t size)
{
	char figure[24];

	figure_text(row->median[k], figure, sizeof(figure));
	if (isfinite(row->spread[k]))
		snprintf(out, size, "%s ±%.0f%% n=%zu", figure,
			 row->spread[k] * 100, row->runs[k]);
	else
		snprintf(out, size, "%s n=%zu", figure, row->runs[k]);
}

int diff_build(struct diff *d, const struct diff_side side[2],
	       const struct diff_how *how)
{
	cJSON *settings[2] = {diff_settings(&side[0]), diff_settings(&side[1])};
	int r = settings[0] && settings[1] ? 0 : -ENOMEM;

	*d = (struct diff){.side = {side[0], side[1]}, .how = *how};
	if (r == 0)
		drop_treatments(settings);
	for (int k = 0; k < 2 && r == 0; k++)
		for (size_t i = 0; r == 0 && i < side[k].count; i++)
			r = diff_match(d, k, side[k].first + i,
				       cJSON_GetArrayItem(settings[k], (int)i));
	cJSON_Delete(settings[0]);
	cJSON_Delete(settings[1]);
	if (r == 0 && d->point_count)
		diff_labels(d);
	for (size_t j = 0; r == 0 && j < d->point_count; j++)
		for (int k = 0; k < 2; k++)
			diff_compared(d, &d->point[j], k);
	if (r == 0)
		diff_context_changes(d);
	if (r == 0)
		r = diff_rows(d);
	/* Each row keeps its drift: the caller's rules need not outlive. */
	d->how.drift = NULL;
	d->how.drift_count = 0;
	if (r < 0)
		diff_fini(d);
	return r;
}

void diff_fini(struct diff *d)
{
	for (size_t j = 0; j < d->point_count; j++) {
		cJSON_free(d->point[j].key);
		cJSON_Delete(d->point[j].settings);
		free(d->point[j].run[0]);
		free(d->point[j].run[1]);
	}
	free(d->point);
	free(d->row);
	cJSON_Delete(d->differences);
	*d = (struct diff){0};
}

/* One line, escaped: it may hold a file's words. */
static void say(const struct diff_text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void say(const struct diff_text *t, const char *fmt, ...)
{
	char line[512], *safe;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	safe = text_escape(line);
	t->line(t->arg, safe ? safe : line);
	free(safe);
}

static void text_context(const struct diff *d, const struct diff_text *t)
{
	const cJSON *item;

	if (!cJSON_GetArraySize(d->differences))
		say(t, "host, settings and environment: the same");
	else
		say(t, "host, settings and environment that differ (old -> "
		       "new):");
	cJSON_ArrayForEach(item, d->differences)
	{
		const cJSON *old = cJSON_GetObjectItem(item, "old");
		const cJSON *new = cJSON_GetObjectItem(item, "new");

		say(t, "  %s: %s -> %s",
		    cJSON_GetObjectItem(item, "key")->valuestring,
		    old->valuestring ? old->valuestring : "(none)",
		    new->valuestring ? new->valuestring : "(none)");
	}
	/*
	 * Each side's own runs, numbered as its file numbers them: with
	 * --load OLD NEW the old side's session analyses the new runs too.
	 */
	for (int k = 0; k < 2; k++) {
		const struct diff_side *side = &d->side[k];
		char busy[sizeof(side->context->analysis.busy_why)];

		analysis_busy_why(side->runs->results + side->first,
				  side->count, busy, sizeof(busy));
		if (busy[0])
			say(t, "%s measured on a busy host: %s",
			    k ? "new" : "old", busy);
	}
}

void diff_legend(const struct diff *d, char *out, size_t size)
{
	int len = snprintf(out, size,
			   "old, new: the median of a point's runs ±their "
			   "spread (SD/mean; of its intervals for one run), "
			   "n runs; change: ");

	if (len < 0 || (size_t)len >= size)
		return;
	if (d->how.test == DIFF_TEST_UTEST)
		snprintf(out + len, size - (size_t)len,
			 "of the medians where benchstat's test, "
			 "Mann-Whitney's U (two-sided), gives p < %g; ~ "
			 "where not",
			 STATS_UTEST_ALPHA);
	else
		snprintf(out + len, size - (size_t)len,
			 "new over old (the runs' geometric means) and its "
			 "%.0f%% interval, by Welch's t on the runs' logs with "
			 "each run's intervals a floor under their spread, "
			 "widened by the figure's drift between two studies "
			 "(--drift, beside each figure); ~ unless it lies "
			 "wholly beyond %.0f%% either way",
			 STATS_INTERVAL_LEVEL * 100, DIFF_MIN_CHANGE * 100);
}

void diff_change_heading(const struct diff_row *row, char *out, size_t size)
{
	if (row->test == DIFF_TEST_WELCH)
		snprintf(out, size, "change (drift %.3g%%)", row->drift * 100);
	else
		snprintf(out, size, "change");
}

/* text said in lines of t's width at most, the later ones indented. */
static void say_wrapped(const struct diff_text *t, const char *text)
{
	int width = t->width > 20 ? t->width : 0;
	const char *at = text;
	bool first = true;

	while (width && (int)strlen(at) + (first ? 0 : 2) > width) {
		int room = width - (first ? 0 : 2), cut = room;

		while (cut > 0 && at[cut] != ' ')
			cut--;
		if (cut == 0)
			cut = room;
		say(t, "%s%.*s", first ? "" : "  ", cut, at);
		at += cut + (at[cut] == ' ');
		first = false;
	}
	say(t, "%s%s", first ? "" : "  ", at);
}

/* text, then spaces to width columns (a UTF-8 character is one). */
static size_t cell(char *out, size_t size, const char *text, int width)
{
	int columns = 0;

	for (const char *c = text; *c; c++)
		columns += ((unsigned char)*c & 0xc0) != 0x80;
	return (size_t)snprintf(out, size, "%s%*s  ", text,
				width > columns ? width - columns : 0, "");
}

/* The widest name of a point or a metric: the first column's width. */
static int names_width(const struct diff *d)
{
	int width = 24;

	for (size_t j = 0; j < d->point_count; j++)
		if ((int)strlen(d->point[j].label) > width)
			width = (int)strlen(d->point[j].label);
	for (size_t i = 0; i < d->row_count; i++)
		if ((int)strlen(d->row[i].metric) > width)
			width = (int)strlen(d->row[i].metric);
	return width;
}

static void text_rows(const struct diff *d, const struct diff_text *t)
{
	int width = names_width(d);
	bool narrow = t->width && width + 2 + 22 + 22 + 30 > t->width;
	char old[48], new[48], change[96], heading[48], line[512];

	for (size_t i = 0; i < d->row_count; i++) {
		const struct diff_row *row = &d->row[i];
		size_t len = 0;

		if (i == 0 || strcmp(row->metric, d->row[i - 1].metric) != 0) {
			diff_change_heading(row, heading, sizeof(heading));
			say(t, "%s", "");
			if (narrow)
				say(t, "%s: old -> new, %s", row->metric,
				    heading);
			else
				say(t, "%-*s  %-20s  %-20s  %s", width,
				    row->metric, "old", "new", heading);
		}
		diff_side_text(row, 0, old, sizeof(old));
		diff_side_text(row, 1, new, sizeof(new));
		diff_change_text(row, change, sizeof(change));
		if (narrow) {
			say(t, "%s", d->point[row->point].label);
			say(t, "  %s -> %s  %s", old, new, change);
			continue;
		}
		len += cell(line + len, sizeof(line) - len,
			    d->point[row->point].label, width);
		len += cell(line + len, sizeof(line) - len, old, 20);
		len += cell(line + len, sizeof(line) - len, new, 20);
		snprintf(line + len, sizeof(line) - len, "%s", change);
		say(t, "%s", line);
	}
}

void diff_text(const struct diff *d, const struct diff_text *t)
{
	char legend[512];

	text_context(d, t);
	diff_legend(d, legend, sizeof(legend));
	say(t, "%s", "");
	say_wrapped(t, legend);
	text_rows(d, t);
	say(t, "%s", "");
	for (int k = 0; k < 2; k++)
		for (size_t j = 0; j < d->point_count; j++) {
			const struct diff_point *p = &d->point[j];

			if (p->count[k] && !p->count[!k])
				say(t, "only in %s: %s (%zu run%s)",
				    k ? "new" : "old", p->label, p->count[k],
				    p->count[k] == 1 ? "" : "s");
		}
	for (int k = 0; k < 2; k++)
		for (size_t j = 0; j < d->point_count; j++) {
			const struct diff_point *p = &d->point[j];

			if (diff_uncompared(d, j, k))
				say(t, "%s: %s: %zu run%s, %s: %s",
				    k ? "new" : "old", p->label, p->count[k],
				    p->count[k] == 1 ? "" : "s",
				    p->failed[k] ? p->count[k] == 1
							   ? "failed"
							   : "all failed"
						 : "none compared",
				    p->why[k]);
		}
}
