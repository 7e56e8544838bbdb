/*
 * The agent's client, once greeted: it has runs served one after another
 * until it leaves, or until it says nothing with no run for --max-idle.
 * Everything it sends is checked by proto_parse(); a bad message gets an
 * error line and the connection is closed.  Only the step that accepts a
 * run's flows waits (at most FLOWS_TIMEOUT_MS); everything else is driven
 * by the caller's poll.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "agent_private.h"
#include "cause.h"
#include "codec.h"
#include "jsonfile.h"
#include "units.h"

#define FLOWS_TIMEOUT_MS 5000

void agent_send(struct agent *a, cJSON *msg)
{
	int r = 0;

	if (a->fd >= 0 && !a->stalled)
		r = proto_send(a->fd, msg);
	if (r < 0) {
		a->stalled = -r;
		agent_log(a, "%s: cannot send: %s", a->peer, strerror(-r));
	}
	cJSON_Delete(msg);
}

/* A run's data listener, if the flows never came. */
static void agent_close_data(struct agent *a)
{
	if (a->data_fd >= 0)
		close(a->data_fd);
	a->data_fd = -1;
}

static void agent_log_result(struct agent *a, const struct run_result *r)
{
	const struct run_totals *t = &r->totals;
	bool sender = a->config.role == RUN_SENDERS;
	const struct counter_set *set = r->config.counters;
	const struct run_side_counters *side = sender ? &r->sender
						      : &r->receiver;
	char counted[512] = "", rate[64];
	size_t len = 0;

	for (unsigned int i = 0;
	     r->counted && set && i < set->count && len < sizeof(counted); i++)
		len += (size_t)snprintf(
			counted + len, sizeof(counted) - len, "%s%s %s",
			i ? ", " : "; counters: ", set->event[i].name,
			counter_status_name(side->value[i].status));
	if (sender)
		snprintf(rate, sizeof(rate), "over %.2f s", r->measured_s);
	else
		snprintf(rate, sizeof(rate), "%.3f Gbps over %.2f s",
			 run_result_gbps(r), r->measured_s);
	agent_log(a, "run %u: %s %llu bytes in %llu messages, %s%s%s%s",
		  a->run_id, sender ? "sent" : "received",
		  (unsigned long long)(sender ? t->bytes_sent
					      : t->bytes_received),
		  (unsigned long long)(sender ? t->messages_sent
					      : t->messages_received),
		  rate, counted, r->error ? "; error: " : "",
		  r->error ? r->error : "");
}

static void agent_refuse(struct agent *a, unsigned int id, const char *why)
{
	cJSON *msg = proto_message("refused", id);

	cJSON_AddStringToObject(msg, "error", why);
	agent_send(a, msg);
	agent_log(a, "run %u refused: %s", id, why);
}

/* The run has ended: report it (if the client is still there) and log. */
static void agent_finish_run(struct agent *a)
{
	struct latency_hist *rtt = NULL;
	struct run_result result;

	if (a->config.mode == RUN_RR && a->config.role == RUN_RECEIVERS) {
		rtt = malloc(sizeof(*rtt));
		if (rtt && !run_latency(a->run, rtt)) {
			free(rtt);
			rtt = NULL;
		}
	}
	run_finish(a->run, &result);
	a->run = NULL;
	a->idle_since_ns = clock_now_ns();
	/* A run that never got going is refused, with why. */
	if (a->announced)
		agent_send(a, proto_result(a->run_id, &result,
					   a->config.role == RUN_SENDERS,
					   a->config.settings.rx, rtt));
	else
		agent_refuse(a, a->run_id,
			     result.error ? result.error
					  : "its threads ended before they "
					    "were ready");
	agent_log_result(a, &result);
	run_result_fini(&result);
	free(rtt);
}

/* Ends a run at once: its connections are cut, its threads joined. */
static void agent_end_run(struct agent *a, const char *why)
{
	agent_close_data(a);
	if (!a->run)
		return;
	run_abort(a->run, why);
	while (!run_tick(a->run, clock_now_ns())) {
		struct pollfd pfd = {.fd = run_event_fd(a->run),
				     .events = POLLIN};

		poll(&pfd, 1, RUN_TICK_MS);
	}
	agent_finish_run(a);
}

