/*
 * --rx zerocopy: the receive side any send strategy can pair with.  The
 * receiver maps a region of its TCP socket and asks TCP_ZEROCOPY_RECEIVE to
 * map the queued data into it: whole pages of payload are mapped, not
 * copied, and the bytes that cannot be (a part page, the odd header-split
 * segment) come back copied into a small buffer, or are left for recv().
 * Bytes are counted as mapped (read in place) or copied, per run and live,
 * like neper's percent_mmaped.
 *
 * It maps only pages that are whole, order-0 and no file's or process's
 * own (the kernel refuses to map page-cache and anonymous pages into
 * another process): over veth and loopback only what the kernel copied at
 * delivery (zero-copy, uring-zc) qualifies; the pages of a copying sender
 * are compound, those of sendfile and splice belong to a file or a process.
 * Sends of several pages map the most; the MTU matters less than it would
 * seem (measured here at 64 KiB: 91% at 1500, 93% at 61492), since the
 * segments TCP hands over veth and loopback are up to 64 KiB whatever it is.
 *
 * A call maps up to the first part page, which ends every segment the
 * sender built, so a message is mostly cut between calls: mapped pages, a
 * few copied bytes, mapped pages again.  The message is read where its
 * pieces lie, as a message of pieces (message_add_piece), not copied
 * together.  For that, the calls map one after another into the region, a
 * ring, and the copied bytes go one after another into the arena, another:
 * a message's pieces stay where they are until it is read.  A message in
 * more pieces than a message holds, or one the rings cannot hold, is
 * assembled in a buffer and counted as copied.
 */
#include <errno.h>
#include <linux/sockios.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "flow_stats.h"
#include "rx_side.h"
#include "sampler.h"
#include "strategy.h"

/* Its counters: the bytes read in mapped pages, and those copied. */
enum { RX_ZC_MAPPED, RX_ZC_COPIED };

#define PAGE	     4096
#define REGION_BYTES (2u << 20)
#define COPYBUF_MAX  (64u << 10)
#define WAIT_MAX_MS  100

/* A ring of bytes that pieces of the message being read may still use. */
struct rx_ring {
	uint8_t *base;
	size_t size;
	size_t at;    /* where the next bytes go */
	size_t keep;  /* the message being read uses [keep, at), ring-wise */
	bool wrapped; /* at has started over since keep: [keep, end) [0, at) */
};

struct rx_zc {
	int fd;
	size_t size;
	struct flow_stats *stats;

	struct rx_ring region; /* mapped from the socket */
	struct rx_ring arena;  /* bytes copied by the kernel or recv() */
	const uint8_t *next;   /* the last call's bytes not yet read */
	size_t next_len;
	bool next_mapped;
	const uint8_t *copied; /* and those it copied after them */
	size_t copied_len;
	size_t skip; /* bytes after those, to read with recv() */

	/* The message being read: in pieces, or assembled in bounce. */
	struct message pieces;
	size_t have;
	size_t have_mapped;
	bool assembling;
	uint8_t *bounce;
	struct message assembled;

	uint64_t mapped_bytes;
	uint64_t copied_bytes;

	/*
	 * The low-water mark (SO_RCVLOWAT, 0: none) and how the wait for it
	 * goes: a wait of wait_ms that ends with last_inq bytes queued, no
	 * more than the wait before, finds a sender that has all it can in
	 * flight (its slots, its buffers), and lowers the mark.
	 */
	int lowat;
	int wait_ms;
	int last_inq;
};

static int rx_zc_probe(char **cause)
{
	struct tcp_zerocopy_receive zc = {0};
	socklen_t len = sizeof(zc);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	void *map;
	int r = 0;

	if (fd < 0)
		return -errno;
	map = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		r = -errno;
		if (asprintf(cause,
			     "a TCP socket cannot be mapped (mmap: %s): the "
			     "kernel lacks TCP_ZEROCOPY_RECEIVE (4.18+)",
			     strerror(errno)) < 0)
			*cause = NULL;
	} else {
		munmap(map, PAGE);
		if (getsockopt(fd, IPPROTO_TCP, TCP_ZEROCOPY_RECEIVE, &zc,
			       &len) < 0 &&
		    errno == ENOPROTOOPT) {
			r = -EOPNOTSUPP;
			if (asprintf(cause, "the kernel lacks "
					    "TCP_ZEROCOPY_RECEIVE (4.18+)") < 0)
				*cause = NULL;
		}
	}
	close(fd);
	return r;
}

