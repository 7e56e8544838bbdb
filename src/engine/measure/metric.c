/*
 * The metric table and the one function that derives its figures.  A figure
 * whose event did not count (not opened, or ran 0 ns) is NaN, never 0.
 */
#include <math.h>
#include <string.h>

#include "metric.h"

const struct metric metrics[] = {
	{
		.key = "gbps",
		.label = "Throughput",
		.abbrev = "Gbit/s",
		.unit = "Gbit/s",
		.of = "bytes",
		.per = "seconds",
		.scale = 8e-9,
		.higher_is_better = true,
		.delivered = true,
		.show = METRIC_GAUGE | METRIC_TABLE,
	},
	{
		.key = "msgs_per_s",
		.label = "Messages",
		.abbrev = "msg/s",
		.unit = "msg/s",
		.of = "messages",
		.per = "seconds",
		.scale = 1,
		.higher_is_better = true,
		.delivered = true,
		.show = METRIC_GAUGE | METRIC_TABLE,
	},
	{
		.key = "cpu_pct",
		.label = "CPU",
		.abbrev = "CPU",
		.unit = "%",
		.of = "task-clock",
		.per = "seconds",
		.scale = 1e-7,
		.show = METRIC_GAUGE | METRIC_TABLE | METRIC_CSV,
		.full_scale = 100,
		.per_flow = true,
	},
	{
		.key = "ctx_switches_per_s",
		.label = "Ctx switches",
		.abbrev = "ctx/s",
		.unit = "/s",
		.of = "context-switches",
		.per = "seconds",
		.scale = 1,
		.show = METRIC_GAUGE | METRIC_TABLE | METRIC_CSV,
	},
	{
		.key = "l1_misses_per_s",
		.label = "L1d misses",
		.abbrev = "L1d/s",
		.unit = "/s",
		.of = "L1-dcache-load-misses",
		.per = "seconds",
		.scale = 1,
		.show = METRIC_GAUGE,
	},
	{
		.key = "llc_misses_per_s",
		.label = "LLC misses",
		.abbrev = "LLC/s",
		.unit = "/s",
		.of = "LLC-load-misses",
		.per = "seconds",
		.scale = 1,
		.show = METRIC_GAUGE,
	},
	{
		.key = "ipc",
		.label = "IPC",
		.abbrev = "IPC",
		.unit = "",
		.of = "instructions",
		.per = "cycles",
		.scale = 1,
		.higher_is_better = true,
		.show = METRIC_GAUGE,
		.full_scale = 4,
	},
	{
		.key = "cycles_per_byte",
		.label = "Cycles/byte",
		.abbrev = "cyc/B",
		.unit = "",
		.of = "cycles",
		.per = "bytes",
		.scale = 1,
		.show = METRIC_GAUGE | METRIC_CSV,
	},
	{
		.key = "l1_misses_per_kib",
		.label = "L1d misses/KiB",
		.abbrev = "L1d/KiB",
		.unit = "",
		.of = "L1-dcache-load-misses",
		.per = "KiB",
		.scale = 1,
		.show = METRIC_CSV,
	},
	{
		.key = "llc_misses_per_kib",
		.label = "LLC misses/KiB",
		.abbrev = "LLC/KiB",
		.unit = "",
		.of = "LLC-load-misses",
		.per = "KiB",
		.scale = 1,
		.show = METRIC_CSV,
	},
	{
		.key = "ctx_switches_per_msg",
		.label = "Ctx switches/msg",
		.abbrev = "ctx/msg",
		.unit = "",
		.of = "context-switches",
		.per = "messages",
		.scale = 1,
	},
	{
		.key = "cpu_ns_per_kib",
		.label = "CPU per KiB",
		.abbrev = "ns/KiB",
		.unit = "ns",
		.of = "task-clock",
		.per = "KiB",
		.scale = 1,
		.show = METRIC_GAUGE | METRIC_CSV,
	},
	{
		.key = "syscalls_per_msg",
		.label = "Syscalls/msg",
		.abbrev = "sys/msg",
		.unit = "",
		.of = SYSCALLS_EVENT,
		.per = "messages",
		.scale = 1,
		.show = METRIC_GAUGE | METRIC_CSV,
	},
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
