/*
 * Anonymous network namespaces and running code inside them on a helper
 * thread (setns() and unshare(CLONE_NEWNET) change only the calling thread).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include "netns.h"

struct netns_call {
	int fd;
	int (*fn)(void *arg);
	void *arg;
	int result;
};

static void *netns_thread(void *data)
{
	struct netns_call *call = data;

	if (call->fd >= 0 && setns(call->fd, CLONE_NEWNET) < 0) {
		call->result = -errno;
		return NULL;
	}
	call->result = call->fn(call->arg);
	return NULL;
}

int netns_run(int fd, int (*fn)(void *arg), void *arg)
{
	struct netns_call call = {.fd = fd, .fn = fn, .arg = arg};
	pthread_t thread;
	int r;

	r = pthread_create(&thread, NULL, netns_thread, &call);
	if (r != 0)
		return -r;
	pthread_join(thread, NULL);
	return call.result;
}

static int netns_new_here(void *arg)
{
	int *fd = arg;

	if (unshare(CLONE_NEWNET) < 0)
		return -errno;
	*fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	return *fd < 0 ? -errno : 0;
}

int netns_create(int *fd)
{
	*fd = -1;
	return netns_run(-1, netns_new_here, fd);
}
