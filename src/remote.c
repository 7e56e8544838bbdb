/*
 * The client's end of the control connection.  Waiting happens only while a
 * run is set up (a few round trips, each with a time limit); during a run
 * the main loop's tick reads what arrived without waiting.  Messages of an
 * earlier run (a late tick, the report of an aborted run) are skipped by
 * their run number.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clock.h"
#include "jsonfile.h"
#include "preset.h"
#include "proto.h"
#include "remote.h"

#define CONNECT_TIMEOUT_MS 5000
#define REPLY_TIMEOUT_MS   10000

struct remote {
	char *target;
	char *auth_file;
	int fd;
	struct sockaddr_in addr;
	char name[INET_ADDRSTRLEN + 8];
	char tool[65];
	struct proto_reader in;
	cJSON *host;
	cJSON *capabilities;
	unsigned int last_id;
	struct remote_view view;
};

static int remote_fail(char **cause, int r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int remote_fail(char **cause, int r, const char *fmt, ...)
{
	va_list ap;

	free(*cause);
	va_start(ap, fmt);
	if (vasprintf(cause, fmt, ap) < 0)
		*cause = NULL;
	va_end(ap);
	return r;
}

/* "HOST" or "HOST:PORT" to an IPv4 address. */
static int remote_resolve(const char *target, struct sockaddr_in *addr,
			  char **cause)
{
	struct addrinfo hints = {.ai_family = AF_INET,
				 .ai_socktype = SOCK_STREAM};
	struct addrinfo *found;
	char host[256];
	const char *colon = strrchr(target, ':');
	unsigned long port = PROTO_PORT;
	size_t len = colon ? (size_t)(colon - target) : strlen(target);
	int r;

	if (colon) {
		char *end;

		errno = 0;
		port = strtoul(colon + 1, &end, 10);
		if (colon[1] < '0' || colon[1] > '9' || *end || errno ||
		    port < 1 || port > 65535)
			return remote_fail(cause, -EINVAL,
					   "--connect: '%s' is not a port "
					   "(1 .. 65535)",
					   colon + 1);
	}
	if (len == 0 || len >= sizeof(host))
		return remote_fail(cause, -EINVAL,
				   "--connect: '%s' names no host", target);
	memcpy(host, target, len);
	host[len] = '\0';
	r = getaddrinfo(host, NULL, &hints, &found);
	if (r != 0)
		return remote_fail(cause, -EHOSTUNREACH,
				   "--connect: cannot resolve '%s': %s", host,
				   gai_strerror(r));
	*addr = *(struct sockaddr_in *)found->ai_addr;
	addr->sin_port = htons((uint16_t)port);
	freeaddrinfo(found);
	return 0;
}

/*
 * A connected TCP socket to addr within the time limit: fd or -errno.  It
 * blocks afterwards, writes for at most the same limit.
 */
static int remote_dial(const struct sockaddr_in *addr)
{
	struct timeval limit = {.tv_sec = CONNECT_TIMEOUT_MS / 1000};
	struct pollfd pfd = {.events = POLLOUT};
	int fd, err = 0, flags;
	socklen_t len = sizeof(err);

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (const struct sockaddr *)addr, sizeof(*addr)) < 0) {
		if (errno != EINPROGRESS) {
			err = errno;
			goto err;
		}
		pfd.fd = fd;
		if (poll(&pfd, 1, CONNECT_TIMEOUT_MS) == 0) {
			err = ETIMEDOUT;
			goto err;
		}
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
			err = errno;
		if (err)
			goto err;
	}
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof(limit)) <
		    0) {
		err = errno;
		goto err;
	}
	return fd;
err:
	close(fd);
	return -err;
}

static void view_reset(struct remote_view *v, unsigned int id)
{
	free(v->error);
	*v = (struct remote_view){.run_id = id};
}