/* The socket's low-water mark, 0 where it has none (the kernel's 1). */
static int rx_zc_mark(int fd)
{
	int mark = 0;
	socklen_t len = sizeof(mark);

	if (getsockopt(fd, SOL_SOCKET, SO_RCVLOWAT, &mark, &len) < 0 ||
	    mark <= 1)
		return 0;
	return mark;
}

/* Three messages' worth, so a call has room beside a message cut in two. */
static size_t rx_zc_region(size_t size)
{
	size_t region = 3 * size > REGION_BYTES ? 3 * size : REGION_BYTES;

	return (region + PAGE - 1) / PAGE * PAGE;
}

/* The bounce buffer, the arena and the pages the region may hold. */
static size_t rx_zc_memory(const struct strategy_params *params)
{
	return params->msg_size + 4 * COPYBUF_MAX +
	       rx_zc_region(params->msg_size);
}

static void rx_zc_close(void *rx)
{
	struct rx_zc *z = rx;

	if (z->region.base)
		munmap(z->region.base, z->region.size);
	free(z->arena.base);
	free(z->bounce);
	free(z);
}

static int rx_zc_open(const struct strategy_params *params, void **rx)
{
	struct rx_zc *z = calloc(1, sizeof(*z));
	int r;

	if (!z)
		return -ENOMEM;
	z->fd = params->fd;
	z->size = params->msg_size;
	z->stats = params->stats;
	z->region.size = rx_zc_region(z->size);
	z->region.base = mmap(NULL, z->region.size, PROT_READ, MAP_SHARED,
			      z->fd, 0);
	if (z->region.base == MAP_FAILED) {
		z->region.base = NULL;
		r = -errno;
		goto err;
	}
	z->arena.size = 4 * COPYBUF_MAX;
	z->arena.base = malloc(z->arena.size);
	z->bounce = malloc(z->size);
	if (!z->arena.base || !z->bounce) {
		r = -ENOMEM;
		goto err;
	}
	r = message_view(&z->assembled, z->size, strategy_fields(params),
			 z->bounce);
	if (r < 0)
		goto err;
	/*
	 * The socket's mark is every receive side's (sockopts_rx_mark), set
	 * before this opened.  Should the sender not reach it after all, it
	 * comes down to what it can have in flight (rx_zc_wait); a mark the
	 * user set (--rcvlowat) is kept as it is.
	 */
	z->lowat = params->settings->rcvlowat ? 0 : rx_zc_mark(z->fd);
	z->wait_ms = 1;
	*rx = z;
	return 0;

err:
	rx_zc_close(z);
	return r;
}

/*
 * Room for up to want bytes in one run that spares what the ring keeps: on
 * from its position, or from its start when the end is short.  0 when there
 * is none.  A ring that keeps nothing (!keeping) starts over.
 */
static size_t rx_ring_room(struct rx_ring *ring, bool keeping, size_t want)
{
	size_t room;

	if (!keeping)
		*ring = (struct rx_ring){.base = ring->base,
					 .size = ring->size};
	if (ring->wrapped)
		room = ring->keep - ring->at;
	else if (ring->size - ring->at >= want || ring->keep == 0)
		room = ring->size - ring->at;
	else {
		ring->at = 0;
		ring->wrapped = true;
		room = ring->keep;
	}
	return room < want ? room : want;
}

/* The message being read starts at keep: what the ring must keep. */
static void rx_ring_keep(struct rx_ring *ring, size_t keep)
{
	ring->keep = keep;
	ring->wrapped = keep > ring->at;
}

/* Copies the pieces read so far into the bounce buffer, and goes on there. */
static void rx_zc_assemble(struct rx_zc *z)
{
	size_t at = 0;

	for (unsigned int i = 0; i < z->pieces.field_count; i++) {
		memcpy(z->bounce + at, z->pieces.field[i],
		       z->pieces.field_len[i]);
		at += z->pieces.field_len[i];
	}
	z->assembling = true;
}

/* Whether the message being read is in pieces, which the rings keep. */
static bool rx_zc_in_pieces(const struct rx_zc *z)
{
	return z->have && !z->assembling;
}

