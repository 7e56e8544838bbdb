/*
 * Receive sides: how a run's receivers take the bytes in (--rx), each a
 * row of ops that says everything the layers above show of it -- its name,
 * its tag after a strategy's name, its words in the analysis, its data path,
 * its own counters and what they say -- so that no code above the engine
 * asks which side a run used.  A side is a file in strategies/receive/ and
 * one entry of RX_SIDES (settings.h); its enum rx_mode is its index.
 */
#ifndef NIO_TOP_RX_SIDE_H
#define NIO_TOP_RX_SIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record.h"
#include "settings.h"
#include "strategy.h"

/* The counters one receive side may keep: run_totals.rx_side[]. */
#define RX_COUNTERS_MAX 8

/* What a side's counters say, and of which run. */
struct rx_side_said {
	const struct strategy_ops *sender;
	const uint64_t *counter; /* the side's, in its record's order */
	bool why;		 /* the long form: with the kernel's reasons */
};

struct rx_side {
	const char *name;  /* the --rx word: "zerocopy" */
	const char *tag;   /* after a strategy's name: " rx-zc"; "" for copy */
	const char *words; /* in the analysis: " with zero-copy receive" */
	/* Each strategy's own receiver: the rung the others are set against. */
	bool own;
	/* A bound, not a receiver: no one reads the bytes (a table says so). */
	bool bound;
	/* Its receiver, whatever the sender; NULL: the sender's own. */
	const struct strategy_ops *ops;
	/*
	 * Its counters, fields of struct run_totals in rx_side[] keyed by
	 * their block in an export ("uring_rx.requests"), and that block's
	 * name ("uring_rx"); NULL: none.
	 */
	const struct record *counters;
	const char *block;
	/*
	 * What its counters say after "rx NAME: " (false: nothing yet), and
	 * as one cell of a comparison, with its row's label; NULL: nothing.
	 */
	bool (*said)(const struct rx_side_said *in, char *out, size_t size);
	const char *cell_label;
	bool (*cell)(const uint64_t *counter, char *out, size_t size);
	/*
	 * Its steps under a sender, from the receiver's queue on; NULL: its
	 * ops' path.  A note for the data path under a sender (false: none);
	 * may be NULL.
	 */
	const struct strategy_step *(*path)(const struct strategy_ops *sender);
	bool (*note)(const struct strategy_ops *sender, char *out, size_t size);
	/* Why it cannot run with settings, or NULL; may be NULL. */
	const char *(*refusal)(const struct run_settings *s);
};

#define RX_SIDE_EXTERN(upper, lower)                                           \
	extern const struct rx_side rx_side_##lower;
RX_SIDES(RX_SIDE_EXTERN)
#undef RX_SIDE_EXTERN

/* The side of rx (enum rx_mode), or copy's for an index out of range. */
const struct rx_side *rx_side_of(enum rx_mode rx);

/*
 * A run's whole data path: its strategy's steps up to the receiver's queue,
 * then the receive side's (steps of at most STRATEGY_STEPS_MAX): their
 * count, and in *queue (may be NULL) the receiver's queue's step, from
 * which on the moves are the receiver's.
 */
int rx_side_path(const struct strategy_ops *sender, enum rx_mode rx,
		 struct strategy_step path[STRATEGY_STEPS_MAX], int *queue);

/* What a run's receive side's counters say (false: nothing), as said(). */
bool rx_side_say(enum rx_mode rx, const struct strategy_ops *sender,
		 const uint64_t counter[RX_COUNTERS_MAX], bool why, char *out,
		 size_t size);

#endif
