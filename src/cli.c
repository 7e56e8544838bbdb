/*
 * Command-line parsing.  The option table is the single source for getopt's
 * long options, the short-option string and the --help text.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "message.h"
#include "preset.h"
#include "proto.h"

enum {
	OPT_BATCH = 256,
	OPT_VERIFY,
	OPT_LIST_STRATEGIES,
	OPT_TOPOLOGY,
	OPT_SUBNET,
	OPT_MTU,
	OPT_RATE,
	OPT_DELAY,
	OPT_LOSS,
	OPT_KEEP_NETNS,
	OPT_SLOTS,
	OPT_URING_DEPTH,
	OPT_URING_FIXED,
	OPT_EVENTS,
	OPT_NO_COUNTERS,
	OPT_CHECK,
	OPT_REFRESH,
	OPT_THEME,
	OPT_MODE,
	OPT_REPEAT,
	OPT_LOAD,
	OPT_CSV,
	OPT_SVG,
	OPT_SERVE,
	OPT_LISTEN,
	OPT_PORT,
	OPT_CONNECT,
	OPT_AUTH_FILE,
	OPT_REVERSE,
	OPT_MAX_MEMORY,
	OPT_MAX_THREADS,
	OPT_MAX_SLOTS,
	OPT_MAX_DURATION,
};

struct cli_option {
	const char *name;
	int key; /* the short option letter, or an OPT_ value */
	const char *arg;
	const char *help;
};

