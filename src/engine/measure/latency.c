/*
 * The log-linear histogram.  A value v >= 128 ns with its highest bit at
 * position b falls in octave b - 6, sub-bucket (v >> (b - 7)) - 128: the top
 * eight bits of v pick the bucket, so the width is 2^(b-7) <= v / 128.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "cause.h"
#include "latency.h"

static const struct record_field summary_fields[] = {
	RECORD_FIELD("round_trips", RECORD_U64, struct latency_summary, count),
	RECORD_FIELD("p50", RECORD_NUMBER, struct latency_summary, p50_us),
	RECORD_FIELD("p90", RECORD_NUMBER, struct latency_summary, p90_us),
	RECORD_FIELD("p99", RECORD_NUMBER, struct latency_summary, p99_us),
	RECORD_FIELD("p99_9", RECORD_NUMBER, struct latency_summary, p99_9_us),
	RECORD_FIELD("max", RECORD_NUMBER, struct latency_summary, max_us),
	RECORD_FIELD("mean", RECORD_NUMBER, struct latency_summary, mean_us),
};
const struct record latency_summary_record = RECORD_OF(summary_fields);

static unsigned int msb(uint64_t v)
{
	return 63u - (unsigned int)__builtin_clzll(v);
}

unsigned int latency_bucket(uint64_t ns)
{
	unsigned int shift;

	if (ns < LATENCY_SUB)
		return (unsigned int)ns;
	if (msb(ns) > LATENCY_MSB_MAX)
		return LATENCY_BUCKETS - 1;
	shift = msb(ns) - LATENCY_SUB_BITS;
	return LATENCY_SUB * (shift + 1) + (unsigned int)(ns >> shift) -
	       LATENCY_SUB;
}

uint64_t latency_bucket_width(unsigned int i)
{
	return i < LATENCY_SUB ? 1 : 1ull << (i / LATENCY_SUB - 1);
}

uint64_t latency_bucket_low(unsigned int i)
{
	if (i < LATENCY_SUB)
		return i;
	return (uint64_t)(i % LATENCY_SUB + LATENCY_SUB)
	       << (i / LATENCY_SUB - 1);
}

static uint64_t load(const _Atomic uint64_t *v)
{
	return atomic_load_explicit(v, memory_order_relaxed);
}

static void store(_Atomic uint64_t *v, uint64_t value)
{
	atomic_store_explicit(v, value, memory_order_relaxed);
}

void latency_record(struct latency_recorder *rec, uint64_t ns)
{
	_Atomic uint64_t *b = &rec->bucket[latency_bucket(ns)];

	store(b, load(b) + 1);
	store(&rec->sum_ns, load(&rec->sum_ns) + ns);
	if (ns > load(&rec->max_ns))
		store(&rec->max_ns, ns);
	/* Last, so a reader never sees more samples than bucket counts. */
	store(&rec->count, load(&rec->count) + 1);
}

void latency_hist_add(struct latency_hist *hist,
		      const struct latency_recorder *rec)
{
	uint64_t max = load(&rec->max_ns);

	hist->count += load(&rec->count);
	hist->sum_ns += load(&rec->sum_ns);
	for (unsigned int i = 0; i < LATENCY_BUCKETS; i++)
		hist->bucket[i] += load(&rec->bucket[i]);
	if (max > hist->max_ns)
		hist->max_ns = max;
}

void latency_hist_merge(struct latency_hist *hist,
			const struct latency_hist *other)
{
	hist->count += other->count;
	hist->sum_ns += other->sum_ns;
	for (unsigned int i = 0; i < LATENCY_BUCKETS; i++)
		hist->bucket[i] += other->bucket[i];
	if (other->max_ns > hist->max_ns)
		hist->max_ns = other->max_ns;
}

