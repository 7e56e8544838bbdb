/*
 * What machine a run happened on and what it can do: the facts an export
 * carries so that its numbers can be read in context.
 */
#ifndef NIO_TOP_HOSTINFO_H
#define NIO_TOP_HOSTINFO_H

#include <stdbool.h>

struct host_info {
	char kernel[65];
	char cpu_model[128];
	long cpus;
	bool netns;
	char netns_reason[128];
};

void host_info_read(struct host_info *host);

#endif
