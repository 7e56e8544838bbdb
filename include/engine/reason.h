/*
 * The reasons a worker thread leaves the CPU -- waiting for data, for room
 * in the send buffer, for completions, in io_uring, for the socket's lock,
 * for a pipe, taken off it while it could run -- as one table: each reason
 * a row with its key, its label and the kernel functions that are it.
 *
 * A switch out belongs to the first reason any frame of its call chain
 * names, walking from schedule() up to the system call, so that
 * sk_stream_wait_memory under tcp_sendmsg_locked is a wait for buffer
 * space.  A function names a reason by its name or by a prefix of it, the
 * longest match winning, as a role's do (role.h).  A poll or a sleep says
 * nothing by itself: what it waits for is the strategy's, which its ops
 * say (strategy_ops.tx_waits, rx_waits).  A chain no frame of which names
 * a reason is "other", or "preempted" when the kernel says the thread was
 * still runnable as it went.
 */
#ifndef NIO_TOP_REASON_H
#define NIO_TOP_REASON_H

#include <stddef.h>

#define REASONS_MAX 12
/* reason_of_function(): a poll or a sleep, whose reason is the strategy's. */
#define REASON_GENERIC (SIZE_MAX - 1)

struct reason {
	const char *key;    /* in exports and CSV columns: "buffer" */
	const char *label;  /* for people: "waiting for send-buffer space" */
	const char *abbrev; /* a gauge's: "sndbuf" */
	/* Kernel function names, "prefix*" for a prefix, space separated. */
	const char *functions;
	const char *why; /* what it is, one sentence for nio-top(1) */
};

extern const struct reason reasons[];
extern const size_t reason_count;
/* The rows of "other" (no frame named one) and of "preempted". */
extern const size_t reason_other;
extern const size_t reason_preempted;
/* The polls and sleeps: what they wait for is the strategy's. */
extern const char reason_generic_functions[];

/*
 * The reason a kernel function names (a suffix from ".isra" or ".cold" on
 * is not part of it): a row, REASON_GENERIC, or SIZE_MAX for none.
 */
size_t reason_of_function(const char *name);
/* The row of key, or SIZE_MAX. */
size_t reason_find(const char *key);

#endif
