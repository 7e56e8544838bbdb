/*
 * The metric table: every row well formed (a unique key, a label, terms that
 * are traffic or perf events), figures derived as the rows say -- and never
 * from an event that did not count -- and every key in nio-top(1).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metric.h"
#include "tap.h"
#include "text.h"

static void test_rows(void)
{
	bool unique = true, whole = true;

	ok(metric_count > 0 && metric_count <= METRICS_MAX,
	   "%zu metrics, at most %d", metric_count, METRICS_MAX);
	for (size_t i = 0; i < metric_count; i++) {
		const struct metric *m = &metrics[i];

		whole &= m->key && m->label && m->abbrev && m->unit && m->of &&
			 m->per && m->scale > 0;
		for (size_t j = 0; j < i; j++)
			unique &= strcmp(metrics[j].key, m->key) != 0;
		ok(metric_find(m->key) == (int)i, "metric_find(\"%s\") is %zu",
		   m->key, i);
	}
	ok(whole, "every row has a key, label, abbreviation, unit and terms");
	ok(unique, "keys are unique");
	ok(metric_find("no-such-metric") < 0, "an unknown key is not found");
}

static double value(const struct metric_values *v, const char *key)
{
	return v->value[metric_find(key)];
}

static void test_derive(void)
{
	struct counter_set set;
	struct counter_reading delta[COUNTERS_MAX] = {
		{.raw = 2000000000,
		 .enabled_ns = 2000000000,
		 .running_ns = 2000000000},
		{.raw = 500, .enabled_ns = 2000000000, .running_ns = 0},
	};
	const char *names[] = {"task-clock", "context-switches"};
	struct metric_values v;
	struct metric_input in = {
		.bytes = 1024 * 1000,
		.messages = 1000,
		.seconds = 2,
		.set = &set,
		.delta = delta,
	};
	const char *events[2];

	counters_named(names, 2, &set);
	metric_derive(&in, &v);
	ok(fabs(value(&v, "gbps") - 1024000 * 8 / 2 / 1e9) < 1e-12,
	   "gbps is bytes * 8 / seconds / 1e9");
	ok(value(&v, "msgs_per_s") == 500, "msgs_per_s is messages / seconds");
	ok(fabs(value(&v, "cpu_pct") - 100) < 1e-9,
	   "2 s of task-clock in 2 s is 100%% CPU (%g)", value(&v, "cpu_pct"));
	ok(fabs(value(&v, "cpu_ns_per_kib") - 2e9 / 1000) < 1e-6,
	   "cpu_ns_per_kib is task-clock ns per KiB moved (%g)",
	   value(&v, "cpu_ns_per_kib"));
	ok(isnan(value(&v, "ctx_switches_per_s")),
	   "an event that ran 0 ns gives NaN, not a figure");
	ok(isnan(value(&v, "ipc")), "an event not in the set gives NaN");
	ok(metric_counted(&metrics[metric_find("cpu_ns_per_kib")]) &&
		   !metric_counted(&metrics[metric_find("gbps")]),
	   "counted: needs an event; traffic figures do not");
	ok(metric_events(&metrics[metric_find("ipc")], events) == 2 &&
		   strcmp(events[0], "instructions") == 0 &&
		   strcmp(events[1], "cycles") == 0,
	   "ipc needs instructions and cycles");
	in.seconds = 0;
	metric_derive(&in, &v);
	ok(isnan(value(&v, "gbps")), "no time, no rate");
}

static void test_man(const char *path)
{
	char *text = read_text(path);
	bool all = text != NULL;

	for (size_t i = 0; text && i < metric_count; i++) {
		char want[96];

		snprintf(want, sizeof(want), "Li %s", metrics[i].key);
		if (!strstr(text, want)) {
			ok(false, "nio-top(1) documents %s", metrics[i].key);
			all = false;
		}
		/* A CSV metric is two columns, listed under CSV. */
		snprintf(want, sizeof(want), "sender_%s , receiver_%s",
			 metrics[i].key, metrics[i].key);
		if ((metrics[i].show & METRIC_CSV) && !strstr(text, want)) {
			ok(false, "nio-top(1) lists the CSV's %s columns",
			   metrics[i].key);
			all = false;
		}
	}
	ok(all, "nio-top(1) documents every metric of the table, and its "
		"CSV columns");
	free(text);
}

int main(int argc, char **argv)
{
	test_rows();
	test_derive();
	if (argc > 1)
		test_man(argv[1]);
	return tap_done();
}
