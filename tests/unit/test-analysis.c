/*
 * The analysis on results made up here, so that every verdict is known in
 * advance: the statistics (the block bootstrap sees autocorrelation, t's
 * quantiles, the test's four outcomes and its refusal with one run), and the
 * analysis built on them (stream and rr apart, each verdict naming its mode,
 * flows, runs and intervals; short runs left out; a zero-copy lead over a
 * copy the kernel made anyway marked suspect).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "figure.h"
#include "stats.h"
#include "tap.h"

#define RESULTS_MAX 64

static struct run_result results[RESULTS_MAX];
static struct analysis_run facts[RESULTS_MAX];
static size_t result_count;

/*
 * A stream run of strategy at size over threads: intervals of 100 ms around
 * gbps, wobbling by spread (deterministic), and a zero-copy run's copies.
 */
static struct run_result *add_run(const char *strategy, enum run_mode mode,
				  size_t size, unsigned int threads,
				  double figure, double spread,
				  size_t intervals)
{
	struct run_result *r = &results[result_count++];
	int gbps = metric_find("gbps"), msgs = metric_find("msgs_per_s");

	memset(r, 0, sizeof(*r));
	r->config.strategy = strategy_find(strategy);
	r->config.mode = mode;
	r->config.msg_size = size;
	r->config.threads = threads;
	r->measured_s = (double)intervals / 10;
	r->intervals = calloc(intervals + 1, sizeof(*r->intervals));
	r->interval_count = intervals + 1;
	/* A warm-up interval first, wildly off, which must not count. */
	metric_values_unknown(&r->intervals[0].side[1]);
	r->intervals[0].warmup = true;
	r->intervals[0].side[1].value[gbps] = figure * 100;
	r->intervals[0].side[1].value[msgs] = figure * 100;
	for (size_t i = 1; i <= intervals; i++) {
		double wobble = 1 + spread * sin((double)i * 2.1 +
						 (double)result_count);

		metric_values_unknown(&r->intervals[i].side[1]);
		r->intervals[i].t_s = (double)i / 10;
		r->intervals[i].length_s = 0.1;
		r->intervals[i].side[1].value[gbps] = figure * wobble;
		r->intervals[i].side[1].value[msgs] = 1e4 / figure * wobble;
	}
	if (mode == RUN_RR) {
		r->latency = (struct latency_summary){
			.count = 1000,
			.p50_us = figure,
			.p90_us = figure * 2,
			.p99_us = figure * 4,
			.p99_9_us = figure * 6,
			.max_us = figure * 8,
			.mean_us = figure * 1.5,
		};
		r->receiver.derived.value[gbps] = 0.1;
	} else {
		r->receiver.derived.value[gbps] = figure;
	}
	if (r->config.strategy->zerocopy) {
		r->totals.zc_sends = r->totals.zc_completions = 1000;
		r->totals.zc_copied = 1000;
	}
	return r;
}

static void build(struct analysis *a, uint64_t min_measured_ms)
{
	for (size_t i = 0; i < result_count; i++)
		analysis_run_read(&results[i], min_measured_ms, false,
				  &facts[i]);
	ok(analysis_build(results, facts, result_count, a) == 0,
	   "the analysis builds from %zu runs", result_count);
}

static void reset(void)
{
	for (size_t i = 0; i < result_count; i++)
		run_result_fini(&results[i]);
	result_count = 0;
}

static const struct analysis_crossover *find_crossover(const struct analysis *a,
						       enum run_mode mode,
						       unsigned int threads,
						       const char *strategy,
						       const char *versus)
{
	for (size_t i = 0; i < a->crossover_count; i++) {
		const struct analysis_crossover *c = &a->crossovers[i];

		if (c->mode == mode && c->threads == threads &&
		    strcmp(c->strategy, strategy) == 0 &&
		    strcmp(c->versus, versus) == 0)
			return c;
	}
	return NULL;
}

