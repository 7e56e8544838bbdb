/*
 * Topologies, built through rtnetlink (libnl-route), each netlink socket
 * opened on a helper thread inside the namespace it configures.
 *
 * veth: a server and a client namespace, each held only by a file descriptor;
 * the veth pair is created from inside the server namespace with its peer
 * placed straight into the client namespace, so no device ever appears in the
 * caller's namespace and fixed names cannot collide.  The kernel removes both
 * namespaces and the pair when the descriptors close, however nio-top ends.
 * loopback: one private namespace with lo up.  current: the caller's lo.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/nsfs.h>
#include <linux/pkt_sched.h>
#include <math.h>
#include <net/if.h>
#include <netlink/netlink.h>
#include <netlink/route/addr.h>
#include <netlink/route/link.h>
#include <netlink/route/link/veth.h>
#include <netlink/route/qdisc.h>
#include <netlink/route/qdisc/netem.h>
#include <netlink/route/qdisc/tbf.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "netns.h"
#include "topo.h"

#define KEEP_DIR "/run/netns"
/* lo's alias in every namespace nio-top makes: how a stale name is known. */
#define LO_MARK "nio-top"

const char *const topo_kind_names[] = {
	[TOPO_VETH] = "veth",
	[TOPO_LOOPBACK] = "loopback",
	[TOPO_CURRENT] = "current",
	[TOPO_REMOTE] = "remote",
	NULL,
};

static const struct record_field link_fields[] = {
	RECORD_FIELD("tx_bytes", RECORD_U64, struct topo_link_stats, tx_bytes),
	RECORD_FIELD("rx_bytes", RECORD_U64, struct topo_link_stats, rx_bytes),
	RECORD_FIELD("tx_packets", RECORD_U64, struct topo_link_stats,
		     tx_packets),
	RECORD_FIELD("rx_packets", RECORD_U64, struct topo_link_stats,
		     rx_packets),
};
const struct record topo_link_stats_record = RECORD_OF(link_fields);

const char *topo_kind_name(enum topo_kind kind)
{
	return topo_kind_names[kind];
}

int topo_subnet_parse(const char *text, struct in_addr *subnet,
		      unsigned int *prefix)
{
	char addr[INET_ADDRSTRLEN];
	const char *slash = strchr(text, '/');
	char *end;
	unsigned long bits;
	uint32_t mask;

	if (!slash || (size_t)(slash - text) >= sizeof(addr))
		return -EINVAL;
	memcpy(addr, text, (size_t)(slash - text));
	addr[slash - text] = '\0';
	if (inet_pton(AF_INET, addr, subnet) != 1)
		return -EINVAL;
	errno = 0;
	bits = strtoul(slash + 1, &end, 10);
	/* Two hosts need a /30 at least; a /8 is plenty. */
	if (!slash[1] || *end || errno || bits < 8 || bits > 30)
		return -EINVAL;
	mask = htonl(~0u << (32 - bits));
	if (subnet->s_addr & ~mask)
		return -EINVAL;
	*prefix = (unsigned int)bits;
	return 0;
}

void topo_options_default(struct topo_options *options)
{
	/* 198.18.0.0/15 is set aside for benchmarking (RFC 2544). */
	*options = (struct topo_options){.kind = TOPO_VETH, .prefix = 30};
	options->subnet.s_addr = htonl(0xc6120000);
}

/* Work done with a netlink socket inside one namespace. */
struct nl_job {
	int (*fn)(struct nl_sock *sk, struct nl_job *job);
	const struct topo *topo;
	const char *step; /* what fn was doing when it failed */
	int nl_error;	  /* libnl's code of the failure */
	const char *qdisc_kind;
	struct topo_link_stats *stats;
	unsigned int mtu;  /* out: the MTU the kernel gave the link */
	bool foreign_link; /* out: a link nio-top does not make */
	bool marked;	   /* out: lo carries nio-top's mark */
};

static int nl_errno(int nl_error)
{
	switch (-nl_error) {
	case NLE_PERM:
		return -EPERM;
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_EXIST:
		return -EEXIST;
	case NLE_OBJ_NOTFOUND:
	case NLE_NOATTR:
		return -ENOENT;
	case NLE_OPNOTSUPP:
		return -EOPNOTSUPP;
	default:
		return -EIO;
	}
}

