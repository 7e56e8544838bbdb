/*
 * What the probe says, point by point: how much the load moved the tail of
 * a small request beside it (its p99 under the load over its p99 alone),
 * and whether the tail beside one strategy is worse than beside the plain
 * path (one-copy) at the same point, with the statistics of every other
 * verdict (stats.h): a run is the unit, figures are compared as logs,
 * one run per point gives a figure and no interval.  Two points compared
 * at throughputs more than the minimum effect apart are said to be so:
 * some of the difference may be the throughput's (--load-rate evens it).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "units.h"

/* The plain path the other strategies' probes are held against. */
#define PROBE_VERSUS "one-copy"

/* The runs of point p with a probe's round trips, alone and loaded. */
static size_t probe_runs(const struct analysis *a,
			 const struct run_result *results,
			 const struct analysis_point *p, size_t *out)
{
	size_t n = 0;

	for (size_t i = 0; i < p->runs; i++) {
		size_t k = a->member[p->first + i];
		const struct run_probe *probe = &results[k].probe;

		if (probe->present && probe->idle.rtt.count &&
		    probe->loaded.rtt.count && probe->idle.rtt.p99_us > 0 &&
		    probe->loaded.rtt.p99_us > 0)
			out[n++] = k;
	}
	return n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median_of(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * The figure of each of the runs (loaded p99, or loaded over idle p99),
 * their estimate, and the medians of a point's probe.
 */
static void probe_estimate(const struct run_result *results, const size_t *k,
			   size_t n, bool ratio, struct stats_point *out)
{
	double *figure = calloc(n + 1, sizeof(*figure));
	struct stats_series *unknown = calloc(n + 1, sizeof(*unknown));

	if (!figure || !unknown) {
		*out = (struct stats_point){.log_mean = NAN, .variance = NAN};
		goto out;
	}
	/* A run's p99 has no intervals of its own: no floor within runs. */
	for (size_t i = 0; i < n; i++) {
		const struct run_probe *p = &results[k[i]].probe;

		figure[i] = p->loaded.rtt.p99_us /
			    (ratio ? p->idle.rtt.p99_us : 1);
		unknown[i] = (struct stats_series){.spread = NAN,
						   .rel_se = NAN};
	}
	stats_point(figure, unknown, n, out);
out:
	free(figure);
	free(unknown);
}

/* The medians of the runs' Gbit/s, idle p50 and p99, loaded p50 and p99. */
static void probe_medians(const struct run_result *results, const size_t *k,
			  size_t n, struct analysis_probe *out)
{
	double *v = calloc(n + 1, sizeof(*v));

	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		v[i] = run_result_gbps(&results[k[i]]);
	out->gbps = median_of(v, n);
	for (size_t i = 0; i < n; i++)
		v[i] = results[k[i]].probe.idle.rtt.p50_us;
	out->idle_p50_us = median_of(v, n);
	for (size_t i = 0; i < n; i++)
		v[i] = results[k[i]].probe.idle.rtt.p99_us;
	out->idle_p99_us = median_of(v, n);
	for (size_t i = 0; i < n; i++)
		v[i] = results[k[i]].probe.loaded.rtt.p50_us;
	out->loaded_p50_us = median_of(v, n);
	for (size_t i = 0; i < n; i++)
		v[i] = results[k[i]].probe.loaded.rtt.p99_us;
	out->loaded_p99_us = median_of(v, n);
	free(v);
}

/* Point j's probe against one-copy's at the same point, if it has one. */
static void probe_versus(const struct analysis *a,
			 const struct run_result *results, size_t *k,
			 struct analysis_probe *out)
{
	const struct analysis_point *p = &a->points[out->point];
	const struct analysis_point *base;
	struct point_key versus = p->key;
	struct stats_point mine, theirs;
	struct analysis_probe them = {0};
	size_t n;

	if (strcmp(p->key.strategy->name, PROBE_VERSUS) == 0)
		return;
	versus.strategy = strategy_find(PROBE_VERSUS);
	base = analysis_find(a, &versus);
	if (!base || !base->runs)
		return;
	n = probe_runs(a, results, base, k);
	if (!n)
		return;
	probe_estimate(results, k, n, false, &theirs);
	probe_medians(results, k, n, &them);
	n = probe_runs(a, results, p, k);
	probe_estimate(results, k, n, false, &mine);
	stats_compare(&mine, &theirs, false, &out->versus);
	out->has_versus = true;
	out->versus_gbps = them.gbps;
	out->versus_p99_us = them.loaded_p99_us;
}

int analysis_probe_build(struct analysis *a, const struct run_result *results)
{
	size_t *k = calloc(a->runs + 1, sizeof(*k));

	a->probes = calloc(a->point_count + 1, sizeof(*a->probes));
	if (!k || !a->probes) {
		free(k);
		return -ENOMEM;
	}
	for (size_t j = 0; j < a->point_count; j++) {
		struct analysis_probe *out = &a->probes[a->probe_count];
		size_t n = probe_runs(a, results, &a->points[j], k);
		struct stats_point ratio;
		double t;

		if (!n)
			continue;
		*out = (struct analysis_probe){.point = j, .runs = n};
		probe_medians(results, k, n, out);
		probe_estimate(results, k, n, true, &ratio);
		out->ratio = exp(ratio.log_mean);
		out->low = out->high = NAN;
		if (n >= 2 && isfinite(ratio.variance)) {
			t = stats_t95(ratio.df) * sqrt(ratio.variance);
			out->low = exp(ratio.log_mean - t);
			out->high = exp(ratio.log_mean + t);
		}
		probe_versus(a, results, k, out);
		a->probe_count++;
	}
	free(k);
	return 0;
}

/* A ratio for people: "1.8", "0.29", "12", "3400"; "<0.01" below. */
static void ratio_text(double v, char *out, size_t size)
{
	if (v < 0.01)
		snprintf(out, size, "<0.01");
	else
		snprintf(out, size,
			 v < 1	  ? "%.2f"
			 : v < 10 ? "%.1f"
				  : "%.0f",
			 v);
}

/* "1.8x [1.5, 2.1]", or "1.8x" where there is no interval. */
static void times_text(double ratio, double low, double high, char *out,
		       size_t size)
{
	char r[16], l[16], h[16];

	ratio_text(ratio, r, sizeof(r));
	ratio_text(low, l, sizeof(l));
	ratio_text(high, h, sizeof(h));
	if (isfinite(low) && isfinite(high))
		snprintf(out, size, "%sx [%s, %s]", r, l, h);
	else
		snprintf(out, size, "%sx", r);
}

/* What the comparison with one-copy says: "1.3x [1.1, 1.6] ...: worse". */
static void versus_text(const struct analysis_probe *p, char *out, size_t size)
{
	const struct stats_difference *d = &p->versus;
	double apart = fabs(p->gbps / p->versus_gbps - 1);
	char times[64];
	const char *verdict;

	/* ratio says how many times better: its inverse is how much more. */
	times_text(1 / d->ratio, 1 / d->high, 1 / d->low, times, sizeof(times));
	verdict = d->outcome == STATS_AHEAD	  ? "better"
		  : d->outcome == STATS_BEHIND	  ? "worse"
		  : d->outcome == STATS_EQUAL	  ? "alike"
		  : d->outcome == STATS_UNDECIDED ? "not distinguishable"
						  : "one run each: no verdict";
	snprintf(out, size,
		 "; its p99 %s %s's (%.0f us): %s, at %s Gbit/s "
		 "(%.3g vs %.3g)",
		 times, PROBE_VERSUS, p->versus_p99_us, verdict,
		 apart <= STATS_MIN_EFFECT ? "equal" : "unequal", p->gbps,
		 p->versus_gbps);
}

void analysis_probe_text(const struct analysis *a,
			 const struct analysis_probe *p, char *out, size_t size)
{
	const struct analysis_point *pt = &a->points[p->point];
	char msg[24], knobs[96], times[64], versus[256] = "";

	units_format_size(pt->key.msg_size, msg, sizeof(msg));
	settings_stack_tag(&pt->key.stack, knobs, sizeof(knobs));
	times_text(p->ratio, p->low, p->high, times, sizeof(times));
	if (p->has_versus)
		versus_text(p, versus, sizeof(versus));
	snprintf(out, size,
		 "%s %s x%u%s%s: beside %s the probe's p99 is %s its p99 "
		 "alone (%.0f -> %.0f us, p50 %.0f us; %zu run%s, %.3g "
		 "Gbit/s)%s",
		 run_mode_name(pt->key.mode), msg, pt->key.threads,
		 rx_side_of(pt->key.rx)->tag, knobs, pt->key.strategy->name,
		 times, p->idle_p99_us, p->loaded_p99_us, p->loaded_p50_us,
		 p->runs, p->runs == 1 ? "" : "s", p->gbps, versus);
}
