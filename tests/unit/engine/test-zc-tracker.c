/*
 * Zero-copy completion accounting: ranges counted as hi - lo + 1 in wrapping
 * u32 arithmetic, coalesced over several slots, out of order, and across the
 * 0xffffffff -> 0 wrap; a slot is free only when all its sends completed.
 */
#include "tap.h"
#include "zc_tracker.h"

/* Gives slot s `sends` consecutive ids. */
static void send_from(struct zc_tracker *t, unsigned int s, unsigned int sends)
{
	zc_tracker_claim(t, s);
	for (unsigned int i = 0; i < sends; i++)
		zc_tracker_sent(t, s);
}

static void test_range_count(void)
{
	ok(zc_range_count(5, 5) == 1, "a single id counts 1");
	ok(zc_range_count(0, 9) == 10, "[0, 9] counts 10");
	ok(zc_range_count(0xfffffffeu, 1) == 4, "[2^32-2, 1] counts 4");
	ok(zc_range_count(0xffffffffu, 0xffffffffu) == 1, "[2^32-1] counts 1");
}

static void test_coalesced(void)
{
	struct zc_tracker t;

	zc_tracker_init(&t, 4, 0);
	send_from(&t, 0, 3); /* ids 0..2 */
	send_from(&t, 1, 2); /* ids 3..4 */
	send_from(&t, 2, 1); /* id 5 */
	ok(t.sends == 6, "six sends counted");
	ok(zc_tracker_busy(&t, 0) && zc_tracker_busy(&t, 1) &&
		   zc_tracker_busy(&t, 2),
	   "every slot busy before completions");

	/* One range covering slot 0 and part of slot 1. */
	zc_tracker_complete(&t, 0, 3, true);
	ok(t.completions == 4 && t.copied == 4,
	   "coalesced [0,3]: 4 completions, 4 copied");
	ok(!zc_tracker_busy(&t, 0), "slot 0 free after its three ids");
	ok(zc_tracker_busy(&t, 1), "slot 1 still busy with id 4 pending");

	zc_tracker_complete(&t, 4, 5, false);
	ok(!zc_tracker_busy(&t, 1) && !zc_tracker_busy(&t, 2),
	   "slots 1 and 2 free after [4,5]");
	ok(t.completions == 6 && t.copied == 4, "copied only where flagged");
	ok(zc_tracker_outstanding(&t) == 0 && t.unmatched == 0,
	   "nothing outstanding, nothing unmatched");
	zc_tracker_fini(&t);
}

static void test_out_of_order(void)
{
	struct zc_tracker t;

	zc_tracker_init(&t, 3, 100);
	send_from(&t, 0, 4); /* 100..103 */
	send_from(&t, 1, 4); /* 104..107 */
	send_from(&t, 2, 4); /* 108..111 */

	zc_tracker_complete(&t, 108, 111, true);
	ok(!zc_tracker_busy(&t, 2), "the last slot frees first");
	ok(zc_tracker_busy(&t, 0) && zc_tracker_busy(&t, 1),
	   "earlier slots stay busy");
	zc_tracker_complete(&t, 102, 105, true);
	ok(zc_tracker_busy(&t, 0) && zc_tracker_busy(&t, 1),
	   "a range across two slots frees neither while ids remain");
	zc_tracker_complete(&t, 100, 101, true);
	ok(!zc_tracker_busy(&t, 0), "slot 0 free once 100..103 all seen");
	zc_tracker_complete(&t, 106, 107, true);
	ok(!zc_tracker_busy(&t, 1), "slot 1 free once 104..107 all seen");
	ok(t.completions == 12 && zc_tracker_outstanding(&t) == 0,
	   "12 completions, none outstanding");
	zc_tracker_fini(&t);
}

