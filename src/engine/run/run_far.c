/*
 * The far end of a run over two hosts, as the run sees it: what it reported
 * of its ends (their counts, counters and round trips) merged into this
 * host's samples, and where the run is told to it.  What the run does when
 * the far end failed, left or is done is the run's (run.c).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "run_private.h"

const struct run_far_view *run_far(const struct run *run)
{
	return run->far->view(run->far->data);
}

void run_mark_far(const struct run *run, enum run_mark mark, const char *why)
{
	if (run->far)
		run->far->mark(run->far->data, mark, why);
}

bool run_side_far(const struct run *run, bool sender)
{
	return run->far &&
	       run->config.role == (sender ? RUN_RECEIVERS : RUN_SENDERS);
}

void run_merge_far(const struct run *run, struct sample *s)
{
	const struct run_far_view *v = run_far(run);
	struct run_totals *t = &s->totals;

	if (!v->has_sample)
		return;
	if (run->config.role == RUN_SENDERS) {
		t->messages_received = v->totals.messages_received;
		t->bytes_received = v->totals.bytes_received;
		t->checked = v->totals.checked;
		t->corrupt = v->totals.corrupt;
		memcpy(t->rx_side, v->totals.rx_side, sizeof(t->rx_side));
		t->uring_cq_overflow += v->totals.uring_cq_overflow;
		memcpy(s->rx_counters, v->counters, sizeof(v->counters));
	} else {
		t->messages_sent = v->totals.messages_sent;
		t->bytes_sent = v->totals.bytes_sent;
		t->zc_sends = v->totals.zc_sends;
		t->zc_completions = v->totals.zc_completions;
		t->zc_copied = v->totals.zc_copied;
		t->zc_enobufs = v->totals.zc_enobufs;
		t->zc_copied_min = v->totals.zc_copied_min;
		t->zc_copied_max = v->totals.zc_copied_max;
		t->zc_unmatched = v->totals.zc_unmatched;
		t->uring_cq_overflow += v->totals.uring_cq_overflow;
		t->uring_fixed_sends = v->totals.uring_fixed_sends;
		memcpy(s->tx_counters, v->counters, sizeof(v->counters));
	}
}

/* A reason given for the far end's threads says so. */
static void run_far_reason(struct counter_value *v)
{
	char own[sizeof(v->reason)];

	if (!v->reason[0] || strncmp(v->reason, "on the agent: ", 14) == 0)
		return;
	memcpy(own, v->reason, sizeof(own));
	snprintf(v->reason, sizeof(v->reason), "on the agent: %.*s",
		 (int)sizeof(own) - 15, own);
}

void run_far_counter_value(const struct run *run, unsigned int i,
			   const struct counter_reading *delta,
			   struct counter_value *out)
{
	const struct run_far_view *v = run_far(run);
	struct counter_set far_set = *run->config.counters;

	if (!v->counting || i >= far_set.count) {
		*out = (struct counter_value){.status = COUNTER_NOT_COUNTED,
					      .value = NAN,
					      .running_pct = NAN};
		snprintf(out->reason, sizeof(out->reason),
			 "the agent's threads have not opened "
			 "their counters yet");
		return;
	}
	far_set.pmu_present = v->pmu;
	counter_evaluate(&far_set, i, &v->open[i], delta, out);
	run_far_reason(out);
}
