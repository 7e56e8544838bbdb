/*
 * The agent (`nio-top --serve`): a long-running server for one client at a
 * time.  It greets a client (protocol version, shared secret) before the
 * client may take its one slot, runs the ends of each run the client asks
 * for (receivers, or senders with --reverse) over connections the client
 * makes, paced by the client's clock, counts its own threads, sends its
 * figures every tick and its report at the end.  A client that sends a bad
 * message, goes away, hangs or idles is dropped and the agent waits for the
 * next; a second greeted client meanwhile is told it is busy.
 * The main loop polls what agent_poll() asks for and calls agent_step().
 */
#ifndef NIO_TOP_AGENT_H
#define NIO_TOP_AGENT_H

#include <poll.h>
#include <stdint.h>
#include <stdio.h>

#include "options.h"

/* Connections waiting to be greeted, at most. */
#define AGENT_HANDSHAKES_MAX 4
/* Of which one address may hold at most this many. */
#define AGENT_HANDSHAKES_PER_ADDR 2
/* The listener, the client, the run, and the handshakes. */
#define AGENT_POLL_MAX (3 + AGENT_HANDSHAKES_MAX)

struct agent;

/*
 * Listens on options->listen and ->port; says what happens on log, one line
 * per event.  0, or -errno with *cause.
 */
int agent_open(const struct options *options, FILE *log, struct agent **agent,
	       char **cause);
/* Ends a run in progress (why goes to the client) and closes everything. */
void agent_close(struct agent *agent, const char *why);

/* The descriptors to poll (at most AGENT_POLL_MAX): their count. */
unsigned int agent_poll(const struct agent *agent, struct pollfd *pfd);
/* When agent_step() must be called next without any event; 0: never. */
uint64_t agent_deadline_ns(const struct agent *agent);
/* Handles what the poll found (pfd as agent_poll() set it up). */
void agent_step(struct agent *agent, const struct pollfd *pfd, unsigned int n,
		uint64_t now_ns);

#endif