static void test_series(void)
{
	double iid[60], drift[60];
	struct stats_series a, b, again;

	/* Alternating values: no run of neighbours looks alike. */
	for (int i = 0; i < 60; i++) {
		iid[i] = 10 + (i % 2 ? 1 : -1) * (1 + (i % 7) * 0.1);
		drift[i] = 10 + (i < 30 ? -1.5 : 1.5) + (i % 2 ? 0.1 : -0.1);
	}
	stats_series(iid, 60, &a);
	stats_series(drift, 60, &b);
	stats_series(iid, 60, &again);
	ok(fabs(a.mean - 10) < 0.1 && a.count == 60 && a.block == 4,
	   "the series' mean and blocks of n^(1/3) (%.3f, %zu)", a.mean,
	   a.block);
	ok(a.rel_se == again.rel_se, "the bootstrap is deterministic");
	/* Both spread alike; only the drift is correlated in time. */
	ok(b.rel_se > 2 * a.rel_se,
	   "neighbours that move together widen the error (%.4f vs %.4f)",
	   b.rel_se, a.rel_se);
	stats_series(iid, 1, &a);
	ok(a.count == 1 && isnan(a.rel_se) && isnan(a.spread),
	   "one interval has no spread");
}

static void test_t(void)
{
	ok(fabs(stats_t95(1) - 6.314) < 0.001 &&
		   fabs(stats_t95(4) - 2.132) < 0.001 &&
		   fabs(stats_t95(4.9) - 2.132) < 0.001,
	   "t(0.95) at 1 and 4 df, a fraction of one rounded down");
	ok(fabs(stats_t95(60) - 1.6706) < 0.0005 &&
		   fabs(stats_t95(1e6) - 1.6449) < 0.0005,
	   "t(0.95) past the table (%.4f, %.4f)", stats_t95(60),
	   stats_t95(1e6));
}

static void point_of(const double *figures, size_t n, double rel_se,
		     struct stats_point *p)
{
	struct stats_series series[8];

	for (size_t i = 0; i < n; i++)
		series[i] = (struct stats_series){.rel_se = rel_se,
						  .spread = rel_se * 3};
	stats_point(figures, series, n, p);
}

static void test_compare(void)
{
	const double fast[] = {3.0, 3.2, 2.9}, slow[] = {1.0, 1.1, 0.95};
	const double a1[] = {2.0, 2.4, 1.7}, b1[] = {2.1, 1.8, 2.3};
	const double same_a[] = {5.0, 5.01, 4.99}, same_b[] = {5.0, 4.99, 5.02};
	struct stats_point a, b;
	struct stats_difference d;

	point_of(fast, 3, 0.01, &a);
	point_of(slow, 3, 0.01, &b);
	stats_compare(&a, &b, true, &d);
	ok(d.outcome == STATS_AHEAD && d.low > 2.5 && d.high < 3.5,
	   "three times faster, 3 runs each: ahead (%.2f, %.2f .. %.2f)",
	   d.ratio, d.low, d.high);
	stats_compare(&b, &a, true, &d);
	ok(d.outcome == STATS_BEHIND, "and the other way round: behind");
	stats_compare(&a, &b, false, &d);
	ok(d.outcome == STATS_BEHIND,
	   "lower is better (a round trip): the larger is behind");
	point_of(a1, 3, 0.01, &a);
	point_of(b1, 3, 0.01, &b);
	stats_compare(&a, &b, true, &d);
	ok(d.outcome == STATS_UNDECIDED,
	   "runs that overlap: undecided (%.2f .. %.2f)", d.low, d.high);
	point_of(same_a, 3, 0.001, &a);
	point_of(same_b, 3, 0.001, &b);
	stats_compare(&a, &b, true, &d);
	ok(d.outcome == STATS_EQUAL,
	   "runs within 1%% of each other: equal (%.3f .. %.3f)", d.low,
	   d.high);
	/* The runs agree, but their own intervals do not: no precision. */
	point_of(same_a, 3, 0.2, &a);
	point_of(same_b, 3, 0.2, &b);
	stats_compare(&a, &b, true, &d);
	ok(d.outcome == STATS_UNDECIDED,
	   "runs that agree by chance get the intervals' spread");
	point_of(fast, 1, 0.001, &a);
	point_of(slow, 3, 0.001, &b);
	stats_compare(&a, &b, true, &d);
	ok(d.outcome == STATS_TOO_FEW_RUNS && isnan(d.low) && d.ratio > 2.5,
	   "one run: no verdict however large the difference (%.2f)", d.ratio);
}

