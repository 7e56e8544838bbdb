/*
 * A run's timeline: the samples at the boundaries of its intervals, one per
 * tick.  Intervals older than a few minutes are merged into coarser ones by
 * dropping the boundaries between them, so a run of any length keeps a
 * bounded number of intervals; since every boundary is a whole sample (the
 * running totals and counter readings at that instant), a merged interval's
 * figures are derived from the sums of its parts, exactly as if it had been
 * measured in one piece, and the totals never change.
 */
#ifndef NIO_TOP_TIMELINE_H
#define NIO_TOP_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sampler.h"

/* Intervals of the last TIMELINE_RECENT_S are kept as they were taken. */
#define TIMELINE_RECENT_S 300
/*
 * Older ones are merged, ever coarser, into at most this many, plus the
 * TIMELINE_SLACK that may wait for the next merge (merges go in batches).
 */
#define TIMELINE_OLD_MAX 1000
#define TIMELINE_SLACK	 128

struct timeline_point {
	struct sample sample;
	bool warmup; /* the interval that ends here was in the warm-up */
};

struct timeline {
	struct timeline_point *point; /* point[0] starts the first interval */
	size_t count;
	size_t capacity;
	uint64_t tick_ns;
	uint64_t recent_ns;
	size_t old_max;
	uint64_t merged_ns; /* the length old intervals are merged up to */
	size_t appended;    /* boundaries since the last merge */
};

/*
 * An empty timeline for intervals of tick_ns, keeping the last recent_ns as
 * they are and merging older ones into at most old_max.
 */
void timeline_init(struct timeline *tl, uint64_t tick_ns, uint64_t recent_ns,
		   size_t old_max);
void timeline_fini(struct timeline *tl);

/*
 * The first boundary, or the next one (warmup: the interval it ends was in
 * the warm-up); a sample not later than the last is ignored.  0, or -ENOMEM
 * (the timeline is unchanged).
 */
int timeline_add(struct timeline *tl, const struct sample *s, bool warmup);

/* Intervals so far: one fewer than the boundaries. */
size_t timeline_intervals(const struct timeline *tl);

/* Interval i: the samples at its start and end, and whether warm-up. */
void timeline_interval(const struct timeline *tl, size_t i,
		       const struct sample **from, const struct sample **to,
		       bool *warmup);

/*
 * The most boundaries a timeline holds at once, for a tick and the limits
 * it was made with: the bound on its memory, whatever the run's length.
 */
size_t timeline_bound(uint64_t tick_ns, uint64_t recent_ns, size_t old_max);

#endif
