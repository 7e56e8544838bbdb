/*
 * What an agent's report may claim: its rates over its measured window
 * cannot exceed what its totals hold, nor its round trips the window.  A
 * Gbit/s of 1e300 and a p50 of 172 s in a 1 s run are refused naming the
 * figure; honest figures, unknown ones and an empty window pass.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"
#include "tap.h"

static int check_rtt(double gbps, double msgs_per_s, double measured_s,
		     const struct latency_hist *rtt, char **cause)
{
	struct run_totals t = {.bytes_sent = 1000000000,
			       .bytes_received = 1000000000,
			       .messages_sent = 1000,
			       .messages_received = 1000};
	struct metric_values d;

	metric_values_unknown(&d);
	d.value[metric_find("gbps")] = gbps;
	d.value[metric_find("msgs_per_s")] = msgs_per_s;
	*cause = NULL;
	return proto_check_result(&t, &d, measured_s, 0, rtt, 1, cause);
}

static int check(double gbps, double msgs_per_s, double measured_s,
		 char **cause)
{
	return check_rtt(gbps, msgs_per_s, measured_s, NULL, cause);
}

int main(void)
{
	char *cause;
	int r;

	/* 1 GB and 1000 messages in 1 s: 8 Gbit/s, 1000 msg/s. */
	r = check(8.0, 1000, 1.0, &cause);
	ok(r == 0, "the totals' own rates pass (%s)", cause ? cause : "ok");
	free(cause);
	r = check(1e300, 1000, 1.0, &cause);
	ok(r == -EPROTO && cause &&
		   strstr(cause, "derived.gbps 1e+300 over 1 s is more than "
				 "its totals hold"),
	   "a Gbit/s of 1e300 is refused, named (%s)", cause);
	free(cause);
	r = check(8.0, 5000, 1.0, &cause);
	ok(r == -EPROTO && cause && strstr(cause, "derived.msgs_per_s 5000"),
	   "five times the messages the totals hold is refused (%s)", cause);
	free(cause);
	r = check(9.0, 1000, 1.0, &cause);
	ok(r == -EPROTO, "12%% more bytes than the totals is refused");
	free(cause);
	r = check(NAN, NAN, 1.0, &cause);
	ok(r == 0, "unknown figures pass");
	free(cause);
	r = check(1e300, 1e300, 0, &cause);
	ok(r == 0, "no window: nothing to hold a rate against");
	free(cause);

	/* 1000 round trips of 0.5 ms in 1 s fit; of 172 s each, not. */
	struct latency_hist rtt = {.count = 1000, .sum_ns = 500000000};

	r = check_rtt(8.0, 1000, 1.0, &rtt, &cause);
	ok(r == 0, "round trips that fit in the window pass");
	free(cause);
	rtt.sum_ns = 1000 * 172000000000ull;
	r = check_rtt(8.0, 1000, 1.0, &rtt, &cause);
	ok(r == -EPROTO && cause &&
		   strstr(cause, "latency: 1000 round trips that add up to "
				 "1.72e+05 s do not fit in 1 s of 1 flow"),
	   "a p50 of 172 s in a 1 s run is refused (%s)", cause);
	free(cause);
	rtt = (struct latency_hist){
		.count = 1000, .sum_ns = 500000000, .max_ns = 172000000000ull};
	r = check_rtt(8.0, 1000, 1.0, &rtt, &cause);
	ok(r == -EPROTO && cause &&
		   strstr(cause, "latency: a round trip of 172 s in a window "
				 "of 1 s"),
	   "a max of 172 s in a 1 s run is refused (%s)", cause);
	free(cause);
	return tap_done();
}
