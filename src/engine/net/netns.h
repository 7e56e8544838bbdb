/*
 * Network namespaces held only by file descriptors.  Nothing is named or
 * mounted, so when the last descriptor closes -- on any exit, kill -9
 * included -- the kernel removes the namespace and every device in it.
 * Namespace changes act on the calling thread only, so code that must run
 * inside one runs on a short-lived helper thread and the caller never moves.
 */
#ifndef NIO_TOP_NETNS_H
#define NIO_TOP_NETNS_H

/* A new, empty network namespace held by *fd: 0 or -errno. */
int netns_create(int *fd);

/*
 * Runs fn(arg) on a helper thread inside the namespace fd (fd < 0: the
 * caller's own) and returns what fn returned, or -errno if it could not enter.
 */
int netns_run(int fd, int (*fn)(void *arg), void *arg);

#endif
