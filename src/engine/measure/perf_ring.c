/*
 * Reading a perf ring from another thread (perf_ring.h).  The records are
 * 8-byte aligned and at most 64 KiB each; one that wraps the data's end is
 * copied out so that its reader sees it in one piece.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "perf_ring.h"

/* The fewest data pages a ring is mapped with, the limit allowing. */
#define RING_PAGES_MIN 8

static int open_event(struct perf_event_attr *attr, pid_t tid)
{
	int fd = (int)syscall(SYS_perf_event_open, attr, tid, -1, -1,
			      PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

static int map_ring(struct perf_ring *ring, unsigned int pages)
{
	long page = sysconf(_SC_PAGESIZE);

	for (;;) {
		size_t size = (size_t)page * (pages + 1);
		void *base = mmap(NULL, size, PROT_READ | PROT_WRITE,
				  MAP_SHARED, ring->fd, 0);

		if (base != MAP_FAILED) {
			ring->base = base;
			ring->size = size;
			return 0;
		}
		/* perf_event_mlock_kb and RLIMIT_MEMLOCK: try less. */
		if (errno != EPERM || pages <= RING_PAGES_MIN)
			return -errno;
		pages /= 2;
	}
}

int perf_ring_open(struct perf_ring *ring, struct perf_event_attr *attr,
		   pid_t tid, unsigned int pages, unsigned int user_pages,
		   bool *user_only)
{
	int fd = open_event(attr, tid), r;

	*ring = (struct perf_ring){.fd = -1};
	*user_only = false;
	if (fd == -EACCES || fd == -EPERM) {
		attr->exclude_kernel = 1;
		fd = open_event(attr, tid);
		*user_only = fd >= 0;
		pages = user_pages;
	}
	if (fd < 0)
		return fd;
	ring->fd = fd;
	r = map_ring(ring, pages);
	if (r < 0) {
		close(fd);
		ring->fd = -1;
	}
	return r;
}

/* Only a ring that opened is mapped: a zeroed one (fd 0) has nothing. */
void perf_ring_close(struct perf_ring *ring)
{
	if (!ring->base)
		return;
	munmap(ring->base, ring->size);
	close(ring->fd);
	*ring = (struct perf_ring){.fd = -1};
}

void perf_ring_enable(const struct perf_ring *ring, bool on)
{
	if (ring->base)
		ioctl(ring->fd,
		      on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE, 0);
}

/* The record at offset off of the ring's data, copied out where it wraps. */
static const struct perf_event_header *ring_record(const uint8_t *data,
						   size_t size, uint64_t off,
						   uint8_t *copy,
						   size_t copy_size)
{
	const struct perf_event_header *h;
	size_t at = off & (size - 1), len;

	if (at + sizeof(*h) > size) {
		memcpy(copy, data + at, size - at);
		memcpy(copy + size - at, data, sizeof(*h) - (size - at));
		h = (const struct perf_event_header *)copy;
	} else {
		h = (const struct perf_event_header *)(data + at);
	}
	len = h->size;
	if (len > copy_size || len < sizeof(*h))
		return NULL;
	if (at + len <= size)
		return (const struct perf_event_header *)(data + at);
	memcpy(copy, data + at, size - at);
	memcpy(copy + size - at, data, len - (size - at));
	return (const struct perf_event_header *)copy;
}

void perf_ring_read(struct perf_ring *ring,
		    void (*each)(const struct perf_event_header *h, void *arg),
		    void *arg)
{
	struct perf_event_mmap_page *meta = ring->base;
	static uint8_t copy[65536]; /* the run's loop is one thread */
	const uint8_t *data;
	uint64_t head, tail;
	size_t size;

	if (!meta)
		return;
	data = (const uint8_t *)ring->base + meta->data_offset;
	size = meta->data_size;
	head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	tail = meta->data_tail;
	while (tail < head) {
		const struct perf_event_header *h = ring_record(
			data, size, tail, copy, sizeof(copy));

		if (!h)
			break;
		each(h, arg);
		tail += h->size;
	}
	__atomic_store_n(&meta->data_tail, head, __ATOMIC_RELEASE);
}
