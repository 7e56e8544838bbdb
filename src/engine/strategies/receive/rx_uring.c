/*
 * --rx uring: the receive side of the modern io_uring path.  One multishot
 * RECV request stays armed while bytes arrive: each time some are queued
 * the kernel takes the next buffer of a ring of provided buffers, copies
 * into it and posts a completion naming it (with bundles, Linux 6.10 and
 * later, one completion may fill several buffers in a row).  The receiver
 * reads each message where it landed, in pieces across the buffers, and
 * gives a buffer back to the ring once every message that used it has been
 * read.
 *
 * The kernel takes buffers in the order the ring holds them, so the
 * receiver keeps that order too (given): a completion's buffers are the
 * oldest given ones, which the completion's buffer id confirms.  When the
 * ring runs dry (the receiver is behind, or bytes arrived in many small
 * pieces) the request ends with ENOBUFS; it is armed again once buffers are
 * back, and a message that holds every buffer itself is copied together in
 * a buffer of its own first (counted: assembled).  Requests, completions,
 * buffers given back, dry rings and assembled messages are counted per run,
 * as the send side's requests are.
 */
#include <errno.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "flow_stats.h"
#include "rx_side.h"
#include "sampler.h"
#include "strategy.h"
#include "uring_path.h"

/* Its counters, in the order of its record below. */
enum {
	RX_URING_REQUESTS,
	RX_URING_COMPLETIONS,
	RX_URING_RECYCLED,
	RX_URING_RING_EMPTY,
	RX_URING_ASSEMBLED,
};

/* Kernel 6.10 uAPI that liburing 2.3 (Debian 12) does not define. */
#ifndef IORING_RECVSEND_BUNDLE
#define IORING_RECVSEND_BUNDLE (1U << 4)
#endif
#ifndef IORING_FEAT_RECVSEND_BUNDLE
#define IORING_FEAT_RECVSEND_BUNDLE (1U << 14)
#endif

#define BUF_SIZE    (64u << 10)
#define ENTRIES_MIN 32u
/* The most a buffer ring may hold. */
#define ENTRIES_MAX 32768u
#define GROUP	    0

struct rx_chunk {
	uint16_t bid;
	uint32_t at;  /* its first byte not yet read */
	uint32_t len; /* bytes left to read */
};

/* A queue of entries items, oldest first. */
struct rx_queue {
	unsigned int head;
	unsigned int len;
};

struct rx_uring {
	struct io_uring ring;
	bool ring_ready;
	int fd;
	size_t size;
	struct flow_stats *stats;
	bool bundle;

	struct io_uring_buf_ring *br;
	size_t br_bytes;
	unsigned int entries;
	uint8_t *bufs;
	size_t bufs_bytes;
	/*
	 * Every buffer is in one place: with the kernel (given, in ring
	 * order), received and not wholly read (chunks), read by the
	 * message being read (held), or free to give back (spent).
	 */
	uint16_t *given;
	struct rx_queue given_q;
	struct rx_chunk *chunks;
	struct rx_queue chunks_q;
	uint16_t *held;
	unsigned int held_len;
	uint16_t *spent;
	unsigned int spent_len;

	bool armed;
	bool ended;
	int error;

	/* The message being read: in pieces, or assembled in bounce. */
	struct message pieces;
	size_t have;
	bool assembling;
	uint8_t *bounce;
	struct message assembled;

	uint64_t requests;
	uint64_t completions;
	uint64_t recycled;
	uint64_t exhausted;
	uint64_t assembled_count;
};

static unsigned int rx_uring_entries(size_t msg_size)
{
	/* Room for four messages cut at every buffer, and then some. */
	size_t want = 4 * (msg_size / BUF_SIZE + 2);
	unsigned int entries = ENTRIES_MIN;

	while (entries < want && entries < ENTRIES_MAX)
		entries *= 2;
	return entries;
}

static size_t rx_uring_memory(const struct strategy_params *params)
{
	unsigned int entries = rx_uring_entries(params->msg_size);

	return (size_t)entries * BUF_SIZE + params->msg_size +
	       (size_t)entries *
		       (sizeof(struct io_uring_buf) + sizeof(struct rx_chunk) +
			3 * sizeof(uint16_t));
}

/* A queue's slot for its index'th item from the oldest. */
static unsigned int rx_at(const struct rx_uring *u, const struct rx_queue *q,
			  unsigned int index)
{
	return (q->head + index) & (u->entries - 1);
}

