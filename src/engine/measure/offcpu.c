/*
 * A thread's context-switch event and its ring (perf_ring.h), read from
 * another thread once the interval it watched is over.  The ring holds, in
 * order, each switch out's sample (its kernel call chain, named by
 * symbols.h and put in the reason of its first frame that names one), the
 * switch out's record (when, and whether the thread was still runnable),
 * and the switch in's record (when it ran again): each out and the next in
 * make one interval off the CPU.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "offcpu.h"
#include "role.h"
#include "symbols.h"

/*
 * Data pages of a thread's ring (a power of two): 1 MiB, some 5,000
 * switches of ~200 bytes with their records, a busy receiver's 100 ms.
 */
#define RING_PAGES 256
/* The frames of a chain that are looked at: the waits are near schedule. */
#define CHAIN_MAX 32
/* A symbol that stands for the time before the first switch was seen. */
#define SYMBOL_ALREADY_OFF (SYMBOL_NONE - 1)

/* The scheduler's own frames: no reason, and no name for other either. */
static const char scheduler_functions[] =
	"schedule __schedule schedule_* io_schedule* wait_woken "
	"__wait_* wait_for_completion* do_wait_for_common";

static const struct record_field time_fields[] = {
	RECORD_FIELD("window_s", RECORD_FINITE, struct run_time, window_s),
	RECORD_FIELD("on_cpu_s", RECORD_FINITE, struct run_time, on_cpu_s),
	RECORD_FIELD("off_cpu_s", RECORD_FINITE, struct run_time, off_cpu_s),
	RECORD_FIELD("cpu_clock_s", RECORD_NUMBER, struct run_time,
		     cpu_clock_s),
	RECORD_FIELD("switches", RECORD_U64, struct run_time, switches),
	RECORD_FIELD("runnable", RECORD_U64, struct run_time, runnable),
	RECORD_FIELD("lost", RECORD_U64, struct run_time, lost),
	RECORD_FIELD("user_only", RECORD_BOOL, struct run_time, user_only),
	RECORD_TEXT_FIELD("why", struct run_time, why),
};
const struct record run_time_record = RECORD_OF(time_fields);

static const struct record_field reason_fields[] = {
	RECORD_FIELD("seconds", RECORD_FINITE, struct run_time_reason, seconds),
	RECORD_FIELD("count", RECORD_U64, struct run_time_reason, count),
	RECORD_FIELD("mean_us", RECORD_NUMBER, struct run_time_reason, mean_us),
	RECORD_FIELD("p99_us", RECORD_NUMBER, struct run_time_reason, p99_us),
	RECORD_TEXT_FIELD("function", struct run_time_reason, function),
};
const struct record run_time_reason_record = RECORD_OF(reason_fields);

int offcpu_thread_open(struct offcpu_thread *t, pid_t tid, clockid_t cpu_clock,
		       size_t generic)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CONTEXT_SWITCHES,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_CALLCHAIN,
		.sample_max_stack = CHAIN_MAX,
		.disabled = 1,
		.exclude_hv = 1,
		.exclude_callchain_user = 1,
		.context_switch = 1,
		.sample_id_all = 1,
		.use_clockid = 1,
		.clockid = CLOCK_MONOTONIC,
	};
	int r;

	*t = (struct offcpu_thread){
		.tid = tid, .cpu_clock = cpu_clock, .generic = generic};
	/*
	 * perf_event_paranoid 2: no kernel chains, and a switch happens in
	 * the kernel, so no samples; the switch records still say when, and
	 * whether the thread could still run.  Without samples a switch is
	 * two records of 24 bytes: less room.
	 */
	r = perf_ring_open(&t->ring, &attr, tid, RING_PAGES, RING_PAGES / 8,
			   &t->user_only);
	t->error = -r;
	return r;
}

void offcpu_thread_close(struct offcpu_thread *t)
{
	perf_ring_close(&t->ring);
}

/* The thread's CPU time now, in ns: false where it cannot be read. */
static bool thread_cpu_ns(clockid_t clock, uint64_t *out)
{
	struct timespec ts;

	if (clock_gettime(clock, &ts) < 0)
		return false;
	*out = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	return true;
}

/*
 * The reason a kernel stack as /proc shows it names ("[<0>] sk_wait_data
 * +0x1a2/0x2c0" a line, innermost first), or reason_other.
 */
static size_t stack_reason(const struct offcpu_thread *t, char *text)
{
	char *save = NULL;

	for (char *line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *name = strchr(line, ' '), *end;
		size_t r;

		if (!name)
			continue;
		name++;
		end = strchr(name, '+');
		if (end)
			*end = '\0';
		r = reason_of_function(name);
		if (r == REASON_GENERIC)
			return t->generic;
		if (r != SIZE_MAX)
			return r;
	}
	return reason_other;
}

