/*
 * The one clock nio-top measures with: CLOCK_MONOTONIC in nanoseconds.
 */
#ifndef NIO_TOP_CLOCK_H
#define NIO_TOP_CLOCK_H

#include <stdint.h>
#include <time.h>

#define NS_PER_MS 1000000ull

static inline uint64_t clock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline double clock_ms_since(uint64_t start_ns)
{
	return (double)(clock_now_ns() - start_ns) / 1e6;
}

#endif
