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

struct remote;

/*
 * Connects to target ("HOST" or "HOST:PORT") and greets the agent, with the
 * secret in auth_file if not NULL: 0, or -errno with *cause.  Every wait
 * for the agent, now and for each run, ends at once with -EINTR when
 * wake_fd (if not -1) is readable: the caller's signals.
 */
int remote_open(const char *target, const char *auth_file, int wake_fd,
		struct remote **remote, char **cause);
void remote_close(struct remote *remote);

/* "198.18.0.1:5310" */
const char *remote_name(const struct remote *remote);
/* The agent's nio-top ("nio-top 0.9.0") and what its host is and can do. */
const char *remote_tool(const struct remote *remote);
const struct host_info *remote_host(const struct remote *remote);

/* The agent as a run's far end; a lost connection is made again per run. */
struct run_far_end remote_far_end(struct remote *remote);

#endif
