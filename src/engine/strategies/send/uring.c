/*
 * uring: the one-copy data path (an iovec over the fields each way) driven
 * through io_uring: one SENDMSG and one RECVMSG request per batch of
 * --uring-depth messages, each submitted and waited for in one system call.
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
	.summary = "io_uring SENDMSG and RECVMSG, one request per batch of "
		   "messages (their fields in one iovec)",
	.uring = true,
	.descriptors = 1,
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
			{"sender: the message fields",
			 "IORING_OP_SENDMSG (a batch per request): the kernel "
			 "gathers them into socket buffers",
			 "copy_send", NULL},
			{"kernel: the sender's TCP socket buffer (skbs)",
			 "veth pair: the skb moves to the other namespace",
			 NULL, NULL},
			{"kernel: the receiver's TCP queue",
			 "IORING_OP_RECVMSG: "
			 "the kernel scatters into the fields",
			 "copy_receive", NULL},
			{"receiver: the message fields on the heap", NULL, NULL,
			 NULL},
		},
};
