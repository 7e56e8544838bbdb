/*
 * The links' own knobs a run may set: BIG TCP (the IPv4 GSO and GRO sizes,
 * Linux 6.3 and later) through rtnetlink, and GRO itself through the
 * ethtool ioctl, each inside the namespace that holds the link.  The
 * kernel's reply is read back rather than trusted: a kernel older than the
 * attributes ignores them, which the read-back shows as an attribute that
 * is not there.
 */
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "netns.h"
#include "topo.h"

/* Linux 6.3 uAPI that Debian 12's headers lack. */
#define LINK_GSO_IPV4_MAX_SIZE 63
#define LINK_GRO_IPV4_MAX_SIZE 64
#define LINK_ATTR_MAX	       64

static const struct record_field stack_fields[] = {
	RECORD_FIELD_WAS("gso_ipv4_max_size", "gso_max_size", RECORD_UINT,
			 struct topo_stack, gso_max_size),
	RECORD_FIELD_WAS("gro_ipv4_max_size", "gro_max_size", RECORD_UINT,
			 struct topo_stack, gro_max_size),
	RECORD_FIELD("tso_max_size", RECORD_UINT, struct topo_stack,
		     tso_max_size),
	RECORD_FIELD("gro", RECORD_BOOL, struct topo_stack, gro),
};
const struct record topo_stack_record = RECORD_OF(stack_fields);

static const struct record_field link_fields[] = {
	RECORD_TEXT_FIELD("name", struct topo_link, name),
	RECORD_FIELD("mtu", RECORD_UINT, struct topo_link, mtu),
	RECORD_TEXT_FIELD("qdisc", struct topo_link, qdisc),
	RECORD_FIELD_WAS("gso_ipv4_max_size", "gso_max_size", RECORD_UINT,
			 struct topo_link, stack.gso_max_size),
	RECORD_FIELD_WAS("gro_ipv4_max_size", "gro_max_size", RECORD_UINT,
			 struct topo_link, stack.gro_max_size),
	RECORD_FIELD("tso_max_size", RECORD_UINT, struct topo_link,
		     stack.tso_max_size),
	RECORD_FIELD("features.gro", RECORD_BOOL, struct topo_link, stack.gro),
	RECORD_FIELD("features.tso", RECORD_BOOL, struct topo_link, tso),
	RECORD_FIELD("features.gso", RECORD_BOOL, struct topo_link, gso),
	RECORD_FIELD("features.sg", RECORD_BOOL, struct topo_link, sg),
	RECORD_FIELD("features.tx_checksum", RECORD_BOOL, struct topo_link,
		     tx_checksum),
	RECORD_FIELD("features.rx_checksum", RECORD_BOOL, struct topo_link,
		     rx_checksum),
};
const struct record topo_link_record = RECORD_OF(link_fields);

/* One link's work, inside its namespace. */
struct stack_job {
	const char *link;
	struct topo_stack *state; /* read into, or set from */
	struct topo_link *whole;  /* a read: the rest of the link too */
	bool set;
	bool set_sizes;
	bool set_gro;
	const char *step;
};

static int stack_parse(struct nl_msg *msg, void *arg)
{
	struct stack_job *job = arg;
	struct topo_stack *s = job->state;
	struct nlattr *tb[LINK_ATTR_MAX + 1];

	if (nlmsg_parse(nlmsg_hdr(msg), sizeof(struct ifinfomsg), tb,
			LINK_ATTR_MAX, NULL) < 0)
		return NL_SKIP;
	if (job->whole && tb[IFLA_MTU])
		job->whole->mtu = nla_get_u32(tb[IFLA_MTU]);
	if (job->whole && tb[IFLA_QDISC])
		snprintf(job->whole->qdisc, sizeof(job->whole->qdisc), "%s",
			 nla_get_string(tb[IFLA_QDISC]));
	if (tb[LINK_GSO_IPV4_MAX_SIZE])
		s->gso_max_size = nla_get_u32(tb[LINK_GSO_IPV4_MAX_SIZE]);
	if (tb[LINK_GRO_IPV4_MAX_SIZE])
		s->gro_max_size = nla_get_u32(tb[LINK_GRO_IPV4_MAX_SIZE]);
	if (tb[IFLA_TSO_MAX_SIZE])
		s->tso_max_size = nla_get_u32(tb[IFLA_TSO_MAX_SIZE]);
	return NL_OK;
}

