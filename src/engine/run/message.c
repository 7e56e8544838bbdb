/*
 * Messages: heap fields (eight by default), a sequence stamp in the first
 * eight bytes and a fill pattern derived from the sequence, so that a byte
 * flipped, a message lost or reordered, or a buffer rewritten while the
 * kernel still read it all show up as a mismatch at the receiver.  With many
 * fields a field may be shorter than the stamp, which then spans fields.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "message.h"

/* The golden-ratio step makes neighbouring words differ in every byte. */
#define PATTERN_STEP 0x9e3779b97f4a7c15ull

static uint64_t pattern_key(uint64_t seq)
{
	/* splitmix64: consecutive sequences get unrelated patterns. */
	uint64_t z = seq + PATTERN_STEP;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint8_t pattern_byte(uint64_t key, size_t offset)
{
	uint64_t word = key + (offset / 8) * PATTERN_STEP;

	return (uint8_t)(word >> (8 * (offset % 8)));
}

static uint64_t pattern_word(uint64_t key, size_t offset)
{
	return htole64(key + (offset / 8) * PATTERN_STEP);
}

/*
 * Writes or checks the pattern of bytes [offset, offset + len) of the message
 * held at buf.  Returns the number of mismatching bytes when checking.
 */
static size_t pattern_span(uint8_t *buf, size_t offset, size_t len,
			   uint64_t key, int check)
{
	size_t mismatches = 0;
	size_t i = 0;

	for (; i < len && (offset + i) % 8; i++) {
		uint8_t want = pattern_byte(key, offset + i);

		if (!check)
			buf[i] = want;
		else if (buf[i] != want)
			mismatches++;
	}
	for (; i + 8 <= len; i += 8) {
		uint64_t want = pattern_word(key, offset + i);
		uint64_t have;

		if (!check) {
			memcpy(buf + i, &want, 8);
			continue;
		}
		memcpy(&have, buf + i, 8);
		if (have != want)
			mismatches++;
	}
	for (; i < len; i++) {
		uint8_t want = pattern_byte(key, offset + i);

		if (!check)
			buf[i] = want;
		else if (buf[i] != want)
			mismatches++;
	}
	return mismatches;
}

void message_split(size_t size, unsigned int fields,
		   size_t field_len[MESSAGE_FIELDS_MAX])
{
	for (unsigned int i = 0; i < fields; i++)
		field_len[i] = size / fields;
	field_len[fields - 1] += size % fields;
}

static int message_layout(struct message *msg, size_t size, unsigned int fields)
{
	memset(msg, 0, sizeof(*msg));
	if (size < MESSAGE_SIZE_MIN || size > MESSAGE_SIZE_MAX || fields < 1 ||
	    fields > MESSAGE_FIELDS_MAX)
		return -EINVAL;
	msg->size = size;
	msg->field_count = fields;
	message_split(size, fields, msg->field_len);
	return 0;
}

/*
 * A field of a page or more starts on a page: a zero-copy send pins one page
 * fewer (16 for 64000 bytes, not 17), and the kernel's copies start aligned.
 * Smaller fields stay where malloc puts them, so small messages cost no more.
 */
static void *field_alloc(size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	void *p;

	if (len < page)
		return malloc(len);
	return posix_memalign(&p, page, len) == 0 ? p : NULL;
}

int message_init(struct message *msg, size_t size, unsigned int fields)
{
	int r = message_layout(msg, size, fields);

	if (r < 0)
		return r;
	for (unsigned int i = 0; i < fields; i++) {
		msg->field[i] = field_alloc(msg->field_len[i]);
		if (!msg->field[i]) {
			message_fini(msg);
			return -ENOMEM;
		}
	}
	message_fill(msg, 0);
	return 0;
}

/* Where the field after one of len bytes starts: gap 0 keeps them touching. */
static size_t field_stride(size_t len, size_t gap)
{
	return gap ? (len + gap + 63) / 64 * 64 : len;
}

size_t message_footprint(size_t size, unsigned int fields, size_t gap)
{
	size_t len[MESSAGE_FIELDS_MAX], total = 0;

	if (fields < 1 || fields > MESSAGE_FIELDS_MAX)
		return 0;
	message_split(size, fields, len);
	for (unsigned int i = 0; i < fields; i++)
		total += field_stride(len[i], gap);
	return total;
}

int message_init_in(struct message *msg, size_t size, unsigned int fields,
		    size_t gap, uint8_t *base)
{
	int r = message_layout(msg, size, fields);

	if (r < 0)
		return r;
	msg->borrowed = true;
	for (unsigned int i = 0; i < fields; i++) {
		msg->field[i] = base;
		base += field_stride(msg->field_len[i], gap);
	}
	message_fill(msg, 0);
	return 0;
}

int message_view(struct message *msg, size_t size, unsigned int fields,
		 const uint8_t *base)
{
	int r = message_layout(msg, size, fields);

	if (r < 0)
		return r;
	msg->borrowed = true;
	for (unsigned int i = 0; i < fields; i++) {
		/* Only read through: verify and the counters never write. */
		msg->field[i] = (uint8_t *)base;
		base += msg->field_len[i];
	}
	return 0;
}

void message_pieces(struct message *msg)
{
	msg->size = 0;
	msg->field_count = 0;
	msg->borrowed = true;
}

bool message_add_piece(struct message *msg, const uint8_t *at, size_t len)
{
	unsigned int last = msg->field_count - 1;

	if (msg->field_count && msg->field[last] + msg->field_len[last] == at) {
		msg->field_len[last] += len;
	} else if (msg->field_count < MESSAGE_FIELDS_MAX) {
		/* Only read through: verify and the counters never write. */
		msg->field[msg->field_count] = (uint8_t *)at;
		msg->field_len[msg->field_count++] = len;
	} else {
		return false;
	}
	msg->size += len;
	return true;
}

void message_fini(struct message *msg)
{
	for (unsigned int i = 0; i < msg->field_count; i++) {
		if (!msg->borrowed)
			free(msg->field[i]);
		msg->field[i] = NULL;
	}
}

/* Copies the message's first 8 bytes to or from stamp, across fields. */
static void stamp_bytes(const struct message *msg, uint8_t stamp[8], bool write)
{
	size_t done = 0;

	for (unsigned int i = 0; i < msg->field_count && done < 8; i++) {
		size_t n = msg->field_len[i] < 8 - done ? msg->field_len[i]
							: 8 - done;

		if (write)
			memcpy(msg->field[i], stamp + done, n);
		else
			memcpy(stamp + done, msg->field[i], n);
		done += n;
	}
}

void message_stamp(struct message *msg, uint64_t seq)
{
	uint64_t le = htole64(seq);

	stamp_bytes(msg, (uint8_t *)&le, true);
}

uint64_t message_seq(const struct message *msg)
{
	uint64_t le;

	stamp_bytes(msg, (uint8_t *)&le, false);
	return le64toh(le);
}

void message_fill(struct message *msg, uint64_t seq)
{
	uint64_t key = pattern_key(seq);
	size_t offset = 0;

	for (unsigned int i = 0; i < msg->field_count; i++) {
		pattern_span(msg->field[i], offset, msg->field_len[i], key, 0);
		offset += msg->field_len[i];
	}
	message_stamp(msg, seq);
}

int message_verify(const struct message *msg, uint64_t expected_seq)
{
	uint64_t key = pattern_key(expected_seq);
	size_t mismatches = 0, offset = 0;

	if (message_seq(msg) != expected_seq)
		return -EBADMSG;

	/* The pattern of every byte after the stamp's first 8. */
	for (unsigned int i = 0; i < msg->field_count; i++) {
		size_t len = msg->field_len[i];
		size_t skip = offset < 8 ? 8 - offset : 0;

		if (skip < len)
			mismatches += pattern_span(msg->field[i] + skip,
						   offset + skip, len - skip,
						   key, 1);
		offset += len;
	}
	return mismatches ? -EBADMSG : 0;
}

int message_iovec(const struct message *msg,
		  struct iovec iov[MESSAGE_FIELDS_MAX])
{
	for (unsigned int i = 0; i < msg->field_count; i++) {
		iov[i].iov_base = msg->field[i];
		iov[i].iov_len = msg->field_len[i];
	}
	return (int)msg->field_count;
}

void message_serialize(const struct message *msg, uint8_t *wire)
{
	for (unsigned int i = 0; i < msg->field_count; i++) {
		memcpy(wire, msg->field[i], msg->field_len[i]);
		wire += msg->field_len[i];
	}
}

void message_deserialize(struct message *msg, const uint8_t *wire)
{
	for (unsigned int i = 0; i < msg->field_count; i++) {
		memcpy(msg->field[i], wire, msg->field_len[i]);
		wire += msg->field_len[i];
	}
}
