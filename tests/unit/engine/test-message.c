/*
 * Messages: the size split (size/N per field, remainder last), and that verify
 * accepts an intact message and catches one flipped byte anywhere, a wrong
 * sequence, and a stale pattern -- with 1, 8 and 64 fields (64 one-byte
 * fields: the stamp spans eight of them); fields of a page or more start on
 * a page.  A slot's fields lie end to end, and joined they are one piece
 * (splice's one pipe buffer per page); fields apart stay apart.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "message.h"
#include "scatter.h"
#include "tap.h"

static void test_split(void)
{
	size_t len[MESSAGE_FIELDS_MAX];
	size_t total = 0;

	message_split(1001, 8, len);
	for (int i = 0; i < 7; i++)
		total += len[i] == 125;
	ok(total == 7, "1001 bytes: the first seven fields hold 125");
	ok(len[7] == 126, "1001 bytes: the last field holds 126");

	message_split(64, 8, len);
	ok(len[0] == 8 && len[7] == 8, "64 bytes: 8 per field");
	message_split(4u << 20, 8, len);
	ok(len[3] == 512 * 1024 && len[7] == 512 * 1024,
	   "4 MiB: 512 KiB per field");
	message_split(1001, 1, len);
	ok(len[0] == 1001, "one field holds the whole message");
	message_split(100, 64, len);
	ok(len[0] == 1 && len[62] == 1 && len[63] == 37,
	   "100 bytes in 64 fields: 1 each, 37 in the last");
}

static bool page_aligned(const struct message *m)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	for (unsigned int i = 0; i < m->field_count; i++)
		if ((uintptr_t)m->field[i] % page != 0)
			return false;
	return true;
}

static void test_bounds(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct message m;

	uint8_t region[128];

	ok(message_init(&m, 63, 8) == -EINVAL, "63 bytes is refused");
	ok(message_init(&m, (4u << 20) + 1, 8) == -EINVAL,
	   "4 MiB + 1 is refused");
	ok(message_init(&m, 64, 0) == -EINVAL &&
		   message_init(&m, 64, 65) == -EINVAL,
	   "0 and 65 fields are refused");
	ok(message_init(&m, 64, 8) == 0, "64 bytes is accepted");
	message_fini(&m);
	ok(message_init(&m, 65435, 1) == 0 &&
		   (uintptr_t)m.field[0] % page == 0 &&
		   message_verify(&m, 0) == 0,
	   "a field of a page or more starts on a page (one 65435-byte field)");
	message_fini(&m);
	ok(message_init(&m, 65536, 8) == 0 && page_aligned(&m) &&
		   message_verify(&m, 0) == 0,
	   "64 KiB in 8 fields: each 8 KiB field starts on a page");
	message_fini(&m);
	ok(message_init_in(&m, 128, 4, 0, region) == 0 &&
		   m.field[0] == region && m.field[3] == region + 96 &&
		   message_verify(&m, 0) == 0,
	   "fields laid out one after another in a caller's region, filled");
	message_fini(&m);
	ok(message_footprint(128, 4, 0) == 128 &&
		   message_footprint(128, 4, 64) == 4 * 128,
	   "a gap puts each field on its own cache lines");
}

/* Flips one byte at message offset `at` and checks verify notices. */
static bool flip_detected(struct message *m, size_t at)
{
	size_t offset = 0;
	bool detected;
	int f = 0;

	while (at >= offset + m->field_len[f])
		offset += m->field_len[f++];
	m->field[f][at - offset] ^= 0x01;
	detected = message_verify(m, 7) == -EBADMSG;
	m->field[f][at - offset] ^= 0x01;
	return detected;
}

static void test_verify(size_t size, unsigned int fields)
{
	struct message m, copy;
	size_t missed = 0;
	uint8_t *wire;

	message_init(&m, size, fields);
	message_init(&copy, size, fields);
	message_fill(&m, 7);
	ok(message_seq(&m) == 7, "%zu bytes, %u fields: the stamp reads back",
	   size, fields);
	ok(message_verify(&m, 7) == 0, "%zu bytes: an intact message verifies",
	   size);
	ok(message_verify(&m, 8) == -EBADMSG,
	   "%zu bytes: the wrong sequence is caught", size);

	for (size_t at = 0; at < size; at++)
		missed += !flip_detected(&m, at);
	ok(missed == 0,
	   "%zu bytes: a flipped byte is caught at every offset "
	   "(%zu missed)",
	   size, missed);

	/* A slot rewritten with the next message's fill but the old stamp. */
	message_fill(&copy, 8);
	message_stamp(&copy, 7);
	ok(message_verify(&copy, 7) == -EBADMSG,
	   "%zu bytes: another sequence's pattern is caught", size);

	/* The wire form (two-copy) round-trips. */
	wire = malloc(size);
	message_serialize(&m, wire);
	memset(copy.field[fields - 1], 0, copy.field_len[fields - 1]);
	message_deserialize(&copy, wire);
	ok(message_verify(&copy, 7) == 0,
	   "%zu bytes: serialize then deserialize verifies", size);
	free(wire);
	message_fini(&copy);
	message_fini(&m);
}

