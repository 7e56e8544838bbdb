/*
 * A run's result: its threads joined, its totals, its summary over the
 * measured window, each side's counters (this host's, or as the far end
 * reported them), its intervals, and the checks that make a run failed --
 * a lost byte, a send never completed, a window that delivered nothing.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "run_private.h"

static const struct record_field summary_fields[] = {
	RECORD_FIELD("measured_s", RECORD_FINITE, struct run_result,
		     measured_s),
	RECORD_DELIVERED_FIELD(struct run_result, receiver.derived),
	{.key = "sampling_effect",
	 .kind = RECORD_NUMBER,
	 .offset = offsetof(struct run_result, sampling_effect),
	 .optional = true},
};
const struct record run_summary_record = RECORD_OF(summary_fields);

static const struct record_field interval_fields[] = {
	RECORD_FIELD("t_s", RECORD_FINITE, struct run_interval, t_s),
	{.key = "length_s",
	 .kind = RECORD_FINITE,
	 .offset = offsetof(struct run_interval, length_s),
	 .optional = true},
	RECORD_DELIVERED_FIELD(struct run_interval, side[1]),
};
const struct record run_interval_record = RECORD_OF(interval_fields);

static const struct record_field host_load_fields[] = {
	RECORD_FIELD("steal_pct", RECORD_NUMBER, struct run_host_load,
		     steal_pct),
	RECORD_FIELD("outside_cpus", RECORD_NUMBER, struct run_host_load,
		     outside_cpus),
	RECORD_FIELD("irq_cpus", RECORD_NUMBER, struct run_host_load, irq_cpus),
};
const struct record run_host_load_record = RECORD_OF(host_load_fields);

/* The host over the measured window (from and to read its CPU time). */
static void run_host_load(const struct sample *from, const struct sample *to,
			  struct run_host_load *out)
{
	struct host_cpu d = {
		.all_ns = to->host.all_ns - from->host.all_ns,
		.task_ns = to->host.task_ns - from->host.task_ns,
		.irq_ns = to->host.irq_ns - from->host.irq_ns,
		.steal_ns = to->host.steal_ns - from->host.steal_ns,
		.self_ns = to->host.self_ns - from->host.self_ns,
	};
	double window_ns = (double)(to->t_ns - from->t_ns);

	*out = (struct run_host_load){0};
	if (!from->host.all_ns || !to->host.all_ns || !d.all_ns ||
	    window_ns <= 0 || to->host.all_ns < from->host.all_ns)
		return;
	out->known = true;
	out->steal_pct = (double)d.steal_ns * 100 / (double)d.all_ns;
	/*
	 * A tick spent in an interrupt or a softirq is charged to the task it
	 * interrupted (its stime) but to /proc/stat's irq and softirq columns,
	 * not system: nio-top's own veth delivery is in both self and irq.
	 * So what every task was charged is user, nice, system, irq and
	 * softirq together; all are ticks, so the difference can dip below 0.
	 */
	out->outside_cpus = d.task_ns + d.irq_ns > d.self_ns
				    ? (double)(d.task_ns + d.irq_ns -
					       d.self_ns) /
					      window_ns
				    : 0;
	out->irq_cpus = (double)d.irq_ns / window_ns;
}

/* One side's counters over the measured window, and what they mean. */
static void run_side(const struct run *run, bool sender,
		     struct run_side_counters *side)
{
	struct counter_reading delta[COUNTERS_MAX];

	sampler_side(run->config.counters, &run->measure_from, &run->measure_to,
		     sender, delta, &side->derived);
	for (unsigned int i = 0;
	     run->config.counters && i < run->config.counters->count; i++)
		run_counter_value(run, sender, i, &delta[i], &side->value[i]);
}

const struct run_config *run_config_of(const struct run *run)
{
	return &run->config;
}

size_t run_interval_count(const struct run *run)
{
	return timeline_intervals(&run->timeline);
}

bool run_interval_at(const struct run *run, size_t i, struct run_interval *out)
{
	const struct sample *from, *to;

	timeline_interval(&run->timeline, i, &from, &to, &out->warmup);
	if (to->t_ns == from->t_ns)
		return false;
	out->t_s = (double)(to->t_ns - run->start_ns) / 1e9;
	out->length_s = (double)(to->t_ns - from->t_ns) / 1e9;
	sampler_side(run->config.counters, from, to, true, NULL, &out->side[0]);
	sampler_side(run->config.counters, from, to, false, NULL,
		     &out->side[1]);
	return true;
}

/*
 * The result's intervals, from the timeline's boundaries; a sampled one,
 * taken out of the figures, has no length and is left out.
 */
