/*
 * One run: a configuration (strategy, mode, message size, flows, settings)
 * carried out over a topology, from connecting the flows to the joined
 * threads and the summary.  The caller's main loop drives it: it waits on
 * run_event_fd() and until run_deadline_ns(), then calls run_tick().
 *
 * Over two hosts this host runs one end of every flow and a far end (struct
 * run_far_end, which the remote layer implements) runs the others: the run
 * asks it to start them, tells it where the measured window begins and ends,
 * and merges what it reports into its own samples and result.  The engine
 * knows nothing more of the other host.
 */
#ifndef NIO_TOP_RUN_H
#define NIO_TOP_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "latency.h"
#include "metric.h"
#include "offcpu.h"
#include "probe.h"
#include "profile.h"
#include "record.h"
#include "sampler.h"
#include "settings.h"
#include "sockopts.h"
#include "strategy.h"
#include "topo.h"

#define RUN_TICK_MS 100
/* How long a run's threads may take to be ready (buffers filled). */
#define RUN_READY_TIMEOUT_MS 30000
/* How long a stopped run's flows may take to drain before they are cut. */
#define RUN_STOP_GRACE_MS 15000

enum run_mode {
	RUN_STREAM, /* messages back to back: throughput */
	RUN_RR,	    /* one request, one answer: round-trip latency */
	RUN_MODE_COUNT,
};

/* The modes' names, in enum order, NULL-terminated. */
extern const char *const run_mode_names[];
const char *run_mode_name(enum run_mode mode);

/*
 * Which ends of the flows run here.  Over two hosts (--serve, --connect) each
 * runs one end of every flow; the other end's figures come from its host.
 */
enum run_role {
	RUN_BOTH,
	RUN_SENDERS,
	RUN_RECEIVERS,
};

extern const char *const run_role_names[];
const char *run_role_name(enum run_role role);
/* The ends the other host runs. */
enum run_role run_role_peer(enum run_role role);

struct run_config {
	const struct strategy_ops *strategy;
	enum run_mode mode;
	size_t msg_size;
	unsigned int threads; /* flows */
	struct run_settings settings;
	enum run_role role;
	unsigned int round; /* which of the --repeat runs of this point */
	/*
	 * The warm-up and the measured window end only when run_end_warmup()
	 * and run_stop() say so: an agent follows its client's clock.
	 */
	bool paced;
	const struct counter_set *counters; /* NULL: not counted */
	/*
	 * The rate the path is shaped to (--rate on a network nio-top made),
	 * 0: unshaped or unknown (another host's network).
	 */
	uint64_t link_rate_bps;
};

/*
 * One interval of a run: a tick (100 ms), or, older than a few minutes into
 * a long run, several merged (timeline.h); length_s says which.
 */
struct run_interval {
	double t_s;	 /* end of the interval, from the start of the run */
	double length_s; /* how long it lasted */
	bool warmup;
	struct metric_values side[2]; /* sender, receiver */
};

/*
 * An interval's end, length and delivered figures (the receiver's, by the
 * metric table), as an export's intervals hold them.  Exports from before
 * intervals were merged lack length_s: a read then leaves it as it was.
 */
extern const struct record run_interval_record;

/* One side's counters over the measured window, and what they mean. */
struct run_side_counters {
	struct counter_value value[COUNTERS_MAX];
	struct metric_values derived;
};

/*
 * The host over a run's measured window, from its CPU time (/proc/stat):
 * the share of the CPUs' time the hypervisor took (steal), and the CPUs
 * that processes other than nio-top kept busy, and interrupts and
 * softirqs (whoever's: veth's delivery is among them).  known is false
 * where /proc could not be read, or a loaded export predates it.
 */
struct run_host_load {
	bool known;
	double steal_pct;
	double outside_cpus;
	double irq_cpus;
};
/* "host_load": steal_pct, outside_cpus, irq_cpus */
extern const struct record run_host_load_record;

struct run_result {
	struct run_config config;
	enum topo_kind topology;
	struct run_totals
		totals;	   /* the whole run, warm-up and drain included */
	double measured_s; /* the summary window, warm-up left out */
	struct run_interval *intervals;
	size_t interval_count;
	bool counted; /* config.counters was set: sender and receiver hold */
	struct run_side_counters sender;
	/* Its derived figures hold what was delivered (run_result_gbps()). */
	struct run_side_counters receiver;
	struct latency_summary latency; /* RUN_RR: round trips measured */
	bool has_link;			/* the topology's link could be read */
	struct topo_link_stats link;	/* the senders' link, over the run */
	/*
	 * The process was stopped (Ctrl-Z, SIGSTOP) or held off this long
	 * while measuring: the window ended where the stop began.  0: never.
	 */
	double stopped_s;
	/*
	 * Where each side's CPU went in the sampled intervals (sender,
	 * receiver), and what sampling did to the rate of messages there
	 * against the unsampled rest: +0.6 is 60% more (NaN: not known).
	 */
	struct run_profile profile[2];
	double sampling_effect;
	/*
	 * Where each side's wall time went in the sampled intervals: on the
	 * CPU, and off it by reason (offcpu.h).
	 */
	struct run_time time[2];
	/*
	 * The sockets as the kernel had them (the first flow's: sender,
	 * receiver), where this host ran that end: at the end of the
	 * measured window, and at its start (buffers autotune as it runs).
	 */
	struct sock_state socket[2];
	struct sock_state socket_start[2];
	bool has_socket[2];
	/*
	 * The links as the run found them and as it ran (senders',
	 * receivers'), if known: a run that set them put them back, so the
	 * next finds them as built.
	 */
	struct topo_stack stack_before[2];
	struct topo_stack stack[2];
	bool has_stack;
	struct run_host_load host_load;
	struct run_probe probe; /* --probe: its round trips alone and loaded */
	char *error;		/* NULL when the run completed cleanly */
};

