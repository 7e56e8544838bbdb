/*
 * A session: the options, the network nio-top built (and, with --connect, the
 * agent that runs the flows' other ends), what this host can do, the plan
 * of runs, the results so far and what they say (the analysis, kept up to
 * date as results arrive).  A loaded export is a session too, with no
 * network and no plan.
 */
#ifndef NIO_TOP_SESSION_H
#define NIO_TOP_SESSION_H

#include "analysis.h"
#include "environment.h"
#include "hostinfo.h"
#include "options.h"
#include "remote.h"
#include "run.h"
#include "topo.h"

struct crossover;

/* The other host of a --connect session, as it described itself. */
struct session_agent {
	char address[64]; /* "198.18.0.1:5310" */
	char tool[65];	  /* "nio-top 0.1.0" */
	struct host_info host;
};

struct session {
	struct options options;
	struct topo topo;
	struct remote *remote; /* --connect: the agent */
	struct run_far_end far;
	bool has_agent;
	struct session_agent agent;
	char *notice; /* why the topology differs from the one asked for */
	struct run_config *plan;
	size_t plan_count;
	/*
	 * The finished runs, numbered from 1 in this order everywhere (the
	 * header, the runs table, the status line, the export).
	 */
	struct run_result *results;
	size_t result_count;
	/* What the analysis reads of each result, worked out as it arrives. */
	struct analysis_run *run_facts;
	size_t run_fact_count;
	/* When it began, "2026-11-23 15:04 UTC" (a loaded file's own). */
	char date[32];
	/* What this machine can do, probed once (read from a loaded file). */
	struct host_info host;
	/* What it was doing to the path when the session began (idem). */
	struct host_env env;
	bool has_env;		  /* a loaded export older than it has none */
	struct analysis analysis; /* of the results, rebuilt as they change */
	/* A loaded export's events: their names as saved, nothing encoded. */
	struct counter_set loaded_counters;
	/*
	 * The probe alone, as the last run that measured it found it: a run
	 * whose probe has the same key reuses it instead of running alone.
	 */
	bool probe_idle_known;
	struct probe_key probe_idle_key;
	struct probe_summary probe_idle;
	/*
	 * --baseline: the study compared with it, as --diff -o writes a
	 * comparison (its gate's verdict in it); the export carries it.
	 */
	cJSON *baseline;
	/*
	 * --crossover, or the explorer's: the search and its runs (among the
	 * results), or NULL (crossover_run.h).
	 */
	struct crossover *crossover;
};

/*
 * Builds the network (or reaches the agent) and the plan: 0 or -errno.
 * wake (or NULL; kept, and read at each wait): what ends every wait for the
 * agent (-EINTR), now and at the start of each run (remote.h).
 */
int session_open(struct session *session, const struct options *options,
		 const struct remote_wake *wake, char **cause);
/* An empty session to load an export into (export_load). */
void session_init(struct session *session);

/* What every run of the session shares: which ends run here, the counters. */
struct run_config session_base(const struct session *session);
/* Starts a run over the session's network and agent. */
int session_start_run(struct session *session, const struct run_config *config,
		      struct run **run, char **cause);
/*
 * How long a run of config will run its probe alone before its load (0:
 * no probe, or its idle figures are known from an earlier run), in ms.
 */
uint64_t session_probe_alone_ms(const struct session *session,
				const struct run_config *config);

/* Takes ownership of *result; the analysis follows. */
int session_add_result(struct session *session, struct run_result *result);
/*
 * The crossover search, where there is one, takes the run added last with
 * the analysis' facts of it: 0, or -ENOMEM.
 */
int session_search_take(struct session *session, uint64_t now_ns);
/*
 * The analysis again, after results were added some other way or the
 * threshold of short runs (options.min_measured_ms) changed.
 */
void session_analyse(struct session *session);

/* The number the next finished run will have. */
size_t session_next_run(const struct session *session);

void session_close(struct session *session);

#endif
