/*
 * What machine a run happened on and what it can do: the facts that --check
 * prints and an export carries, so that its numbers can be read in context.
 * Every capability is found by trying it, not guessed.
 */
#ifndef NIO_TOP_HOSTINFO_H
#define NIO_TOP_HOSTINFO_H

#include <stdbool.h>

#include "counters.h"

struct capability {
	bool available;
	char reason[192]; /* why not, when unavailable */
};

struct host_info {
	char kernel[65];
	char cpu_model[128];
	long cpus;
	struct capability netns;
	struct capability veth;
	struct capability tbf;
	struct capability netem;
	double veth_setup_ms; /* of the probe's topology */
	double veth_teardown_ms;
	/* The events asked for, tried on this thread; NULL: none. */
	const struct counter_set *events;
	struct counter_value event[COUNTERS_MAX];
	struct capability pmu; /* a hardware event counted */
};

void host_info_read(struct host_info *host, const struct counter_set *events);

#endif
