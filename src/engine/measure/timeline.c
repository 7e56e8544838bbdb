/*
 * The timeline.  Boundaries are appended as the run ticks; every
 * TIMELINE_SLACK of them (so that the work is done in batches: a pass every
 * 12.8 s of 100 ms ticks), one pass in place merges each old interval
 * into the one before it while their sum stays within merged_ns and both
 * are of the same phase (warm-up or measured).  If that leaves more than
 * old_max, merged_ns doubles and the pass runs again: old intervals all get
 * coarser together, about merged_ns each.
 */
#include <errno.h>
#include <stdlib.h>

#include "timeline.h"

/* Old intervals start out merged to this many ticks. */
#define TIMELINE_FIRST_TICKS 10

void timeline_init(struct timeline *tl, uint64_t tick_ns, uint64_t recent_ns,
		   size_t old_max)
{
	*tl = (struct timeline){
		.tick_ns = tick_ns,
		.recent_ns = recent_ns,
		.old_max = old_max < 2 ? 2 : old_max,
		.merged_ns = TIMELINE_FIRST_TICKS * tick_ns,
	};
}

void timeline_fini(struct timeline *tl)
{
	free(tl->point);
	tl->point = NULL;
	tl->count = tl->capacity = 0;
}

/* Boundaries a run adds besides its ticks: the warm-up's end, the stop. */
#define TIMELINE_MARKS 4

size_t timeline_bound(uint64_t tick_ns, uint64_t recent_ns, size_t old_max)
{
	/* The start, the recent ones, the old, the slack. */
	return 1 + recent_ns / tick_ns + TIMELINE_MARKS +
	       (old_max < 2 ? 2 : old_max) + TIMELINE_SLACK;
}

/*
 * One pass: boundaries that end an interval older than cutoff are dropped
 * where the intervals on both sides of them fit in merged_ns together.
 * Returns how many old intervals are left.
 */
static size_t timeline_pass(struct timeline *tl, uint64_t cutoff_ns)
{
	/* Jitter of the ticks: 100.2 ms intervals still fill a second. */
	uint64_t limit = tl->merged_ns + tl->tick_ns / 2;
	size_t out = 1, old = 0;

	for (size_t k = 1; k < tl->count; k++) {
		const struct timeline_point *p = &tl->point[k];
		bool is_old = p->sample.t_ns <= cutoff_ns;

		if (is_old && out >= 2 &&
		    tl->point[out - 1].warmup == p->warmup &&
		    p->sample.t_ns - tl->point[out - 2].sample.t_ns <= limit) {
			/* Interval out-1 grows to end where k ends. */
			tl->point[out - 1] = *p;
			continue;
		}
		tl->point[out++] = *p;
		old += is_old;
	}
	tl->count = out;
	return old;
}

static void timeline_compact(struct timeline *tl)
{
	uint64_t last = tl->point[tl->count - 1].sample.t_ns;
	uint64_t cutoff;

	if (last - tl->point[0].sample.t_ns <= tl->recent_ns)
		return;
	cutoff = last - tl->recent_ns;
	while (timeline_pass(tl, cutoff) > tl->old_max)
		tl->merged_ns *= 2;
}

int timeline_add(struct timeline *tl, const struct sample *s, bool warmup)
{
	if (tl->count && s->t_ns <= tl->point[tl->count - 1].sample.t_ns)
		return 0;
	if (tl->count == tl->capacity) {
		size_t capacity = tl->capacity ? 2 * tl->capacity : 64;
		size_t bound = timeline_bound(tl->tick_ns, tl->recent_ns,
					      tl->old_max);
		void *grown;

		if (capacity > bound && tl->capacity < bound)
			capacity = bound;
		grown = realloc(tl->point, capacity * sizeof(*tl->point));
		if (!grown)
			return -ENOMEM;
		tl->point = grown;
		tl->capacity = capacity;
	}
	tl->point[tl->count++] = (struct timeline_point){.sample = *s,
							 .warmup = warmup};
	if (++tl->appended >= TIMELINE_SLACK) {
		tl->appended = 0;
		timeline_compact(tl);
	}
	return 0;
}

size_t timeline_intervals(const struct timeline *tl)
{
	return tl->count ? tl->count - 1 : 0;
}

void timeline_interval(const struct timeline *tl, size_t i,
		       const struct sample **from, const struct sample **to,
		       bool *warmup)
{
	*from = &tl->point[i].sample;
	*to = &tl->point[i + 1].sample;
	*warmup = tl->point[i + 1].warmup;
}
