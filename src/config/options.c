/*
 * The option table and everything it drives.  Each type knows three things:
 * how to take a value from command-line text, how to take it from JSON (a
 * preset, a run on the wire, a run in an export), and how to write it as
 * JSON.  Rows only say which type, where, and within what range.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "jsonfile.h"
#include "message.h"
#include "options.h"
#include "preset.h"
#include "units.h"

#define O(member) offsetof(struct options, member)
#define R(member) offsetof(struct run_config, member)

const struct option_row option_rows[] = {
	{.name = "batch",
	 .type = OPTION_FLAG,
	 .offset = O(batch),
	 .help = "run every combination headless, print a table, exit"},
	{.name = "preset",
	 .letter = 'p',
	 .arg = "NAME|FILE",
	 .type = OPTION_PRESET,
	 .help = "start from a preset (a name in the presets folder, a file, "
		 "or an export); options given too override it"},
	{.key = "name",
	 .type = OPTION_TEXT,
	 .offset = O(preset_name),
	 .size = sizeof(((struct options *)0)->preset_name),
	 .min = 1,
	 .max = 64,
	 .help = "a short name"},
	{.key = "description",
	 .type = OPTION_TEXT,
	 .offset = O(preset_description),
	 .size = sizeof(((struct options *)0)->preset_description),
	 .min = 0,
	 .max = 1024,
	 .help = "what the preset is for"},
	{.name = "strategy",
	 .letter = 's',
	 .arg = "LIST",
	 .key = "strategies",
	 .run_key = "strategy",
	 .type = OPTION_STRATEGIES,
	 .offset = O(strategies),
	 .count_offset = O(strategy_count),
	 .run_offset = R(strategy),
	 .min = 1,
	 .max = OPTIONS_LIST_MAX,
	 .def = "all",
	 .flags = OPTION_RUN,
	 .help = "strategies, or \"all\" (those this machine can run)"},
	{.name = "msg-size",
	 .letter = 'm',
	 .arg = "LIST",
	 .key = "msg_sizes",
	 .run_key = "msg_size",
	 .type = OPTION_SIZES,
	 .offset = O(msg_sizes),
	 .count_offset = O(msg_size_count),
	 .run_offset = R(msg_size),
	 .min = MESSAGE_SIZE_MIN,
	 .max = MESSAGE_SIZE_MAX,
	 .def = "16K",
	 .flags = OPTION_RUN,
	 .help = "message sizes in bytes, or with K or M"},
	{.name = "threads",
	 .letter = 't',
	 .arg = "LIST",
	 .key = "threads",
	 .run_key = "threads",
	 .type = OPTION_COUNTS,
	 .offset = O(threads),
	 .count_offset = O(thread_count),
	 .run_offset = R(threads),
	 .min = 1,
	 .max = OPTIONS_THREADS_MAX,
	 .def = "1",
	 .flags = OPTION_RUN,
	 .help = "flows per run"},
	{.name = "mode",
	 .arg = "LIST",
	 .key = "mode",
	 .run_key = "mode",
	 .type = OPTION_CHOICES,
	 .offset = O(modes),
	 .count_offset = O(mode_count),
	 .run_offset = R(mode),
	 .names = run_mode_names,
	 .min = 1,
	 .max = RUN_MODE_COUNT,
	 .def = "stream",
	 .flags = OPTION_RUN,
	 .help = "what a run measures: stream (throughput), rr (one "
		 "request, one answer: round-trip latency), or both "
		 "(stream,rr)"},
	{.name = "duration",
	 .letter = 'd',
	 .arg = "SEC",
	 .key = "duration_s",
	 .run_key = "duration_s",
	 .type = OPTION_SECONDS,
	 .offset = O(run.duration_ms),
	 .run_offset = R(settings.duration_ms),
	 .min = 0.001,
	 .max = 86400,
	 .def = "5",
	 .flags = OPTION_RUN,
	 .help = "measured seconds per run, fractions allowed (the explorer "
		 "runs until a control changes unless given)"},
	{.name = "warmup",
	 .letter = 'w',
	 .arg = "SEC",
	 .key = "warmup_s",
	 .run_key = "warmup_s",
	 .type = OPTION_SECONDS,
	 .offset = O(run.warmup_ms),
	 .run_offset = R(settings.warmup_ms),
	 .min = 0,
	 .max = 3600,
	 .def = "0.5",
	 .flags = OPTION_RUN,
	 .help = "seconds run first and left out of the summary"},
	{.name = "repeat",
	 .arg = "N",
	 .key = "repeat",
	 .type = OPTION_UINT,
	 .offset = O(repeat),
	 .min = 1,
	 .max = 100,
	 .def = "1",
	 .help = "runs of each combination, interleaved; the analysis takes "
		 "the median and spread"},
	{.name = "min-measured",
	 .arg = "SEC",
	 .key = "min_measured_s",
	 .type = OPTION_SECONDS,
	 .offset = O(min_measured_ms),
	 .min = 0,
	 .max = 86400,
	 .def = "1",
	 .help = "runs measured for less (or over fewer than 5 intervals) "
		 "are marked short and left out of the analysis and charts; "
		 "0 keeps every run"},
	{.name = "keep-stopped",
	 .key = "keep_stopped",
	 .type = OPTION_BOOL,
	 .offset = O(keep_stopped),
	 .help = "analyse and chart runs whose measured window a stop "
		 "(Ctrl-Z, SIGSTOP) ended, as any other; they stay marked"},
	{.name = "verify",
	 .key = "verify",
	 .run_key = "verify",
	 .type = OPTION_BOOL,
	 .offset = O(run.verify),
	 .run_offset = R(settings.verify),
	 .flags = OPTION_RUN,
	 .help = "fill and check every message; count corrupt ones"},
	{.name = "fields",
	 .arg = "N",
	 .key = "fields",
	 .run_key = "fields",
	 .type = OPTION_UINT,
	 .offset = O(run.fields),
	 .run_offset = R(settings.fields),
	 .min = 1,
	 .max = MESSAGE_FIELDS_MAX,
	 .def = "8",
	 .flags = OPTION_RUN,
	 .help = "separately allocated fields per message (1: one buffer, as "
		 "iperf3 and the kernel's examples send)"},
	{.name = "slots",
	 .arg = "N",
	 .key = "slots",
	 .run_key = "slots",
	 .type = OPTION_UINT,
	 .offset = O(run.slots),
	 .run_offset = R(settings.slots),
	 .min = 0,
	 .max = STRATEGY_SLOTS_MAX,
	 .def = "0",
	 .flags = OPTION_RUN,
	 .help = "message slots per zero-copy sender, each a message of "
		 "memory; 0: as many as a full send buffer holds (tcp_wmem "
		 "max / size, at least 16)"},
	{.name = "uring-depth",
	 .arg = "N",
	 .key = "uring_depth",
	 .run_key = "uring_depth",
	 .type = OPTION_UINT,
	 .offset = O(run.uring_depth),
	 .run_offset = R(settings.uring_depth),
	 .min = 1,
	 .max = STRATEGY_URING_DEPTH_MAX,
	 .def = "8",
	 .flags = OPTION_RUN,
	 .help = "messages per io_uring submission"},
	{.name = "uring-fixed",
	 .key = "uring_fixed",
	 .run_key = "uring_fixed",
	 .type = OPTION_BOOL,
	 .offset = O(run.uring_fixed),
	 .run_offset = R(settings.uring_fixed),
	 .flags = OPTION_RUN,
	 .help = "send uring-zc's batches from registered buffers (one "
		 "SENDMSG_ZC with a fixed buffer per batch)"},
	{.name = "unsafe-reuse",
	 .key = "unsafe_reuse",
	 .run_key = "unsafe_reuse",
	 .type = OPTION_BOOL,
	 .offset = O(run.unsafe_reuse),
	 .run_offset = R(settings.unsafe_reuse),
	 .flags = OPTION_RUN,
	 .help = "teaching: sendfile and splice rewrite a message's pages "
		 "without waiting for the receiver to read them (one slot "
		 "unless --slots): corrupt messages follow"},
	{.name = "rx",
	 .arg = "MODE",
	 .key = "rx",
	 .run_key = "rx",
	 .type = OPTION_CHOICE,
	 .offset = O(run.rx),
	 .run_offset = R(settings.rx),
	 .names = rx_mode_names,
	 .def = "copy",
	 .flags = OPTION_RUN,
	 .help = "copy (each strategy's receiver), or zerocopy "
		 "(TCP_ZEROCOPY_RECEIVE: the receiver maps the pages)"},
	{.name = "nodelay",
	 .arg = "WHEN",
	 .key = "nodelay",
	 .run_key = "nodelay",
	 .type = OPTION_CHOICE,
	 .offset = O(run.nodelay),
	 .run_offset = R(settings.nodelay),
	 .names = nodelay_names,
	 .def = "rr",
	 .flags = OPTION_RUN,
	 .help = "TCP_NODELAY on every flow's sockets: rr (in request-response "
		 "runs, as sockperf does), on, or off (Nagle holds a message "
		 "sent in pieces for the delayed ACK)"},
	{.name = "pin",
	 .arg = "LIST",
	 .key = "pin",
	 .run_key = "pin",
	 .type = OPTION_CPUS,
	 .offset = O(run.pin),
	 .run_offset = R(settings.pin),
	 .flags = OPTION_RUN,
	 .help = "CPUs for the flows' threads, senders then receivers, "
		 "round-robin (e.g. 0,1 or 0-3)"},
	{.name = "events",
	 .arg = "LIST",
	 .key = "events",
	 .type = OPTION_EVENTS,
	 .offset = O(events),
	 .count_offset = O(event_count),
	 .min = 0,
	 .max = COUNTERS_MAX,
	 .help = "perf events (libpfm4 names) counted per thread, replacing "
		 "the default set; none: nothing counted"},
	{.name = "no-counters",
	 .type = OPTION_FLAG,
	 .offset = O(no_counters),
	 .help = "count no perf events"},
	{.name = "output",
	 .letter = 'o',
	 .arg = "FILE",
	 .type = OPTION_PATH,
	 .offset = O(output),
	 .help = "write every run as JSON"},
	{.name = "csv",
	 .arg = "FILE",
	 .type = OPTION_PATH,
	 .offset = O(csv),
	 .help = "also write one CSV row per run"},
	{.name = "svg",
	 .arg = "FILE",
	 .type = OPTION_PATH,
	 .offset = O(svg),
	 .help = "also write charts of the runs as SVG (throughput, latency)"},
	{.name = "load",
	 .arg = "FILE",
	 .type = OPTION_PATH,
	 .offset = O(load),
	 .help = "open a saved export (runs, charts, analysis) instead of "
		 "running"},
	{.name = "topology",
	 .arg = "KIND",
	 .key = "topology.kind",
	 .type = OPTION_CHOICE,
	 .offset = O(topo.kind),
	 .names = topo_kind_names,
	 .def = "veth",
	 .help = "where the flows run: veth (two namespaces joined by a veth "
		 "pair), loopback (one "
		 "private namespace), current, or remote (another host: "
		 "--connect)"},
	{.name = "subnet",
	 .arg = "CIDR",
	 .key = "topology.subnet",
	 .type = OPTION_SUBNET,
	 .offset = O(topo.subnet),
	 .def = "198.18.0.0/30",
	 .help = "IPv4 subnet of the veth, /8 .. /30"},
	{.name = "mtu",
	 .arg = "N",
	 .key = "topology.mtu",
	 .type = OPTION_UINT,
	 .offset = O(topo.mtu),
	 .min = TOPO_MTU_MIN,
	 .max = TOPO_MTU_MAX,
	 .help = "MTU of the veth pair"},
	{.name = "rate",
	 .arg = "RATE",
	 .key = "topology.rate",
	 .type = OPTION_RATE,
	 .offset = O(topo.rate_bps),
	 .min = TOPO_RATE_MIN_BPS,
	 .max = TOPO_RATE_MAX_BPS,
	 .help = "shape the senders' side with tbf: bit/s, K, M or G (e.g. "
		 "1G)"},
	{.name = "delay",
	 .arg = "MS",
	 .key = "topology.delay_ms",
	 .type = OPTION_NUMBER,
	 .offset = O(topo.delay_ms),
	 .min = 0,
	 .max = 10000,
	 .help = "netem delay on the senders' side, ms (needs sch_netem)"},
	{.name = "loss",
	 .arg = "PCT",
	 .key = "topology.loss_pct",
	 .type = OPTION_NUMBER,
	 .offset = O(topo.loss_pct),
	 .min = 0,
	 .max = 100,
	 .help = "netem loss on the senders' side, % (needs sch_netem)"},
	{.name = "keep-netns",
	 .arg = "PREFIX",
	 .type = OPTION_NAME,
	 .offset = O(topo.keep_prefix),
	 .size = sizeof(((struct options *)0)->topo.keep_prefix),
	 .min = 1,
	 .max = TOPO_KEEP_PREFIX_MAX,
	 .help = "also name the namespaces PREFIX-srv and PREFIX-cli in "
		 "/run/netns"},
	{.name = "serve",
	 .type = OPTION_FLAG,
	 .offset = O(serve),
	 .help = "run as an agent for a client on another host (nio-top "
		 "--connect): one client at a time, until interrupted"},
	{.name = "listen",
	 .arg = "ADDR",
	 .type = OPTION_PATH,
	 .offset = O(listen),
	 .flags = OPTION_SERVE,
	 .help = "the IPv4 address to listen on (default every address)"},
	{.name = "port",
	 .arg = "PORT",
	 .type = OPTION_UINT,
	 .offset = O(port),
	 .min = 1,
	 .max = 65535,
	 .def = "5310",
	 .flags = OPTION_SERVE,
	 .help = "the control port"},
	{.name = "connect",
	 .arg = "HOST[:PORT]",
	 .type = OPTION_PATH,
	 .offset = O(connect),
	 .help = "run the senders here and the receivers on the agent at HOST "
		 "(--topology remote)"},
	{.name = "reverse",
	 .type = OPTION_FLAG,
	 .offset = O(reverse),
	 .help = "--connect: the agent runs the senders, this host the "
		 "receivers"},
	{.name = "auth-file",
	 .arg = "FILE",
	 .type = OPTION_PATH,
	 .offset = O(auth_file),
	 .help = "the shared secret (the file's first line) an agent requires "
		 "and a client gives"},
	{.name = "max-memory",
	 .arg = "SIZE",
	 .type = OPTION_BYTES,
	 .offset = O(max_memory),
	 .flags = OPTION_SERVE,
	 .help = "the buffers one run may allocate here, K, M, G or T (default "
		 "a quarter of this machine's memory)"},
	{.name = "max-threads",
	 .arg = "N",
	 .type = OPTION_UINT,
	 .offset = O(max_threads),
	 .min = 1,
	 .max = OPTIONS_THREADS_MAX,
	 .def = "64",
	 .flags = OPTION_SERVE,
	 .help = "the most flows a run may have"},
	{.name = "max-slots",
	 .arg = "N",
	 .type = OPTION_UINT,
	 .offset = O(max_slots),
	 .min = 1,
	 .max = STRATEGY_SLOTS_MAX,
	 .def = "4096",
	 .flags = OPTION_SERVE,
	 .help = "the most zero-copy slots per flow"},
	{.name = "max-duration",
	 .arg = "SEC",
	 .type = OPTION_SECONDS,
	 .offset = O(max_duration_ms),
	 .min = 0.001,
	 .max = 86400,
	 .def = "86400",
	 .flags = OPTION_SERVE,
	 .help = "the longest a run may last, warm-up included"},
	{.name = "max-idle",
	 .arg = "SEC",
	 .type = OPTION_SECONDS,
	 .offset = O(max_idle_ms),
	 .min = 0.1,
	 .max = 86400,
	 .def = "300",
	 .flags = OPTION_SERVE,
	 .help = "how long a client may hold the agent with no run and no "
		 "word"},
	{.name = "refresh",
	 .arg = "MS",
	 .key = "ui.refresh_ms",
	 .type = OPTION_UINT,
	 .offset = O(refresh_ms),
	 .min = 20,
	 .max = 10000,
	 .def = "100",
	 .help = "redraw the screen every MS milliseconds"},
	{.name = "theme",
	 .arg = "NAME",
	 .key = "ui.theme",
	 .type = OPTION_NAME,
	 .offset = O(theme),
	 .size = sizeof(((struct options *)0)->theme),
	 .min = 1,
	 .max = 64,
	 .def = "default",
	 .help = "colour theme of the screen, a file in the themes folder"},
	{.name = "no-config",
	 .type = OPTION_FLAG,
	 .offset = O(no_config),
	 .flags = OPTION_EARLY,
	 .help = "neither read nor write the explorer's settings, nor the "
		 "presets saved in the user's folder "
		 "($XDG_CONFIG_HOME/nio-top)"},
	{.name = "list-strategies",
	 .type = OPTION_FLAG,
	 .offset = O(list_strategies),
	 .help = "list the strategies and whether this machine can run them"},
	{.name = "check",
	 .type = OPTION_FLAG,
	 .offset = O(check),
	 .help = "print what this machine supports, and exit"},
	{.name = "help",
	 .letter = 'h',
	 .type = OPTION_FLAG,
	 .offset = O(help),
	 .help = "show this help"},
	{.name = "version",
	 .letter = 'V',
	 .type = OPTION_FLAG,
	 .offset = O(version),
	 .help = "show the version"},
};

const size_t option_row_count = sizeof(option_rows) / sizeof(option_rows[0]);

static void *at(const void *base, size_t offset)
{
	return (char *)base + offset;
}

static size_t row_index(const struct option_row *row)
{
	return (size_t)(row - option_rows);
}

const struct option_row *options_by_name(const char *name)
{
	for (size_t i = 0; i < option_row_count; i++)
		if (option_rows[i].name &&
		    strcmp(option_rows[i].name, name) == 0)
			return &option_rows[i];
	return NULL;
}

const struct option_row *options_by_key(const char *key)
{
	for (size_t i = 0; i < option_row_count; i++)
		if (option_rows[i].key && strcmp(option_rows[i].key, key) == 0)
			return &option_rows[i];
	return NULL;
}

bool options_given(const struct options *o, const char *name)
{
	const struct option_row *row = options_by_name(name);

	return row && o->given[row_index(row)];
}

void options_set_given(struct options *o, const char *name)
{
	const struct option_row *row = options_by_name(name);

	if (row)
		o->given[row_index(row)] = true;
}

/* "--name" for messages, or the preset key of a preset-only row. */
static const char *row_label(const struct option_row *row, char *out,
			     size_t size)
{
	if (row->name)
		snprintf(out, size, "--%s", row->name);
	else
		snprintf(out, size, "%s", row->key);
	return out;
}