/*
 * Waits for the socket to reach its low-water mark: 1 when there is
 * something to fetch, 0 to wait again, or -errno.  A wait that times out
 * twice with the same bytes queued has met a sender that cannot send more
 * before this receiver reads (its slots, a full send buffer, a small
 * message rate): the mark comes down to half of what is queued, so that no
 * fetch waits on a mark the sender cannot reach.  The wait starts at 1 ms
 * and doubles, up to WAIT_MAX_MS, while nothing at all is queued.
 */
static int rx_zc_wait(struct rx_zc *z)
{
	struct pollfd pfd = {.fd = z->fd, .events = POLLIN};
	int inq = 0, lowat;

	if (poll(&pfd, 1, z->wait_ms) < 0 && errno != EINTR)
		return -errno;
	if (pfd.revents) {
		z->last_inq = 0;
		return 1;
	}
	if (ioctl(z->fd, SIOCINQ, &inq) < 0)
		return -errno;
	if (inq == 0 || inq > z->last_inq) {
		z->wait_ms = z->wait_ms * 2 < WAIT_MAX_MS ? z->wait_ms * 2
							  : WAIT_MAX_MS;
		z->last_inq = inq;
		return 0;
	}
	lowat = inq / 2 > 1 ? inq / 2 : 1;
	if (lowat < z->lowat && setsockopt(z->fd, SOL_SOCKET, SO_RCVLOWAT,
					   &lowat, sizeof(lowat)) == 0)
		z->lowat = lowat;
	z->last_inq = 0;
	return 1;
}

/*
 * Asks the kernel for what is queued: pages mapped in the region, then the
 * bytes it copied into the arena, then how many are left for recv().  1
 * with something, 0 at the end of the stream, or -errno.
 */
static int rx_zc_fetch(struct rx_zc *z)
{
	for (;;) {
		struct tcp_zerocopy_receive zc = {0};
		size_t map, copy;
		socklen_t len = sizeof(zc);
		int inq = 0, r = rx_zc_wait(z);

		if (r < 0)
			return r;
		if (r == 0)
			continue;
		if (ioctl(z->fd, SIOCINQ, &inq) < 0)
			return -errno;
		map = z->region.size / 2;
		/* Whole messages when none is begun: fewer are cut. */
		if (z->have == 0 && (size_t)inq >= z->size) {
			size_t whole = (size_t)inq / z->size * z->size;

			if (whole >= PAGE && whole < map)
				map = whole;
		}
		map = rx_ring_room(&z->region, rx_zc_in_pieces(z), map);
		copy = rx_ring_room(&z->arena, rx_zc_in_pieces(z), COPYBUF_MAX);
		if (map < PAGE || copy < PAGE) {
			/* The rings are full of the message: assemble it. */
			rx_zc_assemble(z);
			continue;
		}
		zc.address = (uint64_t)(uintptr_t)(z->region.base +
						   z->region.at);
		zc.length = (uint32_t)(map / PAGE * PAGE);
		zc.copybuf_address = (uint64_t)(uintptr_t)(z->arena.base +
							   z->arena.at);
		zc.copybuf_len = (int32_t)copy;
		if (getsockopt(z->fd, IPPROTO_TCP, TCP_ZEROCOPY_RECEIVE, &zc,
			       &len) < 0) {
			/* No data and the peer is done: the end. */
			if (errno == EIO)
				return 0;
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -errno;
		}
		if (zc.err)
			return zc.err < 0 ? zc.err : -zc.err;
		z->next = z->region.base + z->region.at;
		z->next_len = zc.length;
		z->region.at += zc.length;
		z->copied = z->arena.base + z->arena.at;
		z->copied_len = zc.copybuf_len > 0 ? (size_t)zc.copybuf_len : 0;
		z->arena.at += z->copied_len;
		z->skip = zc.recv_skip_hint;
		if (z->next_len || z->copied_len || z->skip)
			return 1;
		/* Readable, yet nothing: the end, or bytes recv() must take. */
		z->skip = z->size - z->have;
		return 1;
	}
}

/*
 * Reads with recv() into the arena what the last call left there: 1, 0 at
 * the end of the stream, or -errno.
 */
