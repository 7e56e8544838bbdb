/*
 * uring: the one-copy data path (an 8-entry iovec each way) driven through
 * io_uring: SENDMSG and RECVMSG requests submitted in batches of
 * --uring-depth messages, so one system call moves many messages.
 */
#include "strategy.h"
#include "uring_path.h"

static int uring_copy_probe(char **cause)
{
	return uring_probe(false, cause);
}

static size_t uring_copy_tx_memory(const struct strategy_params *params)
{
	return uring_tx_memory(params, false);
}

static int uring_copy_tx_open(const struct strategy_params *params, void **tx)
{
	return uring_tx_open(params, false, tx);
}

const struct strategy_ops strategy_uring = {
	.name = "uring",
	.summary = "io_uring SENDMSG and RECVMSG over the 8-entry iovec, "
		   "batched submissions",
	.probe = uring_copy_probe,
	.tx_memory = uring_copy_tx_memory,
	.rx_memory = uring_rx_memory,
	.tx_open = uring_copy_tx_open,
	.tx_slot = uring_tx_slot,
	.tx_send = uring_tx_send,
	.tx_drain = uring_tx_drain,
	.tx_close = uring_tx_close,
	.rx_open = uring_rx_open,
	.rx_recv = uring_rx_recv,
	.rx_close = uring_rx_close,
	.path =
		{
			{"sender: 8 message fields on the heap",
			 "IORING_OP_SENDMSG: the kernel gathers them into "
			 "socket "
			 "buffers",
			 true},
			{"kernel: the sender's TCP socket buffer (skbs)",
			 "veth pair: the skb moves to the other namespace",
			 false},
			{"kernel: the receiver's TCP queue",
			 "IORING_OP_RECVMSG: the kernel scatters into the "
			 "fields",
			 true},
			{"receiver: 8 message fields on the heap", NULL, false},
		},
};
