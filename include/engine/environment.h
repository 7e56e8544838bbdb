/*
 * What the machine was doing to the path when a session began: the sysctls
 * that change it (read in the senders' namespace, where the sockets are),
 * nio-top's links as built, the CPU frequency governor, transparent huge
 * pages, the CPU vulnerability mitigations in effect (they change what a
 * syscall costs) and the kernel's command line.  An export and the stream's
 * start carry it, so that a figure read months later says what it was, and
 * --diff lists what differs.
 */
#ifndef NIO_TOP_ENVIRONMENT_H
#define NIO_TOP_ENVIRONMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "topo.h"

#define ENV_SYSCTLS_MAX	    24
#define ENV_MITIGATIONS_MAX 32

/* A name and its value, as the file says it ("" is not there). */
struct env_entry {
	char name[48];
	char value[160];
};

struct host_env {
	struct env_entry sysctl[ENV_SYSCTLS_MAX];
	size_t sysctl_count;
	bool has_links; /* nio-top built them: a veth or a private lo */
	struct topo_link link[2]; /* the senders', the receivers' */
	char governor[32];	  /* "" where there is no cpufreq */
	char thp[32];		  /* "madvise" ("" unknown) */
	struct env_entry mitigation[ENV_MITIGATIONS_MAX]; /* by name */
	size_t mitigation_count;
	char cmdline[1024];
};

/* The sysctls that are read, in their order ("net.core.rmem_max", ...). */
extern const char *const env_sysctl_names[];

/* Reads it all now; topo: the network the runs use. */
void host_env_read(struct host_env *env, const struct topo *topo);

#endif