/*
 * Two studies' points, +10% apart, each of 3 runs with a variance of its
 * log mean of 0.0004: Welch alone, df 4, t 2.1318, gives (1.0356 ..
 * 1.1684).  A drift of 3% a side adds 2 * 0.03^2 to the variance, with
 * no degrees of freedom: t(4) still, and the interval is exp(ln 1.1 -+
 * 2.1318 * sqrt(0.0026)) = (0.986699 .. 1.226312), by hand: wider.
 */
static void test_drift(void)
{
	struct stats_point a = {.runs = 3,
				.log_mean = log(1.1),
				.variance = 0.0004,
				.df = 2},
			   b = {.runs = 3,
				.log_mean = 0,
				.variance = 0.0004,
				.df = 2};
	struct stats_difference d;

	stats_compare(&a, &b, true, &d);
	ok(fabs(d.low - 1.035634) < 1e-5 && fabs(d.high - 1.168366) < 1e-5,
	   "no drift: Welch's interval (%.6f .. %.6f)", d.low, d.high);
	a.drift = b.drift = 0.03;
	stats_compare(&a, &b, true, &d);
	ok(fabs(d.low - 0.986699) < 1e-5 && fabs(d.high - 1.226312) < 1e-5 &&
		   fabs(d.ratio - 1.1) < 1e-12,
	   "a 3%% drift a side: (%.6f .. %.6f), the ratio unmoved", d.low,
	   d.high);
	ok(stats_runs_to_tell(&a, &b, STATS_MIN_EFFECT, 50) == SIZE_MAX,
	   "no number of runs tells 5%% through a 3%% drift a side");
	a.drift = b.drift = 0.005;
	ok(stats_runs_to_tell(&a, &b, STATS_MIN_EFFECT, 50) <= 50,
	   "through 0.5%% some number of runs does (%zu)",
	   stats_runs_to_tell(&a, &b, STATS_MIN_EFFECT, 50));
}

static void test_modes_apart(void)
{
	const struct analysis_crossover *c;
	struct analysis a;
	char text[512];

	reset();
	/* Stream at 1K and 16K, three runs each; rr at 64 B only. */
	for (int k = 0; k < 3; k++) {
		add_run("two-copy", RUN_STREAM, 1024, 1, 1.0 + 0.02 * k, 0.02,
			20);
		add_run("one-copy", RUN_STREAM, 1024, 1, 1.01 - 0.02 * k, 0.02,
			20);
		add_run("two-copy", RUN_STREAM, 16384, 1, 4.0 + 0.05 * k, 0.02,
			20);
		add_run("one-copy", RUN_STREAM, 16384, 1, 6.0 + 0.05 * k, 0.02,
			20);
		add_run("two-copy", RUN_RR, 64, 1, 80 + k, 0.02, 20);
		add_run("one-copy", RUN_RR, 64, 1, 40 + k, 0.02, 20);
	}
	build(&a, 1000);
	c = find_crossover(&a, RUN_STREAM, 1, "one-copy", "two-copy");
	ok(c && c->verdict == VERDICT_FROM && c->msg_size == 16384 &&
		   c->size_count == 2 && c->size[0].msg_size == 1024,
	   "stream: one-copy beats two-copy from 16K, over 1K and 16K only");
	analysis_crossover_text(c, text, sizeof(text));
	ok(strstr(text, "stream, 1 flow: one-copy beats two-copy from 16K") &&
		   strstr(text, "; 12 runs, 240 intervals)"),
	   "its text names mode, flows, runs and intervals: %s", text);
	c = find_crossover(&a, RUN_RR, 1, "one-copy", "two-copy");
	ok(c && c->verdict == VERDICT_FROM && c->size_count == 1 &&
		   c->size[0].msg_size == 64,
	   "rr: compared at 64 B alone, lower round trip wins");
	analysis_crossover_text(c, text, sizeof(text));
	ok(strstr(text, "rr (p50), 1 flow: one-copy beats two-copy at 64 ") !=
		   NULL,
	   "%s", text);
	ok(a.point_count == 6 && a.runs == 18 && a.short_runs == 0,
	   "6 points of 18 runs");
	analysis_fini(&a);
}

