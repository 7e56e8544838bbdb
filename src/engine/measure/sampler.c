/*
 * Sampling: sums the per-thread counter blocks of every flow, and gives each
 * side's figures between two samples by the metric table.  What was
 * delivered is the receiving side's, not what was queued.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sampler.h"
#include "sysfile.h"
#include "worker.h"

/* Newer than exports that may lack it. */
#define OPTIONAL_FIELD(name, type, member)                                     \
	{                                                                      \
		.key = name, .kind = RECORD_U64,                               \
		.offset = offsetof(type, member), .optional = true             \
	}

static const struct record_field totals_fields[] = {
	RECORD_FIELD("messages_sent", RECORD_U64, struct run_totals,
		     messages_sent),
	RECORD_FIELD("messages_received", RECORD_U64, struct run_totals,
		     messages_received),
	RECORD_FIELD("bytes_sent", RECORD_U64, struct run_totals, bytes_sent),
	RECORD_FIELD("bytes_received", RECORD_U64, struct run_totals,
		     bytes_received),
	RECORD_FIELD("integrity.checked", RECORD_U64, struct run_totals,
		     checked),
	RECORD_FIELD("integrity.corrupt", RECORD_U64, struct run_totals,
		     corrupt),
	RECORD_FIELD("zerocopy.sends", RECORD_U64, struct run_totals, zc_sends),
	RECORD_FIELD("zerocopy.completions", RECORD_U64, struct run_totals,
		     zc_completions),
	RECORD_FIELD("zerocopy.copied", RECORD_U64, struct run_totals,
		     zc_copied),
	RECORD_FIELD("zerocopy.enobufs", RECORD_U64, struct run_totals,
		     zc_enobufs),
	OPTIONAL_FIELD("zerocopy.copied_min", struct run_totals, zc_copied_min),
	OPTIONAL_FIELD("zerocopy.copied_max", struct run_totals, zc_copied_max),
	OPTIONAL_FIELD("zerocopy.unmatched", struct run_totals, zc_unmatched),
	OPTIONAL_FIELD("uring.cq_overflow", struct run_totals,
		       uring_cq_overflow),
	OPTIONAL_FIELD("uring.fixed_sends", struct run_totals,
		       uring_fixed_sends),
};
const struct record run_totals_record = RECORD_OF(totals_fields);

void sampler_host_cpu(struct host_cpu *out)
{
	static long hz;
	unsigned long long v[10] = {0}, utime, stime;
	char buf[1024], *p;
	double ns;

	*out = (struct host_cpu){0};
	if (!hz)
		hz = sysconf(_SC_CLK_TCK);
	if (hz <= 0)
		return;
	ns = 1e9 / (double)hz;
	/*
	 * The line's fields: cpu user nice system idle iowait irq softirq
	 * steal guest guest_nice.
	 */
	if (sysfile_line("/proc/stat", buf, sizeof(buf)) < 0 ||
	    sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 8)
		return;
	/* Guest time is in user already. */
	out->all_ns = (uint64_t)((double)(v[0] + v[1] + v[2] + v[3] + v[4] +
					  v[5] + v[6] + v[7]) *
				 ns);
	out->task_ns = (uint64_t)((double)(v[0] + v[1] + v[2]) * ns);
	out->irq_ns = (uint64_t)((double)(v[5] + v[6]) * ns);
	out->steal_ns = (uint64_t)((double)v[7] * ns);
	/* pid (comm) state ... utime stime: fields 14 and 15, after comm. */
	if (sysfile_line("/proc/self/stat", buf, sizeof(buf)) < 0)
		return;
	p = strrchr(buf, ')');
	if (p && sscanf(p + 1,
			" %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu "
			"%llu",
			&utime, &stime) == 2)
		out->self_ns = (uint64_t)((double)(utime + stime) * ns);
}

/*
 * A flow's counts and its counters, read one after the other.  A reader held
 * off between the two (a loaded machine does, for milliseconds) sets one
 * span's events against another span's messages: on a loaded CI, a window of
 * round trips read 1.9 system calls a message where each makes 2.  A flow
 * read slower than FLOW_READ_SLACK_NS is read again, up to FLOW_READ_TRIES
 * times.
 */
#define FLOW_READ_SLACK_NS (500 * 1000)
#define FLOW_READ_TRIES	   4

static void sampler_read_flow(const struct worker_flow *flow,
			      struct sample *out)
{
	const struct flow_stats *tx = &flow->tx, *rx = &flow->rx;
	struct run_totals *t = &out->totals;