/*
 * A received message in pieces (as --rx zerocopy reads one: mapped pages,
 * copied bytes between them) verifies as the message it is, wherever the
 * cuts fall, and a flipped byte in any piece is caught.
 */
static void test_pieces(size_t size)
{
	struct message sent, got;
	uint8_t *wire = malloc(size);
	uint8_t *spread = malloc(2 * size);
	size_t at = 0, cut = 3;
	unsigned int pieces = 0;
	bool added = true;

	message_init(&sent, size, 8);
	message_fill(&sent, 42);
	message_serialize(&sent, wire);
	message_pieces(&got);
	/*
	 * Cuts of 3, 4, 5... bytes, a byte apart so that none joins: the
	 * stamp itself lies in three pieces.
	 */
	while (at < size && added) {
		size_t n = size - at < cut ? size - at : cut++;

		memcpy(spread + at + pieces, wire + at, n);
		added = message_add_piece(&got, spread + at + pieces, n);
		at += n;
		pieces++;
	}
	ok(added && got.size == size && got.field_count == pieces,
	   "%zu bytes in %u pieces: every piece taken", size, pieces);
	ok(message_seq(&got) == 42 && message_verify(&got, 42) == 0,
	   "%zu bytes in pieces: stamp and pattern read across the cuts", size);
	got.field[got.field_count / 2][0] ^= 1;
	ok(message_verify(&got, 42) == -EBADMSG,
	   "%zu bytes in pieces: a flipped byte in a piece is caught", size);
	free(spread);
	free(wire);
	message_fini(&got);
	message_fini(&sent);
}

/* Pieces that follow each other join; the 65th apart is refused. */
static void test_pieces_bounds(void)
{
	static uint8_t buf[2 * (MESSAGE_FIELDS_MAX + 1)];
	struct message m;
	bool all = true;

	message_pieces(&m);
	ok(message_add_piece(&m, buf, 4) && message_add_piece(&m, buf + 4, 6) &&
		   m.field_count == 1 && m.field_len[0] == 10 && m.size == 10,
	   "a piece that follows the last joins it");
	message_pieces(&m);
	for (unsigned int i = 0; i < MESSAGE_FIELDS_MAX; i++)
		all = all && message_add_piece(&m, buf + 2 * i, 1);
	ok(all && !message_add_piece(&m, buf + 2 * MESSAGE_FIELDS_MAX, 1) &&
		   m.size == MESSAGE_FIELDS_MAX,
	   "%d pieces apart are taken, one more is refused",
	   MESSAGE_FIELDS_MAX);
}

static void test_join(size_t size, unsigned int fields)
{
	size_t gaps[] = {0, 64};

	for (size_t g = 0; g < 2; g++) {
		uint8_t *base = calloc(
			1, message_footprint(size, fields, gaps[g]));
		struct iovec iov[MESSAGE_FIELDS_MAX];
		struct message msg;
		size_t total = 0;
		int n = 0;

		if (base &&
		    message_init_in(&msg, size, fields, gaps[g], base) == 0)
			n = scatter_join(iov, message_iovec(&msg, iov));
		for (int i = 0; i < n; i++)
			total += iov[i].iov_len;
		if (gaps[g] == 0)
			ok(n == 1 && iov[0].iov_base == base && total == size,
			   "%zu bytes in %u touching fields: joined, one piece "
			   "of %zu bytes (%d)",
			   size, fields, size, n);
		else
			ok(n == (int)fields && total == size,
			   "%zu bytes in %u fields apart: %u pieces (%d)", size,
			   fields, fields, n);
		free(base);
	}
}

int main(void)
{
	test_split();
	test_bounds();
	test_verify(64, 8);
	test_verify(1001, 8);
	test_verify(4096, 8);
	test_verify(4096, 1);
	test_verify(64, 64);
	test_verify(1001, 64);
	test_pieces(1001);
	test_pieces(1900);
	test_pieces_bounds();
	test_join(4096, 8);
	test_join(1001, 64);
	test_join(65536, 8);
	return tap_done();
}