/* "64 .. 4194304" */
static void range_text(const struct option_row *row, char *out, size_t size)
{
	snprintf(out, size, "%.15g .. %.15g", row->min, row->max);
}

static const char *type_noun(const struct option_row *row)
{
	switch (row->type) {
	case OPTION_SECONDS:
		return "a duration in seconds";
	case OPTION_NUMBER:
		return "a number";
	default:
		return "a whole number";
	}
}

/* The choices of names as "stream, rr", or quoted for JSON. */
static void choice_list(const char *const *names, bool quoted, char *out,
			size_t size)
{
	out[0] = '\0';
	for (size_t i = 0; names[i]; i++)
		snprintf(out + strlen(out), size - strlen(out), "%s%s%s%s",
			 i ? ", " : "", quoted ? "\"" : "", names[i],
			 quoted ? "\"" : "");
}

/* The strategies known, for a message: "two-copy, one-copy, ...". */
static void strategy_list(char *out, size_t size)
{
	out[0] = '\0';
	for (size_t i = 0; i < strategy_count(); i++)
		snprintf(out + strlen(out), size - strlen(out), "%s%s",
			 i ? ", " : "", strategy_at(i)->name);
}

/* One strategy by name, available here unless only viewed. */
static int find_strategy(const char *label, const char *name, bool viewing,
			 const struct strategy_ops **ops, char **cause)
{
	char known[256], *why = NULL;
	int r;

	*ops = strategy_find(name);
	if (!*ops) {
		strategy_list(known, sizeof(known));
		return cause_set(cause, -EINVAL,
				 "%s: '%s' is not a strategy (%s, all)", label,
				 name, known);
	}
	if (viewing || strategy_probe(*ops, &why) == 0) {
		free(why);
		return 0;
	}
	r = cause_set(cause, -EINVAL, "%s: '%s' is unavailable here: %s", label,
		      name, why ? why : "probe failed");
	free(why);
	return r;
}

