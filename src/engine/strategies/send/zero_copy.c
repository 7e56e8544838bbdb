/*
 * zero-copy: MSG_ZEROCOPY on a socket with SO_ZEROCOPY set.  The kernel pins
 * the sender's pages instead of copying them, so a message slot must not be
 * rewritten until the kernel reports, on the socket's error queue, that every
 * send which read from it is done.  Slots are therefore a pool recycled in
 * order, each released only by the completion ranges that cover its sends.
 *
 * Over loopback and veth the kernel copies at delivery anyway and says so with
 * SO_EE_CODE_ZEROCOPY_COPIED; that share is counted, not hidden.  When the
 * socket's option memory (optmem_max) runs out, sendmsg fails with ENOBUFS
 * having sent nothing: completions are reaped and the same bytes retried.
 */
#include <errno.h>
#include <time.h>
#include <linux/errqueue.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clock.h"
#include "flow_stats.h"
#include "scatter.h"
#include "strategy.h"
#include "zc_tracker.h"

#ifndef SO_EE_ORIGIN_ZEROCOPY
#define SO_EE_ORIGIN_ZEROCOPY 5
#endif
#ifndef SO_EE_CODE_ZEROCOPY_COPIED
#define SO_EE_CODE_ZEROCOPY_COPIED 1
#endif

/* The design rule: never more than this many sends between two reaps. */
#define REAP_EVERY_SENDS 32
#define WAIT_STEP_MS	 100
/* With no completion at all for this long, the peer or the kernel is stuck. */
#define STALL_LIMIT_NS (10000 * NS_PER_MS)

struct zero_copy_tx {
	int fd;
	unsigned int slot_count;
	unsigned int head;
	struct message *slot;
	struct zc_tracker tracker;
	struct flow_stats *stats;
	uint64_t enobufs;
	unsigned int sends_since_reap;
};

static void zero_copy_publish(struct zero_copy_tx *t)
{
	flow_stat_set(&t->stats->zc_sends, t->tracker.sends);
	flow_stat_set(&t->stats->zc_completions, t->tracker.completions);
	flow_stat_set(&t->stats->zc_copied, t->tracker.copied);
	flow_stat_set(&t->stats->zc_copied_min, t->tracker.copied_min);
	flow_stat_set(&t->stats->zc_copied_max, t->tracker.copied_max);
	flow_stat_set(&t->stats->zc_unmatched, t->tracker.unmatched);
	flow_stat_set(&t->stats->zc_enobufs, t->enobufs);
}

static void zero_copy_notification(struct zero_copy_tx *t, struct cmsghdr *cm)
{
	struct sock_extended_err err;

	if (!((cm->cmsg_level == SOL_IP && cm->cmsg_type == IP_RECVERR) ||
	      (cm->cmsg_level == SOL_IPV6 && cm->cmsg_type == IPV6_RECVERR)))
		return;
	memcpy(&err, CMSG_DATA(cm), sizeof(err));
	if (err.ee_origin != SO_EE_ORIGIN_ZEROCOPY || err.ee_errno != 0)
		return;
	zc_tracker_complete(&t->tracker, err.ee_info, err.ee_data,
			    err.ee_code & SO_EE_CODE_ZEROCOPY_COPIED);
}

/*
 * Reads the completions queued on the error queue, first waiting up to
 * wait_ms for one to arrive.  The kernel coalesces consecutive completions
 * into one notification, so a read usually brings everything in flight: it
 * stops there instead of spending another call to hear EAGAIN.
 */
static int zero_copy_reap(struct zero_copy_tx *t, int wait_ms)
{
	if (wait_ms > 0) {
		struct pollfd pfd = {.fd = t->fd, .events = 0};

		if (poll(&pfd, 1, wait_ms) < 0 && errno != EINTR)
			return -errno;
	}

	while (zc_tracker_outstanding(&t->tracker)) {
		char control[CMSG_SPACE(sizeof(struct sock_extended_err)) + 64];
		struct msghdr mh = {.msg_control = control,
				    .msg_controllen = sizeof(control)};
		struct cmsghdr *cm;

		if (recvmsg(t->fd, &mh, MSG_ERRQUEUE | MSG_DONTWAIT) < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				break;
			return -errno;
		}
		for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm))
			zero_copy_notification(t, cm);
	}
	t->sends_since_reap = 0;
	zero_copy_publish(t);
	return 0;
}

/*
 * Waits, reaping, until done(t) holds or nothing completes for too long; what
 * is already queued is read before any wait.
 */
static int zero_copy_wait(struct zero_copy_tx *t,
			  int (*done)(const struct zero_copy_tx *t))
{
	uint64_t last_progress = clock_now_ns();
	int wait_ms = 0;

	while (!done(t)) {
		uint64_t before = t->tracker.completions;
		int r = zero_copy_reap(t, wait_ms);

		if (r < 0)
			return r;
		wait_ms = WAIT_STEP_MS;
		if (t->tracker.completions != before)
			last_progress = clock_now_ns();
		else if (clock_now_ns() - last_progress > STALL_LIMIT_NS)
			return -ETIMEDOUT;
	}
	return 0;
}

static int head_slot_free(const struct zero_copy_tx *t)
{
	return !zc_tracker_busy(&t->tracker, t->head);
}

static int all_completed(const struct zero_copy_tx *t)
{
	return zc_tracker_outstanding(&t->tracker) == 0;
}

