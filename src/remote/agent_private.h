/*
 * The agent's parts (agent.h) and what they share: the agent itself, and
 * the calls one part makes into another.  agent.c opens, polls and steps
 * the agent; agent_handshake.c greets new connections (its hello, its
 * secret) and makes one the client; agent_client.c serves the greeted
 * client its runs; agent_log.c is its log, a flood of connections summed.
 * Each calls only the parts after it: no two call each other.  The
 * remote layer's own: no layer above includes it.
 */
#ifndef NIO_TOP_AGENT_PRIVATE_H
#define NIO_TOP_AGENT_PRIVATE_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

#include "agent.h"
#include "clock.h"
#include "counters.h"
#include "hostinfo.h"
#include "proto.h"
#include "run.h"

#define AUTH_PEERS_MAX 64
#define LOG_PEERS_MAX  16
#define TICK_NS	       (RUN_TICK_MS * NS_PER_MS)

/* A connection that has not been greeted yet. */
struct handshake {
	int fd; /* -1: free */
	char peer[INET_ADDRSTRLEN + 8];
	struct sockaddr_in addr;
	uint64_t connected_ns;
	struct proto_reader in;
	cJSON *hello; /* read; its secret waits for AUTH_DELAY_MS to pass */
	uint64_t hello_ns; /* when the hello was read */
	bool quiet;	   /* one of a flood: not logged until greeted */
};

/* An address's connections in the log's current window. */
struct log_peer {
	struct in_addr addr;
	uint64_t since_ns; /* the window's start; 0: a free entry */
	unsigned int logged;
	unsigned int quiet; /* connections past LOG_BURST, not logged */
};

/* An address that sent a wrong secret, and when it may be heard again. */
struct auth_wait {
	struct in_addr addr;
	uint64_t next_ns;
};

struct agent {
	struct options options; /* the base of every run's options */
	uint64_t budget;	/* bytes of buffers one run may allocate */
	FILE *log;
	int listen_fd;
	char secret[PROTO_SECRET_MAX + 1];
	bool has_secret;
	struct host_info host; /* for the welcome */
	struct handshake shake[AGENT_HANDSHAKES_MAX];
	struct auth_wait auth_wait[AUTH_PEERS_MAX];
	struct log_peer log_peer[LOG_PEERS_MAX];
	struct log_peer log_all; /* every address together (addr unused) */

	/* The client, greeted, if any. */
	int fd;
	char peer[INET_ADDRSTRLEN + 8];
	struct sockaddr_in peer_addr;
	struct proto_reader in;
	int stalled; /* a send failed (its errno): the client is dropped */
	uint64_t connected_ns;
	uint64_t idle_since_ns; /* its last word, or its last run's end */

	/* Its run, from "run" to the report. */
	unsigned int run_id;
	struct counter_set counters; /* the run's events, resolved here */
	struct run_config config;
	int data_fd; /* listening for the flows, between ready and started */
	struct run *run;
	uint64_t run_started_ns;
	bool overtime;	/* aborted for passing --max-duration */
	bool announced; /* "started": its threads were ready and went */
	uint64_t next_tick_ns;
	unsigned int runs;
};

/* Whether pfd (n of them) says fd may be read. */
static inline bool agent_readable(const struct pollfd *pfd, unsigned int n,
				  int fd)
{
	for (unsigned int i = 0; fd >= 0 && i < n; i++)
		if (pfd[i].fd == fd)
			return pfd[i].revents != 0;
	return false;
}

/* The earlier of deadline and d; deadline 0: none yet. */
static inline uint64_t agent_earliest(uint64_t deadline, uint64_t d)
{
	return !deadline || d < deadline ? d : deadline;
}

/* The handshakes (agent_handshake.c). */

/* A new connection on the listener becomes a handshake. */
void agent_accept(struct agent *a);
/* Handshakes: what they sent, their hellos in turn, their time limits. */
void agent_handshakes(struct agent *a, const struct pollfd *pfd, unsigned int n,
		      uint64_t now_ns);
/* Ends a handshake, with a last error line if why. */
void handshake_drop(struct agent *a, struct handshake *h, const char *why);
/* When a handshake's hello may be checked, or its time is up; 0: none. */
uint64_t agent_handshakes_deadline(const struct agent *a);

/* The greeted client and its runs (agent_client.c). */

/* A client that does not read for SEND_TIMEOUT_S is dropped after a step. */
void agent_send(struct agent *a, cJSON *msg);
/* What the client sent, read. */
void agent_read(struct agent *a);
/* The client's whole lines, read already. */
void agent_lines(struct agent *a);
/*
 * Whether the client slot is taken.  A client that has just closed its
 * connection cleanly may not have been read yet: it is read first, so that
 * it frees the slot for one that follows it at once.
 */
bool agent_busy(struct agent *a);
/* Ends the client's run and connection, with a last error line. */
void agent_drop(struct agent *a, const char *why);
/*
 * The run's step: past --max-duration it is aborted; its end reported,
 * its start announced, its ticks sent; then a client that stopped reading
 * is dropped.
 */
void agent_client_step(struct agent *a, uint64_t now_ns);

/* The log (agent_log.c). */

/*
 * One line of the log.  Lines quote what clients sent (a tool's name, a
 * bad key), so the whole line is escaped: one line per event, nothing a
 * client wrote reaches the terminal raw.
 */
void agent_log(struct agent *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * Counts a connection from addr: whether it is logged (the first LOG_BURST
 * of a window from one address are, while the window of all addresses has
 * room).
 */
bool agent_log_count(struct agent *a, struct in_addr addr, uint64_t now_ns);
/* Summaries of the windows that have ended by now. */
void agent_log_flush(struct agent *a, uint64_t now_ns);
/* When a window with connections left unlogged ends; 0: none. */
uint64_t agent_log_deadline(const struct agent *a);

#endif
