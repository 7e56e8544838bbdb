/*
 * io_uring paths.  The sender hands out message slots in order; filled slots
 * form the next chain, submitted as linked requests once the previous chain
 * has left.  A request's CQE adds to its slot's bytes sent; a short transfer
 * or an error cancels the rest of its chain, and once the chain has settled
 * the unfinished part is submitted again from the first byte not sent.  With
 * zero copy a slot also waits for the notification CQE of every request that
 * read from it (IORING_CQE_F_MORE announces one), and each notification says
 * whether the kernel copied after all (IORING_NOTIF_USAGE_ZC_COPIED).
 */
#include <errno.h>
#include <liburing.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "clock.h"
#include "flow_stats.h"
#include "sysfile.h"
#include "uring_path.h"

/* Kernel 6.0 uAPI that liburing 2.3 (Debian 12) does not define. */
#ifndef IORING_SEND_ZC_REPORT_USAGE
#define IORING_SEND_ZC_REPORT_USAGE (1U << 3)
#endif
#ifndef IORING_NOTIF_USAGE_ZC_COPIED
#define IORING_NOTIF_USAGE_ZC_COPIED (1U << 31)
#endif

#define WAIT_STEP_NS   100000000ll
#define STALL_LIMIT_NS (10000 * NS_PER_MS)
/* Message buffers one side may keep in flight, whatever the depth. */
#define BATCH_BYTES_MAX (16u << 20)

enum slot_state {
	SLOT_FREE,
	SLOT_FILLED, /* the worker wrote it; waiting for its chain */
	SLOT_FLYING, /* submitted; bytes still to confirm */
	SLOT_SENT,   /* every byte sent; maybe notifications owed */
};

struct tx_slot {
	struct message msg;
	struct msghdr mh;
	struct iovec iov[MESSAGE_FIELDS];
	size_t bytes_done;
	size_t bytes_at_submit;
	unsigned int notifs; /* zero-copy notifications still owed */
	enum slot_state state;
};

struct uring_tx {
	struct io_uring ring;
	bool ring_ready;
	int fd;
	bool zerocopy;
	bool fixed;
	unsigned int slot_count;
	unsigned int chain_max;
	struct tx_slot *slot;
	unsigned int head;	 /* the next slot for the worker */
	unsigned int fill_first; /* filled slots not yet submitted */
	unsigned int fill_len;
	unsigned int fly_first; /* the chain in the kernel */
	unsigned int fly_len;
	unsigned int requests_owed; /* CQEs the chain still owes */
	unsigned int completed;	    /* messages sent, not yet reported */
	uint64_t notifs_owed;
	uint64_t zc_sends;
	uint64_t zc_completions;
	uint64_t zc_copied;
	struct flow_stats *stats;
};

struct rx_slot {
	struct message msg;
	struct msghdr mh;
	struct iovec iov[MESSAGE_FIELDS];
	int res;
};

struct uring_rx {
	struct io_uring ring;
	bool ring_ready;
	int fd;
	unsigned int batch;
	struct rx_slot *slot;
	unsigned int ready; /* slots the last batch filled */
	unsigned int next;  /* the next of those to hand out */
	bool ended;
	int error;
};

static int probe_cause(char **cause, const char *fmt, const char *arg)
{
	if (asprintf(cause, fmt, arg) < 0)
		*cause = NULL;
	return -EOPNOTSUPP;
}

