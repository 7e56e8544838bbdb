/*
 * two-copy: the baseline.  The sender serializes all the fields into one
 * contiguous buffer for every message (the user-space copy) and send()s it;
 * the receiver recv()s into one buffer and copies the fields back out.  Both
 * copies happen per message, inside the measured loop.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "scatter.h"
#include "strategy.h"

struct two_copy {
	int fd;
	struct message msg;
	uint8_t *wire;
};

static int two_copy_open(const struct strategy_params *params, void **state)
{
	struct two_copy *t = calloc(1, sizeof(*t));
	int r;

	if (!t)
		return -ENOMEM;
	t->fd = params->fd;
	r = message_init(&t->msg, params->msg_size, strategy_fields(params));
	if (r < 0)
		goto err_free;
	t->wire = malloc(params->msg_size);
	if (!t->wire) {
		r = -ENOMEM;
		goto err_msg;
	}
	*state = t;
	return 0;

err_msg:
	message_fini(&t->msg);
err_free:
	free(t);
	return r;
}

/* The fields and the wire buffer. */
static size_t two_copy_memory(const struct strategy_params *params)
{
	return 2 * params->msg_size;
}

static void two_copy_close(void *state)
{
	struct two_copy *t = state;

	free(t->wire);
	message_fini(&t->msg);
	free(t);
}

static int two_copy_slot(void *tx, struct message **msg)
{
	struct two_copy *t = tx;

	*msg = &t->msg;
	return 0;
}

static int two_copy_send(void *tx, struct message *msg)
{
	struct two_copy *t = tx;
	struct iovec iov = {.iov_base = t->wire, .iov_len = msg->size};
	int r;

	message_serialize(msg, t->wire);
	r = scatter_send_all(t->fd, &iov, 1, 0);
	return r < 0 ? r : 1;
}

static int two_copy_recv(void *rx, struct message **msg)
{
	struct two_copy *t = rx;
	struct iovec iov = {.iov_base = t->wire, .iov_len = t->msg.size};
	int r = scatter_recv_all(t->fd, &iov, 1);

	if (r <= 0)
		return r;
	message_deserialize(&t->msg, t->wire);
	*msg = &t->msg;
	return 1;
}

const struct strategy_ops strategy_two_copy = {
	.name = "two-copy",
	.summary = "serialize the fields into one buffer, send(); "
		   "recv() and copy the fields out",
	.tx_memory = two_copy_memory,
	.rx_memory = two_copy_memory,
	.tx_open = two_copy_open,
	.tx_slot = two_copy_slot,
	.tx_send = two_copy_send,
	.tx_close = two_copy_close,
	.rx_open = two_copy_open,
	.rx_recv = two_copy_recv,
	.rx_close = two_copy_close,
	.path =
		{
			{"sender: {fields} message fields on the heap",
			 "serialize: memcpy of every field into one buffer",
			 "copy_user", NULL},
			{"sender: one contiguous wire buffer",
			 "send(): the kernel copies it into socket buffers",
			 "copy_send", NULL},
			{"kernel: the sender's TCP socket buffer (skbs)",
			 "veth pair: the skb moves to the other namespace",
			 NULL, NULL},
			{"kernel: the receiver's TCP queue",
			 "recv(): the kernel copies into one buffer",
			 "copy_receive", NULL},
			{"receiver: one contiguous wire buffer",
			 "parse: memcpy of every field back out", "copy_user",
			 NULL},
			{"receiver: {fields} message fields on the heap", NULL,
			 NULL, NULL},
		},
};
