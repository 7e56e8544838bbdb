/*
 * Round-trip latency as a log-linear histogram: exact below 128 ns, then 128
 * buckets per power of two, so a bucket's midpoint is within 0.4% of every
 * value in it (and its width within 0.8%).  A recorder has one writer (the
 * client thread of a flow) and one reader (the main loop); a latency_hist is
 * a plain copy that readings are merged into, subtracted and summarized.
 */
#ifndef NIO_TOP_LATENCY_H
#define NIO_TOP_LATENCY_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "record.h"

#define LATENCY_SUB_BITS 7
#define LATENCY_SUB	 (1u << LATENCY_SUB_BITS)
/* Values from 2^40 ns (18 minutes) up share the last bucket. */
#define LATENCY_MSB_MAX 39
#define LATENCY_BUCKETS (LATENCY_SUB * (LATENCY_MSB_MAX - LATENCY_SUB_BITS + 2))

struct latency_recorder {
	_Atomic uint64_t bucket[LATENCY_BUCKETS];
	_Atomic uint64_t count;
	_Atomic uint64_t sum_ns;
	_Atomic uint64_t max_ns;
};

struct latency_hist {
	uint64_t bucket[LATENCY_BUCKETS];
	uint64_t count;
	uint64_t sum_ns;
	uint64_t max_ns; /* an upper bound after latency_hist_subtract() */
};

/* The percentiles nio-top reports, in microseconds. */
struct latency_summary {
	uint64_t count;
	double p50_us;
	double p90_us;
	double p99_us;
	double p99_9_us;
	double max_us;
	double mean_us;
};

/* As an export writes it: "round_trips", "p50" ... "mean". */
extern const struct record latency_summary_record;

unsigned int latency_bucket(uint64_t ns);
/* The smallest value in bucket i and how many values it holds. */
uint64_t latency_bucket_low(unsigned int i);
uint64_t latency_bucket_width(unsigned int i);

/* By the recorder's only writer. */
void latency_record(struct latency_recorder *rec, uint64_t ns);

/* Adds a recorder's current counts to hist. */
void latency_hist_add(struct latency_hist *hist,
		      const struct latency_recorder *rec);
/* hist += other. */
void latency_hist_merge(struct latency_hist *hist,
			const struct latency_hist *other);
/* hist -= earlier (an earlier reading of the same recorders). */
void latency_hist_subtract(struct latency_hist *hist,
			   const struct latency_hist *earlier);

/* The value at quantile q (0 < q <= 1), in ns; 0 for an empty histogram. */
double latency_hist_quantile(const struct latency_hist *hist, double q);
/*
 * The longest that flows' round trips can take in span_s (a measured window
 * and the warm-up before it, where the first may have begun), in ns: one of
 * them, or all of a flow's end to end (1% and a second of slack for two
 * hosts' clocks).
 */
double latency_window_ns(double span_s, unsigned int flows);

/*
 * Whether a summary from a file holds together: each percentile at most the
 * next and the maximum, the mean at most the maximum, and the round trips of
 * flows within a run of span_s (latency_window_ns()).  0, or -EINVAL with
 * *cause naming the key ("p90: 12.5 below p50 30").
 */
int latency_summary_check(const struct latency_summary *summary, double span_s,
			  unsigned int flows, char **cause);

void latency_hist_summarize(const struct latency_hist *hist,
			    struct latency_summary *out);

#endif