/* What the far end has said of its ends of the current run. */
struct run_far_view {
	bool has_sample; /* totals and counters hold its latest tick */
	struct run_totals totals;
	struct counter_reading counters[COUNTERS_MAX];
	bool counting; /* its threads opened their counters */
	bool pmu;      /* its host has a hardware PMU */
	struct counter_open open[COUNTERS_MAX];
	bool has_latency; /* RUN_RR: the measured window's round trips */
	struct latency_hist latency;

	bool done; /* its report is in */
	bool counted;
	struct run_side_counters side;
	struct run_profile profile; /* its side's, where it sampled */
	struct run_time time;	    /* and where its time went */
	char *error;		    /* once its ends failed, or it is gone */
	bool lost;		    /* the far end is gone */
};

/* Where a run is, as the far end is told. */
enum run_mark {
	RUN_MARK_MEASURE, /* the warm-up ended */
	RUN_MARK_STOP,	  /* the measured window ended */
	RUN_MARK_ABORT,	  /* the run is cut short (why says why) */
};

/* The other host's ends of a run. */
struct run_far_end {
	void *data;
	/*
	 * Starts its ends of config (config->role is this host's) and
	 * connects the flows: 0 with fds[i] this host's end of flow i, or
	 * -errno with *cause (-EINVAL: it refused the run).
	 */
	int (*start)(void *data, const struct run_config *config, int *fds,
		     char **cause);
	/* Reads what it said since, without waiting. */
	void (*poll)(void *data);
	void (*mark)(void *data, enum run_mark mark, const char *why);
	const struct run_far_view *(*view)(const void *data);
};

struct run;

/*
 * The bytes the ends this host runs (config->role) will allocate for their
 * buffers: known before anything is allocated.
 */
size_t run_memory(const struct run_config *config);
/*
 * What one run may allocate here: asked (--max-memory) if not 0, else a
 * quarter of the machine's memory, or of this process's cgroup limit if
 * that is smaller (*whose names which; NULL when asked).
 */
uint64_t run_memory_budget(uint64_t asked, const char **whose);

/*
 * The file descriptors the ends this host runs will hold: each end's socket,
 * its strategy's (an io_uring) and its counters', and a little more.
 */
size_t run_descriptors(const struct run_config *config);
/*
 * Whether this process may open them on top of those it holds: the soft
 * RLIMIT_NOFILE is raised as far as the hard one allows; beyond, -EMFILE
 * with *cause saying how many and what to do.
 */
int run_check_descriptors(const struct run_config *config, char **cause);

/*
 * Starts a run over topo; far is NULL unless config->role leaves ends to
 * another host.  0, or -errno with *cause.
 */
int run_start(const struct run_config *config, const struct topo *topo,
	      const struct run_far_end *far, struct run **run, char **cause);
/*
 * One end of every flow (config->role is not RUN_BOTH) over connections made
 * elsewhere: fds[i] is flow i's socket; the run owns them from the call on.
 */
int run_start_connected(const struct run_config *config, int *fds,
			struct run **run, char **cause);
int run_event_fd(const struct run *run);
uint64_t run_deadline_ns(const struct run *run);

/* Samples and moves the run on; true once every thread has ended. */
bool run_tick(struct run *run, uint64_t now_ns);

/*
 * Whether the clock has started: every thread was ready (its buffers
 * allocated and filled, its counters open) and has been let go.
 */
bool run_started(const struct run *run);

/*
 * The counts of every flow right now, as they are (raw: what moved), and
 * with the sampled intervals taken out as the run's figures take them out
 * (net, for live figures; NULL: not wanted).
 */
void run_sample(const struct run *run, struct sample *raw, struct sample *net);
/*
 * What sampling did to the rate of messages so far: the sampled intervals'
 * against the rest's, +0.6 for 60% more; NaN until both are known.
 */
double run_sampling_effect(const struct run *run);
/*
 * The time a run of c spends in sampled intervals on top of its measured
 * duration (its warm-up, its duration and this: how long it takes).
 */
uint64_t run_sampled_ms(const struct run_config *c);
/*
 * One side's profile so far (for live views): false where this host does
 * not sample it (no profile, or the far end's side).
 */
bool run_profile_now(const struct run *run, bool sender,
		     struct run_profile *out);