static void test_wrap(void)
{
	struct zc_tracker t;

	zc_tracker_init(&t, 2, 0xfffffffdu);
	send_from(&t, 0, 5); /* fffffffd, fffffffe, ffffffff, 0, 1 */
	send_from(&t, 1, 2); /* 2, 3 */
	ok(t.next_id == 4, "ids wrapped to 4");

	zc_tracker_complete(&t, 0xfffffffeu, 0, true);
	ok(t.completions == 3, "[2^32-2, 0] counts 3 across the wrap");
	ok(zc_tracker_busy(&t, 0), "slot 0 waits for 2^32-3 and 1");
	zc_tracker_complete(&t, 1, 2, true);
	ok(zc_tracker_busy(&t, 0), "slot 0 still waits for 2^32-3");
	ok(zc_tracker_busy(&t, 1), "slot 1 waits for 3");
	zc_tracker_complete(&t, 0xfffffffdu, 0xfffffffdu, true);
	ok(!zc_tracker_busy(&t, 0), "slot 0 free after the wrap");
	zc_tracker_complete(&t, 3, 3, false);
	ok(!zc_tracker_busy(&t, 1) && t.completions == 7 && t.copied == 6,
	   "all 7 complete, 6 copied");
	ok(t.unmatched == 0, "every id matched a slot");
	zc_tracker_fini(&t);
}

static void test_reuse(void)
{
	struct zc_tracker t;

	zc_tracker_init(&t, 1, 0);
	send_from(&t, 0, 2);
	zc_tracker_complete(&t, 0, 1, true);
	send_from(&t, 0, 1); /* the slot is reused: id 2 */
	ok(zc_tracker_busy(&t, 0), "a reused slot is busy with its new id");
	zc_tracker_complete(&t, 2, 2, true);
	ok(!zc_tracker_busy(&t, 0) && t.completions == 3,
	   "and free once that id completes");
	zc_tracker_complete(&t, 7, 8, true);
	ok(t.unmatched == 2, "ids no slot sent are reported as unmatched");
	zc_tracker_fini(&t);
}

/*
 * A big pool used round and round: every id matched however far the ring has
 * turned, and the copied share given as a bound where a range coalesced
 * copied and uncopied sends under one flag.
 */
static void test_ring_and_bounds(void)
{
	struct zc_tracker t;
	uint32_t id = 0;

	zc_tracker_init(&t, 1024, 0xfffff000u);
	for (unsigned int round = 0; round < 5; round++) {
		for (unsigned int s = 0; s < 1024; s++)
			send_from(&t, s, 1 + s % 3);
		/* Completed in ranges of 100 ids, in order. */
		while (t.completions < t.sends) {
			uint64_t left = t.sends - t.completions;
			uint32_t n = left < 100 ? (uint32_t)left : 100;

			zc_tracker_complete(&t, 0xfffff000u + id,
					    0xfffff000u + id + n - 1,
					    id % 200 == 0);
			id += n;
		}
	}
	ok(t.unmatched == 0 && zc_tracker_outstanding(&t) == 0,
	   "5 turns of a 1024-slot ring: every id matched (%llu unmatched)",
	   (unsigned long long)t.unmatched);
	ok(!zc_tracker_busy(&t, 0) && !zc_tracker_busy(&t, 1023),
	   "and every slot free");
	zc_tracker_fini(&t);

	zc_tracker_init(&t, 4, 0);
	send_from(&t, 0, 3);		      /* 0..2 */
	send_from(&t, 1, 3);		      /* 3..5 */
	zc_tracker_complete(&t, 0, 2, true);  /* 3 ids flagged copied */
	zc_tracker_complete(&t, 3, 5, false); /* 3 ids, first not copied */
	ok(t.copied == 3 && t.copied_min == 1 && t.copied_max == 5,
	   "copied 3, at least 1 (one flagged range), at most 5 (%llu, %llu, "
	   "%llu)",
	   (unsigned long long)t.copied, (unsigned long long)t.copied_min,
	   (unsigned long long)t.copied_max);
	zc_tracker_fini(&t);
}

int main(void)
{
	test_range_count();
	test_coalesced();
	test_out_of_order();
	test_wrap();
	test_reuse();
	test_ring_and_bounds();
	return tap_done();
}
