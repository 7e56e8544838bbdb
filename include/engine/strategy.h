/*
 * A strategy is one way of moving a message through a TCP connection: how the
 * sender hands the message's fields to the kernel and how the receiver gets
 * them back.  Each strategy is a file in src/engine/strategies/ that exports
 * one const struct strategy_ops; the registry lists them, and the worker
 * drives them.
 */
#ifndef NIO_TOP_STRATEGY_H
#define NIO_TOP_STRATEGY_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "message.h"
#include "settings.h"

/* The engine's own: what each end counts (flow_stats.h, private). */
struct flow_stats;

#define STRATEGY_SLOTS_MIN	     16
#define STRATEGY_SLOTS_MAX	     4096
#define STRATEGY_URING_DEPTH_DEFAULT 8
#define STRATEGY_URING_DEPTH_MAX     256
#define STRATEGIES_MAX		     16

/* What one end of a flow is given. */
struct strategy_params {
	int fd;
	size_t msg_size;
	/* One request, one answer: nothing may wait for a batch to fill. */
	bool request_response;
	const struct run_settings *settings;
	struct flow_stats *stats;
	/*
	 * The sender's view of its receiver: the whole messages it has read,
	 * or NULL when the receiver runs on another host.
	 */
	const _Atomic uint64_t *delivered;
};

/*
 * One stage of a message's path, and how it gets to the next stage.  The
 * texts may say "{fields}" where a run's field count goes
 * (strategy_step_text).
 */
struct strategy_step {
	const char *stage;
	const char *move; /* NULL on the last stage */
	/*
	 * The move copies the payload: the role (role.h) whose functions
	 * make that copy, "copy_send"; NULL where it copies nothing.
	 */
	const char *copy;
	/*
	 * The other roles whose work the move is, space separated ("pin
	 * pipe": vmsplice takes references to the pages into a pipe), or
	 * whose absence its words claim ("copy_deferred" under a delivery
	 * said not to copy): the data path says their measured shares
	 * under it, as the gauges do; NULL: none.
	 */
	const char *roles;
};

#define STRATEGY_STEPS_MAX 8

struct strategy_ops {
	const char *name;
	const char *summary;
	bool zerocopy; /* keeps the zero-copy accounting block */
	bool uring;    /* keeps the io_uring block */
	/*
	 * Reuses a slot once the receiver has read it (sendfile, splice): the
	 * receiver must be a thread of this process, not on another host.
	 */
	bool local_receiver;
	/*
	 * What a poll or a sleep of its sender, and of its receiver, waits
	 * for: a reason's key (reason.h), since the kernel's frames of a poll
	 * say only that it polls; NULL: it neither polls nor sleeps.
	 */
	const char *tx_waits;
	const char *rx_waits;
	/* Descriptors each end holds besides its socket (an io_uring's). */
	unsigned int descriptors;
	/* The data path from the sender's fields to the receiver's. */
	struct strategy_step path[STRATEGY_STEPS_MAX];

	/* 0 if the machine can run it, else -errno and a cause; may be NULL. */
	int (*probe)(char **cause);
	/*
	 * The bytes of buffers one end allocates for params, known before it
	 * opens (an agent checks a client's run against its budget); NULL:
	 * one message.
	 */
	size_t (*tx_memory)(const struct strategy_params *params);
	size_t (*rx_memory)(const struct strategy_params *params);

	int (*tx_open)(const struct strategy_params *params, void **tx);
	/* The slot to fill with the next message; waits for one to be free. */
	int (*tx_slot)(void *tx, struct message **msg);
	/* Sends msg: how many messages are now wholly with the kernel. */
	int (*tx_send)(void *tx, struct message *msg);
	/*
	 * Finishes every message sent; returns how many it finished.  NULL:
	 * a sent message is wholly with the kernel, nothing is left to finish.
	 */
	int (*tx_drain)(void *tx);
	void (*tx_close)(void *tx);

	int (*rx_open)(const struct strategy_params *params, void **rx);
	/* 1 with *msg filled, 0 at a clean end of stream, or -errno. */
	int (*rx_recv)(void *rx, struct message **msg);
	void (*rx_close)(void *rx);
};

extern const struct strategy_ops strategy_two_copy;
extern const struct strategy_ops strategy_one_copy;
extern const struct strategy_ops strategy_zero_copy;
extern const struct strategy_ops strategy_uring;
extern const struct strategy_ops strategy_uring_zc;
extern const struct strategy_ops strategy_sendfile;
extern const struct strategy_ops strategy_splice;

/*
 * Whether --rx uring's requests fill several buffers per completion here
 * (bundles, Linux 6.10 and later); false with *cause (caller frees).
 */
bool strategy_rx_uring_bundle(char **cause);

/* Why settings' receive side cannot run with the rest of them, or NULL. */
const char *strategy_rx_refusal(const struct run_settings *s);

/* The receive side of rx, or NULL for copy (each strategy's own). */
const struct strategy_ops *strategy_rx_ops(enum rx_mode rx);

/*
 * Whether uring-zc --uring-fixed can send a batch from registered buffers
 * here (SENDMSG_ZC with IORING_RECVSEND_FIXED_BUF); false with *cause.
 */
bool strategy_uring_fixed_vector(char **cause);

/* A step's text with "{fields}" replaced by fields, into out. */
void strategy_step_text(const char *text, unsigned int fields, char *out,
			size_t size);

/* The ops whose receive side a run with settings uses. */
const struct strategy_ops *strategy_receiver(const struct strategy_ops *ops,
					     const struct run_settings *s);

/* The fields of each message of params (--fields). */
static inline unsigned int strategy_fields(const struct strategy_params *params)
{
	return params->settings->fields ? params->settings->fields
					: MESSAGE_FIELDS_DEFAULT;
}

/*
 * The message slots of a sender that must keep messages until the kernel is
 * done with them: --slots, or (0) as many as a full send buffer holds --
 * the most TCP lets be in flight, tcp_wmem's max / message size, one more
 * for the message being written -- at least STRATEGY_SLOTS_MIN.
 */
unsigned int strategy_slots(const struct run_settings *settings,
			    size_t msg_size);

/*
 * The fewest bytes a sender of ops leaves unread whenever it waits for its
 * receiver (sendfile's and splice's slots are rewritten only once read:
 * every slot but the one being read, and 1 with a single slot), or 0: no
 * such wait (the others wait for the kernel, not the reader).
 */
size_t strategy_unread_least(const struct strategy_ops *ops,
			     const struct strategy_params *params);

size_t strategy_count(void);
const struct strategy_ops *strategy_at(size_t index);
const struct strategy_ops *strategy_find(const char *name);
/* Its place in the registry (the order every list shows them in). */
size_t strategy_index(const struct strategy_ops *ops);

/* What one end of a flow allocates for its buffers (sender or receiver). */
size_t strategy_memory(const struct strategy_ops *ops,
		       const struct strategy_params *params, bool sender);

/* 0 if available; else -errno and *cause (caller frees). */
int strategy_probe(const struct strategy_ops *ops, char **cause);

#endif