static void view_fail(struct remote_view *v, bool lost, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void view_fail(struct remote_view *v, bool lost, const char *fmt, ...)
{
	va_list ap;

	v->lost = v->lost || lost;
	if (v->error)
		return;
	va_start(ap, fmt);
	if (vasprintf(&v->error, fmt, ap) < 0)
		v->error = NULL;
	va_end(ap);
}

/*
 * The connection is gone (or unusable): the run and later ones learn why,
 * and the next run connects again.
 */
static void remote_lost(struct remote *rm, const char *why)
{
	view_fail(&rm->view, true, "%s", why);
	if (rm->fd >= 0) {
		close(rm->fd);
		rm->fd = -1;
	}
}

/* Lost mid-run: "lost the agent 198.18.0.1:5310: why". */
static void remote_gone(struct remote *rm, const char *why)
{
	char text[512];

	snprintf(text, sizeof(text), "lost the agent %s: %s", rm->name, why);
	remote_lost(rm, text);
}

/* The next whole message read already: 1, 0 (none yet) or -errno. */
static int remote_next(struct remote *rm, cJSON **msg, const char **type,
		       char **cause)
{
	char *line, *why = NULL;
	size_t len;
	int r = proto_reader_next(&rm->in, &line, &len);

	if (r == -EMSGSIZE)
		return remote_fail(cause, -EPROTO,
				   "agent %s: a message longer than %d bytes",
				   rm->name, PROTO_CLIENT_LINE_MAX);
	if (r <= 0)
		return r;
	r = proto_parse(line, len, msg, type, &why);
	if (r < 0) {
		r = remote_fail(cause, -EPROTO, "agent %s sent a bad %s",
				rm->name, why ? why : "message");
		free(why);
		return r;
	}
	return 1;
}

/* Reads what the socket holds: bytes, or -errno with *cause. */
static int remote_fill(struct remote *rm, char **cause)
{
	ssize_t n = proto_reader_fill(&rm->in, rm->fd);

	if (n == 0)
		return remote_fail(cause, -ECONNRESET,
				   "agent %s closed the connection", rm->name);
	if (n < 0 && n != -EINTR && n != -EAGAIN)
		return remote_fail(cause, (int)n, "agent %s: %s", rm->name,
				   strerror((int)-n));
	return n < 0 ? 0 : (int)n;
}

/*
 * The next message, waiting up to timeout_ms: 0 with *msg and *type, or
 * -errno with *cause.
 */
static int remote_receive(struct remote *rm, int timeout_ms, cJSON **msg,
			  const char **type, char **cause)
{
	uint64_t deadline = clock_now_ns() + (uint64_t)timeout_ms * NS_PER_MS;

	for (;;) {
		struct pollfd pfd = {.fd = rm->fd, .events = POLLIN};
		uint64_t now = clock_now_ns();
		int r = remote_next(rm, msg, type, cause);

		if (r != 0)
			return r < 0 ? r : 0;
		if (now >= deadline)
			return remote_fail(cause, -ETIMEDOUT,
					   "agent %s: no answer within %d s",
					   rm->name, timeout_ms / 1000);
		r = poll(&pfd, 1, (int)((deadline - now) / NS_PER_MS) + 1);
		if (r < 0 && errno != EINTR)
			return remote_fail(cause, -errno, "poll: %s",
					   strerror(errno));
		if (r <= 0)
			continue;
		r = remote_fill(rm, cause);
		if (r < 0)
			return r;
	}
}

/* Waits for the answer to run id: one of the types wanted, or an error. */
static int remote_answer(struct remote *rm, unsigned int id, const char *wanted,
			 cJSON **answer, char **cause)
{
	for (;;) {
		const char *type;
		const cJSON *text;
		cJSON *msg;
		int r = remote_receive(rm, REPLY_TIMEOUT_MS, &msg, &type,
				       cause);

		if (r < 0)
			return r;
		text = cJSON_GetObjectItemCaseSensitive(msg, "error");
		if (proto_run_id(msg) == id && strcmp(type, wanted) == 0) {
			*answer = msg;
			return 0;
		}
		if (strcmp(type, "error") == 0)
			r = remote_fail(cause, -ECONNREFUSED, "agent %s: %s",
					rm->name, text->valuestring);
		else if (proto_run_id(msg) == id &&
			 strcmp(type, "refused") == 0)
			r = remote_fail(cause, -EINVAL, "agent %s: %s",
					rm->name, text->valuestring);
		/* Else a tick or report of a run given up on, skipped. */
		else if (strcmp(type, "tick") != 0 &&
			 strcmp(type, "result") != 0)
			r = remote_fail(cause, -EPROTO,
					"agent %s sent \"%s\", not \"%s\"",
					rm->name, type, wanted);
		cJSON_Delete(msg);
		if (r < 0)
			return r;
	}
}

/* Connects and greets: the agent's version must be this one's. */
static int remote_greet(struct remote *rm, char **cause)
{
	char secret[PROTO_SECRET_MAX + 1];
	cJSON *msg, *reply;
	const char *type;
	uint64_t version;
	int r;

	if (rm->auth_file) {
		r = proto_read_secret(rm->auth_file, secret, sizeof(secret),
				      cause);
		if (r < 0)
			return r;
	}
	rm->fd = remote_dial(&rm->addr);
	if (rm->fd < 0)
		return remote_fail(cause, rm->fd,
				   "cannot reach the agent at %s: %s", rm->name,
				   strerror(-rm->fd));
	proto_reader_reset(&rm->in);
	msg = cJSON_CreateObject();
	cJSON_AddStringToObject(msg, "type", "hello");
	cJSON_AddNumberToObject(msg, "version", PROTO_VERSION);
	cJSON_AddStringToObject(msg, "tool", "nio-top " NIO_TOP_VERSION);
	if (rm->auth_file)
		cJSON_AddStringToObject(msg, "secret", secret);
	r = proto_send(rm->fd, msg);
	cJSON_Delete(msg);
	explicit_bzero(secret, sizeof(secret));
	if (r < 0)
		return remote_fail(cause, r, "agent %s: %s", rm->name,
				   strerror(-r));
	r = remote_receive(rm, REPLY_TIMEOUT_MS, &reply, &type, cause);
	if (r < 0)
		return r;
	if (strcmp(type, "welcome") != 0) {
		const cJSON *text = cJSON_GetObjectItemCaseSensitive(reply,
								     "error");

		r = remote_fail(cause, -ECONNREFUSED, "agent %s refused: %s",
				rm->name,
				cJSON_IsString(text) ? text->valuestring
						     : "no welcome");
		cJSON_Delete(reply);
		return r;
	}
	jsonfile_u64(cJSON_GetObjectItemCaseSensitive(reply, "version"),
		     &version);
	if (version != PROTO_VERSION) {
		cJSON_Delete(reply);
		return remote_fail(cause, -EPROTONOSUPPORT,
				   "agent %s speaks protocol version %llu; "
				   "this nio-top speaks version %d",
				   rm->name, (unsigned long long)version,
				   PROTO_VERSION);
	}
	snprintf(rm->tool, sizeof(rm->tool), "%s",
		 cJSON_GetObjectItemCaseSensitive(reply, "tool")->valuestring);
	cJSON_Delete(rm->host);
	cJSON_Delete(rm->capabilities);
	rm->host = cJSON_DetachItemFromObjectCaseSensitive(reply, "host");
	rm->capabilities = cJSON_DetachItemFromObjectCaseSensitive(
		reply, "capabilities");
	cJSON_Delete(reply);
	return 0;
}

int remote_open(const char *target, const char *auth_file, struct remote **out,
		char **cause)
{
	struct remote *rm = calloc(1, sizeof(*rm));
	int r;

	*cause = NULL;
	if (!rm)
		return -ENOMEM;
	rm->fd = -1;
	rm->target = strdup(target);
	rm->auth_file = auth_file ? strdup(auth_file) : NULL;
	r = rm->target && (!auth_file || rm->auth_file)
		    ? proto_reader_init(&rm->in, PROTO_CLIENT_LINE_MAX)
		    : -ENOMEM;
	if (r == 0)
		r = remote_resolve(target, &rm->addr, cause);
	if (r == 0) {
		char ip[INET_ADDRSTRLEN];

		inet_ntop(AF_INET, &rm->addr.sin_addr, ip, sizeof(ip));
		snprintf(rm->name, sizeof(rm->name), "%s:%u", ip,
			 ntohs(rm->addr.sin_port));
		r = remote_greet(rm, cause);
	}
	if (r < 0) {
		remote_close(rm);
		return r;
	}
	*out = rm;
	return 0;
}

void remote_close(struct remote *rm)
{
	if (!rm)
		return;
	if (rm->fd >= 0)
		close(rm->fd);
	proto_reader_fini(&rm->in);
	cJSON_Delete(rm->host);
	cJSON_Delete(rm->capabilities);
	free(rm->view.error);
	free(rm->target);
	free(rm->auth_file);
	free(rm);
}

const char *remote_name(const struct remote *rm)
{
	return rm->name;
}

const cJSON *remote_host(const struct remote *rm)
{
	return rm->host;
}

const cJSON *remote_capabilities(const struct remote *rm)
{
	return rm->capabilities;
}

const char *remote_tool(const struct remote *rm)
{
	return rm->tool;
}

/* The run as a preset of one point: the agent checks it as it would one. */
static cJSON *remote_run_config(const struct run_config *c)
{
	static const char *const not_run[] = {"name", "repeat", "topology",
					      "ui"};
	struct options o = {
		.strategies = {c->strategy},
		.strategy_count = 1,
		.msg_sizes = {c->msg_size},
		.msg_size_count = 1,
		.threads = {c->threads},
		.thread_count = 1,
		.mode = c->mode,
		.duration_ms = c->duration_ms,
		.warmup_ms = c->warmup_ms,
		.verify = c->verify,
		.slots = c->slots,
		.uring_depth = c->uring_depth,
		.uring_fixed = c->uring_fixed,
		.counters_enabled = c->counters != NULL,
		.theme = "default",
		.repeat = 1,
	};
	cJSON *preset;

	if (c->counters)
		o.counters = *c->counters;
	preset = preset_from_options(&o);
	/* The client's clock paces the agent: a continuous run has none. */
	if (!c->duration_ms)
		cJSON_DeleteItemFromObjectCaseSensitive(preset, "duration_s");
	for (size_t i = 0; i < sizeof(not_run) / sizeof(*not_run); i++)
		cJSON_DeleteItemFromObjectCaseSensitive(preset, not_run[i]);
	return preset;
}

/* Dials every flow to the agent's data port; their ports go in ports. */
static int remote_dial_flows(struct remote *rm, uint16_t port,
			     unsigned int count, int *fds, cJSON *ports,
			     char **cause)
{
	struct sockaddr_in to = rm->addr;

	to.sin_port = htons(port);
	for (unsigned int i = 0; i < count; i++) {
		struct sockaddr_in me;
		socklen_t len = sizeof(me);

		fds[i] = remote_dial(&to);
		if (fds[i] < 0 ||
		    getsockname(fds[i], (struct sockaddr *)&me, &len) < 0) {
			int r = fds[i] < 0 ? fds[i] : -errno;

			return remote_fail(cause, r,
					   "cannot connect flow %u to %s: %s",
					   i + 1, rm->name, strerror(-r));
		}
		cJSON_AddItemToArray(ports,
				     cJSON_CreateNumber(ntohs(me.sin_port)));
	}
	return 0;
}

int remote_run_begin(struct remote *rm, const struct run_config *config,
		     int *fds, char **cause)
{
	enum run_role agent = run_role_peer(config->role);
	unsigned int id = ++rm->last_id;
	cJSON *msg, *reply = NULL, *ports;
	uint64_t port;
	int r;

	*cause = NULL;
	for (unsigned int i = 0; i < config->threads; i++)
		fds[i] = -1;
	if (rm->fd < 0) {
		r = remote_greet(rm, cause);
		if (r < 0)
			return r;
	}
	view_reset(&rm->view, id);
	rm->view.events = config->counters ? config->counters->count : 0;

	msg = proto_message("run", id);
	cJSON_AddStringToObject(msg, "agent_side", run_role_name(agent));
	cJSON_AddItemToObject(msg, "config", remote_run_config(config));
	r = proto_send(rm->fd, msg);
	cJSON_Delete(msg);
	if (r == 0)
		r = remote_answer(rm, id, "ready", &reply, cause);
	if (r < 0)
		goto out;
	jsonfile_u64(cJSON_GetObjectItemCaseSensitive(reply, "port"), &port);
	cJSON_Delete(reply);
	reply = NULL;

	msg = proto_message("flows", id);
	ports = cJSON_AddArrayToObject(msg, "ports");
	r = remote_dial_flows(rm, (uint16_t)port, config->threads, fds, ports,
			      cause);
	if (r == 0)
		r = proto_send(rm->fd, msg);
	cJSON_Delete(msg);
	if (r == 0)
		r = remote_answer(rm, id, "started", &reply, cause);
out:
	cJSON_Delete(reply);
	if (r < 0) {
		for (unsigned int i = 0; i < config->threads; i++) {
			if (fds[i] >= 0)
				close(fds[i]);
			fds[i] = -1;
		}
		if (!*cause &&
		    asprintf(cause, "agent %s: %s", rm->name, strerror(-r)) < 0)
			*cause = NULL;
		/* Refused: the agent is fine and waits for the next run. */
		if (r != -EINVAL)
			remote_lost(rm, *cause ? *cause : "lost the agent");
	}
	return r;
}

const struct remote_view *remote_view(const struct remote *rm)
{
	return &rm->view;
}

void remote_run_mark(struct remote *rm, const char *what, const char *reason)
{
	cJSON *msg;
	int r;

	if (rm->fd < 0 || rm->view.done)
		return;
	msg = proto_message(what, rm->view.run_id);
	if (reason)
		cJSON_AddStringToObject(msg, "reason", reason);
	r = proto_send(rm->fd, msg);
	cJSON_Delete(msg);
	if (r < 0)
		remote_gone(rm, strerror(-r));
}

/* A reason the agent gave, or one given for the agent's ends, says so. */
static void agent_reason(char *reason, size_t size)
{
	char own[sizeof(((struct counter_value *)0)->reason)];

	if (!reason[0] || size > sizeof(own))
		return;
	memcpy(own, reason, size);
	snprintf(reason, size, "on the agent: %.*s", (int)size - 15, own);
}

/* A tick: the agent's ends so far. */
static int remote_tick(struct remote *rm, const cJSON *msg, char **cause)
{
	struct remote_view *v = &rm->view;
	const cJSON *latency = cJSON_GetObjectItemCaseSensitive(msg, "latency");
	const cJSON *error = cJSON_GetObjectItemCaseSensitive(msg, "error");

	if (proto_read_totals(cJSON_GetObjectItemCaseSensitive(msg, "totals"),
			      "tick.totals", &v->totals, cause) ||
	    proto_read_readings(
		    cJSON_GetObjectItemCaseSensitive(msg, "counters"),
		    "tick.counters", v->counters, v->events, cause) ||
	    proto_read_open_errors(
		    cJSON_GetObjectItemCaseSensitive(msg, "open"), "tick.open",
		    v->open_error, v->user_only, v->events, cause))
		return -EINVAL;
	v->counting = cJSON_IsTrue(
		cJSON_GetObjectItemCaseSensitive(msg, "counting"));
	v->pmu = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(msg, "pmu"));
	v->has_latency = cJSON_IsObject(latency);
	if (v->has_latency &&
	    proto_read_hist(latency, "tick.latency", &v->latency, cause))
		return -EINVAL;
	v->has_sample = true;
	if (cJSON_IsString(error))
		view_fail(v, false, "agent: %s", error->valuestring);
	return 0;
}