int uring_probe(bool zerocopy, char **cause)
{
	static const struct {
		int opcode;
		const char *name;
		bool zerocopy_only;
	} needs[] = {
		{IORING_OP_SENDMSG, "IORING_OP_SENDMSG", false},
		{IORING_OP_RECVMSG, "IORING_OP_RECVMSG", false},
		{IORING_OP_SENDMSG_ZC, "IORING_OP_SENDMSG_ZC", true},
		{IORING_OP_SEND_ZC, "IORING_OP_SEND_ZC", true},
	};
	struct io_uring_probe *probe;
	struct io_uring ring;
	int r = io_uring_queue_init(4, &ring, 0);

	if (r < 0) {
		int disabled = sysfile_int("/proc/sys/kernel/io_uring_disabled",
					   -1);
		char why[128];

		if (r == -EPERM && disabled > 0)
			snprintf(
				why, sizeof(why),
				"io_uring is disabled (kernel.io_uring_disabled"
				"=%d)",
				disabled);
		else if (r == -EPERM)
			snprintf(why, sizeof(why),
				 "io_uring is refused (EPERM: a seccomp filter "
				 "or LSM?)");
		else
			snprintf(why, sizeof(why), "io_uring_queue_init: %s",
				 strerror(-r));
		return probe_cause(cause, "%s", why);
	}
	probe = io_uring_get_probe_ring(&ring);
	io_uring_queue_exit(&ring);
	if (!probe)
		return probe_cause(cause, "%s",
				   "cannot probe the io_uring opcodes");
	r = 0;
	for (size_t i = 0; i < sizeof(needs) / sizeof(needs[0]) && !r; i++) {
		if (needs[i].zerocopy_only && !zerocopy)
			continue;
		if (!io_uring_opcode_supported(probe, needs[i].opcode))
			r = probe_cause(cause, "the kernel lacks %s",
					needs[i].name);
	}
	io_uring_free_probe(probe);
	return r;
}

/* Slots in a batch: the depth asked for, within the memory bound. */
static unsigned int batch_for(unsigned int depth, size_t msg_size,
			      unsigned int buffers_per_message)
{
	size_t fit = BATCH_BYTES_MAX / (msg_size * buffers_per_message);

	if (fit < 1)
		fit = 1;
	return depth < fit ? depth : (unsigned int)fit;
}

static void tx_publish(struct uring_tx *t)
{
	if (!t->zerocopy)
		return;
	flow_stat_set(&t->stats->zc_sends, t->zc_sends);
	flow_stat_set(&t->stats->zc_completions, t->zc_completions);
	flow_stat_set(&t->stats->zc_copied, t->zc_copied);
}

static bool slot_free(const struct tx_slot *s)
{
	return s->state == SLOT_FREE ||
	       (s->state == SLOT_SENT && s->notifs == 0);
}

/* Queues the requests that send the rest of one slot's message. */
static struct io_uring_sqe *tx_prepare(struct uring_tx *t, unsigned int index)
{
	struct tx_slot *s = &t->slot[index];
	const int flags = MSG_WAITALL | MSG_NOSIGNAL;
	struct io_uring_sqe *sqe = NULL;
	size_t offset = 0;

	if (t->fixed) {
		/* One SEND_ZC per field, from the registered buffers. */
		for (int f = 0; f < MESSAGE_FIELDS; f++) {
			size_t len = s->msg.field_len[f];
			size_t skip = 0;

			if (offset + len <= s->bytes_done) {
				offset += len;
				continue;
			}
			if (s->bytes_done > offset)
				skip = s->bytes_done - offset;
			sqe = io_uring_get_sqe(&t->ring);
			io_uring_prep_send_zc_fixed(
				sqe, t->fd, s->msg.field[f] + skip, len - skip,
				flags, IORING_SEND_ZC_REPORT_USAGE,
				index * MESSAGE_FIELDS + (unsigned int)f);
			io_uring_sqe_set_data64(sqe, index);
			sqe->flags |= IOSQE_IO_LINK;
			t->requests_owed++;
			offset += len;
		}
		return sqe;
	}

	struct iovec *iov = s->iov;
	int iovcnt = MESSAGE_FIELDS;

	message_iovec(&s->msg, s->iov);
	for (size_t skip = s->bytes_done; iovcnt > 0 && skip > 0;) {
		size_t step = skip < iov->iov_len ? skip : iov->iov_len;

		iov->iov_base = (char *)iov->iov_base + step;
		iov->iov_len -= step;
		skip -= step;
		if (iov->iov_len == 0) {
			iov++;
			iovcnt--;
		}
	}
	s->mh = (struct msghdr){.msg_iov = iov, .msg_iovlen = iovcnt};
	sqe = io_uring_get_sqe(&t->ring);
	if (t->zerocopy) {
		io_uring_prep_sendmsg_zc(sqe, t->fd, &s->mh, flags);
		sqe->ioprio |= IORING_SEND_ZC_REPORT_USAGE;
	} else {
		io_uring_prep_sendmsg(sqe, t->fd, &s->mh, flags);
	}
	io_uring_sqe_set_data64(sqe, index);
	sqe->flags |= IOSQE_IO_LINK;
	t->requests_owed++;
	return sqe;
}

