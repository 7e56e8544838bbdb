/*
 * The context switches nio-top reports for its worker threads, against the
 * kernel's own per-thread accounting: during a real one-copy run over a
 * private loopback, the growth of the perf counts summed over both sides
 * must match the growth of voluntary + nonvoluntary switches summed over the
 * worker threads in /proc/self/task within a few percent.  Needs root for
 * the namespace (77 otherwise).
 */
#include <dirent.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "clock.h"
#include "counters.h"
#include "run.h"
#include "run_go.h"
#include "tap.h"
#include "topo.h"

/* Switches of every thread of this process but the calling one. */
static long worker_switches(void)
{
	pid_t self = (pid_t)syscall(SYS_gettid);
	DIR *dir = opendir("/proc/self/task");
	struct dirent *e;
	long total = 0;

	while (dir && (e = readdir(dir))) {
		char path[300], line[128];
		long n;
		FILE *f;

		if (e->d_name[0] == '.' || atoi(e->d_name) == self)
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/status",
			 e->d_name);
		f = fopen(path, "re");
		while (f && fgets(line, sizeof(line), f)) {
			if (sscanf(line, "voluntary_ctxt_switches: %ld", &n) ==
				    1 ||
			    sscanf(line, "nonvoluntary_ctxt_switches: %ld",
				   &n) == 1)
				total += n;
		}
		if (f)
			fclose(f);
	}
	if (dir)
		closedir(dir);
	return total;
}

static double perf_switches(const struct run *run)
{
	struct sample s;

	run_sample(run, &s, NULL);
	return (double)(s.tx_counters[0].raw + s.rx_counters[0].raw);
}

int main(void)
{
	const char *names[] = {"context-switches"};
	struct topo_options options;
	struct run_result result;
	struct counter_set set;
	struct topo topo;
	struct run *run;
	char *cause = NULL;
	double perf_a, perf_b, diff;
	long proc_a, proc_b, kernel;

	topo_options_default(&options);
	options.kind = TOPO_LOOPBACK;
	if (getuid() != 0 || topo_create(&options, &topo, &cause) < 0) {
		printf("1..0 # SKIP needs root for a private namespace\n");
		free(cause);
		return 77;
	}
	if (counters_resolve(names, 1, &set, &cause) < 0) {
		printf("1..0 # SKIP libpfm4: %s\n", cause);
		free(cause);
		topo_destroy(&topo);
		return 77;
	}
	struct run_config config = {
		.strategy = &strategy_one_copy,
		.msg_size = 16384,
		.threads = 2,
		.settings = {.duration_ms = 60000,
			     .slots = 16,
			     .uring_depth = 8},
		.counters = &set,
	};
	/* The clock starts once every thread is ready, as the loop ticks. */
	if (run_go_by_hand(&config, &topo, &run, &cause) < 0) {
		ok(false, "run_start: %s", cause);
		free(cause);
		topo_destroy(&topo);
		return tap_done();
	}
	/* Let every worker settle before the first reading. */
	poll(NULL, 0, 300);
	proc_a = worker_switches();
	perf_a = perf_switches(run);
	poll(NULL, 0, 1000);
	perf_b = perf_switches(run);
	proc_b = worker_switches();

	run_abort(run, "measured");
	run_finish(run, &result);
	run_result_fini(&result);
	topo_destroy(&topo);

	kernel = proc_b - proc_a;
	diff = (perf_b - perf_a) - (double)kernel;
	ok(kernel > 100, "the workers switched: %ld times in 1 s by /proc",
	   kernel);
	ok(diff <= 0.05 * (double)kernel && -diff <= 0.05 * (double)kernel,
	   "nio-top's counters say %.0f, /proc says %ld: within 5%%",
	   perf_b - perf_a, kernel);
	return tap_done();
}
