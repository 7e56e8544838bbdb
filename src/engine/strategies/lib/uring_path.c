/*
 * io_uring paths.  The sender hands out message slots in order; a full batch
 * of filled slots becomes one request, submitted once the request before it
 * has left (a TCP stream would interleave two), with submit and wait in one
 * call.  A request's CQE confirms its bytes; a short one (an error part way)
 * is sent again from the first byte not confirmed.  With zero copy a slot
 * also waits for the notification of every request that read from it
 * (IORING_CQE_F_MORE announces one), and each notification says whether the
 * kernel copied after all (IORING_NOTIF_USAGE_ZC_COPIED); a request that sent
 * nothing still gets a notification, which is consumed but not counted.
 *
 * The completion queue holds a CQE for the request in flight and one
 * notification per slot, which is the most that can be owed, so it never
 * overflows; the kernel's overflow counter is published all the same, and a
 * run where it moved fails.  Slots live in one arena, each field on cache
 * lines of its own, so that --uring-fixed can register the arena once and
 * send whole batches from it (SENDMSG_ZC with registered buffers).
 */
#include <errno.h>
#include <liburing.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/uio.h>

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
/* Message buffers one batch may hold, whatever the depth. */
#define BATCH_BYTES_MAX (16u << 20)
/* The kernel's limit on a request's iovec (UIO_MAXIOV). */
#define BATCH_IOV_MAX 1024
/* Bytes between two fields in the arena, as separate allocations have. */
#define FIELD_GAP 64
/* The largest buffer io_uring registers. */
#define REGISTER_MAX (1ul << 30)

enum slot_state {
	SLOT_FREE,
	SLOT_FILLED, /* the worker wrote it; waiting for its batch */
	SLOT_FLYING, /* its batch is in the kernel */
	SLOT_SENT,   /* every byte sent; maybe notifications owed */
};

struct tx_slot {
	struct message msg;
	unsigned int notifs; /* zero-copy notifications still owed */
	enum slot_state state;
};

/* A send request: the slots it read from, and what became of it. */
struct tx_request {
	unsigned int first;
	unsigned int len;
	bool sent; /* it moved bytes */
	bool notif_owed;
};

struct uring_tx {
	struct io_uring ring;
	bool ring_ready;
	int fd;
	bool zerocopy;
	bool fixed; /* the arena is registered: send from it */
	unsigned int fields;
	unsigned int slot_count;
	unsigned int batch_max;
	uint8_t *arena;
	size_t arena_size;
	struct tx_slot *slot;
	unsigned int head;	 /* the next slot for the worker */
	unsigned int fill_first; /* filled slots not yet submitted */
	unsigned int fill_len;

	/* The one request in the kernel. */
	bool flying;
	unsigned int fly_first;
	unsigned int fly_len;
	size_t fly_bytes; /* of the whole batch */
	size_t fly_done;  /* confirmed by CQEs */
	size_t fly_at_submit;
	struct iovec *iov;
	struct msghdr mh;

	struct tx_request *request; /* by user_data */
	unsigned int request_count;
	unsigned int request_next;

	unsigned int completed; /* messages sent, not yet reported */
	uint64_t notifs_owed;	/* counted or not */
	uint64_t zc_sends;
	uint64_t zc_completions;
	uint64_t zc_copied;
	uint64_t fixed_sends;
	struct flow_stats *stats;
};

