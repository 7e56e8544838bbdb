/*
 * The sampler turns the workers' monotonic counters into totals at an instant
 * and figures between two instants.  It only reads: one pass over the flows.
 */
#ifndef NIO_TOP_SAMPLER_H
#define NIO_TOP_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clock.h"
#include "counters.h"
#include "metric.h"
#include "record.h"
#include "rx_side.h"

/* The engine's own: a run's flows (worker.h, private). */
struct worker_flow;

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
	uint64_t zc_copied_min; /* the true copied count's bounds */
	uint64_t zc_copied_max;
	uint64_t zc_unmatched;	    /* completions no send was waiting for */
	uint64_t uring_cq_overflow; /* CQEs the kernel had to hold back */
	uint64_t uring_fixed_sends; /* requests from registered buffers */
	/*
	 * The receive side's own counters, as its row declares them
	 * (rx_side.h: its record over these, in its order).
	 */
	uint64_t rx_side[RX_COUNTERS_MAX];
};

/*
 * The whole host's CPU time since boot (/proc/stat, every CPU), in ns:
 * all of it, what tasks ran (user, nice, system), interrupts and softirqs,
 * what the hypervisor took (steal); and this process's own (every thread,
 * /proc/self/stat).  0 throughout where /proc could not be read.
 */
struct host_cpu {
	uint64_t all_ns;
	uint64_t task_ns;
	uint64_t irq_ns;
	uint64_t steal_ns;
	uint64_t self_ns;
};

/* As an export's run holds them: integrity and zero-copy in their own parts. */
extern const struct record run_totals_record;

/*
 * The counts at an instant.  Every field is a uint64_t that only grows, so
 * that samples can be subtracted and added field by field (sampler_delta):
 * a run takes the intervals it sampled out of its figures that way.
 */
struct sample {
	uint64_t t_ns; /* CLOCK_MONOTONIC */
	struct run_totals totals;
	struct host_cpu host;
	struct counter_reading tx_counters[COUNTERS_MAX];
	struct counter_reading rx_counters[COUNTERS_MAX];
};

void sampler_read(const struct worker_flow *flows, unsigned int flow_count,
		  uint64_t now_ns, struct sample *out);
/* The host's and this process's CPU time now. */
void sampler_host_cpu(struct host_cpu *out);

/* to - from, every field (time too): what happened between them. */
void sampler_delta(const struct sample *from, const struct sample *to,
		   struct sample *out);
/* sum += delta, every field. */
void sampler_add(struct sample *sum, const struct sample *delta);

/*
 * The share of zero-copy sends the kernel copied, as far as its
 * notifications prove it, "100%": exact where every request has its own
 * notification (io_uring's usage report), else the range that coalesced
 * ranges allow (MSG_ZEROCOPY flags a range by its first send): "2.4-100%".
 * False, out empty, with no completion.
 */
bool sampler_zc_copied(const struct run_totals *t, char *out, size_t size);

/*
 * One side's counter deltas (delta may be NULL) and figures between two
 * samples, against that side's own traffic; set NULL: nothing counted.
 */
void sampler_side(const struct counter_set *set, const struct sample *from,
		  const struct sample *to, bool sender,
		  struct counter_reading *delta, struct metric_values *out);

#endif
