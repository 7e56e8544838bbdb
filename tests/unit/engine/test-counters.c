/*
 * The counter path a machine with a PMU takes, driven without one: fake
 * perf_event_open and group reads check scaling, every status, hybrid summing,
 * group member order, and that a failed hardware group leaves the software
 * counters counting.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "counters.h"
#include "sampler.h"
#include "tap.h"

#define FAKE_FDS 64

struct fake_event {
	struct perf_event_attr attr;
	int group; /* the leader's fd, or -1 */
	uint64_t raw;
};

static struct fake {
	struct fake_event fd[FAKE_FDS];
	int next;
	int hw_error;	  /* what opening a hardware event returns */
	int kernel_error; /* what opening with kernel counting returns */
	uint64_t enabled[FAKE_FDS]; /* per leader */
	uint64_t running[FAKE_FDS];
	int closed;
} fake;

static void fake_reset(void)
{
	memset(&fake, 0, sizeof(fake));
	fake.next = 3;
}

static int fake_open(struct perf_event_attr *attr, int group_fd)
{
	int fd;

	if (attr->type != PERF_TYPE_SOFTWARE && fake.hw_error)
		return fake.hw_error;
	if (!attr->exclude_kernel && fake.kernel_error)
		return fake.kernel_error;
	fd = fake.next++;
	fake.fd[fd].attr = *attr;
	fake.fd[fd].group = group_fd;
	return fd;
}

static ssize_t fake_read(int fd, void *buf, size_t size)
{
	uint64_t *out = buf;
	size_t n = 0;

	out[1] = fake.enabled[fd];
	out[2] = fake.running[fd];
	out[3 + n++] = fake.fd[fd].raw;
	for (int i = 0; i < fake.next; i++) {
		if (fake.fd[i].group == fd && i != fd)
			out[3 + n++] = fake.fd[i].raw;
	}
	out[0] = n;
	(void)size;
	return (ssize_t)((3 + n) * sizeof(uint64_t));
}

static void fake_close(int fd)
{
	(void)fd;
	fake.closed++;
}

static const struct counters_ops fake_ops = {
	.open = fake_open,
	.read = fake_read,
	.close = fake_close,
};

static const char *const names[] = {"cycles", "instructions",
				    "context-switches"};

static void resolve(struct counter_set *set, const uint32_t *types,
		    unsigned int pmus, bool present)
{
	char *cause = NULL;

	if (counters_resolve_for(names, 3, types, pmus, present, set, &cause))
		ok(false, "resolve failed: %s", cause);
}

/* Opens, sets what the fake counted, reads and evaluates event i. */
static struct counter_value measure(struct thread_counters *tc, unsigned int i)
{
	struct counter_reading sum[COUNTERS_MAX];
	struct counter_value v;

	memset(sum, 0, sizeof(sum));
	thread_counters_read(tc, sum);
	counter_evaluate(tc->set, i, &tc->open[i], &sum[i], &v);
	return v;
}

static void test_ok_and_order(void)
{
	static const uint32_t one[] = {0};
	struct thread_counters tc;
	struct counter_set set;
	struct counter_value v;

	fake_reset();
	resolve(&set, one, 1, true);
	thread_counters_open(&tc, &set, &fake_ops);
	ok(tc.leader[0] == 3 && fake.fd[4].group == 3,
	   "instructions joins the cycles group");
	ok(fake.fd[5].group == -1, "context-switches opens on its own");
	ok(!fake.fd[3].attr.exclude_kernel && !fake.fd[3].attr.exclude_user,
	   "user and kernel are counted");
	fake.fd[3].raw = 1000;
	fake.fd[4].raw = 2500;
	fake.fd[5].raw = 7;
	fake.enabled[3] = fake.running[3] = 100;
	fake.enabled[5] = fake.running[5] = 100;
	v = measure(&tc, 0);
	ok(v.status == COUNTER_OK && v.value == 1000 && v.running_pct == 100,
	   "cycles ok: 1000 (got %s %.0f)", counter_status_name(v.status),
	   v.value);
	v = measure(&tc, 1);
	ok(v.status == COUNTER_OK && v.value == 2500,
	   "instructions read from its place in the group (%.0f)", v.value);
	v = measure(&tc, 2);
	ok(v.status == COUNTER_OK && v.value == 7, "context-switches ok: 7");
	thread_counters_close(&tc);
	ok(fake.closed == 3, "all three fds closed");
}

