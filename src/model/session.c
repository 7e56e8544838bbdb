/*
 * Sessions.  Without the privilege for namespaces nio-top does not fail: it
 * says why and measures over the loopback of the namespace it was started in
 * (unless the user asked for something only its own network can give).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cause.h"
#include "crossover_run.h"
#include "plan.h"
#include "session.h"
#include "units.h"

void session_init(struct session *s)
{
	memset(s, 0, sizeof(*s));
	s->topo.server_ns = s->topo.client_ns = -1;
}

/* Now, for reports: the minute the session began, in UTC. */
static void session_date(struct session *s)
{
	time_t now = time(NULL);
	struct tm tm;

	if (gmtime_r(&now, &tm))
		strftime(s->date, sizeof(s->date), "%Y-%m-%d %H:%M UTC", &tm);
}

struct run_config session_base(const struct session *s)
{
	const struct options *o = &s->options;
	struct run_config base = plan_point(
		o,
		&(struct run_config){
			.role = !o->connect  ? RUN_BOTH
				: o->reverse ? RUN_RECEIVERS
					     : RUN_SENDERS,
			.counters = o->counters_enabled ? &s->options.counters
							: NULL,
			.link_rate_bps = o->topo.rate_bps,
		});

	return base;
}

/*
 * Falling back is honest only when nothing was asked of the link itself: a
 * shaped or named network cannot be had in someone else's namespace.
 */
static bool session_may_fall_back(const struct topo_options *t)
{
	return t->kind != TOPO_REMOTE && !t->mtu && !t->rate_bps &&
	       !t->delay_ms && !t->loss_pct && !t->keep_prefix[0];
}

/* --connect: the agent, and what it said of itself. */
static int session_connect(struct session *s, const struct remote_wake *wake,
			   char **cause)
{
	const struct options *o = &s->options;
	int r = remote_open(o->connect, o->auth_file, wake, &s->remote, cause);

	if (r < 0)
		return r;
	s->far = remote_far_end(s->remote);
	s->has_agent = true;
	snprintf(s->agent.address, sizeof(s->agent.address), "%s",
		 remote_name(s->remote));
	snprintf(s->agent.tool, sizeof(s->agent.tool), "%s",
		 remote_tool(s->remote));
	s->agent.host = *remote_host(s->remote);
	return 0;
}

int session_open(struct session *s, const struct options *options,
		 const struct remote_wake *wake, char **cause)
{
	struct run_config base;
	int r;

	session_init(s);
	s->options = *options;
	session_date(s);
	r = topo_create(&options->topo, &s->topo, cause);
	if (r == -EPERM && session_may_fall_back(&options->topo)) {
		struct topo_options here = options->topo;

		here.kind = TOPO_CURRENT;
		if (asprintf(&s->notice,
			     "%s (no CAP_SYS_ADMIN/CAP_NET_ADMIN?): running "
			     "over loopback in the current namespace",
			     *cause ? *cause : "no privilege for namespaces") <
		    0)
			s->notice = NULL;
		free(*cause);
		r = topo_create(&here, &s->topo, cause);
	}
	if (r == 0 && options->connect)
		r = session_connect(s, wake, cause);
	if (r < 0) {
		session_close(s);
		return r;
	}
	/* Once, not per export: probing builds a second network. */
	host_info_read(&s->host, s->options.counters_enabled
					 ? &s->options.counters
					 : NULL);
	host_env_read(&s->env, &s->topo);
	s->has_env = true;
	base = session_base(s);
	r = plan_build(&s->options, &base, false, &s->plan, &s->plan_count,
		       cause);
	if (r == 0 && options->crossover[0])
		r = crossover_open(&s->crossover, &s->options, &base, cause);
	if (r < 0) {
		session_close(s);
		return r;
	}
	return 0;
}

/* Whether the session knows the idle figures of config's probe. */
static bool session_probe_idle_of(const struct session *s,
				  const struct run_config *config)
{
	struct probe_key key;
	char *cause = NULL;
	bool known;

	if (!config->settings.probe.rate_hz || !s->probe_idle_known)
		return false;
	known = probe_key_of(&config->settings, config->threads, &key,
			     &cause) == 0 &&
		probe_key_equal(&key, &s->probe_idle_key);
	free(cause);
	return known;
}

