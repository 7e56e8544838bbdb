/*
 * A run's parts (run.h) and what they share: the run itself, and the calls
 * one part makes into another.  The run's life is run.c; connecting its
 * flows run_connect.c; what it needs of the host run_resources.c; reading
 * its flows run_sample.c; the profile and the intervals it samples
 * run_slices.c; the far end's view merged into its own run_far.c; its
 * result run_result.c (which ends the run: it calls run.c).  No two of
 * them call each other.  The engine's own: no layer above includes it.
 */
#ifndef NIO_TOP_RUN_PRIVATE_H
#define NIO_TOP_RUN_PRIVATE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "probe_flow.h"
#include "run.h"
#include "timeline.h"
#include "worker.h"

enum run_state {
	RUN_STARTING, /* the threads get ready; the clock has not started */
	RUN_WARMUP,
	RUN_MEASURE,
	RUN_STOPPING,
	RUN_DONE,
};

struct run {
	struct run_config config;
	const struct topo *topo;
	bool has_link;
	struct topo_link_stats link_before;
	/*
	 * The links' knobs (BIG TCP, GRO): as the run found them, to be put
	 * back when it goes if it set them (stack_set), and as it ran.
	 */
	struct topo_stack stack_before[2];
	struct topo_stack stack[2];
	bool has_stack;
	bool stack_set;
	enum run_state state;
	atomic_bool stop;
	struct worker_gate gate; /* where the threads wait for the clock */
	uint64_t ready_deadline_ns;
	bool measure_at_start; /* paced: "measure" came while starting */
	int done_fd;
	unsigned int threads; /* started, i.e. expected to end */
	unsigned int threads_ended;
	bool connections_cut;
	uint64_t cut_ns;
	/* The host running the flows' other ends, or NULL. */
	const struct run_far_end *far;

	struct worker_flow *flows;
	unsigned int flow_count;
	struct latency_recorder *rtt;  /* RUN_RR: one per flow */
	struct latency_hist *rtt_from; /* where the measured window starts */
	struct latency_hist *rtt_to;

	uint64_t start_ns;
	uint64_t warmup_end_ns;
	uint64_t end_ns;
	uint64_t stop_ns;
	uint64_t next_tick_ns;
	struct sample last; /* the last boundary's, net (run_net) */
	uint64_t last_ns;   /* and when it was, on the clock */
	struct sample measure_from;
	struct sample measure_to;
	/*
	 * The first flow's sockets where this host runs that end (sender,
	 * receiver), as the kernel had them when the measured window began
	 * and ended: buffers autotune after connect.
	 */
	struct sock_state socket_from[2];
	struct sock_state socket_to[2];

	struct timeline timeline; /* the intervals' boundaries, merged */
	char *error;

	/*
	 * A stop: when the process was about to stop (run_pause), and how
	 * long the measured window's run was stopped; it ended there.
	 */
	uint64_t paused_ns;
	bool pause_ended_window;
	double stopped_s;

	/*
	 * The profile (run_slices.c): each side's samples, and the sampled
	 * intervals taken out of the figures -- what they added in all, the
	 * raw sample one began at, and its round trips so far.
	 */
	struct profile_tally tally[2]; /* sender, receiver */
	/*
	 * Where their time goes off the CPU (offcpu.h), and the reason a
	 * poll or a sleep of each side waits for, as its strategy says.
	 */
	struct offcpu_tally waits[2];
	size_t poll_reason[2];
	struct sample excluded;
	struct sample slice_from;
	bool slicing;
	bool slice_ended;		     /* at the boundary just passed */
	unsigned int slices;		     /* sampled intervals ended */
	unsigned int measured_intervals;     /* unsampled ones, in the window */
	struct latency_hist *rtt_slice_from; /* RUN_RR and sampling */
	struct latency_hist *rtt_excluded;

	/*
	 * The probe (run_probe.c), or NULL: its flow, where it runs alone
	 * (from and until when), and its readings where its windows begin
	 * and end, as the flows' samples are taken.
	 */
	struct probe_flow *probe;
	struct probe_key probe_key;
	enum run_probe_phase probe_phase;
	bool probe_idle_known;	 /* measured, or given (run_probe_reuse_idle) */
	uint64_t probe_alone_ns; /* the probe alone: when its window starts */
	uint64_t probe_alone_end_ns;
	struct probe_reading *probe_at; /* PROBE_AT_COUNT of them */
	struct run_probe probe_result;
};

/* The probe's readings a run keeps (run->probe_at[]). */
enum probe_at {
	PROBE_AT_ALONE,	   /* where its window alone began */
	PROBE_AT_FROM,	   /* where the measured window began */
	PROBE_AT_TO,	   /* and ended */
	PROBE_AT_SLICE,	   /* where a sampled interval began */
	PROBE_AT_EXCLUDED, /* what the sampled intervals added */
	PROBE_AT_COUNT,
};

/*
 * One interval of this many is sampled, after the others of its round; the
 * window is longer by the sampled ones, so that it measures its duration.
 */
#define RUN_SLICE_EVERY 5

/* An interval's length: a tick. */
#define TICK_NS (RUN_TICK_MS * NS_PER_MS)

