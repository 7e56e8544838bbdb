/*
 * A point: what sets one measured configuration apart from another -- the
 * mode, the strategy, the receive side, the links' and sockets' knobs, the
 * message size and the flows.  The analysis groups runs by it, a figure
 * draws a line across the points that differ only in size or flows, and
 * every report names it by the same label.  A comparison or a label takes
 * the parts it asks for (POINT_*): a chart's line is a point without its
 * size, a figure's scope a point without its strategy.
 */
#ifndef NIO_TOP_POINT_H
#define NIO_TOP_POINT_H

#include <stdbool.h>
#include <stddef.h>

#include "run.h"

struct point_key {
	enum run_mode mode;
	const struct strategy_ops *strategy;
	enum rx_mode rx;
	struct settings_stack stack; /* the links' and sockets' knobs */
	size_t msg_size;
	unsigned int threads; /* flows */
};

/* The parts of a point a comparison or a label takes. */
enum point_part {
	POINT_MODE = 1u << 0,
	POINT_STRATEGY = 1u << 1,
	POINT_RX = 1u << 2,
	POINT_STACK = 1u << 3,
	POINT_SIZE = 1u << 4,
	POINT_FLOWS = 1u << 5,
	/* A line of a chart: one strategy, receive side and set of knobs. */
	POINT_LINE = POINT_STRATEGY | POINT_RX | POINT_STACK,
	POINT_ALL = POINT_MODE | POINT_LINE | POINT_SIZE | POINT_FLOWS,
	/* In a label only: the size as the screen writes it, "4 KiB". */
	POINT_SIZE_IEC = 1u << 6,
};

/* The point a run's configuration measures. */
struct point_key point_key_of(const struct run_config *c);

/* Whether a and b agree in every part of parts (POINT_*). */
bool point_key_equal(const struct point_key *a, const struct point_key *b,
		     unsigned int parts);

/*
 * The parts of k, in this order: "one-copy 4K x2 stream rx-trunc (bound)
 * gso 185000" (strategy, size, flows, mode, receive side's tag, knobs).
 */
void point_key_label(const struct point_key *k, unsigned int parts, char *out,
		     size_t size);

#endif
