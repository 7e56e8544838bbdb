/*
 * What a session's runs say.  Each point (mode, strategy, receive side, size,
 * flows) is the median and spread of its runs; for each mode and flow count,
 * each pair of strategies that differ by one idea (one-copy vs two-copy,
 * zero-copy vs two-copy and one-copy, uring-zc vs uring, sendfile vs
 * zero-copy, splice vs one-copy, and each strategy with zero-copy receive vs
 * the same with copy receive) is compared at every size both were measured
 * at, by the test of stats.h, and summed up in one verdict that names the
 * mode, the flows, and the runs and intervals behind it.  Stream and rr
 * points are never compared with each other.  Runs that failed are left out,
 * and so are runs with --unsafe-reuse, short ones (measured for less than
 * the session's min_measured or over fewer than ANALYSIS_MIN_INTERVALS
 * intervals) and those whose window a stop ended, unless the user keeps
 * them.
 */
#ifndef NIO_TOP_ANALYSIS_H
#define NIO_TOP_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "point.h"
#include "run.h"
#include "stats.h"

#define ANALYSIS_MIN_INTERVALS 5
#define ANALYSIS_SIZES_MAX     64

/* One result as the analysis sees it: worked out once, when it arrives. */
struct analysis_run {
	bool usable;		    /* finished cleanly, with a figure */
	bool short_run;		    /* measured too briefly to be analysed */
	bool stopped;		    /* a stop ended its window: left out */
	double figure;		    /* stream: Gbit/s; rr: p50 round trip, us */
	size_t intervals;	    /* measured (warm-up left out) */
	struct stats_series series; /* of the intervals (see below) */
};

/*
 * The run's figure, and its intervals' series: delivered Gbit/s for
 * stream; for rr the p50 round trip, its intervals' round trips per second
 * (the inverse of their mean round trip) standing in for its spread.
 * min_measured_ms 0 keeps every run; keep_stopped keeps those whose window
 * a stop ended (Ctrl-Z, SIGSTOP).
 */
void analysis_run_read(const struct run_result *result,
		       uint64_t min_measured_ms, bool keep_stopped,
		       struct analysis_run *out);

/* Whether lower is better for the mode's figure (rr: a round trip). */
bool analysis_lower_is_better(enum run_mode mode);

struct analysis_point {
	struct point_key key;
	size_t runs;	     /* analysed */
	size_t short_runs;   /* left out as short */
	size_t stopped_runs; /* left out: a stop ended their window */
	size_t intervals;    /* of the runs analysed */
	/* The results analysed: member[first .. first + runs) of analysis. */
	size_t first;
	/* The runs' figure: stream Gbit/s, rr p50 us (lower is better). */
	double median, min, max;
	double p99_median_us, p99_min_us, p99_max_us; /* rr */
	/* The receiving side, medians of the runs; NaN where not known. */
	double rx_cpu_ns_per_kib;
	double rx_copy_share; /* of its samples in the copy roles, 0 .. 1 */
	struct stats_point estimate;
};

enum analysis_verdict {
	VERDICT_FROM,	   /* ahead from msg_size on, at every larger size */
	VERDICT_NEVER,	   /* behind somewhere, ahead nowhere, all decided */
	VERDICT_MIXED,	   /* ahead at some sizes, not from one size on */
	VERDICT_TIE,	   /* within the minimum effect at every size */
	VERDICT_UNDECIDED, /* not distinguishable at any size */
	VERDICT_BEHIND,	   /* behind somewhere, undecided elsewhere */
};

/* One size of a comparison. */
struct analysis_size {
	size_t msg_size;
	struct stats_difference difference;
	size_t runs; /* of both points */
	double spread;
	/*
	 * Undecided: about how many runs a point would decide it, from the
	 * spread its runs showed; 0 when it cannot be said (one run each),
	 * SIZE_MAX when more than ANALYSIS_RUNS_HINT_MAX would not.
	 */
	size_t runs_to_decide;
	/*
	 * The receiving side of each point (strategy's, versus'): its CPU
	 * per KiB (task-clock) and the share of its samples in the copy
	 * roles, medians of the point's runs; NaN where not known.
	 */
	double rx_cpu_ns_per_kib[2];
	double rx_copy_share[2];
};