static const struct cli_option cli_options[] = {
	{"batch", OPT_BATCH, NULL,
	 "run every combination headless, print a table, exit"},
	{"preset", 'p', "NAME|FILE",
	 "start from a preset (a name in the presets folder, a file, or an "
	 "export); options given too override it"},
	{"strategy", 's', "LIST",
	 "strategies, comma-separated, or \"all\" (default all)"},
	{"msg-size", 'm', "LIST",
	 "message sizes in bytes, K or M suffix, 64 .. 4M (default 16K)"},
	{"threads", 't', "LIST", "flows per run, 1 .. 64 (default 1)"},
	{"mode", OPT_MODE, "MODE",
	 "stream (throughput) or rr (one request, one answer: round-trip "
	 "latency) (default stream)"},
	{"duration", 'd', "SEC",
	 "measured seconds per run, fractions allowed (default 5)"},
	{"warmup", 'w', "SEC",
	 "seconds run first and left out of the summary (default 0.5)"},
	{"repeat", OPT_REPEAT, "N",
	 "run each combination N times, interleaved; report the median and "
	 "spread, 1 .. 100 (default 1)"},
	{"verify", OPT_VERIFY, NULL,
	 "fill and check every message; count corrupt ones"},
	{"output", 'o', "FILE", "write every run as JSON (atomically)"},
	{"csv", OPT_CSV, "FILE", "also write one CSV row per run"},
	{"svg", OPT_SVG, "FILE",
	 "also write charts of the runs as SVG (throughput, latency)"},
	{"load", OPT_LOAD, "FILE",
	 "open a saved export (runs, charts, analysis) instead of running"},
	{"topology", OPT_TOPOLOGY, "KIND",
	 "veth (two namespaces joined by a veth pair), loopback (one "
	 "private namespace), current, or remote (another host: "
	 "--connect) (default veth)"},
	{"subnet", OPT_SUBNET, "CIDR",
	 "IPv4 subnet of the veth, /8 .. /30 (default 198.18.0.0/30)"},
	{"mtu", OPT_MTU, "N", "MTU of the veth pair, 68 .. 65535"},
	{"rate", OPT_RATE, "RATE",
	 "shape the senders' side with tbf: bit/s, K, M or G (e.g. 1G)"},
	{"delay", OPT_DELAY, "MS",
	 "netem delay on the senders' side, ms (needs sch_netem)"},
	{"loss", OPT_LOSS, "PCT",
	 "netem loss on the senders' side, % (needs sch_netem)"},
	{"keep-netns", OPT_KEEP_NETNS, "PREFIX",
	 "also name the namespaces PREFIX-srv and PREFIX-cli in /run/netns"},
	{"serve", OPT_SERVE, NULL,
	 "run as an agent for a client on another host (nio-top --connect): "
	 "one client at a time, until interrupted"},
	{"listen", OPT_LISTEN, "ADDR",
	 "--serve: the IPv4 address to listen on (default all)"},
	{"port", OPT_PORT, "PORT",
	 "--serve: the control port, 1 .. 65535 (default 5310)"},
	{"connect", OPT_CONNECT, "HOST[:PORT]",
	 "run the senders here and the receivers on the agent at HOST "
	 "(--topology remote)"},
	{"reverse", OPT_REVERSE, NULL,
	 "--connect: the agent runs the senders, this host the receivers"},
	{"auth-file", OPT_AUTH_FILE, "FILE",
	 "the shared secret (the file's first line) an agent requires and a "
	 "client gives"},
	{"max-memory", OPT_MAX_MEMORY, "SIZE",
	 "--serve: the message buffers one run may allocate here, K, M or G "
	 "(default a quarter of this machine's memory)"},
	{"max-threads", OPT_MAX_THREADS, "N",
	 "--serve: the most flows a run may have, 1 .. 64 (default 64)"},
	{"max-slots", OPT_MAX_SLOTS, "N",
	 "--serve: the most zero-copy slots per flow, 1 .. 4096 (default "
	 "4096)"},
	{"max-duration", OPT_MAX_DURATION, "SEC",
	 "--serve: the longest a run may last, warm-up included (default "
	 "86400)"},
	{"slots", OPT_SLOTS, "N",
	 "message slots per zero-copy sender, 1 .. 4096 (default 16)"},
	{"uring-depth", OPT_URING_DEPTH, "N",
	 "messages per io_uring submission, 1 .. 256 (default 8)"},
	{"uring-fixed", OPT_URING_FIXED, NULL,
	 "uring-zc sends from registered buffers (SEND_ZC per field)"},
	{"events", OPT_EVENTS, "LIST",
	 "perf events (libpfm4 names) counted per thread, replacing the "
	 "default set"},
	{"no-counters", OPT_NO_COUNTERS, NULL, "count no perf events"},
	{"refresh", OPT_REFRESH, "MS",
	 "redraw the screen every MS milliseconds, 20 .. 10000 (default "
	 "100)"},
	{"theme", OPT_THEME, "NAME",
	 "colour theme of the screen, a file in the themes folder (default "
	 "\"default\")"},
	{"list-strategies", OPT_LIST_STRATEGIES, NULL,
	 "list the strategies and whether this machine can run them"},
	{"check", OPT_CHECK, NULL,
	 "print what this machine supports, and exit"},
	{"help", 'h', NULL, "show this help"},
	{"version", 'V', NULL, "show the version"},
};

#define CLI_OPTION_COUNT (sizeof(cli_options) / sizeof(cli_options[0]))

static int cli_error(char **cause, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int cli_error(char **cause, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(cause, fmt, ap) < 0)
		*cause = NULL;
	va_end(ap);
	return -EINVAL;
}

void cli_usage(FILE *out)
{
	fprintf(out, "usage: nio-top [--batch] [options]\n\n"
		     "Explore what each Linux TCP copy strategy costs.\n\n");
	for (size_t i = 0; i < CLI_OPTION_COUNT; i++) {
		const struct cli_option *o = &cli_options[i];
		char left[40];

		if (o->key < 256)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", o->key,
				 o->name, o->arg ? " " : "",
				 o->arg ? o->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", o->name,
				 o->arg ? " " : "", o->arg ? o->arg : "");
		fprintf(out, "  %-26s %s\n", left, o->help);
	}
	fprintf(out, "\nStrategies:");
	for (size_t i = 0; i < strategy_count(); i++)
		fprintf(out, " %s", strategy_at(i)->name);
	fprintf(out, "\n");
}