static void run_intervals(const struct run *run, struct run_result *result)
{
	size_t n = run_interval_count(run), kept = 0;

	result->intervals = n ? calloc(n, sizeof(*result->intervals)) : NULL;
	if (!result->intervals)
		return;
	for (size_t i = 0; i < n; i++)
		kept += run_interval_at(run, i, &result->intervals[kept]);
	result->interval_count = kept;
}

/* Whether every thread of one side opened its counters. */
static bool run_side_counted(const struct run *run, bool sender)
{
	struct counter_open open[COUNTERS_MAX];

	if (run_side_far(run, sender))
		return run_far(run)->counted;
	if (run->config.role == (sender ? RUN_RECEIVERS : RUN_SENDERS))
		return true; /* not this host's to count */
	return run_side_open(run, sender, open);
}

/*
 * One side over the measured window: counted here, or as the far end
 * reported it over its own window.
 */
static void run_side_result(const struct run *run, bool sender,
			    struct run_side_counters *side)
{
	if (run_side_far(run, sender) && run_far(run)->done)
		*side = run_far(run)->side;
	else
		run_side(run, sender, side);
}

void run_finish(struct run *run, struct run_result *result)
{
	const struct run_far_view *peer = run->far ? run_far(run) : NULL;
	struct topo_link_stats after = {0};
	struct sample final;

	for (unsigned int i = 0; i < run->flow_count; i++)
		worker_join(&run->flows[i]);
	run_read(run, clock_now_ns(), &final);
	if (run->has_link && topo_link_stats(run->topo, &after) < 0)
		run->has_link = false;

	*result = (struct run_result){
		.config = run->config,
		.totals = final.totals,
		.measured_s = (double)(run->measure_to.t_ns -
				       run->measure_from.t_ns) /
			      1e9,
		.has_link = run->has_link,
		.stopped_s = run->stopped_s,
		.counted = run->config.counters &&
			   run_side_counted(run, true) &&
			   run_side_counted(run, false),
	};
	run_profile_finish(run, result);
	run_host_load(&run->measure_from, &run->measure_to, &result->host_load);
	result->has_stack = run->has_stack;
	memcpy(result->stack, run->stack, sizeof(result->stack));
	memcpy(result->stack_before, run->stack_before,
	       sizeof(result->stack_before));
	for (int side = 0; side < 2 && run->flow_count; side++) {
		const struct worker_flow *f = &run->flows[0];

		result->has_socket[side] = !run_side_far(run, side == 0);
		if (!result->has_socket[side])
			continue;
		/* A window that never began has its sockets as set up. */
		result->socket_start[side] = run->socket_from[side].sndbuf
						     ? run->socket_from[side]
						     : (side == 0
								? f->tx_socket
								: f->rx_socket);
		result->socket[side] = run->socket_to[side].sndbuf
					       ? run->socket_to[side]
					       : result->socket_start[side];
	}
	if (run_side_far(run, false)) {
		if (run->rtt && peer->has_latency)
			latency_hist_summarize(&peer->latency,
					       &result->latency);
	} else if (run->rtt) {
		latency_hist_subtract(run->rtt_to, run->rtt_from);
		latency_hist_summarize(run->rtt_to, &result->latency);
	}
	/*
	 * Delivery is measured where it happens: the receiver's figures are
	 * over the agent's window when it runs the receivers.
	 */
	run_side_result(run, true, &result->sender);
	run_side_result(run, false, &result->receiver);
	if (run->has_link)
		result->link = (struct topo_link_stats){
			.tx_bytes = after.tx_bytes - run->link_before.tx_bytes,
			.rx_bytes = after.rx_bytes - run->link_before.rx_bytes,
			.tx_packets = after.tx_packets -
				      run->link_before.tx_packets,
			.rx_packets = after.rx_packets -
				      run->link_before.rx_packets,
		};
	run_probe_finish(run, result);
	/* The agent's end failed: that is the run's failure too. */
	if (peer && peer->error)
		run_set_error(run, "%s", peer->error);
	/*
	 * A clean run that lost a byte is a bug nio-top must not hide.  An
	 * agent holds one end: its client checks both ends' counts.
	 */
	if ((run->config.role == RUN_BOTH || run->far) &&
	    final.totals.bytes_received != final.totals.bytes_sent)
		run_set_error(run, "delivered %llu of %llu bytes sent",
			      (unsigned long long) final.totals.bytes_received,
			      (unsigned long long) final.totals.bytes_sent);
	if (run->config.strategy->zerocopy &&
	    (run->config.role != RUN_RECEIVERS || run->far) &&
	    final.totals.zc_completions != final.totals.zc_sends)
		run_set_error(
			run, "%llu zero-copy sends never completed",
			(unsigned long long)(final.totals.zc_sends -
					     final.totals.zc_completions));
	/* A completion no send waited for: the accounting is wrong. */
	if (final.totals.zc_unmatched)
		run_set_error(run, "%llu zero-copy completions matched no send",
			      (unsigned long long) final.totals.zc_unmatched);
	if (final.totals.uring_cq_overflow)
		run_set_error(run,
			      "io_uring's completion queue overflowed %llu "
			      "times: completions were held back or lost",
			      (unsigned long long)
				      final.totals.uring_cq_overflow);
	/* Figures of a window that delivered nothing would mean nothing. */
	if ((run->config.role == RUN_BOTH || run->far) &&
	    !(run_result_msgs_per_s(result) > 0))
		run_set_error(run,
			      "no message arrived in the measured window "
			      "(%.3g s)",
			      result->measured_s);
	result->error = run->error;
	run->error = NULL;
	run_intervals(run, result);
	run_free(run);
}

