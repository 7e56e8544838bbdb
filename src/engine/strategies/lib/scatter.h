/*
 * Scatter-gather I/O over the fields of a message: whole-message send
 * and receive loops that resume after partial transfers, and the one-copy
 * path built on them (sendmsg from and recvmsg into the fields), whose
 * receive side zero-copy shares.
 */
#ifndef NIO_TOP_SCATTER_H
#define NIO_TOP_SCATTER_H

#include <stddef.h>
#include <sys/uio.h>

#include "strategy.h"

/* Drops the first n bytes of the vector, moving *iov and *iovcnt on. */
void scatter_advance(struct iovec **iov, int *iovcnt, size_t n);

/*
 * Joins pieces that touch in memory (one ends where the next begins), in
 * place: the new count.
 */
int scatter_join(struct iovec *iov, int iovcnt);

/* Sends every byte described by iov (the array is consumed): 0 or -errno. */
int scatter_send_all(int fd, struct iovec *iov, int iovcnt, int flags);

/*
 * Receives exactly the bytes described by iov: 1 when full, 0 on end of stream
 * before the first byte, -EPROTO on end of stream inside it, or -errno.
 */
int scatter_recv_all(int fd, struct iovec *iov, int iovcnt);

/* One end of a one-copy connection: its socket and one message. */
int scatter_open(const struct strategy_params *params, void **state);
void scatter_close(void *state);
int scatter_tx_slot(void *tx, struct message **msg);
int scatter_tx_send(void *tx, struct message *msg);
int scatter_rx_recv(void *rx, struct message **msg);

#endif
