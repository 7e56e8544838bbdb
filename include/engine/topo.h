/*
 * The network a run's flows cross: which namespaces the two sides' sockets
 * live in, the addresses they use, how the link is shaped, and what it took
 * to build and tear down.  Everything is made through rtnetlink (libnl-route)
 * inside namespaces nio-top created, so nothing in the caller's namespace is
 * touched and nothing can collide with another nio-top.
 */
#ifndef NIO_TOP_TOPO_H
#define NIO_TOP_TOPO_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "record.h"

enum topo_kind {
	TOPO_VETH,     /* two private namespaces joined by a veth pair */
	TOPO_LOOPBACK, /* one private namespace, lo only */
	TOPO_CURRENT,  /* lo of the namespace nio-top was started in */
	TOPO_REMOTE,   /* the other ends are on another host: nothing here */
};

#define TOPO_MTU_MIN 68
#define TOPO_MTU_MAX 65535
/* libnl's tbf takes the rate as an int of bytes per second. */
#define TOPO_RATE_MAX_BPS    (8ull * 2147483647ull)
#define TOPO_RATE_MIN_BPS    8000ull
#define TOPO_KEEP_PREFIX_MAX 32
/* The largest GSO and GRO size a link takes (the kernel's GSO_MAX_SIZE). */
#define TOPO_GSO_MAX (8u * 65535u)
/* The veth's two ends: the senders' namespace's, the receivers'. */
#define TOPO_SERVER_LINK "nio0"
#define TOPO_CLIENT_LINK "nio1"

struct topo_options {
	enum topo_kind kind;
	struct in_addr subnet; /* network address, host order bits zero */
	unsigned int prefix;
	unsigned int mtu;  /* 0: the kernel's default */
	uint64_t rate_bps; /* 0: unshaped */
	double delay_ms;
	double loss_pct;
	/* "": the namespaces stay anonymous */
	char keep_prefix[TOPO_KEEP_PREFIX_MAX + 1];
};

struct topo_link_stats {
	uint64_t tx_bytes;
	uint64_t rx_bytes;
	uint64_t tx_packets;
	uint64_t rx_packets;
};

struct topo {
	struct topo_options options;
	int server_ns; /* senders' namespace; -1 = the current one */
	int client_ns; /* receivers' namespace; -1 = the current one */
	struct sockaddr_in server_addr;
	struct sockaddr_in client_addr;
	unsigned int mtu; /* as the kernel set it */
	char *kept_path[2];
	pid_t keep_guard;    /* removes the names if nio-top dies; 0: none */
	int keep_guard_pipe; /* its EOF is the signal */
	double setup_ms;
	double teardown_ms;
};

/* The kinds' names, in enum order, NULL-terminated. */
extern const char *const topo_kind_names[];
extern const struct record topo_link_stats_record;

const char *topo_kind_name(enum topo_kind kind);

/* "198.18.0.0/30": 0 or -EINVAL (also for a subnet with host bits set). */
int topo_subnet_parse(const char *text, struct in_addr *subnet,
		      unsigned int *prefix);
void topo_options_default(struct topo_options *options);

/*
 * Builds the network; on failure -errno and *cause (caller frees).  -EPERM
 * means nio-top lacks the privilege for namespaces.
 */
int topo_create(const struct topo_options *options, struct topo *topo,
		char **cause);
/* Removes what topo_create made, timing it in topo->teardown_ms. */
void topo_destroy(struct topo *topo);

/* The kernel's counters of the senders' link: -ENODEV for `current`. */
int topo_link_stats(const struct topo *topo, struct topo_link_stats *stats);

/* Tries a qdisc kind on the senders' link: 0, or -errno and *cause. */
int topo_probe_qdisc(const struct topo *topo, const char *kind, char **cause);

/*
 * A link's own knobs as the kernel has them: BIG TCP's IPv4 GSO and GRO
 * sizes (Linux 6.3 and later; 0 where the kernel has no such attribute),
 * the most the device takes, and whether GRO is on.
 */
struct topo_stack {
	/*
	 * IFLA_GSO_IPV4_MAX_SIZE and IFLA_GRO_IPV4_MAX_SIZE, not the
	 * IFLA_GSO_MAX_SIZE that `ip -d link` before iproute2 6.3 prints:
	 * gso_ipv4_max_size and gro_ipv4_max_size in files.
	 */
	unsigned int gso_max_size;
	unsigned int gro_max_size;
	unsigned int tso_max_size;
	bool gro;
};

extern const struct record topo_stack_record;

/*
 * The senders' link and the receivers' (the veth's ends, or lo twice) as
 * they are: 0, -ENODEV for a network nio-top did not make, or -errno and
 * *cause (caller frees; cause may be NULL).
 */
int topo_stack_read(const struct topo *topo, struct topo_stack out[2],
		    char **cause);

/*
 * A link as nio-top built it, for the record: its knobs, MTU, root qdisc
 * ("noqueue") and the offloads on.
 */
struct topo_link {
	char name[16];
	unsigned int mtu;
	char qdisc[16];
	struct topo_stack stack;
	bool tso, gso, sg, tx_checksum, rx_checksum;
};

/* name, mtu, qdisc, the sizes, features.{gro,tso,gso,sg,...} */
extern const struct record topo_link_record;

/* The senders' link and the receivers', as topo_stack_read() says. */
int topo_link_read(const struct topo *topo, struct topo_link out[2],
		   char **cause);

/*
 * Sets both links as want says: the sizes (those not 0) if sizes, GRO if
 * gro.  0, -ENODEV, or -errno and *cause.
 */
int topo_stack_set(const struct topo *topo, const struct topo_stack want[2],
		   bool sizes, bool gro, char **cause);

#endif