/* Submits slots [first, first + len) as one chain of linked requests. */
static int tx_submit(struct uring_tx *t, unsigned int first, unsigned int len)
{
	struct io_uring_sqe *last = NULL;
	int r;

	for (unsigned int i = 0; i < len; i++) {
		unsigned int index = (first + i) % t->slot_count;
		struct tx_slot *s = &t->slot[index];

		s->state = SLOT_FLYING;
		s->bytes_at_submit = s->bytes_done;
		last = tx_prepare(t, index);
	}
	if (last)
		last->flags &= (__u8)~IOSQE_IO_LINK;
	t->fly_first = first;
	t->fly_len = len;
	r = io_uring_submit(&t->ring);
	return r < 0 ? r : 0;
}

/*
 * The chain has no CQE left to come: count the messages it finished and
 * submit again whatever a short transfer or a cancellation left unsent.
 */
static int tx_settle(struct uring_tx *t)
{
	unsigned int done = 0, unfinished;

	if (t->fly_len == 0 || t->requests_owed)
		return 0;
	while (done < t->fly_len) {
		unsigned int index = (t->fly_first + done) % t->slot_count;
		struct tx_slot *s = &t->slot[index];

		if (s->bytes_done < s->msg.size)
			break;
		s->state = SLOT_SENT;
		done++;
	}
	t->completed += done;
	if (done == t->fly_len) {
		t->fly_len = 0;
		return 0;
	}
	unfinished = (t->fly_first + done) % t->slot_count;
	/* The first unfinished slot must have moved, or we would spin. */
	if (t->slot[unfinished].bytes_done ==
	    t->slot[unfinished].bytes_at_submit)
		return -EIO;
	return tx_submit(t, unfinished, t->fly_len - done);
}

static int tx_complete(struct uring_tx *t, const struct io_uring_cqe *cqe)
{
	struct tx_slot *s = &t->slot[io_uring_cqe_get_data64(cqe)];

	if (cqe->flags & IORING_CQE_F_NOTIF) {
		s->notifs--;
		t->notifs_owed--;
		t->zc_completions++;
		if ((uint32_t)cqe->res & IORING_NOTIF_USAGE_ZC_COPIED)
			t->zc_copied++;
		return 0;
	}
	if (cqe->flags & IORING_CQE_F_MORE) {
		s->notifs++;
		t->notifs_owed++;
		t->zc_sends++;
	}
	t->requests_owed--;
	if (cqe->res > 0)
		s->bytes_done += (size_t)cqe->res;
	else if (cqe->res < 0 && cqe->res != -ECANCELED)
		return cqe->res;
	return 0;
}

/* Handles CQEs until done(t) holds; -ETIMEDOUT when nothing moves. */
static int tx_wait(struct uring_tx *t, bool (*done)(const struct uring_tx *))
{
	uint64_t last_progress = clock_now_ns();

	while (!done(t)) {
		struct __kernel_timespec step = {.tv_nsec = WAIT_STEP_NS};
		struct io_uring_cqe *cqe;
		unsigned int head, seen = 0;
		int err = 0;
		int r = io_uring_wait_cqe_timeout(&t->ring, &cqe, &step);

		if (r == -ETIME || r == -EINTR) {
			if (clock_now_ns() - last_progress > STALL_LIMIT_NS)
				return -ETIMEDOUT;
			continue;
		}
		if (r < 0)
			return r;
		io_uring_for_each_cqe(&t->ring, head, cqe)
		{
			if (!err)
				err = tx_complete(t, cqe);
			seen++;
		}
		io_uring_cq_advance(&t->ring, seen);
		tx_publish(t);
		if (err)
			return err;
		r = tx_settle(t);
		if (r < 0)
			return r;
		last_progress = clock_now_ns();
	}
	return 0;
}

static bool head_free(const struct uring_tx *t)
{
	return slot_free(&t->slot[t->head]);
}

static bool chain_landed(const struct uring_tx *t)
{
	return t->fly_len == 0;
}

static bool all_done(const struct uring_tx *t)
{
	return t->fly_len == 0 && t->notifs_owed == 0;
}