/* The report: the agent's ends over its measured window, and the totals. */
static int remote_result(struct remote *rm, const cJSON *msg, char **cause)
{
	struct remote_view *v = &rm->view;
	const cJSON *latency = cJSON_GetObjectItemCaseSensitive(msg, "latency");
	const cJSON *derived = cJSON_GetObjectItemCaseSensitive(msg, "derived");
	const cJSON *error = cJSON_GetObjectItemCaseSensitive(msg, "error");

	v->counted = cJSON_IsTrue(
		cJSON_GetObjectItemCaseSensitive(msg, "counted"));
	if (proto_read_totals(cJSON_GetObjectItemCaseSensitive(msg, "totals"),
			      "result.totals", &v->totals, cause) ||
	    (v->counted &&
	     (proto_read_values(
		      cJSON_GetObjectItemCaseSensitive(msg, "counters"),
		      "result.counters", v->side.value, v->events, cause) ||
	      proto_read_derived(derived, "result.derived", &v->side.derived,
				 cause))))
		return -EINVAL;
	for (unsigned int i = 0; v->counted && i < v->events; i++)
		agent_reason(v->side.value[i].reason,
			     sizeof(v->side.value[i].reason));
	v->has_latency = cJSON_IsObject(latency);
	if (v->has_latency &&
	    proto_read_hist(latency, "result.latency", &v->latency, cause))
		return -EINVAL;
	v->measured_s = cJSON_GetObjectItemCaseSensitive(msg, "measured_s")
				->valuedouble;
	v->gbps = cJSON_GetObjectItemCaseSensitive(msg, "gbps")->valuedouble;
	v->msgs_per_s = cJSON_GetObjectItemCaseSensitive(msg, "msgs_per_s")
				->valuedouble;
	if (cJSON_IsString(error))
		view_fail(v, false, "agent: %s", error->valuestring);
	v->has_sample = true;
	v->done = true;
	return 0;
}