/* The client's connection is closed: the agent waits for the next. */
static void agent_forget(struct agent *a)
{
	close(a->fd);
	a->fd = -1;
	a->stalled = 0;
}

void agent_drop(struct agent *a, const char *why)
{
	if (a->fd < 0)
		return;
	agent_end_run(a, why);
	proto_send_error(a->fd, why);
	agent_log(a, "%s dropped: %s", a->peer, why);
	agent_forget(a);
}

/*
 * What the owner allows one run: flows, slots, time and the memory its
 * buffers take here, checked before anything is allocated.  duration_ms 0:
 * the client paces a run with no end of its own.
 */
static int agent_check_limits(struct agent *a, const struct run_config *c,
			      char **cause)
{
	const struct options *o = &a->options;
	uint64_t time_ms = c->settings.warmup_ms + c->settings.duration_ms +
			   run_sampled_ms(c);
	char size[24], wanted[32], allowed[32], *why = NULL;
	size_t bytes;

	if (c->threads > o->max_threads)
		return cause_set(cause, -EINVAL,
				 "run.config.threads: %u flows; this agent "
				 "allows %u (--max-threads)",
				 c->threads, o->max_threads);
	/* Each strategy that keeps slots: zero-copy's, sendfile's, splice's. */
	if ((c->strategy->zerocopy || c->strategy->local_receiver) &&
	    strategy_slots(&c->settings, c->msg_size) > o->max_slots)
		return cause_set(cause, -EINVAL,
				 "run.config.slots: %u; this agent allows "
				 "%u (--max-slots)",
				 strategy_slots(&c->settings, c->msg_size),
				 o->max_slots);
	if (time_ms > o->max_duration_ms)
		return cause_set(cause, -EINVAL,
				 "run.config.duration_s: the run would "
				 "last %.3g s with its warm-up; this agent "
				 "allows %.3g s (--max-duration)",
				 (double)time_ms / 1000,
				 (double)o->max_duration_ms / 1000);
	/* Before any socket is given it: a name the kernel has loaded. */
	if (c->settings.congestion[0] &&
	    sockopts_congestion_listed(c->settings.congestion, &why) < 0) {
		cause_set(cause, -EINVAL, "run.config.congestion: %s",
			  why ? why : "not one this kernel has");
		free(why);
		return -EINVAL;
	}
	if (run_check_descriptors(c, cause) < 0)
		return -EINVAL;
	bytes = run_memory(c);
	if (bytes > a->budget) {
		units_format_size(c->msg_size, size, sizeof(size));
		units_format_bytes(bytes, wanted, sizeof(wanted));
		units_format_bytes(a->budget, allowed, sizeof(allowed));
		return cause_set(cause, -EINVAL,
				 "run.config: %u flows of %s %s need %s of "
				 "buffers here; this agent allows %s a run "
				 "(--max-memory)",
				 c->threads, c->strategy->name, size, wanted,
				 allowed);
	}
	return 0;
}

/*
 * The run's configuration, as the option table reads a run: this host's
 * ends, its events resolved here, within the owner's limits.
 */
static int agent_config(struct agent *a, const cJSON *msg, char **cause)
{
	const cJSON *side = cJSON_GetObjectItemCaseSensitive(msg, "agent_side");
	char events[COUNTERS_MAX][48];
	const char *names[COUNTERS_MAX];
	struct run_config c = {0};
	unsigned int event_count;
	int role, r;

	for (role = RUN_SENDERS; role <= RUN_RECEIVERS; role++)
		if (strcmp(side->valuestring, run_role_names[role]) == 0)
			break;
	if (role > RUN_RECEIVERS)
		return cause_set(cause, -EINVAL,
				 "run.agent_side: must be senders "
				 "or receivers");
	r = options_run_from_json(
		cJSON_GetObjectItemCaseSensitive(msg, "config"), "run.config",
		CODEC_STRICT, false, &c, events, &event_count, cause);
	if (r < 0)
		return r;
	c.role = (enum run_role)role;
	c.paced = true;
	c.counters = NULL;
	if (event_count) {
		for (unsigned int i = 0; i < event_count; i++)
			names[i] = events[i];
		r = counters_resolve(names, event_count, &a->counters, cause);
		if (r < 0)
			return r;
		c.counters = &a->counters;
	}
	r = agent_check_limits(a, &c, cause);
	if (r == 0)
		a->config = c;
	return r;
}