static int tx_flush(struct uring_tx *t)
{
	int r;

	if (t->fill_len == 0)
		return 0;
	r = tx_wait(t, chain_landed);
	if (r < 0)
		return r;
	r = tx_submit(t, t->fill_first, t->fill_len);
	t->fill_len = 0;
	return r;
}

static int tx_report(struct uring_tx *t)
{
	int completed = (int)t->completed;

	t->completed = 0;
	return completed;
}

void uring_tx_close(void *tx)
{
	struct uring_tx *t = tx;

	tx_publish(t);
	if (t->ring_ready)
		io_uring_queue_exit(&t->ring);
	for (unsigned int i = 0; t->slot && i < t->slot_count; i++)
		message_fini(&t->slot[i].msg);
	free(t->slot);
	free(t);
}

static int tx_register(struct uring_tx *t)
{
	size_t count = (size_t)t->slot_count * MESSAGE_FIELDS;
	struct iovec *iov = calloc(count, sizeof(*iov));
	int r;

	if (!iov)
		return -ENOMEM;
	for (unsigned int i = 0; i < t->slot_count; i++)
		message_iovec(&t->slot[i].msg, &iov[i * MESSAGE_FIELDS]);
	r = io_uring_register_buffers(&t->ring, iov, (unsigned int)count);
	free(iov);
	return r;
}

/* Messages per submission: one answer in flight when each is asked for. */
static unsigned int uring_depth(const struct strategy_params *params)
{
	return params->request_response ? 1 : params->settings->uring_depth;
}

/* The sender's slots, and how many of them one chain may take. */
static void tx_sizes(const struct strategy_params *params, bool zerocopy,
		     unsigned int *slot_count, unsigned int *chain_max)
{
	unsigned int depth = uring_depth(params);

	if (zerocopy) {
		/* The pool is the user's; a chain takes half for overlap. */
		*slot_count = params->settings->slots;
		*chain_max = *slot_count > 1 ? *slot_count / 2 : 1;
		if (*chain_max > depth)
			*chain_max = depth;
	} else {
		*chain_max = batch_for(depth, params->msg_size, 2);
		*slot_count = 2 * *chain_max;
	}
}

size_t uring_tx_memory(const struct strategy_params *params, bool zerocopy)
{
	unsigned int slot_count, chain_max;

	tx_sizes(params, zerocopy, &slot_count, &chain_max);
	return (size_t)slot_count * params->msg_size;
}

static unsigned int rx_batch(const struct strategy_params *params)
{
	return batch_for(uring_depth(params), params->msg_size, 1);
}

size_t uring_rx_memory(const struct strategy_params *params)
{
	return (size_t)rx_batch(params) * params->msg_size;
}

int uring_tx_open(const struct strategy_params *params, bool zerocopy,
		  void **tx)
{
	unsigned int requests_per_message;
	struct uring_tx *t = calloc(1, sizeof(*t));
	int r;

	if (!t)
		return -ENOMEM;
	t->fd = params->fd;
	t->stats = params->stats;
	t->zerocopy = zerocopy;
	t->fixed = zerocopy && params->settings->uring_fixed;
	tx_sizes(params, zerocopy, &t->slot_count, &t->chain_max);
	requests_per_message = t->fixed ? MESSAGE_FIELDS : 1;

	t->slot = calloc(t->slot_count, sizeof(*t->slot));
	if (!t->slot) {
		r = -ENOMEM;
		goto err;
	}
	for (unsigned int i = 0; i < t->slot_count; i++) {
		r = message_init(&t->slot[i].msg, params->msg_size);
		if (r < 0)
			goto err;
	}
	r = io_uring_queue_init(t->chain_max * requests_per_message, &t->ring,
				0);
	if (r < 0)
		goto err;
	t->ring_ready = true;
	if (t->fixed) {
		r = tx_register(t);
		if (r < 0)
			goto err;
	}
	*tx = t;
	return 0;

err:
	uring_tx_close(t);
	return r;
}

int uring_tx_slot(void *tx, struct message **msg)
{
	struct uring_tx *t = tx;
	struct tx_slot *s;
	int r = tx_wait(t, head_free);

	if (r < 0)
		return r;
	s = &t->slot[t->head];
	s->state = SLOT_FREE;
	s->bytes_done = 0;
	*msg = &s->msg;
	return 0;
}

