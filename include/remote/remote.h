/*
 * The client's end of the control connection to an agent (`nio-top --serve`
 * on another host): the greeting and shared secret, then for each run the
 * agent's ends started and the flows connected, the agent's figures as they
 * arrive every tick, and its report at the end.  A run sees the agent as its
 * far end (run.h): remote_far_end() is the agent of a session.
 */
#ifndef NIO_TOP_REMOTE_H
#define NIO_TOP_REMOTE_H

#include "hostinfo.h"
#include "run.h"

#include <stdbool.h>

struct remote;

/*
 * What ends a wait for the agent at once: one of fd[] (-1: none) readable,
 * and stop(ctx) saying so if stop is set (it reads what made the fd
 * readable, or the wait would spin: the caller's terminal, where only some
 * keys quit).  Without stop, any of them ends it: the caller's signals.
 */
struct remote_wake {
	int fd[2];
	bool (*stop)(void *ctx);
	void *ctx;
};

/*
 * Connects to target ("HOST" or "HOST:PORT") and greets the agent, with the
 * secret in auth_file if not NULL: 0, or -errno with *cause.  Every wait
 * for the agent, now and for each run, ends with -EINTR when wake (if not
 * NULL; the caller's, read at each wait, so it may change) says so.
 */
int remote_open(const char *target, const char *auth_file,
		const struct remote_wake *wake, struct remote **remote,
		char **cause);
void remote_close(struct remote *remote);

/* "198.18.0.1:5310" */
const char *remote_name(const struct remote *remote);
/* The agent's nio-top ("nio-top 0.9.0") and what its host is and can do. */
const char *remote_tool(const struct remote *remote);
const struct host_info *remote_host(const struct remote *remote);

/* The agent as a run's far end; a lost connection is made again per run. */
struct run_far_end remote_far_end(struct remote *remote);

#endif
