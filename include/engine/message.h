/*
 * A message: what the workload sends, as an application would hold it --
 * separately allocated fields (eight by default, --fields) -- plus the
 * sequence stamp and the fill pattern that let a receiver prove it got
 * exactly what was sent.
 */
#ifndef NIO_TOP_MESSAGE_H
#define NIO_TOP_MESSAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#define MESSAGE_FIELDS_DEFAULT 8
#define MESSAGE_FIELDS_MAX     64
#define MESSAGE_SIZE_MIN       64
#define MESSAGE_SIZE_MAX       (4u << 20)

struct message {
	size_t size;
	unsigned int field_count;
	/* The fields lie in memory the caller owns (message_init_in). */
	bool borrowed;
	uint8_t *field[MESSAGE_FIELDS_MAX];
	size_t field_len[MESSAGE_FIELDS_MAX];
};

/* size / fields bytes per field, the remainder in the last one. */
void message_split(size_t size, unsigned int fields,
		   size_t field_len[MESSAGE_FIELDS_MAX]);

/*
 * Allocates the fields, each on its own, a field of a page or more on a page
 * boundary: 0, -EINVAL (size or fields out of range) or -ENOMEM.
 */
int message_init(struct message *msg, size_t size, unsigned int fields);
/*
 * The bytes message_init_in() lays a message out in: each field on a cache
 * line of its own, gap bytes apart (0: one after another).
 */
size_t message_footprint(size_t size, unsigned int fields, size_t gap);
/* The fields laid out at base, memory the caller owns and keeps. */
int message_init_in(struct message *msg, size_t size, unsigned int fields,
		    size_t gap, uint8_t *base);
/*
 * A view of a message that already lies at base, one field after another
 * (read-only memory is fine): nothing is written.
 */
int message_view(struct message *msg, size_t size, unsigned int fields,
		 const uint8_t *base);
void message_fini(struct message *msg);

/*
 * A received message that lies in pieces (pages a receive mapped, and the
 * bytes copied between them): each piece is one of its fields, so its stamp
 * and pattern are read across pieces as across fields.  message_pieces()
 * starts it empty; message_add_piece() adds len bytes at at, joined to the
 * last piece when they follow it, and is false when no field is left.
 */
void message_pieces(struct message *msg);
bool message_add_piece(struct message *msg, const uint8_t *at, size_t len);

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

/* The fields as an iovec; returns their count. */
int message_iovec(const struct message *msg,
		  struct iovec iov[MESSAGE_FIELDS_MAX]);

/* The concatenation of the fields, as they go on the wire. */
void message_serialize(const struct message *msg, uint8_t *wire);
void message_deserialize(struct message *msg, const uint8_t *wire);

#endif
