/*
 * The agent.  A new connection is a handshake first: up to
 * AGENT_HANDSHAKES_MAX of them at once, each given HANDSHAKE_TIMEOUT_MS for
 * its hello, which must carry this protocol version and the secret if one is
 * set.  Only a greeted client takes the one client slot, so a stranger who
 * connects and says nothing holds a handshake, never the agent; once the
 * handshakes are full the oldest makes room.  Hellos are checked oldest
 * first; after a wrong secret the next secret from the same address is
 * checked AUTH_DELAY_MS later, so guessing is slow and slows nobody else.
 * The client then has runs served one after another until it leaves, or
 * until it says nothing with no run for --max-idle.  Everything a client
 * sends is checked by proto_parse(); a bad message gets an error line and the
 * connection is closed.  Whatever the other side wrote is escaped before it
 * reaches the log.  Only the step that accepts a run's flows waits (at most
 * FLOWS_TIMEOUT_MS); everything else is driven by the caller's poll.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/tcp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cause.h"
#include "agent.h"
#include "clock.h"
#include "codec.h"
#include "escape.h"
#include "hostinfo.h"
#include "jsonfile.h"
#include "proto.h"
#include "run.h"
#include "units.h"

#define HANDSHAKE_TIMEOUT_MS 2000
#define AUTH_DELAY_MS	     1000
#define AUTH_PEERS_MAX	     64
#define FLOWS_TIMEOUT_MS     5000
#define SEND_TIMEOUT_S	     5
/*
 * Per address, so many connections are logged each window, and so many from
 * every address together (a summary line counts as one): the rest are
 * summed.  The table of addresses is small, so an address that falls out of
 * it starts again; the count of all of them together is what bounds the
 * log, however many addresses a flood comes from.
 */
#define LOG_BURST     50
#define LOG_BURST_ALL 100
#define LOG_WINDOW_NS (10000 * NS_PER_MS)
#define LOG_PEERS_MAX 16
#define TICK_NS	      (RUN_TICK_MS * NS_PER_MS)

/* A connection that has not been greeted yet. */
struct handshake {
	int fd; /* -1: free */
	char peer[INET_ADDRSTRLEN + 8];
	struct sockaddr_in addr;
	uint64_t connected_ns;
	struct proto_reader in;
	cJSON *hello; /* read; its secret waits for AUTH_DELAY_MS to pass */
	uint64_t hello_ns; /* when the hello was read */
	bool quiet;	   /* one of a flood: not logged until greeted */
};

/* An address's connections in the log's current window. */
struct log_peer {
	struct in_addr addr;
	uint64_t since_ns; /* the window's start; 0: a free entry */
	unsigned int logged;
	unsigned int quiet; /* connections past LOG_BURST, not logged */
};

/* An address that sent a wrong secret, and when it may be heard again. */
struct auth_wait {
	struct in_addr addr;
	uint64_t next_ns;
};

struct agent {
	struct options options; /* the base of every run's options */
	uint64_t budget;	/* bytes of buffers one run may allocate */
	FILE *log;
	int listen_fd;
	char secret[PROTO_SECRET_MAX + 1];
	bool has_secret;
	struct host_info host; /* for the welcome */
	struct handshake shake[AGENT_HANDSHAKES_MAX];
	struct auth_wait auth_wait[AUTH_PEERS_MAX];
	struct log_peer log_peer[LOG_PEERS_MAX];
	struct log_peer log_all; /* every address together (addr unused) */

	/* The client, greeted, if any. */
	int fd;
	char peer[INET_ADDRSTRLEN + 8];
	struct sockaddr_in peer_addr;
	struct proto_reader in;
	int stalled; /* a send failed (its errno): the client is dropped */
	uint64_t connected_ns;
	uint64_t idle_since_ns; /* its last word, or its last run's end */

	/* Its run, from "run" to the report. */
	unsigned int run_id;
	struct counter_set counters; /* the run's events, resolved here */
	struct run_config config;
	int data_fd; /* listening for the flows, between ready and started */
	struct run *run;
	uint64_t run_started_ns;
	bool overtime;	/* aborted for passing --max-duration */
	bool announced; /* "started": its threads were ready and went */
	uint64_t next_tick_ns;
	unsigned int runs;
};