static int nl_job_thread(void *arg)
{
	struct nl_job *job = arg;
	struct nl_sock *sk = nl_socket_alloc();
	int err;

	if (!sk)
		return -ENOMEM;
	job->step = "connect to rtnetlink";
	err = nl_connect(sk, NETLINK_ROUTE);
	if (err >= 0)
		err = job->fn(sk, job);
	nl_socket_free(sk);
	job->nl_error = err < 0 ? err : 0;
	return err < 0 ? nl_errno(err) : 0;
}

/* Runs job->fn inside ns; on failure fills *cause with the step and why. */
static int nl_run(int ns, struct nl_job *job, const char *where, char **cause)
{
	int r = netns_run(ns, nl_job_thread, job);

	if (r < 0 && cause &&
	    asprintf(cause, "%s: cannot %s: %s", where, job->step,
		     job->nl_error ? nl_geterror(job->nl_error)
				   : strerror(-r)) < 0)
		*cause = NULL;
	return r;
}

static int link_index(struct nl_sock *sk, const char *name, int *ifindex,
		      unsigned int *mtu)
{
	struct rtnl_link *link;
	int err = rtnl_link_get_kernel(sk, 0, name, &link);

	if (err < 0)
		return err;
	*ifindex = rtnl_link_get_ifindex(link);
	if (mtu)
		*mtu = rtnl_link_get_mtu(link);
	rtnl_link_put(link);
	return 0;
}

/* Sets link name up, and its alias to alias if not NULL. */
static int link_up(struct nl_sock *sk, const char *name, const char *alias)
{
	struct rtnl_link *link, *change;
	int err = rtnl_link_get_kernel(sk, 0, name, &link);

	if (err < 0)
		return err;
	change = rtnl_link_alloc();
	if (!change) {
		rtnl_link_put(link);
		return -NLE_NOMEM;
	}
	rtnl_link_set_flags(change, IFF_UP);
	if (alias)
		rtnl_link_set_ifalias(change, alias);
	err = rtnl_link_change(sk, link, change, 0);
	rtnl_link_put(change);
	rtnl_link_put(link);
	return err;
}

static int addr_add(struct nl_sock *sk, int ifindex, struct in_addr host,
		    unsigned int prefix)
{
	struct nl_addr *local = nl_addr_build(AF_INET, &host, sizeof(host));
	struct rtnl_addr *addr = rtnl_addr_alloc();
	int err = -NLE_NOMEM;

	if (local && addr) {
		nl_addr_set_prefixlen(local, (int)prefix);
		rtnl_addr_set_ifindex(addr, ifindex);
		err = rtnl_addr_set_local(addr, local);
		if (err >= 0)
			err = rtnl_addr_add(sk, addr, 0);
	}
	rtnl_addr_put(addr);
	nl_addr_put(local);
	return err;
}

static struct rtnl_qdisc *root_qdisc(int ifindex)
{
	struct rtnl_qdisc *q = rtnl_qdisc_alloc();

	if (q) {
		rtnl_tc_set_ifindex(TC_CAST(q), ifindex);
		rtnl_tc_set_parent(TC_CAST(q), TC_H_ROOT);
	}
	return q;
}

/* A root qdisc on ifindex: tbf at the rate, or netem with delay and loss. */
static int qdisc_add(struct nl_sock *sk, int ifindex, const char *kind,
		     const struct topo_options *o, unsigned int mtu)
{
	struct rtnl_qdisc *q = root_qdisc(ifindex);
	int err;

	if (!q)
		return -NLE_NOMEM;
	rtnl_tc_set_handle(TC_CAST(q), TC_H_MAKE(1u << 16, 0));
	err = rtnl_tc_set_kind(TC_CAST(q), kind);
	if (err < 0)
		goto out;
	if (strcmp(kind, "tbf") == 0) {
		uint64_t rate = (o->rate_bps ? o->rate_bps : 1000000000ull) / 8;
		/* 10 ms of tokens, and never less than one GSO packet. */
		uint64_t bucket = rate / 100;

		if (bucket < 65536 + mtu)
			bucket = 65536 + mtu;
		rtnl_qdisc_tbf_set_rate(q, (int)rate, (int)bucket, 0);
		err = rtnl_qdisc_tbf_set_limit_by_latency(q, 50000);
		if (err < 0)
			goto out;
	} else {
		rtnl_netem_set_delay(q, (int)llround(o->delay_ms * 1000));
		rtnl_netem_set_loss(
			q, (int)(uint32_t)(o->loss_pct / 100.0 * UINT32_MAX));
	}
	err = rtnl_qdisc_add(sk, q, NLM_F_CREATE | NLM_F_EXCL);
out:
	rtnl_qdisc_put(q);
	return err;
}