int cli_parse_size(const char *text, size_t *bytes)
{
	unsigned long long value, scale = 1;
	char *end;

	/* strto*() would skip white space and take a sign. */
	if (!isdigit((unsigned char)text[0]))
		return -EINVAL;
	errno = 0;
	value = strtoull(text, &end, 10);
	if (end == text || errno)
		return -EINVAL;
	if (*end == 'K' || *end == 'k')
		scale = 1024;
	else if (*end == 'M' || *end == 'm')
		scale = 1024 * 1024;
	if (scale != 1)
		end++;
	if (*end)
		return -EINVAL;
	if (value > MESSAGE_SIZE_MAX / scale + 1)
		return -ERANGE;
	value *= scale;
	if (value < MESSAGE_SIZE_MIN || value > MESSAGE_SIZE_MAX)
		return -ERANGE;
	*bytes = (size_t)value;
	return 0;
}

void cli_format_size(size_t bytes, char *out, size_t size)
{
	if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0)
		snprintf(out, size, "%zuM", bytes / (1024 * 1024));
	else if (bytes >= 1024 && bytes % 1024 == 0)
		snprintf(out, size, "%zuK", bytes / 1024);
	else
		snprintf(out, size, "%zu", bytes);
}

int cli_parse_bytes(const char *text, uint64_t *bytes)
{
	unsigned long long value, scale = 1;
	char *end;

	/* strto*() would skip white space and take a sign. */
	if (!isdigit((unsigned char)text[0]))
		return -EINVAL;
	errno = 0;
	value = strtoull(text, &end, 10);
	if (end == text || errno)
		return -EINVAL;
	if (*end == 'K' || *end == 'k')
		scale = 1ull << 10;
	else if (*end == 'M' || *end == 'm')
		scale = 1ull << 20;
	else if (*end == 'G' || *end == 'g')
		scale = 1ull << 30;
	else if (*end == 'T' || *end == 't')
		scale = 1ull << 40;
	if (scale != 1)
		end++;
	if (*end)
		return -EINVAL;
	if (value == 0 || value > UINT64_MAX / scale)
		return -ERANGE;
	*bytes = value * scale;
	return 0;
}

static int parse_uint(const char *text, unsigned long min, unsigned long max,
		      unsigned long *value)
{
	char *end;

	/* strto*() would skip white space and take a sign. */
	if (!isdigit((unsigned char)text[0]))
		return -EINVAL;
	errno = 0;
	*value = strtoul(text, &end, 10);
	if (end == text || *end || errno)
		return -EINVAL;
	return *value < min || *value > max ? -ERANGE : 0;
}

int cli_parse_rate(const char *text, uint64_t *bits_per_s)
{
	double value, scale = 1;
	char *end;

	/* strto*() would skip white space and take a sign. */
	if (!isdigit((unsigned char)text[0]))
		return -EINVAL;
	errno = 0;
	value = strtod(text, &end);
	if (end == text || errno || !isfinite(value))
		return -EINVAL;
	if (*end == 'K' || *end == 'k')
		scale = 1e3;
	else if (*end == 'M' || *end == 'm')
		scale = 1e6;
	else if (*end == 'G' || *end == 'g')
		scale = 1e9;
	if (scale != 1)
		end++;
	if (*end)
		return -EINVAL;
	value *= scale;
	if (value < (double)TOPO_RATE_MIN_BPS ||
	    value > (double)TOPO_RATE_MAX_BPS)
		return -ERANGE;
	*bits_per_s = (uint64_t)value;
	return 0;
}

static int parse_number(const char *text, double min, double max, double *value)
{
	char *end;

	errno = 0;
	*value = strtod(text, &end);
	if (end == text || *end || errno || !isfinite(*value))
		return -EINVAL;
	return *value < min || *value > max ? -ERANGE : 0;
}

/* A name that is safe as a file name: [A-Za-z0-9_.-], not starting with '.'. */
static bool name_valid(const char *name, size_t max)
{
	size_t len = strlen(name);

	return len > 0 && len <= max &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") == len &&
	       name[0] != '.';
}

