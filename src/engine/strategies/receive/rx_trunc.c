/*
 * --rx trunc: the receive side that is no receiver.  recv() with MSG_TRUNC
 * on a TCP socket tells the kernel to free the queued bytes without copying
 * them out: every other cost of receiving stays (the wake-up, the system
 * call, the socket lock, the ACKs), the copy goes.  It is the upper bound a
 * receiver can reach, as iperf3's --skip-rx-copy and neper's --skip_rx_copy
 * measure it; nothing reads the bytes, so they cannot be checked (--verify
 * is refused with it).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "rx_side.h"
#include "strategy.h"

struct rx_trunc {
	int fd;
	/* What the worker is handed: the size, no fields (nothing was read). */
	struct message msg;
};

static size_t rx_trunc_memory(const struct strategy_params *params)
{
	(void)params;
	return sizeof(struct rx_trunc);
}

static int rx_trunc_open(const struct strategy_params *params, void **rx)
{
	struct rx_trunc *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	t->fd = params->fd;
	t->msg.size = params->msg_size;
	*rx = t;
	return 0;
}

static int rx_trunc_recv(void *rx, struct message **msg)
{
	struct rx_trunc *t = rx;
	size_t have = 0;

	while (have < t->msg.size) {
		ssize_t n = recv(t->fd, NULL, t->msg.size - have,
				 MSG_TRUNC | MSG_WAITALL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return have ? -EPROTO : 0;
		have += (size_t)n;
	}
	*msg = &t->msg;
	return 1;
}

static void rx_trunc_close(void *rx)
{
	free(rx);
}

static const struct strategy_ops strategy_rx_trunc = {
	.name = "rx-trunc",
	.summary = "recv() with MSG_TRUNC: the kernel frees the bytes "
		   "without copying them out (a bound, not a receiver)",
	.rx_memory = rx_trunc_memory,
	.rx_open = rx_trunc_open,
	.rx_recv = rx_trunc_recv,
	.rx_close = rx_trunc_close,
	.path =
		{
			{"kernel: the receiver's TCP queue",
			 "recv(MSG_TRUNC): the kernel frees the bytes without "
			 "copying them out, so no byte is read (the bound "
			 "every receiver is under)",
			 NULL, NULL},
			{"receiver: nothing, the bytes were dropped unread",
			 NULL, NULL, NULL},
		},
};

static const char *rx_trunc_refusal(const struct run_settings *s)
{
	return s->verify ? "--rx trunc cannot --verify: the kernel drops the "
			   "bytes without reading them out"
			 : NULL;
}

static bool rx_trunc_note(const struct strategy_ops *sender, char *out,
			  size_t size)
{
	(void)sender;
	snprintf(out, size, "%s",
		 "A bound, not a receiver: nothing reads the bytes, so no "
		 "copy out and no check of them (--verify); what is left is "
		 "every other cost of receiving.");
	return true;
}

const struct rx_side rx_side_trunc = {
	.name = "trunc",
	.tag = " rx-trunc (bound)",
	.words = " with MSG_TRUNC receive (the bound)",
	.bound = true,
	.ops = &strategy_rx_trunc,
	.note = rx_trunc_note,
	.refusal = rx_trunc_refusal,
};
