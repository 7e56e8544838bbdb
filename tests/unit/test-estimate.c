/*
 * The estimator on runs made up here, whose spreads are known, so that
 * every interval can be worked out by hand (the working is in the
 * comments): the block bootstrap's exact variance, the floor the intervals
 * set under every figure of --diff (Gbit/s and a counted figure alike, the
 * analysis' point the same estimate), runs tight between and wide within
 * and the reverse, too few runs and how many would tell, benchstat's U
 * test against every split of a fixed example counted, and --gate's
 * rules: read, broken only past their limit, and each status.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "gate.h"
#include "rules.h"
#include "session.h"
#include "stats.h"
#include "tap.h"

#define INTERVALS 10

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-5;
}

/*
 * A stream run at strategy's point: its figures (Gbit/s, and the sender's
 * CPU %) figure times gbps and cpu, its ten 100 ms intervals the figure
 * times 1 - within five times, then 1 + within five times, after a warm-up
 * interval far off that must not count.
 */
static void run_at(struct run_result *r, const char *strategy, double figure,
		   double within)
{
	int gbps = metric_find("gbps"), cpu = metric_find("cpu_pct");

	memset(r, 0, sizeof(*r));
	r->config.strategy = strategy_find(strategy);
	r->config.mode = RUN_STREAM;
	r->config.msg_size = 4096;
	r->config.threads = 1;
	r->measured_s = 1;
	r->counted = true;
	metric_values_unknown(&r->sender.derived);
	metric_values_unknown(&r->receiver.derived);
	r->receiver.derived.value[gbps] = 2 * figure;
	r->sender.derived.value[cpu] = 50 * figure;
	r->interval_count = INTERVALS + 1;
	r->intervals = calloc(r->interval_count, sizeof(*r->intervals));
	for (size_t i = 0; i < r->interval_count; i++) {
		struct run_interval *iv = &r->intervals[i];
		double w = i == 0		? 40
			   : i <= INTERVALS / 2 ? 1 - within
						: 1 + within;

		metric_values_unknown(&iv->side[0]);
		metric_values_unknown(&iv->side[1]);
		iv->warmup = i == 0;
		iv->t_s = 0.1 * (double)(i + 1);
		iv->length_s = 0.1;
		iv->side[1].value[gbps] = 2 * figure * w;
		iv->side[0].value[cpu] = 50 * figure * w;
	}
}

/*
 * A session of runs of one-copy 4K, their figures scale times 1, 1 - B
 * and 1 + B (runs of them; the first two for runs 2), their intervals
 * spread by within.
 */
static void session_of(struct session *s, size_t runs, double scale,
		       double between, double within)
{
	const double factor[] = {1, 1 - between, 1 + between};

	session_init(s);
	s->results = calloc(runs + 1, sizeof(*s->results));
	for (size_t i = 0; i < runs; i++)
		run_at(&s->results[i], "one-copy", scale * factor[i], within);
	s->result_count = runs;
	session_analyse(s);
}

static const struct diff_row *row_of(const struct diff *d, const char *key,
				     const char *side)
{
	for (size_t i = 0; i < d->row_count; i++)
		if (strcmp(d->row[i].key, key) == 0 &&
		    (!side ||
		     (d->row[i].side && strcmp(d->row[i].side, side) == 0)))
			return &d->row[i];
	return NULL;
}

/*
 * s[0] against s[1] by test, with the drift between them that drift says
 * ("0" below: the estimator within a study, alone).
 */
static void compare_drift(struct session s[2], struct diff *d,
			  enum diff_test test, const char *drift)
{
	struct drift_rule rules[RULES_MAX];
	size_t count = 0;
	char *cause = NULL;

	ok(drift_parse(drift, rules, &count, &cause) == 0 &&
		   diff_build(d,
			      (struct diff_side[2]){
				      {&s[0], &s[0], 0, s[0].result_count},
				      {&s[1], &s[1], 0, s[1].result_count}},
			      &(struct diff_how){.test = test,
						 .drift = rules,
						 .drift_count = count}) == 0,
	   "the comparison builds (--drift %s)", drift);
	free(cause);
}

static void compare(struct session s[2], struct diff *d, enum diff_test test)
{
	compare_drift(s, d, test, "0");
}

/*
 * Five intervals at 0.9, five at 1.1: blocks of round(10^(1/3)) = 2, at
 * any of 9 places; their sums 1.8 (four places), 2.0, 2.2 (four), mean
 * 2.0, variance 8 * 0.2^2 / 9 = 0.32/9; five whole blocks make a
 * resample's sum, variance 1.6/9, its mean's 1.6/9/10^2 = 0.016/9: the
 * standard error sqrt(0.016/9) = 0.0421637 of a mean of 1.
 */
