/*
 * The gate: each rule against the rows of its figure, then what else the
 * comparison should not hide.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate.h"

const char *const gate_kind_names[] = {
	[GATE_BROKEN] = "broken",	  [GATE_FAILED] = "failed",
	[GATE_UNJUDGED] = "unjudged",	  [GATE_NOTHING] = "nothing",
	[GATE_ONE_SIDE] = "one-side",	  [GATE_LEFT_OUT] = "left-out",
	[GATE_DIFFERENCE] = "difference", [GATE_CHANGE] = "change",
};

static int gate_add(struct gate *g, enum gate_kind kind,
		    const struct rule *rule, const struct diff_row *row,
		    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int gate_add(struct gate *g, enum gate_kind kind,
		    const struct rule *rule, const struct diff_row *row,
		    const char *fmt, ...)
{
	struct gate_finding *f;
	va_list ap;
	void *more = realloc(g->finding, (g->count + 1) * sizeof(*g->finding));

	if (!more)
		return -ENOMEM;
	g->finding = more;
	f = &g->finding[g->count++];
	*f = (struct gate_finding){.kind = kind, .rule = rule, .row = row};
	va_start(ap, fmt);
	vsnprintf(f->text, sizeof(f->text), fmt, ap);
	va_end(ap);
	return 0;
}

/* "one-copy 4K x1 stream" or "one-copy 4K x1 stream, sender" */
static void row_where(const struct diff *d, const struct diff_row *row,
		      char *out, size_t size)
{
	snprintf(out, size, "%s%s%s", d->point[row->point].label,
		 row->side ? ", " : "", row->side ? row->side : "");
}

/* Whether the whole interval of row's change lies beyond rule's limit. */
static bool rule_broken(const struct rule *rule, const struct diff_row *row)
{
	if (rule->above)
		return row->change.low > rule->limit;
	return row->change.high < rule->limit;
}

/* One rule against every row of its figure. */
static int gate_rule(struct gate *g, const struct diff *d,
		     const struct rule *rule)
{
	char where[DIFF_LABEL_MAX + 16], change[200];
	size_t judged = 0, rows = 0;
	int r = 0;

	for (size_t i = 0; i < d->row_count && r == 0; i++) {
		const struct diff_row *row = &d->row[i];

		if (!rule_matches(rule, row->key, row->side))
			continue;
		rows++;
		row_where(d, row, where, sizeof(where));
		diff_change_text(row, change, sizeof(change));
		if (!diff_row_interval(row)) {
			r = gate_add(g, GATE_UNJUDGED, rule, row,
				     "%s not judged at %s: %s", rule->text,
				     where, change);
			continue;
		}
		judged++;
		if (!rule_broken(rule, row))
			continue;
		g->broken++;
		r = gate_add(g, GATE_BROKEN, rule, row, "%s broken at %s: %s",
			     rule->text, where, change);
	}
	g->judged += judged;
	if (r == 0 && !judged)
		r = gate_add(g, GATE_NOTHING, rule, NULL,
			     "%s: no point to judge it at (%s)", rule->text,
			     rows ? "every row has too few runs to tell"
				  : "no row of this figure in both exports");
	return r;
}

/*
 * Side k of point j: its runs the comparison left out, said with the
 * first's reason as diff.c found it; a point of the new side with runs and
 * none to compare fails the gate, as it fails --diff.
 */
static int gate_runs(struct gate *g, const struct diff *d, size_t j, int k)
{
	const struct diff_point *p = &d->point[j];
	size_t out = p->count[k] - p->compared[k];

	if (!out)
		return 0;
	if (k == 1 && diff_uncompared(d, j, 1)) {
		g->status = 1;
		return gate_add(g, GATE_FAILED, NULL, NULL,
				"%s: no new run to compare (%zu run%s, %s: %s)",
				p->label, p->count[1],
				p->count[1] == 1 ? "" : "s",
				p->failed[1] ? "all failed" : "none compared",
				p->why[1]);
	}
	return gate_add(g, GATE_LEFT_OUT, NULL, NULL,
			"%s: %s: %zu of %zu runs left out (%s)",
			k ? "new" : "old", p->label, out, p->count[k],
			p->why[k]);
}

