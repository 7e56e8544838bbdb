/*
 * Sampling: sums the per-thread counter blocks of every flow.  Rates are taken
 * on the receiving side, i.e. what was delivered, not what was queued.
 */
#include <math.h>
#include <stddef.h>
#include <time.h>

#include "sampler.h"

#define DERIVED(name)                                                          \
	{                                                                      \
#name, offsetof(struct counter_derived, name)                  \
	}
const struct sample_field counter_derived_fields[] = {
	DERIVED(ipc),
	DERIVED(cycles_per_byte),
	DERIVED(l1_misses_per_kib),
	DERIVED(llc_misses_per_kib),
	DERIVED(l1_misses_per_s),
	DERIVED(llc_misses_per_s),
	DERIVED(ctx_switches_per_s),
	DERIVED(ctx_switches_per_msg),
	DERIVED(cpu_pct),
};
#undef DERIVED

const size_t counter_derived_field_count = sizeof(counter_derived_fields) /
					   sizeof(*counter_derived_fields);

void sampler_read(const struct worker_flow *flows, unsigned int flow_count,
		  uint64_t now_ns, struct sample *out)
{
	struct run_totals *t = &out->totals;

	*out = (struct sample){.t_ns = now_ns};
	for (unsigned int i = 0; i < flow_count; i++) {
		const struct flow_stats *tx = &flows[i].tx;
		const struct flow_stats *rx = &flows[i].rx;

		t->messages_sent += flow_stat_read(&tx->messages);
		t->bytes_sent += flow_stat_read(&tx->bytes);
		t->zc_sends += flow_stat_read(&tx->zc_sends);
		t->zc_completions += flow_stat_read(&tx->zc_completions);
		t->zc_copied += flow_stat_read(&tx->zc_copied);
		t->zc_enobufs += flow_stat_read(&tx->zc_enobufs);
		t->messages_received += flow_stat_read(&rx->messages);
		t->bytes_received += flow_stat_read(&rx->bytes);
		t->checked += flow_stat_read(&rx->checked);
		t->corrupt += flow_stat_read(&rx->corrupt);
		if (atomic_load_explicit(&flows[i].tx_counting,
					 memory_order_acquire))
			thread_counters_read(&flows[i].tx_counters,
					     out->tx_counters);
		if (atomic_load_explicit(&flows[i].rx_counting,
					 memory_order_acquire))
			thread_counters_read(&flows[i].rx_counters,
					     out->rx_counters);
	}
}

static void counter_delta(const struct counter_reading *from,
			  const struct counter_reading *to,
			  struct counter_reading *delta)
{
	for (unsigned int i = 0; i < COUNTERS_MAX; i++) {
		delta[i].value = to[i].value - from[i].value;
		delta[i].enabled_ns = to[i].enabled_ns - from[i].enabled_ns;
		delta[i].running_ns = to[i].running_ns - from[i].running_ns;
	}
}

/* The event's count in the delta, or NaN if it is not there or never ran. */
static double counted(const struct counter_set *set,
		      const struct counter_reading *delta, const char *name)
{
	int i = counters_find(set, name);

	return i >= 0 && delta[i].running_ns ? delta[i].value : NAN;
}

static double ratio(double num, double den)
{
	return isnan(num) || isnan(den) || den <= 0 ? NAN : num / den;
}

static void derive(const struct counter_set *set,
		   const struct counter_reading *delta, uint64_t bytes,
		   uint64_t messages, double seconds,
		   struct counter_derived *out)
{
	double cycles = counted(set, delta, "cycles");
	double ctx = counted(set, delta, "context-switches");
	double l1 = counted(set, delta, "L1-dcache-load-misses");
	double llc = counted(set, delta, "LLC-load-misses");
	double kib = (double)bytes / 1024;

	out->ipc = ratio(counted(set, delta, "instructions"), cycles);
	out->cycles_per_byte = ratio(cycles, (double)bytes);
	out->l1_misses_per_kib = ratio(l1, kib);
	out->llc_misses_per_kib = ratio(llc, kib);
	out->l1_misses_per_s = ratio(l1, seconds);
	out->llc_misses_per_s = ratio(llc, seconds);
	out->ctx_switches_per_s = ratio(ctx, seconds);
	out->ctx_switches_per_msg = ratio(ctx, (double)messages);
	/* task-clock counts nanoseconds on a CPU. */
	out->cpu_pct = ratio(counted(set, delta, "task-clock") / 1e7, seconds);
}

static double sampler_seconds(const struct sample *from,
			      const struct sample *to)
{
	return (double)(to->t_ns - from->t_ns) / 1e9;
}

double sampler_gbps(const struct sample *from, const struct sample *to)
{
	double s = sampler_seconds(from, to);
	uint64_t bytes = to->totals.bytes_received -
			 from->totals.bytes_received;

	return s > 0 ? (double)bytes * 8 / s / 1e9 : 0;
}

double sampler_msgs_per_s(const struct sample *from, const struct sample *to)
{
	double s = sampler_seconds(from, to);
	uint64_t msgs = to->totals.messages_received -
			from->totals.messages_received;

	return s > 0 ? (double)msgs / s : 0;
}

void sampler_side(const struct counter_set *set, const struct sample *from,
		  const struct sample *to, bool sender,
		  struct counter_reading *delta, struct counter_derived *out)
{
	const struct run_totals *a = &from->totals, *b = &to->totals;
	struct counter_reading own[COUNTERS_MAX];

	if (!delta)
		delta = own;
	counter_delta(sender ? from->tx_counters : from->rx_counters,
		      sender ? to->tx_counters : to->rx_counters, delta);
	derive(set, delta,
	       sender ? b->bytes_sent - a->bytes_sent
		      : b->bytes_received - a->bytes_received,
	       sender ? b->messages_sent - a->messages_sent
		      : b->messages_received - a->messages_received,
	       (double)(to->t_ns - from->t_ns) / 1e9, out);
}
