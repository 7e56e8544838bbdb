/*
 * The analysis.  Points are grouped by mode first, so that a size measured
 * only in rr never enters a stream comparison.  A verdict is only as strong
 * as its weakest size: the per-size outcomes of stats_compare() are kept, and
 * the verdict is the pattern they make.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "estimate.h"
#include "units.h"

/* Pairs that differ by one idea; the first is the newer one. */
static const char *const pairs[][2] = {
	{"one-copy", "two-copy"},  {"zero-copy", "two-copy"},
	{"zero-copy", "one-copy"}, {"uring-zc", "uring"},
	{"sendfile", "zero-copy"}, {"splice", "one-copy"},
};

#define PAIR_COUNT (sizeof(pairs) / sizeof(pairs[0]))
/*
 * Per mode and flow count: the pairs with each receive side, then each
 * strategy with each receive side but copy against itself with copy (the rx
 * pairs).
 */
#define PAIRS_ALL_RX (RX_MODE_COUNT * PAIR_COUNT)
#define CROSSOVERS_PER_GROUP                                                   \
	(PAIRS_ALL_RX + (RX_MODE_COUNT - 1) * strategy_count())

bool analysis_lower_is_better(enum run_mode mode)
{
	return mode == RUN_RR;
}

void analysis_run_read(const struct run_result *r, uint64_t min_measured_ms,
		       bool keep_stopped, struct analysis_run *out)
{
	struct estimate_of of = estimate_figure_of(r->config.mode);
	size_t n;

	*out = (struct analysis_run){.figure = NAN};
	estimate_run(r, &of, &out->figure, &out->series);
	n = out->intervals = out->series.count;
	/* A teaching run that broke the buffer rule proves nothing. */
	out->usable = !r->error && !r->config.settings.unsafe_reuse &&
		      r->measured_s > 0 && isfinite(out->figure) &&
		      out->figure > 0;
	/*
	 * A window ends on a tick, so "-d 1" measures 1 s give or take a few
	 * ms: half a tick of slack.
	 */
	out->short_run = min_measured_ms &&
			 (r->measured_s * 1000 + RUN_TICK_MS / 2.0 <
				  (double)min_measured_ms ||
			  n < ANALYSIS_MIN_INTERVALS);
	out->stopped = r->stopped_s > 0 && !keep_stopped;
}

/* Whether a usable run is left out: short, or its window cut by a stop. */
static bool left_out(const struct analysis_run *run)
{
	return run->short_run || run->stopped;
}

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

static bool at_point(const struct analysis_point *p, const struct run_config *c)
{
	struct point_key key = point_key_of(c);

	return point_key_equal(&p->key, &key, POINT_ALL);
}

const struct analysis_point *analysis_find(const struct analysis *a,
					   const struct point_key *key)
{
	for (size_t i = 0; i < a->point_count; i++)
		if (point_key_equal(&a->points[i].key, key, POINT_ALL))
			return &a->points[i];
	return NULL;
}

/* The median of the finite values of v (n of them); NaN if none is. */
static double median_known(double *v, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			v[k++] = v[i];
	return k ? median(v, k) : NAN;
}

/* The receiving side of a run: its CPU per KiB and its copy share. */
static void run_receiver(const struct run_result *r, double *cpu, double *copy)
{
	int m = metric_find("cpu_ns_per_kib");
	const struct run_profile *rx = &r->profile[1];

	if (m < 0 || !run_result_metric(r, false, (size_t)m, cpu))
		*cpu = NAN;
	/* NaN where not sampled, or in user space only. */
	*copy = rx->present ? run_profile_copy_share(rx) : NAN;
}

