/*
 * Topologies, built through rtnetlink (libnl-route).  loopback: a private
 * namespace whose lo is brought up, so the measurement is isolated from
 * whatever else the host does on its own lo.  current: the caller's lo, for
 * running inside a namespace someone else prepared (and the fallback when
 * nio-top may not create namespaces).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netlink/netlink.h>
#include <netlink/route/link.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "netns.h"
#include "topo.h"

static const char *const topo_names[] = {
	[TOPO_LOOPBACK] = "loopback",
	[TOPO_CURRENT] = "current",
};

const char *topo_kind_name(enum topo_kind kind)
{
	return topo_names[kind];
}

int topo_kind_parse(const char *name, enum topo_kind *kind)
{
	for (size_t i = 0; i < sizeof(topo_names) / sizeof(topo_names[0]);
	     i++) {
		if (strcmp(name, topo_names[i]) == 0) {
			*kind = (enum topo_kind)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *topo_kind_list(void)
{
	return "loopback, current";
}

struct link_up {
	const char *name;
	const char *failed_step;
	int nl_error;
};

/* Runs inside the target namespace: sets the named link up. */
static int link_set_up(void *arg)
{
	struct link_up *req = arg;
	struct rtnl_link *link = NULL, *change = NULL;
	struct nl_sock *sk;
	int err;

	sk = nl_socket_alloc();
	if (!sk)
		return -ENOMEM;
	req->failed_step = "connect to rtnetlink";
	err = nl_connect(sk, NETLINK_ROUTE);
	if (err < 0)
		goto out;
	req->failed_step = "look up the link";
	err = rtnl_link_get_kernel(sk, 0, req->name, &link);
	if (err < 0)
		goto out;
	change = rtnl_link_alloc();
	if (!change) {
		err = -NLE_NOMEM;
		goto out;
	}
	rtnl_link_set_flags(change, IFF_UP);
	req->failed_step = "set the link up";
	err = rtnl_link_change(sk, link, change, 0);
out:
	rtnl_link_put(change);
	rtnl_link_put(link);
	nl_socket_free(sk);
	req->nl_error = err;
	return err < 0 ? -EIO : 0;
}

static double elapsed_ms(const struct timespec *since)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - since->tv_sec) * 1e3 +
	       (double)(now.tv_nsec - since->tv_nsec) / 1e6;
}

int topo_create(enum topo_kind kind, struct topo *topo, char **cause)
{
	struct link_up lo = {.name = "lo"};
	struct timespec start;
	int ns = -1;
	int r;

	clock_gettime(CLOCK_MONOTONIC, &start);
	*cause = NULL;
	*topo = (struct topo){.kind = kind, .server_ns = -1, .client_ns = -1};
	topo->server_addr.sin_family = AF_INET;
	topo->server_addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);

	if (kind == TOPO_LOOPBACK) {
		r = netns_create(&ns);
		if (r < 0) {
			if (asprintf(cause,
				     "cannot create a network namespace: %s",
				     strerror(-r)) < 0)
				*cause = NULL;
			return r == -EPERM || r == -EACCES ? -EPERM : r;
		}
		r = netns_run(ns, link_set_up, &lo);
		if (r < 0) {
			if (asprintf(cause, "lo: cannot %s: %s", lo.failed_step,
				     lo.nl_error ? nl_geterror(lo.nl_error)
						 : strerror(-r)) < 0)
				*cause = NULL;
			close(ns);
			return r;
		}
		topo->server_ns = ns;
		topo->client_ns = ns;
	}
	topo->setup_ms = elapsed_ms(&start);
	return 0;
}

void topo_destroy(struct topo *topo)
{
	if (topo->client_ns >= 0 && topo->client_ns != topo->server_ns)
		close(topo->client_ns);
	if (topo->server_ns >= 0)
		close(topo->server_ns);
	topo->server_ns = topo->client_ns = -1;
}
