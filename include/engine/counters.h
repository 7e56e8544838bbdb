/*
 * Performance counters of one thread, from perf_event_open: the hardware
 * events (cycles, instructions, cache misses) in one group per CPU PMU, and
 * the software events (context switches, migrations, task clock) each on
 * their own, so that they still count when the hardware cannot.  Event names
 * are encoded by libpfm4.  Every value carries a status, and a counter that
 * did not count is never reported as zero.
 */
#ifndef NIO_TOP_COUNTERS_H
#define NIO_TOP_COUNTERS_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "record.h"

#define COUNTERS_MAX	  12
#define COUNTERS_PMUS_MAX 4
/* The event that counts system calls entered (not a libpfm4 name). */
#define SYSCALLS_EVENT "syscalls"

enum counter_status {
	COUNTER_OK,
	COUNTER_SCALED,	       /* multiplexed: scaled by enabled/running */
	COUNTER_NOT_COUNTED,   /* opened, but ran 0 ns */
	COUNTER_NOT_SUPPORTED, /* ENOENT, EOPNOTSUPP, ENODEV: e.g. no PMU */
	COUNTER_NO_PERMISSION, /* EACCES, EPERM */
	COUNTER_USER_ONLY,     /* kernel counting refused: no value shown */
	COUNTER_PARTIAL,       /* opened on some of a side's threads only */
};

struct counter_event {
	char name[48];
	struct perf_event_attr attr;
	bool hardware; /* on the CPU PMU(s): grouped, once per PMU type */
	/* Why it cannot be opened here at all (e.g. no tracefs), or NULL. */
	const char *missing;
};

struct counter_set {
	struct counter_event event[COUNTERS_MAX];
	unsigned int count;
	/* CPU PMU types; on a hybrid CPU one per core type, else just 0. */
	uint32_t pmu_type[COUNTERS_PMUS_MAX];
	unsigned int pmu_count;
	bool pmu_present;
};

/* perf_event_open and friends, replaceable for tests. */
struct counters_ops {
	/* Opens attr for the calling thread on any CPU: fd or -errno. */
	int (*open)(struct perf_event_attr *attr, int group_fd);
	/* Reads a group (PERF_FORMAT_GROUP): bytes or -errno. */
	ssize_t (*read)(int fd, void *buf, size_t size);
	void (*close)(int fd);
};

extern const struct counters_ops counters_syscalls;

/*
 * How opening one event went for a thread, or for every thread of a side:
 * then the first error any met, and (when known; 0 otherwise) how many
 * threads there are and how many opened it.
 */
struct counter_open {
	int error;	/* errno (positive), or 0 */
	bool user_only; /* kernel counting refused; user counted */
	unsigned int threads;
	unsigned int opened;
};

struct thread_counters {
	const struct counter_set *set;
	const struct counters_ops *ops;
	int leader[COUNTERS_PMUS_MAX]; /* hardware group per PMU, or -1 */
	int fd[COUNTERS_MAX][COUNTERS_PMUS_MAX];
	struct counter_open open[COUNTERS_MAX];
};

/*
 * What one or more threads counted for one event, unscaled: the raw count and
 * the times enabled and running, each summed over the threads.  Readings are
 * differenced field by field first and only the difference is scaled (as
 * perf stat -I does): scaling two cumulative readings by their own
 * enabled/running ratios and subtracting them is biased whenever the ratio or
 * the event's rate changes between them.
 */
struct counter_reading {
	uint64_t raw;
	uint64_t enabled_ns;
	uint64_t running_ns;
};

struct counter_value {
	enum counter_status status;
	double value;	    /* NaN unless ok or scaled */
	double running_pct; /* NaN without a value */
	char reason[160];
};

extern const char *const counter_status_names[];
extern const struct record counter_reading_record;
extern const struct record counter_open_record;
extern const struct record counter_value_record;

const char *counter_status_name(enum counter_status status);

/* to - from, field by field, for count events. */
void counter_readings_delta(const struct counter_reading *from,
			    const struct counter_reading *to,
			    struct counter_reading *delta, unsigned int count);

/*
 * A difference of readings scaled by its enabled/running; NaN if it never
 * ran.
 */
double counter_reading_scaled(const struct counter_reading *delta);

/* Whether the counter counted: it has a value. */
static inline bool counter_known(const struct counter_value *v)
{
	return v->value == v->value;
}

/*
 * Encodes the names with libpfm4 (NULL: the default set).  An unknown name is
 * -EINVAL with a cause naming it.
 */
int counters_resolve(const char *const *names, unsigned int count,
		     struct counter_set *set, char **cause);
/*
 * A set of names only, not encoded: what a saved export's counters were
 * called (--load never asks libpfm4 about another machine's events).
 */
int counters_named(const char *const *names, unsigned int count,
		   struct counter_set *set);

/* Like counters_resolve, but with the PMU facts given, for tests. */
int counters_resolve_for(const char *const *names, unsigned int count,
			 const uint32_t *pmu_types, unsigned int pmu_count,
			 bool pmu_present, struct counter_set *set,
			 char **cause);

/*
 * The descriptors one thread holds for the set: each event once, a hardware
 * event once per CPU PMU; none for hardware events without a PMU (they fail
 * before they take one).
 */
unsigned int counters_descriptors(const struct counter_set *set);

/* Index of the event called name, or -1. */
int counters_find(const struct counter_set *set, const char *name);

/* In the thread to be counted.  Each event that fails keeps its error. */
void thread_counters_open(struct thread_counters *tc,
			  const struct counter_set *set,
			  const struct counters_ops *ops);
/* From any thread: adds this thread's raw readings to sum[]. */
void thread_counters_read(const struct thread_counters *tc,
			  struct counter_reading sum[COUNTERS_MAX]);
void thread_counters_close(struct thread_counters *tc);

/*
 * The status, value and reason of event i of set, opened as open says, from
 * what its threads counted in total (delta: a difference of two readings).
 * An event some of the threads could not open is partial: no value, since a
 * sum over some threads is not the side's.
 */
void counter_evaluate(const struct counter_set *set, unsigned int i,
		      const struct counter_open *open,
		      const struct counter_reading *delta,
		      struct counter_value *out);

/*
 * Opens the set on the calling thread, lets it run for a moment and says
 * what each event did: the facts --check prints and an export carries.
 */
void counters_probe(const struct counter_set *set,
		    const struct counters_ops *ops,
		    struct counter_value out[COUNTERS_MAX]);

#endif
