/*
 * Connecting a run's flows, one TCP connection each: across a topology of
 * this host (a listener in the server namespace, the dialers in the client
 * namespace), or through the far end, which starts its ends and hands back
 * this host's.  A probe's connection is one more over the same listener,
 * dialled last.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "netns.h"
#include "run_private.h"

struct listener {
	struct sockaddr_in addr;
	int backlog;
	int fd;
};

struct dialer {
	struct sockaddr_in addr;
	unsigned int count;
	int *fds;
};

/* In the server namespace: a listening socket on an ephemeral port. */
static int listener_open(void *arg)
{
	struct listener *l = arg;
	socklen_t len = sizeof(l->addr);

	l->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l->fd < 0)
		return -errno;
	if (bind(l->fd, (struct sockaddr *)&l->addr, sizeof(l->addr)) < 0 ||
	    listen(l->fd, l->backlog) < 0 ||
	    getsockname(l->fd, (struct sockaddr *)&l->addr, &len) < 0) {
		int r = -errno;

		close(l->fd);
		l->fd = -1;
		return r;
	}
	return 0;
}

/* In the client namespace: one connection per flow, handshakes done. */
static int dial_all(void *arg)
{
	struct dialer *d = arg;

	for (unsigned int i = 0; i < d->count; i++) {
		d->fds[i] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (d->fds[i] < 0)
			return -errno;
		if (connect(d->fds[i], (struct sockaddr *)&d->addr,
			    sizeof(d->addr)) < 0)
			return -errno;
	}
	return 0;
}

static int local_port(int fd, bool peer)
{
	struct sockaddr_in addr;
	socklen_t len = sizeof(addr);
	int r = peer ? getpeername(fd, (struct sockaddr *)&addr, &len)
		     : getsockname(fd, (struct sockaddr *)&addr, &len);

	return r < 0 ? -errno : ntohs(addr.sin_port);
}

/*
 * Accepts the count connections dialled as d.fds[], each matched to its
 * dialler by port: accepted[i] is d.fds[i]'s other end.
 */
static int accept_all(int listener, const struct dialer *d, int *accepted)
{
	for (unsigned int i = 0; i < d->count; i++) {
		int fd = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
		int port;

		if (fd < 0)
			return -errno;
		port = local_port(fd, true);
		for (unsigned int j = 0; j < d->count; j++) {
			if (accepted[j] < 0 &&
			    local_port(d->fds[j], false) == port) {
				accepted[j] = fd;
				fd = -1;
				break;
			}
		}
		if (fd >= 0) {
			close(fd);
			return -EPROTO;
		}
	}
	return 0;
}

int run_connect(struct run *run, const struct topo *topo, int probe_fds[2],
		char **cause)
{
	unsigned int count = run->flow_count + (probe_fds ? 1 : 0);
	struct listener l = {
		.addr = topo->server_addr, .backlog = (int)count, .fd = -1};
	struct dialer d = {.count = count};
	int *accepted = malloc(count * sizeof(*accepted));
	const char *step;
	int r;

	d.fds = malloc(count * sizeof(*d.fds));
	if (!d.fds || !accepted) {
		free(d.fds);
		free(accepted);
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < count; i++)
		d.fds[i] = accepted[i] = -1;

	step = "listen";
	r = netns_run(topo->server_ns, listener_open, &l);
	if (r < 0)
		goto out;
	d.addr = l.addr;
	step = "connect";
	r = netns_run(topo->client_ns, dial_all, &d);
	if (r < 0)
		goto out;
	step = "accept";
	r = accept_all(l.fd, &d, accepted);
	if (r < 0)
		goto out;
	for (unsigned int i = 0; i < count; i++) {
		int *dialled = i < run->flow_count ? &run->flows[i].rx_fd
						   : &probe_fds[0];
		int *answering = i < run->flow_count ? &run->flows[i].tx_fd
						     : &probe_fds[1];

		*dialled = d.fds[i];
		*answering = accepted[i];
		d.fds[i] = accepted[i] = -1;
	}
out:
	if (r < 0 && asprintf(cause, "cannot %s: %s", step, strerror(-r)) < 0)
		*cause = NULL;
	for (unsigned int i = 0; i < count; i++) {
		if (d.fds[i] >= 0)
			close(d.fds[i]);
		if (accepted[i] >= 0)
			close(accepted[i]);
	}
	if (l.fd >= 0)
		close(l.fd);
	free(d.fds);
	free(accepted);
	return r;
}

void run_take_fds(struct run *run, int *fds)
{
	for (unsigned int i = 0; i < run->flow_count; i++) {
		if (run->config.role == RUN_SENDERS)
			run->flows[i].tx_fd = fds[i];
		else
			run->flows[i].rx_fd = fds[i];
		fds[i] = -1;
	}
}

int run_connect_far(struct run *run, char **cause)
{
	int *fds = malloc(run->flow_count * sizeof(*fds));
	int r;

	if (!fds)
		return -ENOMEM;
	r = run->far->start(run->far->data, &run->config, fds, cause);
	if (r == 0)
		run_take_fds(run, fds);
	free(fds);
	return r;
}
