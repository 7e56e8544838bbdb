/*
 * Per-thread counters.  Events are opened by the thread they count (pid 0,
 * any CPU), counting user and kernel, since the copies happen in the kernel;
 * where kernel counting is refused the event is opened for user space alone
 * and says so.  Reads use PERF_FORMAT_GROUP with the enabled and running
 * times, so multiplexing is scaled for and shown.
 *
 * On a hybrid CPU (cpu_core and cpu_atom PMUs) each hardware event is opened
 * once per PMU type and the counts are added: a thread runs on one core type
 * at a time, so the sum of the groups' running times is its running time.
 */
#include <dirent.h>
#include <math.h>
#include <stddef.h>
#include <errno.h>
/* The kernel's header first: libpfm4 then skips its own copy. */
#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "counters.h"
#include "sysfile.h"

#define PMU_DIR "/sys/bus/event_source/devices"

const char *const counter_status_names[] = {
	[COUNTER_OK] = "ok",
	[COUNTER_SCALED] = "scaled",
	[COUNTER_NOT_COUNTED] = "not-counted",
	[COUNTER_NOT_SUPPORTED] = "not-supported",
	[COUNTER_NO_PERMISSION] = "no-permission",
	[COUNTER_USER_ONLY] = "user-only",
	[COUNTER_PARTIAL] = "partial",
	NULL,
};

static const struct record_field reading_fields[] = {
	RECORD_FIELD("raw", RECORD_U64, struct counter_reading, raw),
	RECORD_FIELD("enabled_ns", RECORD_U64, struct counter_reading,
		     enabled_ns),
	RECORD_FIELD("running_ns", RECORD_U64, struct counter_reading,
		     running_ns),
};
const struct record counter_reading_record = RECORD_OF(reading_fields);

static const struct record_field open_fields[] = {
	RECORD_FIELD("error", RECORD_INT, struct counter_open, error),
	RECORD_FIELD("user_only", RECORD_BOOL, struct counter_open, user_only),
};
const struct record counter_open_record = RECORD_OF(open_fields);

static const struct record_field value_fields[] = {
	RECORD_FIELD("value", RECORD_COUNT, struct counter_value, value),
	RECORD_ENUM_FIELD("status", struct counter_value, status,
			  counter_status_names),
	RECORD_FIELD("running_pct", RECORD_NUMBER, struct counter_value,
		     running_pct),
	RECORD_TEXT_FIELD("reason", struct counter_value, reason),
};
const struct record counter_value_record = RECORD_OF(value_fields);

/* The default set: what a copy costs, on both sides of a flow. */
static const char *const default_events[] = {
	"cycles",	   "instructions",     "L1-dcache-load-misses",
	"LLC-load-misses", "context-switches", "cpu-migrations",
	"task-clock",	   SYSCALLS_EVENT,
};

/* Where tracefs usually is. */
static const char *const tracefs_dirs[] = {
	"/sys/kernel/tracing",
	"/sys/kernel/debug/tracing",
};
#define SYSCALLS_TRACEPOINT "events/raw_syscalls/sys_enter/id"

const char *counter_status_name(enum counter_status status)
{
	return counter_status_names[status];
}