static void test_scaled_and_not_counted(void)
{
	static const uint32_t one[] = {0};
	struct thread_counters tc;
	struct counter_set set;
	struct counter_value v;

	fake_reset();
	resolve(&set, one, 1, true);
	thread_counters_open(&tc, &set, &fake_ops);
	fake.fd[3].raw = 1000;
	fake.enabled[3] = 200;
	fake.running[3] = 50;
	v = measure(&tc, 0);
	ok(v.status == COUNTER_SCALED && v.value == 4000 &&
		   v.running_pct == 25 && strstr(v.reason, "multiplexed"),
	   "multiplexed 25%%: 1000 scaled to 4000 (%s %.0f, %.0f%%)",
	   counter_status_name(v.status), v.value, v.running_pct);
	fake.running[3] = 0;
	v = measure(&tc, 0);
	ok(v.status == COUNTER_NOT_COUNTED && !counter_known(&v),
	   "ran 0 ns: not-counted and no value (%s)",
	   counter_status_name(v.status));
	thread_counters_close(&tc);
}

/*
 * Event 0 of one side between two readings, as every view takes it: the
 * sampler differences the samples, counter_evaluate says what it means.
 */
static struct counter_value window(struct thread_counters *tc,
				   const struct sample *from)
{
	struct counter_reading delta[COUNTERS_MAX];
	struct metric_values derived;
	struct sample to = {.t_ns = from->t_ns + 1000000000};
	struct counter_value v;

	thread_counters_read(tc, to.tx_counters);
	sampler_side(tc->set, from, &to, true, delta, &derived);
	counter_evaluate(tc->set, 0, &tc->open[0], &delta[0], &v);
	return v;
}

/*
 * Multiplexing whose share changes between readings: the window's value is
 * its own raw count scaled by its own enabled/running, as perf stat -I does,
 * not the difference of two cumulative readings each scaled by its own ratio.
 */
static void test_scaled_between_readings(void)
{
	static const uint32_t one[] = {0};
	struct thread_counters tc;
	struct counter_set set;
	struct counter_value v;
	struct sample from = {.t_ns = 1000000000};

	fake_reset();
	resolve(&set, one, 1, true);
	thread_counters_open(&tc, &set, &fake_ops);
	/* Before the window: 1000 counted in half of 1000 ns. */
	fake.fd[3].raw = 1000;
	fake.enabled[3] = 1000;
	fake.running[3] = 500;
	thread_counters_read(&tc, from.tx_counters);

	/* The window ran all the time and counted 3000: exactly 3000. */
	fake.fd[3].raw = 4000;
	fake.enabled[3] = 2000;
	fake.running[3] = 1500;
	v = window(&tc, &from);
	ok(v.status == COUNTER_OK && fabs(v.value - 3000) < 1e-6 &&
		   v.running_pct == 100,
	   "a window that ran throughout is its raw count, ok: 3000 (got %s "
	   "%.1f)",
	   counter_status_name(v.status), v.value);

	/* The window ran 750 of 1000 ns and counted 1000: 1333.3, scaled. */
	fake.fd[3].raw = 2000;
	fake.running[3] = 1250;
	v = window(&tc, &from);
	ok(v.status == COUNTER_SCALED && fabs(v.value - 4000.0 / 3) < 1e-6 &&
		   v.running_pct == 75,
	   "a window that ran 75%% is its raw delta scaled by 1000/750: "
	   "1333.3 (got %s %.1f, %.0f%%)",
	   counter_status_name(v.status), v.value, v.running_pct);
	thread_counters_close(&tc);
}