/* A ring with room for every completion the buffers can bring. */
static int rx_uring_ring(struct io_uring *ring, unsigned int cq_entries,
			 bool *bundle)
{
	unsigned int features;
	int r = uring_ring_init(ring, cq_entries, &features);

	if (bundle)
		*bundle = features & IORING_FEAT_RECVSEND_BUNDLE;
	return r;
}

/* The ring of entries provided buffers, registered with ring: 0 or -errno. */
static int rx_uring_register(struct io_uring *ring, unsigned int entries,
			     struct io_uring_buf_ring **br, size_t *bytes)
{
	struct io_uring_buf_reg reg = {.ring_entries = entries, .bgid = GROUP};
	long page = sysconf(_SC_PAGESIZE);
	size_t len = entries * sizeof(struct io_uring_buf);
	void *map;
	int r;

	*bytes = (len + (size_t)page - 1) / (size_t)page * (size_t)page;
	map = mmap(NULL, *bytes, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		*br = NULL;
		return -ENOMEM;
	}
	reg.ring_addr = (uint64_t)(uintptr_t)map;
	r = io_uring_register_buf_ring(ring, &reg, 0);
	if (r < 0) {
		munmap(map, *bytes);
		*br = NULL;
		return r;
	}
	*br = map;
	io_uring_buf_ring_init(*br);
	return 0;
}

static int rx_uring_cause(char **cause, const char *fmt, const char *arg)
{
	if (asprintf(cause, fmt, arg) < 0)
		*cause = NULL;
	return -EOPNOTSUPP;
}

/*
 * Tried for real: a buffer ring registered, a multishot receive armed on a
 * socket pair, a byte sent, and a completion that names its buffer and says
 * more will come.
 */
static int rx_uring_probe(char **cause)
{
	static uint8_t buf[64];
	struct io_uring_buf_ring *br;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	size_t br_bytes;
	int sv[2], r = uring_probe(false, cause);

	if (r < 0)
		return r;
	r = rx_uring_ring(&ring, 8, NULL);
	if (r < 0)
		return rx_uring_cause(cause, "io_uring_queue_init: %s",
				      strerror(-r));
	r = rx_uring_register(&ring, 1, &br, &br_bytes);
	if (r < 0) {
		io_uring_queue_exit(&ring);
		return rx_uring_cause(cause,
				      "the kernel lacks provided buffer rings "
				      "(5.19+): %s",
				      strerror(-r));
	}
	io_uring_buf_ring_add(br, buf, sizeof(buf), 0, 0, 0);
	io_uring_buf_ring_advance(br, 1);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		r = -errno;
		goto out;
	}
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_recv_multishot(sqe, sv[0], NULL, 0, 0);
	sqe->flags |= IOSQE_BUFFER_SELECT;
	sqe->buf_group = GROUP;
	r = write(sv[1], "x", 1) == 1 ? io_uring_submit_and_wait(&ring, 1)
				      : -errno;
	if (r >= 0)
		r = io_uring_wait_cqe(&ring, &cqe);
	if (r >= 0) {
		if (cqe->res != 1 || !(cqe->flags & IORING_CQE_F_BUFFER) ||
		    !(cqe->flags & IORING_CQE_F_MORE))
			r = rx_uring_cause(cause,
					   "the kernel lacks multishot receive "
					   "(6.0+): %s",
					   cqe->res < 0 ? strerror(-cqe->res)
							: "no buffer named");
		else
			r = 0;
		io_uring_cqe_seen(&ring, cqe);
	}
	close(sv[0]);
	close(sv[1]);
out:
	io_uring_queue_exit(&ring);
	munmap(br, br_bytes);
	if (r < 0 && !*cause)
		rx_uring_cause(cause, "multishot receive: %s", strerror(-r));
	return r < 0 ? r : 0;
}

bool strategy_rx_uring_bundle(char **cause)
{
	struct io_uring ring;
	bool bundle = false;
	int r;

	*cause = NULL;
	r = rx_uring_ring(&ring, 8, &bundle);
	if (r < 0) {
		rx_uring_cause(cause, "io_uring_queue_init: %s", strerror(-r));
		return false;
	}
	io_uring_queue_exit(&ring);
	if (!bundle)
		rx_uring_cause(cause, "%s",
			       "the kernel lacks receive bundles "
			       "(IORING_FEAT_RECVSEND_BUNDLE, 6.10+): one "
			       "buffer per completion");
	return bundle;
}

