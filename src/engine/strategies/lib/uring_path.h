/*
 * The io_uring send and receive paths that the uring and uring-zc strategies
 * share.  Messages travel in batches: a batch of --uring-depth messages is
 * one SENDMSG (or SENDMSG_ZC) request whose iovec holds every field of every
 * message, with MSG_WAITALL, so io_uring itself resumes a partial transfer.
 * A TCP byte stream must not interleave two requests, so one request is in
 * the kernel at a time; with zero copy its slots stay pinned until its
 * notification while the next batches go out.  Receives are one RECVMSG per
 * batch the same way.
 */
#ifndef NIO_TOP_URING_H
#define NIO_TOP_URING_H

#include <liburing.h>
#include <stdbool.h>

#include "strategy.h"

/* 0 if io_uring and the opcodes the path needs are there; else a cause. */
int uring_probe(bool zerocopy, char **cause);

/*
 * Whether SENDMSG_ZC can send a vector from registered buffers (Linux 6.15
 * and later); false with *cause (caller frees) saying why not.
 */
bool uring_fixed_vector(char **cause);

/*
 * A ring whose completion queue holds cq_entries (room for everything that
 * can be owed at once), with the flags that spare the kernel interrupting
 * the thread for task work; an older kernel that refuses those flags gets
 * the queue alone.  0 or -errno; *features (may be NULL): the kernel's
 * IORING_FEAT_* bits.
 */
int uring_ring_init(struct io_uring *ring, unsigned int cq_entries,
		    unsigned int *features);

/* What uring_tx_open() and uring_rx_open() will allocate for messages. */
size_t uring_tx_memory(const struct strategy_params *params, bool zerocopy);
size_t uring_rx_memory(const struct strategy_params *params);

int uring_tx_open(const struct strategy_params *params, bool zerocopy,
		  void **tx);
int uring_tx_slot(void *tx, struct message **msg);
int uring_tx_send(void *tx, struct message *msg);
int uring_tx_drain(void *tx);
void uring_tx_close(void *tx);

int uring_rx_open(const struct strategy_params *params, void **rx);
int uring_rx_recv(void *rx, struct message **msg);
void uring_rx_close(void *rx);

#endif