#define ANALYSIS_RUNS_HINT_MAX 50

/*
 * The probe at one point (analysis_probe.c): its tail beside the load
 * against its tail alone, and against the plain path's (one-copy's) at the
 * same point, by the statistics of stats.h over the point's runs.
 */
struct analysis_probe {
	size_t point;	    /* its index in points */
	size_t runs;	    /* analysed runs with a probe's round trips */
	double gbps;	    /* the point's median Gbit/s */
	double idle_p50_us; /* medians of the runs' */
	double idle_p99_us;
	double loaded_p50_us;
	double loaded_p99_us;
	/*
	 * Loaded p99 over idle p99: the runs' ratios' geometric mean and
	 * its 90% interval (NaN with one run).
	 */
	double ratio, low, high;
	/*
	 * Against the same point of one-copy (the plain path): the probe's
	 * loaded p99, lower better; versus_gbps its median Gbit/s.  A
	 * point of one-copy has no versus.
	 */
	bool has_versus;
	double versus_gbps;
	double versus_p99_us;
	struct stats_difference versus;
};

/* The most a probe's sentence takes, its NUL included. */
#define ANALYSIS_PROBE_TEXT_MAX 640

struct analysis_crossover {
	enum run_mode mode;
	unsigned int threads;
	const char *strategy;
	const char *versus;
	/* strategy with another --rx against itself with --rx copy */
	bool rx_pair;
	/* Otherwise the receive side both of them ran with. */
	enum rx_mode rx;
	/*
	 * The knobs strategy ran with; versus ran with versus_stack, which
	 * differs only in a stack pair (one knob against the links as built,
	 * or the least of that knob run): strategy against itself.
	 */
	struct settings_stack stack;
	struct settings_stack versus_stack;
	bool stack_pair;
	enum analysis_verdict verdict;
	size_t msg_size; /* VERDICT_FROM */
	size_t runs;	 /* behind the verdict: of both, at every size */
	size_t intervals;
	size_t fewest_runs; /* at any one point */
	size_t most_runs;
	double spread; /* the largest of any point */
	/*
	 * A zero-copy strategy ahead of its copying peer while the kernel
	 * copied every send: more work cannot be faster, so the machine's
	 * noise is the likelier cause.
	 */
	bool suspect;
	size_t size_count;
	struct analysis_size size[ANALYSIS_SIZES_MAX];
};

/* What limits a pair, as its sides' time says it (analysis_waits.c). */
enum analysis_limit {
	LIMIT_CPU,	  /* a side is busy on its CPU */
	LIMIT_WAKEUPS,	  /* neither is: each waits for the other */
	LIMIT_SHARED_CPU, /* neither is: a side was preempted most */
	LIMIT_UNCLEAR,
};

/*
 * One side of a point, its runs' time pooled: its busiest thread's share
 * of a CPU (task-clock, or on the CPU while watched), its waits in seconds
 * and its largest.
 */
struct analysis_side_time {
	bool known;
	double cpu;
	double window;
	double on_cpu;
	double wait[REASONS_MAX];
	size_t largest; /* reason_count: it never waited */
};

/*
 * A stream point whose sides' time was watched: each side's, the
 * receivers' wake-ups a message and their low-water mark as recorded.
 */
struct analysis_wait {
	size_t point; /* in points */
	struct analysis_side_time side[2];
	double wakeups_per_msg; /* NaN: not counted */
	uint64_t rcvlowat;
	bool mark_known;
	enum analysis_limit limit;
};

#define ANALYSIS_WAIT_TEXT 800

