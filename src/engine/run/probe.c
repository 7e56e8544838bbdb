/*
 * What the probe is and says (probe.h): its settings' key, its windows'
 * records, and the check of a summary against its schedule.  Its threads
 * are probe_flow.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "clock.h"
#include "probe.h"

const char *const probe_cpu_names[] = {
	[PROBE_CPU_SAME] = "same",
	[PROBE_CPU_OTHER] = "other",
	NULL,
};

static const struct record_field window_fields[] = {
	RECORD_FIELD("sent", RECORD_U64, struct probe_summary, sent),
	RECORD_FIELD("late", RECORD_U64, struct probe_summary, late),
	RECORD_FIELD("skipped", RECORD_U64, struct probe_summary, skipped),
	RECORD_FIELD("measured_s", RECORD_FINITE, struct probe_summary,
		     measured_s),
	RECORD_FIELD("per_minute", RECORD_NUMBER, struct probe_summary,
		     per_minute),
};
const struct record probe_window_record = RECORD_OF(window_fields);

static const struct record_field run_probe_fields[] = {
	RECORD_FIELD("idle_reused", RECORD_BOOL, struct run_probe, idle_reused),
	RECORD_FIELD("sent", RECORD_U64, struct run_probe, sent),
	RECORD_FIELD("answered", RECORD_U64, struct run_probe, answered),
	RECORD_FIELD("round_trips", RECORD_U64, struct run_probe, round_trips),
	RECORD_FIELD("requester_cpu", RECORD_INT, struct run_probe,
		     requester_cpu),
	RECORD_FIELD("answerer_cpu", RECORD_INT, struct run_probe,
		     answerer_cpu),
};
const struct record run_probe_record = RECORD_OF(run_probe_fields);

/* The first CPU this process may run on that the load is not pinned to. */
static int probe_free_cpu(const struct cpu_list *pin, int after)
{
	cpu_set_t allowed;

	if (sched_getaffinity(0, sizeof(allowed), &allowed) < 0)
		return -1;
	for (int cpu = after + 1; cpu < CPU_SETSIZE; cpu++) {
		bool taken = false;

		for (unsigned int i = 0; i < pin->count; i++)
			taken |= pin->cpu[i] == cpu;
		if (CPU_ISSET((size_t)cpu, &allowed) && !taken)
			return cpu;
	}
	return -1;
}

int probe_key_of(const struct run_settings *s, unsigned int flows,
		 struct probe_key *out, char **cause)
{
	const struct cpu_list *pin = &s->pin;

	*out = (struct probe_key){
		.probe = s->probe,
		.requester_cpu = -1,
		.answerer_cpu = -1,
		.links = {.gso_max_size = s->gso_max_size,
			  .gro_max_size = s->gro_max_size,
			  .gro = s->gro},
	};
	if (!pin->count)
		return s->probe_cpu == PROBE_CPU_OTHER
			       ? cause_set(cause, -EINVAL,
					   "--probe-cpu other needs --pin: "
					   "the probe keeps off the CPUs the "
					   "load is pinned to")
			       : 0;
	if (s->probe_cpu == PROBE_CPU_SAME) {
		/* As run_pin() places flow 0: its receiver, its sender. */
		out->requester_cpu = pin->cpu[flows % pin->count];
		out->answerer_cpu = pin->cpu[0];
		return 0;
	}
	out->requester_cpu = probe_free_cpu(pin, -1);
	out->answerer_cpu = probe_free_cpu(pin, out->requester_cpu);
	if (out->answerer_cpu < 0)
		out->answerer_cpu = out->requester_cpu;
	if (out->requester_cpu < 0)
		return cause_set(cause, -EINVAL,
				 "--probe-cpu other: --pin takes every CPU "
				 "this process may use; none is left for the "
				 "probe");
	return 0;
}

bool probe_key_equal(const struct probe_key *a, const struct probe_key *b)
{
	return a->probe.rate_hz == b->probe.rate_hz &&
	       a->probe.size == b->probe.size &&
	       a->requester_cpu == b->requester_cpu &&
	       a->answerer_cpu == b->answerer_cpu &&
	       settings_stack_equal(&a->links, &b->links);
}

uint64_t probe_idle_ms(const struct run_settings *s)
{
	if (!s->duration_ms)
		return 5000;
	return s->duration_ms < 1000	? 1000
	       : s->duration_ms > 10000 ? 10000
					: s->duration_ms;
}

int probe_summary_check(const struct probe_summary *s,
			const struct probe_settings *settings, double span_s,
			char **cause)
{
	double in_flight = settings->rate_hz * s->rtt.max_us / 1e6 +
			   PROBE_OWED_MAX;
	char *why = NULL;
	int r;

	if (s->late > s->sent)
		return cause_set(cause, -EINVAL,
				 "late: %" PRIu64 " of %" PRIu64 " sent",
				 s->late, s->sent);
	if (s->rtt.count > s->sent + 1 + (uint64_t)in_flight)
		return cause_set(cause, -EINVAL,
				 "round_trips: %" PRIu64 " of %" PRIu64 " sent",
				 s->rtt.count, s->sent);
	if (settings->rate_hz &&
	    (double)s->sent > settings->rate_hz * (span_s + 1) * 1.01 + 1)
		return cause_set(cause, -EINVAL,
				 "sent: %" PRIu64 " at %u a second in %.3g s",
				 s->sent, settings->rate_hz, span_s);
	r = latency_summary_check(
		&s->rtt, span_s,
		in_flight < 1e6 ? (unsigned int)in_flight : 1000000, &why);
	if (r < 0)
		cause_set(cause, r, "%s", why ? why : "round trips");
	free(why);
	return r;
}
