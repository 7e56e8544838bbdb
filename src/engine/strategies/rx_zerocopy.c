/*
 * --rx zerocopy: the receive side any send strategy can pair with.  The
 * receiver maps a region of its TCP socket and asks TCP_ZEROCOPY_RECEIVE to
 * map the queued data into it: whole pages of payload are mapped, not
 * copied, and the bytes that cannot be (a part page, the odd header-split
 * segment) come back copied into a small buffer, or are left for recv().
 * A message that lies wholly in mapped pages is handed out as a view of them;
 * one cut by the end of a mapping, or arriving by a copy, is assembled in a
 * buffer.  Bytes are counted as mapped (read in place) or copied, per run and
 * live, like neper's percent_mmaped.
 *
 * It maps only pages that are whole, order-0 and no file's or process's
 * own (the kernel refuses to map page-cache and anonymous pages into
 * another process): so segments must carry whole pages -- page-sized
 * payloads and an MTU that fits a page multiple plus headers (nio-top sets
 * one on its own veth) -- and over veth only what the kernel copied at
 * delivery (zero-copy, uring-zc) qualifies; the pages of a copying sender
 * are compound, those of sendfile and splice belong to a file or a process.
 * The receiver waits for half a region before it asks, and asks for whole
 * messages, so a call maps many and cuts none.  The next call unmaps the
 * previous pages, so a mapping is used up before more is asked for.
 */
#include <errno.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "strategy.h"

#define PAGE	     4096
#define REGION_BYTES (2u << 20)
#define COPYBUF_MAX  (64u << 10)
#define WAIT_STEP_MS 100

struct rx_zc {
	int fd;
	size_t size;
	unsigned int fields;
	struct flow_stats *stats;

	uint8_t *region; /* mapped from the socket */
	size_t region_size;
	size_t mapped; /* bytes the last call mapped at region */
	size_t pos;    /* of those, handed out or copied on */

	uint8_t *copybuf; /* bytes the kernel copied after the mapped ones */
	size_t copybuf_size;
	size_t copied_len;
	size_t copied_pos;
	size_t skip; /* bytes after those, to read with recv() */

	uint8_t *bounce; /* a message assembled from pieces */
	size_t have;
	struct message view;
	struct message assembled;

