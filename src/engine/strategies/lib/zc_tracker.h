/*
 * Zero-copy completion accounting: which kernel notification ids each message
 * slot is waiting for, and the totals the export shows.  The kernel numbers
 * every successful zero-copy send on a socket with a 32-bit id and reports
 * finished ids as coalesced, possibly out-of-order ranges [lo, hi]; a slot may
 * be rewritten only when every id that read from it has been reported.
 */
#ifndef NIO_TOP_ZC_TRACKER_H
#define NIO_TOP_ZC_TRACKER_H

#include <stdbool.h>
#include <stdint.h>

struct zc_span {
	uint32_t first;	   /* id of the slot's first send */
	uint32_t sent;	   /* ids given to this slot */
	uint32_t finished; /* of those, reported complete */
};

struct zc_tracker {
	uint32_t next_id;
	uint64_t sends;
	uint64_t completions;
	/*
	 * The kernel flags a notification "copied" for all of its ids, and
	 * when it coalesces notifications the first one's flag stands for the
	 * range: copied counts the ids of ranges flagged copied, and the true
	 * number of sends the kernel copied lies in [copied_min, copied_max]
	 * (at least one id per flagged range; at most every id but the first
	 * of an unflagged range besides).
	 */
	uint64_t copied;
	uint64_t copied_min;
	uint64_t copied_max;
	uint64_t unmatched; /* ids reported that no slot was waiting for */
	unsigned int slot_count;
	/* Slots are claimed in ring order: the walk starts at the oldest. */
	unsigned int oldest;
	unsigned int newest;
	struct zc_span *span;
};

/* first_id is 0 for a new socket; tests start near the wrap. */
int zc_tracker_init(struct zc_tracker *t, unsigned int slot_count,
		    uint32_t first_id);
void zc_tracker_fini(struct zc_tracker *t);

/*
 * A slot starts a new message: forget its previous spans.  Slots must be
 * claimed in ring order (0, 1, ..., slot_count - 1, 0, ...).
 */
void zc_tracker_claim(struct zc_tracker *t, unsigned int slot);

/* One send call from the slot succeeded: the kernel used the next id. */
void zc_tracker_sent(struct zc_tracker *t, unsigned int slot);

/* The kernel reported [lo, hi] done; copied if it copied instead. */
void zc_tracker_complete(struct zc_tracker *t, uint32_t lo, uint32_t hi,
			 bool copied);

bool zc_tracker_busy(const struct zc_tracker *t, unsigned int slot);
uint64_t zc_tracker_outstanding(const struct zc_tracker *t);

/* hi - lo + 1 in wrapping 32-bit arithmetic. */
static inline uint32_t zc_range_count(uint32_t lo, uint32_t hi)
{
	return hi - lo + 1;
}

#endif