int uring_tx_send(void *tx, struct message *msg)
{
	struct uring_tx *t = tx;
	struct tx_slot *s = (struct tx_slot *)((char *)msg -
					       offsetof(struct tx_slot, msg));
	int r;

	s->state = SLOT_FILLED;
	if (t->fill_len == 0)
		t->fill_first = (unsigned int)(s - t->slot);
	t->fill_len++;
	t->head = (t->head + 1) % t->slot_count;
	if (t->fill_len == t->chain_max) {
		r = tx_flush(t);
		if (r < 0)
			return r;
	}
	return tx_report(t);
}

int uring_tx_drain(void *tx)
{
	struct uring_tx *t = tx;
	int r = tx_flush(t);

	if (r == 0)
		r = tx_wait(t, all_done);
	return r < 0 ? r : tx_report(t);
}

void uring_rx_close(void *rx)
{
	struct uring_rx *u = rx;

	if (u->ring_ready)
		io_uring_queue_exit(&u->ring);
	for (unsigned int i = 0; u->slot && i < u->batch; i++)
		message_fini(&u->slot[i].msg);
	free(u->slot);
	free(u);
}

int uring_rx_open(const struct strategy_params *params, void **rx)
{
	struct uring_rx *u = calloc(1, sizeof(*u));
	int r;

	if (!u)
		return -ENOMEM;
	u->fd = params->fd;
	u->batch = rx_batch(params);
	u->slot = calloc(u->batch, sizeof(*u->slot));
	if (!u->slot) {
		r = -ENOMEM;
		goto err;
	}
	for (unsigned int i = 0; i < u->batch; i++) {
		r = message_init(&u->slot[i].msg, params->msg_size);
		if (r < 0)
			goto err;
	}
	r = io_uring_queue_init(u->batch, &u->ring, 0);
	if (r < 0)
		goto err;
	u->ring_ready = true;
	*rx = u;
	return 0;

err:
	uring_rx_close(u);
	return r;
}

/* Receives the next batch: linked RECVMSGs, each waiting for a whole message. */
static int rx_fill(struct uring_rx *u)
{
	struct io_uring_sqe *sqe = NULL;
	struct io_uring_cqe *cqe;
	unsigned int head, seen = 0;
	int r;

	for (unsigned int i = 0; i < u->batch; i++) {
		struct rx_slot *s = &u->slot[i];

		message_iovec(&s->msg, s->iov);
		s->mh = (struct msghdr){.msg_iov = s->iov,
					.msg_iovlen = MESSAGE_FIELDS};
		sqe = io_uring_get_sqe(&u->ring);
		io_uring_prep_recvmsg(sqe, u->fd, &s->mh, MSG_WAITALL);
		io_uring_sqe_set_data64(sqe, i);
		sqe->flags |= IOSQE_IO_LINK;
	}
	sqe->flags &= (__u8)~IOSQE_IO_LINK;
	r = io_uring_submit_and_wait(&u->ring, u->batch);
	if (r < 0)
		return r;
	while (seen < u->batch) {
		unsigned int now = 0;

		r = io_uring_wait_cqe_nr(&u->ring, &cqe, u->batch - seen);
		if (r < 0 && r != -EINTR)
			return r;
		io_uring_for_each_cqe(&u->ring, head, cqe)
		{
			u->slot[io_uring_cqe_get_data64(cqe)].res = cqe->res;
			now++;
		}
		io_uring_cq_advance(&u->ring, now);
		seen += now;
	}

	u->ready = 0;
	u->next = 0;
	for (unsigned int i = 0; i < u->batch; i++) {
		int res = u->slot[i].res;

		if ((size_t)res == u->slot[i].msg.size && res > 0) {
			u->ready++;
			continue;
		}
		/* MSG_WAITALL: short means the stream ended inside it. */
		u->ended = true;
		if (res > 0)
			u->error = -EPROTO;
		else if (res < 0 && res != -ECANCELED)
			u->error = res;
		break;
	}
	return 0;
}

int uring_rx_recv(void *rx, struct message **msg)
{
	struct uring_rx *u = rx;
	int r;

	if (u->next == u->ready) {
		if (u->ended)
			return u->error;
		r = rx_fill(u);
		if (r < 0)
			return r;
		if (u->ready == 0)
			return u->error;
	}
	*msg = &u->slot[u->next++].msg;
	return 1;
}