static void rx_uring_publish(struct rx_uring *u)
{
	_Atomic uint64_t *c = u->stats->rx_side;

	flow_stat_set(&c[RX_URING_REQUESTS], u->requests);
	flow_stat_set(&c[RX_URING_COMPLETIONS], u->completions);
	flow_stat_set(&c[RX_URING_RECYCLED], u->recycled);
	flow_stat_set(&c[RX_URING_RING_EMPTY], u->exhausted);
	flow_stat_set(&c[RX_URING_ASSEMBLED], u->assembled_count);
}

static void rx_uring_close(void *rx)
{
	struct rx_uring *u = rx;

	if (u->ring_ready) {
		rx_uring_publish(u);
		flow_stat_set(&u->stats->uring_cq_overflow,
			      *u->ring.cq.koverflow);
		io_uring_queue_exit(&u->ring);
	}
	if (u->br)
		munmap(u->br, u->br_bytes);
	if (u->bufs)
		munmap(u->bufs, u->bufs_bytes);
	free(u->given);
	free(u->chunks);
	free(u->held);
	free(u->spent);
	free(u->bounce);
	free(u);
}

/* Puts buffer bid at the ring's tail (not yet visible to the kernel). */
static void rx_uring_give(struct rx_uring *u, uint16_t bid, unsigned int nth)
{
	io_uring_buf_ring_add(u->br, u->bufs + (size_t)bid * BUF_SIZE, BUF_SIZE,
			      bid, io_uring_buf_ring_mask(u->entries),
			      (int)nth);
	u->given[rx_at(u, &u->given_q, u->given_q.len++)] = bid;
}

/* Gives the spent buffers back to the kernel, oldest first. */
static void rx_uring_give_back(struct rx_uring *u)
{
	for (unsigned int i = 0; i < u->spent_len; i++)
		rx_uring_give(u, u->spent[i], i);
	io_uring_buf_ring_advance(u->br, (int)u->spent_len);
	u->recycled += u->spent_len;
	u->spent_len = 0;
}

