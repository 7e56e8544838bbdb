/*
 * The sampler turns the workers' monotonic counters into totals at an instant
 * and rates between two instants.  It only reads: one pass over the flows.
 */
#ifndef NIO_TOP_SAMPLER_H
#define NIO_TOP_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clock.h"
#include "counters.h"
#include "worker.h"

struct run_totals {
	uint64_t messages_sent;
	uint64_t bytes_sent;
	uint64_t messages_received;
	uint64_t bytes_received;
	uint64_t checked;
	uint64_t corrupt;
	uint64_t zc_sends;
	uint64_t zc_completions;
	uint64_t zc_copied;
	uint64_t zc_enobufs;
};

struct sample {
	uint64_t t_ns; /* CLOCK_MONOTONIC */
	struct run_totals totals;
	struct counter_reading tx_counters[COUNTERS_MAX];
	struct counter_reading rx_counters[COUNTERS_MAX];
};

/* What the counters of one side mean per unit of work; NaN: unknown. */
struct counter_derived {
	double ipc;
	double cycles_per_byte;
	double l1_misses_per_kib;
	double llc_misses_per_kib;
	double l1_misses_per_s;
	double llc_misses_per_s;
	double ctx_switches_per_s;
	double ctx_switches_per_msg;
	double cpu_pct; /* of one core */
};

/* A figure of a struct by name, for writing and reading it back. */
struct sample_field {
	const char *key;
	size_t offset;
};

/* Every field of struct counter_derived (doubles), in export order. */
extern const struct sample_field counter_derived_fields[];
extern const size_t counter_derived_field_count;

void sampler_read(const struct worker_flow *flows, unsigned int flow_count,
		  uint64_t now_ns, struct sample *out);

/* Delivered (receiver-side) rates between two samples. */
double sampler_gbps(const struct sample *from, const struct sample *to);
double sampler_msgs_per_s(const struct sample *from, const struct sample *to);

/*
 * One side's counter deltas (delta may be NULL) and derived figures between
 * two samples, against that side's own traffic.
 */
void sampler_side(const struct counter_set *set, const struct sample *from,
		  const struct sample *to, bool sender,
		  struct counter_reading *delta, struct counter_derived *out);

#endif
