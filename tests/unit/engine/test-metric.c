/*
 * The metric table: every row well formed (a unique key, a label, terms that
 * are traffic or perf events), figures derived as the rows say -- and never
 * from an event that did not count -- and every key in nio-top(1); the
 * profile's roles and the waits' reasons as the manual lists them.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metric.h"
#include "reason.h"
#include "role.h"
#include "rx_side.h"
#include "strategy.h"
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

/* A list item as nio-top(1) lists a role or a reason. */
static void item_man(FILE *out, const char *key, const char *label,
		     const char *abbrev, const char *why, const char *functions)
{
	const char *p = functions;

	fprintf(out, ".It Li %s\n%c%s", key, toupper((unsigned char)label[0]),
		label + 1);
	if (strcmp(abbrev, label) != 0)
		fprintf(out, " (%s on the gauges and in compare)", abbrev);
	fprintf(out, ": %s.\n", why);
	while (*p) {
		size_t len = strcspn(p, " ");

		fprintf(out, ".Li %.*s\n", (int)len, p);
		p += len;
		while (*p == ' ')
			p++;
	}
}

/*
 * The roles as nio-top(1) lists them: each key, what it is (and its
 * abbreviation), its functions.
 */
static void roles_man(FILE *out)
{
	for (size_t r = 0; r < role_count; r++)
		item_man(out, roles[r].key, roles[r].label, roles[r].abbrev,
			 roles[r].why, roles[r].functions);
}

/* The reasons as nio-top(1) lists them, as the roles. */
static void reasons_man(FILE *out)
{
	for (size_t r = 0; r < reason_count; r++)
		item_man(out, reasons[r].key, reasons[r].label,
			 reasons[r].abbrev, reasons[r].why,
			 reasons[r].functions);
}