static int qdisc_delete(struct nl_sock *sk, int ifindex)
{
	struct rtnl_qdisc *q = root_qdisc(ifindex);
	int err;

	if (!q)
		return -NLE_NOMEM;
	err = rtnl_qdisc_delete(sk, q);
	rtnl_qdisc_put(q);
	return err;
}

static const char *server_link(const struct topo *topo)
{
	return topo->options.kind == TOPO_VETH ? TOPO_SERVER_LINK : "lo";
}

/* One end of the pair, inside its namespace: addressed, up, and lo up. */
static int bring_up_end(struct nl_sock *sk, struct nl_job *job,
			const char *name, struct in_addr addr, int *ifindex)
{
	int err;

	job->step = "find the veth end";
	err = link_index(sk, name, ifindex, &job->mtu);
	if (err < 0)
		return err;
	job->step = "address the veth end";
	err = addr_add(sk, *ifindex, addr, job->topo->options.prefix);
	if (err < 0)
		return err;
	job->step = "set the veth end up";
	err = link_up(sk, name, NULL);
	if (err < 0)
		return err;
	job->step = "set lo up";
	return link_up(sk, "lo", LO_MARK);
}

/* Server namespace: the veth pair, its end, shaping. */
static int build_server(struct nl_sock *sk, struct nl_job *job)
{
	const struct topo *topo = job->topo;
	const struct topo_options *o = &topo->options;
	struct rtnl_link *veth, *peer;
	int ifindex, err;

	job->step = "create the veth pair";
	veth = rtnl_link_veth_alloc();
	if (!veth)
		return -NLE_NOMEM;
	peer = rtnl_link_veth_get_peer(veth);
	rtnl_link_set_name(veth, TOPO_SERVER_LINK);
	rtnl_link_set_name(peer, TOPO_CLIENT_LINK);
	rtnl_link_set_ns_fd(peer, topo->client_ns);
	if (o->mtu) {
		rtnl_link_set_mtu(veth, o->mtu);
		rtnl_link_set_mtu(peer, o->mtu);
	}
	err = rtnl_link_add(sk, veth, NLM_F_CREATE | NLM_F_EXCL);
	rtnl_link_put(peer);
	rtnl_link_veth_release(veth);
	if (err < 0)
		return err;

	err = bring_up_end(sk, job, TOPO_SERVER_LINK,
			   topo->server_addr.sin_addr, &ifindex);
	if (err < 0)
		return err;
	if (o->rate_bps) {
		job->step = "shape " TOPO_SERVER_LINK " with tbf";
		err = qdisc_add(sk, ifindex, "tbf", o, job->mtu);
		if (err < 0)
			return err;
	}
	if (o->delay_ms > 0 || o->loss_pct > 0) {
		job->step = "add netem to " TOPO_SERVER_LINK;
		err = qdisc_add(sk, ifindex, "netem", o, job->mtu);
		if (err == -NLE_OBJ_NOTFOUND)
			job->step = "use --delay or --loss: this kernel has "
				    "no sch_netem";
	}
	return err;
}

/* Client namespace: the peer's end. */
static int build_client(struct nl_sock *sk, struct nl_job *job)
{
	int ifindex;

	return bring_up_end(sk, job, TOPO_CLIENT_LINK,
			    job->topo->client_addr.sin_addr, &ifindex);
}

/* Loopback namespace: lo up, its MTU noted. */
static int build_loopback(struct nl_sock *sk, struct nl_job *job)
{
	int ifindex, err;

	job->step = "set lo up";
	err = link_up(sk, "lo", LO_MARK);
	if (err < 0)
		return err;
	return link_index(sk, "lo", &ifindex, &job->mtu);
}

static int delete_veth(struct nl_sock *sk, struct nl_job *job)
{
	struct rtnl_link *link;
	int err;

	job->step = "delete the veth pair";
	err = rtnl_link_get_kernel(sk, 0, TOPO_SERVER_LINK, &link);
	if (err < 0)
		return err;
	err = rtnl_link_delete(sk, link);
	rtnl_link_put(link);
	return err;
}

