/*
 * The analysis.  A point's spread is the range of its repeats; A beats B at a
 * size when A's worst run is better than B's best (or, with a single run
 * each, better by ANALYSIS_MARGIN).  Failed runs are left out.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "units.h"

static const char *const pairs[][2] = {
	{"one-copy", "two-copy"},  {"zero-copy", "two-copy"},
	{"zero-copy", "one-copy"}, {"uring-zc", "uring"},
	{"sendfile", "zero-copy"}, {"splice", "one-copy"},
};
#define PAIR_COUNT (sizeof(pairs) / sizeof(pairs[0]))

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static bool same_point(const struct analysis_point *p,
		       const struct run_config *c)
{
	return p->strategy == c->strategy && p->msg_size == c->msg_size &&
	       p->threads == c->threads && p->mode == c->mode &&
	       p->rx == c->settings.rx;
}

static double run_metric(const struct run_result *r)
{
	return r->config.mode == RUN_RR ? r->latency.p50_us : r->gbps;
}

static void point_fill(struct analysis_point *p,
		       const struct run_result *results, size_t count)
{
	double *v = malloc(count * sizeof(*v));
	double *p99 = malloc(count * sizeof(*p99));
	size_t n = 0;

	if (!v || !p99)
		goto out;
	for (size_t i = 0; i < count; i++) {
		const struct run_result *r = &results[i];

		/* A teaching run that broke the buffer rule proves nothing. */
		if (r->error || r->config.settings.unsafe_reuse ||
		    !same_point(p, &r->config))
			continue;
		p99[n] = r->latency.p99_us;
		v[n++] = run_metric(r);
	}
	p->runs = n;
	if (n) {
		p->median = median(v, n);
		p->min = v[0];
		p->max = v[n - 1];
		p->p99_median_us = median(p99, n);
	}
out:
	free(v);
	free(p99);
}

static const struct analysis_point *find_point(const struct analysis *a,
					       const char *strategy,
					       enum rx_mode rx, size_t msg_size,
					       unsigned int threads)
{
	for (size_t i = 0; i < a->point_count; i++) {
		const struct analysis_point *p = &a->points[i];

		if (p->runs && p->msg_size == msg_size &&
		    p->threads == threads && p->rx == rx &&
		    strcmp(p->strategy->name, strategy) == 0)
			return p;
	}
	return NULL;
}