static void test_bootstrap(void)
{
	double x[INTERVALS];
	struct stats_series s;

	for (int i = 0; i < INTERVALS; i++)
		x[i] = i < INTERVALS / 2 ? 0.9 : 1.1;
	stats_series(x, INTERVALS, &s);
	ok(s.block == 2 && near(s.mean, 1) && near(s.rel_se, 0.0421637),
	   "the block bootstrap's variance, exactly (%.7f, blocks of %zu)",
	   s.rel_se, s.block);
}

/*
 * Between runs tight (1, 0.98, 1.02: variance of the logs 4.0012e-4),
 * within wide (the intervals' 0.0421637^2 = 1.7778e-3): the floor rules,
 * each side's variance 1.7778e-3 / 3 = 5.9259e-4.  The new runs 1.1 times
 * the old: ln 1.1 = 0.0953102 +- t(4) 2.1318 * sqrt(2 * 5.9259e-4) =
 * 0.0733913, so 1.022162 .. 1.183766.  Between runs alone it was
 * 1.062360 .. 1.138974 -- the sender's CPU %, a counted figure, had
 * that before the floor held for every figure.
 */
static void test_floor(void)
{
	struct session s[2];
	const struct diff_row *row;
	const struct analysis_point *p;
	struct diff d;

	session_of(&s[0], 3, 1, 0.02, 0.10);
	session_of(&s[1], 3, 1.1, 0.02, 0.10);
	compare(s, &d, DIFF_TEST_WELCH);
	row = row_of(&d, "gbps", NULL);
	ok(row && near(row->change.low, 1.022162) &&
		   near(row->change.high, 1.183766),
	   "tight between, wide within: Gbit/s +10%% in 1.022162 .. "
	   "1.183766 (%.6f .. %.6f)",
	   row ? row->change.low : NAN, row ? row->change.high : NAN);
	row = row_of(&d, "cpu_pct", "sender");
	ok(row && near(row->change.low, 1.022162) &&
		   near(row->change.high, 1.183766),
	   "and the sender's CPU %% the same: every figure has the floor "
	   "(%.6f .. %.6f)",
	   row ? row->change.low : NAN, row ? row->change.high : NAN);
	p = &s[0].analysis.points[0];
	ok(s[0].analysis.point_count == 1 &&
		   near(p->estimate.variance * 1e4, 1.7777778 / 3 * 10) &&
		   near(p->estimate.between * 1e4, 4.0012004),
	   "the analysis' point is the same estimate (variance %.4e)",
	   p->estimate.variance);
	ok(row && diff_row_significant(row), "its +10%% called changed");
	diff_fini(&d);
	session_close(&s[0]);
	session_close(&s[1]);
}

/*
 * test_floor's studies with a drift of 3% for Gbit/s: each side's
 * variance 5.9259e-4 plus 0.03^2, the degrees of freedom the runs' (t(4)
 * = 2.1318): ln 1.1 +- 2.1318 * sqrt(0.0029852) = 0.116475, so 0.979058
 * .. 1.235882, no longer called (it was 1.022162 .. 1.183766).  The
 * sender's CPU % keeps no drift (the rule names Gbit/s only, over
 * --drift's 0 before it).
 */
static void test_drift(void)
{
	struct session s[2];
	const struct diff_row *row;
	struct diff d;
	char heading[48];

	session_of(&s[0], 3, 1, 0.02, 0.10);
	session_of(&s[1], 3, 1.1, 0.02, 0.10);
	compare_drift(s, &d, DIFF_TEST_WELCH, "0,gbps=3");
	row = row_of(&d, "gbps", NULL);
	if (row)
		diff_change_heading(row, heading, sizeof(heading));
	ok(row && near(row->change.low, 0.979058) &&
		   near(row->change.high, 1.235882) &&
		   !diff_row_significant(row) &&
		   strcmp(heading, "change (drift 3%)") == 0,
	   "Gbit/s +10%% with a 3%% drift: 0.979058 .. 1.235882 (%.6f .. "
	   "%.6f), not called, under '%s'",
	   row ? row->change.low : NAN, row ? row->change.high : NAN,
	   row ? heading : "");
	row = row_of(&d, "cpu_pct", "sender");
	ok(row && row->drift == 0 && near(row->change.low, 1.022162) &&
		   near(row->change.high, 1.183766) &&
		   diff_row_significant(row),
	   "the sender's CPU %% as without (%.6f .. %.6f), called",
	   row ? row->change.low : NAN, row ? row->change.high : NAN);
	diff_fini(&d);
	compare_drift(s, &d, DIFF_TEST_WELCH, "gbps=3,8");
	row = row_of(&d, "cpu_pct", "sender");
	ok(row && near(row->drift, 0.08) && !diff_row_significant(row),
	   "a later drift for every figure is over an earlier one for one: "
	   "the CPU's 8%% (%g), +10%% not called",
	   row ? row->drift : NAN);
	diff_fini(&d);
	session_close(&s[0]);
	session_close(&s[1]);
}

