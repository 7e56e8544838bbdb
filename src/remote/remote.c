/*
 * The client's end of the control connection.  Waiting happens only while a
 * run is set up (a few round trips, each with one time limit that nothing
 * the agent sends meanwhile extends, and each ended at once by what the
 * caller's wake says: a signal, a key that quits); during a run the main
 * loop's tick reads what arrived without waiting.  Messages of an earlier
 * run (a late tick, the report of an aborted run) are skipped by their run
 * number.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cause.h"
#include "clock.h"
#include "codec.h"
#include "escape.h"
#include "jsonfile.h"
#include "options.h"
#include "proto.h"
#include "remote.h"

#define CONNECT_TIMEOUT_MS 5000
#define REPLY_TIMEOUT_MS   10000
#define RETRY_PAUSE_MS	   100

struct remote {
	char *target;
	char *auth_file;
	int fd;
	const struct remote_wake *wake; /* the caller's, or NULL */
	struct sockaddr_in addr;
	char name[INET_ADDRSTRLEN + 8];
	char tool[65];
	struct proto_reader in;
	struct host_info host;
	unsigned int last_id; /* the current run's number */
	unsigned int events;  /* counters the agent reads per thread */
	unsigned int flows;   /* the current run's */
	enum rx_mode rx;      /* the current run's receive side */
	double warmup_s;      /* the current run's */
	struct run_far_view view;
};

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
			return cause_set(cause, -EINVAL,
					 "--connect: '%s' is not a port "
					 "(1 .. 65535)",
					 colon + 1);
	}
	if (len == 0 || len >= sizeof(host))
		return cause_set(cause, -EINVAL,
				 "--connect: '%s' names no host", target);
	memcpy(host, target, len);
	host[len] = '\0';
	r = getaddrinfo(host, NULL, &hints, &found);
	if (r != 0)
		return cause_set(cause, -EHOSTUNREACH,
				 "--connect: cannot resolve '%s': %s", host,
				 gai_strerror(r));
	*addr = *(struct sockaddr_in *)found->ai_addr;
	addr->sin_port = htons((uint16_t)port);
	freeaddrinfo(found);
	return 0;
}

/*
 * Waits for events on fd until deadline_ns (clock_now_ns()) or until wake
 * says to stop: 1 (fd is ready), 0 (the deadline passed) or -EINTR (woken;
 * a signal that woke it is left for the caller to read).
 */
static int remote_wait(int fd, short events, const struct remote_wake *wake,
		       uint64_t deadline_ns)
{
	for (;;) {
		struct pollfd pfd[3] = {
			{.fd = fd, .events = events},
			{.fd = wake ? wake->fd[0] : -1, .events = POLLIN},
			{.fd = wake ? wake->fd[1] : -1, .events = POLLIN}};
		uint64_t now = clock_now_ns();
		int r;

		if (now >= deadline_ns)
			return 0;
		r = poll(pfd, 3, (int)((deadline_ns - now) / NS_PER_MS) + 1);
		if (r < 0 && errno != EINTR)
			return -errno;
		if (r > 0 && ((pfd[1].revents | pfd[2].revents) & POLLIN) &&
		    (!wake->stop || wake->stop(wake->ctx)))
			return -EINTR;
		if (r > 0 && pfd[0].revents)
			return 1;
	}
}

/*
 * A connected TCP socket to addr within the time limit: fd or -errno
 * (-EINTR: wake ended the wait).  It blocks afterwards, writes for at most
 * the same limit.
 */
