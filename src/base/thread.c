/*
 * Threads started on their CPU (thread.h): pinned before they run, so that
 * not one instruction of theirs runs elsewhere.
 */
#include <pthread.h>
#include <sched.h>

#include "thread.h"

int thread_start_on(pthread_t *thread, int cpu, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	cpu_set_t set;
	int r;

	if (cpu < 0)
		return -pthread_create(thread, NULL, fn, arg);
	r = pthread_attr_init(&attr);
	if (r != 0)
		return -r;
	CPU_ZERO(&set);
	CPU_SET((size_t)cpu, &set);
	r = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	if (r == 0)
		r = pthread_create(thread, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return -r;
}
