/*
 * Command-line parsing.  The option table is the single source for getopt's
 * long options, the short-option string and the --help text.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "message.h"

enum {
	OPT_BATCH = 256,
	OPT_VERIFY,
	OPT_LIST_STRATEGIES,
	OPT_TOPOLOGY,
	OPT_SLOTS,
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
	{"strategy", 's', "LIST",
	 "strategies, comma-separated, or \"all\" (default all)"},
	{"msg-size", 'm', "LIST",
	 "message sizes in bytes, K or M suffix, 64 .. 4M (default 16K)"},
	{"threads", 't', "LIST", "flows per run, 1 .. 64 (default 1)"},
	{"duration", 'd', "SEC",
	 "measured seconds per run, fractions allowed (default 5)"},
	{"warmup", 'w', "SEC",
	 "seconds run first and left out of the summary (default 0.5)"},
	{"verify", OPT_VERIFY, NULL,
	 "fill and check every message; count corrupt ones"},
	{"output", 'o', "FILE", "write every run as JSON (atomically)"},
	{"topology", OPT_TOPOLOGY, "KIND",
	 "loopback (a private namespace) or current (default loopback)"},
	{"slots", OPT_SLOTS, "N",
	 "message slots per zero-copy sender, 1 .. 4096 (default 16)"},
	{"list-strategies", OPT_LIST_STRATEGIES, NULL,
	 "list the strategies and whether this machine can run them"},
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

	if (!text[0] || text[0] == '-' || text[0] == '+' || text[0] == ' ')
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

static int parse_uint(const char *text, unsigned long min, unsigned long max,
		      unsigned long *value)
{
	char *end;

	if (!text[0] || text[0] == '-' || text[0] == '+' || text[0] == ' ')
		return -EINVAL;
	errno = 0;
	*value = strtoul(text, &end, 10);
	if (end == text || *end || errno)
		return -EINVAL;
	return *value < min || *value > max ? -ERANGE : 0;
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
	if (!list[0] || list[0] == ',' || list[strlen(list) - 1] == ',' ||
	    strstr(list, ",,")) {
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
	if (strategy_probe(ops, &why) < 0) {
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

static int cli_apply(int key, const char *arg, struct options *opts,
		     char **cause)
{
	unsigned long n;

	switch (key) {
	case OPT_BATCH:
		opts->batch = true;
		return 0;
	case 's':
		opts->strategy_count = 0;
		return for_each_item(arg, add_strategy, opts, "strategy",
				     cause);
	case 'm':
		opts->msg_size_count = 0;
		return for_each_item(arg, add_size, opts, "msg-size", cause);
	case 't':
		opts->thread_count = 0;
		return for_each_item(arg, add_threads, opts, "threads", cause);
	case 'd':
		if (parse_seconds(arg, 0.001, 86400, false,
				  &opts->duration_ms) < 0)
			return cli_error(cause,
					 "--duration: '%s' is not a duration "
					 "(seconds, 0.001 .. 86400)",
					 arg);
		return 0;
	case 'w':
		if (parse_seconds(arg, 0, 3600, true, &opts->warmup_ms) < 0)
			return cli_error(cause,
					 "--warmup: '%s' is not a warm-up "
					 "(seconds, 0 .. 3600)",
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
		if (topo_kind_parse(arg, &opts->topology) < 0)
			return cli_error(cause,
					 "--topology: '%s' is not a topology "
					 "(%s)",
					 arg, topo_kind_list());
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
		.topology = TOPO_LOOPBACK,
	};
	add_strategy("all", opts, &ignored);
}

int cli_parse(int argc, char **argv, struct options *opts, char **cause)
{
	struct option long_options[CLI_OPTION_COUNT + 1];
	char short_options[2 * CLI_OPTION_COUNT + 2] = ":";
	size_t n = 1;
	int key;

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

	optind = 1;
	opterr = 0;
	while ((key = getopt_long(argc, argv, short_options, long_options,
				  NULL)) != -1) {
		int r;

		if (key == '?')
			return cli_error(cause, "unknown option '%s'",
					 argv[optind - 1]);
		if (key == ':')
			return cli_error(cause, "option '%s' needs a value",
					 argv[optind - 1]);
		r = cli_apply(key, optarg, opts, cause);
		if (r < 0)
			return r;
	}
	if (optind < argc)
		return cli_error(cause, "unexpected argument '%s'",
				 argv[optind]);
	if (opts->strategy_count == 0)
		return cli_error(cause, "--strategy: no strategy is available "
					"on this machine");
	return 0;
}