/* One message of the current run, or an error that ends the connection. */
static int remote_handle(struct remote *rm, const cJSON *msg, const char *type,
			 char **cause)
{
	if (strcmp(type, "error") == 0)
		return remote_fail(
			cause, -ECONNRESET, "%s",
			cJSON_GetObjectItemCaseSensitive(msg, "error")
				->valuestring);
	if (proto_run_id(msg) != rm->view.run_id)
		return 0;
	if (strcmp(type, "tick") == 0 && !rm->view.done)
		return remote_tick(rm, msg, cause);
	if (strcmp(type, "result") == 0)
		return remote_result(rm, msg, cause);
	return 0;
}

void remote_run_poll(struct remote *rm)
{
	struct pollfd pfd = {.fd = rm->fd, .events = POLLIN};
	char *cause = NULL;
	int r = 0;

	if (rm->fd < 0)
		return;
	if (poll(&pfd, 1, 0) > 0)
		r = remote_fill(rm, &cause);
	while (r >= 0) {
		const char *type;
		cJSON *msg;

		r = remote_next(rm, &msg, &type, &cause);
		if (r <= 0)
			break;
		r = remote_handle(rm, msg, type, &cause);
		cJSON_Delete(msg);
	}
	if (r < 0)
		remote_gone(rm, cause ? cause : strerror(-r));
	free(cause);
}

