/*
 * Sampling: sums the per-thread counter blocks of every flow.  Rates are taken
 * on the receiving side, i.e. what was delivered, not what was queued.
 */
#include <time.h>

#include "sampler.h"

uint64_t sampler_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

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
	}
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