static int zero_copy_probe(char **cause)
{
	int one = 1;
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	int r = 0;

	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one)) < 0) {
		r = -errno;
		if (asprintf(cause, "SO_ZEROCOPY is refused: %s",
			     strerror(errno)) < 0)
			*cause = NULL;
	}
	close(fd);
	return r;
}

static size_t zero_copy_tx_memory(const struct strategy_params *params)
{
	return (size_t)strategy_slots(params->settings, params->msg_size) *
	       params->msg_size;
}

static void zero_copy_tx_close(void *tx)
{
	struct zero_copy_tx *t = tx;

	zero_copy_publish(t);
	for (unsigned int i = 0; i < t->slot_count; i++)
		message_fini(&t->slot[i]);
	free(t->slot);
	zc_tracker_fini(&t->tracker);
	free(t);
}

static int zero_copy_tx_open(const struct strategy_params *params, void **tx)
{
	struct zero_copy_tx *t;
	int one = 1;
	int r;

	if (setsockopt(params->fd, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one)) <
	    0)
		return -errno;

	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->fd = params->fd;
	t->stats = params->stats;
	t->slot_count = strategy_slots(params->settings, params->msg_size);
	t->slot = calloc(t->slot_count, sizeof(*t->slot));
	r = zc_tracker_init(&t->tracker, t->slot_count, 0);
	if (!t->slot || r < 0) {
		free(t->slot);
		free(t);
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < t->slot_count; i++) {
		r = message_init(&t->slot[i], params->msg_size,
				 strategy_fields(params));
		if (r < 0) {
			zero_copy_tx_close(t);
			return r;
		}
	}
	*tx = t;
	return 0;
}

static int zero_copy_tx_slot(void *tx, struct message **msg)
{
	struct zero_copy_tx *t = tx;
	int r = zero_copy_wait(t, head_slot_free);

	if (r < 0)
		return r;
	zc_tracker_claim(&t->tracker, t->head);
	*msg = &t->slot[t->head];
	return 0;
}

/* optmem is exhausted: free some by reaping, or wait for it to drain. */
static int zero_copy_enobufs(struct zero_copy_tx *t, uint64_t *stalled_since)
{
	uint64_t before = t->tracker.completions;
	int r;

	t->enobufs++;
	r = zero_copy_reap(t, zc_tracker_outstanding(&t->tracker) ? WAIT_STEP_MS
								  : 1);
	if (r < 0)
		return r;
	if (t->tracker.completions != before || *stalled_since == 0)
		*stalled_since = clock_now_ns();
	else if (clock_now_ns() - *stalled_since > STALL_LIMIT_NS)
		return -ENOBUFS;
	return 0;
}

static int zero_copy_tx_send(void *tx, struct message *msg)
{
	struct zero_copy_tx *t = tx;
	unsigned int slot = (unsigned int)(msg - t->slot);
	struct iovec vec[MESSAGE_FIELDS_MAX];
	struct iovec *iov = vec;
	int iovcnt = message_iovec(msg, vec);
	uint64_t stalled_since = 0;
	int r;

	while (iovcnt > 0) {
		struct msghdr mh = {.msg_iov = iov, .msg_iovlen = iovcnt};
		ssize_t n = sendmsg(t->fd, &mh, MSG_ZEROCOPY | MSG_NOSIGNAL);

		if (n > 0) {
			/* Every successful call takes one notification id. */
			zc_tracker_sent(&t->tracker, slot);
			scatter_advance(&iov, &iovcnt, (size_t)n);
			stalled_since = 0;
			if (++t->sends_since_reap >= REAP_EVERY_SENDS) {
				r = zero_copy_reap(t, 0);
				if (r < 0)
					return r;
			}
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == ENOBUFS) {
			r = zero_copy_enobufs(t, &stalled_since);
			if (r < 0)
				return r;
			continue;
		}
		return n < 0 ? -errno : -EIO;
	}
	t->head = (t->head + 1) % t->slot_count;
	zero_copy_publish(t);
	return 1;
}

static int zero_copy_tx_drain(void *tx)
{
	int r = zero_copy_wait(tx, all_completed);

	return r < 0 ? r : 0;
}

const struct strategy_ops strategy_zero_copy = {
	.name = "zero-copy",
	.summary = "SO_ZEROCOPY + sendmsg(MSG_ZEROCOPY), completions from the "
		   "error queue; receives as one-copy",
	.zerocopy = true,
	.tx_waits = "completion", /* its poll on the error queue */
	.probe = zero_copy_probe,
	.tx_memory = zero_copy_tx_memory,
	.tx_open = zero_copy_tx_open,
	.tx_slot = zero_copy_tx_slot,
	.tx_send = zero_copy_tx_send,
	.tx_drain = zero_copy_tx_drain,
	.tx_close = zero_copy_tx_close,
	.rx_open = scatter_open,
	.rx_recv = scatter_rx_recv,
	.rx_close = scatter_close,
	.path =
		{
			{"sender: {fields} message fields, "
			 "pinned until completed",
			 "sendmsg(MSG_ZEROCOPY): "
			 "the kernel pins the pages, no copy",
			 NULL, "pin"},
			{"kernel: skbs that point at the sender's pages",
			 "veth to a local socket: the kernel copies the pinned "
			 "pages at delivery (SO_EE_CODE_ZEROCOPY_COPIED)",
			 "copy_deferred", NULL},
			{"kernel: the receiver's TCP queue",
			 "recvmsg({fields}-entry iovec): "
			 "the kernel scatters into the fields",
			 "copy_receive", NULL},
			{"receiver: {fields} message fields on the heap", NULL,
			 NULL, NULL},
		},
};