/* 1: a beats b, -1: b beats a, 0: within the spread. */
static int compare(const struct analysis_point *a,
		   const struct analysis_point *b)
{
	bool lower_better = a->mode == RUN_RR;
	double a_worst = lower_better ? a->max : a->min;
	double a_best = lower_better ? a->min : a->max;
	double b_worst = lower_better ? b->max : b->min;
	double b_best = lower_better ? b->min : b->max;
	double margin = a->runs > 1 && b->runs > 1 ? 0 : ANALYSIS_MARGIN;

	if (lower_better) {
		if (a_worst < b_best * (1 - margin))
			return 1;
		if (b_worst < a_best * (1 - margin))
			return -1;
	} else {
		if (a_worst > b_best * (1 + margin))
			return 1;
		if (b_worst > a_best * (1 + margin))
			return -1;
	}
	return 0;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

static int add_crossovers(struct analysis *a, unsigned int threads)
{
	size_t *sizes = malloc(a->point_count * sizeof(*sizes));
	size_t n = 0;

	if (!sizes)
		return -ENOMEM;
	for (size_t i = 0; i < a->point_count; i++) {
		bool seen = false;

		for (size_t j = 0; j < n; j++)
			seen |= sizes[j] == a->points[i].msg_size;
		if (!seen && a->points[i].threads == threads)
			sizes[n++] = a->points[i].msg_size;
	}
	qsort(sizes, n, sizeof(*sizes), cmp_size);
	/* The pairs of strategies, then each strategy's two receive sides. */
	for (size_t k = 0; k < PAIR_COUNT + strategy_count(); k++) {
		bool rx_pair = k >= PAIR_COUNT;
		const char *name = rx_pair ? strategy_at(k - PAIR_COUNT)->name
					   : pairs[k][0];
		struct analysis_crossover c = {
			.threads = threads,
			.strategy = name,
			.versus = rx_pair ? name : pairs[k][1],
			.rx_pair = rx_pair,
			.verdict = VERDICT_TIE,
		};
		bool behind = false;

		for (size_t j = 0; j < n; j++) {
			const struct analysis_point *p = find_point(
				a, c.strategy, rx_pair ? RX_ZEROCOPY : RX_COPY,
				sizes[j], threads);
			const struct analysis_point *q = find_point(
				a, c.versus, RX_COPY, sizes[j], threads);
			int who;

			if (!p || !q)
				continue;
			c.sizes++;
			who = compare(p, q);
			if (who > 0 && c.verdict != VERDICT_FROM) {
				c.verdict = VERDICT_FROM;
				c.msg_size = sizes[j];
			}
			behind |= who < 0;
		}
		if (!c.sizes)
			continue;
		if (c.verdict != VERDICT_FROM && behind)
			c.verdict = VERDICT_NEVER;
		a->crossovers[a->crossover_count++] = c;
	}
	free(sizes);
	return 0;
}

static void zerocopy_why(struct analysis *a, const struct run_result *results,
			 size_t count)
{
	uint64_t completions = 0, copied = 0;
	bool two_hosts = false;

	for (size_t i = 0; i < count; i++) {
		if (!results[i].config.strategy->zerocopy)
			continue;
		a->has_zerocopy = true;
		two_hosts = two_hosts || results[i].config.role != RUN_BOTH;
		completions += results[i].totals.zc_completions;
		copied += results[i].totals.zc_copied;
	}
	if (!a->has_zerocopy || !completions)
		return;
	if (copied * 100 >= completions * 99)
		snprintf(a->zerocopy_why, sizeof(a->zerocopy_why),
			 "the kernel copied %.0f%% of zero-copy sends %s, so "
			 "pinning pages only added cost",
			 100.0 * (double)copied / (double)completions,
			 two_hosts ? "anyway (it does when the route to the "
				     "agent is local, or the NIC lacks "
				     "scatter-gather or checksum offload)"
				   : "at delivery (veth and loopback deliver "
				     "locally)");
	else
		snprintf(a->zerocopy_why, sizeof(a->zerocopy_why),
			 "%.0f%% of zero-copy sends left without a copy; the "
			 "kernel copied the other %.0f%%",
			 100.0 - 100.0 * (double)copied / (double)completions,
			 100.0 * (double)copied / (double)completions);
}

int analysis_build(const struct run_result *results, size_t count,
		   struct analysis *a)
{
	unsigned int *threads;
	size_t thread_count = 0;
	int r = 0;

	memset(a, 0, sizeof(*a));
	if (!count)
		return 0;
	a->points = calloc(count, sizeof(*a->points));
	threads = calloc(count, sizeof(*threads));
	a->crossovers = calloc(count * (PAIR_COUNT + strategy_count()),
			       sizeof(*a->crossovers));
	if (!a->points || !threads || !a->crossovers) {
		free(threads);
		analysis_fini(a);
		return -ENOMEM;
	}
	for (size_t i = 0; i < count; i++) {
		const struct run_config *c = &results[i].config;
		bool seen = false;

		for (size_t j = 0; j < a->point_count && !seen; j++)
			seen = same_point(&a->points[j], c);
		if (!seen) {
			a->points[a->point_count] = (struct analysis_point){
				.strategy = c->strategy,
				.msg_size = c->msg_size,
				.threads = c->threads,
				.mode = c->mode,
				.rx = c->settings.rx,
			};
			point_fill(&a->points[a->point_count++], results,
				   count);
		}
		seen = false;
		for (size_t j = 0; j < thread_count; j++)
			seen |= threads[j] == c->threads;
		if (!seen)
			threads[thread_count++] = c->threads;
	}
	for (size_t i = 0; i < thread_count && r == 0; i++)
		r = add_crossovers(a, threads[i]);
	zerocopy_why(a, results, count);
	free(threads);
	return r;
}

void analysis_fini(struct analysis *a)
{
	free(a->points);
	free(a->crossovers);
	memset(a, 0, sizeof(*a));
}

const char *analysis_verdict_name(enum analysis_verdict verdict)
{
	static const char *const names[] = {
		[VERDICT_FROM] = "from",
		[VERDICT_NEVER] = "never",
		[VERDICT_TIE] = "tie",
	};

	return names[verdict];
}

void analysis_crossover_text(const struct analysis_crossover *c, char *out,
			     size_t size)
{
	const char *with = c->rx_pair ? " with zero-copy receive" : "";
	const char *versus = c->rx_pair ? " with copy receive" : "";
	char bytes[24];

	switch (c->verdict) {
	case VERDICT_FROM:
		units_format_size(c->msg_size, bytes, sizeof(bytes));
		snprintf(out, size, "threads %u: %s%s beats %s%s from %s",
			 c->threads, c->strategy, with, c->versus, versus,
			 bytes);
		break;
	case VERDICT_NEVER:
		snprintf(out, size,
			 "threads %u: %s%s never beats %s%s (behind or tied "
			 "at every size)",
			 c->threads, c->strategy, with, c->versus, versus);
		break;
	case VERDICT_TIE:
		snprintf(out, size,
			 "threads %u: %s%s vs %s%s: tie (within the spread at "
			 "every size)",
			 c->threads, c->strategy, with, c->versus, versus);
		break;
	}
}
