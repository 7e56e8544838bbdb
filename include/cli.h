/*
 * The command line: one table of options drives parsing and --help.  Parsing
 * only fills struct options; any bad value is an error naming the option and
 * the value, for the caller to print (exit status 2).
 */
#ifndef NIO_TOP_CLI_H
#define NIO_TOP_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "counters.h"
#include "run.h"
#include "strategy.h"
#include "topo.h"

#define CLI_LIST_MAX	64
#define CLI_THREADS_MAX 64

struct options {
	bool batch;
	bool verify;
	bool list_strategies;
	bool check;
	bool help;
	bool version;
	const struct strategy_ops *strategies[CLI_LIST_MAX];
	size_t strategy_count;
	size_t msg_sizes[CLI_LIST_MAX];
	size_t msg_size_count;
	unsigned int threads[CLI_LIST_MAX];
	size_t thread_count;
	enum run_mode mode;
	uint64_t duration_ms;
	uint64_t warmup_ms;
	unsigned int slots;
	unsigned int uring_depth;
	bool uring_fixed;
	bool counters_enabled;
	struct counter_set counters; /* resolved by libpfm4 */
	struct topo_options topo;
	const char *output;
	/* Lists the user gave; the UI sweeps over these only. */
	bool strategies_given;
	bool sizes_given;
	bool threads_given;
	bool duration_given; /* else the UI runs until a control changes */
	unsigned int refresh_ms;
	const char *theme;
	unsigned int repeat; /* runs of each point, interleaved */
	const char *load;    /* a saved export to open instead of running */
	const char *csv;
	const char *svg;
	/* The preset the options started from, if any. */
	char preset_name[65];
	char preset_description[1025];
	char theme_name[65]; /* a theme named by a preset */
	char *warnings;	     /* lines for the user (unknown preset keys) */
	/* Nothing will run (--load): a strategy this machine lacks is fine. */
	bool viewing_only;
	/* Two hosts: an agent (--serve) or its client (--connect). */
	bool serve;
	const char *listen; /* NULL: every address */
	unsigned int port;
	const char *connect; /* HOST[:PORT]; sets topo.kind remote */
	bool reverse;	     /* the agent runs the senders */
	const char *auth_file;
	/* --serve: what one client's run may ask of this host. */
	uint64_t max_memory; /* bytes of message buffers; 0: the default */
	unsigned int max_threads;
	unsigned int max_slots;
	uint64_t max_duration_ms;
};

/*
 * Applies one option by its long name, as if given on the command line (arg
 * NULL for a flag): 0, or -EINVAL with *cause.
 */
int cli_set(struct options *opts, const char *name, const char *arg,
	    char **cause);

/* 0, or -EINVAL with *cause (caller frees) naming the option and value. */
int cli_parse(int argc, char **argv, struct options *opts, char **cause);

/* "4K" -> 4096; 0 or -EINVAL (not a size) or -ERANGE (outside 64 .. 4M). */
int cli_parse_size(const char *text, size_t *bytes);

/* "2G" -> 2^31 (K, M, G, T are binary); 0, -EINVAL or -ERANGE. */
int cli_parse_bytes(const char *text, uint64_t *bytes);

/* 4096 -> "4K": the way the command line spells a size. */
void cli_format_size(size_t bytes, char *out, size_t size);

/* "2G" -> 2e9 bit/s (K, M, G are decimal); 0, -EINVAL or -ERANGE. */
int cli_parse_rate(const char *text, uint64_t *bits_per_s);

void cli_usage(FILE *out);

#endif