static int rx_zc_read_skipped(struct rx_zc *z, size_t want)
{
	size_t n = z->skip < want ? z->skip : want;
	uint8_t *at;
	ssize_t got;

	n = rx_ring_room(&z->arena, rx_zc_in_pieces(z), n);
	if (n == 0) {
		rx_zc_assemble(z);
		n = rx_ring_room(&z->arena, false,
				 z->skip < want ? z->skip : want);
	}
	at = z->arena.base + z->arena.at;
	do
		got = recv(z->fd, at, n, 0);
	while (got < 0 && errno == EINTR);
	if (got <= 0)
		return got < 0 ? -errno : 0;
	z->arena.at += (size_t)got;
	z->skip -= (size_t)got;
	z->copied = at;
	z->copied_len = (size_t)got;
	return 1;
}

/* Takes n bytes at at, mapped or copied, into the message being read. */
static void rx_zc_take(struct rx_zc *z, const uint8_t *at, size_t n,
		       bool mapped)
{
	/* The rings keep what is not read yet, from the message's start. */
	if (z->have == 0) {
		message_pieces(&z->pieces);
		z->assembling = false;
		z->have_mapped = 0;
		rx_ring_keep(&z->region,
			     mapped ? (size_t)(at - z->region.base) / PAGE *
					      PAGE
				    : z->region.at);
		rx_ring_keep(&z->arena,
			     mapped && !z->copied_len
				     ? z->arena.at
				     : (size_t)((mapped ? z->copied : at) -
						z->arena.base));
	}
	if (!z->assembling && !message_add_piece(&z->pieces, at, n))
		rx_zc_assemble(z);
	if (z->assembling)
		memcpy(z->bounce + z->have, at, n);
	z->have += n;
	if (mapped)
		z->have_mapped += n;
}

static int rx_zc_recv(void *rx, struct message **msg)
{
	struct rx_zc *z = rx;

	for (;;) {
		size_t want = z->size - z->have;
		int r = 1;

		if (z->next_len) {
			size_t n = z->next_len < want ? z->next_len : want;

			rx_zc_take(z, z->next, n, true);
			z->next += n;
			z->next_len -= n;
		} else if (z->copied_len) {
			size_t n = z->copied_len < want ? z->copied_len : want;

			rx_zc_take(z, z->copied, n, false);
			z->copied += n;
			z->copied_len -= n;
		} else if (z->skip) {
			r = rx_zc_read_skipped(z, want);
		} else {
			r = rx_zc_fetch(z);
		}
		if (r <= 0)
			return r < 0 ? r : z->have ? -EPROTO : 0;
		if (z->have < z->size)
			continue;
		/* Read in place only when no byte of it was copied together. */
		if (z->assembling) {
			z->copied_bytes += z->size;
			*msg = &z->assembled;
		} else {
			z->mapped_bytes += z->have_mapped;
			z->copied_bytes += z->size - z->have_mapped;
			*msg = &z->pieces;
		}
		z->have = 0;
		flow_stat_set(&z->stats->rx_side[RX_ZC_MAPPED],
			      z->mapped_bytes);
		flow_stat_set(&z->stats->rx_side[RX_ZC_COPIED],
			      z->copied_bytes);
		return 1;
	}
}

static const char *rx_zc_unmapped_why(const struct strategy_ops *sender)
{
	if (sender->zerocopy)
		return NULL;
	if (strcmp(sender->name, "sendfile") == 0)
		return "sendfile's pages belong to its memfd (the page cache)";
	if (strcmp(sender->name, "splice") == 0)
		return "vmsplice(2)'s pages are the sender's own memory";
	return "a copying sender's data lies in the kernel's "
	       "compound page fragments";
}

static const struct strategy_ops strategy_rx_zerocopy;

/* Its receive path when what the sender queued cannot be mapped. */
static const struct strategy_step rx_zc_copied_path[] = {
	{"kernel: the receiver's TCP queue",
	 "TCP_ZEROCOPY_RECEIVE: none of these pages can be mapped (why: "
	 "below), so the kernel copies them into the receiver's buffer",
	 "copy_receive", NULL},
	{"receiver: the message read in the copied bytes", NULL, NULL, NULL},
	{NULL, NULL, NULL, NULL},
};

