/*
 * splice: vmsplice(2) maps the message's pages into a pipe and splice(2)
 * moves them from the pipe to the socket: TCP gets references to the user's
 * own pages, with no copy and no completion, so (as for sendfile) a slot is
 * rewritten only once the receiver has read it.  SPLICE_F_GIFT would hand
 * the pages over for good; a socket never steals a page, so it changes
 * nothing here and the pages stay the application's.
 *
 * A pipe holds one buffer per page of each iovec piece, whatever its byte
 * size, and TCP makes each buffer an skb fragment of its own (at most
 * MAX_SKB_FRAGS to an skb), so fields that touch in memory -- a slot's
 * fields lie end to end -- go in as one piece: a buffer per page of the
 * message, not per field, as a program that gathers its fields would do.
 * The pipe is sized in pages for the whole message (and for fields that do
 * not touch), and a message goes out in two calls: one vmsplice() of every
 * field and one splice() of all of it.  Only a message larger
 * than the biggest pipe the kernel allows here goes a pipe's worth at a
 * time.  Every splice() but a message's last says SPLICE_F_MORE, so the
 * pieces go out as one; the last never does, so the message goes at once
 * and nothing waits for Nagle or a delayed ACK.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "scatter.h"
#include "slot_pool.h"
#include "strategy.h"
#include "sysfile.h"

struct splice_tx {
	int fd;
	int pipe[2];
	size_t pipe_size;
	struct slot_pool pool;
};

/*
 * The pipe's size for a whole message: a buffer per page each field spans
 * (a field starts anywhere in a page, so it may span one more).
 */
static size_t pipe_bytes(const struct strategy_params *params)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	return (params->msg_size / page + 2 * strategy_fields(params)) * page;
}

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
	t->pipe[0] = t->pipe[1] = -1;
	if (pipe2(t->pipe, O_CLOEXEC) < 0) {
		r = -errno;
		splice_tx_close(t);
		return r;
	}
	/*
	 * Past fs.pipe-max-size (without CAP_SYS_RESOURCE): the most
	 * allowed.
	 */
	want = pipe_bytes(params);
	r = fcntl(t->pipe[1], F_SETPIPE_SZ, (int)want);
	if (r < 0 && errno == EPERM) {
		want = (size_t)sysfile_int("/proc/sys/fs/pipe-max-size", 0);
		r = want ? fcntl(t->pipe[1], F_SETPIPE_SZ, (int)want) : -1;
	}
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

/*
 * Moves n bytes that sit in the pipe on to the socket; more: the message
 * goes on after them.
 */
static int splice_out(struct splice_tx *t, size_t n, bool more)
{
	unsigned int flags = SPLICE_F_MOVE | (more ? SPLICE_F_MORE : 0);

	while (n > 0) {
		ssize_t m = splice(t->pipe[0], NULL, t->fd, NULL, n, flags);

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
	int iovcnt = scatter_join(vec, message_iovec(msg, vec));

	/* The whole message, or a pipe's worth at a time when it is larger. */
	while (iovcnt > 0) {
		ssize_t n = vmsplice(t->pipe[1], iov, (size_t)iovcnt, 0);
		int r;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		scatter_advance(&iov, &iovcnt, (size_t)n);
		r = splice_out(t, (size_t)n, iovcnt > 0);
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
	.tx_waits = "completion", /* a slot, until the receiver read it */
	.descriptors = 2,	  /* the pipe */
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
			 "vmsplice(): the kernel takes references to the pages "
			 "(get_user_pages, counted as pinning) "
			 "into the pipe, no copy",
			 NULL, "pin"},
			{"kernel: a pipe whose buffers are the sender's pages",
			 "splice(): TCP takes the pipe's pages, no copy (the "
			 "pipe's work in both calls is the pipe role)",
			 NULL, "pipe"},
			{"kernel: skbs that point at the sender's pages",
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