static int parse_seconds(const char *text, double min, double max, bool zero_ok,
			 uint64_t *ms)
{
	char *end;
	double s;

	errno = 0;
	s = strtod(text, &end);
	if (end == text || *end || errno || !isfinite(s))
		return -EINVAL;
	if (s < min || s > max || (!zero_ok && s <= 0))
		return -ERANGE;
	*ms = (uint64_t)llround(s * 1000);
	if (!zero_ok && *ms == 0)
		return -ERANGE;
	return 0;
}

static bool list_has_empty_item(const char *list)
{
	return !list[0] || list[0] == ',' || list[strlen(list) - 1] == ',' ||
	       strstr(list, ",,");
}

/* Splits a comma list and hands each item to fn; an empty item is an error. */
static int for_each_item(const char *list,
			 int (*fn)(const char *item, struct options *opts,
				   char **cause),
			 struct options *opts, const char *option, char **cause)
{
	char *copy = strdup(list);
	char *save = NULL;
	int r = 0;

	if (!copy)
		return -ENOMEM;
	if (list_has_empty_item(list)) {
		free(copy);
		return cli_error(cause, "--%s: '%s' has an empty item", option,
				 list);
	}
	for (char *item = strtok_r(copy, ",", &save); item && r == 0;
	     item = strtok_r(NULL, ",", &save))
		r = fn(item, opts, cause);
	free(copy);
	return r;
}

static int add_strategy(const char *name, struct options *opts, char **cause)
{
	const struct strategy_ops *ops = strategy_find(name);
	char *why;

	if (strcmp(name, "all") == 0) {
		for (size_t i = 0; i < strategy_count(); i++) {
			ops = strategy_at(i);
			if (strategy_probe(ops, &why) == 0 &&
			    opts->strategy_count < CLI_LIST_MAX)
				opts->strategies[opts->strategy_count++] = ops;
			free(why);
		}
		return 0;
	}
	if (!ops) {
		char known[256] = "";

		for (size_t i = 0; i < strategy_count(); i++) {
			strcat(known, i ? ", " : "");
			strcat(known, strategy_at(i)->name);
		}
		return cli_error(cause,
				 "--strategy: '%s' is not a strategy (%s, all)",
				 name, known);
	}
	if (!opts->viewing_only && strategy_probe(ops, &why) < 0) {
		int r = cli_error(cause,
				  "--strategy: '%s' is unavailable here: %s",
				  name, why ? why : "probe failed");

		free(why);
		return r;
	}
	if (opts->strategy_count == CLI_LIST_MAX)
		return cli_error(cause, "--strategy: too many strategies");
	opts->strategies[opts->strategy_count++] = ops;
	return 0;
}

static int add_size(const char *text, struct options *opts, char **cause)
{
	size_t bytes;
	int r = cli_parse_size(text, &bytes);

	if (r == -EINVAL)
		return cli_error(cause,
				 "--msg-size: '%s' is not a size (bytes, or "
				 "a number with K or M)",
				 text);
	if (r == -ERANGE)
		return cli_error(cause,
				 "--msg-size: '%s' is out of range (64 .. 4M)",
				 text);
	if (opts->msg_size_count == CLI_LIST_MAX)
		return cli_error(cause, "--msg-size: more than %d sizes",
				 CLI_LIST_MAX);
	opts->msg_sizes[opts->msg_size_count++] = bytes;
	return 0;
}

static int add_threads(const char *text, struct options *opts, char **cause)
{
	unsigned long n;

	if (parse_uint(text, 1, CLI_THREADS_MAX, &n) < 0)
		return cli_error(cause,
				 "--threads: '%s' is not a thread count "
				 "(1 .. %d)",
				 text, CLI_THREADS_MAX);
	if (opts->thread_count == CLI_LIST_MAX)
		return cli_error(cause, "--threads: more than %d counts",
				 CLI_LIST_MAX);
	opts->threads[opts->thread_count++] = (unsigned int)n;
	return 0;
}