static void test_no_pmu(void)
{
	static const uint32_t one[] = {0};
	struct thread_counters tc;
	struct counter_set set;
	struct counter_value v;

	fake_reset();
	fake.hw_error = -ENOENT;
	resolve(&set, one, 1, false);
	thread_counters_open(&tc, &set, &fake_ops);
	fake.fd[3].raw = 42; /* context-switches got fd 3 */
	fake.enabled[3] = fake.running[3] = 10;
	v = measure(&tc, 0);
	ok(v.status == COUNTER_NOT_SUPPORTED && !counter_known(&v) &&
		   strstr(v.reason, "no hardware PMU"),
	   "no PMU: cycles not-supported, no value, says why (%s)", v.reason);
	v = measure(&tc, 1);
	ok(v.status == COUNTER_NOT_SUPPORTED && !counter_known(&v),
	   "no PMU: instructions not-supported");
	v = measure(&tc, 2);
	ok(v.status == COUNTER_OK && v.value == 42,
	   "the failed hardware group leaves context-switches counting");
	thread_counters_close(&tc);

	fake_reset();
	fake.hw_error = -EOPNOTSUPP;
	resolve(&set, one, 1, true);
	thread_counters_open(&tc, &set, &fake_ops);
	v = measure(&tc, 0);
	ok(v.status == COUNTER_NOT_SUPPORTED &&
		   strstr(v.reason, "perf_event_open"),
	   "EOPNOTSUPP with a PMU: not-supported, the error named");
	thread_counters_close(&tc);
}

static void test_permissions(void)
{
	static const uint32_t one[] = {0};
	struct thread_counters tc;
	struct counter_set set;
	struct counter_value v;

	fake_reset();
	fake.kernel_error = -EACCES;
	resolve(&set, one, 1, true);
	thread_counters_open(&tc, &set, &fake_ops);
	ok(fake.fd[3].attr.exclude_kernel,
	   "kernel refused: reopened for user space");
	fake.fd[3].raw = 10;
	fake.enabled[3] = fake.running[3] = 5;
	v = measure(&tc, 0);
	ok(v.status == COUNTER_USER_ONLY && !counter_known(&v) &&
		   strstr(v.reason, "perf_event_paranoid=") &&
		   strstr(v.reason, "run as root"),
	   "user-only: no value (it would miss the kernel's work), the "
	   "paranoid level and the fix (%s)",
	   v.reason);
	thread_counters_close(&tc);

	fake_reset();
	fake.hw_error = -EACCES;
	resolve(&set, one, 1, true);
	thread_counters_open(&tc, &set, &fake_ops);
	v = measure(&tc, 0);
	ok(v.status == COUNTER_NO_PERMISSION && !counter_known(&v) &&
		   strstr(v.reason, "perf_event_paranoid"),
	   "EACCES even for user space: no-permission (%s)", v.reason);
	thread_counters_close(&tc);
}

static void test_hybrid(void)
{
	static const uint32_t hybrid[] = {8, 10};
	struct thread_counters tc;
	struct counter_set set;
	struct counter_value v;
	int core, atom;

	fake_reset();
	resolve(&set, hybrid, 2, true);
	thread_counters_open(&tc, &set, &fake_ops);
	core = tc.leader[0];
	atom = tc.leader[1];
	ok(core >= 0 && atom >= 0 && core != atom, "one group per core type");
	ok(fake.fd[core].attr.config >> 32 == 8 &&
		   fake.fd[atom].attr.config >> 32 == 10,
	   "each group carries its PMU type in config");
	ok(fake.fd[tc.fd[1][1]].group == atom,
	   "instructions joins the atom group too");
	/* 60% of the time on a P-core, 40% on an E-core. */
	fake.fd[core].raw = 600;
	fake.fd[atom].raw = 400;
	fake.enabled[core] = fake.enabled[atom] = 100;
	fake.running[core] = 60;
	fake.running[atom] = 40;
	v = measure(&tc, 0);
	ok(v.status == COUNTER_OK && v.value == 1000 && v.running_pct == 100,
	   "hybrid: 600 + 400 summed, not scaled (%s %.0f)",
	   counter_status_name(v.status), v.value);
	fake.running[atom] = 0;
	fake.fd[atom].raw = 0;
	fake.running[core] = 30;
	v = measure(&tc, 0);
	ok(v.status == COUNTER_SCALED && fabs(v.value - 2000) < 1e-9,
	   "hybrid multiplexed 30%%: scaled to 2000 (%.0f)", v.value);
	thread_counters_close(&tc);
}