/* The run's life (run.c). */

/* Joins its threads (waking any that wait for the clock) and frees it. */
void run_free(struct run *run);
/* Keeps the run's first failure: a later one is only its consequence. */
void run_set_error(struct run *run, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Ends the measured window now and tells the senders to finish. */
void run_begin_stop(struct run *run, uint64_t now_ns);
/* Wakes every thread of the run: their sockets fail from now on. */
void run_cut_connections(struct run *run);

/* Connecting the flows (run_connect.c). */

/*
 * Connects every flow: receivers dial from the client namespace, senders are
 * the accepted ends in the server namespace, matched by port so that both
 * threads of a flow share one connection.  probe_fds (or NULL): one more
 * connection, its dialled end and its accepted end.
 */
int run_connect(struct run *run, const struct topo *topo, int probe_fds[2],
		char **cause);
/* The far end first, then this host's: one connection per flow. */
int run_connect_far(struct run *run, char **cause);
/* Gives flow i this host's end of its connection, fds[i]. */
void run_take_fds(struct run *run, int *fds);

/* What a run needs of this host (run_resources.c). */

/* What a run short of descriptors needs: appended to reason. */
void run_descriptor_hint(const struct run_config *c, char *reason, size_t size);

/* Reading the flows (run_sample.c). */

/*
 * The flows' counters now: this host's ends, and the ends an agent runs as it
 * last reported them.
 */
void run_read(const struct run *run, uint64_t now_ns, struct sample *out);
/* The round trips the flows here have timed so far, in one histogram. */
void run_merge_latency(const struct run *run, struct latency_hist *out);
/* raw with the sampled intervals taken out: the figures' sample. */
void run_net(const struct run *run, const struct sample *raw,
	     struct sample *net);
/*
 * How one side's events opened over every thread of it here: each event's
 * first error, user-only if any thread counted user space only, and how many
 * threads opened it.  False until every thread has opened its counters.
 */
bool run_side_open(const struct run *run, bool sender,
		   struct counter_open *open);

/* The profile and the intervals it samples (run_slices.c). */

/* The symbols and room for the round trips sampling takes out: 0, -errno. */
int run_profile_alloc(struct run *run);
void run_profile_free(struct run *run);
/*
 * Before a boundary is read: a sampled interval stops sampling and its
 * rings are read (true), so that reading them is sampled time.
 */
bool run_slice_close(struct run *run);
/*
 * At the boundary, raw: the sampled interval ends here, taken out (or a
 * measured one, counted).
 */
void run_slice_end(struct run *run, const struct sample *raw);
/* After it, in the window: the next interval is sampled, if its turn. */
void run_slice_begin(struct run *run, const struct sample *raw);
/* The window ends at the last boundary: sampling stops, nothing taken out. */
void run_slice_stop(struct run *run);
/* Each side's profile, and sampling's effect, into the result. */
void run_profile_finish(struct run *run, struct run_result *result);

/* The probe (run_probe.c), each a no-op in a run without one. */

/* Refuses a probe the run cannot have; its key: 0, or -EINVAL with *cause. */
int run_probe_check(struct run *run, char **cause);
/* Its connection's two ends become its flow: 0, or -ENOMEM (fds closed). */
int run_probe_adopt(struct run *run, int fds[2]);
/* Starts its threads, counted among the run's: 0, or -errno. */
int run_probe_launch(struct run *run);
/*
 * Every thread is ready: the probe runs alone first, unless its idle
 * figures are known.  True while it does (the load waits).
 */
bool run_probe_alone(struct run *run, uint64_t now_ns);
/* The next moment the probe alone needs a tick, or 0. */
uint64_t run_probe_deadline(const struct run *run);
/* The load goes: the probe goes too, if it was not running alone. */
void run_probe_go(struct run *run);
/* Readings at the window's start and end, and around a sampled interval. */
void run_probe_window_from(struct run *run, uint64_t now_ns);
void run_probe_window_to(struct run *run, uint64_t now_ns);
void run_probe_slice_begin(struct run *run, uint64_t now_ns);
void run_probe_slice_end(struct run *run, uint64_t now_ns);
/* Its first failure, as the run says one: true if it failed. */
bool run_probe_failed(struct run *run);
/* Its sockets fail from now on (with the flows'). */
void run_probe_cut(struct run *run);
/* Its threads joined, its figures into the result (and its failures). */
void run_probe_finish(struct run *run, struct run_result *result);
void run_probe_free(struct run *run);

/* The far end (run_far.c). */

/* What the far end has said of its ends of the run so far. */
const struct run_far_view *run_far(const struct run *run);
/* Tells the far end, if there is one, where the run is. */
void run_mark_far(const struct run *run, enum run_mark mark, const char *why);
/* Whether one side's threads run on the far end. */
bool run_side_far(const struct run *run, bool sender);
/* Puts the far end's latest counts into s: the ends this host lacks. */
void run_merge_far(const struct run *run, struct sample *s);
/*
 * Event i of the side the far end runs, over delta, as its threads opened
 * it (run_counter_value() for that side).
 */
void run_far_counter_value(const struct run *run, unsigned int i,
			   const struct counter_reading *delta,
			   struct counter_value *out);

#endif
