/*
 * A perf event's ring, read from another thread than the one it watches:
 * the kernel writes records up to data_head, the reader takes them up to
 * there and gives the room back through data_tail.  The profile's cpu-clock
 * samples (profile.h) and the context switches (offcpu.h) are read so.
 */
#ifndef NIO_TOP_PERF_RING_H
#define NIO_TOP_PERF_RING_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <sys/types.h>

struct perf_ring {
	void *base; /* the metadata page, then the data; NULL: not mapped */
	size_t size;
};

/* perf_event_open for thread tid (0: the caller), any CPU: fd or -errno. */
int perf_ring_open_event(struct perf_event_attr *attr, pid_t tid);
/*
 * Maps fd's ring of pages data pages (a power of two), halving them down
 * to a few while the locked-memory limit refuses: 0 or -errno.
 */
int perf_ring_map(struct perf_ring *ring, int fd, unsigned int pages);
void perf_ring_unmap(struct perf_ring *ring);
/*
 * Hands each record written since the last read to each(), in order (a
 * record that wraps is copied out whole first), then gives their room
 * back.  One thread reads every ring: the copy is shared.
 */
void perf_ring_read(struct perf_ring *ring,
		    void (*each)(const struct perf_event_header *h, void *arg),
		    void *arg);

#endif