void latency_hist_subtract(struct latency_hist *hist,
			   const struct latency_hist *earlier)
{
	unsigned int top = 0;

	hist->count -= earlier->count;
	hist->sum_ns -= earlier->sum_ns;
	for (unsigned int i = 0; i < LATENCY_BUCKETS; i++) {
		hist->bucket[i] -= earlier->bucket[i];
		if (hist->bucket[i])
			top = i;
	}
	/* The window's largest value lies in its highest bucket. */
	if (hist->count) {
		uint64_t high = latency_bucket_low(top) +
				latency_bucket_width(top) - 1;

		if (high < hist->max_ns)
			hist->max_ns = high;
	} else {
		hist->max_ns = 0;
	}
}

double latency_hist_quantile(const struct latency_hist *hist, double q)
{
	uint64_t rank, seen = 0, in_buckets = 0;

	for (unsigned int i = 0; i < LATENCY_BUCKETS; i++)
		in_buckets += hist->bucket[i];
	if (in_buckets == 0)
		return 0;
	/* The smallest value with at least q of the samples at or below it. */
	rank = (uint64_t)ceil(q * (double)in_buckets);
	if (rank < 1)
		rank = 1;
	if (rank > in_buckets)
		rank = in_buckets;
	for (unsigned int i = 0; i < LATENCY_BUCKETS; i++) {
		seen += hist->bucket[i];
		if (seen >= rank) {
			double mid = (double)latency_bucket_low(i) +
				     (double)(latency_bucket_width(i) - 1) / 2;

			return hist->max_ns && mid > (double)hist->max_ns
				       ? (double)hist->max_ns
				       : mid;
		}
	}
	return (double)hist->max_ns;
}

double latency_window_ns(double span_s, unsigned int flows)
{
	return (span_s * 1.01 + 1) * 1e9 * (flows ? flows : 1);
}

int latency_summary_check(const struct latency_summary *l, double span_s,
			  unsigned int flows, char **cause)
{
	/* Each at most the next; written rounded, so a part in 1e9 over. */
	const struct {
		const char *key;
		double us;
	} order[] = {{"p50", l->p50_us},
		     {"p90", l->p90_us},
		     {"p99", l->p99_us},
		     {"p99_9", l->p99_9_us},
		     {"max", l->max_us}};
	double window_us = latency_window_ns(span_s, 1) / 1e3;

	if (!l->count)
		return 0;
	for (size_t i = 1; i < sizeof(order) / sizeof(order[0]); i++)
		if (order[i].us < order[i - 1].us * (1 - 1e-9))
			return cause_set(cause, -EINVAL, "%s: %g below %s %g",
					 order[i].key, order[i].us,
					 order[i - 1].key, order[i - 1].us);
	if (l->mean_us > l->max_us * (1 + 1e-9))
		return cause_set(cause, -EINVAL, "mean: %g above max %g",
				 l->mean_us, l->max_us);
	if (l->max_us > window_us)
		return cause_set(
			cause, -EINVAL,
			"max: a round trip of %.3g s in a run of %.3g s "
			"(warm-up and window)",
			l->max_us / 1e6, span_s);
	if (l->mean_us * (double)l->count * 1e3 >
	    latency_window_ns(span_s, flows))
		return cause_set(cause, -EINVAL,
				 "mean: %" PRIu64 " round trips of %g us add "
				 "up to more than %.3g s of %u flow%s",
				 l->count, l->mean_us, span_s, flows,
				 flows == 1 ? "" : "s");
	return 0;
}

void latency_hist_summarize(const struct latency_hist *hist,
			    struct latency_summary *out)
{
	memset(out, 0, sizeof(*out));
	out->count = hist->count;
	if (!hist->count)
		return;
	out->p50_us = latency_hist_quantile(hist, 0.50) / 1e3;
	out->p90_us = latency_hist_quantile(hist, 0.90) / 1e3;
	out->p99_us = latency_hist_quantile(hist, 0.99) / 1e3;
	out->p99_9_us = latency_hist_quantile(hist, 0.999) / 1e3;
	out->max_us = (double)hist->max_ns / 1e3;
	out->mean_us = (double)hist->sum_ns / (double)hist->count / 1e3;
}