static int read_stats(struct nl_sock *sk, struct nl_job *job)
{
	struct rtnl_link *link;
	int err;

	job->step = "read link statistics";
	err = rtnl_link_get_kernel(sk, 0, server_link(job->topo), &link);
	if (err < 0)
		return err;
	*job->stats = (struct topo_link_stats){
		.tx_bytes = rtnl_link_get_stat(link, RTNL_LINK_TX_BYTES),
		.rx_bytes = rtnl_link_get_stat(link, RTNL_LINK_RX_BYTES),
		.tx_packets = rtnl_link_get_stat(link, RTNL_LINK_TX_PACKETS),
		.rx_packets = rtnl_link_get_stat(link, RTNL_LINK_RX_PACKETS),
	};
	rtnl_link_put(link);
	return 0;
}

static int probe_qdisc(struct nl_sock *sk, struct nl_job *job)
{
	int ifindex, err;

	job->step = "find the link";
	err = link_index(sk, server_link(job->topo), &ifindex, NULL);
	if (err < 0)
		return err;
	job->step = job->qdisc_kind;
	err = qdisc_add(sk, ifindex, job->qdisc_kind, &job->topo->options,
			job->topo->mtu);
	if (err < 0)
		return err;
	return qdisc_delete(sk, ifindex);
}

/*
 * Whether lo carries nio-top's mark, and whether a link other than lo and
 * the pair's ends is in the namespace.
 */
static void note_links(struct nl_object *obj, void *arg)
{
	const char *name = rtnl_link_get_name((struct rtnl_link *)obj);
	const char *alias = rtnl_link_get_ifalias((struct rtnl_link *)obj);
	struct nl_job *job = arg;

	if (name && strcmp(name, "lo") == 0 && alias &&
	    strcmp(alias, LO_MARK) == 0)
		job->marked = true;
	if (!name ||
	    (strcmp(name, "lo") != 0 && strcmp(name, TOPO_SERVER_LINK) &&
	     strcmp(name, TOPO_CLIENT_LINK)))
		job->foreign_link = true;
}

static int list_links(struct nl_sock *sk, struct nl_job *job)
{
	struct nl_cache *links;
	int err;

	job->step = "list the links";
	err = rtnl_link_alloc_cache(sk, AF_UNSPEC, &links);
	if (err < 0)
		return err;
	nl_cache_foreach(links, note_links, job);
	nl_cache_free(links);
	return 0;
}

/* Whether any process holds the namespace with inode ino, but the caller. */
static bool netns_held(ino_t ino)
{
	char want[48], link[64], path[600];
	DIR *procs = opendir("/proc"), *fds;
	struct dirent *p, *f;
	bool held = false;

	snprintf(want, sizeof(want), "net:[%lu]", (unsigned long)ino);
	while (procs && !held && (p = readdir(procs))) {
		ssize_t n;

		if (p->d_name[0] < '0' || p->d_name[0] > '9' ||
		    atoi(p->d_name) == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%s/ns/net", p->d_name);
		n = readlink(path, link, sizeof(link) - 1);
		held = n > 0 && (link[n] = '\0', strcmp(link, want) == 0);
		snprintf(path, sizeof(path), "/proc/%s/fd", p->d_name);
		fds = held ? NULL : opendir(path);
		while (fds && !held && (f = readdir(fds))) {
			snprintf(path, sizeof(path), "/proc/%s/fd/%s",
				 p->d_name, f->d_name);
			n = readlink(path, link, sizeof(link) - 1);
			held = n > 0 &&
			       (link[n] = '\0', strcmp(link, want) == 0);
		}
		if (fds)
			closedir(fds);
	}
	if (procs)
		closedir(procs);
	return held;
}

/* How many mounts of this mount namespace show the namespace ino. */
static unsigned int netns_mounts(ino_t ino)
{
	char want[48], line[4096];
	FILE *f = fopen("/proc/self/mountinfo", "re");
	unsigned int n = 0;

	snprintf(want, sizeof(want), " net:[%lu] ", (unsigned long)ino);
	while (f && fgets(line, sizeof(line), f))
		n += strstr(line, want) != NULL;
	if (f)
		fclose(f);
	return n;
}

/*
 * Whether path is a name an earlier nio-top left behind (killed with the
 * guard, say by a kill of its cgroup): bound from a network namespace no
 * process holds and no other mount shows, whose lo carries nio-top's mark
 * and which holds no link but lo and the pair's ends -- or an empty file
 * never bound.  Such a name is removed, so that the prefix can be used again;
 * a namespace someone made with `ip netns add` is never taken for one.
 */
static bool keep_clear_stale(const char *path)
{
	struct stat st, parent;
	struct nl_job job = {.fn = list_links};
	bool stale;
	int fd;

	if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) < 0 || stat(KEEP_DIR, &parent) < 0) {
		close(fd);
		return false;
	}
	if (st.st_dev == parent.st_dev) {
		/* Not bound: a name left half made. */
		stale = S_ISREG(st.st_mode) && st.st_size == 0;
	} else {
		stale = ioctl(fd, NS_GET_NSTYPE) == CLONE_NEWNET &&
			netns_mounts(st.st_ino) == 1 &&
			!netns_held(st.st_ino) &&
			netns_run(fd, nl_job_thread, &job) == 0 && job.marked &&
			!job.foreign_link;
	}
	close(fd);
	if (!stale)
		return false;
	umount2(path, MNT_DETACH);
	return unlink(path) == 0;
}

