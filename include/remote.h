/*
 * The client's end of the control connection to an agent (`nio-top --serve`
 * on another host): the greeting and shared secret, then for each run the
 * agent's end started and the flows connected, the agent's figures as they
 * arrive every tick, and its report at the end.  A run sees the agent's ends
 * through remote_merge(): its samples then hold both hosts' counts.
 */
#ifndef NIO_TOP_REMOTE_H
#define NIO_TOP_REMOTE_H

#include <cjson/cJSON.h>
#include <netinet/in.h>
#include <stdbool.h>

#include "counters.h"
#include "latency.h"
#include "run.h"
#include "sampler.h"

/* What the agent said of the current run's ends, last tick and at the end. */
struct remote_view {
	unsigned int run_id;
	unsigned int events; /* counters the agent reads per thread */
	bool has_sample;
	struct run_totals totals;
	struct counter_reading counters[COUNTERS_MAX];
	bool counting; /* the agent's threads opened their counters */
	bool pmu;      /* the agent has a hardware PMU */
	int open_error[COUNTERS_MAX];
	bool user_only[COUNTERS_MAX];
	bool has_latency; /* RUN_RR: the measured window's round trips */
	struct latency_hist latency;

	bool done; /* the agent's report is in */
	double measured_s;
	double gbps;
	double msgs_per_s;
	bool counted;
	struct run_side_counters side;
	char *error; /* "agent: ..." once its end failed or it is gone */
	bool lost;   /* the control connection is gone */
};

struct remote;

/*
 * Connects to target ("HOST" or "HOST:PORT") and greets the agent, with the
 * secret in auth_file if not NULL: 0, or -errno with *cause.
 */
int remote_open(const char *target, const char *auth_file,
		struct remote **remote, char **cause);
void remote_close(struct remote *remote);

/* "198.18.0.1:5310" */
const char *remote_name(const struct remote *remote);
/* The agent's host and capabilities, as an export writes them. */
const cJSON *remote_host(const struct remote *remote);
const cJSON *remote_capabilities(const struct remote *remote);
/* The agent's nio-top ("nio-top 0.9.0"). */
const char *remote_tool(const struct remote *remote);

/*
 * Starts the agent's ends of a run (config->role is this host's) and
 * connects the flows: 0 with fds[i] this host's end of flow i, or -errno
 * with *cause.  A lost connection is made again first.
 */
int remote_run_begin(struct remote *remote, const struct run_config *config,
		     int *fds, char **cause);
/* Reads whatever the agent sent since, without waiting. */
void remote_run_poll(struct remote *remote);
const struct remote_view *remote_view(const struct remote *remote);
/* Tells the agent "measure", "stop" or "abort" (with a reason). */
void remote_run_mark(struct remote *remote, const char *what,
		     const char *reason);

/* Puts the agent's ends into a sample of this host's (role: this host's). */
void remote_merge(const struct remote *remote, enum run_role role,
		  struct sample *s);
/* Event i of the agent's ends over delta, as run_counter_value() says. */
void remote_counter_value(const struct remote *remote,
			  const struct counter_set *set, unsigned int i,
			  const struct counter_reading *delta,
			  struct counter_value *out);
/* RUN_RR: the round trips the agent timed, if it sent them. */
bool remote_latency(const struct remote *remote, struct latency_hist *out);

#endif
