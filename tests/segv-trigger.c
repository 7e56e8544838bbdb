/*
 * Linked into nio-top-segv, a build of nio-top for the fault tests only:
 * when the file named by $NIO_TOP_TEST_SEGV appears, a thread of the process
 * writes to an address that is never mapped.  A real SIGSEGV, raised where a
 * bug would raise it, at a moment the test chooses.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

static const char *trigger;

static void *segv_when_triggered(void *unused)
{
	/*
	 * An address in the first page, which is never mapped
	 * (vm.mmap_min_addr), and not NULL, which UBSan would report before
	 * the fault could happen.
	 */
	volatile int *volatile nowhere = (volatile int *)16;

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