static int parse_events(const char *list, struct options *opts, char **cause)
{
	const char *names[COUNTERS_MAX];
	unsigned int count = 0;
	char *copy, *save = NULL;
	int r;

	if (list_has_empty_item(list))
		return cli_error(cause, "--events: '%s' has an empty item",
				 list);
	copy = strdup(list);
	if (!copy)
		return -ENOMEM;
	for (char *item = strtok_r(copy, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		if (count == COUNTERS_MAX) {
			free(copy);
			return cli_error(cause, "--events: more than %d events",
					 COUNTERS_MAX);
		}
		names[count++] = item;
	}
	r = counters_resolve(names, count, &opts->counters, cause);
	free(copy);
	if (r == 0)
		opts->counters_enabled = true;
	return r;
}

static int cli_apply(int key, const char *arg, struct options *opts,
		     char **cause)
{
	unsigned long n;
	double value;

	switch (key) {
	case OPT_BATCH:
		opts->batch = true;
		return 0;
	case 's':
		opts->strategies_given = true;
		opts->strategy_count = 0;
		return for_each_item(arg, add_strategy, opts, "strategy",
				     cause);
	case 'm':
		opts->sizes_given = true;
		opts->msg_size_count = 0;
		return for_each_item(arg, add_size, opts, "msg-size", cause);
	case 't':
		opts->threads_given = true;
		opts->thread_count = 0;
		return for_each_item(arg, add_threads, opts, "threads", cause);
	case 'd':
		if (parse_seconds(arg, 0.001, 86400, false,
				  &opts->duration_ms) < 0)
			return cli_error(cause,
					 "--duration: '%s' is not a duration "
					 "(seconds, 0.001 .. 86400)",
					 arg);
		opts->duration_given = true;
		return 0;
	case 'w':
		if (parse_seconds(arg, 0, 3600, true, &opts->warmup_ms) < 0)
			return cli_error(cause,
					 "--warmup: '%s' is not a warm-up "
					 "(seconds, 0 .. 3600)",
					 arg);
		return 0;
	case 'p':
		return 0; /* applied first, by cli_parse */
	case OPT_REPEAT:
		if (parse_uint(arg, 1, 100, &n) < 0)
			return cli_error(cause,
					 "--repeat: '%s' is not a count "
					 "(1 .. 100)",
					 arg);
		opts->repeat = (unsigned int)n;
		return 0;
	case OPT_LOAD:
	case OPT_CSV:
	case OPT_SVG:
		if (!arg[0])
			return cli_error(cause, "--%s: empty file name",
					 key == OPT_LOAD  ? "load"
					 : key == OPT_CSV ? "csv"
							  : "svg");
		*(key == OPT_LOAD  ? &opts->load
		  : key == OPT_CSV ? &opts->csv
				   : &opts->svg) = arg;
		return 0;
	case OPT_MODE:
		if (run_mode_parse(arg, &opts->mode) < 0)
			return cli_error(cause,
					 "--mode: '%s' is not a mode (stream, "
					 "rr)",
					 arg);
		return 0;
	case OPT_VERIFY:
		opts->verify = true;
		return 0;
	case 'o':
		if (!arg[0])
			return cli_error(cause, "--output: empty file name");
		opts->output = arg;
		return 0;
	case OPT_TOPOLOGY:
		if (topo_kind_parse(arg, &opts->topo.kind) < 0)
			return cli_error(cause,
					 "--topology: '%s' is not a topology "
					 "(%s)",
					 arg, topo_kind_list());
		return 0;
	case OPT_SUBNET:
		if (topo_subnet_parse(arg, &opts->topo.subnet,
				      &opts->topo.prefix) < 0)
			return cli_error(cause,
					 "--subnet: '%s' is not an IPv4 subnet "
					 "(a.b.c.d/8 .. /30, host bits zero)",
					 arg);
		return 0;
	case OPT_MTU:
		if (parse_uint(arg, TOPO_MTU_MIN, TOPO_MTU_MAX, &n) < 0)
			return cli_error(cause,
					 "--mtu: '%s' is not an MTU (%d .. %d)",
					 arg, TOPO_MTU_MIN, TOPO_MTU_MAX);
		opts->topo.mtu = (unsigned int)n;
		return 0;
	case OPT_RATE:
		if (cli_parse_rate(arg, &opts->topo.rate_bps) < 0)
			return cli_error(cause,
					 "--rate: '%s' is not a rate (bit/s "
					 "with K, M or G, 8K .. 17G)",
					 arg);
		return 0;
	case OPT_DELAY:
		if (parse_number(arg, 0, 10000, &value) < 0)
			return cli_error(cause,
					 "--delay: '%s' is not a delay "
					 "(milliseconds, 0 .. 10000)",
					 arg);
		opts->topo.delay_us = (unsigned int)llround(value * 1000);
		return 0;
	case OPT_LOSS:
		if (parse_number(arg, 0, 100, &opts->topo.loss_pct) < 0)
			return cli_error(cause,
					 "--loss: '%s' is not a percentage "
					 "(0 .. 100)",
					 arg);
		return 0;
	case OPT_SERVE:
		opts->serve = true;
		return 0;
	case OPT_LISTEN:
		opts->listen = arg;
		return 0;
	case OPT_PORT:
		if (parse_uint(arg, 1, 65535, &n) < 0)
			return cli_error(cause,
					 "--port: '%s' is not a port "
					 "(1 .. 65535)",
					 arg);
		opts->port = n;
		return 0;
	case OPT_CONNECT:
		if (!arg[0])
			return cli_error(cause, "--connect: names no host");
		opts->connect = arg;
		opts->topo.kind = TOPO_REMOTE;
		opts->topo.peer = arg;
		return 0;
	case OPT_REVERSE:
		opts->reverse = true;
		return 0;
	case OPT_AUTH_FILE:
		opts->auth_file = arg;
		opts->topo.auth_file = arg;
		return 0;
	case OPT_MAX_MEMORY:
		if (cli_parse_bytes(arg, &opts->max_memory) < 0)
			return cli_error(cause,
					 "--max-memory: '%s' is not a size "
					 "(bytes, or a number with K, M, G or "
					 "T; more than 0)",
					 arg);
		return 0;
	case OPT_MAX_THREADS:
		if (parse_uint(arg, 1, CLI_THREADS_MAX, &n) < 0)
			return cli_error(cause,
					 "--max-threads: '%s' is not a thread "
					 "count (1 .. %d)",
					 arg, CLI_THREADS_MAX);
		opts->max_threads = (unsigned int)n;
		return 0;
	case OPT_MAX_SLOTS:
		if (parse_uint(arg, 1, STRATEGY_SLOTS_MAX, &n) < 0)
			return cli_error(cause,
					 "--max-slots: '%s' is not a slot "
					 "count (1 .. %d)",
					 arg, STRATEGY_SLOTS_MAX);
		opts->max_slots = (unsigned int)n;
		return 0;
	case OPT_MAX_DURATION:
		if (parse_seconds(arg, 0.001, 86400, false,
				  &opts->max_duration_ms) < 0)
			return cli_error(cause,
					 "--max-duration: '%s' is not a "
					 "duration (seconds, 0.001 .. 86400)",
					 arg);
		return 0;
	case OPT_KEEP_NETNS:
		if (!name_valid(arg, TOPO_KEEP_PREFIX_MAX))
			return cli_error(
				cause,
				"--keep-netns: '%s' is not a name "
				"prefix (1 .. %d of A-Z a-z 0-9 _ . -)",
				arg, TOPO_KEEP_PREFIX_MAX);
		opts->topo.keep_prefix = arg;
		return 0;
	case OPT_URING_DEPTH:
		if (parse_uint(arg, 1, STRATEGY_URING_DEPTH_MAX, &n) < 0)
			return cli_error(cause,
					 "--uring-depth: '%s' is not a depth "
					 "(1 .. %d)",
					 arg, STRATEGY_URING_DEPTH_MAX);
		opts->uring_depth = (unsigned int)n;
		return 0;
	case OPT_URING_FIXED:
		opts->uring_fixed = true;
		return 0;
	case OPT_EVENTS:
		return parse_events(arg, opts, cause);
	case OPT_NO_COUNTERS:
		opts->counters_enabled = false;
		return 0;
	case OPT_CHECK:
		opts->check = true;
		return 0;
	case OPT_REFRESH:
		if (parse_uint(arg, 20, 10000, &n) < 0)
			return cli_error(cause,
					 "--refresh: '%s' is not an interval "
					 "(milliseconds, 20 .. 10000)",
					 arg);
		opts->refresh_ms = (unsigned int)n;
		return 0;
	case OPT_THEME:
		if (!name_valid(arg, 64))
			return cli_error(cause,
					 "--theme: '%s' is not a theme name "
					 "(letters, digits, _ . -)",
					 arg);
		opts->theme = arg;
		return 0;
	case OPT_SLOTS:
		if (parse_uint(arg, 1, STRATEGY_SLOTS_MAX, &n) < 0)
			return cli_error(cause,
					 "--slots: '%s' is not a slot count "
					 "(1 .. %d)",
					 arg, STRATEGY_SLOTS_MAX);
		opts->slots = (unsigned int)n;
		return 0;
	case OPT_LIST_STRATEGIES:
		opts->list_strategies = true;
		return 0;
	case 'h':
		opts->help = true;
		return 0;
	case 'V':
		opts->version = true;
		return 0;
	}
	return cli_error(cause, "unknown option");
}

static void cli_defaults(struct options *opts)
{
	char *ignored = NULL;

	*opts = (struct options){
		.msg_sizes = {16 * 1024},
		.msg_size_count = 1,
		.threads = {1},
		.thread_count = 1,
		.duration_ms = 5000,
		.warmup_ms = 500,
		.slots = STRATEGY_SLOTS_DEFAULT,
		.uring_depth = STRATEGY_URING_DEPTH_DEFAULT,
		.refresh_ms = 100,
		.theme = "default",
		.repeat = 1,
		.port = PROTO_PORT,
		.max_threads = CLI_THREADS_MAX,
		.max_slots = STRATEGY_SLOTS_MAX,
		.max_duration_ms = 86400000,
	};
	topo_options_default(&opts->topo);
	/* Without libpfm4 there is nothing to count; --check says why. */
	opts->counters_enabled = counters_resolve(NULL, 0, &opts->counters,
						  &ignored) == 0;
	free(ignored);
	ignored = NULL;
	add_strategy("all", opts, &ignored);
}

/* Options that shape a link need one nio-top made. */
static int cli_check_topology(const struct topo_options *t, char **cause)
{
	const char *needs_veth = t->mtu	       ? "--mtu"
				 : t->rate_bps ? "--rate"
				 : t->delay_us ? "--delay"
				 : t->loss_pct ? "--loss"
					       : NULL;

	if (needs_veth && t->kind != TOPO_VETH)
		return cli_error(cause, "%s needs --topology veth (not %s)",
				 needs_veth, topo_kind_name(t->kind));
	if (t->rate_bps && (t->delay_us || t->loss_pct))
		return cli_error(cause,
				 "--rate cannot be combined with --delay "
				 "or --loss yet: both need the root "
				 "qdisc");
	if (t->keep_prefix &&
	    (t->kind == TOPO_CURRENT || t->kind == TOPO_REMOTE))
		return cli_error(cause,
				 "--keep-netns needs a namespace nio-top "
				 "makes (--topology veth or loopback)");
	return 0;
}

/* Whether argv names option (by its long name; short ones have none here). */
static bool cli_given(int argc, char **argv, const char *option)
{
	size_t len = strlen(option);

	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "--", 2) == 0 &&
		    strncmp(argv[i] + 2, option, len) == 0 &&
		    (argv[i][2 + len] == '\0' || argv[i][2 + len] == '='))
			return true;
	}
	return false;
}

