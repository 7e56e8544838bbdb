/*
 * The agent: it listens, and each step reads its client, its handshakes
 * and the listener in that order, drops a client idle for --max-idle, and
 * steps the client's run.  A new connection is a handshake first
 * (agent_handshake.c): only a greeted client takes the one client slot, so
 * a stranger who connects and says nothing holds a handshake, never the
 * agent.  The client then has runs served one after another
 * (agent_client.c).  Whatever the other side wrote is escaped before it
 * reaches the log (agent_log.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "agent_private.h"
#include "units.h"

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

/* Whether the client holds the agent with no run and no word. */
static bool agent_idle(const struct agent *a)
{
	return a->fd >= 0 && !a->run && a->data_fd < 0;
}

uint64_t agent_deadline_ns(const struct agent *a)
{
	uint64_t deadline = agent_handshakes_deadline(a);
	uint64_t log = agent_log_deadline(a);

	if (log)
		deadline = agent_earliest(deadline, log);
	if (agent_idle(a))
		deadline = agent_earliest(
			deadline,
			a->idle_since_ns + a->options.max_idle_ms * NS_PER_MS);
	if (a->run) {
		uint64_t d = run_deadline_ns(a->run);

		if (a->next_tick_ns < d)
			d = a->next_tick_ns;
		deadline = agent_earliest(deadline, d);
	}
	return deadline;
}

void agent_step(struct agent *a, const struct pollfd *pfd, unsigned int n,
		uint64_t now_ns)
{
	char why[96];

	/*
	 * The client first: one that closed frees the slot before a hello
	 * that came after it is answered, and before anyone new is accepted.
	 */
	if (agent_readable(pfd, n, a->fd))
		agent_read(a);
	agent_handshakes(a, pfd, n, now_ns);
	if (agent_readable(pfd, n, a->listen_fd))
		agent_accept(a);
	agent_log_flush(a, now_ns);
	if (agent_idle(a) &&
	    now_ns >= a->idle_since_ns + a->options.max_idle_ms * NS_PER_MS) {
		snprintf(why, sizeof(why),
			 "idle for %.3g s with no run (this agent's "
			 "--max-idle)",
			 (double)a->options.max_idle_ms / 1000);
		agent_drop(a, why);
	}
	agent_client_step(a, now_ns);
}
