/*
 * What a run needs of this host before it starts: memory for the buffers of
 * the ends it runs, and file descriptors for their sockets, rings and
 * counters (the soft limit raised as far as the hard one allows).
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "cause.h"
#include "run_private.h"

size_t run_memory(const struct run_config *c)
{
	struct strategy_params params = {
		.msg_size = c->msg_size,
		.request_response = c->mode == RUN_RR,
		.settings = &c->settings,
	};
	size_t per_flow = sizeof(struct worker_flow);

	if (c->role != RUN_RECEIVERS)
		per_flow += strategy_memory(c->strategy, &params, true);
	if (c->role != RUN_SENDERS)
		per_flow += strategy_memory(c->strategy, &params, false);
	if (c->mode == RUN_RR)
		per_flow += sizeof(struct latency_recorder);
	return per_flow * c->threads;
}

/* The memory limit of this process's cgroup (v2), or 0 if it has none. */
static uint64_t cgroup_memory_max(void)
{
	char line[512], path[600], value[32];
	unsigned long long max = 0;
	FILE *f = fopen("/proc/self/cgroup", "re");
	bool found = false;

	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3) == 0) {
			line[strcspn(line, "\n")] = '\0';
			found = true;
			break;
		}
	}
	if (f)
		fclose(f);
	if (!found)
		return 0;
	snprintf(path, sizeof(path), "/sys/fs/cgroup%s/memory.max", line + 3);
	f = fopen(path, "re");
	if (f && fgets(value, sizeof(value), f))
		max = strtoull(value, NULL, 10); /* "max": 0 */
	if (f)
		fclose(f);
	return max;
}

uint64_t run_memory_budget(uint64_t asked, const char **whose)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	uint64_t total;
	uint64_t cgroup;

	*whose = NULL;
	if (asked)
		return asked;
	total = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page
				      : 1ull << 30;
	cgroup = cgroup_memory_max();
	*whose = "this machine's memory";
	if (cgroup && cgroup < total) {
		total = cgroup;
		*whose = "this cgroup's memory.max";
	}
	return total / 4;
}

/* The descriptors this process holds now. */
static size_t open_descriptors(void)
{
	DIR *d = opendir("/proc/self/fd");
	size_t n = 0;

	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	/* ".", ".." and the folder's own descriptor. */
	return n > 3 ? n - 3 : 0;
}

/* One thread's: its socket, ring, counters and sampling events. */
static size_t thread_descriptors(const struct run_config *c)
{
	return 1 + c->strategy->descriptors +
	       (c->counters ? counters_descriptors(c->counters) : 0) +
	       (c->settings.profile_hz ? 1 : 0) +
	       (c->settings.no_waits ? 0 : 1);
}

size_t run_descriptors(const struct run_config *c)
{
	unsigned int ends = c->role == RUN_BOTH ? 2 : 1;

	/* Each end's thread's; the listener; some slack. */
	return (size_t)c->threads * ends * thread_descriptors(c) + 1 + 8;
}

void run_descriptor_hint(const struct run_config *c, char *reason, size_t size)
{
	struct rlimit limit = {0};
	size_t len = strlen(reason);

	getrlimit(RLIMIT_NOFILE, &limit);
	snprintf(reason + len, size - len,
		 "; ulimit -n is %llu, the run needs about %zu",
		 (unsigned long long)limit.rlim_cur,
		 run_descriptors(c) + open_descriptors());
}

int run_check_descriptors(const struct run_config *c, char **cause)
{
	size_t need = run_descriptors(c) + open_descriptors();
	struct rlimit limit;

	if (getrlimit(RLIMIT_NOFILE, &limit) < 0 || need <= limit.rlim_cur)
		return 0;
	/* The soft limit is ours to raise, up to the hard one. */
	if (limit.rlim_max == RLIM_INFINITY || need <= limit.rlim_max) {
		limit.rlim_cur = need;
		if (setrlimit(RLIMIT_NOFILE, &limit) == 0)
			return 0;
	}
	return cause_set(cause, -EMFILE,
			 "%u flows need about %zu open files here (%zu per "
			 "thread for its socket%s%s%s), and ulimit -n allows "
			 "%llu: raise it (ulimit -n %zu), or run fewer flows%s",
			 c->threads, need, thread_descriptors(c),
			 c->strategy->descriptors ? ", its io_uring" : "",
			 c->counters ? ", its perf events" : "",
			 c->settings.profile_hz || !c->settings.no_waits
				 ? ", its sampling"
				 : "",
			 (unsigned long long)limit.rlim_max, need,
			 c->counters ? " or count fewer events (--events, "
				       "--no-counters)"
				     : "");
}