	*out = (struct sample){0};
	t->messages_sent = flow_stat_read(&tx->messages);
	t->bytes_sent = flow_stat_read(&tx->bytes);
	t->zc_sends = flow_stat_read(&tx->zc_sends);
	t->zc_completions = flow_stat_read(&tx->zc_completions);
	t->zc_copied = flow_stat_read(&tx->zc_copied);
	t->zc_enobufs = flow_stat_read(&tx->zc_enobufs);
	t->zc_copied_min = flow_stat_read(&tx->zc_copied_min);
	t->zc_copied_max = flow_stat_read(&tx->zc_copied_max);
	t->zc_unmatched = flow_stat_read(&tx->zc_unmatched);
	t->uring_cq_overflow = flow_stat_read(&tx->uring_cq_overflow) +
			       flow_stat_read(&rx->uring_cq_overflow);
	t->uring_fixed_sends = flow_stat_read(&tx->uring_fixed_sends);
	t->messages_received = flow_stat_read(&rx->messages);
	t->bytes_received = flow_stat_read(&rx->bytes);
	t->checked = flow_stat_read(&rx->checked);
	for (size_t k = 0; k < RX_COUNTERS_MAX; k++)
		t->rx_side[k] = flow_stat_read(&rx->rx_side[k]);
	t->corrupt = flow_stat_read(&rx->corrupt);
	if (atomic_load_explicit(&flow->tx_counting, memory_order_acquire))
		thread_counters_read(&flow->tx_counters, out->tx_counters);
	if (atomic_load_explicit(&flow->rx_counting, memory_order_acquire))
		thread_counters_read(&flow->rx_counters, out->rx_counters);
}

void sampler_read(const struct worker_flow *flows, unsigned int flow_count,
		  uint64_t now_ns, struct sample *out)
{
	*out = (struct sample){0};
	sampler_host_cpu(&out->host);
	for (unsigned int i = 0; i < flow_count; i++) {
		struct sample flow;

		for (unsigned int try = 1;; try++) {
			uint64_t from = clock_now_ns();

			sampler_read_flow(&flows[i], &flow);
			if (clock_now_ns() - from <= FLOW_READ_SLACK_NS ||
			    try == FLOW_READ_TRIES)
				break;
		}
		sampler_add(out, &flow);
	}
	out->t_ns = now_ns;
}

_Static_assert(sizeof(struct sample) % sizeof(uint64_t) == 0 &&
		       sizeof(struct run_totals) % sizeof(uint64_t) == 0 &&
		       sizeof(struct counter_reading) == 3 * sizeof(uint64_t),
	       "a sample is uint64_t counts only");

#define SAMPLE_WORDS (sizeof(struct sample) / sizeof(uint64_t))

void sampler_delta(const struct sample *from, const struct sample *to,
		   struct sample *out)
{
	const uint64_t *a = (const uint64_t *)from, *b = (const uint64_t *)to;
	uint64_t *d = (uint64_t *)out;

	for (size_t i = 0; i < SAMPLE_WORDS; i++)
		d[i] = b[i] - a[i];
}

void sampler_add(struct sample *sum, const struct sample *delta)
{
	const uint64_t *d = (const uint64_t *)delta;
	uint64_t *s = (uint64_t *)sum;

	for (size_t i = 0; i < SAMPLE_WORDS; i++)
		s[i] += d[i];
}

bool sampler_zc_copied(const struct run_totals *t, char *out, size_t size)
{
	double whole = (double)t->zc_completions;
	double lo = (double)t->zc_copied_min, hi = (double)t->zc_copied_max;
	char a[16], b[16];

	out[0] = '\0';
	if (!t->zc_completions)
		return false;
	/* Exports older than the bounds have only the flagged count. */
	if (!t->zc_copied_min && !t->zc_copied_max)
		lo = hi = (double)t->zc_copied;
	snprintf(a, sizeof(a), "%.*f", lo * 100 / whole < 10 ? 1 : 0,
		 lo * 100 / whole);
	snprintf(b, sizeof(b), "%.0f", hi * 100 / whole);
	if (strcmp(a, b) == 0)
		snprintf(out, size, "%s%%", b);
	else
		snprintf(out, size, "%s-%s%%", a, b);
	return true;
}

static double sampler_seconds(const struct sample *from,
			      const struct sample *to)
{
	return (double)(to->t_ns - from->t_ns) / 1e9;
}

void sampler_side(const struct counter_set *set, const struct sample *from,
		  const struct sample *to, bool sender,
		  struct counter_reading *delta, struct metric_values *out)
{
	const struct run_totals *a = &from->totals, *b = &to->totals;
	struct counter_reading own[COUNTERS_MAX];
	struct metric_input in = {
		.bytes = sender ? b->bytes_sent - a->bytes_sent
				: b->bytes_received - a->bytes_received,
		.messages = sender ? b->messages_sent - a->messages_sent
				   : b->messages_received -
					     a->messages_received,
		.seconds = sampler_seconds(from, to),
		.set = set,
		.delta = own,
	};

	/* Raw counts and times are differenced here, then scaled. */
	counter_readings_delta(sender ? from->tx_counters : from->rx_counters,
			       sender ? to->tx_counters : to->rx_counters, own,
			       COUNTERS_MAX);
	if (delta)
		memcpy(delta, own, sizeof(own));
	metric_derive(&in, out);
}
