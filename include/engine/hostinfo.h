/*
 * What machine a run happened on and what it can do: the facts that --check
 * prints and an export carries, so that its numbers can be read in context.
 * Every capability is found by trying it, not guessed, once per session.
 */
#ifndef NIO_TOP_HOSTINFO_H
#define NIO_TOP_HOSTINFO_H

#include <stdbool.h>

#include "counters.h"
#include "record.h"
#include "strategy.h"

struct capability {
	bool available;
	char reason[192]; /* why not, when unavailable */
};

struct host_info {
	char hostname[65];
	char kernel[65];
	char cpu_model[128];
	unsigned int cpus;
	struct capability netns;
	struct capability veth;
	struct capability tbf;
	struct capability netem;
	struct capability rx_zerocopy; /* TCP_ZEROCOPY_RECEIVE */
	struct capability rx_uring;    /* multishot receive, buffer ring */
	struct capability rx_bundle;   /* several buffers per completion */
	struct capability uring_fixed; /* SENDMSG_ZC from registered buffers */
	struct capability profile;     /* cpu-clock samples, kernel chains */
	double veth_setup_ms;	       /* of the probe's topology */
	double veth_teardown_ms;
	/* The events asked for, tried on this thread. */
	unsigned int event_count;
	char event_name[COUNTERS_MAX][48];
	struct counter_value event[COUNTERS_MAX];
	struct capability pmu; /* a hardware event counted */
	/* Each strategy of the registry, in its order. */
	struct capability strategy[STRATEGIES_MAX];
};

/* hostname (optional: older files lack it), kernel, cpu_model, cpus */
extern const struct record host_info_record;
/* available, reason */
extern const struct record capability_record;

/* Tries everything; events NULL: counters are off. */
void host_info_read(struct host_info *host, const struct counter_set *events);

#endif