/* Why the thread is off the CPU now, if it is: its stack's reason. */
static size_t thread_reason_now(const struct offcpu_thread *t)
{
	char path[64], text[2048];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stack", (int)t->tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return reason_other;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return reason_other;
	text[n] = '\0';
	return stack_reason(t, text);
}

void offcpu_thread_enable(struct offcpu_thread *t, bool on)
{
	if (!t->ring.base)
		return;
	if (on) {
		t->begin_ns = clock_now_ns();
		t->begin_reason = thread_reason_now(t);
		t->cpu_known = thread_cpu_ns(t->cpu_clock, &t->cpu_begin_ns);
		perf_ring_enable(&t->ring, true);
		return;
	}
	perf_ring_enable(&t->ring, false);
	t->end_ns = clock_now_ns();
	t->cpu_known &= thread_cpu_ns(t->cpu_clock, &t->cpu_end_ns);
}

/* What a symbol's frame says, remembered: the tables walked once each. */
enum frame_kind {
	FRAME_NONE = REASONS_MAX,
	FRAME_GENERIC,
	FRAME_SCHEDULER,
};

static unsigned int frame_of(uint32_t symbol)
{
	static uint8_t *known; /* kind + 1 by symbol id; 0: not yet */
	static size_t capacity;
	const char *name;
	size_t reason;
	unsigned int kind;

	if (symbol >= SYMBOL_ALREADY_OFF)
		return FRAME_NONE;
	if (symbol < capacity && known[symbol])
		return known[symbol] - 1u;
	name = symbols_name(symbol);
	reason = reason_of_function(name);
	kind = reason == REASON_GENERIC ? FRAME_GENERIC
	       : reason != SIZE_MAX	? (unsigned int)reason
	       : functions_match(scheduler_functions, name, true)
		       ? FRAME_SCHEDULER
		       : FRAME_NONE;
	if (symbol >= capacity) {
		size_t grown_capacity = (symbol + 1) * 2;
		uint8_t *grown = realloc(known, grown_capacity);

		if (!grown)
			return kind;
		memset(grown + capacity, 0, grown_capacity - capacity);
		known = grown;
		capacity = grown_capacity;
	}
	known[symbol] = (uint8_t)(kind + 1);
	return kind;
}

/*
 * A switch's chain (leaf first, after perf's context marker): its reason
 * is the first frame's that names one (SIZE_MAX: none), and *symbol that
 * frame, or with none the first frame outside the scheduler.
 */
static size_t chain_reason(const struct offcpu_thread *t, const uint64_t *ip,
			   uint64_t nr, uint32_t *symbol)
{
	*symbol = SYMBOL_NONE;
	for (uint64_t i = 0; i < nr && i < CHAIN_MAX; i++) {
		uint32_t s;
		unsigned int kind;

		if (ip[i] >= PERF_CONTEXT_MAX)
			continue;
		s = symbols_find(ip[i], true);
		kind = frame_of(s);
		if (kind < REASONS_MAX || kind == FRAME_GENERIC) {
			*symbol = s;
			return kind == FRAME_GENERIC ? t->generic : kind;
		}
		if (kind == FRAME_NONE && *symbol == SYMBOL_NONE)
			*symbol = s;
	}
	return SIZE_MAX;
}

/* One wait of ns in reason r, named by symbol. */
static void tally_wait(struct offcpu_tally *tally, size_t r, uint32_t symbol,
		       uint64_t ns)
{
	struct offcpu_reason_tally *rt = &tally->reason[r];
	size_t k, least = 0;

	tally->off_cpu_ns += ns;
	rt->ns += ns;
	rt->count++;
	if (!rt->waits)
		rt->waits = calloc(1, sizeof(*rt->waits));
	if (rt->waits) {
		rt->waits->bucket[latency_bucket(ns)]++;
		rt->waits->count++;
		rt->waits->sum_ns += ns;
		if (ns > rt->waits->max_ns)
			rt->waits->max_ns = ns;
	}
	for (k = 0; k < OFFCPU_FUNCTIONS; k++) {
		if (rt->function[k].ns && rt->function[k].symbol == symbol)
			break;
		if (rt->function[k].ns < rt->function[least].ns)
			least = k;
	}
	/* Full: the least of them gives its place (a rare fifth function). */
	if (k == OFFCPU_FUNCTIONS) {
		k = least;
		rt->function[k].ns = 0;
		rt->function[k].symbol = symbol;
	} else if (!rt->function[k].ns) {
		rt->function[k].symbol = symbol;
	}
	rt->function[k].ns += ns;
}

