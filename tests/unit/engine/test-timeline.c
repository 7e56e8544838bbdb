/*
 * The timeline of a long run: a simulated day of 100 ms ticks (with jitter,
 * a warm-up that ends between ticks, traffic and a task-clock that change
 * every tick) must keep at most timeline_bound() boundaries at every moment,
 * the last five minutes at full resolution and the rest merged into at most
 * TIMELINE_OLD_MAX intervals that never mix warm-up and measured time, end to
 * end with no gap; and each merged interval's figures, derived by the
 * sampler from its two boundaries, must equal those of the traffic the
 * generator put into the ticks it covers, summed independently.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "counters.h"
#include "metric.h"
#include "sampler.h"
#include "tap.h"
#include "timeline.h"

#define TICK_NS	   (100 * NS_PER_MS)
#define DAY_TICKS  (24 * 36000)
#define HOUR_TICKS 36000
#define WARMUP_NS  (5050 * NS_PER_MS) /* between two ticks */
#define START_NS   1000000000ull

/* What the generator put into tick k (1-based): bytes and CPU ns. */
static uint64_t tick_bytes(uint64_t k)
{
	return 1000 * (k % 7 + 1) + (k % 13) * 17;
}

static double tick_cpu_ns(uint64_t k)
{
	return 20e6 + (double)(k % 11) * 1e6;
}

/* The end of tick k: 100 ms apart, give or take a millisecond. */
static uint64_t tick_end(uint64_t k)
{
	return START_NS + k * TICK_NS + (k % 3) * NS_PER_MS / 2;
}

/* Cumulative bytes and CPU up to the end of tick k. */
struct totals {
	uint64_t bytes;
	double cpu_ns;
};

static struct totals *cumulative;

static struct sample sample_at(uint64_t t_ns, uint64_t k)
{
	struct sample s;

	memset(&s, 0, sizeof(s));
	s.t_ns = t_ns;
	s.totals.bytes_received = cumulative[k].bytes;
	s.totals.messages_received = cumulative[k].bytes / 100;
	s.rx_counters[0].raw = cumulative[k].cpu_ns;
	s.rx_counters[0].enabled_ns = t_ns - START_NS;
	s.rx_counters[0].running_ns = t_ns - START_NS;
	return s;
}

/* The tick whose end is t (the generator's own record), or -1. */
static long tick_of(uint64_t t_ns, uint64_t last)
{
	uint64_t k = (t_ns - START_NS) / TICK_NS;

	for (uint64_t j = k ? k - 1 : 0; j <= k + 1 && j <= last; j++)
		if (tick_end(j) == t_ns)
			return (long)j;
	return -1;
}

/* Every property, with the timeline holding ticks 0 .. last. */
static void check(const struct timeline *tl, const struct counter_set *set,
		  uint64_t last, const char *when)
{
	size_t n = timeline_intervals(tl), old = 0, recent_bad = 0;
	size_t mixed = 0, gaps = 0, wrong = 0;
	uint64_t cutoff = tick_end(last) - TIMELINE_RECENT_S * 1000 * NS_PER_MS;
	uint64_t bytes = 0;
	int cpu = metric_find("cpu_pct"), gbps = metric_find("gbps");

	for (size_t i = 0; i < n; i++) {
		const struct sample *from, *to, *next_from, *unused;
		struct metric_values v;
		long a, b;
		bool warmup, w;
		double want_cpu = 0, want_bytes = 0, seconds;

		timeline_interval(tl, i, &from, &to, &warmup);
		if (i + 1 < n) {
			timeline_interval(tl, i + 1, &next_from, &unused, &w);
			gaps += next_from != to;
		}
		bytes += to->totals.bytes_received -
			 from->totals.bytes_received;
		/* Warm-up intervals end by its end, the others after. */
		mixed += warmup != (to->t_ns <= START_NS + WARMUP_NS);
		if (to->t_ns <= cutoff)
			old++;
		else if (to->t_ns - from->t_ns > TICK_NS + TICK_NS / 2)
			recent_bad++;
		/* The generator's ticks inside, summed on their own. */
		a = from->t_ns == START_NS + WARMUP_NS
			    ? -2
			    : tick_of(from->t_ns, last);
		b = to->t_ns == START_NS + WARMUP_NS ? -2
						     : tick_of(to->t_ns, last);
		if (a == -1 || b == -1) {
			wrong++;
			continue;
		}
		if (a == -2 || b == -2)
			continue; /* the warm-up's own boundary: not a tick */
		for (long k = a + 1; k <= b; k++) {
			want_bytes += (double)tick_bytes((uint64_t)k);
			want_cpu += tick_cpu_ns((uint64_t)k);
		}
		sampler_side(set, from, to, false, NULL, &v);
		seconds = (double)(to->t_ns - from->t_ns) / 1e9;
		if (fabs(v.value[gbps] - want_bytes * 8 / seconds / 1e9) >
			    1e-9 * v.value[gbps] ||
		    fabs(v.value[cpu] - want_cpu / seconds / 1e7) >
			    1e-9 * v.value[cpu])
			wrong++;
	}
	ok(timeline_intervals(tl) + 1 <=
		   timeline_bound(TICK_NS, TIMELINE_RECENT_S * 1000 * NS_PER_MS,
				  TIMELINE_OLD_MAX),
	   "%s: %zu boundaries, within the bound of %zu", when, n + 1,
	   timeline_bound(TICK_NS, TIMELINE_RECENT_S * 1000 * NS_PER_MS,
			  TIMELINE_OLD_MAX));
	ok(old <= TIMELINE_OLD_MAX + TIMELINE_SLACK,
	   "%s: %zu old intervals (at most %d, and %d waiting), merged up "
	   "to %.1f s",
	   when, old, TIMELINE_OLD_MAX, TIMELINE_SLACK,
	   (double)tl->merged_ns / 1e9);
	ok(recent_bad == 0, "%s: the last %d s are 100 ms intervals", when,
	   TIMELINE_RECENT_S);
	ok(gaps == 0 && bytes == cumulative[last].bytes,
	   "%s: end to end, no gap; bytes add up to the total (%llu)", when,
	   (unsigned long long)bytes);
	ok(mixed == 0, "%s: no interval mixes warm-up and measured time", when);
	ok(wrong == 0,
	   "%s: every interval's Gbit/s and CPU equal its ticks' traffic, "
	   "summed on their own (%zu wrong)",
	   when, wrong);
}

