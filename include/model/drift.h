/*
 * How far a figure's level moves between two studies, beyond what their
 * runs and intervals spread within each: the drift a comparison of two
 * studies (--diff, --baseline, --load OLD NEW) adds to each side's
 * variance (stats.h).  The defaults are what bench/gate.sh measured on
 * these machines from A/A pairs, a study and the same study again a minute
 * later; --drift sets it for every figure or for some.
 */
#ifndef NIO_TOP_DRIFT_H
#define NIO_TOP_DRIFT_H

#include <stddef.h>

#include "rules.h"

/*
 * The drift of a figure (key as --gate names it: "gbps", "cpu_pct",
 * "p99_us"; side "sender", "receiver" or NULL where delivered) as a
 * relative SD (0.04): the last of given[] that names it, or names every
 * figure; else its default.
 */
double drift_of(const struct drift_rule *given, size_t count, const char *key,
		const char *side);

#endif