/* The link's sizes (0 where the kernel has no such attribute). */
static int stack_get(struct nl_sock *sk, int ifindex, struct stack_job *job)
{
	struct ifinfomsg ifi = {.ifi_family = AF_UNSPEC, .ifi_index = ifindex};
	struct topo_stack *s = job->state;
	int err;

	s->gso_max_size = s->gro_max_size = s->tso_max_size = 0;
	err = nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, stack_parse,
				  job);
	if (err >= 0)
		err = nl_send_simple(sk, RTM_GETLINK, 0, &ifi, sizeof(ifi));
	if (err >= 0)
		err = nl_recvmsgs_default(sk);
	return err < 0 ? err : 0;
}

static int stack_put(struct nl_sock *sk, int ifindex,
		     const struct topo_stack *s)
{
	struct ifinfomsg ifi = {.ifi_family = AF_UNSPEC, .ifi_index = ifindex};
	struct nl_msg *msg = nlmsg_alloc_simple(RTM_NEWLINK, NLM_F_REQUEST);

	if (!msg)
		return -NLE_NOMEM;
	if (nlmsg_append(msg, &ifi, sizeof(ifi), NLMSG_ALIGNTO) < 0 ||
	    (s->gso_max_size &&
	     nla_put_u32(msg, LINK_GSO_IPV4_MAX_SIZE, s->gso_max_size) < 0) ||
	    (s->gro_max_size &&
	     nla_put_u32(msg, LINK_GRO_IPV4_MAX_SIZE, s->gro_max_size) < 0)) {
		nlmsg_free(msg);
		return -NLE_NOMEM;
	}
	return nl_send_sync(sk, msg);
}

/* One of the ethtool ioctl's flags (ETHTOOL_GGRO, ...): read, or set. */
static int ethtool_flag(const char *link, unsigned int cmd, bool *on)
{
	struct ethtool_value v = {.cmd = cmd, .data = *on};
	struct ifreq ifr = {.ifr_data = (void *)&v};
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), r = 0;

	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", link);
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0)
		r = -errno;
	else
		*on = v.data != 0;
	close(fd);
	return r;
}

/* GRO through the ethtool ioctl: read into s, or set from it. */
static int stack_gro(const char *link, struct topo_stack *s, bool set)
{
	bool on = s->gro;
	int r = ethtool_flag(link, set ? ETHTOOL_SGRO : ETHTOOL_GGRO, &on);

	if (r == 0 && !set)
		s->gro = on;
	return r;
}

/* The offloads a link has on (none where it has no ethtool ops). */
static void link_features(const char *link, struct topo_link *l)
{
	const struct {
		unsigned int cmd;
		bool *on;
	} flag[] = {
		{ETHTOOL_GTSO, &l->tso},
		{ETHTOOL_GGSO, &l->gso},
		{ETHTOOL_GSG, &l->sg},
		{ETHTOOL_GTXCSUM, &l->tx_checksum},
		{ETHTOOL_GRXCSUM, &l->rx_checksum},
	};

	for (size_t i = 0; i < sizeof(flag) / sizeof(flag[0]); i++)
		if (ethtool_flag(link, flag[i].cmd, flag[i].on) < 0)
			*flag[i].on = false;
}

static int nl_to_errno(int err)
{
	return err == -NLE_PERM	       ? -EPERM
	       : err == -NLE_INVAL     ? -EINVAL
	       : err == -NLE_RANGE     ? -ERANGE
	       : err == -NLE_OPNOTSUPP ? -EOPNOTSUPP
				       : -EIO;
}