/* A CPU list every CPU of which this process may run on. */
static int check_cpus(const char *label, const struct cpu_list *cpus,
		      char **cause)
{
	cpu_set_t allowed;

	if (sched_getaffinity(0, sizeof(allowed), &allowed) < 0)
		return 0;
	for (unsigned int i = 0; i < cpus->count; i++) {
		if (CPU_ISSET(cpus->cpu[i], &allowed))
			continue;
		char list[128] = "";
		struct cpu_list own = {0};

		for (unsigned int c = 0;
		     c < CPU_SETSIZE && own.count < SETTINGS_CPUS_MAX; c++)
			if (CPU_ISSET(c, &allowed))
				own.cpu[own.count++] = (uint16_t)c;
		units_format_cpus(&own, list, sizeof(list));
		return cause_set(cause, -EINVAL,
				 "%s: CPU %u is not one this process may "
				 "run on (%s)",
				 label, cpus->cpu[i], list);
	}
	return 0;
}

/* Splits a comma list, with no empty item, into items. */
static int split_list(const char *label, const char *text, char **copy,
		      char *items[], size_t *count, size_t most, char **cause)
{
	char *save = NULL;

	*count = 0;
	if (!text[0] || text[0] == ',' || text[strlen(text) - 1] == ',' ||
	    strstr(text, ",,"))
		return cause_set(cause, -EINVAL, "%s: '%s' has an empty item",
				 label, text);
	*copy = strdup(text);
	if (!*copy)
		return -ENOMEM;
	for (char *item = strtok_r(*copy, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		if (*count == most) {
			free(*copy);
			*copy = NULL;
			return cause_set(cause, -EINVAL,
					 "%s: more than %zu items", label,
					 most);
		}
		items[(*count)++] = item;
	}
	return 0;
}

static void strategies_all(struct options *o)
{
	o->strategy_count = 0;
	for (size_t i = 0; i < strategy_count(); i++) {
		char *why = NULL;

		if (strategy_probe(strategy_at(i), &why) == 0)
			o->strategies[o->strategy_count++] = strategy_at(i);
		free(why);
	}
}

/* A list option from text: each item parsed as the type says. */
static int set_list_text(struct options *o, const struct option_row *row,
			 const char *label, const char *text, char **cause)
{
	char *items[OPTIONS_LIST_MAX], *copy = NULL;
	size_t n, *count = at(o, row->count_offset);
	size_t most = row->type == OPTION_EVENTS ? (size_t)row->max
						 : OPTIONS_LIST_MAX;
	int r = split_list(label, text, &copy, items, &n, most, cause);

	if (r < 0)
		return r;
	if (row->type == OPTION_STRATEGIES && n == 1 &&
	    strcmp(items[0], "all") == 0) {
		strategies_all(o);
		free(copy);
		return 0;
	}
	for (size_t i = 0; i < n && r == 0; i++) {
		unsigned long v;
		size_t bytes;

		switch (row->type) {
		case OPTION_SIZES:
			r = units_parse_size(items[i], &bytes);
			if (r == -EINVAL)
				r = cause_set(cause, -EINVAL,
					      "%s: '%s' is not a size "
					      "(bytes, or a number with K "
					      "or M)",
					      label, items[i]);
			else if (r < 0)
				r = cause_set(cause, -EINVAL,
					      "%s: '%s' is out of range (64 "
					      ".. 4M)",
					      label, items[i]);
			else
				((size_t *)at(o, row->offset))[i] = bytes;
			break;
		case OPTION_COUNTS:
			r = units_parse_uint(items[i], (unsigned long)row->min,
					     (unsigned long)row->max, &v);
			if (r < 0)
				r = cause_set(cause, -EINVAL,
					      "%s: '%s' is not a whole "
					      "number %.0f .. %.0f",
					      label, items[i], row->min,
					      row->max);
			else
				((unsigned int *)at(
					o, row->offset))[i] = (unsigned int)v;
			break;
		case OPTION_STRATEGIES:
			r = find_strategy(label, items[i], o->viewing_only,
					  &((const struct strategy_ops **)at(
						  o, row->offset))[i],
					  cause);
			break;
		case OPTION_EVENTS:
			snprintf(o->events[i], sizeof(o->events[i]), "%s",
				 items[i]);
			break;
		default:
			r = -EINVAL;
		}
	}
	if (r == 0)
		*count = n;
	free(copy);
	return r;
}

/* Name as the index of one of row's choices, not yet in list: 0 or -EINVAL. */
static int add_choice(const struct option_row *row, const char *where,
		      const char *name, int *list, size_t *count, char **cause)
{
	char choices[128];

	for (int i = 0; row->names[i]; i++) {
		if (strcmp(name, row->names[i]) != 0)
			continue;
		for (size_t k = 0; k < *count; k++)
			if (list[k] == i)
				return cause_set(cause, -EINVAL,
						 "%s: '%s' is given twice",
						 where, name);
		list[(*count)++] = i;
		return 0;
	}
	choice_list(row->names, false, choices, sizeof(choices));
	return cause_set(cause, -EINVAL, "%s: '%s' is not a %s (%s)", where,
			 name, row->name ? row->name : row->key, choices);
}

/* A list of choices from text: "stream,rr". */
static int set_choices_text(struct options *o, const struct option_row *row,
			    const char *label, const char *text, char **cause)
{
	char *items[OPTIONS_LIST_MAX], *copy = NULL;
	int list[OPTIONS_LIST_MAX];
	size_t n, count = 0;
	int r = split_list(label, text, &copy, items, &n, (size_t)row->max,
			   cause);

	for (size_t i = 0; r == 0 && i < n; i++)
		r = add_choice(row, label, items[i], list, &count, cause);
	free(copy);
	if (r < 0)
		return r;
	memcpy(at(o, row->offset), list, count * sizeof(int));
	*(size_t *)at(o, row->count_offset) = count;
	return 0;
}

/* The value of row from command-line text (NULL for a flag). */
static int set_text(struct options *o, const struct option_row *row,
		    const char *text, char **cause)
{
	char label[48], choices[128];
	void *p = at(o, row->offset);
	unsigned long v;
	int r = 0;

	row_label(row, label, sizeof(label));
	switch (row->type) {
	case OPTION_FLAG:
	case OPTION_BOOL:
		*(bool *)p = true;
		break;
	case OPTION_UINT:
		r = units_parse_uint(text, (unsigned long)row->min,
				     (unsigned long)row->max, &v);
		if (r == 0)
			*(unsigned int *)p = (unsigned int)v;
		break;
	case OPTION_SECONDS:
		r = units_parse_seconds(text, row->min, row->max, p);
		break;
	case OPTION_NUMBER:
		r = units_parse_number(text, row->min, row->max, p);
		break;
	case OPTION_RATE:
		r = units_parse_rate(text, (uint64_t)row->min,
				     (uint64_t)row->max, p);
		if (r < 0)
			return cause_set(cause, -EINVAL,
					 "%s: '%s' is not a rate (bit/s "
					 "with K, M or G, 8K .. 17G)",
					 label, text);
		break;
	case OPTION_BYTES:
		if (units_parse_bytes(text, p) < 0)
			return cause_set(cause, -EINVAL,
					 "%s: '%s' is not a size (bytes, "
					 "or a number with K, M, G or T; "
					 "more than 0)",
					 label, text);
		break;
	case OPTION_SIZES:
	case OPTION_COUNTS:
	case OPTION_STRATEGIES:
		return set_list_text(o, row, label, text, cause);
	case OPTION_EVENTS:
		/* --events with no event is --no-counters. */
		if (!text[0]) {
			o->event_count = 0;
			return 0;
		}
		return set_list_text(o, row, label, text, cause);
	case OPTION_CHOICE:
		for (int i = 0; row->names[i]; i++) {
			if (strcmp(text, row->names[i]) == 0) {
				*(int *)p = i;
				return 0;
			}
		}
		choice_list(row->names, false, choices, sizeof(choices));
		return cause_set(cause, -EINVAL, "%s: '%s' is not a %s (%s)",
				 label, text, row->name, choices);
	case OPTION_CHOICES:
		return set_choices_text(o, row, label, text, cause);
	case OPTION_NAME:
	case OPTION_TEXT:
		if (strlen(text) < row->min || strlen(text) > row->max ||
		    (row->type == OPTION_NAME &&
		     !units_name_valid(text, (size_t)row->max)))
			return cause_set(
				cause, -EINVAL,
				"%s: '%s' is not a name (%.0f .. %.0f of "
				"A-Z a-z 0-9 _ . -, not starting with .)",
				label, text, row->min, row->max);
		snprintf(p, row->size, "%s", text);
		break;
	case OPTION_PATH:
		if (!text[0])
			return cause_set(cause, -EINVAL, "%s: empty", label);
		*(const char **)p = text;
		break;
	case OPTION_SUBNET:
		if (topo_subnet_parse(text, p, &o->topo.prefix) < 0)
			return cause_set(cause, -EINVAL,
					 "%s: '%s' is not an IPv4 subnet "
					 "(a.b.c.d/8 .. /30, host bits "
					 "zero)",
					 label, text);
		break;
	case OPTION_CPUS:
		r = units_parse_cpus(text, p);
		if (r < 0)
			return cause_set(cause, -EINVAL,
					 "%s: '%s' is not a CPU list (such "
					 "as 0,1 or 0-3; at most %d)",
					 label, text, SETTINGS_CPUS_MAX);
		return check_cpus(label, p, cause);
	case OPTION_PRESET:
		return options_load_preset(o, text, cause);
	}
	if (r < 0) {
		char range[64];

		range_text(row, range, sizeof(range));
		return cause_set(cause, -EINVAL, "%s: '%s' is not %s %s", label,
				 text, type_noun(row), range);
	}
	return 0;
}

void options_defaults(struct options *o)
{
	char *cause = NULL;

	*o = (struct options){0};
	topo_options_default(&o->topo);
	for (size_t i = 0; i < option_row_count; i++) {
		if (option_rows[i].def &&
		    set_text(o, &option_rows[i], option_rows[i].def, &cause) <
			    0)
			abort(); /* the table's own default does not parse */
	}
	o->counters_enabled = true;
	free(cause);
}

int options_resolve_events(struct options *o, char **cause)
{
	const char *names[COUNTERS_MAX];

	*cause = NULL;
	o->counters_enabled = !o->no_counters &&
			      (o->event_count || !options_given(o, "events"));
	if (!o->counters_enabled)
		return 0;
	for (size_t i = 0; i < o->event_count; i++)
		names[i] = o->events[i];
	/* Without libpfm4 there is nothing to count; --check says why. */
	if (counters_resolve(o->event_count ? names : NULL,
			     (unsigned int)o->event_count, &o->counters,
			     cause) == 0)
		return 0;
	if (o->event_count)
		return -EINVAL;
	o->counters_enabled = false;
	free(*cause);
	*cause = NULL;
	return 0;
}

/* Options that shape a link need one nio-top made. */
static int check_topology(const struct topo_options *t, char **cause)
{
	const char *needs_veth = t->mtu	       ? "--mtu"
				 : t->rate_bps ? "--rate"
				 : t->delay_ms ? "--delay"
				 : t->loss_pct ? "--loss"
					       : NULL;

	if (needs_veth && t->kind != TOPO_VETH)
		return cause_set(cause, -EINVAL,
				 "%s needs --topology veth (not %s)",
				 needs_veth, topo_kind_name(t->kind));
	if (t->rate_bps && (t->delay_ms || t->loss_pct))
		return cause_set(cause, -EINVAL,
				 "--rate cannot be combined with --delay "
				 "or --loss yet: both need the root qdisc");
	if (t->keep_prefix[0] &&
	    (t->kind == TOPO_CURRENT || t->kind == TOPO_REMOTE))
		return cause_set(cause, -EINVAL,
				 "--keep-netns needs a namespace nio-top "
				 "makes (--topology veth or loopback)");
	return 0;
}

/*
 * --rx zerocopy: the kernel must have TCP_ZEROCOPY_RECEIVE.  It changes the
 * receive side only: the network (its MTU among the rest) stays as the other
 * options make it, so a run with it compares with one without.
 */
static int check_rx(struct options *o, char **cause)
{
	char *why = NULL;

	if (o->run.rx != RX_ZEROCOPY)
		return 0;
	if (!o->viewing_only && !o->load &&
	    strategy_probe(&strategy_rx_zerocopy, &why) < 0) {
		int r = cause_set(cause, -EINVAL, "--rx zerocopy: %s",
				  why ? why : "unavailable here");

		free(why);
		return r;
	}
	free(why);
	return 0;
}

/* --serve and --connect, and the options that belong to one of them. */
static int check_hosts(struct options *o, char **cause)
{
	if (o->serve && o->connect)
		return cause_set(cause, -EINVAL,
				 "--serve and --connect exclude each other");
	for (size_t i = 0; !o->serve && i < option_row_count; i++)
		if ((option_rows[i].flags & OPTION_SERVE) && o->given[i])
			return cause_set(cause, -EINVAL, "--%s needs --serve",
					 option_rows[i].name);
	if (o->reverse && !o->connect)
		return cause_set(cause, -EINVAL, "--reverse needs --connect");
	if (o->auth_file && !o->serve && !o->connect)
		return cause_set(cause, -EINVAL,
				 "--auth-file needs --serve or --connect");
	if (o->connect && o->load)
		return cause_set(cause, -EINVAL,
				 "--connect and --load exclude each other");
	if (o->connect) {
		if (options_given(o, "topology") && o->topo.kind != TOPO_REMOTE)
			return cause_set(cause, -EINVAL,
					 "--connect runs over --topology "
					 "remote (not %s)",
					 topo_kind_name(o->topo.kind));
		o->topo.kind = TOPO_REMOTE;
	}
	if (o->topo.kind == TOPO_REMOTE && !o->connect && !o->viewing_only &&
	    !o->load)
		return cause_set(cause, -EINVAL,
				 "--topology remote needs --connect HOST");
	return 0;
}

/* The passes over argv: options that shape the lookup, presets, the rest. */
enum parse_phase {
	PHASE_EARLY,
	PHASE_PRESETS,
	PHASE_REST,
};

static enum parse_phase row_phase(const struct option_row *row)
{
	return row->flags & OPTION_EARLY    ? PHASE_EARLY
	       : row->type == OPTION_PRESET ? PHASE_PRESETS
					    : PHASE_REST;
}

/* Applies the options of argv that belong to phase. */
static int parse_pass(int argc, char **argv, const struct option *longs,
		      const char *shorts, enum parse_phase phase,
		      struct options *o, char **cause)
{
	int key;

	optind = 1;
	opterr = 0;
	while ((key = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		const struct option_row *row;
		int r;

		if (key == '?')
			return cause_set(cause, -EINVAL, "unknown option '%s'",
					 argv[optind - 1]);
		if (key == ':')
			return cause_set(cause, -EINVAL,
					 "option '%s' needs a value",
					 argv[optind - 1]);
		row = key >= 256 ? &option_rows[key - 256] : NULL;
		for (size_t i = 0; !row && i < option_row_count; i++)
			if (option_rows[i].letter == key)
				row = &option_rows[i];
		if (!row || row_phase(row) != phase)
			continue;
		r = set_text(o, row, optarg, cause);
		if (r < 0)
			return r;
		o->given[row_index(row)] = true;
	}
	return 0;
}

int options_parse(int argc, char **argv, struct options *o, char **cause)
{
	struct option longs[OPTIONS_MAX + 1];
	char shorts[2 * OPTIONS_MAX + 2] = ":";
	size_t n = 1, k = 0;
	int r = 0;

	*cause = NULL;
	options_defaults(o);
	memset(longs, 0, sizeof(longs));
	for (size_t i = 0; i < option_row_count; i++) {
		const struct option_row *row = &option_rows[i];

		if (!row->name)
			continue;
		longs[k++] = (struct option){
			.name = row->name,
			.has_arg = row->arg ? required_argument : no_argument,
			.val = 256 + (int)i,
		};
		if (row->letter) {
			shorts[n++] = row->letter;
			if (row->arg)
				shorts[n++] = ':';
		}
	}
	shorts[n] = '\0';

	for (int phase = PHASE_EARLY; phase <= PHASE_REST && r == 0; phase++)
		r = parse_pass(argc, argv, longs, shorts,
			       (enum parse_phase)phase, o, cause);
	if (r < 0)
		return r;
	if (optind < argc)
		return cause_set(cause, -EINVAL, "unexpected argument '%s'",
				 argv[optind]);
	if (o->strategy_count == 0)
		return cause_set(cause, -EINVAL,
				 "--strategy: no strategy is "
				 "available on this machine");
	r = check_hosts(o, cause);
	if (r == 0)
		r = check_rx(o, cause);
	if (r == 0)
		r = check_topology(&o->topo, cause);
	if (r == 0 && !o->load)
		r = options_resolve_events(o, cause);
	return r;
}

void options_usage(FILE *out)
{
	fprintf(out, "usage: nio-top [--batch] [options]\n\n"
		     "Explore what each Linux TCP copy strategy costs.\n\n");
	for (size_t i = 0; i < option_row_count; i++) {
		const struct option_row *row = &option_rows[i];
		char left[40], extra[96] = "";

		if (!row->name)
			continue;
		if (row->letter)
			snprintf(left, sizeof(left), "-%c, --%s%s%s",
				 row->letter, row->name, row->arg ? " " : "",
				 row->arg ? row->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", row->name,
				 row->arg ? " " : "", row->arg ? row->arg : "");
		if ((row->type == OPTION_UINT || row->type == OPTION_SECONDS ||
		     row->type == OPTION_NUMBER ||
		     row->type == OPTION_COUNTS) &&
		    row->max > 0)
			snprintf(extra, sizeof(extra), "%.15g .. %.15g",
				 row->min, row->max);
		else if (row->type == OPTION_SIZES)
			snprintf(extra, sizeof(extra), "64 .. 4M");
		if (row->def)
			snprintf(extra + strlen(extra),
				 sizeof(extra) - strlen(extra), "%sdefault %s",
				 extra[0] ? "; " : "", row->def);
		fprintf(out, "  %-26s %s%s%s%s\n", left, row->help,
			extra[0] ? " (" : "", extra, extra[0] ? ")" : "");
	}
	fprintf(out, "\nStrategies:");
	for (size_t i = 0; i < strategy_count(); i++)
		fprintf(out, " %s", strategy_at(i)->name);
	fprintf(out, "\n");
}

/* Presets and runs in JSON. */

static void add_warning(struct options *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_warning(struct options *o, const char *fmt, ...)
{
	char *line, *all;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (r < 0)
		return;
	if (asprintf(&all, "%s%s\n", o->warnings ? o->warnings : "", line) >=
	    0) {
		free(o->warnings);
		o->warnings = all;
	}
	free(line);
}

/* A JSON number within the row's range, or an error naming where. */
static int json_number(const struct option_row *row, const cJSON *v,
		       const char *where, bool integer, double *out,
		       char **cause)
{
	char range[64];
	double d;

	range_text(row, range, sizeof(range));
	if (!cJSON_IsNumber(v))
		return cause_set(cause, -EINVAL, "%s: must be %s %s", where,
				 integer ? "an integer" : "a number", range);
	d = v->valuedouble;
	if (!isfinite(d) || d < row->min || d > row->max ||
	    (integer && d != floor(d)))
		return cause_set(cause, -EINVAL, "%s: must be %s %s (not %s)",
				 where, integer ? "an integer" : "a number",
				 range,
				 v->valuestring ? v->valuestring : "this");
	*out = d;
	return 0;
}

/* Text from JSON through the command line's parser, its error wrapped. */
static int json_via_text(struct options *o, const struct option_row *row,
			 const cJSON *v, const char *where, char **cause)
{
	char *why = NULL;
	int r;

	if (!cJSON_IsString(v))
		return cause_set(cause, -EINVAL, "%s: must be text", where);
	r = set_text(o, row, v->valuestring, &why);
	if (r < 0) {
		cause_set(cause, -EINVAL, "%s: %s", where,
			  why ? why : "not valid");
		free(why);
	}
	return r;
}

/* One item of a list from JSON into slot i of the row's list in o. */
static int json_item(struct options *o, const struct option_row *row,
		     const cJSON *item, size_t i, const char *list_where,
		     const char *where, char **cause)
{
	char label[48], *why = NULL;
	size_t bytes;
	double d;
	int r;

	row_label(row, label, sizeof(label));
	switch (row->type) {
	case OPTION_SIZES:
		if (cJSON_IsString(item)) {
			r = units_parse_size(item->valuestring, &bytes);
			if (r == -EINVAL)
				return cause_set(
					cause, -EINVAL,
					"%s: %s: '%s' is not a size (bytes, "
					"or a number with K or M)",
					where, label, item->valuestring);
			if (r < 0)
				return cause_set(
					cause, -EINVAL,
					"%s: must be 64 .. 4194304 bytes "
					"(not %s)",
					where, item->valuestring);
		} else {
			r = json_number(row, item, where, true, &d, cause);
			if (r < 0)
				return r;
			bytes = (size_t)d;
		}
		((size_t *)at(o, row->offset))[i] = bytes;
		return 0;
	case OPTION_COUNTS:
		r = json_number(row, item, where, true, &d, cause);
		if (r == 0)
			((unsigned int *)at(o,
					    row->offset))[i] = (unsigned int)d;
		return r;
	case OPTION_STRATEGIES:
		if (!cJSON_IsString(item) || !item->valuestring[0])
			return cause_set(cause, -EINVAL, "%s: must be a name",
					 where);
		r = find_strategy(
			label, item->valuestring, o->viewing_only,
			&((const struct strategy_ops **)at(o, row->offset))[i],
			&why);
		if (r < 0) {
			cause_set(cause, -EINVAL, "%s: %s", list_where, why);
			free(why);
		}
		return r;
	case OPTION_EVENTS:
		if (!cJSON_IsString(item) || !item->valuestring[0] ||
		    strlen(item->valuestring) >= sizeof(o->events[0]))
			return cause_set(cause, -EINVAL, "%s: must be a name",
					 where);
		snprintf(o->events[i], sizeof(o->events[i]), "%s",
			 item->valuestring);
		return 0;
	case OPTION_CPUS: {
		struct cpu_list *cpus = at(o, row->offset);
		struct option_row cpu = *row;

		cpu.min = 0;
		cpu.max = CPU_SETSIZE - 1;
		r = json_number(&cpu, item, where, true, &d, cause);
		if (r == 0)
			cpus->cpu[i] = (uint16_t)d;
		return r;
	}
	default:
		return -EINVAL;
	}
}

/* A list from JSON. */
static int json_list(struct options *o, const struct option_row *row,
		     const cJSON *v, const char *where, char **cause)
{
	size_t least = row->type == OPTION_EVENTS || row->type == OPTION_CPUS
			       ? 0
			       : 1;
	size_t most = row->type == OPTION_EVENTS ? (size_t)row->max
		      : row->type == OPTION_CPUS ? SETTINGS_CPUS_MAX
						 : OPTIONS_LIST_MAX;
	const cJSON *item;
	size_t n = 0;

	if (!cJSON_IsArray(v))
		return cause_set(cause, -EINVAL, "%s: must be a list", where);
	if (row->type == OPTION_STRATEGIES && cJSON_GetArraySize(v) == 1 &&
	    cJSON_IsString(v->child) &&
	    strcmp(v->child->valuestring, "all") == 0) {
		strategies_all(o);
		return 0;
	}
	cJSON_ArrayForEach(item, v)
	{
		char item_where[160];
		int r;

		if (n == most)
			return cause_set(cause, -EINVAL,
					 "%s: more than %zu items", where,
					 most);
		snprintf(item_where, sizeof(item_where), "%s[%zu]", where, n);
		r = json_item(o, row, item, n, where, item_where, cause);
		if (r < 0)
			return r;
		n++;
	}
	if (n < least)
		return cause_set(cause, -EINVAL, "%s: must hold at least %zu",
				 where, least);
	if (row->type == OPTION_CPUS) {
		((struct cpu_list *)at(o, row->offset))->count = (unsigned int)
			n;
		return check_cpus(where, at(o, row->offset), cause);
	}
	*(size_t *)at(o, row->count_offset) = n;
	return 0;
}

/*
 * A list of choices from JSON: one name (as files before lists had it) or a
 * list of names, each once.
 */
static int set_choices_json(struct options *o, const struct option_row *row,
			    const cJSON *v, const char *where, char **cause)
{
	int list[OPTIONS_LIST_MAX];
	char choices[128], item_where[4400];
	const cJSON *item;
	size_t count = 0;

	choice_list(row->names, true, choices, sizeof(choices));
	if (cJSON_IsString(v)) {
		if (add_choice(row, where, v->valuestring, list, &count,
			       cause) < 0) {
			free(*cause);
			*cause = NULL;
			return cause_set(cause, -EINVAL,
					 "%s: must be one of %s, or a list "
					 "of them",
					 where, choices);
		}
	} else if (cJSON_IsArray(v)) {
		cJSON_ArrayForEach(item, v)
		{
			snprintf(item_where, sizeof(item_where), "%s[%zu]",
				 where, count);
			if (count == (size_t)row->max || !cJSON_IsString(item))
				return cause_set(cause, -EINVAL,
						 "%s: must be one of %s",
						 item_where, choices);
			if (add_choice(row, item_where, item->valuestring, list,
				       &count, cause) < 0)
				return -EINVAL;
		}
	}
	if (!count)
		return cause_set(cause, -EINVAL,
				 "%s: must be one of %s, or a list of them",
				 where, choices);
	memcpy(at(o, row->offset), list, count * sizeof(int));
	*(size_t *)at(o, row->count_offset) = count;
	return 0;
}

/* The value of row from JSON; where names it ("p.json: topology.mtu"). */
static int set_json(struct options *o, const struct option_row *row,
		    const cJSON *v, const char *where, char **cause)
{
	void *p = at(o, row->offset);
	char choices[128];
	double d;
	int r;

	switch (row->type) {
	case OPTION_BOOL:
		if (!cJSON_IsBool(v))
			return cause_set(cause, -EINVAL,
					 "%s: must be true or false", where);
		*(bool *)p = cJSON_IsTrue(v);
		return 0;
	case OPTION_UINT:
		r = json_number(row, v, where, true, &d, cause);
		if (r == 0)
			*(unsigned int *)p = (unsigned int)d;
		return r;
	case OPTION_SECONDS:
		r = json_number(row, v, where, false, &d, cause);
		if (r == 0)
			*(uint64_t *)p = (uint64_t)llround(d * 1000);
		if (r == 0 && row->min > 0 && *(uint64_t *)p == 0)
			return cause_set(cause, -EINVAL,
					 "%s: must be at least %g", where,
					 row->min);
		return r;
	case OPTION_NUMBER:
		return json_number(row, v, where, false, p, cause);
	case OPTION_RATE:
		if (cJSON_IsString(v))
			return json_via_text(o, row, v, where, cause);
		r = json_number(row, v, where, true, &d, cause);
		if (r == 0)
			*(uint64_t *)p = (uint64_t)d;
		return r;
	case OPTION_SIZES:
	case OPTION_COUNTS:
	case OPTION_STRATEGIES:
	case OPTION_EVENTS:
	case OPTION_CPUS:
		return json_list(o, row, v, where, cause);
	case OPTION_CHOICE:
		for (int i = 0; cJSON_IsString(v) && row->names[i]; i++) {
			if (strcmp(v->valuestring, row->names[i]) == 0) {
				*(int *)p = i;
				return 0;
			}
		}
		choice_list(row->names, true, choices, sizeof(choices));
		return cause_set(cause, -EINVAL, "%s: must be one of %s", where,
				 choices);
	case OPTION_CHOICES:
		return set_choices_json(o, row, v, where, cause);
	case OPTION_NAME:
	case OPTION_TEXT:
		if (!cJSON_IsString(v) || strlen(v->valuestring) < row->min ||
		    strlen(v->valuestring) > row->max)
			return cause_set(cause, -EINVAL,
					 "%s: must be text of %.0f .. %.0f "
					 "characters",
					 where, row->min, row->max);
		if (row->type == OPTION_NAME)
			return json_via_text(o, row, v, where, cause);
		snprintf(p, row->size, "%s", v->valuestring);
		return 0;
	case OPTION_SUBNET:
		return json_via_text(o, row, v, where, cause);
	default:
		return cause_set(cause, -EINVAL, "%s: not a preset key", where);
	}
}

/* Whether key is a group of keys ("topology", "ui"). */
static bool is_group(const char *key)
{
	size_t len = strlen(key);

	for (size_t i = 0; i < option_row_count; i++)
		if (option_rows[i].key &&
		    strncmp(option_rows[i].key, key, len) == 0 &&
		    option_rows[i].key[len] == '.')
			return true;
	return false;
}

static int preset_object(const cJSON *obj, const char *parent, const char *file,
			 struct options *o, char **cause)
{
	const cJSON *v;

	cJSON_ArrayForEach(v, obj)
	{
		char key[128], where[4300];
		const struct option_row *row;
		int r;

		snprintf(key, sizeof(key), "%s%s%s", parent ? parent : "",
			 parent ? "." : "", v->string);
		if (!parent &&
		    (strcmp(key, "format") == 0 || strcmp(key, "version") == 0))
			continue;
		snprintf(where, sizeof(where), "%s: %s", file, key);
		if (is_group(key)) {
			if (!cJSON_IsObject(v))
				return cause_set(cause, -EINVAL,
						 "%s: must be an object",
						 where);
			r = preset_object(v, key, file, o, cause);
			if (r < 0)
				return r;
			continue;
		}
		row = options_by_key(key);
		if (!row) {
			add_warning(o, "%s: unknown key, ignored", where);
			continue;
		}
		r = set_json(o, row, v, where, cause);
		if (r < 0)
			return r;
		o->given[row_index(row)] = true;
	}
	return 0;
}

int options_load_preset(struct options *o, const char *name, char **cause)
{
	const cJSON *preset;
	char where[4200];
	cJSON *root;
	int r;

	*cause = NULL;
	r = preset_read(name, !o->no_config, &root, &preset, where,
			sizeof(where), cause);
	if (r < 0)
		return r;
	r = options_from_preset(preset, where, o, cause);
	cJSON_Delete(root);
	return r;
}

int options_from_preset(const cJSON *root, const char *file, struct options *o,
			char **cause)
{
	const cJSON *format, *version;

	*cause = NULL;
	if (!cJSON_IsObject(root))
		return cause_set(cause, -EINVAL,
				 "%s: (top level): must be an object", file);
	format = cJSON_GetObjectItemCaseSensitive(root, "format");
	version = cJSON_GetObjectItemCaseSensitive(root, "version");
	if (!format)
		return cause_set(cause, -EINVAL,
				 "%s: format: missing (a preset starts with "
				 "\"format\": \"%s\")",
				 file, PRESET_FORMAT);
	if (!cJSON_IsString(format) ||
	    strcmp(format->valuestring, PRESET_FORMAT) != 0)
		return cause_set(cause, -EINVAL, "%s: format: must be \"%s\"",
				 file, PRESET_FORMAT);
	if (!version)
		return cause_set(cause, -EINVAL,
				 "%s: version: missing (must be %d)", file,
				 PRESET_VERSION);
	if (!cJSON_IsNumber(version) || version->valuedouble != PRESET_VERSION)
		return cause_set(cause, -EINVAL,
				 "%s: version: %s is not supported (this "
				 "nio-top reads version %d)",
				 file,
				 cJSON_IsNumber(version) && version->valuestring
					 ? version->valuestring
					 : "this",
				 PRESET_VERSION);
	return preset_object(root, NULL, file, o, cause);
}

/* Whether the row holds nothing: an unset optional value, written never. */
static bool row_empty(const struct options *o, const struct option_row *row)
{
	const void *p = at(o, row->offset);

	if (row->def)
		return false;
	switch (row->type) {
	case OPTION_UINT:
		return *(const unsigned int *)p == 0;
	case OPTION_RATE:
		return *(const uint64_t *)p == 0;
	case OPTION_NUMBER:
		return *(const double *)p == 0;
	case OPTION_TEXT:
	case OPTION_NAME:
		return !*(const char *)p;
	case OPTION_CPUS:
		return ((const struct cpu_list *)p)->count == 0;
	default:
		return false;
	}
}

static cJSON *cpus_json(const struct cpu_list *cpus)
{
	cJSON *list = cJSON_CreateArray();

	for (unsigned int i = 0; i < cpus->count; i++)
		cJSON_AddItemToArray(list, cJSON_CreateNumber(cpus->cpu[i]));
	return list;
}

/* The value of row in o as JSON. */
static cJSON *row_json(const struct options *o, const struct option_row *row)
{
	const void *p = at(o, row->offset);
	size_t n = row->count_offset ? *(const size_t *)at(o, row->count_offset)
				     : 0;
	char text[INET_ADDRSTRLEN + 4];
	cJSON *list;

	switch (row->type) {
	case OPTION_BOOL:
		return cJSON_CreateBool(*(const bool *)p);
	case OPTION_UINT:
		return cJSON_CreateNumber(*(const unsigned int *)p);
	case OPTION_SECONDS:
		return cJSON_CreateNumber((double)*(const uint64_t *)p / 1000);
	case OPTION_NUMBER:
		return cJSON_CreateNumber(*(const double *)p);
	case OPTION_RATE:
		return cJSON_CreateNumber((double)*(const uint64_t *)p);
	case OPTION_SIZES:
		list = cJSON_CreateArray();
		for (size_t i = 0; i < n; i++)
			cJSON_AddItemToArray(
				list, cJSON_CreateNumber(
					      (double)((const size_t *)p)[i]));
		return list;
	case OPTION_COUNTS:
		list = cJSON_CreateArray();
		for (size_t i = 0; i < n; i++)
			cJSON_AddItemToArray(
				list, cJSON_CreateNumber(
					      ((const unsigned int *)p)[i]));
		return list;
	case OPTION_STRATEGIES:
		list = cJSON_CreateArray();
		for (size_t i = 0; i < n; i++)
			cJSON_AddItemToArray(
				list,
				cJSON_CreateString(((
					const struct strategy_ops *const *)p)[i]
							   ->name));
		return list;
	case OPTION_EVENTS:
		list = cJSON_CreateArray();
		for (size_t i = 0; o->counters_enabled && i < o->event_count;
		     i++)
			cJSON_AddItemToArray(list,
					     cJSON_CreateString(o->events[i]));
		/* The default set, resolved: the names it has here. */
		for (unsigned int i = 0;
		     o->counters_enabled && !o->event_count &&
		     i < o->counters.count;
		     i++)
			cJSON_AddItemToArray(
				list,
				cJSON_CreateString(o->counters.event[i].name));
		return list;
	case OPTION_CPUS:
		return cpus_json(p);
	case OPTION_CHOICE:
		return cJSON_CreateString(row->names[*(const int *)p]);
	case OPTION_CHOICES:
		/* One is written as one name: presets older nio-tops read. */
		if (n == 1)
			return cJSON_CreateString(
				row->names[((const int *)p)[0]]);
		list = cJSON_CreateArray();
		for (size_t i = 0; i < n; i++)
			cJSON_AddItemToArray(
				list, cJSON_CreateString(
					      row->names[((const int *)p)[i]]));
		return list;
	case OPTION_NAME:
	case OPTION_TEXT:
		return cJSON_CreateString(p);
	case OPTION_SUBNET:
		inet_ntop(AF_INET, p, text, INET_ADDRSTRLEN);
		snprintf(text + strlen(text), 5, "/%u", o->topo.prefix);
		return cJSON_CreateString(text);
	default:
		return cJSON_CreateNull();
	}
}

/* The object that holds key's last part, made as needed. */
static cJSON *group_of(cJSON *root, const char *key, const char **last)
{
	const char *dot = strchr(key, '.');
	char group[64];
	cJSON *obj;

	*last = key;
	if (!dot)
		return root;
	snprintf(group, sizeof(group), "%.*s", (int)(dot - key), key);
	obj = cJSON_GetObjectItemCaseSensitive(root, group);
	if (!obj)
		obj = cJSON_AddObjectToObject(root, group);
	*last = dot + 1;
	return obj;
}

cJSON *options_to_preset(const struct options *o)
{
	cJSON *obj = cJSON_CreateObject();

	cJSON_AddStringToObject(obj, "format", PRESET_FORMAT);
	cJSON_AddNumberToObject(obj, "version", PRESET_VERSION);
	for (size_t i = 0; i < option_row_count; i++) {
		const struct option_row *row = &option_rows[i];
		const char *last;
		cJSON *group;

		if (!row->key || row_empty(o, row))
			continue;
		group = group_of(obj, row->key, &last);
		cJSON_AddItemToObject(group, last, row_json(o, row));
	}
	return obj;
}

static cJSON *schema_range(const char *type, double min, double max)
{
	cJSON *s = cJSON_CreateObject();

	cJSON_AddStringToObject(s, "type", type);
	cJSON_AddNumberToObject(s, "minimum", min);
	cJSON_AddNumberToObject(s, "maximum", max);
	return s;
}

static cJSON *schema_pattern(const char *pattern)
{
	cJSON *s = cJSON_CreateObject();

	cJSON_AddStringToObject(s, "type", "string");
	cJSON_AddStringToObject(s, "pattern", pattern);
	return s;
}

static cJSON *schema_array(cJSON *items, double least, double most)
{
	cJSON *s = cJSON_CreateObject();

	cJSON_AddStringToObject(s, "type", "array");
	cJSON_AddItemToObject(s, "items", items);
	cJSON_AddNumberToObject(s, "minItems", least);
	cJSON_AddNumberToObject(s, "maxItems", most);
	return s;
}

static cJSON *schema_one_of(cJSON *a, cJSON *b)
{
	cJSON *s = cJSON_CreateObject();
	cJSON *any = cJSON_AddArrayToObject(s, "oneOf");

	cJSON_AddItemToArray(any, a);
	cJSON_AddItemToArray(any, b);
	return s;
}

static cJSON *schema_enum(const char *const *names)
{
	cJSON *s = cJSON_CreateObject();
	cJSON *any = cJSON_AddArrayToObject(s, "enum");

	for (size_t i = 0; names[i]; i++)
		cJSON_AddItemToArray(any, cJSON_CreateString(names[i]));
	return s;
}

static cJSON *schema_of(const struct option_row *row)
{
	cJSON *s, *list;

	switch (row->type) {
	case OPTION_BOOL:
		s = cJSON_CreateObject();
		cJSON_AddStringToObject(s, "type", "boolean");
		break;
	case OPTION_UINT:
		s = schema_range("integer", row->min, row->max);
		break;
	case OPTION_SECONDS:
	case OPTION_NUMBER:
		s = schema_range("number", row->min, row->max);
		break;
	case OPTION_RATE:
		s = schema_one_of(schema_range("integer", row->min, row->max),
				  schema_pattern("^[0-9.]+[KkMmGg]?$"));
		break;
	case OPTION_SIZES:
		s = schema_array(
			schema_one_of(
				schema_range("integer", row->min, row->max),
				schema_pattern("^[0-9]+[KkMm]?$")),
			1, OPTIONS_LIST_MAX);
		break;
	case OPTION_COUNTS:
		s = schema_array(schema_range("integer", row->min, row->max), 1,
				 OPTIONS_LIST_MAX);
		break;
	case OPTION_STRATEGIES:
		s = schema_array(schema_pattern("^[^,]+$"), 1,
				 OPTIONS_LIST_MAX);
		break;
	case OPTION_EVENTS:
		s = schema_array(schema_pattern("^[^,]+$"), row->min, row->max);
		break;
	case OPTION_CPUS:
		s = schema_array(schema_range("integer", 0, CPU_SETSIZE - 1), 0,
				 SETTINGS_CPUS_MAX);
		break;
	case OPTION_CHOICE:
		s = schema_enum(row->names);
		break;
	case OPTION_CHOICES:
		list = schema_array(schema_enum(row->names), 1, row->max);
		cJSON_AddBoolToObject(list, "uniqueItems", true);
		s = schema_one_of(schema_enum(row->names), list);
		break;
	case OPTION_SUBNET:
		s = schema_pattern("^[0-9.]+/[0-9]+$");
		break;
	default:
		s = cJSON_CreateObject();
		cJSON_AddStringToObject(s, "type", "string");
		cJSON_AddNumberToObject(s, "minLength", row->min);
		cJSON_AddNumberToObject(s, "maxLength", row->max);
		if (row->type == OPTION_NAME)
			cJSON_AddStringToObject(
				s, "pattern", "^[A-Za-z0-9_-][A-Za-z0-9_.-]*$");
		break;
	}
	cJSON_AddStringToObject(s, "description", row->help);
	return s;
}

/* The properties object of an object schema, made as needed. */
static cJSON *schema_properties(cJSON *schema)
{
	cJSON *props = cJSON_GetObjectItemCaseSensitive(schema, "properties");

	return props ? props : cJSON_AddObjectToObject(schema, "properties");
}

cJSON *options_schema(void)
{
	cJSON *root = cJSON_CreateObject(), *props, *s;
	const char *required[] = {"format", "version"};

	cJSON_AddStringToObject(root, "$schema",
				"https://json-schema.org/draft/2020-12/schema");
	cJSON_AddStringToObject(root, "$id", "nio-top-preset.schema.json");
	cJSON_AddStringToObject(root, "title", "nio-top preset, version 1");
	cJSON_AddStringToObject(root, "type", "object");
	cJSON_AddItemToObject(root, "required",
			      cJSON_CreateStringArray(required, 2));
	props = schema_properties(root);
	s = cJSON_AddObjectToObject(props, "format");
	cJSON_AddStringToObject(s, "const", PRESET_FORMAT);
	cJSON_AddStringToObject(s, "description",
				"what the file is: \"" PRESET_FORMAT "\"");
	s = cJSON_AddObjectToObject(props, "version");
	cJSON_AddNumberToObject(s, "const", PRESET_VERSION);
	cJSON_AddStringToObject(s, "description",
				"the preset format's version: 1");
	for (size_t i = 0; i < option_row_count; i++) {
		const struct option_row *row = &option_rows[i];
		const char *dot = row->key ? strchr(row->key, '.') : NULL;
		cJSON *into = props;

		if (!row->key)
			continue;
		if (dot) {
			char group[64];
			cJSON *g;

			snprintf(group, sizeof(group), "%.*s",
				 (int)(dot - row->key), row->key);
			g = cJSON_GetObjectItemCaseSensitive(props, group);
			if (!g) {
				g = cJSON_AddObjectToObject(props, group);
				cJSON_AddStringToObject(g, "type", "object");
			}
			into = schema_properties(g);
		}
		cJSON_AddItemToObject(into, dot ? dot + 1 : row->key,
				      schema_of(row));
	}
	return root;
}

/* What the groups of preset keys are, for the manual. */
static const struct {
	const char *key;
	const char *doc;
} option_groups[] = {
	{"topology", "The network the flows run over."},
	{"ui", "The screen."},
};

/* A range for people: "64 .. 4M", "8K .. 17.2G", "1 .. 64". */
static void man_range(const struct option_row *row, char *out, size_t size)
{
	char lo[32], hi[32];

	if (row->type == OPTION_SIZES) {
		units_format_size((size_t)row->min, lo, sizeof(lo));
		units_format_size((size_t)row->max, hi, sizeof(hi));
	} else if (row->type == OPTION_RATE) {
		units_format_rate((uint64_t)row->min, lo, sizeof(lo));
		units_format_rate((uint64_t)row->max, hi, sizeof(hi));
	} else {
		snprintf(lo, sizeof(lo), "%.15g", row->min);
		snprintf(hi, sizeof(hi), "%.15g", row->max);
	}
	snprintf(out, size, "%s to %s", lo, hi);
}

/* What a row's value is, in a sentence of mdoc. */
static void man_type(FILE *out, const struct option_row *row)
{
	char range[96], list[256];

	man_range(row, range, sizeof(range));
	switch (row->type) {
	case OPTION_BOOL:
		fprintf(out, ".Cm true No or Cm false .\n");
		break;
	case OPTION_UINT:
		fprintf(out, "An integer, %s.\n", range);
		break;
	case OPTION_SECONDS:
		fprintf(out, "A number of seconds, %s.\n", range);
		break;
	case OPTION_NUMBER:
		fprintf(out, "A number, %s.\n", range);
		break;
	case OPTION_RATE:
		fprintf(out,
			"Bits per second, %s: a number, or text such as\n"
			".Qq 1G .\n",
			range);
		break;
	case OPTION_SIZES:
		fprintf(out,
			"A list of sizes, each %s: bytes, or text such as\n"
			".Qq 16K .\n",
			range);
		break;
	case OPTION_COUNTS:
		fprintf(out, "A list of integers, each %s.\n", range);
		break;
	case OPTION_STRATEGIES:
		strategy_list(list, sizeof(list));
		fprintf(out,
			"A list of strategy names\n.Pq %s ,\nor\n.Qq all .\n",
			list);
		break;
	case OPTION_EVENTS:
		fprintf(out,
			"A list of at most %.0f perf event names libpfm4 "
			"knows; "
			"an empty list counts none.\n",
			row->max);
		break;
	case OPTION_CPUS:
		fprintf(out, "A list of CPU numbers; an empty list pins "
			     "nothing.\n");
		break;
	case OPTION_CHOICE:
		fprintf(out, "One of\n");
		for (size_t i = 0; row->names[i]; i++)
			fprintf(out, "%s.Qq %s%s\n",
				i && !row->names[i + 1] ? "or\n" : "",
				row->names[i],
				!row->names[i + 1]  ? " ."
				: row->names[i + 2] ? " ,"
						    : "");
		break;
	case OPTION_SUBNET:
		fprintf(out, "An IPv4 subnet, /8 to /30, such as\n.Qq %s .\n",
			row->def);
		break;
	case OPTION_NAME:
		fprintf(out,
			"A name of %.0f to %.0f letters, digits, _ . and -, "
			"not starting with a dot.\n",
			row->min, row->max);
		break;
	default:
		fprintf(out, "Text of %.0f to %.0f characters.\n", row->min,
			row->max);
		break;
	}
	if (row->def)
		fprintf(out, "Default\n.Li %s .\n", row->def);
}

void options_man_keys(FILE *out)
{
	const char *group = "";

	fprintf(out,
		".It Li format\nWhat the file is: always\n"
		".Qq %s .\n.It Li version\nThe format's version: always "
		"%d.\n",
		PRESET_FORMAT, PRESET_VERSION);
	for (size_t i = 0; i < option_row_count; i++) {
		const struct option_row *row = &option_rows[i];
		const char *dot = row->key ? strchr(row->key, '.') : NULL;

		if (!row->key)
			continue;
		if (dot && strncmp(group, row->key, (size_t)(dot - row->key))) {
			for (size_t g = 0;
			     g < sizeof(option_groups) / sizeof(*option_groups);
			     g++) {
				if (strncmp(option_groups[g].key, row->key,
					    (size_t)(dot - row->key)) != 0)
					continue;
				group = option_groups[g].key;
				fprintf(out, ".It Li %s\n%s\n", group,
					option_groups[g].doc);
			}
		}
		fprintf(out, ".It Li %s\n%c%s.\n", row->key,
			toupper((unsigned char)row->help[0]), row->help + 1);
		man_type(out, row);
	}
}

/* A run's configuration: its point and settings, through the same rows. */

/* Reads a run's value of row from JSON into the run config c. */
static int run_value(const struct option_row *row, const cJSON *v,
		     const char *where, bool viewing, struct run_config *c,
		     char **cause)
{
	struct options scratch;
	void *p = at(c, row->run_offset);
	double d;
	int r;

	switch (row->type) {
	case OPTION_STRATEGIES:
		if (!cJSON_IsString(v))
			return cause_set(cause, -EINVAL, "%s: must be a name",
					 where);
		return find_strategy(where, v->valuestring, viewing, p, cause);
	case OPTION_SIZES:
		/* A run holds bytes. */
		if (!cJSON_IsNumber(v))
			return cause_set(cause, -EINVAL,
					 "%s: must be a non-negative integer",
					 where);
		r = json_number(row, v, where, true, &d, cause);
		if (r == 0)
			*(size_t *)p = (size_t)d;
		return r;
	case OPTION_COUNTS:
		r = json_number(row, v, where, true, &d, cause);
		if (r == 0)
			*(unsigned int *)p = (unsigned int)d;
		return r;
	case OPTION_SECONDS:
		/* In a run, 0 means until stopped (a paced or endless run). */
		if (cJSON_IsNumber(v) && v->valuedouble == 0) {
			*(uint64_t *)p = 0;
			return 0;
		}
		break;
	default:
		break;
	}
	/* The rest as a preset would read them, into a scratch options. */
	memset(&scratch, 0, sizeof(scratch));
	scratch.viewing_only = viewing;
	r = set_json(&scratch, row, v, where, cause);
	if (r < 0)
		return r;
	switch (row->type) {
	case OPTION_BOOL:
		*(bool *)p = *(bool *)at(&scratch, row->offset);
		break;
	case OPTION_UINT:
	case OPTION_CHOICE:
		memcpy(p, at(&scratch, row->offset), sizeof(int));
		break;
	case OPTION_CHOICES:
		/* A run has one. */
		if (*(size_t *)at(&scratch, row->count_offset) != 1)
			return cause_set(cause, -EINVAL, "%s: must be one name",
					 where);
		memcpy(p, at(&scratch, row->offset), sizeof(int));
		break;
	case OPTION_SECONDS:
		*(uint64_t *)p = *(uint64_t *)at(&scratch, row->offset);
		break;
	case OPTION_CPUS:
		*(struct cpu_list *)p = *(struct cpu_list *)at(&scratch,
							       row->offset);
		break;
	default:
		return cause_set(cause, -EINVAL, "%s: not a run setting",
				 where);
	}
	return 0;
}

void options_run_to_json(const struct run_config *c, cJSON *into)
{
	cJSON *events;

	for (size_t i = 0; i < option_row_count; i++) {
		const struct option_row *row = &option_rows[i];
		const void *p = at(c, row->run_offset);
		cJSON *v;

		if (!(row->flags & OPTION_RUN))
			continue;
		switch (row->type) {
		case OPTION_STRATEGIES:
			v = cJSON_CreateString(
				(*(const struct strategy_ops *const *)p)->name);
			break;
		case OPTION_SIZES:
			v = jsonfile_u64_item(*(const size_t *)p);
			break;
		case OPTION_COUNTS:
		case OPTION_UINT:
			v = cJSON_CreateNumber(*(const unsigned int *)p);
			break;
		case OPTION_SECONDS:
			v = cJSON_CreateNumber((double)*(const uint64_t *)p /
					       1000);
			break;
		case OPTION_BOOL:
			v = cJSON_CreateBool(*(const bool *)p);
			break;
		case OPTION_CHOICE:
		case OPTION_CHOICES:
			v = cJSON_CreateString(row->names[*(const int *)p]);
			break;
		case OPTION_CPUS:
			v = cpus_json(p);
			break;
		default:
			v = cJSON_CreateNull();
		}
		cJSON_AddItemToObject(into, row->run_key, v);
	}
	cJSON_AddNumberToObject(into, "round", c->round);
	events = cJSON_AddArrayToObject(into, "events");
	for (unsigned int i = 0; c->counters && i < c->counters->count; i++)
		cJSON_AddItemToArray(
			events, cJSON_CreateString(c->counters->event[i].name));
}

int options_run_from_json(const cJSON *from, const char *path,
			  enum codec_mode mode, bool viewing,
			  struct run_config *c, char events[][48],
			  unsigned int *event_count, char **cause)
{
	const cJSON *item;
	char where[256];
	uint64_t round;

	*cause = NULL;
	if (!cJSON_IsObject(from))
		return cause_set(cause, -EINVAL, "%s: must be an object", path);
	for (size_t i = 0; i < option_row_count; i++) {
		const struct option_row *row = &option_rows[i];

		if (!(row->flags & OPTION_RUN))
			continue;
		snprintf(where, sizeof(where), "%s.%s", path, row->run_key);
		item = cJSON_GetObjectItemCaseSensitive(from, row->run_key);
		if (!item) {
			/* A file older than the setting keeps the session's. */
			if (mode == CODEC_FILE)
				continue;
			return cause_set(cause, -EINVAL, "%s: missing", where);
		}
		if (run_value(row, item, where, viewing, c, cause) < 0)
			return -EINVAL;
	}
	item = cJSON_GetObjectItemCaseSensitive(from, "round");
	if (jsonfile_u64(item, &round) < 0 || round < 1 || round > UINT32_MAX)
		return cause_set(cause, -EINVAL,
				 "%s.round: must be an integer 1 .. %u", path,
				 UINT32_MAX);
	c->round = (unsigned int)round;
	*event_count = 0;
	item = cJSON_GetObjectItemCaseSensitive(from, "events");
	snprintf(where, sizeof(where), "%s.events", path);
	if (item || mode == CODEC_STRICT) {
		const cJSON *name;

		if (!cJSON_IsArray(item) ||
		    cJSON_GetArraySize(item) > COUNTERS_MAX)
			return cause_set(cause, -EINVAL,
					 "%s: must be a list of at most %d "
					 "names",
					 where, COUNTERS_MAX);
		cJSON_ArrayForEach(name, item)
		{
			if (!cJSON_IsString(name) || !name->valuestring[0] ||
			    strlen(name->valuestring) >= 48)
				return cause_set(cause, -EINVAL,
						 "%s[%u]: must be an event "
						 "name",
						 where, *event_count);
			snprintf(events[(*event_count)++], 48, "%s",
				 name->valuestring);
		}
	}
	if (mode == CODEC_STRICT) {
		cJSON_ArrayForEach(item, from)
		{
			const struct option_row *row = NULL;

			for (size_t i = 0; i < option_row_count && !row; i++)
				if (option_rows[i].run_key &&
				    strcmp(option_rows[i].run_key,
					   item->string) == 0)
					row = &option_rows[i];
			if (!row && strcmp(item->string, "round") != 0 &&
			    strcmp(item->string, "events") != 0)
				return cause_set(cause, -EINVAL,
						 "%s.%s: not a key of a run",
						 path, item->string);
		}
	}
	return 0;
}