void remote_merge(const struct remote *rm, enum run_role role, struct sample *s)
{
	const struct remote_view *v = &rm->view;
	struct run_totals *t = &s->totals;

	if (!v->has_sample)
		return;
	if (role == RUN_SENDERS) {
		t->messages_received = v->totals.messages_received;
		t->bytes_received = v->totals.bytes_received;
		t->checked = v->totals.checked;
		t->corrupt = v->totals.corrupt;
		memcpy(s->rx_counters, v->counters, sizeof(v->counters));
	} else {
		t->messages_sent = v->totals.messages_sent;
		t->bytes_sent = v->totals.bytes_sent;
		t->zc_sends = v->totals.zc_sends;
		t->zc_completions = v->totals.zc_completions;
		t->zc_copied = v->totals.zc_copied;
		t->zc_enobufs = v->totals.zc_enobufs;
		memcpy(s->tx_counters, v->counters, sizeof(v->counters));
	}
}

void remote_counter_value(const struct remote *rm,
			  const struct counter_set *set, unsigned int i,
			  const struct counter_reading *delta,
			  struct counter_value *out)
{
	const struct remote_view *v = &rm->view;
	struct counter_set agent_set = *set;
	struct thread_counters tc = {.set = &agent_set};
	if (!v->counting || i >= v->events) {
		*out = (struct counter_value){.status = COUNTER_NOT_COUNTED};
		snprintf(out->reason, sizeof(out->reason),
			 "the agent's threads have not opened their counters "
			 "yet");
		return;
	}
	agent_set.pmu_present = v->pmu;
	tc.open_error[i] = v->open_error[i];
	tc.user_only[i] = v->user_only[i];
	counter_evaluate(&tc, i, delta, out);
	agent_reason(out->reason, sizeof(out->reason));
}

bool remote_latency(const struct remote *rm, struct latency_hist *out)
{
	if (!rm->view.has_latency)
		return false;
	*out = rm->view.latency;
	return true;
}