int main(void)
{
	const char *names[] = {"task-clock"};
	struct counter_set set;
	struct timeline tl;
	uint64_t peak = 0;
	bool added = true;

	counters_named(names, 1, &set);
	cumulative = calloc(DAY_TICKS + 1, sizeof(*cumulative));
	if (!cumulative)
		return 1;
	for (uint64_t k = 1; k <= DAY_TICKS; k++) {
		cumulative[k].bytes = cumulative[k - 1].bytes + tick_bytes(k);
		cumulative[k].cpu_ns = cumulative[k - 1].cpu_ns +
				       tick_cpu_ns(k);
	}

	timeline_init(&tl, TICK_NS, TIMELINE_RECENT_S * 1000 * NS_PER_MS,
		      TIMELINE_OLD_MAX);
	{
		struct sample s = sample_at(tick_end(0), 0);

		added &= timeline_add(&tl, &s, false) == 0;
	}
	for (uint64_t k = 1; k <= DAY_TICKS; k++) {
		struct sample s = sample_at(tick_end(k), k);

		/*
		 * The warm-up ends between ticks 50 and 51, where a paced run
		 * hears "measure": its boundary holds tick 50's counts (a
		 * sample between ticks is a real sample of the same totals).
		 */
		if (k == 51) {
			struct sample mark = sample_at(START_NS + WARMUP_NS,
						       50);

			added &= timeline_add(&tl, &mark, true) == 0;
		}
		added &= timeline_add(&tl, &s,
				      tick_end(k) <= START_NS + WARMUP_NS) == 0;
		if (timeline_intervals(&tl) > peak)
			peak = timeline_intervals(&tl);
		if (k == 2 * 3000)
			check(&tl, &set, k, "10 minutes");
		else if (k == HOUR_TICKS)
			check(&tl, &set, k, "1 hour");
		else if (k == DAY_TICKS)
			check(&tl, &set, k, "24 hours");
	}
	ok(added, "every sample was taken");
	ok(peak + 1 <= timeline_bound(TICK_NS,
				      TIMELINE_RECENT_S * 1000 * NS_PER_MS,
				      TIMELINE_OLD_MAX),
	   "at no moment more than the bound: %llu intervals at most, %zu "
	   "bytes of samples",
	   (unsigned long long)peak,
	   (size_t)(peak + 1) * sizeof(struct timeline_point));
	{
		struct sample late = sample_at(tick_end(DAY_TICKS), DAY_TICKS);
		size_t before = timeline_intervals(&tl);

		timeline_add(&tl, &late, false);
		ok(timeline_intervals(&tl) == before,
		   "a sample no later than the last is ignored");
	}
	timeline_fini(&tl);
	free(cumulative);
	return tap_done();
}