/* The thread, off the CPU or unseen so far, runs again at now_ns. */
static void thread_back(struct offcpu_thread *t, struct offcpu_tally *tally,
			uint64_t now_ns)
{
	if (t->state == OFFCPU_OFF)
		tally_wait(tally, t->off_reason, t->off_symbol,
			   now_ns - t->since_ns);
	else if (t->state == OFFCPU_UNSEEN)
		/* Off the CPU already when sampling began: as its stack said. */
		tally_wait(tally, t->begin_reason, SYMBOL_ALREADY_OFF,
			   now_ns - t->begin_ns);
	t->state = OFFCPU_ON;
	t->since_ns = now_ns;
}

/* The thread, on the CPU or unseen so far, goes off it at now_ns. */
static void thread_out(struct offcpu_thread *t, struct offcpu_tally *tally,
		       uint64_t now_ns, bool runnable)
{
	size_t r = t->sampled ? t->sample_reason : SIZE_MAX;

	if (t->state == OFFCPU_ON || t->state == OFFCPU_UNSEEN)
		tally->on_cpu_ns += now_ns - (t->state == OFFCPU_ON
						      ? t->since_ns
						      : t->begin_ns);
	tally->switches++;
	if (runnable) {
		tally->runnable++;
		/* Still runnable: where the chain names nothing, preempted. */
		if (r == SIZE_MAX)
			r = reason_preempted;
	}
	t->state = OFFCPU_OFF;
	t->since_ns = now_ns;
	t->off_reason = r == SIZE_MAX ? reason_other : r;
	t->off_symbol = t->sampled ? t->sample_symbol : SYMBOL_NONE;
	t->sampled = false;
}

/* A switch record: pid, tid, then the time (sample_id_all). */
static void thread_switch(struct offcpu_thread *t, struct offcpu_tally *tally,
			  const struct perf_event_header *h)
{
	const uint64_t *u = (const uint64_t *)(h + 1);
	uint64_t now_ns;

	if (h->size < sizeof(*h) + 2 * sizeof(*u))
		return;
	/* Within the interval, in order, whatever a clock's read said. */
	now_ns = u[1] < t->begin_ns ? t->begin_ns
		 : u[1] > t->end_ns ? t->end_ns
				    : u[1];
	if (t->state != OFFCPU_UNSEEN && t->state != OFFCPU_LOST &&
	    now_ns < t->since_ns)
		now_ns = t->since_ns;
	if (h->misc & PERF_RECORD_MISC_SWITCH_OUT)
		thread_out(t, tally, now_ns,
			   h->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
	else
		thread_back(t, tally, now_ns);
}

struct drain {
	struct offcpu_thread *t;
	struct offcpu_tally *tally;
};

static void offcpu_record(const struct perf_event_header *h, void *arg)
{
	struct drain *d = arg;
	const uint64_t *u = (const uint64_t *)(h + 1);

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		/* pid and tid, time, then the chain: nr and its ips. */
		if (h->size < sizeof(*h) + 3 * sizeof(*u) ||
		    h->size < sizeof(*h) + (3 + u[2]) * sizeof(*u))
			return;
		d->t->sampled = true;
		d->t->sample_reason = chain_reason(d->t, u + 3, u[2],
						   &d->t->sample_symbol);
		break;
	case PERF_RECORD_SWITCH:
		thread_switch(d->t, d->tally, h);
		break;
	case PERF_RECORD_LOST:
		/* Where the thread was is lost with them, until the next. */
		d->tally->lost += u[1];
		d->t->state = OFFCPU_LOST;
		d->t->sampled = false;
		break;
	default:
		break;
	}
}

void offcpu_thread_drain(struct offcpu_thread *t, struct offcpu_tally *tally)
{
	struct drain d = {t, tally};
	uint64_t cpu_ns, window_ns;

	if (!t->ring.base || !t->end_ns)
		return;
	t->state = OFFCPU_UNSEEN;
	perf_ring_read(&t->ring, offcpu_record, &d);
	window_ns = t->end_ns - t->begin_ns;
	cpu_ns = t->cpu_known && t->cpu_end_ns > t->cpu_begin_ns
			 ? t->cpu_end_ns - t->cpu_begin_ns
			 : 0;
	/*
	 * As sampling ended: on the CPU, or waiting to its end; never
	 * switched, whichever its clock says it mostly was.
	 */
	if (t->state == OFFCPU_OFF || (t->state == OFFCPU_UNSEEN &&
				       t->cpu_known && 2 * cpu_ns < window_ns))
		thread_back(t, tally, t->end_ns);
	else if (t->state == OFFCPU_UNSEEN)
		tally->on_cpu_ns += window_ns;
	else if (t->state == OFFCPU_ON)
		tally->on_cpu_ns += t->end_ns - t->since_ns;
	tally->window_ns += window_ns;
	tally->cpu_clock_ns += cpu_ns;
	tally->cpu_unknown |= !t->cpu_known;
	t->end_ns = 0;
}

