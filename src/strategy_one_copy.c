/*
 * one-copy: the user-space serialization is gone.  sendmsg() gathers the eight
 * fields through an iovec and recvmsg() scatters straight into them, so the
 * only copies left are the kernel's own.
 */
#include <errno.h>
#include <stdlib.h>

#include "scatter.h"
#include "strategy.h"

struct one_copy_tx {
	int fd;
	struct message msg;
};

static int one_copy_tx_open(const struct strategy_params *params, void **tx)
{
	struct one_copy_tx *t = calloc(1, sizeof(*t));
	int r;

	if (!t)
		return -ENOMEM;
	t->fd = params->fd;
	r = message_init(&t->msg, params->msg_size);
	if (r < 0) {
		free(t);
		return r;
	}
	*tx = t;
	return 0;
}

static int one_copy_tx_slot(void *tx, struct message **msg)
{
	struct one_copy_tx *t = tx;

	*msg = &t->msg;
	return 0;
}

static int one_copy_tx_send(void *tx, struct message *msg)
{
	struct one_copy_tx *t = tx;
	struct iovec iov[MESSAGE_FIELDS];
	int r;

	message_iovec(msg, iov);
	r = scatter_send_all(t->fd, iov, MESSAGE_FIELDS, 0);
	return r < 0 ? r : 1;
}

static int one_copy_tx_drain(void *tx)
{
	(void)tx;
	return 0;
}

static void one_copy_tx_close(void *tx)
{
	struct one_copy_tx *t = tx;

	message_fini(&t->msg);
	free(t);
}

const struct strategy_ops strategy_one_copy = {
	.name = "one-copy",
	.summary =
		"sendmsg() and recvmsg() with an 8-entry iovec over the fields",
	.tx_open = one_copy_tx_open,
	.tx_slot = one_copy_tx_slot,
	.tx_send = one_copy_tx_send,
	.tx_drain = one_copy_tx_drain,
	.tx_close = one_copy_tx_close,
	.rx_open = scatter_rx_open,
	.rx_recv = scatter_rx_recv,
	.rx_close = scatter_rx_close,
};