static void agent_log(struct agent *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * One line of the log.  Lines quote what clients sent (a tool's name, a bad
 * key), so the whole line is escaped: one line per event, nothing a client
 * wrote reaches the terminal raw.
 */
static void agent_log(struct agent *a, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	escape_vprint(a->log, "nio-top agent: ", fmt, ap);
	va_end(ap);
}

static int agent_listen(struct agent *a, const struct options *o, char **cause)
{
	struct sockaddr_in addr = {.sin_family = AF_INET,
				   .sin_port = htons((uint16_t)o->port)};
	int one = 1;

	if (inet_pton(AF_INET, o->listen ? o->listen : "0.0.0.0",
		      &addr.sin_addr) != 1) {
		if (asprintf(cause, "--listen: '%s' is not an IPv4 address",
			     o->listen) < 0)
			*cause = NULL;
		return -EINVAL;
	}
	a->listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (a->listen_fd < 0 ||
	    setsockopt(a->listen_fd, SOL_SOCKET, SO_REUSEADDR, &one,
		       sizeof(one)) < 0 ||
	    bind(a->listen_fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
	    listen(a->listen_fd, 4) < 0) {
		int r = -errno;

		if (asprintf(cause, "cannot listen on %s:%u: %s",
			     o->listen ? o->listen : "0.0.0.0", o->port,
			     strerror(-r)) < 0)
			*cause = NULL;
		return r;
	}
	return 0;
}

int agent_open(const struct options *o, FILE *log, struct agent **out,
	       char **cause)
{
	const char *whose = NULL;
	char budget[32];
	struct agent *a = calloc(1, sizeof(*a));
	int r;

	*cause = NULL;
	if (!a)
		return -ENOMEM;
	a->options = *o;
	a->log = log;
	a->listen_fd = a->fd = a->data_fd = -1;
	r = proto_reader_init(&a->in, PROTO_AGENT_LINE_MAX);
	for (size_t i = 0; i < AGENT_HANDSHAKES_MAX; i++) {
		a->shake[i].fd = -1;
		if (r == 0)
			r = proto_reader_init(&a->shake[i].in,
					      PROTO_AGENT_LINE_MAX);
	}
	if (r == 0 && o->auth_file) {
		r = proto_read_secret(o->auth_file, a->secret, cause);
		a->has_secret = r == 0;
	}
	if (r == 0)
		r = agent_listen(a, o, cause);
	if (r < 0) {
		agent_close(a, NULL);
		return r;
	}
	host_info_read(&a->host,
		       o->counters_enabled ? &a->options.counters : NULL);
	a->budget = run_memory_budget(o->max_memory, &whose);
	units_format_bytes(a->budget, budget, sizeof(budget));
	agent_log(a, "listening on %s:%u (protocol version %d%s)",
		  o->listen ? o->listen : "0.0.0.0", o->port, PROTO_VERSION,
		  a->has_secret ? ", secret required" : "");
	agent_log(a,
		  "a run may use %s of buffers (%s%s), %u flows, %u slots, "
		  "%.0f s; an idle client is dropped after %.0f s",
		  budget, whose ? "a quarter of " : "--max-memory",
		  whose ? whose : "", o->max_threads, o->max_slots,
		  (double)o->max_duration_ms / 1000,
		  (double)o->max_idle_ms / 1000);
	if (!o->listen && !a->has_secret)
		agent_log(a,
			  "warning: listening on every address with no "
			  "secret: anyone who reaches port %u can run "
			  "traffic through this host (--listen, "
			  "--auth-file)",
			  o->port);
	*out = a;
	return 0;
}

/* A client that does not read for SEND_TIMEOUT_S is dropped after this step. */
static void agent_send(struct agent *a, cJSON *msg)
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

static void agent_refuse(struct agent *a, unsigned int id, const char *why);

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

/* Ends a handshake, with a last error line if why. */
static void handshake_drop(struct agent *a, struct handshake *h,
			   const char *why)
{
	if (h->fd < 0)
		return;
	if (why) {
		proto_send_error(h->fd, why);
		if (!h->quiet)
			agent_log(a, "%s dropped: %s", h->peer, why);
	}
	close(h->fd);
	h->fd = -1;
	cJSON_Delete(h->hello);
	h->hello = NULL;
}

/* Ends the client's run and connection, with a last error line. */
static void agent_drop(struct agent *a, const char *why)
{
	if (a->fd < 0)
		return;
	agent_end_run(a, why);
	proto_send_error(a->fd, why);
	agent_log(a, "%s dropped: %s", a->peer, why);
	agent_forget(a);
}

void agent_close(struct agent *a, const char *why)
{
	if (!a)
		return;
	agent_drop(a, why ? why : "the agent stopped");
	for (size_t i = 0; i < AGENT_HANDSHAKES_MAX; i++) {
		handshake_drop(a, &a->shake[i], NULL);
		proto_reader_fini(&a->shake[i].in);
	}
	if (a->listen_fd >= 0)
		close(a->listen_fd);
	proto_reader_fini(&a->in);
	explicit_bzero(a->secret, sizeof(a->secret));
	free(a);
}

/*
 * The flood's summary of p's window, if connections went unlogged: a line
 * of the window of all addresses, or, once that is spent, summed in it.
 */
static void log_peer_flush(struct agent *a, struct log_peer *p)
{
	char ip[INET_ADDRSTRLEN];

	if (p->quiet && a->log_all.logged >= LOG_BURST_ALL) {
		a->log_all.quiet += p->quiet;
	} else if (p->quiet) {
		a->log_all.logged++;
		inet_ntop(AF_INET, &p->addr, ip, sizeof(ip));
		agent_log(a,
			  "%u more connections from %s in the last %.0f s, "
			  "not logged one by one",
			  p->quiet, ip, (double)LOG_WINDOW_NS / 1e9);
	}
	p->quiet = 0;
	p->logged = 0;
	p->since_ns = 0;
}

/* The window of all addresses ends: what it left unlogged, in one line. */
static void log_all_flush(struct agent *a)
{
	if (a->log_all.quiet)
		agent_log(a,
			  "%u more connections in the last %.0f s, not "
			  "logged one by one (%d a window are, from all "
			  "addresses together)",
			  a->log_all.quiet, (double)LOG_WINDOW_NS / 1e9,
			  LOG_BURST_ALL);
	a->log_all = (struct log_peer){0};
}

/* Summaries of the windows that have ended by now. */
static void log_peers_flush(struct agent *a, uint64_t now_ns)
{
	if (a->log_all.since_ns &&
	    now_ns >= a->log_all.since_ns + LOG_WINDOW_NS)
		log_all_flush(a);
	for (size_t i = 0; i < LOG_PEERS_MAX; i++) {
		struct log_peer *p = &a->log_peer[i];

		if (p->since_ns && now_ns >= p->since_ns + LOG_WINDOW_NS)
			log_peer_flush(a, p);
	}
}

/*
 * Counts a connection from addr: whether it is logged (the first LOG_BURST
 * of a window from one address are, while the window of all addresses has
 * room).  An address takes its own entry, a free one, or the one whose
 * window began first; once all addresses together are past their burst, a
 * connection is only counted, and takes no entry.
 */
static bool log_peer_count(struct agent *a, struct in_addr addr,
			   uint64_t now_ns)
{
	struct log_peer *p = NULL;

	log_peers_flush(a, now_ns);
	if (!a->log_all.since_ns)
		a->log_all.since_ns = now_ns;
	if (a->log_all.logged >= LOG_BURST_ALL) {
		a->log_all.quiet++;
		return false;
	}
	for (size_t i = 0; i < LOG_PEERS_MAX; i++) {
		struct log_peer *k = &a->log_peer[i];

		if (k->since_ns && k->addr.s_addr == addr.s_addr) {
			p = k;
			break;
		}
		if (!p || k->since_ns < p->since_ns)
			p = k;
	}
	if (p->since_ns && p->addr.s_addr != addr.s_addr)
		log_peer_flush(a, p);
	if (!p->since_ns) {
		p->addr = addr;
		p->since_ns = now_ns;
	}
	if (p->logged < LOG_BURST && a->log_all.logged < LOG_BURST_ALL) {
		p->logged++;
		a->log_all.logged++;
		return true;
	}
	p->quiet++;
	return false;
}

/* Whether h has said anything: read already, or waiting to be. */
static bool handshake_spoke(const struct handshake *h)
{
	struct pollfd pfd = {.fd = h->fd, .events = POLLIN};

	return h->hello || h->in.len > 0 || poll(&pfd, 1, 0) > 0;
}

/*
 * Where a new connection from addr waits: a free handshake; else, when addr
 * already has AGENT_HANDSHAKES_PER_ADDR waiting, one of its own; else any.
 * Among those, the oldest that has said nothing, or the oldest.
 */
static struct handshake *handshake_room(struct agent *a, struct in_addr addr)
{
	struct handshake *h = NULL;
	unsigned int own = 0;
	bool h_silent = false;

	for (size_t i = 0; i < AGENT_HANDSHAKES_MAX; i++) {
		if (a->shake[i].fd < 0)
			return &a->shake[i];
		own += a->shake[i].addr.sin_addr.s_addr == addr.s_addr;
	}
	for (size_t i = 0; i < AGENT_HANDSHAKES_MAX; i++) {
		struct handshake *k = &a->shake[i];
		bool silent = !handshake_spoke(k);

		if (own >= AGENT_HANDSHAKES_PER_ADDR &&
		    k->addr.sin_addr.s_addr != addr.s_addr)
			continue;
		if (!h || (silent && !h_silent) ||
		    (silent == h_silent && k->connected_ns < h->connected_ns)) {
			h = k;
			h_silent = silent;
		}
	}
	return h;
}

/*
 * A new connection becomes a handshake; when every handshake is taken one
 * makes room (handshake_room), told only that the agent is busy: a flood
 * of silent connections never pushes out a client whose hello has come,
 * nor, from one address, a client on another.
 */
static void agent_accept(struct agent *a)
{
	struct timeval limit = {.tv_sec = SEND_TIMEOUT_S};
	struct sockaddr_in from;
	socklen_t len = sizeof(from);
	int one = 1, idle = 10, interval = 5, count = 3;
	char ip[INET_ADDRSTRLEN];
	struct handshake *h;
	int fd = accept4(a->listen_fd, (struct sockaddr *)&from, &len,
			 SOCK_CLOEXEC);

	if (fd < 0)
		return;
	/* A client whose writes stall, or whose host vanished, is dropped. */
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof(limit));
	setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof(one));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof(interval));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof(count));
	h = handshake_room(a, from.sin_addr);
	if (h->fd >= 0)
		handshake_drop(a, h, PROTO_BUSY_GREETING);
	inet_ntop(AF_INET, &from.sin_addr, ip, sizeof(ip));
	snprintf(h->peer, sizeof(h->peer), "%s:%u", ip, ntohs(from.sin_port));
	h->fd = fd;
	h->addr = from;
	h->connected_ns = clock_now_ns();
	proto_reader_reset(&h->in);
	h->quiet = !log_peer_count(a, from.sin_addr, h->connected_ns);
	if (!h->quiet)
		agent_log(a, "%s connected", h->peer);
}

