/*
 * The agent's handshakes: a new connection is one until its hello, which
 * must carry this protocol version and the secret if one is set, makes it
 * the client (agent_welcome).  Up to AGENT_HANDSHAKES_MAX wait at once,
 * each given HANDSHAKE_TIMEOUT_MS for its hello; once they are full the
 * oldest makes room.  Hellos are checked oldest first; after a wrong
 * secret the next secret from the same address is checked AUTH_DELAY_MS
 * later, so guessing is slow and slows nobody else.
 */
#include <errno.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "agent_private.h"
#include "codec.h"

#define HANDSHAKE_TIMEOUT_MS 2000
#define AUTH_DELAY_MS	     1000
#define SEND_TIMEOUT_S	     5

void handshake_drop(struct agent *a, struct handshake *h, const char *why)
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
void agent_accept(struct agent *a)
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
	h->quiet = !agent_log_count(a, from.sin_addr, h->connected_ns);
	if (!h->quiet)
		agent_log(a, "%s connected", h->peer);
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

void agent_handshakes(struct agent *a, const struct pollfd *pfd, unsigned int n,
		      uint64_t now_ns)
{
	struct handshake *h;
	char why[64];

	for (size_t i = 0; i < AGENT_HANDSHAKES_MAX; i++) {
		h = &a->shake[i];
		if (h->fd >= 0 && !h->hello && agent_readable(pfd, n, h->fd))
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

uint64_t agent_handshakes_deadline(const struct agent *a)
{
	uint64_t deadline = 0;

	for (size_t i = 0; i < AGENT_HANDSHAKES_MAX; i++) {
		const struct handshake *h = &a->shake[i];

		if (h->fd >= 0 && h->hello)
			deadline = agent_earliest(deadline, auth_next_ns(a, h));
		else if (h->fd >= 0)
			deadline = agent_earliest(deadline,
						  h->connected_ns +
							  HANDSHAKE_TIMEOUT_MS *
								  NS_PER_MS);
	}
	return deadline;
}