static int sys_open(struct perf_event_attr *attr, int group_fd)
{
	long fd = syscall(SYS_perf_event_open, attr, 0, -1, group_fd,
			  PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : (int)fd;
}

static ssize_t sys_read(int fd, void *buf, size_t size)
{
	ssize_t n = read(fd, buf, size);

	return n < 0 ? -errno : n;
}

static void sys_close(int fd)
{
	close(fd);
}

const struct counters_ops counters_syscalls = {
	.open = sys_open,
	.read = sys_read,
	.close = sys_close,
};

/* The CPU PMUs: cpu_core and cpu_atom on a hybrid CPU, else the one. */
static void pmus_discover(uint32_t *types, unsigned int *count, bool *present)
{
	static const char *const hybrid[] = {"cpu_core", "cpu_atom"};
	struct dirent *entry;
	DIR *dir;

	*count = 0;
	*present = false;
	for (size_t i = 0; i < 2; i++) {
		char path[128];
		int type;

		snprintf(path, sizeof(path), PMU_DIR "/%s/type", hybrid[i]);
		type = sysfile_int(path, -1);
		if (type >= 0)
			types[(*count)++] = (uint32_t)type;
	}
	*present = *count > 0;
	if (*count < 2) {
		/* Not hybrid: the generic encodings need no PMU type. */
		*count = 1;
		types[0] = 0;
	}
	dir = opendir(PMU_DIR);
	while (dir && (entry = readdir(dir))) {
		if (strcmp(entry->d_name, "cpu") == 0 ||
		    strncmp(entry->d_name, "armv", 4) == 0)
			*present = true;
	}
	if (dir)
		closedir(dir);
}

static pthread_once_t pfm_once = PTHREAD_ONCE_INIT;
static int pfm_status;

static void pfm_start(void)
{
	pfm_status = pfm_initialize();
}

static pthread_once_t syscalls_once = PTHREAD_ONCE_INIT;
static int syscalls_id = -ENOENT;

/* The tracepoint's id in tracefs mounted at dir, or -errno. */
static int tracepoint_id_in(const char *dir)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/" SYSCALLS_TRACEPOINT, dir);
	return sysfile_int(path, -ENOENT);
}

/*
 * Where tracefs is not mounted, a child process mounts it in a mount
 * namespace of its own (root only) and reads the id there: the id is the
 * kernel's, the same in every namespace, and the host's mounts stay as they
 * were.  The child makes system calls only, safe after fork() in a process
 * with threads.
 */
