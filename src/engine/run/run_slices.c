/*
 * A run's sampled intervals (slices), and its profile and the account of
 * its threads' time (their waits) from them.  Sampling changes what it
 * watches, so a run samples its threads only in one measured interval of
 * RUN_SLICE_EVERY and takes those intervals out of every figure:
 * the counts a sampled interval adds are kept apart (run->excluded), and the
 * samples the run's figures come from are net of them (run_net), as if the
 * clock had stood still while it sampled.  What the sampled intervals moved,
 * against the rest, is sampling's own effect, which the result keeps too.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_private.h"
#include "symbols.h"

/* Whether a run of c samples some of its intervals: profile or waits. */
static bool run_samples(const struct run_config *c)
{
	return c->settings.profile_hz || !c->settings.no_waits;
}

/* The reason a poll or a sleep of ops' side waits for, as it says. */
static size_t poll_reason(const char *key)
{
	size_t r = key ? reason_find(key) : SIZE_MAX;

	return r == SIZE_MAX ? reason_other : r;
}

int run_profile_alloc(struct run *run)
{
	const struct run_settings *s = &run->config.settings;

	if (!run_samples(&run->config))
		return 0;
	if (symbols_load() < 0)
		return -ENOMEM;
	run->poll_reason[0] = poll_reason(run->config.strategy->tx_waits);
	run->poll_reason[1] = poll_reason(
		strategy_receiver(run->config.strategy, s)->rx_waits);
	for (unsigned int i = 0; i < run->flow_count; i++) {
		run->flows[i].profile_hz = s->profile_hz;
		run->flows[i].offcpu = !s->no_waits;
	}
	if (run->rtt) {
		run->rtt_slice_from = calloc(1, sizeof(*run->rtt_slice_from));
		run->rtt_excluded = calloc(1, sizeof(*run->rtt_excluded));
		if (!run->rtt_slice_from || !run->rtt_excluded)
			return -ENOMEM;
	}
	return 0;
}

void run_profile_free(struct run *run)
{
	for (unsigned int i = 0; i < run->flow_count; i++) {
		profile_thread_close(&run->flows[i].tx_profile);
		profile_thread_close(&run->flows[i].rx_profile);
		offcpu_thread_close(&run->flows[i].tx_offcpu);
		offcpu_thread_close(&run->flows[i].rx_offcpu);
	}
	for (int side = 0; side < 2; side++) {
		profile_tally_fini(&run->tally[side]);
		offcpu_tally_fini(&run->waits[side]);
	}
	free(run->rtt_slice_from);
	free(run->rtt_excluded);
}

/*
 * One thread's events on: each opened, then enabled (one that does not
 * open keeps why); off: each disabled, and closed once drained.
 */
static void thread_sampling(struct run *run, size_t side, pid_t tid,
			    pthread_t thread, struct profile_thread *profile,
			    struct offcpu_thread *waits, bool on)
{
	const struct run_settings *s = &run->config.settings;
	clockid_t cpu_clock;

	if (s->profile_hz &&
	    (!on || profile_thread_open(profile, tid, s->profile_hz) == 0))
		profile_thread_enable(profile, on);
	if (s->no_waits)
		return;
	if (!on) {
		offcpu_thread_enable(waits, false);
		return;
	}
	if (pthread_getcpuclockid(thread, &cpu_clock) != 0)
		cpu_clock = (clockid_t)-1;
	if (offcpu_thread_open(waits, tid, cpu_clock, run->poll_reason[side]) ==
	    0)
		offcpu_thread_enable(waits, true);
}

/* Sampling on or off, in every thread that gave its id. */
static void run_sampling(struct run *run, bool on)
{
	for (unsigned int i = 0; i < run->flow_count; i++) {
		struct worker_flow *f = &run->flows[i];

		if (atomic_load_explicit(&f->tx_profiled, memory_order_acquire))
			thread_sampling(run, 0, f->tx_tid, f->tx_thread,
					&f->tx_profile, &f->tx_offcpu, on);
		if (atomic_load_explicit(&f->rx_profiled, memory_order_acquire))
			thread_sampling(run, 1, f->rx_tid, f->rx_thread,
					&f->rx_profile, &f->rx_offcpu, on);
	}
}

