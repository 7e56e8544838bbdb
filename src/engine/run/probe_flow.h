/*
 * The probe's connection and its two threads (probe.h says what the probe
 * is): the requester, on the end that dialled, and the answerer, on the end
 * that accepted.  Each counts into its own atomics (one writer each); the
 * run reads them as a probe_reading, subtracts readings as it does samples,
 * and summarizes a window.  The threads say they are ready and end through
 * the run's gate like the flows' threads, but do not wait at it: the
 * requester starts sending when told (probe_flow_go).
 */
#ifndef NIO_TOP_PROBE_FLOW_H
#define NIO_TOP_PROBE_FLOW_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "latency.h"
#include "probe.h"
#include "worker.h"

struct probe_flow {
	struct probe_settings settings;
	int requester_fd; /* the end that dialled (client namespace) */
	int answerer_fd;  /* the end that accepted (server namespace) */
	int requester_cpu;
	int answerer_cpu;
	int wake_fd; /* eventfd: go, and stop, to a requester that waits */
	atomic_bool go;
	atomic_bool stop;
	struct worker_gate *gate;
	int done_fd;

	_Atomic uint64_t sent;	     /* the requester's */
	_Atomic uint64_t late;	     /* the requester's */
	_Atomic uint64_t skipped;    /* the requester's */
	_Atomic uint64_t answered;   /* the answerer's */
	struct latency_recorder rtt; /* the requester's */
	/* Set once by a thread that fails: -errno and where. */
	_Atomic(const char *) error_step;
	_Atomic int error;

	pthread_t requester;
	pthread_t answerer;
	bool requester_started;
	bool answerer_started;
};

/* The probe's counts at an instant; readings subtract field by field. */
struct probe_reading {
	uint64_t t_ns;
	uint64_t sent;
	uint64_t late;
	uint64_t skipped;
	uint64_t answered;
	struct latency_hist rtt;
};

/* A flow over the connection's two ends (it owns them from here). */
struct probe_flow *probe_flow_new(const struct probe_settings *settings,
				  int requester_fd, int answerer_fd,
				  int requester_cpu, int answerer_cpu,
				  struct worker_gate *gate, int done_fd);
/* Starts both threads: 0, or -errno (a thread that started is joined). */
int probe_flow_start(struct probe_flow *p);
/* The requester starts its schedule (once). */
void probe_flow_go(struct probe_flow *p);
/*
 * The requester sends no more: it waits for the answers on their way (10 s
 * at most) and half-closes; the answerer follows.
 */
void probe_flow_stop(struct probe_flow *p);
/* Wakes both threads: their sockets fail from now on. */
void probe_flow_cut(struct probe_flow *p);
/* Stops the requester (as probe_flow_stop) and joins both threads. */
void probe_flow_join(struct probe_flow *p);
/* Joins the threads, closes the sockets and frees p (NULL is fine). */
void probe_flow_free(struct probe_flow *p);
/* -errno of its first failure (and *step where), or 0. */
int probe_flow_error(const struct probe_flow *p, const char **step);

void probe_flow_read(const struct probe_flow *p, uint64_t now_ns,
		     struct probe_reading *out);
/* out = to - from, every field. */
void probe_reading_delta(const struct probe_reading *from,
			 const struct probe_reading *to,
			 struct probe_reading *out);
/* sum += delta. */
void probe_reading_add(struct probe_reading *sum,
		       const struct probe_reading *delta);
/* A window's figures from its reading (a delta), over measured_s. */
void probe_summarize(const struct probe_reading *window, double measured_s,
		     struct probe_summary *out);

#endif