static int remote_dial(const struct sockaddr_in *addr,
		       const struct remote_wake *wake)
{
	struct timeval limit = {.tv_sec = CONNECT_TIMEOUT_MS / 1000};
	int fd, err = 0, flags, r;
	socklen_t len = sizeof(err);

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (const struct sockaddr *)addr, sizeof(*addr)) < 0) {
		if (errno != EINPROGRESS) {
			err = errno;
			goto err;
		}
		r = remote_wait(fd, POLLOUT, wake,
				clock_now_ns() +
					CONNECT_TIMEOUT_MS * NS_PER_MS);
		if (r <= 0) {
			err = r ? -r : ETIMEDOUT;
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

static void view_reset(struct run_far_view *v)
{
	free(v->error);
	*v = (struct run_far_view){0};
}

static void view_fail(struct run_far_view *v, bool lost, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void view_fail(struct run_far_view *v, bool lost, const char *fmt, ...)
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
		return cause_set(cause, -EPROTO,
				 "agent %s: a message longer than %d bytes",
				 rm->name, PROTO_CLIENT_LINE_MAX);
	if (r <= 0)
		return r;
	r = proto_parse(line, len, msg, type, &why);
	if (r < 0) {
		r = cause_set(cause, -EPROTO, "agent %s sent a bad %s",
			      rm->name, why ? why : "message");
		free(why);
		return r;
	}
	return 1;
}

/*
 * The text the agent sent at key, escaped for printing (caller frees); never
 * NULL.
 */
static char *agent_text(const cJSON *msg, const char *key, const char *none)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(msg, key);
	char *text = text_escape(cJSON_IsString(item) ? item->valuestring
						      : none);

	return text ? text : strdup("(out of memory)");
}

/* Reads what the socket holds: bytes, or -errno with *cause. */
static int remote_fill(struct remote *rm, char **cause)
{
	ssize_t n = proto_reader_fill(&rm->in, rm->fd);

	if (n == 0)
		return cause_set(cause, -ECONNRESET,
				 "agent %s closed the connection", rm->name);
	if (n < 0 && n != -EINTR && n != -EAGAIN)
		return cause_set(cause, (int)n, "agent %s: %s", rm->name,
				 strerror((int)-n));
	return n < 0 ? 0 : (int)n;
}

/*
 * The next message, waiting until deadline_ns (limit_s: the limit, for the
 * error): 0 with *msg and *type, or -errno with *cause.
 */
static int remote_receive(struct remote *rm, uint64_t deadline_ns, int limit_s,
			  cJSON **msg, const char **type, char **cause)
{
	for (;;) {
		int r = remote_next(rm, msg, type, cause);

		if (r != 0)
			return r < 0 ? r : 0;
		r = remote_wait(rm->fd, POLLIN, rm->wake, deadline_ns);
		if (r == 0)
			return cause_set(cause, -ETIMEDOUT,
					 "agent %s: no answer within %d s",
					 rm->name, limit_s);
		if (r == -EINTR)
			return cause_set(cause, -EINTR,
					 "interrupted while waiting for the "
					 "agent %s",
					 rm->name);
		if (r < 0)
			return cause_set(cause, r, "poll: %s", strerror(-r));
		r = remote_fill(rm, cause);
		if (r < 0)
			return r;
	}
}

/*
 * Waits up to timeout_ms for the answer to run id: the type wanted, or an
 * error.  What the agent sends meanwhile (a late tick of a run given up on)
 * does not extend the wait.
 */
static int remote_answer(struct remote *rm, unsigned int id, const char *wanted,
			 int timeout_ms, cJSON **answer, char **cause)
{
	uint64_t deadline = clock_now_ns() + (uint64_t)timeout_ms * NS_PER_MS;

	for (;;) {
		const char *type;
		char *text;
		cJSON *msg;
		int r = remote_receive(rm, deadline, timeout_ms / 1000, &msg,
				       &type, cause);

		if (r < 0)
			return r;
		if (proto_run_id(msg) == id && strcmp(type, wanted) == 0) {
			*answer = msg;
			return 0;
		}
		text = agent_text(msg, "error", "no reason given");
		if (strcmp(type, "error") == 0)
			r = cause_set(cause, -ECONNREFUSED, "agent %s: %s",
				      rm->name, text);
		else if (proto_run_id(msg) == id &&
			 strcmp(type, "refused") == 0)
			r = cause_set(cause, -EINVAL, "agent %s: %s", rm->name,
				      text);
		/* Else a tick or report of a run given up on, skipped. */
		else if (strcmp(type, "tick") != 0 &&
			 strcmp(type, "result") != 0)
			r = cause_set(cause, -EPROTO,
				      "agent %s sent \"%s\", not \"%s\"",
				      rm->name, type, wanted);
		free(text);
		cJSON_Delete(msg);
		if (r < 0)
			return r;
	}
}

/* Text the agent described itself with, its control characters as '?'. */
static void printable(char *text)
{
	for (; *text; text++)
		if ((unsigned char)*text < 0x20 || *text == 0x7f)
			*text = '?';
}

static void host_printable(struct host_info *h)
{
	struct capability *caps[] = {&h->netns, &h->veth, &h->tbf, &h->netem,
				     &h->pmu};

	printable(h->kernel);
	printable(h->cpu_model);
	for (size_t i = 0; i < sizeof(caps) / sizeof(*caps); i++)
		printable(caps[i]->reason);
	for (size_t i = 0; i < STRATEGIES_MAX; i++)
		printable(h->strategy[i].reason);
	for (size_t i = 0; i < COUNTERS_MAX; i++) {
		printable(h->event_name[i]);
		printable(h->event[i].reason);
	}
}

/*
 * Connects and says hello; the answer in *reply and *type.  The first hello
 * sets *deadline_ns (when 0): every answer to a hello comes by then.
 */
static int remote_hello(struct remote *rm, const char *secret,
			uint64_t *deadline_ns, cJSON **reply, const char **type,
			char **cause)
{
	cJSON *msg;
	int r;

	rm->fd = remote_dial(&rm->addr, rm->wake);
	if (rm->fd == -EINTR)
		return cause_set(cause, -EINTR,
				 "interrupted while reaching the agent at %s",
				 rm->name);
	if (rm->fd < 0)
		return cause_set(cause, rm->fd,
				 "cannot reach the agent at %s: %s", rm->name,
				 strerror(-rm->fd));
	proto_reader_reset(&rm->in);
	msg = proto_message("hello", 0);
	cJSON_AddNumberToObject(msg, "version", PROTO_VERSION);
	cJSON_AddStringToObject(msg, "tool", "nio-top " NIO_TOP_VERSION);
	if (secret)
		cJSON_AddStringToObject(msg, "secret", secret);
	r = proto_send(rm->fd, msg);
	cJSON_Delete(msg);
	if (r < 0)
		return cause_set(cause, r, "agent %s: %s", rm->name,
				 strerror(-r));
	if (!*deadline_ns)
		*deadline_ns = clock_now_ns() +
			       (uint64_t)REPLY_TIMEOUT_MS * NS_PER_MS;
	return remote_receive(rm, *deadline_ns, REPLY_TIMEOUT_MS / 1000, reply,
			      type, cause);
}

/* Whether the agent dropped this connection to make room (try again). */
static bool remote_told_busy(const cJSON *reply, const char *type)
{
	const cJSON *why = cJSON_GetObjectItemCaseSensitive(reply, "error");

	return strcmp(type, "error") == 0 && cJSON_IsString(why) &&
	       strcmp(why->valuestring, PROTO_BUSY_GREETING) == 0;
}

/*
 * Connects and greets: the agent's version must be this one's.  A hello
 * dropped to make room for another connection is said again
 * RETRY_PAUSE_MS later, while the answer's time lasts.
 */
static int remote_greet(struct remote *rm, char **cause)
{
	char secret[PROTO_SECRET_MAX + 1], *text;
	uint64_t version, deadline = 0;
	cJSON *reply;
	const char *type;
	int r;

	if (rm->auth_file) {
		r = proto_read_secret(rm->auth_file, secret, cause);
		if (r < 0)
			return r;
	}
	for (;;) {
		r = remote_hello(rm, rm->auth_file ? secret : NULL, &deadline,
				 &reply, &type, cause);
		if (r < 0 || !remote_told_busy(reply, type) ||
		    clock_now_ns() + RETRY_PAUSE_MS * NS_PER_MS >= deadline)
			break;
		cJSON_Delete(reply);
		close(rm->fd);
		rm->fd = -1;
		if (remote_wait(-1, 0, rm->wake,
				clock_now_ns() + RETRY_PAUSE_MS * NS_PER_MS) ==
		    -EINTR) {
			r = cause_set(cause, -EINTR,
				      "interrupted while reaching the agent "
				      "at %s",
				      rm->name);
			break;
		}
	}
	explicit_bzero(secret, sizeof(secret));
	if (r < 0)
		return r;
	if (strcmp(type, "welcome") != 0) {
		char *text = agent_text(reply, "error", "no welcome");

		r = cause_set(cause, -ECONNREFUSED, "agent %s refused: %s",
			      rm->name, text);
		free(text);
		cJSON_Delete(reply);
		return r;
	}
	jsonfile_u64(cJSON_GetObjectItemCaseSensitive(reply, "version"),
		     &version);
	if (version != PROTO_VERSION) {
		cJSON_Delete(reply);
		return cause_set(cause, -EPROTONOSUPPORT,
				 "agent %s speaks protocol version %llu; "
				 "this nio-top speaks version %d",
				 rm->name, (unsigned long long)version,
				 PROTO_VERSION);
	}
	text = agent_text(reply, "tool", "");
	snprintf(rm->tool, sizeof(rm->tool), "%s", text);
	free(text);
	r = codec_read_host(
		cJSON_GetObjectItemCaseSensitive(reply, "host"),
		cJSON_GetObjectItemCaseSensitive(reply, "capabilities"),
		&rm->host, "welcome.host", "welcome.capabilities", CODEC_STRICT,
		cause);
	cJSON_Delete(reply);
	host_printable(&rm->host);
	if (r < 0)
		return cause_set(cause, -EPROTO, "agent %s sent a bad %s",
				 rm->name, *cause ? *cause : "welcome");
	return 0;
}

int remote_open(const char *target, const char *auth_file,
		const struct remote_wake *wake, struct remote **out,
		char **cause)
{
	struct remote *rm = calloc(1, sizeof(*rm));
	int r;

	*cause = NULL;
	if (!rm)
		return -ENOMEM;
	rm->fd = -1;
	rm->wake = wake;
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
	free(rm->view.error);
	free(rm->target);
	free(rm->auth_file);
	free(rm);
}

const char *remote_name(const struct remote *rm)
{
	return rm->name;
}

const char *remote_tool(const struct remote *rm)
{
	return rm->tool;
}

const struct host_info *remote_host(const struct remote *rm)
{
	return &rm->host;
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

		fds[i] = remote_dial(&to, rm->wake);
		if (fds[i] < 0 ||
		    getsockname(fds[i], (struct sockaddr *)&me, &len) < 0) {
			int r = fds[i] < 0 ? fds[i] : -errno;

			return cause_set(cause, r,
					 "cannot connect flow %u to %s: %s",
					 i + 1, rm->name, strerror(-r));
		}
		cJSON_AddItemToArray(ports,
				     cJSON_CreateNumber(ntohs(me.sin_port)));
	}
	return 0;
}