/* What the threads' rings hold into the sides' tallies; then closed. */
static void run_unsample(struct run *run)
{
	for (unsigned int i = 0; i < run->flow_count; i++) {
		struct worker_flow *f = &run->flows[i];

		profile_thread_drain(&f->tx_profile, &run->tally[0]);
		profile_thread_drain(&f->rx_profile, &run->tally[1]);
		offcpu_thread_drain(&f->tx_offcpu, &run->waits[0]);
		offcpu_thread_drain(&f->rx_offcpu, &run->waits[1]);
		profile_thread_close(&f->tx_profile);
		profile_thread_close(&f->rx_profile);
		offcpu_thread_close(&f->tx_offcpu);
		offcpu_thread_close(&f->rx_offcpu);
	}
}

bool run_slice_close(struct run *run)
{
	if (!run->slicing)
		return false;
	run_sampling(run, false);
	run_unsample(run);
	return true;
}

void run_slice_end(struct run *run, const struct sample *raw)
{
	struct sample sliced;

	if (!run->slicing) {
		if (run->state == RUN_MEASURE)
			run->measured_intervals++;
		return;
	}
	sampler_delta(&run->slice_from, raw, &sliced);
	sampler_add(&run->excluded, &sliced);
	run->slices++;
	run->slice_ended = true;
	/* The window measures its duration without the sampled time. */
	if (run->end_ns != UINT64_MAX)
		run->end_ns += sliced.t_ns;
	if (run->rtt_excluded) {
		struct latency_hist *now = run->rtt_to;

		/* rtt_to is free until the window ends. */
		run_merge_latency(run, now);
		latency_hist_subtract(now, run->rtt_slice_from);
		latency_hist_merge(run->rtt_excluded, now);
	}
	run_probe_slice_end(run, raw->t_ns);
	run->slicing = false;
}

/*
 * Where the interval that begins at t ends: the next tick, or the window's
 * end.  The ticks do not fall on the window's end, nor a late one on the
 * tick it was due at, and the sliver left before the next boundary (a
 * millisecond as the flows stop) is no interval to sample: it would stand
 * for the run's profile and for sampling's effect.
 */
static uint64_t run_next_boundary(const struct run *run, uint64_t t)
{
	uint64_t next = run->next_tick_ns;

	while (next <= t)
		next += TICK_NS;
	return next < run->end_ns ? next : run->end_ns;
}

void run_slice_begin(struct run *run, const struct sample *raw)
{
	bool sampled = run->slice_ended;

	run->slice_ended = false;
	/* After every RUN_SLICE_EVERY - 1 measured intervals, one sampled. */
	if (!run_samples(&run->config) || run->state != RUN_MEASURE ||
	    sampled || run->measured_intervals == 0 ||
	    run->measured_intervals % (RUN_SLICE_EVERY - 1) != 0 ||
	    run_next_boundary(run, raw->t_ns) - raw->t_ns < TICK_NS / 4)
		return;
	run->slice_from = *raw;
	if (run->rtt_slice_from)
		run_merge_latency(run, run->rtt_slice_from);
	run_probe_slice_begin(run, raw->t_ns);
	run->slicing = true;
	run_sampling(run, true);
}

void run_slice_stop(struct run *run)
{
	if (!run->slicing)
		return;
	/* The window ended where the interval began: nothing to take out. */
	run_sampling(run, false);
	run_unsample(run);
	run->slicing = false;
}

/* Why a side here sampled nothing, or only user space. */
static void run_side_why(const struct run *run, bool sender, char *out,
			 size_t size, bool *user_only)
{
	int error = 0;

	*user_only = false;
	for (unsigned int i = 0; i < run->flow_count; i++) {
		const struct worker_flow *f = &run->flows[i];
		const struct profile_thread *t = sender ? &f->tx_profile
							: &f->rx_profile;

		if (!error)
			error = t->error;
		*user_only |= t->user_only;
	}
	profile_why(error, *user_only, out, size);
	if (!error && !*user_only && symbols_kernel_why())
		snprintf(out, size, "kernel functions unnamed: %s",
			 symbols_kernel_why());
}

/* Why a side here watched no switches, or saw no reasons. */
static void run_waits_why(const struct run *run, bool sender,
			  struct run_time *out)
{
	int error = 0;