static const struct strategy_step *rx_zc_path(const struct strategy_ops *sender)
{
	return rx_zc_unmapped_why(sender) ? rx_zc_copied_path
					  : strategy_rx_zerocopy.path;
}

/*
 * The share read in place: "94% of the bytes read in mapped pages, 6%
 * copied"; in the long form, where little was mapped, the kernel's reason.
 */
static bool rx_zc_said(const struct rx_side_said *in, char *text, size_t size)
{
	uint64_t mapped = in->counter[RX_ZC_MAPPED];
	uint64_t all = mapped + in->counter[RX_ZC_COPIED];
	double share = all ? 100.0 * (double)mapped / (double)all : 0;
	const char *unmapped = rx_zc_unmapped_why(in->sender);
	int n;

	if (!all)
		return false;
	n = snprintf(text, size,
		     "%.0f%% of the bytes read in mapped pages, %.0f%% copied",
		     share, 100 - share);
	/* The measured share says it; the reason is the kernel's rule. */
	if (in->why && share < 10 && unmapped && n > 0 && (size_t)n < size)
		snprintf(
			text + n, size - (size_t)n,
			": the kernel maps only whole pages that are its own "
			"alone (over veth, those it copied at delivery, as for "
			"a zero-copy sender), and %s",
			unmapped);
	return true;
}

/* As a comparison's cell: the share read in place, "94%". */
static bool rx_zc_cell(const uint64_t *counter, char *out, size_t size)
{
	uint64_t all = counter[RX_ZC_MAPPED] + counter[RX_ZC_COPIED];

	if (!all)
		return false;
	snprintf(out, size, "%.0f%%",
		 100.0 * (double)counter[RX_ZC_MAPPED] / (double)all);
	return true;
}

static bool rx_zc_note(const struct strategy_ops *sender, char *out,
		       size_t size)
{
	const char *why = rx_zc_unmapped_why(sender);

	if (why)
		snprintf(out, size,
			 "Why none is mapped: TCP_ZEROCOPY_RECEIVE maps only "
			 "whole pages that are the kernel's own alone (over "
			 "veth, those it copied at delivery, as for a "
			 "zero-copy sender), and %s.",
			 why);
	return why;
}

/* Its counters, in run_totals.rx_side[] and in an export's rx_zerocopy. */
#define RX_ZC_COUNTER(name, k)                                                 \
	{                                                                      \
		.key = "rx_zerocopy." name, .kind = RECORD_U64,                \
		.offset = offsetof(struct run_totals, rx_side[k]),             \
		.optional = true                                               \
	}
static const struct record_field rx_zc_counters[] = {
	RX_ZC_COUNTER("mapped_bytes", RX_ZC_MAPPED),
	RX_ZC_COUNTER("copied_bytes", RX_ZC_COPIED),
};
static const struct record rx_zc_record = RECORD_OF(rx_zc_counters);

static const struct strategy_ops strategy_rx_zerocopy = {
	.name = "rx-zerocopy",
	.summary = "TCP_ZEROCOPY_RECEIVE: the receiver maps the queued pages "
		   "and reads them in place",
	.rx_waits = "data", /* its poll for the low-water mark */
	.probe = rx_zc_probe,
	.rx_memory = rx_zc_memory,
	.rx_open = rx_zc_open,
	.rx_recv = rx_zc_recv,
	.rx_close = rx_zc_close,
	.path =
		{
			{"kernel: the receiver's TCP queue",
			 "TCP_ZEROCOPY_RECEIVE: whole pages that are the "
			 "kernel's alone (over veth, those it copied at "
			 "delivery) are mapped into the receiver, no copy; the "
			 "rest is copied",
			 NULL, "map copy_receive"},
			{"receiver: the message read where it lies, in the "
			 "mapped pages and the copied bytes",
			 NULL, NULL, NULL},
		},
};

const struct rx_side rx_side_zerocopy = {
	.name = "zerocopy",
	.tag = " rx-zc",
	.words = " with zero-copy receive",
	.ops = &strategy_rx_zerocopy,
	.counters = &rx_zc_record,
	.block = "rx_zerocopy",
	.said = rx_zc_said,
	.cell_label = "Rx bytes read mapped",
	.cell = rx_zc_cell,
	.path = rx_zc_path,
	.note = rx_zc_note,
};