static void test_short_and_single(void)
{
	const struct analysis_crossover *c;
	struct analysis a;
	char text[512];

	reset();
	add_run("two-copy", RUN_STREAM, 4096, 2, 6.0, 0.05, 10);
	add_run("one-copy", RUN_STREAM, 4096, 2, 2.0, 0.05, 10);
	/* Stepping through a control: runs of 0.3 s. */
	add_run("one-copy", RUN_STREAM, 4096, 2, 9.0, 0.05, 3);
	add_run("one-copy", RUN_STREAM, 4096, 2, 9.0, 0.05, 3);
	build(&a, 1000);
	ok(a.short_runs == 2 && a.runs == 2 && facts[2].short_run &&
		   !facts[0].short_run,
	   "runs under 1 s are short and left out (%zu)", a.short_runs);
	c = find_crossover(&a, RUN_STREAM, 2, "one-copy", "two-copy");
	analysis_crossover_text(c, text, sizeof(text));
	ok(c && c->verdict == VERDICT_UNDECIDED && c->fewest_runs == 1 &&
		   strstr(text, "not distinguishable here: 1 run per point, "
				"spread ") &&
		   strstr(text, "try --repeat 3"),
	   "one run each, however far apart: %s", text);
	analysis_fini(&a);
	build(&a, 0);
	ok(a.short_runs == 0 && a.runs == 4,
	   "--min-measured 0 keeps every run");
	c = find_crossover(&a, RUN_STREAM, 2, "one-copy", "two-copy");
	analysis_crossover_text(c, text, sizeof(text));
	ok(c && c->verdict == VERDICT_UNDECIDED && c->fewest_runs == 1 &&
		   c->most_runs == 3 &&
		   strstr(text, "not distinguishable here: 1 to 3 runs per "
				"point, spread "),
	   "one run against three says both: %s", text);
	analysis_fini(&a);
}

static void test_suspect(void)
{
	const struct analysis_crossover *c;
	struct analysis a;
	char text[512];

	reset();
	for (int k = 0; k < 3; k++) {
		add_run("one-copy", RUN_STREAM, 4096, 1, 1.0 + 0.01 * k, 0.01,
			20);
		add_run("zero-copy", RUN_STREAM, 4096, 1, 2.0 + 0.01 * k, 0.01,
			20);
	}
	build(&a, 1000);
	c = find_crossover(&a, RUN_STREAM, 1, "zero-copy", "one-copy");
	analysis_crossover_text(c, text, sizeof(text));
	ok(c && c->verdict == VERDICT_FROM && c->suspect &&
		   strstr(text, "suspect: the kernel copied every zero-copy "
				"send"),
	   "a zero-copy lead with every send copied is suspect: %s", text);
	ok(a.all_copied && strstr(a.zerocopy_why, "only added work") &&
		   strstr(a.zerocopy_why, "suspect noise"),
	   "and the reason says so too: %s", a.zerocopy_why);
	analysis_fini(&a);
}

/*
 * Runs with --rx zerocopy are compared with each other, named so, and never
 * with a copying receiver's runs but as a strategy's two receive sides.
 */