static void agent_read(struct agent *a);
static void agent_lines(struct agent *a);

/*
 * Whether the client slot is taken.  A client that has just closed its
 * connection cleanly may not have been read yet: it is read first, so that
 * it frees the slot for one that follows it at once.
 */
static bool agent_busy(struct agent *a)
{
	struct pollfd pfd = {.fd = a->fd, .events = POLLIN};

	if (a->fd >= 0 && poll(&pfd, 1, 0) > 0)
		agent_read(a);
	return a->fd >= 0;
}

/* The handshake is greeted: it becomes the client. */
static void agent_welcome(struct agent *a, struct handshake *h)
{
	const cJSON *tool = cJSON_GetObjectItemCaseSensitive(h->hello, "tool");
	struct proto_reader in = a->in;
	cJSON *welcome;

	/* What the client sent after its hello is the client's to read. */
	a->in = h->in;
	h->in = in;
	a->fd = h->fd;
	a->peer_addr = h->addr;
	memcpy(a->peer, h->peer, sizeof(a->peer));
	a->connected_ns = a->idle_since_ns = clock_now_ns();
	a->runs = 0;
	a->stalled = 0;
	agent_log(a, "%s greeted (%s)", a->peer,
		  cJSON_IsString(tool) ? tool->valuestring : "no tool named");
	h->fd = -1;
	cJSON_Delete(h->hello);
	h->hello = NULL;
	welcome = proto_message("welcome", 0);
	cJSON_AddNumberToObject(welcome, "version", PROTO_VERSION);
	cJSON_AddStringToObject(welcome, "tool", "nio-top " NIO_TOP_VERSION);
	cJSON_AddItemToObject(welcome, "host", codec_host(&a->host));
	cJSON_AddItemToObject(welcome, "capabilities",
			      codec_capabilities(&a->host));
	agent_send(a, welcome);
	agent_lines(a);
}

