/*
 * What a user sets for the flows of every run: timing, checking, and the
 * knobs of the strategies that have them.  The option table (config/options)
 * describes each field once -- its names, range and default -- and every
 * layer passes the struct whole: a run, its flows, their strategies.
 */
#ifndef NIO_TOP_SETTINGS_H
#define NIO_TOP_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SETTINGS_CPUS_MAX 64

/* CPUs, in the order their threads take them (--pin). */
struct cpu_list {
	unsigned int count; /* 0: no pinning */
	uint16_t cpu[SETTINGS_CPUS_MAX];
};

/*
 * How receivers take the bytes in (--rx): the receive ladder, its sides in
 * the order every list shows them.  A side is a file in
 * strategies/receive/ that exports `const struct rx_side rx_side_NAME`
 * (rx_side.h) and one entry here, X(ENUM, NAME); its enum rx_mode is
 * RX_ENUM.  Each strategy's own receiver (copy) comes first: the default.
 */
#define RX_SIDES(X)                                                            \
	X(COPY, copy)                                                          \
	X(ZEROCOPY, zerocopy)                                                  \
	X(TRUNC, trunc)                                                        \
	X(URING, uring)

/* A list made by a macro, one entry a side. */
/* clang-format off */
enum rx_mode {
#define RX_SIDE_ENUM(upper, lower) RX_##upper,
	RX_SIDES(RX_SIDE_ENUM)
#undef RX_SIDE_ENUM
	RX_MODE_COUNT,
};
/* clang-format on */

/* Their names (rx_side.name), in enum order, NULL-terminated. */
extern const char *rx_mode_names[];

/* When the flows' sockets set TCP_NODELAY (--nodelay). */
enum nodelay {
	NODELAY_RR, /* in request-response runs, as sockperf and netperf -D */
	NODELAY_ON, /* always */
	/* Never: Nagle and the delayed ACK as the kernel has them. */
	NODELAY_OFF,
};

extern const char *const nodelay_names[];

/* GRO on the veth (--gro). */
enum gro_mode {
	GRO_DEFAULT, /* as the veth is built */
	GRO_ON,	     /* NAPI and GRO on the veth's receive side */
	GRO_OFF,
	GRO_MODE_COUNT,
};

extern const char *const gro_mode_names[];

/*
 * The probe (--probe RATE[,SIZE]): a request/response flow of its own beside
 * the load, a request of size bytes every 1/rate_hz s on a schedule, answered
 * at once.  rate_hz 0: no probe.
 */
struct probe_settings {
	unsigned int rate_hz;
	unsigned int size;
};

#define PROBE_RATE_MAX	   100000
#define PROBE_SIZE_MIN	   16 /* a sequence number and a send time */
#define PROBE_SIZE_MAX	   65536
#define PROBE_SIZE_DEFAULT 64

/* Where the probe's threads run, given --pin (--probe-cpu). */
enum probe_cpu {
	PROBE_CPU_SAME,	 /* on the CPUs of the load's first flow */
	PROBE_CPU_OTHER, /* on CPUs the load's threads are not pinned to */
	PROBE_CPU_COUNT,
};

extern const char *const probe_cpu_names[];

struct run_settings {
	uint64_t duration_ms; /* 0: until stopped */
	uint64_t warmup_ms;
	bool verify;
	unsigned int fields;	  /* heap fields per message */
	unsigned int slots;	  /* message slots of a zero-copy sender */
	unsigned int uring_depth; /* messages per io_uring submission */
	bool uring_fixed;	  /* uring-zc sends from registered buffers */
	/*
	 * A teaching switch: sendfile and splice rewrite a slot without
	 * waiting for the receiver to have read it, as the references do.
	 */
	bool unsafe_reuse;
	enum rx_mode rx;
	enum nodelay nodelay;
	/*
	 * The sockets' own knobs (sockopts.h), each on the end it belongs
	 * to; 0 or "": the kernel's own.
	 */
	uint64_t sndbuf;	/* SO_SNDBUF, senders */
	uint64_t rcvbuf;	/* SO_RCVBUF, receivers */
	uint64_t rcvlowat;	/* SO_RCVLOWAT, receivers */
	uint64_t notsent_lowat; /* TCP_NOTSENT_LOWAT, senders */
	unsigned int busy_poll; /* SO_BUSY_POLL microseconds, both */
	bool prefer_busy_poll;	/* SO_PREFER_BUSY_POLL, both */
	char congestion[16];	/* TCP_CONGESTION, both */
	/*
	 * The links' own knobs (topo.h), on a network nio-top makes, for
	 * the run only; 0: as built.  BIG TCP's IPv4 sizes, and GRO.
	 */
	unsigned int gso_max_size;
	unsigned int gro_max_size;
	enum gro_mode gro;
	struct cpu_list pin;
	/*
	 * Samples per second of a thread's CPU time in the sampled intervals
	 * (profile.h); 0: no profile.
	 */
	unsigned int profile_hz;
	/*
	 * The load's pace, all its flows together, in Mbit/s
	 * (SO_MAX_PACING_RATE on each sender, split evenly); 0: flat out.
	 */
	unsigned int load_rate_mbps;
	struct probe_settings probe;
	enum probe_cpu probe_cpu;
	/*
	 * No context switch is watched in the sampled intervals: no account
	 * of where the threads' time goes off the CPU (offcpu.h).
	 */
	bool no_waits;
};

/*
 * The links' and sockets' knobs that set a run's point apart from another
 * at the same strategy, receive side, size and flows: the grid's other
 * dimensions (BIG TCP's sizes, GRO, busy polling, the load's pace).  All 0:
 * as built, flat out.
 */
struct settings_stack {
	unsigned int gso_max_size;
	unsigned int gro_max_size;
	enum gro_mode gro;
	unsigned int busy_poll;
	unsigned int load_rate_mbps;
};

static inline struct settings_stack settings_stack_of(
	const struct run_settings *s)
{
	return (struct settings_stack){
		.gso_max_size = s->gso_max_size,
		.gro_max_size = s->gro_max_size,
		.gro = s->gro,
		.busy_poll = s->busy_poll,
		.load_rate_mbps = s->load_rate_mbps,
	};
}

static inline bool settings_stack_equal(const struct settings_stack *a,
					const struct settings_stack *b)
{
	return a->gso_max_size == b->gso_max_size &&
	       a->gro_max_size == b->gro_max_size && a->gro == b->gro &&
	       a->busy_poll == b->busy_poll &&
	       a->load_rate_mbps == b->load_rate_mbps;
}

/*
 * The knobs set, as a label's tail: " gso 185000 GRO on busy-poll 50us
 * paced 2000M"; "" where all are as built and the load runs flat out.
 */
void settings_stack_tag(const struct settings_stack *k, char *out, size_t size);

/* Whether a flow's sockets set TCP_NODELAY, in this mode. */
static inline bool settings_nodelay(const struct run_settings *s,
				    bool request_response)
{
	return s->nodelay == NODELAY_ON ||
	       (s->nodelay == NODELAY_RR && request_response);
}

#endif
