/*
 * Real software counters against the kernel's own accounting: a thread
 * ping-pongs over pipes with a partner (each exchange blocks it), and the
 * context switches its perf counter reports must match the growth of
 * voluntary_ctxt_switches + nonvoluntary_ctxt_switches in
 * /proc/self/task/TID/status within a few percent.  Skips (77) where
 * software events cannot be opened.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "counters.h"
#include "tap.h"

#define EXCHANGES 2000

static int to_partner[2], to_worker[2];

static long proc_switches(pid_t tid)
{
	char path[64], line[128];
	long total = 0, n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/status", (int)tid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &n) == 1 ||
		    sscanf(line, "nonvoluntary_ctxt_switches: %ld", &n) == 1)
			total += n;
	}
	fclose(f);
	return total;
}

static void *partner(void *arg)
{
	char c;

	(void)arg;
	for (int i = 0; i < EXCHANGES; i++) {
		if (read(to_partner[0], &c, 1) != 1 ||
		    write(to_worker[1], &c, 1) != 1)
			break;
	}
	return NULL;
}

struct result {
	struct counter_value perf;
	long proc_before, proc_after;
};

static struct counter_set set;

static void *worker(void *arg)
{
	struct result *res = arg;
	struct counter_reading sum[COUNTERS_MAX];
	pid_t tid = (pid_t)syscall(SYS_gettid);
	struct thread_counters tc;
	char c = 'x';

	memset(sum, 0, sizeof(sum));
	thread_counters_open(&tc, &set, &counters_syscalls);
	res->proc_before = proc_switches(tid);
	for (int i = 0; i < EXCHANGES; i++) {
		if (write(to_partner[1], &c, 1) != 1 ||
		    read(to_worker[0], &c, 1) != 1)
			break;
	}
	res->proc_after = proc_switches(tid);
	thread_counters_read(&tc, sum);
	counter_evaluate(tc.set, 0, &tc.open[0], &sum[0], &res->perf);
	thread_counters_close(&tc);
	return NULL;
}

int main(void)
{
	const char *names[] = {"context-switches"};
	pthread_t w, p;
	struct result res;
	char *cause = NULL;
	long kernel;
	double diff;

	if (counters_resolve(names, 1, &set, &cause) < 0) {
		printf("1..0 # SKIP libpfm4: %s\n", cause);
		return 77;
	}
	if (pipe(to_partner) < 0 || pipe(to_worker) < 0)
		return 1;
	pthread_create(&p, NULL, partner, NULL);
	pthread_create(&w, NULL, worker, &res);
	pthread_join(w, NULL);
	pthread_join(p, NULL);

	if (!counter_known(&res.perf)) {
		printf("1..0 # SKIP context-switches: %s\n", res.perf.reason);
		return 77;
	}
	kernel = res.proc_after - res.proc_before;
	diff = res.perf.value - (double)kernel;
	ok(res.perf.status == COUNTER_OK, "context-switches counted: %s",
	   counter_status_name(res.perf.status));
	ok(kernel >= EXCHANGES / 2,
	   "the thread really blocked: %ld switches by /proc for %d "
	   "exchanges",
	   kernel, EXCHANGES);
	ok(diff <= 0.03 * (double)kernel + 2 &&
		   -diff <= 0.03 * (double)kernel + 2,
	   "perf says %.0f, /proc says %ld: within 3%%", res.perf.value,
	   kernel);
	return tap_done();
}