/* When a secret from h's address may be checked next (0: now). */
static uint64_t auth_next_ns(const struct agent *a, const struct handshake *h)
{
	for (size_t i = 0; a->has_secret && i < AUTH_PEERS_MAX; i++)
		if (a->auth_wait[i].addr.s_addr == h->addr.sin_addr.s_addr)
			return a->auth_wait[i].next_ns;
	return 0;
}

/*
 * A wrong secret from h's address: its next one waits AUTH_DELAY_MS.  The
 * address takes its own entry, or the one whose wait ends first.
 */
static void auth_delay(struct agent *a, const struct handshake *h,
		       uint64_t now_ns)
{
	struct auth_wait *w = &a->auth_wait[0];

	for (size_t i = 0; i < AUTH_PEERS_MAX; i++) {
		struct auth_wait *k = &a->auth_wait[i];

		if (k->addr.s_addr == h->addr.sin_addr.s_addr) {
			w = k;
			break;
		}
		if (k->next_ns < w->next_ns)
			w = k;
	}
	w->addr = h->addr.sin_addr;
	w->next_ns = now_ns + AUTH_DELAY_MS * NS_PER_MS;
}

/*
 * A hello read whose address may be heard (auth_next_ns): its secret
 * checked, then the client slot taken if it is free.
 */