/* A run that measured its probe alone: the next with its key reuses it. */
static void session_probe_learn(struct session *s, const struct run_result *r)
{
	char *cause = NULL;

	if (!r->probe.present || r->probe.idle_reused ||
	    !r->probe.idle.rtt.count ||
	    probe_key_of(&r->config.settings, r->config.threads,
			 &s->probe_idle_key, &cause) < 0) {
		free(cause);
		return;
	}
	s->probe_idle = r->probe.idle;
	s->probe_idle_known = true;
}

int session_start_run(struct session *s, const struct run_config *config,
		      struct run **run, char **cause)
{
	const char *whose;
	uint64_t budget = run_memory_budget(s->options.max_memory, &whose);
	size_t bytes = run_memory(config);
	int r;

	/* Known before a byte is allocated, as an agent knows its side. */
	if (bytes > budget) {
		char size[24], wanted[32], allowed[32];

		units_format_size(config->msg_size, size, sizeof(size));
		units_format_bytes(bytes, wanted, sizeof(wanted));
		units_format_bytes(budget, allowed, sizeof(allowed));
		return cause_set(
			cause, -E2BIG,
			"%u flow%s of %s %s need%s %s of buffers; a "
			"run may use %s here (%s%s)",
			config->threads, config->threads == 1 ? "" : "s",
			config->strategy->name, size,
			config->threads == 1 ? "s" : "", wanted, allowed,
			whose ? "a quarter of " : "--max-memory",
			whose ? whose : "");
	}
	r = run_start(config, &s->topo, s->remote ? &s->far : NULL, run, cause);
	if (r == 0 && session_probe_idle_of(s, config))
		run_probe_reuse_idle(*run, &s->probe_idle);
	return r;
}

uint64_t session_probe_alone_ms(const struct session *s,
				const struct run_config *config)
{
	if (!config->settings.probe.rate_hz || session_probe_idle_of(s, config))
		return 0;
	return config->settings.warmup_ms + probe_idle_ms(&config->settings);
}

void session_analyse(struct session *s)
{
	struct analysis_run *grown;

	/* Every result's facts again: the threshold may have changed. */
	grown = realloc(s->run_facts,
			(s->result_count + 1) * sizeof(*s->run_facts));
	analysis_fini(&s->analysis);
	if (!grown)
		return;
	s->run_facts = grown;
	for (size_t i = 0; i < s->result_count; i++)
		analysis_run_read(&s->results[i], s->options.min_measured_ms,
				  s->options.keep_stopped, &s->run_facts[i]);
	s->run_fact_count = s->result_count;
	analysis_build(s->results, s->run_facts, s->result_count, &s->analysis);
}

int session_add_result(struct session *s, struct run_result *result)
{
	void *grown = realloc(s->results,
			      (s->result_count + 1) * sizeof(*s->results));
	struct analysis_run *facts;

	if (!grown) {
		run_result_fini(result);
		return -ENOMEM;
	}
	s->results = grown;
	facts = realloc(s->run_facts,
			(s->result_count + 1) * sizeof(*s->run_facts));
	if (!facts) {
		run_result_fini(result);
		return -ENOMEM;
	}
	s->run_facts = facts;
	s->results[s->result_count] = *result;
	session_probe_learn(s, result);
	/* The bootstrap runs once per result, not once per analysis. */
	analysis_run_read(result, s->options.min_measured_ms,
			  s->options.keep_stopped,
			  &s->run_facts[s->result_count]);
	s->result_count++;
	s->run_fact_count = s->result_count;
	analysis_fini(&s->analysis);
	analysis_build(s->results, s->run_facts, s->result_count, &s->analysis);
	return 0;
}

int session_search_take(struct session *s, uint64_t now_ns)
{
	size_t last;

	if (!s->crossover || !s->result_count)
		return 0;
	last = s->result_count - 1;
	return crossover_take(
		s->crossover, s->result_count, &s->results[last],
		last < s->run_fact_count ? &s->run_facts[last] : NULL, now_ns);
}

size_t session_next_run(const struct session *s)
{
	return s->result_count + 1;
}

void session_close(struct session *s)
{
	for (size_t i = 0; i < s->result_count; i++)
		run_result_fini(&s->results[i]);
	free(s->results);
	free(s->run_facts);
	free(s->plan);
	free(s->notice);
	cJSON_Delete(s->baseline);
	crossover_free(s->crossover);
	analysis_fini(&s->analysis);
	remote_close(s->remote);
	topo_destroy(&s->topo);
	session_init(s);
}