struct uring_rx {
	struct io_uring ring;
	bool ring_ready;
	int fd;
	unsigned int batch;
	struct message *slot;
	struct iovec *iov;
	struct msghdr mh;
	unsigned int ready; /* slots the last batch filled */
	unsigned int next;  /* the next of those to hand out */
	bool ended;
	int error;
	struct flow_stats *stats;
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
	};
	struct io_uring_probe *probe;
	struct io_uring ring;
	int r = io_uring_queue_init(4, &ring, 0);

	if (r < 0) {
		int disabled = sysfile_int("/proc/sys/kernel/io_uring_disabled",
					   -1);
		char why[128];

		if (r == -EPERM && disabled > 0)
			snprintf(why, sizeof(why),
				 "io_uring is disabled "
				 "(kernel.io_uring_disabled=%d)",
				 disabled);
		else if (r == -EPERM)
			snprintf(why, sizeof(why),
				 "io_uring is refused "
				 "(EPERM: a seccomp filter or LSM?)");
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

bool uring_fixed_vector(char **cause)
{
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	struct msghdr mh = {0};
	int res = -EOPNOTSUPP;

	*cause = NULL;
	if (io_uring_queue_init(4, &ring, 0) < 0) {
		probe_cause(cause, "%s", "io_uring is unavailable");
		return false;
	}
	/*
	 * Where the kernel knows the flag, preparing the request succeeds and
	 * issuing it fails on the bad descriptor (EBADF); a kernel that does
	 * not refuses the flag itself (EINVAL).
	 */
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_sendmsg_zc(sqe, -1, &mh, 0);
	sqe->ioprio |= IORING_RECVSEND_FIXED_BUF;
	sqe->buf_index = 0;
	if (io_uring_submit_and_wait(&ring, 1) >= 0 &&
	    io_uring_wait_cqe(&ring, &cqe) == 0)
		res = cqe->res;
	io_uring_queue_exit(&ring);
	if (res == -EBADF)
		return true;
	probe_cause(cause,
		    "SENDMSG_ZC cannot send from registered buffers here "
		    "(Linux 6.15 and later can): %s",
		    strerror(-res));
	return false;
}

/* Messages in a batch: the depth asked for, within the bounds. */
static unsigned int batch_for(unsigned int depth, size_t msg_size,
			      unsigned int fields)
{
	size_t fit = BATCH_BYTES_MAX / msg_size;

	if (fit > BATCH_IOV_MAX / fields)
		fit = BATCH_IOV_MAX / fields;
	if (fit < 1)
		fit = 1;
	return depth < fit ? depth : (unsigned int)fit;
}

/* Messages per batch: one answer in flight when each is asked for. */
static unsigned int uring_depth(const struct strategy_params *params)
{
	return params->request_response ? 1 : params->settings->uring_depth;
}

/*
 * The sender's slots and batch: a batch filling while one flies, and with
 * zero copy as many more as notifications may keep (--slots).
 */
static void tx_sizes(const struct strategy_params *params, bool zerocopy,
		     unsigned int *slot_count, unsigned int *batch_max)
{
	*batch_max = batch_for(uring_depth(params), params->msg_size,
			       strategy_fields(params));
	*slot_count = 2 * *batch_max;
	if (zerocopy) {
		unsigned int pool = strategy_slots(params->settings,
						   params->msg_size);

		if (pool > *slot_count)
			*slot_count = pool;
	}
}

static size_t tx_slot_stride(const struct strategy_params *params)
{
	return message_footprint(params->msg_size, strategy_fields(params),
				 FIELD_GAP);
}

static size_t tx_arena_size(const struct strategy_params *params,
			    unsigned int slot_count)
{
	size_t page = 4096;

	return ((size_t)slot_count * tx_slot_stride(params) + page - 1) / page *
	       page;
}

size_t uring_tx_memory(const struct strategy_params *params, bool zerocopy)
{
	unsigned int slot_count, batch_max;

	tx_sizes(params, zerocopy, &slot_count, &batch_max);
	return tx_arena_size(params, slot_count);
}

static void tx_publish(struct uring_tx *t)
{
	flow_stat_set(&t->stats->uring_cq_overflow, *t->ring.cq.koverflow);
	if (!t->zerocopy)
		return;
	flow_stat_set(&t->stats->zc_sends, t->zc_sends);
	flow_stat_set(&t->stats->zc_completions, t->zc_completions);
	flow_stat_set(&t->stats->zc_copied, t->zc_copied);
	/* One notification per request: the copied count is exact. */
	flow_stat_set(&t->stats->zc_copied_min, t->zc_copied);
	flow_stat_set(&t->stats->zc_copied_max, t->zc_copied);
	flow_stat_set(&t->stats->uring_fixed_sends, t->fixed_sends);
}

static bool slot_free(const struct tx_slot *s)
{
	return s->state == SLOT_FREE ||
	       (s->state == SLOT_SENT && s->notifs == 0);
}

/*
 * Submits the bytes of the flying batch not yet confirmed as one request,
 * and waits (in the same call) for something to complete.
 */
static int tx_submit(struct uring_tx *t)
{
	const int flags = MSG_WAITALL | MSG_NOSIGNAL;
	struct tx_request *req = &t->request[t->request_next];
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	struct __kernel_timespec step = {.tv_nsec = WAIT_STEP_NS};
	size_t skip = t->fly_done;
	unsigned int i = 0, n = 0;
	int r;

	/* A request still owed a notification would be overwritten. */
	if (req->notif_owed)
		return -EBUSY;
	/* The slots wholly confirmed before are not this request's. */
	while (i < t->fly_len &&
	       skip >= t->slot[(t->fly_first + i) % t->slot_count].msg.size)
		skip -= t->slot[(t->fly_first + i++) % t->slot_count].msg.size;
	*req = (struct tx_request){
		.first = (t->fly_first + i) % t->slot_count,
		.len = t->fly_len - i,
	};
	for (; i < t->fly_len; i++) {
		const struct message *m =
			&t->slot[(t->fly_first + i) % t->slot_count].msg;

		for (unsigned int f = 0; f < m->field_count; f++) {
			size_t len = m->field_len[f];

			if (skip >= len) {
				skip -= len;
				continue;
			}
			t->iov[n].iov_base = m->field[f] + skip;
			t->iov[n].iov_len = len - skip;
			skip = 0;
			n++;
		}
	}
	t->mh = (struct msghdr){.msg_iov = t->iov, .msg_iovlen = n};
	sqe = io_uring_get_sqe(&t->ring);
	if (!sqe)
		return -EBUSY;
	if (t->zerocopy) {
		io_uring_prep_sendmsg_zc(sqe, t->fd, &t->mh, flags);
		sqe->ioprio |= IORING_SEND_ZC_REPORT_USAGE;
		if (t->fixed) {
			sqe->ioprio |= IORING_RECVSEND_FIXED_BUF;
			sqe->buf_index = 0;
		}
	} else {
		io_uring_prep_sendmsg(sqe, t->fd, &t->mh, flags);
	}
	io_uring_sqe_set_data64(sqe, t->request_next);
	t->request_next = (t->request_next + 1) % t->request_count;
	t->fly_at_submit = t->fly_done;
	r = io_uring_submit_and_wait_timeout(&t->ring, &cqe, 1, &step, NULL);
	if (r == -ETIME || r == -EINTR)
		return 0;
	return r < 0 ? r : 0;
}

/* The flying batch has landed: its slots are sent, or the rest goes again. */
static int tx_settle(struct uring_tx *t)
{
	if (t->fly_done < t->fly_bytes) {
		/* A short transfer that moved nothing would spin. */
		if (t->fly_done == t->fly_at_submit)
			return -EIO;
		return tx_submit(t);
	}
	for (unsigned int i = 0; i < t->fly_len; i++)
		t->slot[(t->fly_first + i) % t->slot_count].state = SLOT_SENT;
	t->completed += t->fly_len;
	t->flying = false;
	return 0;
}

/* Adds one to the notifications owed by each slot of a request. */
static void tx_owe(struct uring_tx *t, const struct tx_request *req, int by)
{
	for (unsigned int i = 0; i < req->len; i++)
		t->slot[(req->first + i) % t->slot_count].notifs += by;
}

static int tx_complete(struct uring_tx *t, const struct io_uring_cqe *cqe,
		       bool *landed)
{
	uint64_t data = io_uring_cqe_get_data64(cqe);
	struct tx_request *req;

	if (data >= t->request_count)
		return -EPROTO;
	req = &t->request[data];
	if (cqe->flags & IORING_CQE_F_NOTIF) {
		if (!req->notif_owed)
			return -EPROTO;
		req->notif_owed = false;
		t->notifs_owed--;
		if (!req->sent)
			return 0;
		tx_owe(t, req, -1);
		t->zc_completions++;
		if ((uint32_t)cqe->res & IORING_NOTIF_USAGE_ZC_COPIED)
			t->zc_copied++;
		return 0;
	}
	req->sent = cqe->res > 0;
	if (cqe->flags & IORING_CQE_F_MORE) {
		req->notif_owed = true;
		t->notifs_owed++;
		/* A request that sent nothing is no zero-copy send. */
		if (req->sent) {
			tx_owe(t, req, 1);
			t->zc_sends++;
			t->fixed_sends += t->fixed;
		}
	}
	*landed = true;
	if (cqe->res > 0)
		t->fly_done += (size_t)cqe->res;
	else if (cqe->res < 0 && cqe->res != -ECANCELED)
		return cqe->res;
	return 0;
}

/* Handles every CQE there is, in one pass over the queue. */
static int tx_reap(struct uring_tx *t)
{
	struct io_uring_cqe *cqe;
	unsigned int head, seen = 0;
	bool landed = false;
	int err = 0;

	io_uring_for_each_cqe(&t->ring, head, cqe)
	{
		if (!err)
			err = tx_complete(t, cqe, &landed);
		seen++;
	}
	io_uring_cq_advance(&t->ring, seen);
	if (seen)
		tx_publish(t);
	if (err)
		return err;
	return landed ? tx_settle(t) : 0;
}

/* Handles CQEs until done(t) holds; -ETIMEDOUT when nothing moves. */
static int tx_wait(struct uring_tx *t, bool (*done)(const struct uring_tx *))
{
	uint64_t last_progress = clock_now_ns();

	for (;;) {
		struct __kernel_timespec step = {.tv_nsec = WAIT_STEP_NS};
		struct io_uring_cqe *cqe;
		int r = tx_reap(t);

		if (r < 0)
			return r;
		if (done(t))
			return 0;
		r = io_uring_wait_cqe_timeout(&t->ring, &cqe, &step);
		if (r == 0) {
			last_progress = clock_now_ns();
			continue;
		}
		if (r != -ETIME && r != -EINTR)
			return r;
		if (clock_now_ns() - last_progress > STALL_LIMIT_NS)
			return -ETIMEDOUT;
	}
}

static bool head_free(const struct uring_tx *t)
{
	return slot_free(&t->slot[t->head]);
}

static bool batch_landed(const struct uring_tx *t)
{
	return !t->flying;
}

static bool all_done(const struct uring_tx *t)
{
	return !t->flying && t->notifs_owed == 0;
}

/* The filled slots go out as the next request, once the last has landed. */
static int tx_flush(struct uring_tx *t)
{
	int r;

	if (t->fill_len == 0)
		return 0;
	r = tx_wait(t, batch_landed);
	if (r < 0)
		return r;
	t->flying = true;
	t->fly_first = t->fill_first;
	t->fly_len = t->fill_len;
	t->fly_bytes = 0;
	t->fly_done = 0;
	for (unsigned int i = 0; i < t->fly_len; i++) {
		struct tx_slot *s =
			&t->slot[(t->fly_first + i) % t->slot_count];

		s->state = SLOT_FLYING;
		t->fly_bytes += s->msg.size;
	}
	t->fill_len = 0;
	r = tx_submit(t);
	return r < 0 ? r : tx_reap(t);
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

	if (t->ring_ready) {
		tx_publish(t);
		io_uring_queue_exit(&t->ring);
	}
	for (unsigned int i = 0; t->slot && i < t->slot_count; i++)
		message_fini(&t->slot[i].msg);
	if (t->arena)
		munmap(t->arena, t->arena_size);
	free(t->slot);
	free(t->iov);
	free(t->request);
	free(t);
}

int uring_ring_init(struct io_uring *ring, unsigned int cq_entries,
		    unsigned int *features)
{
	struct io_uring_params p = {
		.flags = IORING_SETUP_CQSIZE | IORING_SETUP_SUBMIT_ALL |
			 IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER,
		.cq_entries = cq_entries,
	};
	int r = io_uring_queue_init_params(4, ring, &p);

	if (r == -EINVAL) {
		p = (struct io_uring_params){.flags = IORING_SETUP_CQSIZE,
					     .cq_entries = cq_entries};
		r = io_uring_queue_init_params(4, ring, &p);
	}
	if (features)
		*features = r == 0 ? p.features : 0;
	return r;
}

int uring_tx_open(const struct strategy_params *params, bool zerocopy,
		  void **tx)
{
	struct uring_tx *t = calloc(1, sizeof(*t));
	size_t stride = tx_slot_stride(params);
	int r;

	if (!t)
		return -ENOMEM;
	t->fd = params->fd;
	t->stats = params->stats;
	t->zerocopy = zerocopy;
	t->fields = strategy_fields(params);
	tx_sizes(params, zerocopy, &t->slot_count, &t->batch_max);
	t->request_count = t->slot_count + 2;
	t->arena_size = tx_arena_size(params, t->slot_count);
	t->arena = mmap(NULL, t->arena_size, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (t->arena == MAP_FAILED) {
		t->arena = NULL;
		r = -ENOMEM;
		goto err;
	}
	t->slot = calloc(t->slot_count, sizeof(*t->slot));
	t->iov = calloc((size_t)t->batch_max * t->fields, sizeof(*t->iov));
	t->request = calloc(t->request_count, sizeof(*t->request));
	if (!t->slot || !t->iov || !t->request) {
		r = -ENOMEM;
		goto err;
	}
	for (unsigned int i = 0; i < t->slot_count; i++) {
		r = message_init_in(&t->slot[i].msg, params->msg_size,
				    t->fields, FIELD_GAP,
				    t->arena + (size_t)i * stride);
		if (r < 0)
			goto err;
	}
	r = uring_ring_init(&t->ring, 2 * t->slot_count + 8, NULL);
	if (r < 0)
		goto err;
	t->ring_ready = true;
	/*
	 * Registered buffers where the kernel can send a vector from them;
	 * elsewhere (or past io_uring's 1 GiB, or the memlock limit) the same
	 * sends go without, and uring.fixed_sends stays 0 to say so.
	 */
	if (zerocopy && params->settings->uring_fixed &&
	    t->arena_size <= REGISTER_MAX) {
		char *why = NULL;
		struct iovec whole = {.iov_base = t->arena,
				      .iov_len = t->arena_size};

		t->fixed = uring_fixed_vector(&why) &&
			   io_uring_register_buffers(&t->ring, &whole, 1) == 0;
		free(why);
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
	int r = head_free(t) ? 0 : tx_wait(t, head_free);

	if (r < 0)
		return r;
	s = &t->slot[t->head];
	s->state = SLOT_FREE;
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
	if (t->fill_len == t->batch_max) {
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

	if (u->ring_ready) {
		flow_stat_set(&u->stats->uring_cq_overflow,
			      *u->ring.cq.koverflow);
		io_uring_queue_exit(&u->ring);
	}
	for (unsigned int i = 0; u->slot && i < u->batch; i++)
		message_fini(&u->slot[i]);
	free(u->slot);
	free(u->iov);
	free(u);
}

static unsigned int rx_batch(const struct strategy_params *params)
{
	return batch_for(uring_depth(params), params->msg_size,
			 strategy_fields(params));
}

size_t uring_rx_memory(const struct strategy_params *params)
{
	return (size_t)rx_batch(params) * params->msg_size;
}

int uring_rx_open(const struct strategy_params *params, void **rx)
{
	struct uring_rx *u = calloc(1, sizeof(*u));
	int r;

	if (!u)
		return -ENOMEM;
	u->fd = params->fd;
	u->stats = params->stats;
	u->batch = rx_batch(params);
	u->slot = calloc(u->batch, sizeof(*u->slot));
	u->iov = calloc((size_t)u->batch * strategy_fields(params),
			sizeof(*u->iov));
	if (!u->slot || !u->iov) {
		r = -ENOMEM;
		goto err;
	}
	for (unsigned int i = 0; i < u->batch; i++) {
		r = message_init(&u->slot[i], params->msg_size,
				 strategy_fields(params));
		if (r < 0)
			goto err;
	}
	r = uring_ring_init(&u->ring, 8, NULL);
	if (r < 0)
		goto err;
	u->ring_ready = true;
	*rx = u;
	return 0;

err:
	uring_rx_close(u);
	return r;
}

/*
 * Receives the next batch: one RECVMSG over every field of the batch, which
 * MSG_WAITALL lets end early only at the end of the stream (or an error).
 */
static int rx_fill(struct uring_rx *u)
{
	size_t want = (size_t)u->batch * u->slot[0].size, got;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);
	struct io_uring_cqe *cqe;
	int n = 0, r, res;

	for (unsigned int i = 0; i < u->batch; i++)
		n += message_iovec(&u->slot[i], &u->iov[n]);
	u->mh = (struct msghdr){.msg_iov = u->iov, .msg_iovlen = (size_t)n};
	io_uring_prep_recvmsg(sqe, u->fd, &u->mh, MSG_WAITALL);
	do {
		r = io_uring_submit_and_wait(&u->ring, 1);
	} while (r == -EINTR);
	if (r < 0)
		return r;
	do {
		r = io_uring_wait_cqe(&u->ring, &cqe);
	} while (r == -EINTR);
	if (r < 0)
		return r;
	res = cqe->res;
	io_uring_cqe_seen(&u->ring, cqe);

	u->next = 0;
	u->ready = 0;
	if (res < 0) {
		u->ended = true;
		u->error = res == -ECANCELED ? 0 : res;
		return 0;
	}
	got = (size_t)res;
	u->ready = (unsigned int)(got / u->slot[0].size);
	if (got < want) {
		/*
		 * Short means the stream ended: inside a message is an
		 * error.
		 */
		u->ended = true;
		if (got % u->slot[0].size)
			u->error = -EPROTO;
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
	*msg = &u->slot[u->next++];
	return 1;
}