/*
 * Between runs the agent may have dropped this client (idle for its
 * --max-idle, say): what it said since is read, and a closed connection is
 * forgotten so that the next run greets it again.
 */
static void remote_check(struct remote *rm)
{
	struct pollfd pfd = {.fd = rm->fd, .events = POLLIN};
	char *cause = NULL;
	bool gone = false;

	if (rm->fd < 0 || poll(&pfd, 1, 0) <= 0)
		return;
	gone = remote_fill(rm, &cause) < 0;
	while (!gone) {
		const char *type;
		cJSON *msg;
		int r = remote_next(rm, &msg, &type, &cause);

		if (r <= 0) {
			gone = r < 0;
			break;
		}
		/* Late ticks and reports of runs given up on are skipped. */
		gone = strcmp(type, "error") == 0;
		cJSON_Delete(msg);
	}
	free(cause);
	if (gone) {
		close(rm->fd);
		rm->fd = -1;
	}
}

/* The far end's start: the run's settings, its port, the flows. */
static int remote_start(void *data, const struct run_config *config, int *fds,
			char **cause)
{
	struct remote *rm = data;
	enum run_role agent = run_role_peer(config->role);
	unsigned int id = ++rm->last_id;
	cJSON *msg, *reply = NULL, *ports;
	uint64_t port;
	int r;

	*cause = NULL;
	for (unsigned int i = 0; i < config->threads; i++)
		fds[i] = -1;
	remote_check(rm);
	if (rm->fd < 0) {
		r = remote_greet(rm, cause);
		if (r < 0)
			return r;
	}
	view_reset(&rm->view);
	rm->events = config->counters ? config->counters->count : 0;
	rm->rx = config->settings.rx;
	rm->flows = config->threads;
	rm->warmup_s = (double)config->settings.warmup_ms / 1e3;

	msg = proto_message("run", id);
	cJSON_AddStringToObject(msg, "agent_side", run_role_name(agent));
	options_run_to_json(config, cJSON_AddObjectToObject(msg, "config"));
	r = proto_send(rm->fd, msg);
	cJSON_Delete(msg);
	if (r == 0)
		r = remote_answer(rm, id, "ready", REPLY_TIMEOUT_MS, &reply,
				  cause);
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
		/* The agent's threads fill their buffers first. */
		r = remote_answer(rm, id, "started",
				  RUN_READY_TIMEOUT_MS + REPLY_TIMEOUT_MS,
				  &reply, cause);
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

static const struct run_far_view *remote_view(const void *data)
{
	const struct remote *rm = data;

	return &rm->view;
}

static void remote_mark(void *data, enum run_mark mark, const char *why)
{
	static const char *const words[] = {
		[RUN_MARK_MEASURE] = "measure",
		[RUN_MARK_STOP] = "stop",
		[RUN_MARK_ABORT] = "abort",
	};
	struct remote *rm = data;
	cJSON *msg;
	int r;

	if (rm->fd < 0 || rm->view.done)
		return;
	msg = proto_message(words[mark], rm->last_id);
	if (why)
		cJSON_AddStringToObject(msg, "reason", why);
	r = proto_send(rm->fd, msg);
	cJSON_Delete(msg);
	if (r < 0)
		remote_gone(rm, strerror(-r));
}

/* A reason the agent gave says so. */
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
	struct run_far_view *v = &rm->view;
	const cJSON *latency = cJSON_GetObjectItemCaseSensitive(msg, "latency");
	const cJSON *error = cJSON_GetObjectItemCaseSensitive(msg, "error");

	if (codec_read_totals(cJSON_GetObjectItemCaseSensitive(msg, "totals"),
			      &v->totals, rm->rx, "tick.totals", CODEC_STRICT,
			      cause) ||
	    codec_read_list(&counter_reading_record,
			    cJSON_GetObjectItemCaseSensitive(msg, "counters"),
			    v->counters, sizeof(v->counters[0]), rm->events,
			    "tick.counters", CODEC_STRICT, cause) ||
	    codec_read_list(&counter_open_record,
			    cJSON_GetObjectItemCaseSensitive(msg, "open"),
			    v->open, sizeof(v->open[0]), rm->events,
			    "tick.open", CODEC_STRICT, cause))
		return -EINVAL;
	v->counting = cJSON_IsTrue(
		cJSON_GetObjectItemCaseSensitive(msg, "counting"));
	v->pmu = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(msg, "pmu"));
	v->has_latency = cJSON_IsObject(latency);
	if (v->has_latency &&
	    codec_read_hist(latency, &v->latency, "tick.latency", cause))
		return -EINVAL;
	v->has_sample = true;
	if (cJSON_IsString(error)) {
		char *text = agent_text(msg, "error", "");

		view_fail(v, false, "agent: %s", text);
		free(text);
	}
	return 0;
}

