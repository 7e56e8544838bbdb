/*
 * Where a side's time goes off the CPU, measured without a PMU: a
 * context-switch software event (PERF_COUNT_SW_CONTEXT_SWITCHES, period 1)
 * on each worker thread, sampled at every switch out with its kernel call
 * chain, and the kernel's switch records (PERF_RECORD_SWITCH, with
 * sample_id_all) for when it goes and runs again: they tile the thread's
 * window into time on the CPU and intervals off it, each of which gets its
 * length and the reason its switch's chain names (reason.h).  The thread's
 * own CPU clock, read apart from any event, is kept beside them as a check
 * of the time on the CPU.
 *
 * Sampling every switch costs each switch a call chain, so a run does it
 * in the intervals it samples its profile in (run.h), which every measured
 * figure leaves out.
 */
#ifndef NIO_TOP_OFFCPU_H
#define NIO_TOP_OFFCPU_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "latency.h"
#include "perf_ring.h"
#include "reason.h"
#include "record.h"

/* The functions a reason remembers, to name the one that named it most. */
#define OFFCPU_FUNCTIONS 4

/* Where a thread is, as its ring is read. */
enum offcpu_state {
	OFFCPU_UNSEEN, /* no switch read yet */
	OFFCPU_ON,     /* on the CPU since since_ns */
	OFFCPU_OFF,    /* off it since since_ns, for off_reason */
	OFFCPU_LOST,   /* records were lost: unknown until the next */
};

/* One thread's switch event over one sampled interval. */
struct offcpu_thread {
	struct perf_ring ring; /* fd -1: not sampling */
	int error;	       /* why it could not be opened (errno), or 0 */
	bool user_only;	       /* call chains refused: no reasons, only times */
	pid_t tid;
	clockid_t cpu_clock;
	size_t generic; /* the reason a poll or a sleep of it waits for */
	/*
	 * Why it was off the CPU as sampling began, if it was, by its
	 * kernel stack then (/proc, root only); reason_other: unknown.
	 */
	size_t begin_reason;
	/* CLOCK_MONOTONIC and the thread's CPU clock, as sampling began/ended */
	uint64_t begin_ns, end_ns;
	uint64_t cpu_begin_ns, cpu_end_ns;
	bool cpu_known;
	/* While its ring is read. */
	enum offcpu_state state;
	uint64_t since_ns;
	size_t off_reason;
	uint32_t off_symbol;
	/* The last switch's sample, until its record says when it went. */
	bool sampled;
	size_t sample_reason;
	uint32_t sample_symbol;
};

/* A reason's waits so far, and the functions that named it. */
struct offcpu_reason_tally {
	uint64_t ns;
	uint64_t count;
	struct latency_hist *waits; /* each wait's length; NULL: none yet */
	struct {
		uint32_t symbol;
		uint64_t ns;
	} function[OFFCPU_FUNCTIONS];
};

/* One side's switches so far, over its threads' sampled time. */
struct offcpu_tally {
	uint64_t window_ns;    /* the threads' wall time while sampled */
	uint64_t on_cpu_ns;    /* switched in, by the switch records */
	uint64_t cpu_clock_ns; /* their CPU clocks over it */
	uint64_t off_cpu_ns;
	uint64_t switches; /* switched out */
	uint64_t runnable; /* of them, still runnable (the kernel's flag) */
	uint64_t lost;	   /* records a full ring dropped */
	bool cpu_unknown;  /* a thread's CPU clock could not be read */
	struct offcpu_reason_tally reason[REASONS_MAX];
};

/* A reason's share of a side's time, as a result keeps it. */
struct run_time_reason {
	double seconds;
	uint64_t count;
	double mean_us; /* NaN without a wait */
	double p99_us;
	char function[48]; /* the function that named most of its time */
};

/*
 * One side's wall time over the sampled intervals (its threads' summed):
 * on the CPU (switched in; the profile's roles say where) and off it by
 * reason, which add up to the window but for records a full ring lost;
 * and the threads' own CPU clocks, which the kernel keeps apart from any
 * event and which leave out what the hypervisor stole.  What a result
 * keeps.
 */
struct run_time {
	bool present;	/* sampled at all (else why says why not) */
	bool user_only; /* no call chains: off-CPU time without reasons */
	double window_s;
	double on_cpu_s;
	double off_cpu_s;
	double cpu_clock_s; /* NaN: a thread's CPU clock unread */
	uint64_t switches;
	uint64_t runnable;
	uint64_t lost;
	struct run_time_reason reason[REASONS_MAX];
	char why[200];
};

/* As exports and the protocol hold them: the side's fields, a reason's. */
extern const struct record run_time_record;
extern const struct record run_time_reason_record;

/*
 * Opens thread tid's switch event, disabled: 0, or -errno with t->error
 * set (call chains refused are retried without: times only).  cpu_clock is
 * the thread's CPU clock (pthread_getcpuclockid); generic the reason a
 * poll or a sleep of the thread waits for (reason_other: unknown).
 */
int offcpu_thread_open(struct offcpu_thread *t, pid_t tid, clockid_t cpu_clock,
		       size_t generic);
void offcpu_thread_close(struct offcpu_thread *t);
/*
 * Starts sampling the thread (its clocks read just before) or stops it
 * (read just after), from any thread.
 */
void offcpu_thread_enable(struct offcpu_thread *t, bool on);
/*
 * Once stopped: what the ring holds into tally, the thread's wall and CPU
 * time while sampled with it (from the run's loop).
 */
void offcpu_thread_drain(struct offcpu_thread *t, struct offcpu_tally *tally);

void offcpu_tally_fini(struct offcpu_tally *tally);
/* A side's tally as a result keeps it. */
void offcpu_summarize(const struct offcpu_tally *tally, struct run_time *out);

/* Reason r's share of the side's wall time (0 .. 1); NaN with none. */
double run_time_share(const struct run_time *t, size_t r);
/* The share on the CPU, and off it in all; NaN with none. */
double run_time_on_cpu_share(const struct run_time *t);
double run_time_off_cpu_share(const struct run_time *t);
/* The reason with most time (reason_count with none). */
size_t run_time_largest(const struct run_time *t);

/*
 * Why the threads of one side could not be watched, from the first error
 * (errno) they met: a sentence with its fix, for run_time.why.
 */
void offcpu_why(int error, bool user_only, char *out, size_t size);

#endif
