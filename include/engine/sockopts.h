/*
 * The sockets' own knobs: what a run's settings ask of each end's TCP
 * socket (buffer sizes, low-water marks, busy polling, the congestion
 * control, TCP_NODELAY), set through setsockopt() on the end they belong
 * to, and read back afterwards, since the kernel doubles, clamps or ignores
 * some of them: a run records what each end's socket became, not what was
 * asked.  They live and die with the run's sockets, so nothing is left to
 * put back.
 */
#ifndef NIO_TOP_SOCKOPTS_H
#define NIO_TOP_SOCKOPTS_H

#include <stdbool.h>
#include <stdint.h>

#include "record.h"
#include "settings.h"

/* One end's socket as the kernel reports it. */
struct sock_state {
	uint64_t sndbuf;
	uint64_t rcvbuf;
	uint64_t rcvlowat;
	uint64_t notsent_lowat; /* 0: none (the sysctl's, unlimited) */
	unsigned int busy_poll;
	bool prefer_busy_poll;
	bool nodelay;
	char congestion[16];
	uint64_t max_pacing_rate; /* bytes/s (--load-rate); 0: none */
};

/* sndbuf, rcvbuf, rcvlowat, notsent_lowat, busy_poll, ... congestion */
extern const struct record sock_state_record;

/*
 * The receivers' wake-up: every receive side waits for the same low-water
 * mark (SO_RCVLOWAT), so that two receive sides differ in what they do
 * with the bytes, not in how often they wake.  A stream run's mark is
 * --rcvlowat, or (0) SOCKOPTS_RX_MARK, lowered to what a waiting sender
 * leaves unread at least (unread_least, 0: no bound; with one slot no mark
 * at all, since the rest of a message part read may be all there is) and to a millisecond of a
 * shaped link (link_rate_bps, 0: unshaped), where a higher mark would
 * wait on bytes that cannot come.  A request-response run has none of its
 * own: one answer of msg_size bytes is queued at a time, so a mark given
 * above it, never met, is capped at it.  0: the kernel's own (every
 * segment).
 */
#define SOCKOPTS_RX_MARK (256u << 10)

uint64_t sockopts_rx_mark(const struct run_settings *s, bool request_response,
			  size_t msg_size, uint64_t unread_least,
			  uint64_t link_rate_bps);

/*
 * Sets on fd what s asks of one end (the sender's or the receiver's), in a
 * run of request-response or not, the receiver's mark rx_mark (0: none):
 * 0, or -errno with *step naming the option that failed.
 */
int sockopts_apply(int fd, const struct run_settings *s, bool sender,
		   bool request_response, uint64_t rx_mark, const char **step);

/*
 * Paces a sender's socket at bytes_per_s (SO_MAX_PACING_RATE: TCP paces
 * its own segments without the fq qdisc): 0, or -errno with *step.
 */
int sockopts_pace(int fd, uint64_t bytes_per_s, const char **step);

/* What fd's knobs are now. */
void sockopts_read(int fd, struct sock_state *out);

/*
 * Whether this kernel has the congestion control name (loading its module
 * if it must): 0, or -errno with *cause (caller frees) listing those it has.
 */
int sockopts_congestion_probe(const char *name, char **cause);
/*
 * Whether name is a congestion control this kernel lists as available
 * (loaded: nothing is tried, and no module named after it is loaded) and,
 * for a process without CAP_NET_ADMIN, as allowed: 0, or -ENOENT or -EPERM
 * with *cause (caller frees) listing those it may use.  For a name from
 * someone else (an agent's client): the kernel loads any module tcp_NAME
 * for a privileged setsockopt.
 */
int sockopts_congestion_listed(const char *name, char **cause);

#endif