static void agent_authenticate(struct agent *a, struct handshake *h,
			       uint64_t now_ns)
{
	const cJSON *secret = cJSON_GetObjectItemCaseSensitive(h->hello,
							       "secret");
	char why[160];

	if (a->has_secret && !cJSON_IsString(secret)) {
		handshake_drop(a, h, "this agent needs a secret (--auth-file)");
		return;
	}
	if (a->has_secret &&
	    !proto_secret_equal(secret->valuestring, a->secret)) {
		auth_delay(a, h, now_ns);
		handshake_drop(a, h, "wrong secret");
		return;
	}
	if (agent_busy(a)) {
		/* Only a greeted peer learns whom the agent serves. */
		snprintf(why, sizeof(why),
			 "busy: serving %s for %.0f s; one client at a time",
			 a->peer, (double)(now_ns - a->connected_ns) / 1e9);
		proto_send_error(h->fd, why);
		if (!h->quiet)
			agent_log(a, "%s refused: %s", h->peer, why);
		handshake_drop(a, h, NULL);
		return;
	}
	agent_welcome(a, h);
}

/* What a handshake sent: its first line must be a good hello. */
static void handshake_read(struct agent *a, struct handshake *h,
			   uint64_t now_ns)
{
	ssize_t n = proto_reader_fill(&h->in, h->fd);
	const char *type;
	char *line, *cause = NULL, why[128];
	size_t len;
	int r;

	if (n == 0 ||
	    (n < 0 && n != -EAGAIN && n != -EINTR && n != -EMSGSIZE)) {
		if (!h->quiet)
			agent_log(a, "%s left before its hello", h->peer);
		handshake_drop(a, h, NULL);
		return;
	}
	r = proto_reader_next(&h->in, &line, &len);
	if (r == 0)
		return;
	if (r < 0) {
		snprintf(why, sizeof(why), "a message longer than %d bytes",
			 PROTO_AGENT_LINE_MAX);
		handshake_drop(a, h, why);
		return;
	}
	if (proto_parse(line, len, &h->hello, &type, &cause) < 0) {
		handshake_drop(a, h, cause ? cause : "a bad message");
		free(cause);
		return;
	}
	if (strcmp(type, "hello") != 0) {
		handshake_drop(a, h, "the first message must be a hello");
		return;
	}
	h->hello_ns = now_ns;
}