/* --serve and --connect, and the options that belong to one of them. */
static int cli_check_hosts(int argc, char **argv, const struct options *o,
			   char **cause)
{
	if (o->serve && o->connect)
		return cli_error(cause, "--serve and --connect exclude each "
					"other");
	static const char *const serve_only[] = {"port", "max-memory",
						 "max-threads", "max-slots",
						 "max-duration"};

	if (!o->serve && o->listen)
		return cli_error(cause, "--listen needs --serve");
	for (size_t i = 0;
	     !o->serve && i < sizeof(serve_only) / sizeof(*serve_only); i++)
		if (cli_given(argc, argv, serve_only[i]))
			return cli_error(cause, "--%s needs --serve",
					 serve_only[i]);
	if (o->reverse && !o->connect)
		return cli_error(cause, "--reverse needs --connect");
	if (o->auth_file && !o->serve && !o->connect)
		return cli_error(cause,
				 "--auth-file needs --serve or --connect");
	if (o->topo.kind == TOPO_REMOTE && !o->connect && !o->viewing_only &&
	    !o->load)
		return cli_error(cause, "--topology remote needs --connect "
					"HOST");
	if (o->connect && o->topo.kind != TOPO_REMOTE)
		return cli_error(cause,
				 "--connect runs over --topology remote "
				 "(not %s)",
				 topo_kind_name(o->topo.kind));
	if (o->connect && o->load)
		return cli_error(cause, "--connect and --load exclude each "
					"other");
	return 0;
}

