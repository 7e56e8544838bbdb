/*
 * The probe (--probe RATE[,SIZE]): an isochronous request/response flow of
 * its own beside a run's load -- its own connection over the same network,
 * plain send() and recv() with TCP_NODELAY whatever the load's strategy.
 * Its requester sends a request of SIZE bytes on a schedule, every
 * 1/RATE s, not after the last answer (as irtt does), and times each round
 * trip into the log-linear histogram rr uses; its answerer sends each
 * request back at once.  A send later than a tenth of the period is
 * counted late; a requester woken late sends the slots it owes one after
 * another, the newest PROBE_OWED_MAX of them, and skips older ones: the
 * probe's own timer error, reported.
 *
 * A run with a probe measures it alone first (idle: the load's threads
 * are ready and wait) unless it is given the idle figures of an earlier run
 * with the same probe (probe_key), then under the load over the same
 * measured window as the load's figures.
 */
#ifndef NIO_TOP_PROBE_H
#define NIO_TOP_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "latency.h"
#include "record.h"
#include "settings.h"

/*
 * The slots a requester woken late still sends, one after another: the
 * CPUs the load keeps busy hand it back a scheduler's slice (1.5 to 3 ms)
 * late, 3 to 6 slots at 2000/s.  Older ones are skipped.
 */
#define PROBE_OWED_MAX 8

/* What the probe did over one window: alone (idle), or under the load. */
struct probe_summary {
	struct latency_summary rtt; /* the round trips that ended in it */
	uint64_t sent;		    /* requests sent in it */
	uint64_t late;		    /* of them, sent a tenth of a period late */
	uint64_t skipped;	    /* slots passed by a late requester */
	double measured_s;
	/*
	 * Round trips a minute, 60 s over the mean round trip: the IETF's
	 * responsiveness (RPM) of this probe's own; NaN with none.
	 */
	double per_minute;
};

/*
 * A window's figures besides its round trips ("sent", "late", "skipped",
 * "measured_s", "per_minute"); the round trips are latency_summary_record's
 * ("round_trips", "p50" ... "mean") in the same object.
 */
extern const struct record probe_window_record;

/* The probe of one run, as its result holds it. */
struct run_probe {
	bool present; /* the run had a probe */
	struct probe_summary idle;
	/* idle is an earlier run's, with the same probe_key, not its own */
	bool idle_reused;
	struct probe_summary loaded;
	/*
	 * Over the probe's whole life, on both ends: requests sent, answered
	 * by the answerer, and round trips the requester timed -- equal once
	 * it ended cleanly.
	 */
	uint64_t sent;
	uint64_t answered;
	uint64_t round_trips;
	/* The CPUs its threads were pinned to, -1: none. */
	int requester_cpu;
	int answerer_cpu;
};

/*
 * "idle_reused", "sent", "answered", "round_trips", "requester_cpu",
 * "answerer_cpu"; the windows are "idle" and "loaded" beside them.
 */
extern const struct record run_probe_record;

/* What makes one probe's idle figures another's: everything it runs with. */
struct probe_key {
	struct probe_settings probe;
	int requester_cpu;
	int answerer_cpu;
	struct settings_stack links; /* BIG TCP's sizes and GRO only */
};

/*
 * The probe's key in a run of s with flows flows: where its threads go
 * (--probe-cpu against --pin) and the links' knobs.  0, or -EINVAL with
 * *cause (caller frees) when no CPU is left for it.
 */
int probe_key_of(const struct run_settings *s, unsigned int flows,
		 struct probe_key *out, char **cause);
bool probe_key_equal(const struct probe_key *a, const struct probe_key *b);

/*
 * How long the probe runs alone: the run's duration within 1 .. 10 s, 5 s
 * for a run with no end of its own; after a warm-up as long as the run's.
 */
uint64_t probe_idle_ms(const struct run_settings *s);

/*
 * Whether a window's figures hold together (from a file): the round trips
 * as latency_summary_check() has them over span_s, no more late than sent,
 * no more round trips than sent and those in flight as the window began
 * (the rate over the longest round trip, and the slots a late requester
 * owed), no more sent than the rate allows in span_s.  0, or -EINVAL with *cause
 * naming the key.
 */
int probe_summary_check(const struct probe_summary *s,
			const struct probe_settings *settings, double span_s,
			char **cause);

extern const char *const probe_cpu_names[];

#endif
