/*
 * Messages: eight heap fields, a sequence stamp in the first eight bytes and a
 * fill pattern derived from the sequence, so that a byte flipped, a message
 * lost or reordered, or a buffer rewritten while the kernel still read it all
 * show up as a mismatch at the receiver.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

void message_split(size_t size, size_t field_len[MESSAGE_FIELDS])
{
	for (int i = 0; i < MESSAGE_FIELDS; i++)
		field_len[i] = size / MESSAGE_FIELDS;
	field_len[MESSAGE_FIELDS - 1] += size % MESSAGE_FIELDS;
}

int message_init(struct message *msg, size_t size)
{
	memset(msg, 0, sizeof(*msg));
	if (size < MESSAGE_SIZE_MIN || size > MESSAGE_SIZE_MAX)
		return -EINVAL;

	msg->size = size;
	message_split(size, msg->field_len);
	for (int i = 0; i < MESSAGE_FIELDS; i++) {
		msg->field[i] = malloc(msg->field_len[i]);
		if (!msg->field[i]) {
			message_fini(msg);
			return -ENOMEM;
		}
	}
	message_fill(msg, 0);
	return 0;
}

void message_fini(struct message *msg)
{
	for (int i = 0; i < MESSAGE_FIELDS; i++) {
		free(msg->field[i]);
		msg->field[i] = NULL;
	}
}

void message_stamp(struct message *msg, uint64_t seq)
{
	uint64_t le = htole64(seq);

	memcpy(msg->field[0], &le, sizeof(le));
}

uint64_t message_seq(const struct message *msg)
{
	uint64_t le;

	memcpy(&le, msg->field[0], sizeof(le));
	return le64toh(le);
}

void message_fill(struct message *msg, uint64_t seq)
{
	uint64_t key = pattern_key(seq);
	size_t offset = 0;

	for (int i = 0; i < MESSAGE_FIELDS; i++) {
		pattern_span(msg->field[i], offset, msg->field_len[i], key, 0);
		offset += msg->field_len[i];
	}
	message_stamp(msg, seq);
}

int message_verify(const struct message *msg, uint64_t expected_seq)
{
	uint64_t key = pattern_key(expected_seq);
	size_t offset = sizeof(uint64_t);
	size_t mismatches;

	if (message_seq(msg) != expected_seq)
		return -EBADMSG;

	/* The stamp occupies the first 8 bytes of field 0 (fields are >= 8). */
	mismatches = pattern_span(msg->field[0] + offset, offset,
				  msg->field_len[0] - offset, key, 1);
	offset = msg->field_len[0];
	for (int i = 1; i < MESSAGE_FIELDS; i++) {
		mismatches += pattern_span(msg->field[i], offset,
					   msg->field_len[i], key, 1);
		offset += msg->field_len[i];
	}
	return mismatches ? -EBADMSG : 0;
}

void message_iovec(const struct message *msg, struct iovec iov[MESSAGE_FIELDS])
{
	for (int i = 0; i < MESSAGE_FIELDS; i++) {
		iov[i].iov_base = msg->field[i];
		iov[i].iov_len = msg->field_len[i];
	}
}

void message_serialize(const struct message *msg, uint8_t *wire)
{
	for (int i = 0; i < MESSAGE_FIELDS; i++) {
		memcpy(wire, msg->field[i], msg->field_len[i]);
		wire += msg->field_len[i];
	}
}

void message_deserialize(struct message *msg, const uint8_t *wire)
{
	for (int i = 0; i < MESSAGE_FIELDS; i++) {
		memcpy(msg->field[i], wire, msg->field_len[i]);
		wire += msg->field_len[i];
	}
}
