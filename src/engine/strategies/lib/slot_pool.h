/*
 * A pool of message slots whose pages the kernel reads after the send call
 * has returned and that no completion ever frees: sendfile and splice hand
 * TCP references to the pages themselves, and over veth and loopback the
 * receiving socket reads straight from them.  A slot is rewritten only once
 * the receiver has read every byte taken from it -- both ends are threads of
 * this process, so its count of whole messages read is the signal -- unless
 * --unsafe-reuse asks for the references' habit of rewriting at once.
 */
#ifndef NIO_TOP_SLOT_POOL_H
#define NIO_TOP_SLOT_POOL_H

#include <stdbool.h>
#include <stdint.h>

#include "strategy.h"

struct slot_pool {
	uint8_t *base; /* the slots, each on pages of its own */
	size_t stride;
	size_t size; /* of the whole region */
	int memfd;   /* the region is this memfd's pages, or -1 */
	unsigned int slot_count;
	unsigned int head;
	struct message *slot;
	uint64_t *taken; /* per slot: 1 + the sequence it last held, or 0 */
	uint64_t next_seq;
	const _Atomic uint64_t *delivered;
	bool unsafe;
	uint64_t waits; /* times the head slot was not read yet */
};

/* The bytes the pool of params takes (slots x pages per message). */
size_t slot_pool_memory(const struct strategy_params *params);

/*
 * The slots in a memfd's pages (memfd: sendfile reads the file) or in
 * anonymous pages (splice): 0 or -errno.  -EOPNOTSUPP without a receiver
 * here to wait for (unless unsafe).
 */
int slot_pool_open(struct slot_pool *pool, const struct strategy_params *params,
		   bool memfd);
void slot_pool_close(struct slot_pool *pool);

/* The next slot, once its last message has been read. */
int slot_pool_next(struct slot_pool *pool, struct message **msg);
/*
 * The fewest bytes its sender leaves unread while it waits for a slot:
 * every slot but the one the receiver is part way through (at least 1).
 */
size_t slot_pool_unread_least(const struct strategy_params *params);
/* Offset of msg in the region (the memfd's file offset). */
size_t slot_pool_offset(const struct slot_pool *pool,
			const struct message *msg);

#endif