static void test_rx_apart(void)
{
	const struct analysis_crossover *c = NULL;
	struct analysis a;
	char text[512];

	reset();
	for (int k = 0; k < 3; k++) {
		add_run("one-copy", RUN_STREAM, 16384, 1, 6.0 + 0.05 * k, 0.02,
			20)
			->config.settings.rx = RX_ZEROCOPY;
		add_run("zero-copy", RUN_STREAM, 16384, 1, 3.0 + 0.05 * k, 0.02,
			20)
			->config.settings.rx = RX_ZEROCOPY;
		add_run("one-copy", RUN_STREAM, 16384, 1, 5.0 + 0.05 * k, 0.02,
			20);
	}
	build(&a, 1000);
	for (size_t i = 0; i < a.crossover_count; i++)
		if (!a.crossovers[i].rx_pair &&
		    strcmp(a.crossovers[i].strategy, "zero-copy") == 0)
			c = &a.crossovers[i];
	ok(c && c->rx == RX_ZEROCOPY && c->verdict == VERDICT_NEVER &&
		   c->runs == 6,
	   "zero-copy vs one-copy, both with rx zerocopy: compared (6 runs)");
	analysis_crossover_text(c, text, sizeof(text));
	ok(strstr(text, "stream, 1 flow, rx zerocopy: zero-copy never beats "
			"one-copy") != NULL,
	   "its text names the receive side: %s", text);
	ok(a.crossover_count == 2 && a.crossovers[1].rx_pair,
	   "and one-copy's two receive sides; nothing across them");
	analysis_fini(&a);
}

static void test_figures(void)
{
	struct figure_stat stat;
	struct analysis a;

	reset();
	add_run("one-copy", RUN_RR, 1024, 2, 30, 0.01, 20);
	add_run("one-copy", RUN_RR, 1024, 2, 50, 0.01, 20);
	add_run("one-copy", RUN_RR, 1024, 2, 40, 0.01, 20);
	build(&a, 1000);
	ok(figure_point_value(&figures[1].quantity[0], &a, results,
			      &a.points[0], &stat) &&
		   stat.runs == 3 && stat.median == 40 && stat.min == 30 &&
		   stat.max == 50,
	   "the round trip figure: the median p50 of 3 runs and its range");
	ok(figure_point_value(&figures[1].quantity[1], &a, results,
			      &a.points[0], &stat) &&
		   stat.median == 160,
	   "and its whisker: the median p99");
	analysis_fini(&a);

	/*
	 * A figure's line under its title ("stream, a panel per flow count. "
	 * and the note) is one line of the SVG: 150 characters fill its 960
	 * pixels at 12 px.
	 */
	for (size_t i = 0; i < figure_count; i++) {
		for (const struct figure *f = &figures[i]; f; f = f->fallback) {
			size_t len = strlen(run_mode_name(f->mode)) +
				     strlen(", a panel per message size. ") +
				     strlen(f->note);

			ok(len <= 150,
			   "figure %s: its note fits one line (%zu)", f->key,
			   len);
		}
	}
}

/*
 * "Never" only where every size is decided: behind at 4K and undecided at
 * 64K is "behind at 4K", with what would decide 64K, and every size shows
 * its ratio and interval.
 */