/* "run": checks the config and opens a port for its flows. */
static void agent_run(struct agent *a, const cJSON *msg, unsigned int id)
{
	struct sockaddr_in addr;
	socklen_t len = sizeof(addr);
	char *cause = NULL;
	cJSON *ready;

	if (a->run || a->data_fd >= 0) {
		agent_drop(a, "run: a run is already in progress");
		return;
	}
	if (agent_config(a, msg, &cause) < 0) {
		agent_refuse(a, id, cause ? cause : "run.config: not valid");
		free(cause);
		return;
	}
	a->run_id = id;
	/* The flows come to the address the client reached. */
	if (getsockname(a->fd, (struct sockaddr *)&addr, &len) == 0) {
		addr.sin_port = 0;
		a->data_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	}
	if (a->data_fd < 0 ||
	    bind(a->data_fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
	    listen(a->data_fd, (int)a->config.threads) < 0 ||
	    getsockname(a->data_fd, (struct sockaddr *)&addr, &len) < 0) {
		char why[128];

		snprintf(why, sizeof(why), "cannot listen for the flows: %s",
			 strerror(errno));
		agent_close_data(a);
		agent_refuse(a, id, why);
		return;
	}
	ready = proto_message("ready", id);
	cJSON_AddNumberToObject(ready, "port", ntohs(addr.sin_port));
	agent_send(a, ready);
}

/*
 * Accepts the client's connections for the ports it named, in its order;
 * anyone else's are closed.  0, or -errno with why.
 */
static int agent_accept_flows(struct agent *a, const cJSON *ports, int *fds,
			      char *why, size_t size)
{
	uint64_t deadline = clock_now_ns() + FLOWS_TIMEOUT_MS * NS_PER_MS;
	unsigned int got = 0, n = a->config.threads;

	while (got < n) {
		struct pollfd pfd = {.fd = a->data_fd, .events = POLLIN};
		uint64_t now = clock_now_ns();
		struct sockaddr_in from;
		socklen_t len = sizeof(from);
		unsigned int i = 0;
		int fd;

		if (now >= deadline)
			break;
		if (poll(&pfd, 1, (int)((deadline - now) / NS_PER_MS) + 1) <= 0)
			continue;
		fd = accept4(a->data_fd, (struct sockaddr *)&from, &len,
			     SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		while (i < n &&
		       (cJSON_GetArrayItem(ports, (int)i)->valuedouble !=
				ntohs(from.sin_port) ||
			fds[i] >= 0))
			i++;
		if (i == n ||
		    from.sin_addr.s_addr != a->peer_addr.sin_addr.s_addr) {
			close(fd);
			continue;
		}
		fds[i] = fd;
		got++;
	}
	if (got == n)
		return 0;
	snprintf(why, size, "%u of %u flows connected within %d s", got, n,
		 FLOWS_TIMEOUT_MS / 1000);
	return -ETIMEDOUT;
}

/* "flows": takes the connections and starts this host's ends. */
static void agent_flows(struct agent *a, const cJSON *msg, unsigned int id)
{
	const cJSON *ports = cJSON_GetObjectItemCaseSensitive(msg, "ports");
	int fds[OPTIONS_THREADS_MAX];
	char why[256], size[24];
	char *cause = NULL;
	int r;

	if (a->data_fd < 0 || id != a->run_id || a->run) {
		agent_drop(a, "flows: no run is waiting for its flows");
		return;
	}
	if ((unsigned int)cJSON_GetArraySize(ports) != a->config.threads) {
		snprintf(why, sizeof(why), "flows.ports: must name %u ports",
			 a->config.threads);
		agent_drop(a, why);
		return;
	}
	for (unsigned int i = 0; i < a->config.threads; i++) {
		uint64_t port;

		if (jsonfile_u64(cJSON_GetArrayItem(ports, (int)i), &port) <
			    0 ||
		    port < 1 || port > 65535) {
			snprintf(why, sizeof(why),
				 "flows.ports[%u]: must be a port 1 .. 65535",
				 i);
			agent_drop(a, why);
			return;
		}
	}
	for (unsigned int i = 0; i < a->config.threads; i++)
		fds[i] = -1;
	r = agent_accept_flows(a, ports, fds, why, sizeof(why));
	agent_close_data(a);
	if (r < 0) {
		for (unsigned int i = 0; i < a->config.threads; i++)
			if (fds[i] >= 0)
				close(fds[i]);
		agent_refuse(a, id, why);
		return;
	}
	r = run_start_connected(&a->config, fds, &a->run, &cause);
	if (r < 0) {
		snprintf(why, sizeof(why), "%s", cause ? cause : strerror(-r));
		free(cause);
		agent_refuse(a, id, why);
		return;
	}
	a->runs++;
	a->run_started_ns = clock_now_ns();
	a->overtime = false;
	a->announced = false;
	a->next_tick_ns = a->run_started_ns + TICK_NS;
	units_format_size(a->config.msg_size, size, sizeof(size));
	agent_log(a, "run %u: %s %s x%u %s, this host runs the %s%s%s", id,
		  a->config.strategy->name, size, a->config.threads,
		  run_mode_name(a->config.mode), run_role_name(a->config.role),
		  a->config.settings.congestion[0] ? ", congestion " : "",
		  a->config.settings.congestion);
}

/* A message from a greeted client, in its place in a run's life. */
static void agent_message(struct agent *a, const cJSON *msg, const char *type)
{
	unsigned int id = proto_run_id(msg);
	bool current = a->run && id == a->run_id;
	char why[128];

	if (strcmp(type, "run") == 0) {
		agent_run(a, msg, id);
	} else if (strcmp(type, "flows") == 0) {
		agent_flows(a, msg, id);
	} else if (strcmp(type, "measure") == 0) {
		if (current)
			run_end_warmup(a->run);
	} else if (strcmp(type, "stop") == 0) {
		if (current)
			run_stop(a->run);
	} else if (strcmp(type, "abort") == 0) {
		const cJSON *reason = cJSON_GetObjectItemCaseSensitive(
			msg, "reason");

		snprintf(why, sizeof(why), "the client aborted: %s",
			 cJSON_IsString(reason) ? reason->valuestring
						: "no reason given");
		if (current)
			run_abort(a->run, why);
		if (id == a->run_id)
			agent_close_data(a);
	} else {
		snprintf(why, sizeof(why), "%s: not a message a client sends",
			 type);
		agent_drop(a, why);
	}
	/* Marks of a run already over (or never started) are stale: fine. */
}

static void agent_line(struct agent *a, const char *line, size_t len)
{
	const char *type;
	char *cause = NULL;
	cJSON *msg;

	if (proto_parse(line, len, &msg, &type, &cause) < 0) {
		agent_drop(a, cause ? cause : "a bad message");
		free(cause);
		return;
	}
	a->idle_since_ns = clock_now_ns();
	if (strcmp(type, "hello") == 0)
		agent_drop(a, "hello: already greeted");
	else
		agent_message(a, msg, type);
	cJSON_Delete(msg);
}

/* The client's connection broke (how) during a run, which ends so. */
static void agent_went_away(struct agent *a, const char *how)
{
	char why[128];

	snprintf(why, sizeof(why), "the client went away mid-run (%s)", how);
	agent_end_run(a, why);
	agent_log(a, "%s: %s", a->peer, why);
	agent_forget(a);
}

void agent_read(struct agent *a)
{
	ssize_t n = proto_reader_fill(&a->in, a->fd);
	bool gone = n == 0 ||
		    (n < 0 && n != -EAGAIN && n != -EINTR && n != -EMSGSIZE);

	if (gone && !a->run && a->data_fd < 0) {
		agent_log(a, "%s left after %u run%s%s%s", a->peer, a->runs,
			  a->runs == 1 ? "" : "s", n < 0 ? ": " : "",
			  n < 0 ? strerror((int)-n) : "");
		agent_forget(a);
		return;
	}
	if (gone) {
		agent_went_away(a, n == 0 ? "connection closed"
					  : strerror((int)-n));
		return;
	}
	agent_lines(a);
}

void agent_lines(struct agent *a)
{
	char why[128];

	while (a->fd >= 0) {
		char *line;
		size_t len;
		int r = proto_reader_next(&a->in, &line, &len);

		if (r == 0)
			break;
		if (r < 0) {
			snprintf(why, sizeof(why),
				 "a message longer than %d bytes",
				 PROTO_AGENT_LINE_MAX);
			agent_drop(a, why);
			break;
		}
		agent_line(a, line, len);
	}
}

bool agent_busy(struct agent *a)
{
	struct pollfd pfd = {.fd = a->fd, .events = POLLIN};

	if (a->fd >= 0 && poll(&pfd, 1, 0) > 0)
		agent_read(a);
	return a->fd >= 0;
}

/* Every tick: this host's ends so far, for the client's gauges. */
static void agent_tick(struct agent *a)
{
	bool sender = a->config.role == RUN_SENDERS;
	unsigned int events = a->config.counters ? a->config.counters->count
						 : 0;
	struct counter_open open[COUNTERS_MAX] = {{0}};
	struct latency_hist *rtt = NULL;
	const char *error = run_error(a->run);
	cJSON *msg = proto_message("tick", a->run_id);
	cJSON *totals;
	struct sample s;
	bool counting;

	run_sample(a->run, &s, NULL);
	counting = run_counters_open(a->run, sender, open);
	totals = cJSON_AddObjectToObject(msg, "totals");
	codec_write_totals(&s.totals, a->config.settings.rx, totals);
	cJSON_AddBoolToObject(msg, "counting", counting);
	cJSON_AddBoolToObject(msg, "pmu",
			      a->config.counters &&
				      a->config.counters->pmu_present);
	cJSON_AddItemToObject(msg, "counters",
			      codec_list(&counter_reading_record,
					 sender ? s.tx_counters : s.rx_counters,
					 sizeof(s.tx_counters[0]), events));
	cJSON_AddItemToObject(msg, "open",
			      codec_list(&counter_open_record, open,
					 sizeof(open[0]), events));
	if (a->config.mode == RUN_RR && !sender)
		rtt = malloc(sizeof(*rtt));
	if (rtt && run_latency(a->run, rtt))
		cJSON_AddItemToObject(msg, "latency", codec_hist(rtt));
	else
		cJSON_AddNullToObject(msg, "latency");
	free(rtt);
	if (error)
		cJSON_AddStringToObject(msg, "error", error);
	else
		cJSON_AddNullToObject(msg, "error");
	agent_send(a, msg);
}

void agent_client_step(struct agent *a, uint64_t now_ns)
{
	char why[96];

	if (a->run && !a->overtime &&
	    now_ns > a->run_started_ns +
			     a->options.max_duration_ms * NS_PER_MS) {
		snprintf(why, sizeof(why),
			 "the run passed this agent's --max-duration of %.3g s",
			 (double)a->options.max_duration_ms / 1000);
		run_abort(a->run, why);
		a->overtime = true;
	}
	if (a->run && run_tick(a->run, now_ns)) {
		agent_finish_run(a);
	} else if (a->run && !a->announced && run_started(a->run)) {
		/* Its threads are ready: the client's clock may start. */
		a->announced = true;
		a->next_tick_ns = now_ns + TICK_NS;
		agent_send(a, proto_message("started", a->run_id));
	} else if (a->run && a->announced && now_ns >= a->next_tick_ns) {
		agent_tick(a);
		while (a->next_tick_ns <= now_ns)
			a->next_tick_ns += TICK_NS;
	}
	if (a->fd >= 0 && (a->stalled == ECONNRESET || a->stalled == EPIPE)) {
		agent_went_away(a, strerror(a->stalled));
	} else if (a->fd >= 0 && a->stalled) {
		agent_end_run(a, "the client stopped reading");
		agent_log(a, "%s dropped: it stopped reading", a->peer);
		agent_forget(a);
	}
}