/* In the link's namespace: reads its knobs, or sets them. */
static int stack_job_run(void *arg)
{
	struct stack_job *job = arg;
	struct nl_sock *sk = NULL;
	int ifindex = (int)if_nametoindex(job->link), err = 0, r;

	job->step = "find the link";
	if (ifindex == 0)
		return -errno;
	if (!job->set || job->set_sizes) {
		sk = nl_socket_alloc();
		if (!sk)
			return -ENOMEM;
		job->step = "connect to rtnetlink";
		err = nl_connect(sk, NETLINK_ROUTE);
		if (err >= 0 && job->set) {
			job->step = "set the GSO and GRO sizes";
			err = stack_put(sk, ifindex, job->state);
		} else if (err >= 0) {
			job->step = "read the GSO and GRO sizes";
			err = stack_get(sk, ifindex, job);
		}
		nl_socket_free(sk);
		if (err < 0)
			return nl_to_errno(err);
	}
	if (job->set && !job->set_gro)
		return 0;
	job->step = job->set ? "switch GRO" : "read GRO";
	r = stack_gro(job->link, job->state, job->set);
	/* A read of a link without the ethtool ops: GRO is off. */
	if (r == -EOPNOTSUPP && !job->set) {
		job->state->gro = false;
		r = 0;
	}
	if (r == 0 && job->whole)
		link_features(job->link, job->whole);
	return r;
}

/* The senders' link and the receivers': the veth's two ends, or lo twice. */
static void stack_links(const struct topo *t, int ns[2], const char *link[2])
{
	bool veth = t->options.kind == TOPO_VETH;

	ns[0] = t->server_ns;
	ns[1] = t->client_ns;
	link[0] = veth ? TOPO_SERVER_LINK : "lo";
	link[1] = veth ? TOPO_CLIENT_LINK : "lo";
}

static int stack_fail(char **cause, const struct stack_job *job, int r)
{
	if (cause && asprintf(cause, "%s: cannot %s: %s", job->link, job->step,
			      strerror(-r)) < 0)
		*cause = NULL;
	return r;
}

int topo_stack_read(const struct topo *t, struct topo_stack out[2],
		    char **cause)
{
	const char *link[2];
	int ns[2];

	if (t->options.kind != TOPO_VETH && t->options.kind != TOPO_LOOPBACK)
		return -ENODEV;
	stack_links(t, ns, link);
	for (int i = 0; i < 2; i++) {
		struct stack_job job = {.link = link[i], .state = &out[i]};
		int r = netns_run(ns[i], stack_job_run, &job);

		if (r < 0)
			return stack_fail(cause, &job, r);
	}
	return 0;
}

int topo_link_read(const struct topo *t, struct topo_link out[2], char **cause)
{
	const char *link[2];
	int ns[2];

	memset(out, 0, 2 * sizeof(*out));
	if (t->options.kind != TOPO_VETH && t->options.kind != TOPO_LOOPBACK)
		return -ENODEV;
	stack_links(t, ns, link);
	for (int i = 0; i < 2; i++) {
		struct stack_job job = {.link = link[i],
					.state = &out[i].stack,
					.whole = &out[i]};
		int r;

		snprintf(out[i].name, sizeof(out[i].name), "%s", link[i]);
		r = netns_run(ns[i], stack_job_run, &job);
		if (r < 0)
			return stack_fail(cause, &job, r);
	}
	return 0;
}

int topo_stack_set(const struct topo *t, const struct topo_stack want[2],
		   bool sizes, bool gro, char **cause)
{
	const char *link[2];
	int ns[2];

	if (t->options.kind != TOPO_VETH && t->options.kind != TOPO_LOOPBACK)
		return -ENODEV;
	stack_links(t, ns, link);
	for (int i = 0; i < 2; i++) {
		struct topo_stack s = want[i];
		struct stack_job job = {.link = link[i],
					.state = &s,
					.set = true,
					.set_sizes = sizes,
					.set_gro = gro};
		int r = netns_run(ns[i], stack_job_run, &job);

		if (r < 0)
			return stack_fail(cause, &job, r);
		/* lo is both links: once is enough. */
		if (ns[0] == ns[1] && !strcmp(link[0], link[1]))
			break;
	}
	return 0;
}
