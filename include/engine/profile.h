/*
 * Where a side's CPU goes, measured without a PMU: a cpu-clock sampling
 * event (perf_event_open, PERF_COUNT_SW_CPU_CLOCK, kernel and user call
 * chains) on each worker thread, read from its ring by the run's own loop
 * and tallied by role (role.h) and by function (symbols.h).
 *
 * A timer interrupt on a running thread changes what the thread does (on a
 * kernel without preemption it can raise the throughput it watches), so a
 * run samples only in some of its intervals and leaves those out of every
 * measured figure; run.h says which.
 */
#ifndef NIO_TOP_PROFILE_H
#define NIO_TOP_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "perf_ring.h"
#include "record.h"
#include "role.h"

/* Samples per second of CPU time a thread is sampled at, by default. */
#define PROFILE_HZ_DEFAULT 1000
#define PROFILE_HZ_MAX	   10000
/* The functions a profile names: its top ones, and other's top ones. */
#define PROFILE_TOP 8

/* One thread's sampling event. */
struct profile_thread {
	struct perf_ring ring; /* fd -1: not sampling */
	int error;	       /* why it could not be opened (errno), or 0 */
	bool user_only;	       /* kernel samples refused: user space only */
};

/* A function's samples in a tally that went to one role. */
struct profile_function {
	uint32_t symbol; /* symbols.h id */
	uint32_t role;
	uint64_t samples;
};

/* Samples by function and role: open addressing by both. */
struct profile_counts {
	struct profile_function *slot;
	size_t capacity;
	size_t count;
};

/*
 * One side's samples so far, by role, by the function each was in (its
 * leaf), and by the function that gave it its role (the frame matched).
 */
struct profile_tally {
	uint64_t samples;
	uint64_t role[ROLES_MAX];
	uint64_t lost; /* samples a full ring dropped */
	struct profile_counts leaves;
	struct profile_counts frames;
};

/* A function among a side's top ones, as a result keeps it. */
struct profile_top {
	char symbol[64];
	char object[24]; /* "kernel", "nio-top", "libc.so.6" */
	char role[24];	 /* the role these samples went to */
	uint64_t samples;
	double share; /* of the side's samples */
};

/* One side's profile over a run's sampled intervals: what a result keeps. */
struct run_profile {
	bool present;	/* sampled at all (else why says why not) */
	bool user_only; /* kernel samples were refused */
	unsigned int hz;
	uint64_t samples;
	uint64_t lost;
	uint64_t role[ROLES_MAX];
	/* Each role's function that gave it most samples ("" for none). */
	char role_function[ROLES_MAX][48];
	struct profile_top top[PROFILE_TOP];   /* the side's top functions */
	struct profile_top other[PROFILE_TOP]; /* other's top functions */
	size_t top_count, other_count;
	char why[200]; /* what could not be sampled, and the fix */
};

/*
 * As exports and the protocol hold them: a profile's own fields (its roles
 * and top functions are lists the codec writes beside them), and a top
 * function.
 */
extern const struct record run_profile_record;
extern const struct record profile_top_record;

/*
 * Opens thread tid's sampling event at hz (0: the calling thread's),
 * disabled: 0, or -errno with t->error set (kernel samples refused are
 * retried as user-only).  Any thread of the process may open it.
 */
int profile_thread_open(struct profile_thread *t, pid_t tid, unsigned int hz);
void profile_thread_close(struct profile_thread *t);
/* Starts or stops sampling the thread (from any thread). */
void profile_thread_enable(struct profile_thread *t, bool on);
/* Reads what the ring holds into tally (from the run's loop). */
void profile_thread_drain(struct profile_thread *t,
			  struct profile_tally *tally);

void profile_tally_fini(struct profile_tally *tally);
/* A side's tally as a result keeps it: its shares and top functions. */
void profile_summarize(const struct profile_tally *tally, unsigned int hz,
		       struct run_profile *out);
/*
 * Role r's share of the side's CPU (0 .. 1): of its samples; NaN with none,
 * or where they are of user space only (user_only), which says nothing of
 * the kernel's roles nor of what share of the CPU user space took.
 */
double run_profile_share(const struct run_profile *p, size_t r);
/* The copy roles' share together, as run_profile_share. */
double run_profile_copy_share(const struct run_profile *p);
/*
 * Role r's share of whatever the profile sampled (0 .. 1), NaN with none:
 * of user space's samples alone in a profile of user space only, so that
 * it is shown as such ("user space: user copy 73%").
 */
double run_profile_sample_share(const struct run_profile *p, size_t r);

/*
 * Why the threads of one side could not be sampled, from the first error
 * (errno) they met: a sentence with its fix, for run_profile.why.
 */
void profile_why(int error, bool user_only, char *out, size_t size);

#endif