/* One side's account of its time so far, as run_profile_now(). */
bool run_time_now(const struct run *run, bool sender, struct run_time *out);

/*
 * Event i of one side over delta (two run_sample() readings apart): status,
 * value and reason, as in a result.
 */
void run_counter_value(const struct run *run, bool sender, unsigned int i,
		       const struct counter_reading *delta,
		       struct counter_value *out);

/*
 * Whether every thread of one side here opened its counters, and how each
 * event fared on all of them (open[i]: the first error any thread met).
 */
bool run_counters_open(const struct run *run, bool sender,
		       struct counter_open *open);

/* The first failure of the run so far, or NULL. */
const char *run_error(const struct run *run);

/*
 * RUN_RR: the round trips of the measured window so far (all of them during
 * the warm-up); false in stream mode.
 */
bool run_latency(const struct run *run, struct latency_hist *out);

/* What a run's probe is doing. */
enum run_probe_phase {
	RUN_PROBE_NONE,	  /* no probe, or not started yet */
	RUN_PROBE_ALONE,  /* alone, before the load: its idle figures */
	RUN_PROBE_LOADED, /* beside the load */
	RUN_PROBE_DONE,	  /* stopped with the load */
};

/*
 * The probe so far, for live views: its idle figures once known, and
 * under the load over the measured window so far (sampled intervals left
 * out, as the load's figures leave them); what it is doing.
 */
enum run_probe_phase run_probe_now(const struct run *run,
				   struct run_probe *out);
/*
 * Idle figures for the run's probe from an earlier run with the same
 * probe_key: the probe does not run alone again.  Before the first tick.
 */
void run_probe_reuse_idle(struct run *run, const struct probe_summary *idle);

/* What the run runs. */
const struct run_config *run_config_of(const struct run *run);

/*
 * The intervals so far: the last minutes' as they were taken, older ones
 * merged (timeline.h), so counting back from the end finds the new ones.
 */
size_t run_interval_count(const struct run *run);
/*
 * Interval i as a result holds it (t_s from the run's start); false for a
 * sampled one, which the figures leave out.
 */
bool run_interval_at(const struct run *run, size_t i, struct run_interval *out);

/*
 * Seconds since the clock started (0 while the threads get ready); *warmup
 * until the measured window starts.
 */
double run_elapsed_s(const struct run *run, uint64_t now_ns, bool *warmup);

/* A paced run: the warm-up ends now (or at once, when it is not started). */
void run_end_warmup(struct run *run);

/* Ends the measured window now; the flows drain and the run completes. */
void run_stop(struct run *run);

/*
 * The process is about to stop (Ctrl-Z): a measured window ends now and the
 * run is marked stopped (stopped_s, once it goes on); a warm-up starts again
 * when it does.  A stop nobody announced (SIGSTOP from elsewhere) is seen
 * as a tick more than a second late, and ends the window at the tick
 * before it.  True when the pause ended the window.
 */
bool run_pause(struct run *run);

/* Stops the run early, e.g. on a signal; the reason goes into the result. */
void run_abort(struct run *run, const char *why);

/* Joins the threads, fills *result and frees the run. */
void run_finish(struct run *run, struct run_result *result);

/*
 * A result's figure for one side, by the metric table's row: delivered
 * figures from the summary window, the rest from the side's counters.
 * False when it is not known (not counted, or nothing moved).
 */
bool run_result_metric(const struct run_result *result, bool sender,
		       size_t metric, double *value);
/*
 * Why run_result_metric() has no figure: the counter's own reason if it has
 * one.
 */
const char *run_result_metric_why(const struct run_result *result, bool sender,
				  size_t metric);

/*
 * A run's summary, at the top level of an export's run and of the
 * protocol's result: its measured window ("measured_s") and what was
 * delivered in it, the metric table's delivered figures of the receiving
 * side ("gbps", "msgs_per_s").
 */
extern const struct record run_summary_record;

/*
 * The delivered throughput (Gbit/s) and messages per second over the
 * measured window: the receiving side's figures by the metric table, 0 when
 * the window measured nothing.
 */
double run_result_gbps(const struct run_result *result);
/*
 * Whether delivered figures from a peer or a file fit the totals: each rate
 * (gbps, msgs_per_s) times the window measured_s at most what the totals
 * hold, 1% and a message over for rounding and two hosts' clocks.  Where
 * span_s is known (not 0), each rate is also at least a tenth of what the
 * totals received over span_s: a window that delivered much less than the
 * rest of its run is not one nio-top measured.  0, or -EINVAL with *cause
 * naming the key ("gbps 9000 over 2 s ...").
 */
int run_rates_check(const struct run_totals *totals,
		    const struct metric_values *derived, double measured_s,
		    double span_s, char **cause);
/*
 * The longest a run of config c whose window measured measured_s can have
 * moved bytes for: its warm-up, its duration or window (the longer), its
 * sampled slices and the time its flows get to drain after the stop.
 */
double run_span_s(const struct run_config *c, double measured_s);
double run_result_msgs_per_s(const struct run_result *result);

void run_result_fini(struct run_result *result);

#endif
