/*
 * splice: vmsplice(2) maps the message's pages into a pipe and splice(2)
 * moves them from the pipe to the socket: TCP gets references to the user's
 * own pages, with no copy and no completion, so (as for sendfile) a slot is
 * rewritten only once the receiver has read it.  SPLICE_F_GIFT would hand
 * the pages over for good; a socket never steals a page, so it changes
 * nothing here and the pages stay the application's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "scatter.h"
#include "slot_pool.h"
#include "strategy.h"

/* The pipe holds a whole message where the kernel allows. */
#define PIPE_MAX (1u << 20)

struct splice_tx {
	int fd;
	unsigned int flags; /* of splice() */
	int pipe[2];
	size_t pipe_size;
	struct slot_pool pool;
};

static void splice_tx_close(void *tx)
{
	struct splice_tx *t = tx;

	slot_pool_close(&t->pool);
	if (t->pipe[0] >= 0)
		close(t->pipe[0]);
	if (t->pipe[1] >= 0)
		close(t->pipe[1]);
	free(t);
}

static int splice_tx_open(const struct strategy_params *params, void **tx)
{
	struct splice_tx *t = calloc(1, sizeof(*t));
	size_t want;
	int r;

	if (!t)
		return -ENOMEM;
	t->fd = params->fd;
	/*
	 * More follows in a stream, as with MSG_MORE: without it every
	 * splice() pushes a segment of its own; an answer goes at once.
	 */
	t->flags = SPLICE_F_MOVE |
		   (params->request_response ? 0 : SPLICE_F_MORE);
	t->pipe[0] = t->pipe[1] = -1;
	if (pipe2(t->pipe, O_CLOEXEC) < 0) {
		r = -errno;
		splice_tx_close(t);
		return r;
	}
	want = params->msg_size < PIPE_MAX ? params->msg_size : PIPE_MAX;
	r = fcntl(t->pipe[1], F_SETPIPE_SZ, (int)want);
	if (r < 0)
		r = fcntl(t->pipe[1], F_GETPIPE_SZ);
	if (r < 0) {
		r = -errno;
		splice_tx_close(t);
		return r;
	}
	t->pipe_size = (size_t)r;
	r = slot_pool_open(&t->pool, params, false);
	if (r < 0) {
		splice_tx_close(t);
		return r;
	}
	*tx = t;
	return 0;
}

static int splice_tx_slot(void *tx, struct message **msg)
{
	struct splice_tx *t = tx;

	return slot_pool_next(&t->pool, msg);
}

/* Moves n bytes that sit in the pipe on to the socket. */
static int splice_out(struct splice_tx *t, size_t n)
{
	while (n > 0) {
		ssize_t m = splice(t->pipe[0], NULL, t->fd, NULL, n, t->flags);

		if (m < 0 && errno == EINTR)
			continue;
		if (m <= 0)
			return m < 0 ? -errno : -EIO;
		n -= (size_t)m;
	}
	return 0;
}

static int splice_tx_send(void *tx, struct message *msg)
{
	struct splice_tx *t = tx;
	struct iovec vec[MESSAGE_FIELDS_MAX];
	struct iovec *iov = vec;
	int iovcnt = message_iovec(msg, vec);

	/* A pipe's worth at a time: into the pipe, then out to the socket. */
	while (iovcnt > 0) {
		ssize_t n = vmsplice(t->pipe[1], iov, (size_t)iovcnt, 0);
		int r;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		scatter_advance(&iov, &iovcnt, (size_t)n);
		r = splice_out(t, (size_t)n);
		if (r < 0)
			return r;
	}
	return 1;
}

const struct strategy_ops strategy_splice = {
	.name = "splice",
	.summary = "vmsplice() the fields' pages into a pipe, splice() it to "
		   "the socket; a slot reused once the receiver has read it",
	.local_receiver = true,
	.descriptors = 2, /* the pipe */
	.tx_memory = slot_pool_memory,
	.tx_open = splice_tx_open,
	.tx_slot = splice_tx_slot,
	.tx_send = splice_tx_send,
	.tx_close = splice_tx_close,
	.rx_open = scatter_open,
	.rx_recv = scatter_rx_recv,
	.rx_close = scatter_close,
	.path =
		{
			{"sender: the fields in the application's pages",
			 "vmsplice(): the pipe takes the pages", false},
			{"kernel: a pipe whose buffers are the sender's pages",
			 "splice(): TCP takes the pipe's pages", false},
			{"kernel: skbs that point at the sender's pages",
			 "veth, local socket: none pinned, none copied", false},
			{"kernel: the receiver's TCP queue (still the sender's "
			 "pages)",
			 "recvmsg(iovec): the kernel copies into the fields",
			 true},
			{"receiver: the message fields on the heap", NULL,
			 false},
		},
};