static void test_threads_sum(void)
{
	static const uint32_t one[] = {0};
	struct counter_reading sum[COUNTERS_MAX];
	struct thread_counters a, b;
	struct counter_set set;
	struct counter_value v;

	fake_reset();
	resolve(&set, one, 1, true);
	thread_counters_open(&a, &set, &fake_ops); /* fds 3, 4, 5 */
	thread_counters_open(&b, &set, &fake_ops); /* fds 6, 7, 8 */
	fake.fd[5].raw = 10;
	fake.fd[8].raw = 32;
	fake.enabled[5] = fake.running[5] = 1;
	fake.enabled[8] = fake.running[8] = 1;
	memset(sum, 0, sizeof(sum));
	thread_counters_read(&a, sum);
	thread_counters_read(&b, sum);
	counter_evaluate(a.set, 2, &a.open[2], &sum[2], &v);
	ok(v.status == COUNTER_OK && v.value == 42,
	   "two threads' context switches add up (%.0f)", v.value);
	thread_counters_close(&a);
	thread_counters_close(&b);
}

static void test_resolve(void)
{
	static const uint32_t one[] = {0};
	const char *bad[] = {"cycles", "LLC_MISSES"};
	struct counter_set set;
	char *cause = NULL;
	int r;

	ok(counters_resolve_for(NULL, 0, one, 1, false, &set, &cause) == 0 &&
		   set.count == 8 &&
		   counters_find(&set, "LLC-load-misses") == 3 &&
		   set.event[3].attr.config == 0x10002 &&
		   set.event[7].attr.type == PERF_TYPE_TRACEPOINT,
	   "the default set: 8 events, LLC-load-misses encoded 0x10002, "
	   "syscalls a tracepoint");
	ok(set.event[0].hardware && !set.event[4].hardware,
	   "cycles is hardware, context-switches is not");
	r = counters_resolve_for(bad, 2, one, 1, false, &set, &cause);
	ok(r == -EINVAL && cause && strstr(cause, "'LLC_MISSES'"),
	   "an unknown event is refused by name (%s)", cause);
	free(cause);
}

/*
 * A side whose threads could not all open an event (out of descriptors):
 * the sum of some threads is not the side's, so it has no value, and the
 * status says how many threads it had.
 */
static void test_partial(void)
{
	static const uint32_t two[] = {8, 9};
	struct counter_reading some = {
		.raw = 1000, .enabled_ns = 10, .running_ns = 10};
	struct counter_open open = {
		.error = EMFILE, .threads = 20, .opened = 12};
	struct counter_set set;
	struct counter_value v;

	resolve(&set, two, 2, true);
	counter_evaluate(&set, 2, &open, &some, &v);
	ok(v.status == COUNTER_PARTIAL && !counter_known(&v) &&
		   strstr(v.reason, "opened on 12 of 20 threads only") &&
		   strstr(v.reason, "Too many open files"),
	   "opened on 12 of 20 threads: partial, no value (%s)", v.reason);
	ok(strcmp(counter_status_name(v.status), "partial") == 0,
	   "its status is named \"partial\"");
	open = (struct counter_open){.threads = 20, .opened = 20};
	counter_evaluate(&set, 2, &open, &some, &v);
	ok(v.status == COUNTER_OK && v.value == 1000,
	   "opened on every thread: ok, the sum");
	open = (struct counter_open){.error = EMFILE, .threads = 20};
	counter_evaluate(&set, 2, &open, &some, &v);
	ok(v.status == COUNTER_NOT_SUPPORTED && !counter_known(&v),
	   "opened on none: not counted at all, no value");
	/* Two PMUs: each hardware event twice, the software one once. */
	ok(counters_descriptors(&set) == 2 + 2 + 1,
	   "descriptors per thread with two PMUs: %u",
	   counters_descriptors(&set));
	resolve(&set, two, 1, false);
	ok(counters_descriptors(&set) == 1,
	   "without a PMU only the software event takes a descriptor");
}

int main(void)
{
	test_ok_and_order();
	test_scaled_and_not_counted();
	test_scaled_between_readings();
	test_no_pmu();
	test_permissions();
	test_hybrid();
	test_threads_sum();
	test_resolve();
	test_partial();
	return tap_done();
}