	for (unsigned int i = 0; i < run->flow_count; i++) {
		const struct worker_flow *f = &run->flows[i];
		const struct offcpu_thread *t = sender ? &f->tx_offcpu
						       : &f->rx_offcpu;

		if (!error)
			error = t->error;
		out->user_only |= t->user_only;
	}
	offcpu_why(error, out->user_only, out->why, sizeof(out->why));
	if (!error && !out->user_only && symbols_kernel_why())
		snprintf(out->why, sizeof(out->why),
			 "kernel functions unnamed, so no reasons: %s",
			 symbols_kernel_why());
}

double run_sampling_effect(const struct run *run)
{
	/* The rest: the window so far, or as it ended. */
	const struct sample *to = run->state >= RUN_STOPPING ? &run->measure_to
							     : &run->last;
	double sampled_s = (double)run->excluded.t_ns / 1e9;
	double rest_s = (double)(to->t_ns - run->measure_from.t_ns) / 1e9;
	double sampled, rest;

	if (!run->slices || sampled_s <= 0 || rest_s <= 0)
		return NAN;
	sampled = (double)run->excluded.totals.messages_received / sampled_s;
	rest = (double)(to->totals.messages_received -
			run->measure_from.totals.messages_received) /
	       rest_s;
	return rest > 0 ? sampled / rest - 1 : NAN;
}

/* Why a run sampled nothing at all: too short. */
static void run_unsampled_why(const struct run *run, char *out, size_t size)
{
	if (!run->slices && !out[0])
		snprintf(out, size,
			 "no interval was sampled: too short a window (one of "
			 "%d ms in %d is, after %d measured: a run under %.1f "
			 "s has none)",
			 RUN_TICK_MS, RUN_SLICE_EVERY, RUN_SLICE_EVERY - 1,
			 RUN_SLICE_EVERY * RUN_TICK_MS / 1000.0);
}

/* One side's profile and waits, sampled here, into the result. */
static void run_side_finish(struct run *run, int side,
			    struct run_result *result)
{
	const struct run_settings *s = &run->config.settings;
	struct run_profile *p = &result->profile[side];
	struct run_time *t = &result->time[side];

	if (s->profile_hz) {
		profile_summarize(&run->tally[side], s->profile_hz, p);
		run_side_why(run, side == 0, p->why, sizeof(p->why),
			     &p->user_only);
		run_unsampled_why(run, p->why, sizeof(p->why));
	}
	if (!s->no_waits) {
		offcpu_summarize(&run->waits[side], t);
		run_waits_why(run, side == 0, t);
		run_unsampled_why(run, t->why, sizeof(t->why));
	}
}

void run_profile_finish(struct run *run, struct run_result *result)
{
	result->sampling_effect = NAN;
	if (!run_samples(&run->config))
		return;
	run_slice_stop(run);
	result->sampling_effect = run_sampling_effect(run);
	for (int side = 0; side < 2; side++) {
		/* The far end samples its own threads, on its own host. */
		if (!run_side_far(run, side == 0)) {
			run_side_finish(run, side, result);
		} else if (run_far(run)->done) {
			result->profile[side] = run_far(run)->profile;
			result->time[side] = run_far(run)->time;
		}
	}
	if (run->rtt_excluded)
		latency_hist_subtract(run->rtt_to, run->rtt_excluded);
}

uint64_t run_sampled_ms(const struct run_config *c)
{
	if (!run_samples(c))
		return 0;
	return c->settings.duration_ms / (RUN_SLICE_EVERY - 1);
}

bool run_time_now(const struct run *run, bool sender, struct run_time *out)
{
	memset(out, 0, sizeof(*out));
	if (run->config.settings.no_waits || run_side_far(run, sender))
		return false;
	offcpu_summarize(&run->waits[sender ? 0 : 1], out);
	run_waits_why(run, sender, out);
	return true;
}

bool run_profile_now(const struct run *run, bool sender,
		     struct run_profile *out)
{
	memset(out, 0, sizeof(*out));
	if (!run->config.settings.profile_hz || run_side_far(run, sender))
		return false;
	profile_summarize(&run->tally[sender ? 0 : 1],
			  run->config.settings.profile_hz, out);
	run_side_why(run, sender, out->why, sizeof(out->why), &out->user_only);
	return true;
}
