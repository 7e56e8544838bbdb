/*
 * The metric table and the one function that derives its figures.  A figure
 * whose event did not count (not opened, or ran 0 ns) is NaN, never 0.
 */
#include <math.h>
#include <string.h>

#include "metric.h"

const struct metric metrics[] = {
	{"gbps", "Throughput", "Gbit/s", "Gbit/s", "bytes", "seconds", 8e-9,
	 true, true, METRIC_GAUGE | METRIC_TABLE, 0, false},
	{"msgs_per_s", "Messages", "msg/s", "msg/s", "messages", "seconds", 1,
	 true, true, METRIC_GAUGE | METRIC_TABLE, 0, false},
	{"cpu_pct", "CPU", "CPU", "%", "task-clock", "seconds", 1e-7, false,
	 false, METRIC_GAUGE | METRIC_TABLE | METRIC_CSV, 100, true},
	{"ctx_switches_per_s", "Ctx switches", "ctx/s", "/s",
	 "context-switches", "seconds", 1, false, false,
	 METRIC_GAUGE | METRIC_TABLE | METRIC_CSV, 0, false},
	{"l1_misses_per_s", "L1d misses", "L1d/s", "/s",
	 "L1-dcache-load-misses", "seconds", 1, false, false, METRIC_GAUGE, 0,
	 false},
	{"llc_misses_per_s", "LLC misses", "LLC/s", "/s", "LLC-load-misses",
	 "seconds", 1, false, false, METRIC_GAUGE, 0, false},
	{"ipc", "IPC", "IPC", "", "instructions", "cycles", 1, true, false,
	 METRIC_GAUGE, 4, false},
	{"cycles_per_byte", "Cycles/byte", "cyc/B", "", "cycles", "bytes", 1,
	 false, false, METRIC_GAUGE | METRIC_CSV, 0, false},
	{"l1_misses_per_kib", "L1d misses/KiB", "L1d/KiB", "",
	 "L1-dcache-load-misses", "KiB", 1, false, false, METRIC_CSV, 0, false},
	{"llc_misses_per_kib", "LLC misses/KiB", "LLC/KiB", "",
	 "LLC-load-misses", "KiB", 1, false, false, METRIC_CSV, 0, false},
	{"ctx_switches_per_msg", "Ctx switches/msg", "ctx/msg", "",
	 "context-switches", "messages", 1, false, false, 0, 0, false},
	{"cpu_ns_per_kib", "CPU per KiB", "ns/KiB", "ns", "task-clock", "KiB",
	 1, false, false, METRIC_GAUGE | METRIC_CSV, 0, false},
	{"syscalls_per_msg", "Syscalls/msg", "sys/msg", "", SYSCALLS_EVENT,
	 "messages", 1, false, false, METRIC_GAUGE | METRIC_CSV, 0, false},
};

const size_t metric_count = sizeof(metrics) / sizeof(metrics[0]);

int metric_find(const char *key)
{
	for (size_t i = 0; i < metric_count; i++)
		if (strcmp(metrics[i].key, key) == 0)
			return (int)i;
	return -1;
}

static bool is_traffic(const char *term)
{
	return strcmp(term, "bytes") == 0 || strcmp(term, "messages") == 0 ||
	       strcmp(term, "KiB") == 0 || strcmp(term, "seconds") == 0;
}

bool metric_counted(const struct metric *m)
{
	return !is_traffic(m->of) || !is_traffic(m->per);
}

unsigned int metric_events(const struct metric *m, const char *events[2])
{
	unsigned int n = 0;

	if (!is_traffic(m->of))
		events[n++] = m->of;
	if (!is_traffic(m->per))
		events[n++] = m->per;
	return n;
}

/* A term's amount in the input: NaN if an event did not count. */
static double term(const struct metric_input *in, const char *name)
{
	int i;

	if (strcmp(name, "bytes") == 0)
		return (double)in->bytes;
	if (strcmp(name, "messages") == 0)
		return (double)in->messages;
	if (strcmp(name, "KiB") == 0)
		return (double)in->bytes / 1024;
	if (strcmp(name, "seconds") == 0)
		return in->seconds;
	i = counters_find(in->set, name);
	return i >= 0 ? counter_reading_scaled(&in->delta[i]) : NAN;
}

void metric_derive(const struct metric_input *in, struct metric_values *out)
{
	metric_values_unknown(out);
	for (size_t i = 0; i < metric_count; i++) {
		const struct metric *m = &metrics[i];
		double of = term(in, m->of), per = term(in, m->per);

		if (!isnan(of) && !isnan(per) && per > 0)
			out->value[i] = m->scale * of / per;
	}
}

void metric_values_unknown(struct metric_values *out)
{
	for (size_t i = 0; i < METRICS_MAX; i++)
		out->value[i] = NAN;
}
