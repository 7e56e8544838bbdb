/*
 * Reading a run's flows while it runs: their counts and counters at an
 * instant, net of the sampled intervals (run_slices.c keeps what they
 * added), how each side's events opened, and the round trips timed so far.
 * An event that only some of a side's threads opened is left out, so that
 * no figure is derived from part of a side.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "run_private.h"

/*
 * An event that some of a side's threads could not open counts only part of
 * the side: its reading is dropped, so that nothing is derived from it.
 */
static void run_drop_partial(const struct run *run, bool sender,
			     struct counter_reading *reading)
{
	struct counter_open open[COUNTERS_MAX];

	if (run_side_far(run, sender) || !run_side_open(run, sender, open))
		return;
	for (unsigned int i = 0; i < run->config.counters->count; i++)
		if (open[i].opened < open[i].threads)
			reading[i] = (struct counter_reading){0};
}

void run_merge_latency(const struct run *run, struct latency_hist *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned int i = 0; i < run->flow_count; i++)
		latency_hist_add(out, &run->rtt[i]);
}

void run_read(const struct run *run, uint64_t now_ns, struct sample *out)
{
	sampler_read(run->flows, run->flow_count, now_ns, out);
	run_drop_partial(run, true, out->tx_counters);
	run_drop_partial(run, false, out->rx_counters);
	if (run->far)
		run_merge_far(run, out);
}

bool run_side_open(const struct run *run, bool sender,
		   struct counter_open *open)
{
	if (!run->flow_count || !run->config.counters)
		return false;
	memset(open, 0, COUNTERS_MAX * sizeof(*open));
	for (unsigned int f = 0; f < run->flow_count; f++) {
		const struct worker_flow *flow = &run->flows[f];
		const struct thread_counters *tc = sender ? &flow->tx_counters
							  : &flow->rx_counters;

		if (!atomic_load_explicit(sender ? &flow->tx_counting
						 : &flow->rx_counting,
					  memory_order_acquire))
			return false;
		for (unsigned int i = 0; i < run->config.counters->count; i++) {
			if (!open[i].error)
				open[i].error = tc->open[i].error;
			open[i].user_only |= tc->open[i].user_only;
			open[i].threads++;
			open[i].opened += !tc->open[i].error;
		}
	}
	return true;
}

void run_counter_value(const struct run *run, bool sender, unsigned int i,
		       const struct counter_reading *delta,
		       struct counter_value *out)
{
	const struct counter_set *set = run->config.counters;
	struct counter_open open[COUNTERS_MAX];

	if (run_side_far(run, sender)) {
		run_far_counter_value(run, i, delta, out);
		return;
	}
	if (!run_side_open(run, sender, open)) {
		*out = (struct counter_value){.status = COUNTER_NOT_COUNTED,
					      .value = NAN,
					      .running_pct = NAN};
		snprintf(out->reason, sizeof(out->reason),
			 "the threads have not opened their counters yet");
		return;
	}
	counter_evaluate(set, i, &open[i], delta, out);
	if (open[i].error == EMFILE || open[i].error == ENFILE)
		run_descriptor_hint(&run->config, out->reason,
				    sizeof(out->reason));
}

bool run_counters_open(const struct run *run, bool sender,
		       struct counter_open *open)
{
	return run_side_open(run, sender, open);
}

void run_net(const struct run *run, const struct sample *raw,
	     struct sample *net)
{
	/* In a sampled interval the clock stands where the interval began. */
	sampler_delta(&run->excluded, run->slicing ? &run->slice_from : raw,
		      net);
}

void run_sample(const struct run *run, struct sample *raw, struct sample *net)
{
	run_read(run, clock_now_ns(), raw);
	if (net)
		run_net(run, raw, net);
}

bool run_latency(const struct run *run, struct latency_hist *out)
{
	if (!run->rtt)
		return false;
	/* The round trips are timed where the requests are sent. */
	if (run_side_far(run, false)) {
		if (!run_far(run)->has_latency)
			return false;
		*out = run_far(run)->latency;
		return true;
	}
	if (run->state >= RUN_STOPPING)
		*out = *run->rtt_to;
	else
		run_merge_latency(run, out);
	if (run->state != RUN_WARMUP)
		latency_hist_subtract(out, run->rtt_from);
	/* Round trips timed in sampled intervals are not measured ones. */
	if (run->rtt_excluded)
		latency_hist_subtract(out, run->rtt_excluded);
	return true;
}
