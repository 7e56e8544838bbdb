/*
 * The agent's log: one escaped line an event, and a flood of connections
 * summed.  Per address, so many connections are logged each window, and so
 * many from every address together (a summary line counts as one): the
 * rest are summed.  The table of addresses is small, so an address that
 * falls out of it starts again; the count of all of them together is what
 * bounds the log, however many addresses a flood comes from.
 */
#include <stdarg.h>

#include "agent_private.h"
#include "escape.h"

#define LOG_BURST     50
#define LOG_BURST_ALL 100
#define LOG_WINDOW_NS (10000 * NS_PER_MS)

void agent_log(struct agent *a, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	escape_vprint(a->log, "nio-top agent: ", fmt, ap);
	va_end(ap);
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

void agent_log_flush(struct agent *a, uint64_t now_ns)
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
 * An address takes its own entry, a free one, or the one whose
 * window began first; once all addresses together are past their burst, a
 * connection is only counted, and takes no entry.
 */
bool agent_log_count(struct agent *a, struct in_addr addr, uint64_t now_ns)
{
	struct log_peer *p = NULL;

	agent_log_flush(a, now_ns);
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

uint64_t agent_log_deadline(const struct agent *a)
{
	uint64_t deadline = 0;

	for (size_t i = 0; i < LOG_PEERS_MAX; i++)
		if (a->log_peer[i].quiet)
			deadline = agent_earliest(deadline,
						  a->log_peer[i].since_ns +
							  LOG_WINDOW_NS);
	if (a->log_all.quiet)
		deadline = agent_earliest(deadline,
					  a->log_all.since_ns + LOG_WINDOW_NS);
	return deadline;
}
