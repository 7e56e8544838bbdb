/*
 * Per-thread counters of one side of a flow.  Each block has exactly one
 * writer (its worker thread) and one reader (the main loop), so plain relaxed
 * atomic loads and stores suffice: no locks and no read-modify-write on the
 * hot path.  Blocks are cache-line aligned so two threads never share a line.
 */
#ifndef NIO_TOP_FLOW_STATS_H
#define NIO_TOP_FLOW_STATS_H

#include <stdatomic.h>
#include <stdint.h>

#include "rx_side.h"

struct flow_stats {
	_Atomic uint64_t messages;
	_Atomic uint64_t bytes;
	_Atomic uint64_t checked;
	_Atomic uint64_t corrupt;
	_Atomic uint64_t zc_sends;
	_Atomic uint64_t zc_completions;
	_Atomic uint64_t zc_copied;
	_Atomic uint64_t zc_enobufs;
	_Atomic uint64_t zc_copied_min;
	_Atomic uint64_t zc_copied_max;
	_Atomic uint64_t zc_unmatched;
	_Atomic uint64_t uring_cq_overflow;
	_Atomic uint64_t uring_fixed_sends;
	/* The receive side's own counters (rx_side.h), in its order. */
	_Atomic uint64_t rx_side[RX_COUNTERS_MAX];
	/* Set once, by the writer, when its thread fails: -errno and where. */
	_Atomic(const char *) error_step;
	_Atomic int error;
} __attribute__((aligned(64)));

static inline uint64_t flow_stat_read(const _Atomic uint64_t *counter)
{
	return atomic_load_explicit(counter, memory_order_relaxed);
}

static inline void flow_stat_set(_Atomic uint64_t *counter, uint64_t value)
{
	atomic_store_explicit(counter, value, memory_order_relaxed);
}

/* Single writer: a load and a store, not a locked add. */
static inline void flow_stat_add(_Atomic uint64_t *counter, uint64_t n)
{
	flow_stat_set(counter, flow_stat_read(counter) + n);
}

static inline void flow_stats_fail(struct flow_stats *stats, const char *step,
				   int err)
{
	atomic_store_explicit(&stats->error_step, step, memory_order_relaxed);
	atomic_store_explicit(&stats->error, err, memory_order_release);
}

#endif