/*
 * Between wide (1, 0.8, 1.2: variance of the logs 0.0412394), within
 * tight (0.000422^2): the runs rule, each side's variance 0.0412394 / 3;
 * ln 1.1 +- 2.1318 * sqrt(2 * 0.0137465) = 0.353473: 0.772469 ..
 * 1.566406, which holds no change.
 */
static void test_between(void)
{
	struct session s[2];
	const struct diff_row *row;
	struct diff d;
	char text[200];

	session_of(&s[0], 3, 1, 0.2, 0.001);
	session_of(&s[1], 3, 1.1, 0.2, 0.001);
	compare(s, &d, DIFF_TEST_WELCH);
	row = row_of(&d, "gbps", NULL);
	ok(row && near(row->change.low, 0.772469) &&
		   near(row->change.high, 1.566406) &&
		   !diff_row_significant(row),
	   "wide between, tight within: 0.772469 .. 1.566406 (%.6f .. "
	   "%.6f), not called",
	   row ? row->change.low : NAN, row ? row->change.high : NAN);
	if (row)
		diff_change_text(row, text, sizeof(text));
	ok(row && strcmp(text, "~ (-22.8% .. +56.6%)") == 0, "said: %s",
	   row ? text : "(no row)");
	diff_fini(&d);
	session_close(&s[0]);
	session_close(&s[1]);
}

/*
 * Two runs against three: no interval.  The per-run variance each side
 * showed is the floor's, 1.7778e-3; with k runs a side the interval is
 * t(2k - 2) * sqrt(2 * 1.7778e-3 / k): 0.0579 at 4, 0.0496 at 5, 0.0441
 * at 6, the first under ln 1.05 = 0.0488: about 6 runs a side.
 */
static void test_too_few(void)
{
	struct session s[2];
	const struct diff_row *row;
	struct diff d;
	char text[200];

	session_of(&s[0], 2, 1, 0.02, 0.10);
	session_of(&s[1], 3, 1, 0.02, 0.10);
	compare(s, &d, DIFF_TEST_WELCH);
	row = row_of(&d, "gbps", NULL);
	if (row)
		diff_change_text(row, text, sizeof(text));
	ok(row && row->too_few && !diff_row_interval(row) &&
		   row->runs_needed == 6 &&
		   strcmp(text, "too few runs to tell (n=2 vs 3): about 6 "
				"runs a side would tell a 5% change") == 0,
	   "2 runs against 3: %s", row ? text : "(no row)");
	diff_fini(&d);
	session_close(&s[0]);
	session_init(&s[0]);
	session_of(&s[0], 1, 1, 0.02, 0.10);
	compare(s, &d, DIFF_TEST_WELCH);
	row = row_of(&d, "gbps", NULL);
	if (row)
		diff_change_text(row, text, sizeof(text));
	ok(row && strcmp(text, "too few runs to tell (n=1 vs 3): 3 runs a "
			       "side at least") == 0,
	   "1 run against 3: %s", row ? text : "(no row)");
	diff_fini(&d);
	session_close(&s[0]);
	session_close(&s[1]);
}

/* P(U <= u) * 2 by every split of a and b's values, counted. */
static double utest_counted(const double *a, size_t na, const double *b,
			    size_t nb)
{
	double all[16], u = 0, small, below = 0, splits = 0;
	size_t n = na + nb;

	memcpy(all, a, na * sizeof(*a));
	memcpy(all + na, b, nb * sizeof(*b));
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			u += a[i] > b[j] ? 1 : a[i] == b[j] ? 0.5 : 0;
	small = fmin(u, (double)(na * nb) - u);
	for (uint32_t mask = 0; mask < (1u << n); mask++) {
		double split = 0;

		if ((size_t)__builtin_popcount(mask) != na)
			continue;
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < n; j++)
				if ((mask >> i & 1) && !(mask >> j & 1))
					split += all[i] > all[j]    ? 1
						 : all[i] == all[j] ? 0.5
								    : 0;
		splits++;
		below += split <= small;
	}
	return fmin(1, 2 * below / splits);
}

