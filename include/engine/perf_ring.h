/*
 * A perf event's ring, read from another thread than the one it watches:
 * the kernel writes records up to data_head, the reader takes them up to
 * there and gives the room back through data_tail.  The profile's cpu-clock
 * samples (profile.h) and the context switches (offcpu.h) are read so.
 */
#ifndef NIO_TOP_PERF_RING_H
#define NIO_TOP_PERF_RING_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct perf_ring {
	int fd;	    /* the event; -1: none */
	void *base; /* the metadata page, then the data; NULL: not mapped */
	size_t size;
};

/*
 * Opens attr's event for thread tid (0: the caller) on any CPU and maps its
 * ring of pages data pages (a power of two), halving them down to a few
 * while the locked-memory limit refuses.  Where this user may not watch
 * the kernel (perf_event_paranoid 2), the event is opened without it
 * (attr->exclude_kernel set) with user_pages instead, and *user_only says
 * so.  0, or -errno with nothing open (ring->fd -1).
 */
int perf_ring_open(struct perf_ring *ring, struct perf_event_attr *attr,
		   pid_t tid, unsigned int pages, unsigned int user_pages,
		   bool *user_only);
/* Unmaps and closes what perf_ring_open opened, if it did (or zeroed). */
void perf_ring_close(struct perf_ring *ring);
/* Starts (on) or stops an open ring's event writing records. */
void perf_ring_enable(const struct perf_ring *ring, bool on);
/*
 * Hands each record written since the last read to each(), in order (a
 * record that wraps is copied out whole first), then gives their room
 * back.  One thread reads every ring: the copy is shared.
 */
void perf_ring_read(struct perf_ring *ring,
		    void (*each)(const struct perf_event_header *h, void *arg),
		    void *arg);

#endif
