/*
 * sendfile: the message's fields live in the pages of a memfd, mapped so the
 * application writes them in place, and sendfile(2) hands those page-cache
 * pages to TCP by reference: no copy on the way out, and no user buffer
 * pinned, so the kernel owes no completion and over veth does not copy them
 * at delivery either -- the receiving socket reads straight from the file's
 * pages.  Hence the rule of slot_pool.c: a slot is rewritten only once the
 * receiver has read it.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/sendfile.h>

#include "scatter.h"
#include "slot_pool.h"
#include "strategy.h"

struct sendfile_tx {
	int fd;
	struct slot_pool pool;
};

static int sendfile_tx_open(const struct strategy_params *params, void **tx)
{
	struct sendfile_tx *t = calloc(1, sizeof(*t));
	int r;

	if (!t)
		return -ENOMEM;
	t->fd = params->fd;
	r = slot_pool_open(&t->pool, params, true);
	if (r < 0) {
		free(t);
		return r;
	}
	*tx = t;
	return 0;
}

static void sendfile_tx_close(void *tx)
{
	struct sendfile_tx *t = tx;

	slot_pool_close(&t->pool);
	free(t);
}

static int sendfile_tx_slot(void *tx, struct message **msg)
{
	struct sendfile_tx *t = tx;

	return slot_pool_next(&t->pool, msg);
}

static int sendfile_tx_send(void *tx, struct message *msg)
{
	struct sendfile_tx *t = tx;
	off_t offset = (off_t)slot_pool_offset(&t->pool, msg);
	size_t left = msg->size;

	while (left > 0) {
		ssize_t n = sendfile(t->fd, t->pool.memfd, &offset, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		left -= (size_t)n;
	}
	return 1;
}

const struct strategy_ops strategy_sendfile = {
	.name = "sendfile",
	.summary = "the fields in a memfd's pages, sendfile() to the socket; "
		   "a slot reused once the receiver has read it",
	.local_receiver = true,
	.tx_waits = "completion", /* a slot, until the receiver read it */
	.descriptors = 1,	  /* the memfd */
	.tx_memory = slot_pool_memory,
	.tx_open = sendfile_tx_open,
	.tx_slot = sendfile_tx_slot,
	.tx_send = sendfile_tx_send,
	.tx_close = sendfile_tx_close,
	.rx_open = scatter_open,
	.rx_recv = scatter_rx_recv,
	.rx_close = scatter_close,
	.path =
		{
			{"sender: the fields, in a memfd's mapped pages",
			 "sendfile(): TCP takes references to the page-cache "
			 "pages, none pinned, no copy",
			 NULL, "pipe pin"},
			{"kernel: skbs that point at the memfd's pages",
			 "veth, local socket: delivered as they are, not "
			 "copied (only a zero-copy send's pinned pages are "
			 "copied at delivery)",
			 NULL, "copy_deferred"},
			{"kernel: the receiver's TCP queue "
			 "(still the sender's pages)",
			 "recvmsg(iovec): the kernel copies into the fields",
			 "copy_receive", NULL},
			{"receiver: the message fields on the heap", NULL, NULL,
			 NULL},
		},
};
