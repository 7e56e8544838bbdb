/*
 * uring-zc: zero-copy sends through io_uring, SENDMSG_ZC one request per
 * batch (with --uring-fixed from registered buffers, where the kernel can
 * send a vector from them).  Each request's notification CQE releases its
 * message slots, with no error queue to read; IORING_SEND_ZC_REPORT_USAGE
 * makes every notification say whether the kernel copied anyway.  Receives
 * as uring.
 */
#include "strategy.h"
#include "uring_path.h"

bool strategy_uring_fixed_vector(char **cause)
{
	return uring_fixed_vector(cause);
}

static int uring_zc_probe(char **cause)
{
	return uring_probe(true, cause);
}

static size_t uring_zc_tx_memory(const struct strategy_params *params)
{
	return uring_tx_memory(params, true);
}

static int uring_zc_tx_open(const struct strategy_params *params, void **tx)
{
	return uring_tx_open(params, true, tx);
}

const struct strategy_ops strategy_uring_zc = {
	.name = "uring-zc",
	.summary = "io_uring SENDMSG_ZC per batch (from registered buffers "
		   "with --uring-fixed), notification CQEs with the copy "
		   "report; receives as uring",
	.zerocopy = true,
	.uring = true,
	.descriptors = 1,
	.probe = uring_zc_probe,
	.tx_memory = uring_zc_tx_memory,
	.rx_memory = uring_rx_memory,
	.tx_open = uring_zc_tx_open,
	.tx_slot = uring_tx_slot,
	.tx_send = uring_tx_send,
	.tx_drain = uring_tx_drain,
	.tx_close = uring_tx_close,
	.rx_open = uring_rx_open,
	.rx_recv = uring_rx_recv,
	.rx_close = uring_rx_close,
	.path =
		{
			{"sender: {fields} message fields, "
			 "pinned until notified",
			 "IORING_OP_SENDMSG_ZC: "
			 "the kernel pins the pages, no copy",
			 NULL, "pin"},
			{"kernel: skbs that point at the sender's pages",
			 "veth to a local socket: the kernel copies the pinned "
			 "pages at delivery (reported in the notification)",
			 "copy_deferred", NULL},
			{"kernel: the receiver's TCP queue",
			 "IORING_OP_RECVMSG: "
			 "the kernel scatters into the fields",
			 "copy_receive", NULL},
			{"receiver: {fields} message fields on the heap", NULL,
			 NULL, NULL},
		},
};