void offcpu_tally_fini(struct offcpu_tally *tally)
{
	for (size_t r = 0; r < REASONS_MAX; r++)
		free(tally->reason[r].waits);
	*tally = (struct offcpu_tally){0};
}

/*
 * The function that named most of a reason's time; "" where none did (no
 * call chains: a switch flagged runnable is preempted, unnamed).
 */
static void reason_function(const struct offcpu_reason_tally *rt, char *out,
			    size_t size)
{
	size_t most = 0;

	for (size_t k = 1; k < OFFCPU_FUNCTIONS; k++)
		if (rt->function[k].ns > rt->function[most].ns)
			most = k;
	if (!rt->function[most].ns || rt->function[most].symbol == SYMBOL_NONE)
		out[0] = '\0';
	else if (rt->function[most].symbol == SYMBOL_ALREADY_OFF)
		snprintf(out, size, "(off as sampling began)");
	else
		snprintf(out, size, "%s",
			 symbols_name(rt->function[most].symbol));
}

void offcpu_summarize(const struct offcpu_tally *tally, struct run_time *out)
{
	memset(out, 0, sizeof(*out));
	out->present = true;
	out->window_s = (double)tally->window_ns / 1e9;
	out->on_cpu_s = (double)tally->on_cpu_ns / 1e9;
	out->cpu_clock_s = tally->cpu_unknown
				   ? NAN
				   : (double)tally->cpu_clock_ns / 1e9;
	out->off_cpu_s = (double)tally->off_cpu_ns / 1e9;
	out->switches = tally->switches;
	out->runnable = tally->runnable;
	out->lost = tally->lost;
	for (size_t r = 0; r < reason_count; r++) {
		const struct offcpu_reason_tally *rt = &tally->reason[r];
		struct run_time_reason *o = &out->reason[r];

		o->seconds = (double)rt->ns / 1e9;
		o->count = rt->count;
		o->mean_us = rt->count
				     ? (double)rt->ns / (double)rt->count / 1e3
				     : NAN;
		o->p99_us = rt->waits && rt->waits->count
				    ? latency_hist_quantile(rt->waits, 0.99) /
					      1e3
				    : NAN;
		reason_function(rt, o->function, sizeof(o->function));
	}
}

double run_time_share(const struct run_time *t, size_t r)
{
	if (!t->present || t->window_s <= 0 || r >= reason_count)
		return NAN;
	return t->reason[r].seconds / t->window_s;
}

double run_time_on_cpu_share(const struct run_time *t)
{
	if (!t->present || t->window_s <= 0)
		return NAN;
	return t->on_cpu_s / t->window_s;
}

double run_time_off_cpu_share(const struct run_time *t)
{
	if (!t->present || t->window_s <= 0)
		return NAN;
	return t->off_cpu_s / t->window_s;
}

size_t run_time_largest(const struct run_time *t)
{
	size_t most = reason_count;

	for (size_t r = 0; t->present && r < reason_count; r++)
		if (t->reason[r].seconds > 0 &&
		    (most == reason_count ||
		     t->reason[r].seconds > t->reason[most].seconds))
			most = r;
	return most;
}

void offcpu_why(int error, bool user_only, char *out, size_t size)
{
	if (error == EACCES || error == EPERM)
		snprintf(out, size,
			 "watching context switches is not allowed to this "
			 "user (kernel.perf_event_paranoid): run as root, or "
			 "sysctl kernel.perf_event_paranoid=1");
	else if (error == ENOENT || error == ENODEV || error == EOPNOTSUPP ||
		 error == EINVAL)
		snprintf(out, size,
			 "this kernel cannot sample context switches with "
			 "their records: %s",
			 strerror(error));
	else if (error)
		snprintf(out, size, "the context-switch event did not open: %s",
			 strerror(error));
	else if (user_only)
		snprintf(out, size,
			 "no reasons: the kernel's call chains are not allowed "
			 "to this user (kernel.perf_event_paranoid): run as "
			 "root, or sysctl kernel.perf_event_paranoid=1");
	else
		out[0] = '\0';
}
