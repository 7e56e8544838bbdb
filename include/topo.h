/*
 * The network a run's flows cross: which namespaces the two sides' sockets
 * live in, the address the sending side listens on, and what it took to build.
 */
#ifndef NIO_TOP_TOPO_H
#define NIO_TOP_TOPO_H

#include <netinet/in.h>

enum topo_kind {
	TOPO_LOOPBACK, /* one private namespace, lo only */
	TOPO_CURRENT,  /* lo of the namespace nio-top was started in */
};

struct topo {
	enum topo_kind kind;
	int server_ns; /* senders' namespace; -1 = the current one */
	int client_ns; /* receivers' namespace; -1 = the current one */
	struct sockaddr_in server_addr;
	double setup_ms;
};

const char *topo_kind_name(enum topo_kind kind);
/* 0, or -EINVAL if name is not a topology. */
int topo_kind_parse(const char *name, enum topo_kind *kind);
/* The names, comma-separated, for help and errors. */
const char *topo_kind_list(void);

/*
 * Builds the network; on failure -errno and *cause (caller frees).  -EPERM
 * means nio-top lacks the privilege for namespaces.
 */
int topo_create(enum topo_kind kind, struct topo *topo, char **cause);
void topo_destroy(struct topo *topo);

#endif
