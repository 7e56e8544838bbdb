/*
 * A session: the network nio-top built, the plan of runs (every combination of
 * the chosen strategies, sizes and thread counts) and the results so far.
 */
#ifndef NIO_TOP_SESSION_H
#define NIO_TOP_SESSION_H

#include "cli.h"
#include "hostinfo.h"
#include "run.h"
#include "topo.h"

struct session {
	struct options options;
	struct topo topo;
	char *notice; /* why the topology differs from the one asked for */
	struct run_config *plan;
	size_t plan_count;
	struct run_result *results;
	size_t result_count;
	/* What the machine can do, probed once at open (not for --load). */
	struct host_info host;
	bool host_known;
};

/* Builds the topology and the plan: 0 or -errno with *cause. */
int session_open(struct session *session, const struct options *options,
		 char **cause);
/*
 * A run at one point with o's settings and timing, over the session's
 * network (which decides which ends run here) and with its counters.
 */
struct run_config session_run_config(const struct session *session,
				     const struct options *o,
				     const struct strategy_ops *strategy,
				     size_t msg_size, unsigned int threads);
/* Takes ownership of *result. */
int session_add_result(struct session *session, struct run_result *result);
void session_close(struct session *session);

#endif
