/*
 * one-copy: the user-space serialization is gone.  sendmsg() gathers the
 * message's fields (--fields, eight by default) through an iovec and
 * recvmsg() scatters straight into them, so the only copies left are the
 * kernel's own.  The path itself lives in scatter.c, which zero-copy's
 * receiver shares.
 */
#include "scatter.h"
#include "strategy.h"

const struct strategy_ops strategy_one_copy = {
	.name = "one-copy",
	.summary = "sendmsg() and recvmsg() with an iovec entry per field",
	.tx_open = scatter_open,
	.tx_slot = scatter_tx_slot,
	.tx_send = scatter_tx_send,
	.tx_close = scatter_close,
	.rx_open = scatter_open,
	.rx_recv = scatter_rx_recv,
	.rx_close = scatter_close,
	.path =
		{
			{"sender: {fields} message fields on the heap",
			 "sendmsg({fields}-entry iovec): "
			 "the kernel gathers them into socket buffers",
			 "copy_send", NULL},
			{"kernel: the sender's TCP socket buffer (skbs)",
			 "veth pair: the skb moves to the other namespace",
			 NULL, NULL},
			{"kernel: the receiver's TCP queue",
			 "recvmsg({fields}-entry iovec): "
			 "the kernel scatters into the fields",
			 "copy_receive", NULL},
			{"receiver: {fields} message fields on the heap", NULL,
			 NULL, NULL},
		},
};