/* Points only one side has, and the runs each side left out. */
static int gate_points(struct gate *g, const struct diff *d)
{
	int r = 0;

	for (size_t j = 0; j < d->point_count && r == 0; j++) {
		const struct diff_point *p = &d->point[j];

		for (int k = 0; k < 2 && r == 0; k++)
			if (p->count[k] && !p->count[!k])
				r = gate_add(g, GATE_ONE_SIDE, NULL, NULL,
					     "only in %s: %s (%zu run%s): "
					     "not compared",
					     k ? "new" : "old", p->label,
					     p->count[k],
					     p->count[k] == 1 ? "" : "s");
		for (int k = 0; k < 2 && r == 0; k++)
			r = gate_runs(g, d, j, k);
	}
	return r;
}

/*
 * Whether --change names a difference's key: the whole key
 * ("host.kernel"), the key without its group ("kernel", "fields"), or a
 * group or part of it ("host", "environment.sysctl").
 */
static bool change_names(const char *change, const char *key)
{
	const char *tail = strchr(key, '.');

	for (const char *at = change; *at;) {
		size_t n = strcspn(at, ",");

		if ((strlen(key) == n || key[n] == '.') &&
		    strncmp(key, at, n) == 0)
			return true;
		if (tail && strlen(tail + 1) == n &&
		    strncmp(tail + 1, at, n) == 0)
			return true;
		at += n + (at[n] == ',');
	}
	return false;
}

/* Each difference of host, settings and environment: named, or not. */
static int gate_differences(struct gate *g, const struct diff *d,
			    const char *change)
{
	const cJSON *item;
	int r = 0;

	cJSON_ArrayForEach(item, d->differences)
	{
		const char *key = cJSON_GetObjectItem(item, "key")->valuestring;
		const char *old = cJSON_GetObjectItem(item, "old")->valuestring;
		const char *new = cJSON_GetObjectItem(item, "new")->valuestring;
		const char *tail = strchr(key, '.');

		if (change_names(change, key))
			r = gate_add(g, GATE_CHANGE, NULL, NULL,
				     "the change under test: %s: %s -> %s", key,
				     old ? old : "(none)",
				     new ? new : "(none)");
		else
			r = gate_add(g, GATE_DIFFERENCE, NULL, NULL,
				     "%s differs (%s -> %s), not named as "
				     "the change under test (--change %s)",
				     key, old ? old : "(none)",
				     new ? new : "(none)",
				     tail ? tail + 1 : key);
		if (r < 0)
			break;
	}
	return r;
}

int gate_judge(const struct diff *d, const struct options *o, struct gate *g)
{
	bool nothing = false;
	int r = 0;

	*g = (struct gate){.rules = o->rules, .rule_count = o->rule_count};
	for (size_t i = 0; i < o->rule_count && r == 0; i++)
		r = gate_rule(g, d, &o->rules[i]);
	if (r == 0)
		r = gate_points(g, d);
	if (r == 0)
		r = gate_differences(g, d, o->change);
	if (r < 0) {
		gate_fini(g);
		return r;
	}
	for (size_t i = 0; i < g->count; i++)
		nothing |= g->finding[i].kind == GATE_NOTHING;
	if (g->broken)
		g->status = 1;
	else if (nothing && g->status == 0)
		g->status = 2;
	return 0;
}

void gate_fini(struct gate *g)
{
	free(g->finding);
	*g = (struct gate){0};
}

void gate_summary(const struct gate *g, char *out, size_t size)
{
	size_t rules = 0, failed = 0;

	for (size_t i = 0; i < g->rule_count; i++)
		for (size_t k = 0; k < g->count; k++)
			if (g->finding[k].kind == GATE_BROKEN &&
			    g->finding[k].rule == &g->rules[i]) {
				rules++;
				break;
			}
	for (size_t k = 0; k < g->count; k++)
		failed += g->finding[k].kind == GATE_FAILED;
	if (g->status == 0)
		snprintf(out, size,
			 "passed: %zu rule%s, no change beyond one (%zu "
			 "row%s judged)",
			 g->rule_count, g->rule_count == 1 ? "" : "s",
			 g->judged, g->judged == 1 ? "" : "s");
	else if (g->status == 1)
		snprintf(out, size, "failed: %zu rule%s broken at %zu row%s%s",
			 rules, rules == 1 ? "" : "s", g->broken,
			 g->broken == 1 ? "" : "s",
			 failed ? "; a point with no new run to compare" : "");
	else
		snprintf(out, size,
			 "cannot judge: a rule has no point to judge it at");
}