static void test_evidence(void)
{
	const struct analysis_crossover *c;
	struct analysis a;
	char text[1024];

	reset();
	for (int k = 0; k < 3; k++) {
		add_run("one-copy", RUN_STREAM, 4096, 1, 4.0 + 0.02 * k, 0.01,
			20);
		add_run("zero-copy", RUN_STREAM, 4096, 1, 3.0 + 0.02 * k, 0.01,
			20);
		/* 64K: the same on average, each run far from the next. */
		add_run("one-copy", RUN_STREAM, 65536, 1, 10.0 * (1 + 0.3 * k),
			0.01, 20);
		add_run("zero-copy", RUN_STREAM, 65536, 1,
			10.0 * (1.3 - 0.3 * k), 0.01, 20);
	}
	build(&a, 1000);
	c = find_crossover(&a, RUN_STREAM, 1, "zero-copy", "one-copy");
	analysis_crossover_text(c, text, sizeof(text));
	ok(c && c->verdict == VERDICT_BEHIND &&
		   c->size[0].difference.outcome == STATS_BEHIND &&
		   c->size[1].difference.outcome == STATS_UNDECIDED,
	   "behind at 4K, undecided at 64K: the verdict is behind, not never");
	ok(strstr(text, "zero-copy behind one-copy at 4K (4K 0.75 [") &&
		   strstr(text, "], 64K ") &&
		   strstr(text, "; undecided at 64K: ") &&
		   !strstr(text, "never"),
	   "its text gives each size's ratio and interval, and what the "
	   "undecided one lacks: %s",
	   text);
	analysis_fini(&a);
}

/*
 * Undecided beyond 50 runs a point: the line names the cause the numbers
 * show -- a ratio at the edge, or runs spread far wider than the ratio.
 */
static void test_undecided_why(void)
{
	const struct analysis_crossover *c;
	struct analysis a;
	char text[1024];

	reset();
	for (int k = 0; k < 3; k++) {
		/* 4K: 0.952, a hair from the 5% edge, runs 2% apart. */
		add_run("one-copy", RUN_STREAM, 4096, 1, 10.0 * (1 + 0.02 * k),
			0.01, 20);
		add_run("zero-copy", RUN_STREAM, 4096, 1, 9.52 * (1 + 0.02 * k),
			0.01, 20);
		/* 64K: 0.81, each run twice the one before. */
		add_run("one-copy", RUN_STREAM, 65536, 1, 10.0 * (1 << k), 0.01,
			20);
		add_run("zero-copy", RUN_STREAM, 65536, 1, 8.1 * (1 << (2 - k)),
			0.01, 20);
	}
	build(&a, 1000);
	c = find_crossover(&a, RUN_STREAM, 1, "zero-copy", "one-copy");
	analysis_crossover_text(c, text, sizeof(text));
	ok(c && c->size[0].runs_to_decide == SIZE_MAX &&
		   c->size[1].runs_to_decide == SIZE_MAX,
	   "both sizes undecided beyond 50 runs a point");
	ok(strstr(text, "its ratio (0.95) being so near the 5% edge") &&
		   strstr(text, "its runs spreading ") &&
		   strstr(text, "against a ratio of 0.8"),
	   "4K is said near the edge, 64K too widely spread: %s", text);
	analysis_fini(&a);
}

/*
 * The window's last partial tick, 0.05 ms long, where a message or two
 * make a rate of 60 Gbit/s, joins the interval before it, weighted by
 * time: it moves neither the spread nor the within-run error.
 */
static void test_sliver(void)
{
	int gbps = metric_find("gbps");
	struct analysis_run with, without;
	struct run_result *r;

	reset();
	r = add_run("one-copy", RUN_STREAM, 4096, 1, 5.0, 0.02, 20);
	analysis_run_read(r, 1000, false, &without);
	r->intervals = realloc(r->intervals,
			       (r->interval_count + 1) * sizeof(*r->intervals));
	r->intervals[r->interval_count] = r->intervals[r->interval_count - 1];
	r->intervals[r->interval_count].length_s = 0.00005;
	r->intervals[r->interval_count].side[1].value[gbps] = 60;
	r->interval_count++;
	analysis_run_read(r, 1000, false, &with);
	ok(with.intervals == without.intervals &&
		   fabs(with.series.spread - without.series.spread) < 0.01 &&
		   fabs(with.series.rel_se - without.series.rel_se) < 0.005,
	   "a 0.05 ms sliver at 12x the rate: spread %.3f against %.3f, "
	   "intervals %zu against %zu",
	   with.series.spread, without.series.spread, with.intervals,
	   without.intervals);
}