static void test_utest(void)
{
	const double low[] = {1, 2, 3, 4, 5}, high[] = {6, 7, 8, 9, 10};
	const double a[] = {1.1, 2.4, 2.4, 3.0, 5.2, 6.1};
	const double b[] = {2.4, 3.3, 4.8, 5.2, 7.7, 8.0, 9.1};
	const double same[] = {3, 3, 3};
	double p;

	p = stats_utest(low, 5, high, 5);
	ok(near(p, 2.0 / 252), "5 runs all below 5: p = 2/C(10,5) = %.6f", p);
	p = stats_utest(a, 6, b, 7);
	ok(near(p, utest_counted(a, 6, b, 7)),
	   "with ties, as every one of the 1716 splits counted says "
	   "(p = %.6f against %.6f)",
	   p, utest_counted(a, 6, b, 7));
	ok(stats_utest(low, 3, high, 3) >= 0.1 &&
		   stats_utest_runs_needed(STATS_UTEST_ALPHA) == 4,
	   "3 runs a side never reach p < 0.05; 4 do, as benchstat says");
	ok(isnan(stats_utest(same, 3, same, 3)), "all alike: no p-value");
}

static void test_utest_rows(void)
{
	struct session s[2];
	const struct diff_row *row;
	struct diff d;
	char text[200];

	session_of(&s[0], 3, 1, 0.02, 0.10);
	session_of(&s[1], 3, 1.5, 0.02, 0.10);
	compare(s, &d, DIFF_TEST_UTEST);
	row = row_of(&d, "gbps", NULL);
	if (row)
		diff_change_text(row, text, sizeof(text));
	ok(row && near(row->p, 0.1) && !diff_row_significant(row) &&
		   strcmp(text,
			  "too few runs to tell (n=3 vs 3, p=0.100): "
			  "the U test needs 4 runs a side at p < 0.05") == 0,
	   "--diff-test utest, 3 runs a side apart: %s", text);
	diff_fini(&d);
	session_close(&s[0]);
	session_close(&s[1]);
}

static void test_rules(void)
{
	struct rule rules[RULES_MAX];
	size_t n = 0;
	char *cause = NULL;

	int r;

	r = rules_parse("gbps<-5%,cpu_ns_per_kib.sender>+5%,p99_us>10%", rules,
			&n, &cause);
	ok(r == 0 && n == 3 && !rules[0].above && near(rules[0].limit, 0.95) &&
		   rules[1].side == RULE_SENDER && rules[2].above &&
		   near(rules[2].limit, 1.1),
	   "three rules read");
	ok(rule_matches(&rules[1], "cpu_ns_per_kib", "sender") &&
		   !rule_matches(&rules[1], "cpu_ns_per_kib", "receiver") &&
		   rule_matches(&rules[0], "gbps", NULL),
	   "a side's rule matches that side only");
	r = rules_parse("gbps<5", rules, &n, &cause);
	ok(r < 0 && cause && strstr(cause, "'gbps<5' is not a rule"),
	   "a rule without %% is refused: %s", cause);
	r = rules_parse("gbit<-5%", rules, &n, &cause);
	ok(r < 0 && strstr(cause, "no figure 'gbit'"),
	   "an unknown figure is refused");
	r = rules_parse("gbps.sender<-5%", rules, &n, &cause);
	ok(r < 0 && strstr(cause, "has no sides"),
	   "a delivered figure has no sides");
	free(cause);
}

/* The gate on the +10% of test_floor: broken past +2%, not past +5%. */
static void test_gate(void)
{
	struct options o = {0};
	struct session s[2];
	struct gate g;
	struct diff d;
	char *cause = NULL;

	session_of(&s[0], 3, 1, 0.02, 0.10);
	session_of(&s[1], 3, 1.1, 0.02, 0.10);
	compare(s, &d, DIFF_TEST_WELCH);
	int r;

	rules_parse("gbps>+2%", o.rules, &o.rule_count, &cause);
	r = gate_judge(&d, &o, &g);
	ok(r == 0 && g.status == 1 && g.broken == 1 &&
		   strstr(g.finding[0].text,
			  "gbps>+2% broken at one-copy 4K x1 stream:"),
	   "a rise whose interval lies wholly past +2%%: status 1 (%s)",
	   g.count ? g.finding[0].text : "nothing");
	gate_fini(&g);
	rules_parse("gbps>+5%,gbps<-5%", o.rules, &o.rule_count, &cause);
	r = gate_judge(&d, &o, &g);
	ok(r == 0 && g.status == 0 && !g.broken,
	   "one whose interval reaches under +5%%: status 0");
	gate_fini(&g);
	rules_parse("p99_us>+10%", o.rules, &o.rule_count, &cause);
	r = gate_judge(&d, &o, &g);
	ok(r == 0 && g.status == 2,
	   "a rule with no row to judge: status 2 (%s)",
	   g.count ? g.finding[0].text : "nothing");
	gate_fini(&g);
	diff_fini(&d);
	session_close(&s[0]);
	session_close(&s[1]);
	free(cause);
}

int main(void)
{
	test_bootstrap();
	test_floor();
	test_drift();
	test_between();
	test_too_few();
	test_utest();
	test_utest_rows();
	test_rules();
	test_gate();
	return tap_done();
}
