/*
 * A flow: one TCP connection with a sender thread on one end and a receiver
 * thread on the other, each driving the run's strategy and writing only its
 * own stats block.  Workers never print: a failure is stored in the block as
 * -errno and a step name, and the main loop reads it.
 */
#ifndef NIO_TOP_WORKER_H
#define NIO_TOP_WORKER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "counters.h"
#include "offcpu.h"
#include "profile.h"
#include "flow_stats.h"
#include "latency.h"
#include "sockopts.h"
#include "strategy.h"

/*
 * Where a run's threads wait for each other: each opens its counters and its
 * strategy (buffers allocated and filled), says it is ready and waits until
 * the run opens the gate, so that the run's clock starts with every flow
 * ready.  ready and ended are counted here; the run's eventfd only wakes its
 * main loop.
 */
struct worker_gate {
	pthread_mutex_t lock;
	pthread_cond_t opened;
	bool open;
	atomic_uint ready;
	atomic_uint ended;
};

void worker_gate_init(struct worker_gate *gate);
/* Lets every thread waiting at the gate go on (for good). */
void worker_gate_open(struct worker_gate *gate);
void worker_gate_fini(struct worker_gate *gate);

struct worker_flow {
	struct flow_stats tx;
	struct flow_stats rx;

	const struct strategy_ops *ops;
	size_t msg_size;
	const struct run_settings *settings;
	uint64_t link_rate_bps;	   /* the link's shaped rate, 0: unshaped */
	uint64_t pace_bytes_per_s; /* the sender's share of --load-rate */
	/* The CPU each thread runs on (--pin), or -1: any. */
	int tx_cpu;
	int rx_cpu;
	/*
	 * Request/response: the receiving end asks for each message with a
	 * small request and times the round trip into rtt.
	 */
	bool request_response;
	struct latency_recorder *rtt;
	const atomic_bool *stop; /* senders finish their message and drain */
	int tx_fd;		 /* the sending end (server namespace), or -1 */
	int rx_fd;   /* the receiving end (client namespace), or -1 */
	int done_fd; /* eventfd: written as each thread is ready and ends */
	/* Each end's socket as its thread left it, before it said ready. */
	struct sock_state tx_socket;
	struct sock_state rx_socket;
	struct worker_gate *gate;

	/* NULL: not counted.  Each thread opens its own, then says so. */
	const struct counter_set *counters;
	struct thread_counters tx_counters;
	struct thread_counters rx_counters;
	atomic_bool tx_counting;
	atomic_bool rx_counting;

	/*
	 * Sampling (profile.h) at profile_hz, 0: none, and watching context
	 * switches (offcpu.h, offcpu).  Each thread gives its id, then says
	 * so (tx_profiled); the run opens, reads and closes the threads'
	 * events around each sampled interval only, so that a measured
	 * interval runs with no sampling event at all.
	 */
	unsigned int profile_hz;
	bool offcpu;
	struct profile_thread tx_profile;
	struct profile_thread rx_profile;
	struct offcpu_thread tx_offcpu;
	struct offcpu_thread rx_offcpu;
	pid_t tx_tid;
	pid_t rx_tid;
	atomic_bool tx_profiled;
	atomic_bool rx_profiled;
	unsigned int index; /* the threads' names: nio-tx0, nio-rx0 */

	pthread_t tx_thread;
	pthread_t rx_thread;
	bool tx_started;
	bool rx_started;
} __attribute__((aligned(64)));

/*
 * Starts a thread for each end that has a socket (both, or the one this host
 * runs): 0 or -errno (a thread that started must be joined).
 */
int worker_start(struct worker_flow *flow);
void worker_join(struct worker_flow *flow);

#endif
