/*
 * Slots held until the receiver has read them.  The receiver counts whole
 * messages as it takes them out of its socket; message n (counting from 0)
 * has been read once that count passes n, and every byte of it has then left
 * the kernel's queues for good: a retransmission of it would be a duplicate
 * the receiver drops.  Until then the sender waits, sleeping a little longer
 * each time, since on a two-core machine spinning would starve the very
 * receiver it waits for.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "slot_pool.h"
#include "sysfile.h"

#define PAGE	       4096
#define WAIT_MIN_NS    20000
#define WAIT_MAX_NS    1000000
#define STALL_LIMIT_NS (10000 * NS_PER_MS)

static size_t page_round(size_t n)
{
	return (n + PAGE - 1) / PAGE * PAGE;
}

/*
 * Enough slots for what can be taken but not yet read: a full send buffer
 * and a full receive buffer (tcp_wmem and tcp_rmem maxima) -- or one slot,
 * rewritten at once, when the rule is broken on purpose.
 */
static unsigned int pool_slots(const struct strategy_params *params)
{
	const struct run_settings *s = params->settings;
	size_t bytes, slots;

	if (s->slots)
		return s->slots;
	if (s->unsafe_reuse)
		return 1;
	bytes = (size_t)sysfile_int_at("/proc/sys/net/ipv4/tcp_wmem", 2,
				       4 << 20) +
		(size_t)sysfile_int_at("/proc/sys/net/ipv4/tcp_rmem", 2,
				       6 << 20);
	slots = bytes / params->msg_size + 1;
	if (slots < STRATEGY_SLOTS_MIN)
		slots = STRATEGY_SLOTS_MIN;
	return slots > STRATEGY_SLOTS_MAX ? STRATEGY_SLOTS_MAX
					  : (unsigned int)slots;
}

size_t slot_pool_unread_least(const struct strategy_params *params)
{
	unsigned int slots = pool_slots(params);

	return slots > 1 ? (size_t)(slots - 1) * params->msg_size : 1;
}

size_t slot_pool_memory(const struct strategy_params *params)
{
	return (size_t)pool_slots(params) * page_round(params->msg_size);
}

void slot_pool_close(struct slot_pool *pool)
{
	for (unsigned int i = 0; pool->slot && i < pool->slot_count; i++)
		message_fini(&pool->slot[i]);
	if (pool->base)
		munmap(pool->base, pool->size);
	if (pool->memfd >= 0)
		close(pool->memfd);
	free(pool->slot);
	free(pool->taken);
	memset(pool, 0, sizeof(*pool));
	pool->memfd = -1;
}

int slot_pool_open(struct slot_pool *pool, const struct strategy_params *params,
		   bool memfd)
{
	int r;

	memset(pool, 0, sizeof(*pool));
	pool->memfd = -1;
	pool->unsafe = params->settings->unsafe_reuse;
	pool->delivered = params->delivered;
	if (!pool->delivered && !pool->unsafe)
		return -EOPNOTSUPP;
	pool->slot_count = pool_slots(params);
	/* Each message starts on a page: whole pages go to the socket. */
	pool->stride = page_round(params->msg_size);
	pool->size = (size_t)pool->slot_count * pool->stride;
	if (memfd) {
		pool->memfd = memfd_create("nio-top-sendfile", MFD_CLOEXEC);
		if (pool->memfd < 0 ||
		    ftruncate(pool->memfd, (off_t)pool->size) < 0) {
			r = -errno;
			goto err;
		}
	}
	pool->base = mmap(NULL, pool->size, PROT_READ | PROT_WRITE,
			  memfd ? MAP_SHARED : MAP_PRIVATE | MAP_ANONYMOUS,
			  pool->memfd, 0);
	if (pool->base == MAP_FAILED) {
		pool->base = NULL;
		r = -errno;
		goto err;
	}
	pool->slot = calloc(pool->slot_count, sizeof(*pool->slot));
	pool->taken = calloc(pool->slot_count, sizeof(*pool->taken));
	if (!pool->slot || !pool->taken) {
		r = -ENOMEM;
		goto err;
	}
	for (unsigned int i = 0; i < pool->slot_count; i++) {
		r = message_init_in(&pool->slot[i], params->msg_size,
				    strategy_fields(params), 0,
				    pool->base + (size_t)i * pool->stride);
		if (r < 0)
			goto err;
	}
	return 0;

err:
	slot_pool_close(pool);
	return r;
}

/* Whether the receiver has read message seq (counted from 0). */
static bool pool_read(const struct slot_pool *pool, uint64_t seq)
{
	return atomic_load_explicit(pool->delivered, memory_order_acquire) >
	       seq;
}

int slot_pool_next(struct slot_pool *pool, struct message **msg)
{
	uint64_t taken = pool->taken[pool->head];

	if (taken && !pool->unsafe && !pool_read(pool, taken - 1)) {
		uint64_t start = clock_now_ns();
		long wait_ns = WAIT_MIN_NS;

		pool->waits++;
		while (!pool_read(pool, taken - 1)) {
			struct timespec ts = {.tv_nsec = wait_ns};

			if (clock_now_ns() - start > STALL_LIMIT_NS)
				return -ETIMEDOUT;
			nanosleep(&ts, NULL);
			if (wait_ns < WAIT_MAX_NS)
				wait_ns *= 2;
		}
	}
	pool->taken[pool->head] = ++pool->next_seq;
	*msg = &pool->slot[pool->head];
	pool->head = (pool->head + 1) % pool->slot_count;
	return 0;
}

size_t slot_pool_offset(const struct slot_pool *pool, const struct message *msg)
{
	return (size_t)(msg - pool->slot) * pool->stride;
}