	uint64_t mapped_bytes;
	uint64_t copied_bytes;
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

static size_t rx_zc_region(size_t size)
{
	size_t region = size > REGION_BYTES ? size : REGION_BYTES;

	return (region + PAGE - 1) / PAGE * PAGE;
}

static size_t rx_zc_copybuf(size_t size)
{
	return size < COPYBUF_MAX ? (size > PAGE ? size : PAGE) : COPYBUF_MAX;
}

/* The bounce and copy buffers; the mapped region is the kernel's pages. */
static size_t rx_zc_memory(const struct strategy_params *params)
{
	return params->msg_size + rx_zc_copybuf(params->msg_size);
}

static void rx_zc_close(void *rx)
{
	struct rx_zc *z = rx;

	if (z->region)
		munmap(z->region, z->region_size);
	free(z->copybuf);
	free(z->bounce);
	free(z);
}

static int rx_zc_open(const struct strategy_params *params, void **rx)
{
	struct rx_zc *z = calloc(1, sizeof(*z));
	int lowat, r;

	if (!z)
		return -ENOMEM;
	z->fd = params->fd;
	z->size = params->msg_size;
	z->fields = strategy_fields(params);
	z->stats = params->stats;
	z->region_size = rx_zc_region(z->size);
	z->copybuf_size = rx_zc_copybuf(z->size);
	z->region = mmap(NULL, z->region_size, PROT_READ, MAP_SHARED, z->fd, 0);
	if (z->region == MAP_FAILED) {
		z->region = NULL;
		r = -errno;
		goto err;
	}
	z->copybuf = malloc(z->copybuf_size);
	z->bounce = malloc(z->size);
	if (!z->copybuf || !z->bounce) {
		r = -ENOMEM;
		goto err;
	}
	r = message_view(&z->assembled, z->size, z->fields, z->bounce);
	if (r < 0)
		goto err;
	/*
	 * Wake for many messages at once, so each call maps many (one answer
	 * at a time in rr): a call per message would cost more than a copy.
	 */
	lowat = (int)(z->region_size / 2);
	if (!params->request_response &&
	    setsockopt(z->fd, SOL_SOCKET, SO_RCVLOWAT, &lowat, sizeof(lowat)) <
		    0) {
		r = -errno;
		goto err;
	}
	*rx = z;
	return 0;

err:
	rx_zc_close(z);
	return r;
}

static void rx_zc_publish(struct rx_zc *z)
{
	flow_stat_set(&z->stats->rx_mapped, z->mapped_bytes);
	flow_stat_set(&z->stats->rx_copied, z->copied_bytes);
}

/*
 * Asks the kernel for what is queued: pages mapped at the region, then the
 * bytes it copied, then how many are left for recv().  1 with something, 0
 * at the end of the stream, or -errno.
 */
static int rx_zc_fetch(struct rx_zc *z)
{
	for (;;) {
		struct tcp_zerocopy_receive zc = {
			.address = (uint64_t)(uintptr_t)z->region,
			.length = (uint32_t)z->region_size,
			.copybuf_address = (uint64_t)(uintptr_t)z->copybuf,
			.copybuf_len = (int32_t)z->copybuf_size,
		};
		struct pollfd pfd = {.fd = z->fd, .events = POLLIN};
		socklen_t len = sizeof(zc);
		int inq = 0;

		if (poll(&pfd, 1, WAIT_STEP_MS) < 0 && errno != EINTR)
			return -errno;
		/*
		 * Below the low-water mark for a while (a sender that waits
		 * for this receiver, say): take what there is.
		 */
		if (ioctl(z->fd, SIOCINQ, &inq) < 0)
			return -errno;
		if (!pfd.revents && inq == 0)
			continue;
		/* Whole messages, so that none is cut by the mapping's end. */
		if (z->have == 0 && (size_t)inq >= z->size) {
			size_t whole = (size_t)inq / z->size * z->size;
			size_t most = z->region_size / z->size * z->size;

			whole = (whole < most ? whole : most) / PAGE * PAGE;
			if (whole)
				zc.length = (uint32_t)whole;
		}
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
		z->mapped = zc.length;
		z->pos = 0;
		z->copied_len = zc.copybuf_len > 0 ? (size_t)zc.copybuf_len : 0;
		z->copied_pos = 0;
		z->skip = zc.recv_skip_hint;
		if (z->mapped || z->copied_len || z->skip)
			return 1;
		/* Readable, yet nothing: the end, or bytes recv() must take. */
		z->skip = z->size - z->have;
		return 1;
	}
}

/* Appends up to want bytes from src to the message being assembled. */
static void rx_zc_append(struct rx_zc *z, const uint8_t *src, size_t n)
{
	memcpy(z->bounce + z->have, src, n);
	z->have += n;
	z->copied_bytes += n;
}

static int rx_zc_recv(void *rx, struct message **msg)
{
	struct rx_zc *z = rx;

	for (;;) {
		size_t avail = z->mapped - z->pos;
		size_t want = z->size - z->have;
		int r;

		if (z->have == 0 && avail >= z->size) {
			/* Wholly in mapped pages: read in place. */
			message_view(&z->view, z->size, z->fields,
				     z->region + z->pos);
			z->pos += z->size;
			z->mapped_bytes += z->size;
			rx_zc_publish(z);
			*msg = &z->view;
			return 1;
		}
		if (avail) {
			size_t n = avail < want ? avail : want;

			rx_zc_append(z, z->region + z->pos, n);
			z->pos += n;
		} else if (z->copied_pos < z->copied_len) {
			size_t n = z->copied_len - z->copied_pos;

			n = n < want ? n : want;
			rx_zc_append(z, z->copybuf + z->copied_pos, n);
			z->copied_pos += n;
		} else if (z->skip) {
			size_t n = z->skip < want ? z->skip : want;
			ssize_t got = recv(z->fd, z->bounce + z->have, n, 0);

			if (got < 0 && errno == EINTR)
				continue;
			if (got < 0)
				return -errno;
			if (got == 0)
				return z->have ? -EPROTO : 0;
			z->have += (size_t)got;
			z->copied_bytes += (uint64_t)got;
			z->skip -= (size_t)got;
		} else {
			r = rx_zc_fetch(z);
			if (r <= 0)
				return r < 0 ? r : z->have ? -EPROTO : 0;
			continue;
		}
		if (z->have == z->size) {
			z->have = 0;
			rx_zc_publish(z);
			*msg = &z->assembled;
			return 1;
		}
	}
}

const struct strategy_ops strategy_rx_zerocopy = {
	.name = "rx-zerocopy",
	.summary = "TCP_ZEROCOPY_RECEIVE: the receiver maps the queued pages "
		   "and reads them in place",
	.probe = rx_zc_probe,
	.rx_memory = rx_zc_memory,
	.rx_open = rx_zc_open,
	.rx_recv = rx_zc_recv,
	.rx_close = rx_zc_close,
	.path =
		{
			{"kernel: the receiver's TCP queue",
			 "TCP_ZEROCOPY_RECEIVE: whole pages are mapped into "
			 "the receiver, no copy; the rest is copied",
			 false},
			{"receiver: the message read in the mapped pages", NULL,
			 false},
		},
};