/* Binds a namespace under /run/netns so `ip netns exec` can enter it. */
static int keep_netns(int ns, const char *prefix, const char *side, char **path,
		      char **cause)
{
	char source[64];
	int fd, r;

	if (mkdir(KEEP_DIR, 0755) < 0 && errno != EEXIST)
		goto fail_errno;
	if (asprintf(path, KEEP_DIR "/%s-%s", prefix, side) < 0) {
		*path = NULL;
		return -ENOMEM;
	}
	fd = open(*path, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0444);
	if (fd < 0 && errno == EEXIST) {
		if (keep_clear_stale(*path))
			fd = open(*path,
				  O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC,
				  0444);
		else
			errno = EEXIST;
	}
	if (fd < 0)
		goto fail_errno;
	close(fd);
	snprintf(source, sizeof(source), "/proc/self/fd/%d", ns);
	if (mount(source, *path, "none", MS_BIND, NULL) < 0) {
		r = -errno;
		unlink(*path);
		errno = -r;
		goto fail_errno;
	}
	return 0;

fail_errno:
	r = -errno;
	if (asprintf(cause, "--keep-netns: cannot bind %s: %s%s",
		     *path ? *path : KEEP_DIR, strerror(errno),
		     r == -EEXIST ? " (a running nio-top, or a namespace "
				    "nio-top did not make, has the name)"
				  : "") < 0)
		*cause = NULL;
	free(*path);
	*path = NULL;
	return r;
}

/*
 * A name under /run/netns outlives the process that made it, so a child
 * process holds the read end of a pipe and removes the names when it reads
 * end-of-file: that happens however nio-top ends (kill -9, a crash).  The
 * child keeps nothing else open, so it never holds a namespace itself, and
 * it is in a session of its own, so that a signal to nio-top's process
 * group (timeout, kill -9 -PGID, the terminal's Ctrl-C) does not reach it.
 * What kills a whole cgroup kills it too: the names it leaves then are
 * recognised as stale and cleared by the next nio-top that wants them.
 */
static int keep_guard_start(struct topo *topo, char **cause)
{
	int fds[2], err;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0)
		goto fail;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		goto fail;
	}
	if (pid == 0) {
		char byte;

		setsid();
		if (fds[0] > 0)
			close_range(0, (unsigned int)fds[0] - 1, 0);
		close_range((unsigned int)fds[0] + 1, ~0U, 0);
		while (read(fds[0], &byte, 1) < 0 && errno == EINTR)
			;
		for (int i = 0; i < 2; i++) {
			if (topo->kept_path[i]) {
				umount2(topo->kept_path[i], MNT_DETACH);
				unlink(topo->kept_path[i]);
			}
		}
		_exit(0);
	}
	close(fds[0]);
	topo->keep_guard = pid;
	topo->keep_guard_pipe = fds[1];
	return 0;

fail:
	err = errno;
	if (asprintf(cause, "--keep-netns: cannot start the name guard: %s",
		     strerror(err)) < 0)
		*cause = NULL;
	return -err;
}

/* Called once the names are gone: the guard finds nothing to do. */
static void keep_guard_stop(struct topo *topo)
{
	if (topo->keep_guard <= 0)
		return;
	close(topo->keep_guard_pipe);
	while (waitpid(topo->keep_guard, NULL, 0) < 0 && errno == EINTR)
		;
	topo->keep_guard = 0;
}

static void unkeep_netns(char **path)
{
	if (!*path)
		return;
	umount2(*path, MNT_DETACH);
	unlink(*path);
	free(*path);
	*path = NULL;
}

