/*
 * Linked into nio-top-segv, a build of nio-top for the fault tests only:
 * when the file named by $NIO_TOP_TEST_SEGV appears, a thread of the process
 * writes through a null pointer.  A real SIGSEGV, raised where a bug would
 * raise it, at a moment the test chooses.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

static const char *trigger;

static void *segv_when_triggered(void *unused)
{
	volatile int *volatile nowhere = NULL;

	(void)unused;
	while (access(trigger, F_OK) != 0)
		usleep(10 * 1000);
	*nowhere = 1;
	return NULL;
}

__attribute__((constructor)) static void segv_trigger_start(void)
{
	pthread_t thread;

	trigger = getenv("NIO_TOP_TEST_SEGV");
	if (!trigger)
		return;
	if (pthread_create(&thread, NULL, segv_when_triggered, NULL) == 0)
		pthread_detach(thread);
}