static int rx_uring_open(const struct strategy_params *params, void **rx)
{
	struct rx_uring *u = calloc(1, sizeof(*u));
	int r;

	if (!u)
		return -ENOMEM;
	u->fd = params->fd;
	u->size = params->msg_size;
	u->stats = params->stats;
	u->entries = rx_uring_entries(u->size);
	u->bufs_bytes = (size_t)u->entries * BUF_SIZE;
	u->bufs = mmap(NULL, u->bufs_bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (u->bufs == MAP_FAILED) {
		u->bufs = NULL;
		r = -ENOMEM;
		goto err;
	}
	u->given = calloc(u->entries, sizeof(*u->given));
	u->chunks = calloc(u->entries, sizeof(*u->chunks));
	u->held = calloc(u->entries, sizeof(*u->held));
	u->spent = calloc(u->entries, sizeof(*u->spent));
	u->bounce = malloc(u->size);
	if (!u->given || !u->chunks || !u->held || !u->spent || !u->bounce) {
		r = -ENOMEM;
		goto err;
	}
	r = message_view(&u->assembled, u->size, strategy_fields(params),
			 u->bounce);
	if (r < 0)
		goto err;
	r = rx_uring_ring(&u->ring, 2 * u->entries + 8, &u->bundle);
	if (r < 0)
		goto err;
	u->ring_ready = true;
	r = rx_uring_register(&u->ring, u->entries, &u->br, &u->br_bytes);
	if (r < 0)
		goto err;
	for (unsigned int i = 0; i < u->entries; i++)
		u->spent[u->spent_len++] = (uint16_t)i;
	rx_uring_give_back(u);
	u->recycled = 0; /* the first filling gives nothing back */
	*rx = u;
	return 0;

err:
	rx_uring_close(u);
	return r;
}

/* The oldest buffer given to the kernel, which its completion names. */
static int rx_uring_taken(struct rx_uring *u, uint16_t bid, uint16_t *out)
{
	if (u->given_q.len == 0 || u->given[u->given_q.head] != bid)
		return -EPROTO;
	*out = bid;
	u->given_q.head = rx_at(u, &u->given_q, 1);
	u->given_q.len--;
	return 0;
}

/* One completion: its bytes become chunks, in the buffers' order. */
static int rx_uring_complete(struct rx_uring *u, const struct io_uring_cqe *cqe)
{
	uint16_t bid = (uint16_t)(cqe->flags >> IORING_CQE_BUFFER_SHIFT);
	size_t left = cqe->res > 0 ? (size_t)cqe->res : 0;
	int r;

	u->completions++;
	if (!(cqe->flags & IORING_CQE_F_MORE))
		u->armed = false;
	if (cqe->res > 0 && !(cqe->flags & IORING_CQE_F_BUFFER))
		return -EPROTO;
	/* A buffer taken for no bytes goes straight back. */
	if (left == 0 && (cqe->flags & IORING_CQE_F_BUFFER)) {
		r = rx_uring_taken(u, bid, &u->spent[u->spent_len]);
		if (r < 0)
			return r;
		u->spent_len++;
	}
	while (left) {
		struct rx_chunk *c =
			&u->chunks[rx_at(u, &u->chunks_q, u->chunks_q.len)];
		uint16_t taken;

		/* A bundle's next buffers are the next given ones. */
		r = rx_uring_taken(u, bid, &taken);
		if (r < 0)
			return r;
		*c = (struct rx_chunk){
			.bid = taken,
			.len = (uint32_t)(left < BUF_SIZE ? left : BUF_SIZE),
		};
		left -= c->len;
		u->chunks_q.len++;
		bid = u->given_q.len ? u->given[u->given_q.head] : 0;
	}
	/*
	 * The ring ran dry: the request ended with no buffer to take
	 * (ENOBUFS), or with the bytes of its last one (a bundle).
	 */
	if (cqe->res == -ENOBUFS ||
	    (cqe->res > 0 && !u->armed && u->given_q.len == 0))
		u->exhausted++;
	else if (cqe->res == 0)
		u->ended = true;
	else if (cqe->res < 0) {
		u->ended = true;
		u->error = cqe->res == -ECANCELED ? 0 : cqe->res;
	}
	return 0;
}

/* Copies the message read so far into bounce and goes on there. */
static void rx_uring_assemble(struct rx_uring *u)
{
	size_t at = 0;

	for (unsigned int i = 0; i < u->pieces.field_count; i++) {
		memcpy(u->bounce + at, u->pieces.field[i],
		       u->pieces.field_len[i]);
		at += u->pieces.field_len[i];
	}
	u->assembling = true;
	u->assembled_count++;
	/* Nothing reads those buffers any more. */
	memcpy(u->spent + u->spent_len, u->held,
	       u->held_len * sizeof(*u->held));
	u->spent_len += u->held_len;
	u->held_len = 0;
}

/*
 * Waits for more bytes: arms the request again if it ended (with buffers
 * back in the ring first), then takes every completion there is.
 */
static int rx_uring_more(struct rx_uring *u)
{
	struct io_uring_cqe *cqe;
	int r;

	if (!u->armed) {
		struct io_uring_sqe *sqe;

		rx_uring_give_back(u);
		if (u->given_q.len == 0 && u->have && !u->assembling) {
			rx_uring_assemble(u);
			rx_uring_give_back(u);
		}
		if (u->given_q.len == 0)
			return -ENOBUFS;
		sqe = io_uring_get_sqe(&u->ring);
		io_uring_prep_recv_multishot(sqe, u->fd, NULL, 0, 0);
		sqe->flags |= IOSQE_BUFFER_SELECT;
		sqe->buf_group = GROUP;
		if (u->bundle)
			sqe->ioprio |= IORING_RECVSEND_BUNDLE;
		u->requests++;
		u->armed = true;
	}
	do
		r = io_uring_submit_and_wait(&u->ring, 1);
	while (r == -EINTR);
	if (r < 0)
		return r;
	while (io_uring_peek_cqe(&u->ring, &cqe) == 0) {
		r = rx_uring_complete(u, cqe);
		io_uring_cqe_seen(&u->ring, cqe);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Takes n bytes at at into the message being read. */
static void rx_uring_take(struct rx_uring *u, const uint8_t *at, size_t n)
{
	if (u->have == 0) {
		message_pieces(&u->pieces);
		u->assembling = false;
	}
	if (!u->assembling && !message_add_piece(&u->pieces, at, n))
		rx_uring_assemble(u);
	if (u->assembling)
		memcpy(u->bounce + u->have, at, n);
	u->have += n;
}

static int rx_uring_recv(void *rx, struct message **msg)
{
	struct rx_uring *u = rx;

	/* The message handed out last is read: its buffers go back. */
	if (u->spent_len)
		rx_uring_give_back(u);
	while (u->have < u->size) {
		struct rx_chunk *c = &u->chunks[u->chunks_q.head];
		size_t n;
		int r;

		if (u->chunks_q.len == 0) {
			if (u->ended)
				return u->error	 ? u->error
				       : u->have ? -EPROTO
						 : 0;
			r = rx_uring_more(u);
			if (r < 0)
				return r;
			continue;
		}
		n = u->size - u->have < c->len ? u->size - u->have : c->len;
		rx_uring_take(u, u->bufs + (size_t)c->bid * BUF_SIZE + c->at,
			      n);
		c->at += (uint32_t)n;
		c->len -= (uint32_t)n;
		if (c->len)
			continue;
		if (u->assembling)
			u->spent[u->spent_len++] = c->bid;
		else
			u->held[u->held_len++] = c->bid;
		u->chunks_q.head = rx_at(u, &u->chunks_q, 1);
		u->chunks_q.len--;
	}
	*msg = u->assembling ? &u->assembled : &u->pieces;
	memcpy(u->spent + u->spent_len, u->held,
	       u->held_len * sizeof(*u->held));
	u->spent_len += u->held_len;
	u->held_len = 0;
	u->have = 0;
	rx_uring_publish(u);
	return 1;
}

static const struct strategy_ops strategy_rx_uring = {
	.name = "rx-uring",
	.summary = "io_uring multishot receive into a ring of provided "
		   "buffers, the message read where it landed",
	.uring = true,
	.descriptors = 1,
	.probe = rx_uring_probe,
	.rx_memory = rx_uring_memory,
	.rx_open = rx_uring_open,
	.rx_recv = rx_uring_recv,
	.rx_close = rx_uring_close,
	.path =
		{
			{"kernel: the receiver's TCP queue",
			 "IORING_OP_RECV, multishot: as bytes arrive "
			 "the kernel copies them into the next buffers "
			 "of a provided ring "
			 "and posts a completion naming them",
			 "copy_receive", NULL},
			{"receiver: the message read where it landed, each "
			 "buffer given back to the ring once read",
			 NULL, NULL, NULL},
		},
};

/*
 * Its requests and buffers in words, "1 request armed, 48166 completions,
 * 48421 buffers given back, the ring empty 0 times"; false where no request
 * was armed.
 */
static bool rx_uring_said(const struct rx_side_said *in, char *out, size_t size)
{
	const uint64_t *c = in->counter;
	int n;

	if (!c[RX_URING_REQUESTS])
		return false;
	n = snprintf(out, size,
		     "%llu request%s armed, %llu completions, %llu buffers "
		     "given back, the ring empty %llu time%s",
		     (unsigned long long)c[RX_URING_REQUESTS],
		     c[RX_URING_REQUESTS] == 1 ? "" : "s",
		     (unsigned long long)c[RX_URING_COMPLETIONS],
		     (unsigned long long)c[RX_URING_RECYCLED],
		     (unsigned long long)c[RX_URING_RING_EMPTY],
		     c[RX_URING_RING_EMPTY] == 1 ? "" : "s");
	if (c[RX_URING_ASSEMBLED] && n > 0 && (size_t)n < size)
		snprintf(out + n, size - (size_t)n,
			 ", %llu message%s copied together (%s every buffer)",
			 (unsigned long long)c[RX_URING_ASSEMBLED],
			 c[RX_URING_ASSEMBLED] == 1 ? "" : "s",
			 c[RX_URING_ASSEMBLED] == 1 ? "it held" : "each held");
	return true;
}

/* Its counters, in run_totals.rx_side[] and in an export's uring_rx. */
#define RX_URING_COUNTER(name, k)                                              \
	{                                                                      \
		.key = "uring_rx." name, .kind = RECORD_U64,                   \
		.offset = offsetof(struct run_totals, rx_side[k]),             \
		.optional = true                                               \
	}
static const struct record_field rx_uring_counters[] = {
	RX_URING_COUNTER("requests", RX_URING_REQUESTS),
	RX_URING_COUNTER("completions", RX_URING_COMPLETIONS),
	RX_URING_COUNTER("buffers_recycled", RX_URING_RECYCLED),
	RX_URING_COUNTER("ring_empty", RX_URING_RING_EMPTY),
	RX_URING_COUNTER("assembled", RX_URING_ASSEMBLED),
};
static const struct record rx_uring_record = RECORD_OF(rx_uring_counters);

const struct rx_side rx_side_uring = {
	.name = "uring",
	.tag = " rx-uring",
	.words = " with io_uring receive",
	.ops = &strategy_rx_uring,
	.counters = &rx_uring_record,
	.block = "uring_rx",
	.said = rx_uring_said,
};