int cli_set(struct options *opts, const char *name, const char *arg,
	    char **cause)
{
	*cause = NULL;
	for (size_t i = 0; i < CLI_OPTION_COUNT; i++) {
		const struct cli_option *o = &cli_options[i];

		if (strcmp(o->name, name) == 0 && !o->arg == !arg)
			return cli_apply(o->key, arg, opts, cause);
	}
	return cli_error(cause, "--%s: not an option", name);
}

/* Applies every option of argv whose key is (or, if skip, is not) only. */
static int cli_pass(int argc, char **argv, const struct option *long_options,
		    const char *short_options, int only, bool skip,
		    struct options *opts, char **cause)
{
	int key;

	optind = 1;
	opterr = 0;
	while ((key = getopt_long(argc, argv, short_options, long_options,
				  NULL)) != -1) {
		int r;

		if ((key == only) == skip)
			continue;
		if (key == '?')
			return cli_error(cause, "unknown option '%s'",
					 argv[optind - 1]);
		if (key == ':')
			return cli_error(cause, "option '%s' needs a value",
					 argv[optind - 1]);
		r = key == 'p' ? preset_load(optarg, opts, cause)
			       : cli_apply(key, optarg, opts, cause);
		if (r < 0)
			return r;
	}
	return 0;
}

