/*
 * A thread started on one CPU: the workers' and the probe's ends.
 */
#ifndef NIO_TOP_THREAD_H
#define NIO_TOP_THREAD_H

#include <pthread.h>

/* fn(arg) in a new thread, on cpu if it is not negative: 0 or -errno. */
int thread_start_on(pthread_t *thread, int cpu, void *(*fn)(void *), void *arg);

#endif