static void topo_addresses(struct topo *topo)
{
	uint32_t net = ntohl(topo->options.subnet.s_addr);

	if (topo->options.kind != TOPO_VETH) {
		topo->server_addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		topo->client_addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		return;
	}
	topo->server_addr.sin_addr.s_addr = htonl(net + 1);
	topo->client_addr.sin_addr.s_addr = htonl(net + 2);
}

static int topo_namespaces(struct topo *topo, char **cause)
{
	int r = netns_create(&topo->server_ns);

	if (r == 0 && topo->options.kind == TOPO_VETH)
		r = netns_create(&topo->client_ns);
	else
		topo->client_ns = topo->server_ns;
	if (r < 0) {
		if (asprintf(cause, "cannot create a network namespace: %s",
			     strerror(-r)) < 0)
			*cause = NULL;
		return r == -EPERM || r == -EACCES ? -EPERM : r;
	}
	return 0;
}

int topo_create(const struct topo_options *options, struct topo *topo,
		char **cause)
{
	struct nl_job job = {.topo = topo};
	uint64_t start = clock_now_ns();
	int r;

	*cause = NULL;
	*topo = (struct topo){
		.options = *options, .server_ns = -1, .client_ns = -1};
	topo->server_addr.sin_family = AF_INET;
	topo->client_addr.sin_family = AF_INET;
	topo_addresses(topo);
	if (options->kind == TOPO_CURRENT || options->kind == TOPO_REMOTE) {
		topo->setup_ms = clock_ms_since(start);
		return 0;
	}

	r = topo_namespaces(topo, cause);
	if (r < 0)
		goto err;
	if (options->kind == TOPO_VETH) {
		job.fn = build_server;
		r = nl_run(topo->server_ns, &job, "server namespace", cause);
		if (r == 0) {
			job.fn = build_client;
			r = nl_run(topo->client_ns, &job, "client namespace",
				   cause);
		}
	} else {
		job.fn = build_loopback;
		r = nl_run(topo->server_ns, &job, "loopback namespace", cause);
	}
	if (r < 0)
		goto err;
	topo->mtu = job.mtu;

	if (options->keep_prefix[0]) {
		r = keep_netns(topo->server_ns, options->keep_prefix, "srv",
			       &topo->kept_path[0], cause);
		if (r == 0 && topo->client_ns != topo->server_ns)
			r = keep_netns(topo->client_ns, options->keep_prefix,
				       "cli", &topo->kept_path[1], cause);
		if (r == 0)
			r = keep_guard_start(topo, cause);
		if (r < 0)
			goto err;
	}
	topo->setup_ms = clock_ms_since(start);
	return 0;

err:
	topo_destroy(topo);
	return r;
}

void topo_destroy(struct topo *topo)
{
	struct nl_job job = {.topo = topo, .fn = delete_veth};
	uint64_t start = clock_now_ns();

	/*
	 * Closing the namespaces would remove the pair too, but only later, in
	 * the kernel's own time; deleting it first makes teardown finished
	 * (and measurable) when this returns.
	 */
	if (topo->options.kind == TOPO_VETH && topo->server_ns >= 0)
		nl_run(topo->server_ns, &job, "server namespace", NULL);
	unkeep_netns(&topo->kept_path[1]);
	unkeep_netns(&topo->kept_path[0]);
	keep_guard_stop(topo);
	if (topo->client_ns >= 0 && topo->client_ns != topo->server_ns)
		close(topo->client_ns);
	if (topo->server_ns >= 0)
		close(topo->server_ns);
	topo->server_ns = topo->client_ns = -1;
	topo->teardown_ms = clock_ms_since(start);
}

int topo_link_stats(const struct topo *topo, struct topo_link_stats *stats)
{
	struct nl_job job = {.topo = topo, .fn = read_stats, .stats = stats};

	if (topo->server_ns < 0)
		return -ENODEV;
	return nl_run(topo->server_ns, &job, "server namespace", NULL);
}

int topo_probe_qdisc(const struct topo *topo, const char *kind, char **cause)
{
	struct nl_job job = {
		.topo = topo, .fn = probe_qdisc, .qdisc_kind = kind};
	int r;

	*cause = NULL;
	if (topo->server_ns < 0)
		return -ENODEV;
	r = netns_run(topo->server_ns, nl_job_thread, &job);
	if (r < 0 && asprintf(cause, "%s",
			      job.nl_error ? nl_geterror(job.nl_error)
					   : strerror(-r)) < 0)
		*cause = NULL;
	return r;
}