/*
 * A run's sides as the waits watch them: the receiver on its CPU on_cpu of
 * a second and waiting for data the rest, waking wakeups times a message;
 * the sender busy.
 */
static void add_time(struct run_result *r, double on_cpu, double wakeups)
{
	int cpu = metric_find("cpu_pct"),
	    woken = metric_find("ctx_switches_per_msg");
	size_t data = reason_find("data");

	r->counted = true;
	for (int side = 0; side < 2; side++) {
		struct run_time *t = &r->time[side];
		double busy = side ? on_cpu : 0.95;

		t->present = true;
		t->window_s = 1;
		t->on_cpu_s = busy;
		t->off_cpu_s = 1 - busy;
		if (side)
			t->reason[data].seconds = 1 - busy;
		(side ? &r->receiver : &r->sender)->derived.value[cpu] = 100 *
									 busy;
	}
	r->receiver.derived.value[woken] = wakeups;
	r->sender.derived.value[woken] = 0.01;
}

/* Which ladder's words: rungs that wake alike, or apart and why. */
static void test_ladder_wakes(void)
{
	struct analysis a;
	const char *text = NULL;

	reset();
	for (int k = 0; k < 3; k++) {
		struct run_result *copy = add_run("sendfile", RUN_STREAM, 65536,
						  1, 17, 0.02, 20);
		struct run_result *trunc = add_run("sendfile", RUN_STREAM,
						   65536, 1, 11, 0.02, 20);

		trunc->config.settings.rx = RX_TRUNC;
		add_time(copy, 0.6, 0.03);
		add_time(trunc, 0.2, 0.11);
	}
	build(&a, 1000);
	for (size_t i = 0; i < a.wait_group_count; i++)
		if (strstr(a.wait_groups[i], "receive sides"))
			text = a.wait_groups[i];
	ok(text && strstr(text, "sendfile's receive sides wake at different "
				"rates (switched out, a message: rx copy "
				"0.03, rx-trunc (bound) 0.11)"),
	   "a ladder whose rungs wake 0.03 and 0.11 times a message: apart "
	   "(%s)",
	   text ? text : "nothing said");
	ok(text &&
		   strstr(text, "the side that empties its queue fastest "
				"waits for it most often") &&
		   strstr(text, "the sender's CPU, which delivers in its own "
				"softirq, wakes it"),
	   "and why the faster rung can stream less");
	analysis_fini(&a);
}

/*
 * A point of four runs, one of them sampled (the others' turn to sample
 * never came): the CPU the waits quote is the median of all four, not the
 * sampled run's.
 */
static void test_cpu_of_every_run(void)
{
	int cpu = metric_find("cpu_pct");
	struct analysis a;
	char text[1000] = "";

	reset();
	for (int k = 0; k < 4; k++) {
		struct run_result *r = add_run("one-copy", RUN_STREAM, 65536, 1,
					       17, 0.02, 20);

		add_time(r, 0.6, 0.2);
		r->time[0].on_cpu_s = r->time[0].off_cpu_s = 0.5;
		r->sender.derived.value[cpu] = 50;
		if (k) {
			r->time[0].present = r->time[1].present = false;
			r->receiver.derived.value[cpu] = 30;
		}
	}
	build(&a, 1000);
	if (a.wait_count)
		analysis_wait_text(&a, &a.waits[0], text, sizeof(text));
	ok(strstr(text, "(sender 50%, receiver 30% of a CPU)") != NULL,
	   "one run of four sampled: its point's receiver CPU is the four "
	   "runs' median (%s)",
	   text);
	analysis_fini(&a);
}

int main(void)
{
	test_series();
	test_t();
	test_compare();
	test_drift();
	test_modes_apart();
	test_rx_apart();
	test_ladder_wakes();
	test_cpu_of_every_run();
	test_short_and_single();
	test_suspect();
	test_figures();
	test_evidence();
	test_undecided_why();
	test_sliver();
	reset();
	return tap_done();
}