/*
 * The report: the agent's ends over its measured window, and the totals.
 * Its summary (run_summary_record, which proto_parse() checked) repeats
 * what the window delivered, which derived holds.
 */
static int remote_result(struct remote *rm, const cJSON *msg, char **cause)
{
	struct run_far_view *v = &rm->view;
	const cJSON *latency = cJSON_GetObjectItemCaseSensitive(msg, "latency");
	const cJSON *derived = cJSON_GetObjectItemCaseSensitive(msg, "derived");
	const cJSON *profile = cJSON_GetObjectItemCaseSensitive(msg, "profile");
	const cJSON *time = cJSON_GetObjectItemCaseSensitive(msg, "time");
	const cJSON *error = cJSON_GetObjectItemCaseSensitive(msg, "error");
	const cJSON *window = cJSON_GetObjectItemCaseSensitive(msg,
							       "measured_s");
	char *why = NULL;

	v->counted = cJSON_IsTrue(
		cJSON_GetObjectItemCaseSensitive(msg, "counted"));
	if (codec_read_totals(cJSON_GetObjectItemCaseSensitive(msg, "totals"),
			      &v->totals, rm->rx, "result.totals", CODEC_STRICT,
			      cause) ||
	    codec_read_metrics(derived, &v->side.derived, false,
			       "result.derived", CODEC_STRICT, cause) ||
	    (v->counted &&
	     codec_read_list(&counter_value_record,
			     cJSON_GetObjectItemCaseSensitive(msg, "counters"),
			     v->side.value, sizeof(v->side.value[0]),
			     rm->events, "result.counters", CODEC_STRICT,
			     cause)))
		return -EINVAL;
	for (unsigned int i = 0; v->counted && i < rm->events; i++)
		agent_reason(v->side.value[i].reason,
			     sizeof(v->side.value[i].reason));
	v->has_latency = cJSON_IsObject(latency);
	if (v->has_latency &&
	    codec_read_hist(latency, &v->latency, "result.latency", cause))
		return -EINVAL;
	if ((cJSON_IsObject(profile) &&
	     codec_read_profile(profile, &v->profile, "result.profile",
				CODEC_STRICT, cause) < 0) ||
	    (cJSON_IsObject(time) &&
	     codec_read_time(time, &v->time, "result.time", CODEC_STRICT,
			     cause) < 0))
		return -EINVAL;
	if (proto_check_result(&v->totals, &v->side.derived,
			       cJSON_IsNumber(window) ? window->valuedouble : 0,
			       rm->warmup_s,
			       v->has_latency ? &v->latency : NULL, rm->flows,
			       &why) < 0) {
		cause_set(cause, -EPROTO, "agent %s sent a bad result: %s",
			  rm->name, why);
		free(why);
		return -EPROTO;
	}
	if (cJSON_IsString(error)) {
		char *text = agent_text(msg, "error", "");

		view_fail(v, false, "agent: %s", text);
		free(text);
	}
	v->has_sample = true;
	v->done = true;
	return 0;
}

/* One message of the current run, or an error that ends the connection. */
static int remote_handle(struct remote *rm, const cJSON *msg, const char *type,
			 char **cause)
{
	if (strcmp(type, "error") == 0) {
		char *text = agent_text(msg, "error", "");
		int r = cause_set(cause, -ECONNRESET, "%s", text);

		free(text);
		return r;
	}
	if (proto_run_id(msg) != rm->last_id)
		return 0;
	if (strcmp(type, "tick") == 0 && !rm->view.done)
		return remote_tick(rm, msg, cause);
	if (strcmp(type, "result") == 0)
		return remote_result(rm, msg, cause);
	return 0;
}

static void remote_poll(void *data)
{
	struct remote *rm = data;
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

struct run_far_end remote_far_end(struct remote *rm)
{
	return (struct run_far_end){
		.data = rm,
		.start = remote_start,
		.poll = remote_poll,
		.mark = remote_mark,
		.view = remote_view,
	};
}