bool run_result_metric(const struct run_result *r, bool sender, size_t metric,
		       double *value)
{
	const struct run_side_counters *side = sender ? &r->sender
						      : &r->receiver;

	if (r->measured_s <= 0 ||
	    (metric_counted(&metrics[metric]) && !r->counted))
		return false;
	*value = side->derived.value[metric];
	return !isnan(*value);
}

/* A delivered figure of the result, by its key in the metric table. */
static double run_result_delivered(const struct run_result *r, const char *key)
{
	int metric = metric_find(key);
	double value;

	if (metric < 0 || !run_result_metric(r, false, (size_t)metric, &value))
		return 0;
	return value;
}

double run_result_gbps(const struct run_result *r)
{
	return run_result_delivered(r, "gbps");
}

double run_result_msgs_per_s(const struct run_result *r)
{
	return run_result_delivered(r, "msgs_per_s");
}

int run_rates_check(const struct run_totals *t,
		    const struct metric_values *derived, double measured_s,
		    double span_s, char **cause)
{
	double bytes = (double)(t->bytes_sent > t->bytes_received
					? t->bytes_sent
					: t->bytes_received);
	double messages = (double)(t->messages_sent > t->messages_received
					   ? t->messages_sent
					   : t->messages_received);
	const struct {
		const char *key;
		double most;	 /* the rate times the window, at most */
		double received; /* what the totals delivered, in its unit */
	} rates[] = {
		{"gbps", bytes * 8 / 1e9 * 1.01,
		 (double)t->bytes_received * 8 / 1e9},
		{"msgs_per_s", messages * 1.01 + 1,
		 (double)t->messages_received},
	};

	for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		int m = metric_find(rates[i].key);
		double value = m < 0 ? NAN : derived->value[m];
		double least = span_s > 0 ? rates[i].received / span_s / 10 : 0;

		if (!isfinite(value) || measured_s <= 0)
			continue;
		if (value * measured_s > rates[i].most)
			return cause_set(cause, -EINVAL,
					 "%s %g over %.3g s is more than its "
					 "totals hold",
					 rates[i].key, value, measured_s);
		if (value < least)
			return cause_set(cause, -EINVAL,
					 "%s %g is under a tenth of its "
					 "totals' %.3g over the %.3g s the run "
					 "may have lasted",
					 rates[i].key, value, least * 10,
					 span_s);
	}
	return 0;
}

double run_span_s(const struct run_config *c, double measured_s)
{
	double duration_s = (double)c->settings.duration_ms / 1e3;

	return (double)c->settings.warmup_ms / 1e3 +
	       (duration_s > measured_s ? duration_s : measured_s) +
	       (double)run_sampled_ms(c) / 1e3 +
	       (double)RUN_STOP_GRACE_MS / 1e3;
}

const char *run_result_metric_why(const struct run_result *r, bool sender,
				  size_t metric)
{
	const struct run_side_counters *side = sender ? &r->sender
						      : &r->receiver;
	const char *events[2];
	unsigned int n = metric_events(&metrics[metric], events);

	if (r->measured_s <= 0)
		return "the run measured nothing";
	if (metric_counted(&metrics[metric]) && !r->counted)
		return "not counted (--no-counters)";
	for (unsigned int k = 0; k < n; k++) {
		int i = counters_find(r->config.counters, events[k]);

		if (i < 0)
			return "its event is not among --events";
		if (!counter_known(&side->value[i]))
			return side->value[i].reason;
	}
	return "nothing moved in the window";
}

void run_result_fini(struct run_result *result)
{
	free(result->intervals);
	free(result->error);
	result->intervals = NULL;
	result->error = NULL;
}