/* Its runs' figures, median and spread, and the estimate to compare. */
static int point_fill(struct analysis *a, struct analysis_point *p,
		      const struct run_result *results,
		      const struct analysis_run *runs)
{
	size_t n = p->runs;
	double *figure = calloc(n + 1, sizeof(*figure));
	double *p99 = calloc(n + 1, sizeof(*p99));
	struct stats_series *series = calloc(n + 1, sizeof(*series));
	double *cpu = calloc(n + 1, sizeof(*cpu));
	double *copy = calloc(n + 1, sizeof(*copy));
	int r = -ENOMEM;

	if (!figure || !p99 || !series || !cpu || !copy)
		goto out;
	for (size_t i = 0; i < n; i++) {
		size_t k = a->member[p->first + i];

		figure[i] = runs[k].figure;
		series[i] = runs[k].series;
		p99[i] = results[k].latency.p99_us;
		run_receiver(&results[k], &cpu[i], &copy[i]);
		p->intervals += runs[k].intervals;
	}
	p->rx_cpu_ns_per_kib = median_known(cpu, n);
	p->rx_copy_share = median_known(copy, n);
	stats_point(figure, series, n, &p->estimate);
	p->median = median(figure, n);
	p->min = figure[0];
	p->max = figure[n - 1];
	p->p99_median_us = median(p99, n);
	p->p99_min_us = p99[0];
	p->p99_max_us = p99[n - 1];
	r = 0;
out:
	free(figure);
	free(p99);
	free(series);
	free(cpu);
	free(copy);
	return r;
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* The point of the strategy named, at key's other parts, if it has runs. */
static const struct analysis_point *find_named(const struct analysis *a,
					       const char *name,
					       struct point_key key)
{
	const struct analysis_point *p;

	key.strategy = strategy_find(name);
	if (!key.strategy)
		return NULL;
	p = analysis_find(a, &key);
	return p && p->runs ? p : NULL;
}

/* The share of zero-copy sends the kernel copied, over a point's runs. */
static void add_copied(const struct analysis *a, const struct analysis_point *p,
		       const struct run_result *results, uint64_t *completions,
		       uint64_t *copied)
{
	if (!p->key.strategy->zerocopy)
		return;
	for (size_t i = 0; i < p->runs; i++) {
		const struct run_totals *t =
			&results[a->member[p->first + i]].totals;

		*completions += t->zc_completions;
		*copied += t->zc_copied;
	}
}

static bool nearly_all(uint64_t copied, uint64_t completions)
{
	return completions && copied * 100 >= completions * 99;
}

/*
 * About how many runs a point would decide an undecided size: the runs'
 * own spread (each point's variance times its runs) against the distance
 * of the ratio from the nearest edge it must clear -- past the minimum
 * effect to call a difference, inside it to call a tie.  0 when the points
 * hold one run each (no spread to go by).
 */
static size_t runs_to_decide(const struct stats_point *a,
			     const struct stats_point *b,
			     const struct stats_difference *d)
{
	double per_run, gap, margin = log(1 + STATS_MIN_EFFECT);
	double distance = fabs(log(d->ratio));

	if (a->runs < 2 || b->runs < 2 || !isfinite(a->variance) ||
	    !isfinite(b->variance))
		return 0;
	per_run = a->variance * (double)a->runs + b->variance * (double)b->runs;
	gap = fabs(distance - margin);
	/* The degrees of freedom of one point alone: the safe side. */
	for (size_t k = 2; k <= ANALYSIS_RUNS_HINT_MAX; k++)
		if (stats_t95((double)k - 1) * sqrt(per_run / (double)k) < gap)
			return k;
	return SIZE_MAX;
}

/* The verdict from the pattern of the per-size outcomes. */
static void crossover_verdict(struct analysis_crossover *c)
{
	size_t ahead = 0, behind = 0, equal = 0, tail = 0;

	for (size_t j = 0; j < c->size_count; j++) {
		enum stats_outcome o = c->size[j].difference.outcome;

		ahead += o == STATS_AHEAD;
		behind += o == STATS_BEHIND;
		equal += o == STATS_EQUAL;
	}
	/* The run of sizes it is ahead at, down from the largest. */
	while (tail < c->size_count &&
	       c->size[c->size_count - 1 - tail].difference.outcome ==
		       STATS_AHEAD)
		tail++;
	if (ahead && tail == ahead) {
		c->verdict = VERDICT_FROM;
		c->msg_size = c->size[c->size_count - tail].msg_size;
	} else if (ahead) {
		c->verdict = VERDICT_MIXED;
	} else if (behind && behind + equal == c->size_count) {
		c->verdict = VERDICT_NEVER;
	} else if (behind) {
		c->verdict = VERDICT_BEHIND;
	} else if (equal == c->size_count) {
		c->verdict = VERDICT_TIE;
	} else {
		c->verdict = VERDICT_UNDECIDED;
	}
}

/*
 * Fills crossover c (its points named, its stacks set) at every size both
 * of its points were measured at: false when there is none.
 */
static bool crossover_fill(struct analysis *a, const struct run_result *results,
			   struct analysis_crossover *c, const size_t *sizes,
			   size_t n)
{
	enum rx_mode versus_rx = c->rx_pair ? RX_COPY : c->rx;
	uint64_t completions = 0, copied = 0;
	bool copies_less = false;

	for (size_t j = 0; j < n && c->size_count < ANALYSIS_SIZES_MAX; j++) {
		const struct analysis_point *p = find_named(
			a, c->strategy,
			(struct point_key){.mode = c->mode,
					   .rx = c->rx,
					   .stack = c->stack,
					   .msg_size = sizes[j],
					   .threads = c->threads});
		const struct analysis_point *q = find_named(
			a, c->versus,
			(struct point_key){.mode = c->mode,
					   .rx = versus_rx,
					   .stack = c->versus_stack,
					   .msg_size = sizes[j],
					   .threads = c->threads});
		struct analysis_size *s;

		if (!p || !q)
			continue;
		s = &c->size[c->size_count++];
		s->msg_size = sizes[j];
		stats_compare(&p->estimate, &q->estimate,
			      !analysis_lower_is_better(c->mode),
			      &s->difference);
		if (s->difference.outcome == STATS_UNDECIDED)
			s->runs_to_decide = runs_to_decide(
				&p->estimate, &q->estimate, &s->difference);
		s->runs = p->runs + q->runs;
		s->spread = fmax(p->estimate.spread, q->estimate.spread);
		s->rx_cpu_ns_per_kib[0] = p->rx_cpu_ns_per_kib;
		s->rx_cpu_ns_per_kib[1] = q->rx_cpu_ns_per_kib;
		s->rx_copy_share[0] = p->rx_copy_share;
		s->rx_copy_share[1] = q->rx_copy_share;
		c->runs += s->runs;
		c->intervals += p->intervals + q->intervals;
		c->fewest_runs = p->runs < c->fewest_runs ? p->runs
							  : c->fewest_runs;
		c->fewest_runs = q->runs < c->fewest_runs ? q->runs
							  : c->fewest_runs;
		c->most_runs = p->runs > c->most_runs ? p->runs : c->most_runs;
		c->most_runs = q->runs > c->most_runs ? q->runs : c->most_runs;
		if (isfinite(s->spread) && !(s->spread <= c->spread))
			c->spread = s->spread;
		/* Zero-copy sends against a peer that copies. */
		copies_less = !c->rx_pair && !c->stack_pair &&
			      p->key.strategy->zerocopy &&
			      !q->key.strategy->zerocopy;
		if (copies_less)
			add_copied(a, p, results, &completions, &copied);
	}
	if (!c->size_count)
		return false;
	crossover_verdict(c);
	c->suspect = copies_less &&
		     (c->verdict == VERDICT_FROM ||
		      c->verdict == VERDICT_MIXED) &&
		     nearly_all(copied, completions);
	return true;
}

/* A slot for one more crossover: NULL when there is no memory for it. */
static struct analysis_crossover *crossover_slot(struct analysis *a)
{
	if (a->crossover_count == a->crossover_cap) {
		size_t cap = a->crossover_cap ? 2 * a->crossover_cap : 64;
		struct analysis_crossover *grown = realloc(
			a->crossovers, cap * sizeof(*grown));

		if (!grown)
			return NULL;
		a->crossovers = grown;
		a->crossover_cap = cap;
	}
	return &a->crossovers[a->crossover_count];
}

/*
 * Whether stack b is a differs by one knob, b's lower: the pair that says
 * what raising that knob alone did.  The load's pace is no such knob: a
 * load held to a rate moves less by design, and is compared only with
 * loads at the same pace.
 */
static bool one_knob_up(const struct settings_stack *a,
			const struct settings_stack *b)
{
	/* GRO's order: as built (the veth's off), off, then on. */
	int ga = a->gro == GRO_ON, gb = b->gro == GRO_ON;
	int differ = (a->gso_max_size != b->gso_max_size) +
		     (a->gro_max_size != b->gro_max_size) + (a->gro != b->gro) +
		     (a->busy_poll != b->busy_poll);

	return differ == 1 && a->load_rate_mbps == b->load_rate_mbps &&
	       (a->gso_max_size > b->gso_max_size ||
		a->gro_max_size > b->gro_max_size || ga > gb ||
		a->busy_poll > b->busy_poll);
}

static int add_crossovers(struct analysis *a, const struct run_result *results,
			  enum run_mode mode, unsigned int threads)
{
	size_t *sizes = malloc((a->point_count + 1) * sizeof(*sizes));
	struct settings_stack *stacks = malloc((a->point_count + 1) *
					       sizeof(*stacks));
	size_t n = 0, ns = 0;
	int r = 0;

	if (!sizes || !stacks) {
		free(sizes);
		free(stacks);
		return -ENOMEM;
	}
	for (size_t i = 0; i < a->point_count; i++) {
		const struct analysis_point *p = &a->points[i];
		bool seen = false, known = false;

		if (!p->runs || p->key.mode != mode ||
		    p->key.threads != threads)
			continue;
		for (size_t j = 0; j < n; j++)
			seen |= sizes[j] == p->key.msg_size;
		if (!seen)
			sizes[n++] = p->key.msg_size;
		for (size_t j = 0; j < ns; j++)
			known |= settings_stack_equal(&stacks[j],
						      &p->key.stack);
		if (!known)
			stacks[ns++] = p->key.stack;
	}
	qsort(sizes, n, sizeof(*sizes), cmp_size);
	/*
	 * With each set of knobs: the pairs of strategies, each with every
	 * receive side, then each strategy's other receive sides against its
	 * copy.
	 */
	for (size_t st = 0; st < ns && r == 0; st++) {
		for (size_t k = 0; k < CROSSOVERS_PER_GROUP; k++) {
			struct analysis_crossover *c = crossover_slot(a);
			bool rx_pair = k >= PAIRS_ALL_RX;
			size_t j = k - PAIRS_ALL_RX;

			if (!c) {
				r = -ENOMEM;
				break;
			}
			*c = (struct analysis_crossover){
				.mode = mode,
				.threads = threads,
				.strategy = rx_pair ? strategy_at(
							      j %
							      strategy_count())
							      ->name
						    : pairs[k % PAIR_COUNT][0],
				.rx_pair = rx_pair,
				.rx = rx_pair ? (enum rx_mode)(
							1 +
							j / strategy_count())
					      : (enum rx_mode)(k / PAIR_COUNT),
				.stack = stacks[st],
				.versus_stack = stacks[st],
				.fewest_runs = SIZE_MAX,
			};
			c->versus = rx_pair ? c->strategy
					    : pairs[k % PAIR_COUNT][1];
			if (crossover_fill(a, results, c, sizes, n))
				a->crossover_count++;
		}
	}
	/* Each knob raised alone: a strategy against itself without it. */
	for (size_t up = 0; up < ns && r == 0; up++)
		for (size_t base = 0; base < ns && r == 0; base++) {
			if (!one_knob_up(&stacks[up], &stacks[base]))
				continue;
			for (size_t k = 0; k < strategy_count() * RX_MODE_COUNT;
			     k++) {
				struct analysis_crossover *c = crossover_slot(
					a);

				if (!c) {
					r = -ENOMEM;
					break;
				}
				*c = (struct analysis_crossover){
					.mode = mode,
					.threads = threads,
					.strategy = strategy_at(k /
								RX_MODE_COUNT)
							    ->name,
					.rx = (enum rx_mode)(k % RX_MODE_COUNT),
					.stack = stacks[up],
					.versus_stack = stacks[base],
					.stack_pair = true,
					.fewest_runs = SIZE_MAX,
				};
				c->versus = c->strategy;
				if (crossover_fill(a, results, c, sizes, n))
					a->crossover_count++;
			}
		}
	free(sizes);
	free(stacks);
	return r;
}

/*
 * What the zero-copy senders' profiles say of it: their CPU in the copy at
 * delivery and in pinning pages, over every sampled zero-copy run; "" where
 * none was sampled.
 */
static void zerocopy_profile(const struct run_result *results, size_t count,
			     char *out, size_t size)
{
	size_t late = role_find("copy_deferred"), pin = role_find("pin");
	uint64_t samples = 0, late_samples = 0, pin_samples = 0;

	out[0] = '\0';
	for (size_t i = 0; i < count; i++) {
		const struct run_profile *p = &results[i].profile[0];

		/* User space's samples say nothing of pinning or copying. */
		if (!results[i].config.strategy->zerocopy || !p->present ||
		    p->user_only)
			continue;
		samples += p->samples;
		late_samples += p->role[late];
		pin_samples += p->role[pin];
	}
	if (samples)
		snprintf(out, size,
			 "; sampled, its senders spent %.0f%% of their CPU in "
			 "the copy at delivery and %.0f%% pinning pages",
			 100.0 * (double)late_samples / (double)samples,
			 100.0 * (double)pin_samples / (double)samples);
}

static void zerocopy_why(struct analysis *a, const struct run_result *results,
			 size_t count)
{
	struct run_totals sum = {0};
	bool two_hosts = false, suspect = false, coalesced = false;
	char share[32];
	size_t len;

	for (size_t i = 0; i < count; i++) {
		const struct run_totals *t = &results[i].totals;

		if (!results[i].config.strategy->zerocopy)
			continue;
		a->has_zerocopy = true;
		two_hosts = two_hosts || results[i].config.role != RUN_BOTH;
		sum.zc_completions += t->zc_completions;
		sum.zc_copied += t->zc_copied;
		sum.zc_copied_min += t->zc_copied_min;
		sum.zc_copied_max += t->zc_copied_max;
		coalesced |= t->zc_copied_min != t->zc_copied_max;
	}
	for (size_t i = 0; i < a->crossover_count; i++)
		suspect |= a->crossovers[i].suspect;
	if (!a->has_zerocopy || !sum.zc_completions)
		return;
	sampler_zc_copied(&sum, share, sizeof(share));
	a->all_copied = nearly_all(sum.zc_copied, sum.zc_completions);
	if (a->all_copied)
		snprintf(a->zerocopy_why, sizeof(a->zerocopy_why),
			 "the kernel copied %s of zero-copy sends %s, so "
			 "pinning pages only added work%s",
			 share,
			 two_hosts ? "anyway (it does when the route to the "
				     "agent is local, or the NIC lacks "
				     "scatter-gather or checksum offload)"
				   : "at delivery (veth and loopback deliver "
				     "locally)",
			 coalesced ? " (every notification said copied; "
				     "MSG_ZEROCOPY flags a coalesced range "
				     "by its first send, which proves the "
				     "lower bound)"
				   : "");
	else
		snprintf(a->zerocopy_why, sizeof(a->zerocopy_why),
			 "%.0f%% of zero-copy sends' notifications said no "
			 "copy; the kernel copied %s",
			 100.0 - 100.0 * (double)sum.zc_copied /
					 (double)sum.zc_completions,
			 share);
	len = strlen(a->zerocopy_why);
	zerocopy_profile(results, count, a->zerocopy_why + len,
			 sizeof(a->zerocopy_why) - len);
	len = strlen(a->zerocopy_why);
	/* A lead that more work cannot explain is said to be suspect. */
	if (suspect)
		snprintf(a->zerocopy_why + len, sizeof(a->zerocopy_why) - len,
			 "; where a zero-copy strategy still came out ahead "
			 "it cannot be the copy it saved: suspect noise, try "
			 "--repeat 5");
}

/* The points, each with the indices of its runs in a->member. */
static int build_points(struct analysis *a, const struct run_result *results,
			const struct analysis_run *runs, size_t count)
{
	size_t members = 0;

	for (size_t i = 0; i < count; i++) {
		const struct run_config *c = &results[i].config;
		struct analysis_point *p = NULL;

		if (!runs[i].usable)
			continue;
		for (size_t j = 0; j < a->point_count && !p; j++)
			if (at_point(&a->points[j], c))
				p = &a->points[j];
		if (!p) {
			p = &a->points[a->point_count++];
			*p = (struct analysis_point){.key = point_key_of(c)};
		}
		if (runs[i].stopped) {
			p->stopped_runs++;
			a->stopped_runs++;
		} else if (runs[i].short_run) {
			p->short_runs++;
			a->short_runs++;
		} else {
			p->runs++;
			a->runs++;
		}
	}
	for (size_t j = 0; j < a->point_count; j++) {
		struct analysis_point *p = &a->points[j];

		p->first = members;
		for (size_t i = 0; i < count; i++)
			if (runs[i].usable && !left_out(&runs[i]) &&
			    at_point(p, &results[i].config))
				a->member[members++] = i;
		if (p->runs && point_fill(a, p, results, runs) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* Whether r was measured on a busy host, and how: "14% steal, 0.64 CPUs ...". */
static bool busy_run(const struct run_result *r, char *out, size_t size)
{
	const struct run_host_load *h = &r->host_load;
	bool steal = h->steal_pct >= ANALYSIS_BUSY_STEAL_PCT;
	bool outside = h->outside_cpus >= ANALYSIS_BUSY_OUTSIDE_CPUS;
	size_t len = 0;

	if (size)
		out[0] = '\0';
	if (!h->known || (!steal && !outside))
		return false;
	if (steal)
		len = (size_t)snprintf(out, size, "%.0f%% steal%s",
				       h->steal_pct, outside ? ", " : "");
	if (outside && len < size)
		snprintf(out + len, size - len, "%.2f CPUs of other processes",
			 h->outside_cpus);
	return true;
}

void analysis_busy_start(struct analysis_busy_list *l, char *out, size_t size)
{
	*l = (struct analysis_busy_list){.out = out, .size = size};
	if (size)
		out[0] = '\0';
}

void analysis_busy_add(struct analysis_busy_list *l, const struct run_result *r,
		       size_t number, const char *about)
{
	char busy[80], item[256];

	if (!busy_run(r, busy, sizeof(busy)))
		return;
	snprintf(item, sizeof(item), "%srun %zu%s%s%s: %s", l->len ? "; " : "",
		 number, about ? " (" : "", about ? about : "",
		 about ? ")" : "", busy);
	/* Room left for " and N more". */
	if (l->len + strlen(item) + 16 >= l->size) {
		l->more++;
		return;
	}
	l->len += (size_t)snprintf(l->out + l->len, l->size - l->len, "%s",
				   item);
}

void analysis_busy_end(struct analysis_busy_list *l)
{
	if (l->more && l->len < l->size)
		snprintf(l->out + l->len, l->size - l->len, " and %zu more",
			 l->more);
}

void analysis_busy_why(const struct run_result *results, size_t count,
		       char *out, size_t size)
{
	struct analysis_busy_list l;

	analysis_busy_start(&l, out, size);
	for (size_t i = 0; i < count; i++)
		analysis_busy_add(&l, &results[i], i + 1, NULL);
	analysis_busy_end(&l);
}

/*
 * The runs sampled in user space only, "runs 1-3, 7", and why (the first's
 * reason, which has the fix): their CPU by role is n/a everywhere.
 */
static void user_space_why(struct analysis *a, const struct run_result *results,
			   size_t count)
{
	char numbers[160] = "";
	const char *why = NULL;
	size_t len = 0, named = 0, from = SIZE_MAX;

	for (size_t i = 0; i <= count; i++) {
		const struct run_profile *p = i < count ? results[i].profile
							: NULL;
		bool user_only = p && ((p[0].present && p[0].samples &&
					p[0].user_only) ||
				       (p[1].present && p[1].samples &&
					p[1].user_only));

		if (user_only && from == SIZE_MAX)
			from = i;
		if (user_only && !why)
			why = p[0].user_only ? p[0].why : p[1].why;
		if (user_only || from == SIZE_MAX)
			continue;
		/* A range of runs ends before i: "1-3", or "7"; then "...". */
		if (len + 24 < sizeof(numbers))
			len += (size_t)snprintf(
				numbers + len, sizeof(numbers) - len,
				i - from > 1 ? "%s%zu-%zu" : "%s%zu",
				named ? ", " : "", from + 1, i);
		else if (!strstr(numbers, "..."))
			snprintf(numbers + len, sizeof(numbers) - len, ", ...");
		named += i - from;
		from = SIZE_MAX;
	}
	if (why)
		snprintf(a->user_space_why, sizeof(a->user_space_why),
			 "run%s %s: %s; their CPU by role is n/a",
			 named > 1 ? "s" : "", numbers, why);
}

/*
 * The rr runs that timed their round trips with nio-top's counters on: the
 * counters' work at every context switch is inside each round trip.
 */
static void counters_why(struct analysis *a, const struct run_result *results,
			 size_t count)
{
	size_t counted = 0;

	for (size_t i = 0; i < count; i++)
		counted += results[i].config.mode == RUN_RR &&
			   results[i].config.counters &&
			   results[i].latency.count;
	if (counted)
		snprintf(a->counters_why, sizeof(a->counters_why),
			 "%zu rr run%s timed %s round trips with nio-top's "
			 "counters on, whose work at every context switch is "
			 "inside each round trip; --no-counters leaves it "
			 "out, and a run of each shows what it costs here",
			 counted, counted == 1 ? "" : "s",
			 counted == 1 ? "its" : "their");
}

int analysis_build(const struct run_result *results,
		   const struct analysis_run *runs, size_t count,
		   struct analysis *a)
{
	int r = 0;

	memset(a, 0, sizeof(*a));
	if (!count)
		return 0;
	a->points = calloc(count, sizeof(*a->points));
	a->member = calloc(count, sizeof(*a->member));
	if (!a->points || !a->member) {
		analysis_fini(a);
		return -ENOMEM;
	}
	r = build_points(a, results, runs, count);
	/* Each mode and flow count once, in the order first run. */
	for (size_t i = 0; i < a->point_count && r == 0; i++) {
		const struct analysis_point *p = &a->points[i];
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = point_key_equal(&a->points[j].key, &p->key,
					       POINT_MODE | POINT_FLOWS);
		if (!seen)
			r = add_crossovers(a, results, p->key.mode,
					   p->key.threads);
	}
	zerocopy_why(a, results, count);
	analysis_busy_why(results, count, a->busy_why, sizeof(a->busy_why));
	user_space_why(a, results, count);
	counters_why(a, results, count);
	if (r == 0)
		r = analysis_probe_build(a, results);
	if (r == 0 && analysis_waits(a, results) < 0)
		r = -ENOMEM;
	return r;
}

void analysis_fini(struct analysis *a)
{
	free(a->points);
	free(a->member);
	free(a->crossovers);
	free(a->probes);
	free(a->waits);
	free(a->wait_groups);
	memset(a, 0, sizeof(*a));
}

const char *analysis_verdict_name(enum analysis_verdict verdict)
{
	static const char *const names[] = {
		[VERDICT_FROM] = "from",	   [VERDICT_NEVER] = "never",
		[VERDICT_MIXED] = "mixed",	   [VERDICT_TIE] = "tie",
		[VERDICT_UNDECIDED] = "undecided", [VERDICT_BEHIND] = "behind",
	};

	return names[verdict];
}

/* "1K, 4K" of the sizes with this outcome; "every size" for all of them. */
static void sizes_with(const struct analysis_crossover *c,
		       enum stats_outcome outcome, char *out, size_t size)
{
	size_t n = 0, len = 0;

	out[0] = '\0';
	for (size_t j = 0; j < c->size_count; j++)
		n += c->size[j].difference.outcome == outcome;
	if (n == c->size_count && n > 1) {
		snprintf(out, size, "every size");
		return;
	}
	for (size_t j = 0; j < c->size_count && len < size; j++) {
		char bytes[24];

		if (c->size[j].difference.outcome != outcome)
			continue;
		units_format_size(c->size[j].msg_size, bytes, sizeof(bytes));
		len += (size_t)snprintf(out + len, size - len, "%s%s",
					len ? ", " : "", bytes);
	}
}

/*
 * The evidence at every size: the ratio (how many times better the first
 * is) and its 90% interval, "4K 0.85 [0.80, 0.90]"; a size with one run a
 * point has no interval.
 */
static void evidence(const struct analysis_crossover *c, char *out, size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	for (size_t j = 0; j < c->size_count && len < size; j++) {
		const struct stats_difference *d = &c->size[j].difference;
		char bytes[24];

		units_format_size(c->size[j].msg_size, bytes, sizeof(bytes));
		if (isfinite(d->low) && isfinite(d->high))
			len += (size_t)snprintf(out + len, size - len,
						"%s%s %.2f [%.2f, %.2f]",
						len ? ", " : "", bytes,
						d->ratio, d->low, d->high);
		else
			len += (size_t)snprintf(out + len, size - len,
						"%s%s %.2f", len ? ", " : "",
						bytes, d->ratio);
	}
}

/*
 * What a pair that differs on the receiving side or in a knob did to the
 * receiver, size by size: "; receiver CPU per KiB 64K 114 vs 178 ns, its
 * copy 0% vs 31%"; "" for other pairs and where nothing is known.
 */
static void receiver_evidence(const struct analysis_crossover *c, char *out,
			      size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	if (!c->rx_pair && !c->stack_pair)
		return;
	for (size_t j = 0; j < c->size_count && len < size; j++) {
		const struct analysis_size *s = &c->size[j];
		char bytes[24];

		if (!isfinite(s->rx_cpu_ns_per_kib[0]) ||
		    !isfinite(s->rx_cpu_ns_per_kib[1]))
			continue;
		units_format_size(s->msg_size, bytes, sizeof(bytes));
		len += (size_t)snprintf(
			out + len, size - len, "%s%s %.0f vs %.0f ns",
			len ? ", " : "; receiver CPU per KiB ", bytes,
			s->rx_cpu_ns_per_kib[0], s->rx_cpu_ns_per_kib[1]);
		if (isfinite(s->rx_copy_share[0]) &&
		    isfinite(s->rx_copy_share[1]) && len < size)
			len += (size_t)snprintf(out + len, size - len,
						" (copying %.0f%% vs %.0f%%)",
						100 * s->rx_copy_share[0],
						100 * s->rx_copy_share[1]);
	}
}

/*
 * Whether an undecided size's ratio lies within half the minimum effect of
 * the edge it must clear: then its nearness, not its runs' spread, is what
 * asks for so many runs.
 */
static bool near_the_edge(const struct analysis_size *s)
{
	double margin = log(1 + STATS_MIN_EFFECT);

	return fabs(fabs(log(s->difference.ratio)) - margin) < margin / 2;
}

/*
 * What would decide one undecided size, in words: "about 9 runs a point";
 * runs: what its points hold now.
 */
static void decide_size(const struct analysis_size *s, size_t runs, char *out,
			size_t size)
{
	if (s->difference.outcome == STATS_TOO_FEW_RUNS || !s->runs_to_decide)
		snprintf(out, size, "try --repeat 3");
	else if (s->runs_to_decide <= runs)
		snprintf(out, size, "more repeats, or longer runs");
	else if (s->runs_to_decide == SIZE_MAX && near_the_edge(s))
		snprintf(out, size,
			 "more than %d runs a point, its ratio (%.2f) being so "
			 "near the %.0f%% edge",
			 ANALYSIS_RUNS_HINT_MAX, s->difference.ratio,
			 STATS_MIN_EFFECT * 100);
	else if (s->runs_to_decide == SIZE_MAX)
		snprintf(out, size,
			 "more than %d runs a point, its runs spreading %.0f%% "
			 "from one to the next against a ratio of %.2f",
			 ANALYSIS_RUNS_HINT_MAX, s->spread * 100,
			 s->difference.ratio);
	else
		snprintf(
			out, size,
			"about %zu runs a point would decide it (--repeat %zu)",
			s->runs_to_decide, s->runs_to_decide);
}

/* Whether size j of c is undecided. */
static bool undecided(const struct analysis_crossover *c, size_t j)
{
	return c->size[j].difference.outcome == STATS_UNDECIDED ||
	       c->size[j].difference.outcome == STATS_TOO_FEW_RUNS;
}

/*
 * What would decide the undecided sizes: "; undecided at 16K: about 9 runs
 * a point would decide it (--repeat 9)", once where every such size needs
 * the same, else size by size ("; undecided at 16K: ...; at 64K: ...");
 * whole: the verdict is that nothing is decided, so no "undecided at".
 * Nothing when every size is decided.
 */
static void decide_hint(const struct analysis_crossover *c, bool whole,
			char *out, size_t size)
{
	char first[160] = "", what[160], sizes[200] = "", bytes[24];
	size_t len = 0, count = 0;
	bool alike = true;

	out[0] = '\0';
	for (size_t j = 0; j < c->size_count; j++) {
		if (!undecided(c, j))
			continue;
		decide_size(&c->size[j], c->fewest_runs, what, sizeof(what));
		units_format_size(c->size[j].msg_size, bytes, sizeof(bytes));
		snprintf(sizes + strlen(sizes), sizeof(sizes) - strlen(sizes),
			 "%s%s", count ? ", " : "", bytes);
		alike &= !count || strcmp(first, what) == 0;
		if (!count++)
			snprintf(first, sizeof(first), "%s", what);
	}
	if (!count)
		return;
	if (alike) {
		snprintf(out, size, "; %s%s%s%s", whole ? "" : "undecided at ",
			 whole ? "" : sizes, whole ? "" : ": ", first);
		return;
	}
	for (size_t j = 0, k = 0; j < c->size_count && len < size; j++) {
		if (!undecided(c, j))
			continue;
		decide_size(&c->size[j], c->fewest_runs, what, sizeof(what));
		units_format_size(c->size[j].msg_size, bytes, sizeof(bytes));
		len += (size_t)snprintf(out + len, size - len, "; %sat %s: %s",
					!whole && !k++ ? "undecided " : "",
					bytes, what);
	}
}

/* The one knob s sets apart from other, as s has it: "gso-ipv4 185000". */
static void knob_text(const struct settings_stack *s,
		      const struct settings_stack *other, char *out,
		      size_t size)
{
	if (s->gso_max_size != other->gso_max_size)
		snprintf(out, size,
			 s->gso_max_size ? "gso-ipv4 %u" : "gso-ipv4 as built",
			 s->gso_max_size);
	else if (s->gro_max_size != other->gro_max_size)
		snprintf(out, size,
			 s->gro_max_size ? "gro-ipv4 %u" : "gro-ipv4 as built",
			 s->gro_max_size);
	else if (s->gro != other->gro)
		snprintf(out, size, "GRO %s",
			 s->gro == GRO_DEFAULT ? "as built"
					       : gro_mode_names[s->gro]);
	else
		snprintf(out, size,
			 s->busy_poll ? "busy-poll %uus" : "no busy-poll",
			 s->busy_poll);
}

/*
 * Who is compared with whom ("one-copy with gso-ipv4 185000", "one-copy
 * with gso-ipv4 as built"), and the head: mode, flows, receive side and the
 * knobs both share ("stream, 1 flow, rx uring, gro-ipv4 185000:").
 */
static void crossover_names(const struct analysis_crossover *c,
			    char strategy[96], char versus[96], char head[192])
{
	const struct rx_side *rx = rx_side_of(c->rx);
	char knobs[96] = "", knob[48], versus_knob[48];

	/*
	 * A strategy against itself: the receive side, or the one knob,
	 * tells them apart.
	 */
	if (c->stack_pair) {
		struct settings_stack common = c->versus_stack;

		/* The head says the knobs both sides share. */
		if (common.gso_max_size != c->stack.gso_max_size)
			common.gso_max_size = 0;
		if (common.gro_max_size != c->stack.gro_max_size)
			common.gro_max_size = 0;
		if (common.gro != c->stack.gro)
			common.gro = GRO_DEFAULT;
		if (common.busy_poll != c->stack.busy_poll)
			common.busy_poll = 0;
		settings_stack_tag(&common, knobs, sizeof(knobs));
		knob_text(&c->stack, &c->versus_stack, knob, sizeof(knob));
		knob_text(&c->versus_stack, &c->stack, versus_knob,
			  sizeof(versus_knob));
		snprintf(strategy, 96, "%s with %s", c->strategy, knob);
		snprintf(versus, 96, "%s with %s", c->versus, versus_knob);
	} else {
		snprintf(strategy, 96, "%s%s", c->strategy,
			 c->rx_pair ? rx->words : "");
		snprintf(versus, 96, "%s%s", c->versus,
			 c->rx_pair ? rx_side_of(RX_COPY)->words : "");
		settings_stack_tag(&c->stack, knobs, sizeof(knobs));
	}
	snprintf(head, 192, "%s, %u flow%s%s%s%s%s:",
		 c->mode == RUN_RR ? "rr (p50)" : run_mode_name(c->mode),
		 c->threads, c->threads == 1 ? "" : "s",
		 !c->rx_pair && !rx->own ? ", rx " : "",
		 !c->rx_pair && !rx->own ? rx->name : "", knobs[0] ? "," : "",
		 knobs);
}

void analysis_crossover_text(const struct analysis_crossover *c, char *out,
			     size_t size)
{
	char head[192], tail[1100], list[160], other[160], bytes[24];
	char received[480];
	char strategy[96], versus[96], proof[480], hint[600];
	size_t len;

	crossover_names(c, strategy, versus, head);
	evidence(c, proof, sizeof(proof));
	receiver_evidence(c, received, sizeof(received));
	snprintf(tail, sizeof(tail), "(%s%s; %zu runs, %zu intervals)", proof,
		 received, c->runs, c->intervals);
	decide_hint(c, c->verdict == VERDICT_UNDECIDED, hint, sizeof(hint));
	switch (c->verdict) {
	case VERDICT_FROM:
		units_format_size(c->msg_size, bytes, sizeof(bytes));
		if (c->size_count == 1)
			snprintf(out, size, "%s %s beats %s at %s %s%s", head,
				 strategy, versus, bytes, tail, hint);
		else if (c->msg_size == c->size[0].msg_size)
			snprintf(out, size, "%s %s beats %s at every size %s%s",
				 head, strategy, versus, tail, hint);
		else
			snprintf(out, size, "%s %s beats %s from %s %s%s", head,
				 strategy, versus, bytes, tail, hint);
		break;
	case VERDICT_NEVER:
		sizes_with(c, STATS_BEHIND, list, sizeof(list));
		sizes_with(c, STATS_EQUAL, other, sizeof(other));
		if (other[0])
			snprintf(out, size,
				 "%s %s never beats %s: behind at %s, within "
				 "%.0f%% at %s %s",
				 head, strategy, versus, list,
				 STATS_MIN_EFFECT * 100, other, tail);
		else
			snprintf(out, size,
				 "%s %s never beats %s: behind at %s %s", head,
				 strategy, versus, list, tail);
		break;
	case VERDICT_BEHIND:
		sizes_with(c, STATS_BEHIND, list, sizeof(list));
		snprintf(out, size, "%s %s behind %s at %s %s%s", head,
			 strategy, versus, list, tail, hint);
		break;
	case VERDICT_MIXED:
		sizes_with(c, STATS_AHEAD, list, sizeof(list));
		sizes_with(c, STATS_BEHIND, other, sizeof(other));
		snprintf(out, size, "%s %s ahead of %s at %s%s%s %s%s", head,
			 strategy, versus, list, other[0] ? "; behind at " : "",
			 other, tail, hint);
		break;
	case VERDICT_TIE:
		snprintf(out, size,
			 "%s %s and %s within %.0f%% of each other at every "
			 "size %s",
			 head, strategy, versus, STATS_MIN_EFFECT * 100, tail);
		break;
	case VERDICT_UNDECIDED:
		if (c->most_runs > c->fewest_runs)
			snprintf(list, sizeof(list), "%zu to %zu runs",
				 c->fewest_runs, c->most_runs);
		else
			snprintf(list, sizeof(list), "%zu run%s",
				 c->fewest_runs,
				 c->fewest_runs == 1 ? "" : "s");
		snprintf(out, size,
			 "%s %s vs %s: not distinguishable here: %s per "
			 "point, spread %.0f%%%s %s",
			 head, strategy, versus, list,
			 isfinite(c->spread) ? c->spread * 100 : 0, hint, tail);
		break;
	}
	len = strlen(out);
	if (c->suspect && len < size)
		snprintf(out + len, size - len,
			 "; suspect: the kernel copied every zero-copy send");
}
