/*
 * A run's probe (probe.h): its connection beside the flows', its threads
 * among the run's, the time it runs alone before the load (the flows'
 * threads ready and waiting at the gate), and its readings where the
 * load's measured window begins and ends, with the sampled intervals taken
 * out as they are taken out of the load's figures.  A run whose ends are
 * on two hosts has no probe: both its ends run here.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cause.h"
#include "run_private.h"

int run_probe_check(struct run *run, char **cause)
{
	const struct run_config *c = &run->config;

	if (!c->settings.probe.rate_hz)
		return 0;
	if (run->far || c->role != RUN_BOTH)
		return cause_set(cause, -EINVAL,
				 "--probe runs both of its ends on this "
				 "host, not over two hosts (--connect)");
	return probe_key_of(&c->settings, c->threads, &run->probe_key, cause);
}

int run_probe_adopt(struct run *run, int fds[2])
{
	const struct probe_key *k = &run->probe_key;

	run->probe_at = calloc(PROBE_AT_COUNT, sizeof(*run->probe_at));
	run->probe = run->probe_at
			     ? probe_flow_new(&k->probe, fds[0], fds[1],
					      k->requester_cpu, k->answerer_cpu,
					      &run->gate, run->done_fd)
			     : NULL;
	if (!run->probe) {
		close(fds[0]);
		close(fds[1]);
		return -ENOMEM;
	}
	run->probe_result = (struct run_probe){
		.present = true,
		.requester_cpu = k->requester_cpu,
		.answerer_cpu = k->answerer_cpu,
	};
	return 0;
}

int run_probe_launch(struct run *run)
{
	int r;

	if (!run->probe)
		return 0;
	r = probe_flow_start(run->probe);
	run->threads += run->probe->requester_started +
			run->probe->answerer_started;
	return r;
}

void run_probe_reuse_idle(struct run *run, const struct probe_summary *idle)
{
	if (!run->probe)
		return;
	run->probe_result.idle = *idle;
	run->probe_result.idle_reused = true;
	run->probe_idle_known = true;
}

static void run_probe_read(const struct run *run, uint64_t now_ns,
			   enum probe_at at)
{
	probe_flow_read(run->probe, now_ns, &run->probe_at[at]);
}

/* The window from reading at `from` to now, as a summary. */
static void run_probe_since(const struct run *run, enum probe_at from,
			    uint64_t now_ns, struct probe_summary *out)
{
	struct probe_reading *now = malloc(sizeof(*now));
	struct probe_reading *window = malloc(sizeof(*window));

	if (now && window) {
		probe_flow_read(run->probe, now_ns, now);
		probe_reading_delta(&run->probe_at[from], now, window);
		probe_summarize(window, (double)window->t_ns / 1e9, out);
	}
	free(now);
	free(window);
}

bool run_probe_alone(struct run *run, uint64_t now_ns)
{
	const struct run_settings *s = &run->config.settings;

	if (!run->probe || run->probe_idle_known)
		return false;
	if (run->probe_phase == RUN_PROBE_NONE) {
		run->probe_phase = RUN_PROBE_ALONE;
		run->probe_alone_ns = now_ns + s->warmup_ms * NS_PER_MS;
		run->probe_alone_end_ns = run->probe_alone_ns +
					  probe_idle_ms(s) * NS_PER_MS;
		run_probe_read(run, now_ns, PROBE_AT_ALONE);
		probe_flow_go(run->probe);
		return true;
	}
	/* Its warm-up over, its window begins. */
	if (now_ns < run->probe_alone_ns)
		return true;
	if (run->probe_alone_ns) {
		run_probe_read(run, now_ns, PROBE_AT_ALONE);
		run->probe_alone_ns = 0;
	}
	if (now_ns < run->probe_alone_end_ns)
		return true;
	run_probe_since(run, PROBE_AT_ALONE, now_ns, &run->probe_result.idle);
	run->probe_idle_known = true;
	return false;
}

uint64_t run_probe_deadline(const struct run *run)
{
	if (!run->probe || run->probe_phase != RUN_PROBE_ALONE ||
	    run->probe_idle_known)
		return 0;
	return run->probe_alone_ns ? run->probe_alone_ns
				   : run->probe_alone_end_ns;
}

void run_probe_go(struct run *run)
{
	if (!run->probe)
		return;
	run->probe_phase = RUN_PROBE_LOADED;
	probe_flow_go(run->probe);
}

void run_probe_window_from(struct run *run, uint64_t now_ns)
{
	if (!run->probe)
		return;
	run_probe_read(run, now_ns, PROBE_AT_FROM);
	/* Nothing sampled yet in this window. */
	memset(&run->probe_at[PROBE_AT_EXCLUDED], 0,
	       sizeof(run->probe_at[PROBE_AT_EXCLUDED]));
	run->probe_at[PROBE_AT_TO] = run->probe_at[PROBE_AT_FROM];
}

