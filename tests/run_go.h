/*
 * For the C tests that drive a real run by hand: starts it and ticks it as a
 * front end's loop would until its clock starts (every thread ready).
 */
#ifndef NIO_TOP_TEST_RUN_GO_H
#define NIO_TOP_TEST_RUN_GO_H

#include <poll.h>

#include "clock.h"
#include "run.h"

/* 0 with *run going, or what run_start() returned, with *cause. */
static inline int run_go_by_hand(const struct run_config *config,
				 struct topo *topo, struct run **run,
				 char **cause)
{
	int r = run_start(config, topo, NULL, run, cause);

	if (r < 0)
		return r;
	while (!run_started(*run)) {
		struct pollfd pfd = {.fd = run_event_fd(*run),
				     .events = POLLIN};

		poll(&pfd, 1, 100);
		run_tick(*run, clock_now_ns());
	}
	return 0;
}

#endif