int cli_parse(int argc, char **argv, struct options *opts, char **cause)
{
	struct option long_options[CLI_OPTION_COUNT + 1];
	char short_options[2 * CLI_OPTION_COUNT + 2] = ":";
	size_t n = 1;
	int r;

	*cause = NULL;
	cli_defaults(opts);
	memset(long_options, 0, sizeof(long_options));
	for (size_t i = 0; i < CLI_OPTION_COUNT; i++) {
		const struct cli_option *o = &cli_options[i];

		long_options[i] = (struct option){
			.name = o->name,
			.has_arg = o->arg ? required_argument : no_argument,
			.val = o->key,
		};
		if (o->key < 256) {
			short_options[n++] = (char)o->key;
			if (o->arg)
				short_options[n++] = ':';
		}
	}
	short_options[n] = '\0';

	/* The preset first, so that every other option overrides it. */
	r = cli_pass(argc, argv, long_options, short_options, 'p', false, opts,
		     cause);
	if (r == 0)
		r = cli_pass(argc, argv, long_options, short_options, 'p', true,
			     opts, cause);
	if (r < 0)
		return r;
	if (optind < argc)
		return cli_error(cause, "unexpected argument '%s'",
				 argv[optind]);
	if (opts->strategy_count == 0)
		return cli_error(cause, "--strategy: no strategy is available "
					"on this machine");
	r = cli_check_hosts(argc, argv, opts, cause);
	if (r < 0)
		return r;
	return cli_check_topology(&opts->topo, cause);
}