void run_probe_window_to(struct run *run, uint64_t now_ns)
{
	if (!run->probe)
		return;
	run_probe_read(run, now_ns, PROBE_AT_TO);
	if (run->probe_phase == RUN_PROBE_LOADED)
		run->probe_phase = RUN_PROBE_DONE;
	probe_flow_stop(run->probe);
}

void run_probe_slice_begin(struct run *run, uint64_t now_ns)
{
	if (run->probe)
		run_probe_read(run, now_ns, PROBE_AT_SLICE);
}

void run_probe_slice_end(struct run *run, uint64_t now_ns)
{
	struct probe_reading *now, *sliced;

	if (!run->probe)
		return;
	now = malloc(sizeof(*now));
	sliced = malloc(sizeof(*sliced));
	if (now && sliced) {
		probe_flow_read(run->probe, now_ns, now);
		probe_reading_delta(&run->probe_at[PROBE_AT_SLICE], now,
				    sliced);
		probe_reading_add(&run->probe_at[PROBE_AT_EXCLUDED], sliced);
	}
	free(now);
	free(sliced);
}

bool run_probe_failed(struct run *run)
{
	const char *step;
	int err;

	if (!run->probe)
		return false;
	err = probe_flow_error(run->probe, &step);
	if (!err)
		return false;
	run_set_error(run, "the probe: %s: %s", step, strerror(-err));
	return true;
}

void run_probe_cut(struct run *run)
{
	if (run->probe)
		probe_flow_cut(run->probe);
}

/*
 * The loaded window: from its start to `to` (or to now, while it runs),
 * less what the sampled intervals added.
 */
static void run_probe_loaded(const struct run *run,
			     const struct probe_reading *to,
			     struct probe_summary *out)
{
	struct probe_reading *window = malloc(sizeof(*window));
	const struct probe_reading *excluded =
		&run->probe_at[PROBE_AT_EXCLUDED];

	*out = (struct probe_summary){.per_minute = NAN};
	if (!window)
		return;
	probe_reading_delta(&run->probe_at[PROBE_AT_FROM], to, window);
	/* The figures' window: the sampled time taken out. */
	window->t_ns -= excluded->t_ns;
	window->sent -= excluded->sent;
	window->late -= excluded->late;
	window->skipped -= excluded->skipped;
	window->answered -= excluded->answered;
	latency_hist_subtract(&window->rtt, &excluded->rtt);
	probe_summarize(window, (double)window->t_ns / 1e9, out);
	free(window);
}

enum run_probe_phase run_probe_now(const struct run *run, struct run_probe *out)
{
	struct probe_reading *now;

	*out = run->probe_result;
	if (!run->probe)
		return RUN_PROBE_NONE;
	if (run->probe_phase == RUN_PROBE_ALONE && !run->probe_idle_known &&
	    !run->probe_alone_ns)
		run_probe_since(run, PROBE_AT_ALONE, clock_now_ns(),
				&out->idle);
	if (run->probe_phase == RUN_PROBE_DONE) {
		run_probe_loaded(run, &run->probe_at[PROBE_AT_TO],
				 &out->loaded);
	} else if (run->probe_phase == RUN_PROBE_LOADED &&
		   run->state == RUN_MEASURE) {
		now = malloc(sizeof(*now));
		if (now) {
			probe_flow_read(run->probe, clock_now_ns(), now);
			/* A sampled interval under way is not measured yet. */
			if (run->slicing)
				*now = run->probe_at[PROBE_AT_SLICE];
			run_probe_loaded(run, now, &out->loaded);
		}
		free(now);
	}
	return run->probe_phase;
}

void run_probe_finish(struct run *run, struct run_result *result)
{
	struct run_probe *p = &run->probe_result;
	struct probe_reading *end;

	if (!run->probe)
		return;
	/* The window ends at the stop, or at the end of a run never stopped. */
	if (run->probe_phase == RUN_PROBE_LOADED)
		run_probe_window_to(run, clock_now_ns());
	probe_flow_join(run->probe);
	end = malloc(sizeof(*end));
	if (end) {
		probe_flow_read(run->probe, clock_now_ns(), end);
		p->sent = end->sent;
		p->answered = end->answered;
		p->round_trips = end->rtt.count;
	}
	free(end);
	if (run->probe_phase == RUN_PROBE_DONE)
		run_probe_loaded(run, &run->probe_at[PROBE_AT_TO], &p->loaded);
	run_probe_failed(run);
	/* Every request answered and timed, on both ends: else a bug. */
	if (p->sent != p->answered || p->answered != p->round_trips)
		run_set_error(run,
			      "the probe sent %" PRIu64 " requests, %" PRIu64
			      " were answered and %" PRIu64 " round trips "
			      "timed",
			      p->sent, p->answered, p->round_trips);
	result->probe = *p;
}

void run_probe_free(struct run *run)
{
	probe_flow_free(run->probe);
	run->probe = NULL;
	free(run->probe_at);
	run->probe_at = NULL;
}
