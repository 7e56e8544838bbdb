/*
 * A message: what the workload sends, as an application would hold it --
 * eight separately heap-allocated fields -- plus the sequence stamp and the
 * fill pattern that let a receiver prove it got exactly what was sent.
 */
#ifndef NIO_TOP_MESSAGE_H
#define NIO_TOP_MESSAGE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#define MESSAGE_FIELDS	 8
#define MESSAGE_SIZE_MIN 64
#define MESSAGE_SIZE_MAX (4u << 20)

struct message {
	size_t size;
	uint8_t *field[MESSAGE_FIELDS];
	size_t field_len[MESSAGE_FIELDS];
};

/* size / 8 bytes per field, the remainder in the last one. */
void message_split(size_t size, size_t field_len[MESSAGE_FIELDS]);

/* Allocates the fields; 0, -EINVAL (size out of range) or -ENOMEM. */
int message_init(struct message *msg, size_t size);
void message_fini(struct message *msg);

/* Writes only the sequence stamp (the first 8 bytes of the message). */
void message_stamp(struct message *msg, uint64_t seq);
uint64_t message_seq(const struct message *msg);

/* Writes the stamp and the whole pattern, which depends on the sequence. */
void message_fill(struct message *msg, uint64_t seq);

/*
 * 0 if the message carries expected_seq and every byte of its pattern;
 * -EBADMSG otherwise.
 */
int message_verify(const struct message *msg, uint64_t expected_seq);

void message_iovec(const struct message *msg, struct iovec iov[MESSAGE_FIELDS]);

/* The concatenation of the fields, as they go on the wire. */
void message_serialize(const struct message *msg, uint8_t *wire);
void message_deserialize(struct message *msg, const uint8_t *wire);

#endif