struct analysis {
	struct analysis_point *points;
	size_t point_count;
	size_t *member; /* results' indices, by point */
	struct analysis_crossover *crossovers;
	size_t crossover_count;
	size_t crossover_cap;
	size_t runs;	     /* analysed */
	size_t short_runs;   /* left out as short */
	size_t stopped_runs; /* left out: a stop ended their window */
	bool has_zerocopy;
	bool all_copied; /* the kernel copied (nearly) every zero-copy send */
	char zerocopy_why[400];
	/*
	 * The runs measured on a busy host, by number: "run 3: 0.64 CPUs of
	 * other processes; run 7: 14% steal" (see ANALYSIS_BUSY_*); "" if none.
	 */
	char busy_why[400];
	/*
	 * The runs sampled in user space only and why: "runs 1-3: user space
	 * only: ...; their CPU by role is n/a"; "" if none.
	 */
	char user_space_why[480];
	/*
	 * The rr runs whose round trips hold nio-top's counters' cost, and
	 * how to leave it out; "" if none.
	 */
	char counters_why[400];
	/* The probe's points, in the points' order. */
	struct analysis_probe *probes;
	size_t probe_count;
	/*
	 * Where each stream point's time went, and what that says: the
	 * points, then the groups' sentences (strategies compared while
	 * each pair waits on itself; a receive ladder's wake-ups).
	 */
	struct analysis_wait *waits;
	size_t wait_count;
	char (*wait_groups)[ANALYSIS_WAIT_TEXT];
	size_t wait_group_count;
};

/* A run measured with this much steal, or other processes' CPU, is named. */
#define ANALYSIS_BUSY_STEAL_PCT	   5.0
#define ANALYSIS_BUSY_OUTSIDE_CPUS 0.5

/*
 * A list of the runs measured on a busy host, "run 7 (ABOUT): 14% steal,
 * 0.64 CPUs of other processes; run 9: ...", " and N more" where out is
 * full: started on out, each run offered with its number (from 1) and
 * what to say of it (NULL: nothing), then ended.
 */
struct analysis_busy_list {
	char *out;
	size_t size, len, more;
};
void analysis_busy_start(struct analysis_busy_list *l, char *out, size_t size);
void analysis_busy_add(struct analysis_busy_list *l, const struct run_result *r,
		       size_t number, const char *about);
void analysis_busy_end(struct analysis_busy_list *l);
/*
 * The runs of results[0 .. count) measured on a busy host, numbered from 1,
 * as struct analysis' busy_why says them ("" if none).
 */
void analysis_busy_why(const struct run_result *results, size_t count,
		       char *out, size_t size);

/* runs[i] is analysis_run_read() of results[i]. */
int analysis_build(const struct run_result *results,
		   const struct analysis_run *runs, size_t count,
		   struct analysis *out);
void analysis_fini(struct analysis *a);

/*
 * The waits of the points and their groups' sentences, after the points
 * are built: 0, or -1 without memory.
 */
int analysis_waits(struct analysis *a, const struct run_result *results);
/*
 * A point's sentence: "one-copy 64K x1: neither side busy (sender 72%,
 * receiver 38% of a CPU); the receiver is waiting for data 62% of its
 * time, woken 0.46 times a message; the sender ...: the pair is limited
 * by its wake-ups ...".
 */
void analysis_wait_text(const struct analysis *a, const struct analysis_wait *w,
			char *out, size_t size);

/* The most a crossover's sentence takes, its NUL included. */
#define ANALYSIS_TEXT_MAX 1536

/* "stream, 2 flows: one-copy beats two-copy from 4K (12 runs, ...)" */
void analysis_crossover_text(const struct analysis_crossover *c, char *out,
			     size_t size);
const char *analysis_verdict_name(enum analysis_verdict verdict);

/*
 * The probe at every point whose runs had one: 0, or -ENOMEM
 * (analysis_build() calls it).
 */
int analysis_probe_build(struct analysis *a, const struct run_result *results);
/*
 * "stream, 64K x1: beside one-copy the probe's p99 is 1.8x [1.5, 2.1] its
 * alone (48 -> 86 us, 3 runs, 12.1 Gbit/s); 1.3x [1.1, 1.6] one-copy's:
 * worse, at equal Gbit/s (12.1 vs 12.3)".
 */
void analysis_probe_text(const struct analysis *a,
			 const struct analysis_probe *p, char *out,
			 size_t size);

/* The point of key (every part of it), or NULL. */
const struct analysis_point *analysis_find(const struct analysis *a,
					   const struct point_key *key);

#endif
