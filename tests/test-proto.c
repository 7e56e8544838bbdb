/*
 * What an agent's report may claim: its rates over its measured window
 * cannot exceed what its totals hold.  A Gbit/s of 1e300 is refused naming
 * the figure; honest figures, unknown ones and an empty window pass.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"
#include "tap.h"

static int check(double gbps, double msgs_per_s, double measured_s,
		 char **cause)
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
	return proto_check_result(&t, &d, measured_s, cause);
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
	return tap_done();
}