static int tracepoint_id_private(void)
{
	char text[16] = "";
	int pipe_fd[2], status;
	ssize_t n;
	pid_t pid;

	if (pipe2(pipe_fd, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid == 0) {
		int fd = -1;

		close(pipe_fd[0]);
		if (unshare(CLONE_NEWNS) == 0 &&
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 &&
		    mount("nodev", tracefs_dirs[0], "tracefs", 0, NULL) == 0)
			fd = open("/sys/kernel/tracing/" SYSCALLS_TRACEPOINT,
				  O_RDONLY);
		n = fd >= 0 ? read(fd, text, sizeof(text) - 1) : 0;
		if (n > 0)
			n = write(pipe_fd[1], text, (size_t)n);
		_exit(n > 0 ? 0 : 1);
	}
	close(pipe_fd[1]);
	n = pid > 0 ? read(pipe_fd[0], text, sizeof(text) - 1) : -1;
	close(pipe_fd[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	return n > 0 ? atoi(text) : -ENOENT;
}

static void syscalls_find(void)
{
	for (size_t i = 0; i < 2 && syscalls_id < 0; i++)
		syscalls_id = tracepoint_id_in(tracefs_dirs[i]);
	if (syscalls_id < 0 && geteuid() == 0)
		syscalls_id = tracepoint_id_private();
}

/*
 * "syscalls": the raw_syscalls:sys_enter tracepoint.  Without its id the
 * event stays in the set as missing, with the reason, so that the other
 * events still count.
 */
static void encode_syscalls(struct counter_event *ev)
{
	pthread_once(&syscalls_once, syscalls_find);
	memset(&ev->attr, 0, sizeof(ev->attr));
	ev->attr.type = PERF_TYPE_TRACEPOINT;
	ev->attr.config = syscalls_id > 0 ? (uint64_t)syscalls_id : 0;
	if (syscalls_id <= 0)
		ev->missing = "the raw_syscalls:sys_enter tracepoint cannot be "
			      "found: tracefs is not mounted (as root: mount "
			      "-t tracefs nodev /sys/kernel/tracing)";
}

static int encode(const char *name, struct perf_event_attr *attr, char **cause)
{
	pfm_perf_encode_arg_t arg = {.attr = attr, .size = sizeof(arg)};
	char qualified[64];
	int r;

	pthread_once(&pfm_once, pfm_start);
	if (pfm_status != PFM_SUCCESS) {
		if (asprintf(cause, "libpfm4 did not start: %s",
			     pfm_strerror(pfm_status)) < 0)
			*cause = NULL;
		return -EIO;
	}
	memset(attr, 0, sizeof(*attr));
	r = pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3,
				      PFM_OS_PERF_EVENT, &arg);
	if (r == PFM_ERR_NOTFOUND && !strchr(name, ':')) {
		/* Generic names also live in libpfm4's perf:: table. */
		snprintf(qualified, sizeof(qualified), "perf::%s", name);
		memset(attr, 0, sizeof(*attr));
		r = pfm_get_os_event_encoding(qualified, PFM_PLM0 | PFM_PLM3,
					      PFM_OS_PERF_EVENT, &arg);
	}
	if (r != PFM_SUCCESS) {
		if (asprintf(cause,
			     "--events: '%s' is not an event libpfm4 knows "
			     "here: %s",
			     name, pfm_strerror(r)) < 0)
			*cause = NULL;
		return -EINVAL;
	}
	return 0;
}

int counters_resolve_for(const char *const *names, unsigned int count,
			 const uint32_t *pmu_types, unsigned int pmu_count,
			 bool pmu_present, struct counter_set *set,
			 char **cause)
{
	*cause = NULL;
	memset(set, 0, sizeof(*set));
	if (!names) {
		names = default_events;
		count = sizeof(default_events) / sizeof(default_events[0]);
	}
	if (count == 0 || count > COUNTERS_MAX) {
		if (asprintf(cause, "--events: between 1 and %d events",
			     COUNTERS_MAX) < 0)
			*cause = NULL;
		return -EINVAL;
	}
	for (unsigned int i = 0; i < count; i++) {
		struct counter_event *ev = &set->event[i];
		int r = 0;

		if (strcmp(names[i], SYSCALLS_EVENT) == 0)
			encode_syscalls(ev);
		else
			r = encode(names[i], &ev->attr, cause);
		if (r < 0)
			return r;
		snprintf(ev->name, sizeof(ev->name), "%s", names[i]);
		ev->hardware = ev->attr.type != PERF_TYPE_SOFTWARE &&
			       ev->attr.type != PERF_TYPE_TRACEPOINT;
	}
	set->count = count;
	set->pmu_count = pmu_count;
	memcpy(set->pmu_type, pmu_types, pmu_count * sizeof(*pmu_types));
	set->pmu_present = pmu_present;
	return 0;
}

int counters_resolve(const char *const *names, unsigned int count,
		     struct counter_set *set, char **cause)
{
	uint32_t types[COUNTERS_PMUS_MAX];
	unsigned int pmu_count;
	bool present;

	pmus_discover(types, &pmu_count, &present);
	return counters_resolve_for(names, count, types, pmu_count, present,
				    set, cause);
}

int counters_named(const char *const *names, unsigned int count,
		   struct counter_set *set)
{
	memset(set, 0, sizeof(*set));
	if (count > COUNTERS_MAX)
		return -E2BIG;
	for (unsigned int i = 0; i < count; i++)
		snprintf(set->event[i].name, sizeof(set->event[i].name), "%s",
			 names[i]);
	set->count = count;
	return 0;
}

int counters_find(const struct counter_set *set, const char *name)
{
	for (unsigned int i = 0; set && i < set->count; i++) {
		if (strcmp(set->event[i].name, name) == 0)
			return (int)i;
	}
	return -1;
}

/* Whether event i is opened on every CPU PMU rather than once. */
static bool per_pmu(const struct counter_event *ev)
{
	return ev->attr.type == PERF_TYPE_HARDWARE ||
	       ev->attr.type == PERF_TYPE_HW_CACHE;
}

unsigned int counters_descriptors(const struct counter_set *set)
{
	unsigned int n = 0;

	for (unsigned int i = 0; set && i < set->count; i++) {
		const struct counter_event *ev = &set->event[i];

		if (ev->hardware && !set->pmu_present)
			continue;
		n += per_pmu(ev) ? set->pmu_count : 1;
	}
	return n;
}

static int open_event(struct thread_counters *tc, unsigned int i,
		      uint32_t pmu_type, int group_fd)
{
	struct perf_event_attr attr = tc->set->event[i].attr;
	int fd;

	attr.size = sizeof(attr);
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr.disabled = 0;
	attr.inherit = 0;
	attr.exclude_user = 0;
	attr.exclude_kernel = 0;
	attr.exclude_hv = 1;
	if (pmu_type && per_pmu(&tc->set->event[i]))
		attr.config |= (uint64_t)pmu_type << 32;
	fd = tc->ops->open(&attr, group_fd);
	if (fd == -EACCES || fd == -EPERM) {
		attr.exclude_kernel = 1;
		fd = tc->ops->open(&attr, group_fd);
		if (fd >= 0)
			tc->open[i].user_only = true;
	}
	return fd;
}

void thread_counters_open(struct thread_counters *tc,
			  const struct counter_set *set,
			  const struct counters_ops *ops)
{
	memset(tc, 0, sizeof(*tc));
	tc->set = set;
	tc->ops = ops;
	for (unsigned int p = 0; p < COUNTERS_PMUS_MAX; p++)
		tc->leader[p] = -1;
	for (unsigned int i = 0; i < COUNTERS_MAX; i++) {
		for (unsigned int p = 0; p < COUNTERS_PMUS_MAX; p++)
			tc->fd[i][p] = -1;
	}

	for (unsigned int i = 0; i < set->count; i++) {
		const struct counter_event *ev = &set->event[i];
		unsigned int pmus = per_pmu(ev) ? set->pmu_count : 1;
		int first_error = ev->missing ? -ENOENT : 0;
		bool opened = false;

		for (unsigned int p = 0; p < pmus && !ev->missing; p++) {
			int group = ev->hardware ? tc->leader[p] : -1;
			int fd = open_event(tc, i, set->pmu_type[p], group);

			if (fd < 0) {
				if (!first_error)
					first_error = fd;
				continue;
			}
			tc->fd[i][p] = fd;
			if (ev->hardware && tc->leader[p] < 0)
				tc->leader[p] = fd;
			opened = true;
		}
		tc->open[i].error = opened ? 0 : -first_error;
	}
}

struct group_read {
	uint64_t nr;
	uint64_t enabled;
	uint64_t running;
	uint64_t values[COUNTERS_MAX];
};

/* Reads one group, or one lone event; false if it could not. */
static bool read_group(const struct thread_counters *tc, int fd,
		       struct group_read *out)
{
	ssize_t n = tc->ops->read(fd, out, sizeof(*out));

	return n >= (ssize_t)(3 * sizeof(uint64_t)) &&
	       out->nr <= COUNTERS_MAX &&
	       (size_t)n >= (3 + out->nr) * sizeof(uint64_t);
}

void thread_counters_read(const struct thread_counters *tc,
			  struct counter_reading sum[COUNTERS_MAX])
{
	struct group_read hw[COUNTERS_PMUS_MAX];
	bool hw_ok[COUNTERS_PMUS_MAX] = {false};
	unsigned int member[COUNTERS_PMUS_MAX] = {0};

	for (unsigned int p = 0; p < tc->set->pmu_count; p++) {
		if (tc->leader[p] >= 0)
			hw_ok[p] = read_group(tc, tc->leader[p], &hw[p]);
	}
	for (unsigned int i = 0; i < tc->set->count; i++) {
		const struct counter_event *ev = &tc->set->event[i];
		uint64_t raw = 0, enabled = 0, running = 0;
		struct group_read lone;

		for (unsigned int p = 0; p < COUNTERS_PMUS_MAX; p++) {
			const struct group_read *g = &hw[p];

			if (tc->fd[i][p] < 0)
				continue;
			if (!ev->hardware) {
				if (!read_group(tc, tc->fd[i][p], &lone))
					continue;
				g = &lone;
			} else if (!hw_ok[p] || member[p] >= hw[p].nr) {
				continue;
			}
			raw += g->values[ev->hardware ? member[p]++ : 0];
			if (g->enabled > enabled)
				enabled = g->enabled;
			running += g->running;
		}
		if (running > enabled)
			running = enabled;
		sum[i].raw += raw;
		sum[i].enabled_ns += enabled;
		sum[i].running_ns += running;
	}
}

void counter_readings_delta(const struct counter_reading *from,
			    const struct counter_reading *to,
			    struct counter_reading *delta, unsigned int count)
{
	for (unsigned int i = 0; i < count; i++) {
		delta[i].raw = to[i].raw - from[i].raw;
		delta[i].enabled_ns = to[i].enabled_ns - from[i].enabled_ns;
		delta[i].running_ns = to[i].running_ns - from[i].running_ns;
	}
}

double counter_reading_scaled(const struct counter_reading *delta)
{
	if (!delta->running_ns)
		return NAN;
	if (delta->running_ns >= delta->enabled_ns)
		return (double)delta->raw;
	return (double)delta->raw * (double)delta->enabled_ns /
	       (double)delta->running_ns;
}

void thread_counters_close(struct thread_counters *tc)
{
	for (unsigned int i = 0; tc->set && i < tc->set->count; i++) {
		for (unsigned int p = 0; p < COUNTERS_PMUS_MAX; p++) {
			if (tc->fd[i][p] >= 0)
				tc->ops->close(tc->fd[i][p]);
			tc->fd[i][p] = -1;
		}
	}
	for (unsigned int p = 0; p < COUNTERS_PMUS_MAX; p++)
		tc->leader[p] = -1;
}

static int paranoid_level(void)
{
	return sysfile_int("/proc/sys/kernel/perf_event_paranoid", -1);
}

void counter_evaluate(const struct counter_set *set, unsigned int i,
		      const struct counter_open *open,
		      const struct counter_reading *delta,
		      struct counter_value *out)
{
	const struct counter_event *ev = &set->event[i];
	int err = open->error;

	*out = (struct counter_value){.value = NAN, .running_pct = NAN};
	if (err && open->opened && open->opened < open->threads) {
		out->status = COUNTER_PARTIAL;
		snprintf(out->reason, sizeof(out->reason),
			 "opened on %u of %u threads only (the others: %s): "
			 "no value for the side",
			 open->opened, open->threads, strerror(err));
		return;
	}
	if (err == EACCES || err == EPERM) {
		out->status = COUNTER_NO_PERMISSION;
		snprintf(out->reason, sizeof(out->reason),
			 "perf_event_open: %s (kernel.perf_event_paranoid=%d)",
			 strerror(err), paranoid_level());
		return;
	}
	if (err) {
		out->status = COUNTER_NOT_SUPPORTED;
		if (ev->missing)
			snprintf(out->reason, sizeof(out->reason), "%s",
				 ev->missing);
		else if (ev->hardware && !set->pmu_present)
			snprintf(out->reason, sizeof(out->reason),
				 "no hardware PMU on this machine (none "
				 "in " PMU_DIR ", as in most VMs)");
		else
			snprintf(out->reason, sizeof(out->reason),
				 "perf_event_open: %s", strerror(err));
		return;
	}
	if (delta->running_ns == 0) {
		out->status = COUNTER_NOT_COUNTED;
		snprintf(out->reason, sizeof(out->reason),
			 "opened but never ran (0 ns counted)");
		return;
	}
	/*
	 * The copies happen in the kernel, and a context switch is the
	 * kernel's own work: a count of user space alone would mislead.
	 */
	if (open->user_only) {
		out->status = COUNTER_USER_ONLY;
		snprintf(out->reason, sizeof(out->reason),
			 "counts user space only (kernel.perf_event_paranoid="
			 "%d): run as root, or sysctl "
			 "kernel.perf_event_paranoid=1",
			 paranoid_level());
		return;
	}
	out->value = counter_reading_scaled(delta);
	out->running_pct = delta->enabled_ns
				   ? 100.0 * (double)delta->running_ns /
					     (double)delta->enabled_ns
				   : 100.0;
	if (delta->running_ns < delta->enabled_ns) {
		out->status = COUNTER_SCALED;
		snprintf(out->reason, sizeof(out->reason),
			 "multiplexed: counted %.1f%% of the time, scaled",
			 out->running_pct);
	}
}

void counters_probe(const struct counter_set *set,
		    const struct counters_ops *ops,
		    struct counter_value out[COUNTERS_MAX])
{
	struct counter_reading reading[COUNTERS_MAX];
	struct thread_counters tc;
	volatile unsigned long spin = 0;

	memset(reading, 0, sizeof(reading));
	thread_counters_open(&tc, set, ops);
	/* Some work and one sleep, so that every event has had a chance. */
	for (unsigned long i = 0; i < 1000000; i++)
		spin += i;
	(void)spin;
	usleep(1000);
	thread_counters_read(&tc, reading);
	for (unsigned int i = 0; i < set->count; i++)
		counter_evaluate(set, i, &tc.open[i], &reading[i], &out[i]);
	thread_counters_close(&tc);
}
