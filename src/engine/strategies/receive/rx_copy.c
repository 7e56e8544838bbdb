/*
 * --rx copy: each strategy's own receiver, the rung every other receive side
 * is set against.  It keeps no counters of its own.
 */
#include "rx_side.h"

const struct rx_side rx_side_copy = {
	.name = "copy",
	.tag = "",
	.words = " with copy receive",
	.own = true,
};