static void agent_refuse(struct agent *a, unsigned int id, const char *why)
{
	cJSON *msg = proto_message("refused", id);

	cJSON_AddStringToObject(msg, "error", why);
	agent_send(a, msg);
	agent_log(a, "run %u refused: %s", id, why);
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
	/* Every strategy that keeps slots: zero-copy's, sendfile's, splice's. */
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

static void agent_read(struct agent *a)
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

/* The client's whole lines, read already. */
static void agent_lines(struct agent *a)
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

unsigned int agent_poll(const struct agent *a, struct pollfd *pfd)
{
	unsigned int n = 0;

	pfd[n++] = (struct pollfd){.fd = a->listen_fd, .events = POLLIN};
	if (a->fd >= 0)
		pfd[n++] = (struct pollfd){.fd = a->fd, .events = POLLIN};
	if (a->run)
		pfd[n++] = (struct pollfd){.fd = run_event_fd(a->run),
					   .events = POLLIN};
	/* A hello waiting for its secret to be checked is read already. */
	for (size_t i = 0; i < AGENT_HANDSHAKES_MAX; i++)
		if (a->shake[i].fd >= 0 && !a->shake[i].hello)
			pfd[n++] = (struct pollfd){.fd = a->shake[i].fd,
						   .events = POLLIN};
	return n;
}

static uint64_t earliest(uint64_t deadline, uint64_t d)
{
	return !deadline || d < deadline ? d : deadline;
}

/* Whether the client holds the agent with no run and no word. */
static bool agent_idle(const struct agent *a)
{
	return a->fd >= 0 && !a->run && a->data_fd < 0;
}

uint64_t agent_deadline_ns(const struct agent *a)
{
	uint64_t deadline = 0;

	for (size_t i = 0; i < AGENT_HANDSHAKES_MAX; i++) {
		const struct handshake *h = &a->shake[i];

		if (h->fd >= 0 && h->hello)
			deadline = earliest(deadline, auth_next_ns(a, h));
		else if (h->fd >= 0)
			deadline = earliest(deadline,
					    h->connected_ns +
						    HANDSHAKE_TIMEOUT_MS *
							    NS_PER_MS);
	}
	for (size_t i = 0; i < LOG_PEERS_MAX; i++)
		if (a->log_peer[i].quiet)
			deadline = earliest(deadline, a->log_peer[i].since_ns +
							      LOG_WINDOW_NS);
	if (a->log_all.quiet)
		deadline = earliest(deadline,
				    a->log_all.since_ns + LOG_WINDOW_NS);
	if (agent_idle(a))
		deadline = earliest(deadline,
				    a->idle_since_ns +
					    a->options.max_idle_ms * NS_PER_MS);
	if (a->run) {
		uint64_t d = run_deadline_ns(a->run);

		if (a->next_tick_ns < d)
			d = a->next_tick_ns;
		deadline = earliest(deadline, d);
	}
	return deadline;
}

/* Whether pfd (n of them) says fd may be read. */
static bool readable(const struct pollfd *pfd, unsigned int n, int fd)
{
	for (unsigned int i = 0; fd >= 0 && i < n; i++)
		if (pfd[i].fd == fd)
			return pfd[i].revents != 0;
	return false;
}

/*
 * The hello read first among those whose address may be heard now, or
 * NULL: a peer that keeps sending wrong secrets never goes before a hello
 * that waited longer.
 */
static struct handshake *oldest_hello(struct agent *a, uint64_t now_ns)
{
	struct handshake *oldest = NULL;

	for (size_t i = 0; i < AGENT_HANDSHAKES_MAX; i++) {
		struct handshake *h = &a->shake[i];

		if (h->fd >= 0 && h->hello && now_ns >= auth_next_ns(a, h) &&
		    (!oldest || h->hello_ns < oldest->hello_ns))
			oldest = h;
	}
	return oldest;
}

/* Handshakes: what they sent, their hellos in turn, their time limits. */
static void agent_handshakes(struct agent *a, const struct pollfd *pfd,
			     unsigned int n, uint64_t now_ns)
{
	struct handshake *h;
	char why[64];

	for (size_t i = 0; i < AGENT_HANDSHAKES_MAX; i++) {
		h = &a->shake[i];
		if (h->fd >= 0 && !h->hello && readable(pfd, n, h->fd))
			handshake_read(a, h, now_ns);
	}
	while ((h = oldest_hello(a, now_ns)))
		agent_authenticate(a, h, now_ns);
	for (size_t i = 0; i < AGENT_HANDSHAKES_MAX; i++) {
		h = &a->shake[i];
		if (h->fd >= 0 && !h->hello &&
		    now_ns >= h->connected_ns +
				      HANDSHAKE_TIMEOUT_MS * NS_PER_MS) {
			snprintf(why, sizeof(why), "no hello within %d s",
				 HANDSHAKE_TIMEOUT_MS / 1000);
			handshake_drop(a, h, why);
		}
	}
}

void agent_step(struct agent *a, const struct pollfd *pfd, unsigned int n,
		uint64_t now_ns)
{
	char why[96];

	/*
	 * The client first: one that closed frees the slot before a hello
	 * that came after it is answered, and before anyone new is accepted.
	 */
	if (readable(pfd, n, a->fd))
		agent_read(a);
	agent_handshakes(a, pfd, n, now_ns);
	if (readable(pfd, n, a->listen_fd))
		agent_accept(a);
	log_peers_flush(a, now_ns);
	if (agent_idle(a) &&
	    now_ns >= a->idle_since_ns + a->options.max_idle_ms * NS_PER_MS) {
		snprintf(why, sizeof(why),
			 "idle for %.3g s with no run (this agent's "
			 "--max-idle)",
			 (double)a->options.max_idle_ms / 1000);
		agent_drop(a, why);
	}
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
