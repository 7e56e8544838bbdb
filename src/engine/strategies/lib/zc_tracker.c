/*
 * Zero-copy completion accounting.  All id arithmetic is in wrapping u32, with
 * offsets taken relative to the reported range so that a range crossing
 * 0xffffffff -> 0 needs no special case; the ids in flight on one socket are
 * far fewer than 2^31, which keeps "before" and "after" unambiguous.
 *
 * Slots take their ids in ring order, so a range is matched by walking the
 * slots from the oldest one still waiting and stopping at the first slot
 * that starts after the range: a completion costs the slots it covers, not
 * the whole pool (which may hold thousands).
 */
#include <errno.h>
#include <stdlib.h>

#include "zc_tracker.h"

int zc_tracker_init(struct zc_tracker *t, unsigned int slot_count,
		    uint32_t first_id)
{
	*t = (struct zc_tracker){.next_id = first_id, .slot_count = slot_count};
	t->span = calloc(slot_count, sizeof(*t->span));
	return t->span ? 0 : -ENOMEM;
}

void zc_tracker_fini(struct zc_tracker *t)
{
	free(t->span);
	t->span = NULL;
}

void zc_tracker_claim(struct zc_tracker *t, unsigned int slot)
{
	t->span[slot] = (struct zc_span){0};
	/* With nothing in flight the walk may start here. */
	if (t->sends == t->completions)
		t->oldest = t->newest = slot;
}

void zc_tracker_sent(struct zc_tracker *t, unsigned int slot)
{
	struct zc_span *s = &t->span[slot];

	if (s->sent == 0)
		s->first = t->next_id;
	s->sent++;
	t->newest = slot;
	t->next_id++;
	t->sends++;
}

/* How many of the slot's ids fall inside [lo, lo + count). */
static uint32_t span_overlap(const struct zc_span *s, uint32_t lo,
			     uint32_t count)
{
	uint32_t ahead = s->first - lo;
	uint32_t behind = lo - s->first;

	if (s->sent == 0)
		return 0;
	if (ahead < count)
		return s->sent < count - ahead ? s->sent : count - ahead;
	if (behind < s->sent)
		return s->sent - behind < count ? s->sent - behind : count;
	return 0;
}

/* Whether the slot's ids all come after the range [lo, lo + count). */
static bool span_after(const struct zc_span *s, uint32_t lo, uint32_t count)
{
	uint32_t ahead = s->first - lo;

	return ahead >= count && ahead < 0x80000000u;
}

void zc_tracker_complete(struct zc_tracker *t, uint32_t lo, uint32_t hi,
			 bool copied)
{
	uint32_t count = zc_range_count(lo, hi);
	uint64_t matched = 0;
	unsigned int i = t->oldest;

	t->completions += count;
	if (copied) {
		t->copied += count;
		t->copied_min++;
		t->copied_max += count;
	} else {
		t->copied_max += count - 1;
	}

	for (unsigned int k = 0; k < t->slot_count; k++) {
		struct zc_span *s = &t->span[i];

		if (s->finished != s->sent) {
			uint32_t n;

			if (span_after(s, lo, count))
				break;
			n = span_overlap(s, lo, count);
			if (n > s->sent - s->finished)
				n = s->sent - s->finished;
			s->finished += n;
			matched += n;
		}
		if (i == t->newest)
			break;
		i = (i + 1) % t->slot_count;
	}
	t->unmatched += count - matched;
	while (t->oldest != t->newest &&
	       t->span[t->oldest].finished == t->span[t->oldest].sent)
		t->oldest = (t->oldest + 1) % t->slot_count;
}

bool zc_tracker_busy(const struct zc_tracker *t, unsigned int slot)
{
	return t->span[slot].finished != t->span[slot].sent;
}

uint64_t zc_tracker_outstanding(const struct zc_tracker *t)
{
	return t->sends - t->completions;
}