/* A function's role by its name, as a chain's frame finds it. */
static void test_roles(void)
{
	static const struct {
		const char *function;
		bool kernel;
		const char *role;
	} cases[] = {
		{"_copy_to_iter", true, "copy_receive"},
		{"_copy_from_iter", true, "copy_send"},
		{"skb_copy_ubufs", true, "copy_deferred"},
		{"skb_copy_datagram_iter", true, "copy_receive"},
		{"tcp_sendmsg_locked", true, "stack"},
		{"tcp_zerocopy_receive", true, "map"},
		{"finish_task_switch.isra.0", true, "wakeup"},
		{"sock_def_readable", true, "wakeup"},
		{"sock_recv_errqueue", true, "completion"},
		{"memcpy", false, "copy_user"},
		{"__x64_sys_sendmsg", true, "syscall"},
		{"handle_softirqs", true, "stack"},
		{"__do_softirq", true, "stack"},
		{"asm_sysvec_apic_timer_interrupt", true, "interrupt"},
		{"sysvec_call_function_single", true, "interrupt"},
		{"asm_common_interrupt", true, "interrupt"},
		{"irq_exit_rcu", true, "interrupt"},
		{"hrtimer_run_softirq", true, "interrupt"},
		{"perf_swevent_event", true, "measure"},
		{"__perf_event_task_sched_out", true, "measure"},
		{"task_clock_event_read", true, "measure"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		size_t r = role_of_function(cases[i].function, cases[i].kernel);

		ok(r != SIZE_MAX && strcmp(roles[r].key, cases[i].role) == 0,
		   "%s is %s (%s)", cases[i].function, cases[i].role,
		   r != SIZE_MAX ? roles[r].key : "none");
	}
	ok(role_of_function("memcpy", true) == SIZE_MAX &&
		   role_of_function("rep_movs_alternative", true) == SIZE_MAX,
	   "the kernel's own memcpy is no role by itself: its caller says "
	   "which copy");
	ok(role_of_function("_copy_from_user", true) == SIZE_MAX &&
		   role_of_function("_copy_to_user", true) == SIZE_MAX &&
		   role_of_function("iov_iter_extract_pages", true) == SIZE_MAX,
	   "a system call's arguments copied, and MSG_SPLICE_PAGES' page "
	   "references, are no copy and no pinning by themselves");
	ok(role_of_function("message_serialize", true) == SIZE_MAX &&
		   role_of_function("tcp_sendmsg", false) == SIZE_MAX,
	   "a user function matches user patterns only, and the kernel's "
	   "kernel ones");
	ok(strcmp(roles[role_other].key, "other") == 0 &&
		   role_count <= ROLES_MAX,
	   "other is the last of at most %d roles", ROLES_MAX);
}

/* A switch's reason by the function that named it. */
static void test_reasons(void)
{
	static const struct {
		const char *function;
		const char *reason;
	} cases[] = {
		{"sk_wait_data", "data"},
		{"sk_stream_wait_memory", "buffer"},
		{"io_cqring_wait", "uring"},
		{"__lock_sock", "lock"},
		{"pipe_wait_writable", "pipe"},
		{"exit_to_user_mode_loop", "preempted"},
		{"__cond_resched", "preempted"},
		{"irqentry_exit_to_user_mode", "preempted"},
	};
	bool keys = true;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		size_t r = reason_of_function(cases[i].function);

		ok(r < reason_count &&
			   strcmp(reasons[r].key, cases[i].reason) == 0,
		   "%s is %s (%s)", cases[i].function, cases[i].reason,
		   r < reason_count ? reasons[r].key : "none");
	}
	ok(reason_of_function("schedule") == SIZE_MAX &&
		   reason_of_function("schedule_timeout") == SIZE_MAX &&
		   reason_of_function("wait_woken") == SIZE_MAX,
	   "the scheduler's own frames name no reason: their caller does");
	ok(reason_of_function("do_sys_poll") == REASON_GENERIC &&
		   reason_of_function("do_nanosleep") == REASON_GENERIC,
	   "a poll or a sleep is the strategy's to explain");
	ok(strcmp(reasons[reason_other].key, "other") == 0 &&
		   strcmp(reasons[reason_preempted].key, "preempted") == 0 &&
		   reason_count <= REASONS_MAX,
	   "other is the last of at most %d reasons, preempted before it",
	   REASONS_MAX);
	for (size_t i = 0; i < strategy_count(); i++) {
		const struct strategy_ops *ops = strategy_at(i);

		keys &= !ops->tx_waits ||
			reason_find(ops->tx_waits) != SIZE_MAX;
		keys &= !ops->rx_waits ||
			reason_find(ops->rx_waits) != SIZE_MAX;
	}
	for (int rx = 0; rx < RX_MODE_COUNT; rx++) {
		const struct strategy_ops *ops = strategy_rx_ops(rx);

		keys &= !ops || !ops->rx_waits ||
			reason_find(ops->rx_waits) != SIZE_MAX;
	}
	ok(keys, "every strategy's polls and sleeps wait for a reason of the "
		 "table");
}

/*
 * nio-top(1)'s list under head is what print() writes
 * (test-metric --print-man-roles, --print-man-reasons).
 */
static void test_list_man(const char *path, const char *head,
			  void (*print)(FILE *out), const char *what)
{
	char *text = read_text(path), *want = NULL, *start, *end;
	size_t size = 0;
	FILE *f = open_memstream(&want, &size);

	print(f);
	fclose(f);
	start = text ? strstr(text, head) : NULL;
	end = start ? strstr(start, "\n.El\n") : NULL;
	if (end) {
		start += strlen(head);
		end[1] = '\0';
	}
	ok(end && strcmp(start, want) == 0,
	   "nio-top(1) lists the %s and every function as the table says",
	   what);
	free(want);
	free(text);
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--print-man-roles") == 0) {
		roles_man(stdout);
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "--print-man-reasons") == 0) {
		reasons_man(stdout);
		return 0;
	}
	test_rows();
	test_derive();
	test_roles();
	test_reasons();
	if (argc > 1) {
		test_man(argv[1]);
		test_list_man(argv[1], ".Ss Roles\n.Bl -tag -width Ds\n",
			      roles_man, "roles");
		test_list_man(argv[1], ".Ss Reasons\n.Bl -tag -width Ds\n",
			      reasons_man, "reasons");
	}
	return tap_done();
}
