/*
 * The measured window when the loop ticks late: on a busy machine the front
 * end's loop can be woken half a second after the warm-up's end.  The window
 * must then start at that late tick and still last its whole duration, not
 * start at its planned end and measure nothing.  A real one-copy run over a
 * private loopback, ticked by hand; needs root for the namespace (77
 * otherwise).
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "clock.h"
#include "run.h"
#include "run_go.h"
#include "tap.h"
#include "topo.h"

/*
 * The warm-up is long enough that a loaded machine's scheduler, which may
 * hold this thread back for tens of milliseconds, still finds the run in
 * it.  The late tick comes half a second after its end, past the window's
 * plan, and 300 ms short of a second, which the run takes for a stop
 * (STALL_NS) and answers by starting the warm-up again.
 */
enum { WARMUP_MS = 200, DURATION_MS = 250, LATE_MS = 700 };

/* Ticks as a loop would, until the run is done or for at most ms. */
static bool tick_until_done(struct run *run, int ms)
{
	uint64_t give_up = clock_now_ns() + (uint64_t)ms * 1000000ull;

	while (clock_now_ns() < give_up) {
		struct pollfd pfd = {.fd = run_event_fd(run), .events = POLLIN};

		poll(&pfd, 1, 10);
		if (run_tick(run, clock_now_ns()))
			return true;
	}
	return false;
}

int main(void)
{
	struct topo_options options;
	struct run_result result;
	struct topo topo;
	struct run *run;
	char *cause = NULL;
	bool warmup;

	topo_options_default(&options);
	options.kind = TOPO_LOOPBACK;
	if (getuid() != 0 || topo_create(&options, &topo, &cause) < 0) {
		printf("1..0 # SKIP needs root for a private namespace\n");
		free(cause);
		return 77;
	}
	struct run_config config = {
		.strategy = &strategy_one_copy,
		.msg_size = 4096,
		.threads = 1,
		.settings = {.duration_ms = DURATION_MS,
			     .warmup_ms = WARMUP_MS,
			     .slots = 16,
			     .uring_depth = 8},
	};
	/* The clock starts once every thread is ready, as the loop ticks. */
	if (run_go_by_hand(&config, &topo, &run, &cause) < 0) {
		ok(false, "run_start: %s", cause);
		free(cause);
		topo_destroy(&topo);
		return tap_done();
	}
	(void)run_elapsed_s(run, clock_now_ns(), &warmup);
	ok(warmup, "the run starts in its warm-up");

	/* The loop sleeps past the warm-up's end and the window's plan. */
	poll(NULL, 0, LATE_MS);
	ok(!run_tick(run, clock_now_ns()),
	   "a tick %d ms late ends the warm-up, not the run", LATE_MS);
	(void)run_elapsed_s(run, clock_now_ns(), &warmup);
	ok(!warmup, "the window is open after the late tick");
	/* A deadline that only bounds a failure: a loaded machine is slow. */
	ok(tick_until_done(run, 30000), "the run ends after its window");
	run_finish(run, &result);

	ok(result.error == NULL, "no error (%s)",
	   result.error ? result.error : "none");
	ok(result.measured_s >= DURATION_MS / 1000.0,
	   "the window lasted its %d ms from the late tick: %.3f s",
	   DURATION_MS, result.measured_s);
	ok(run_result_msgs_per_s(&result) > 0 &&
		   result.totals.bytes_received > 0,
	   "messages arrived in it: %.0f /s", run_result_msgs_per_s(&result));
	ok(result.totals.bytes_received == result.totals.bytes_sent,
	   "bytes received == bytes sent (%llu)",
	   (unsigned long long)result.totals.bytes_received);
	run_result_fini(&result);
	topo_destroy(&topo);
	return tap_done();
}
