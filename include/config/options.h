/*
 * The options: one table describes every parameter a user can set -- its
 * long and short name, its preset key, its type and unit, where it is
 * stored, its range, its default and its help -- and everything that reads
 * or writes a parameter goes through that table: the command line (getopt
 * and --help), presets (loading, saving and their JSON Schema), the lists of
 * the manual pages (tested against it), and a run's settings on the wire
 * and in exports.  A value is parsed once, from text or from JSON, straight
 * into struct options; nothing is printed back to text to be applied.
 *
 * Bad values are errors naming the option (or preset key) and the value,
 * for the caller to print; the command line exits 2 on them.
 */
#ifndef NIO_TOP_OPTIONS_H
#define NIO_TOP_OPTIONS_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "codec.h"
#include "counters.h"
#include "rules.h"
#include "run.h"
#include "settings.h"
#include "strategy.h"
#include "topo.h"

#define OPTIONS_LIST_MAX    64
#define OPTIONS_THREADS_MAX 64
#define OPTIONS_MAX	    96

#define PRESET_FORMAT  "nio-top-preset"
#define PRESET_VERSION 1

struct options {
	/* What to do. */
	bool batch;
	bool check;
	bool list_strategies;
	char completion[8]; /* --completion SHELL: "" none */
	bool help;
	bool version;
	bool serve;

	/* The grid of runs, and what every run does. */
	const struct strategy_ops *strategies[OPTIONS_LIST_MAX];
	size_t strategy_count;
	size_t msg_sizes[OPTIONS_LIST_MAX];
	size_t msg_size_count;
	unsigned int threads[OPTIONS_LIST_MAX];
	size_t thread_count;
	/* The modes, in order: the grid's fourth dimension. */
	int modes[RUN_MODE_COUNT];
	size_t mode_count;
	/*
	 * The grid's other dimensions (plan.h): the receive sides, and the
	 * links' and sockets' knobs that make sense as lists.
	 */
	int rxs[RX_MODE_COUNT];
	size_t rx_count;
	int gros[GRO_MODE_COUNT];
	size_t gro_count;
	unsigned int gso_sizes[OPTIONS_LIST_MAX];
	size_t gso_size_count;
	unsigned int busy_polls[OPTIONS_LIST_MAX];
	size_t busy_poll_count;
	unsigned int load_rates[OPTIONS_LIST_MAX]; /* Mbit/s; 0: flat out */
	size_t load_rate_count;
	unsigned int repeat; /* runs of each point, interleaved */
	/* Runs measured for less than this are short (see analysis.h). */
	uint64_t min_measured_ms;
	/* Runs whose window a stop ended are analysed too. */
	bool keep_stopped;
	/*
	 * --crossover DIM=A,B as given ("" none; plan_crossover() reads it),
	 * the figure it compares ("" the mode's), when it stops.
	 */
	char crossover[128];
	char crossover_metric[48];
	double crossover_resolution;
	uint64_t crossover_budget_ms;
	struct run_settings run;

	/* Counters: the events' names, resolved by options_resolve_events(). */
	char events[COUNTERS_MAX][48];
	size_t event_count;
	bool no_counters;
	bool no_profile; /* --no-profile: run.profile_hz 0 */
	bool counters_enabled;
	struct counter_set counters;

	struct topo_options topo;

	/* Files. */
	const char *output;
	const char *csv;
	const char *svg;
	const char *load;	 /* a saved export to open instead of running */
	const char *load_new;	 /* --load OLD NEW: the second, compared */
	const char *json_stream; /* JSON lines as it happens; "-": stdout */
	const char *diff;	 /* --diff OLD NEW: the old export */
	const char *diff_new;	 /* and the new, the argument after */
	const char *baseline;	 /* a study compared with this export */

	/* A comparison (--diff, --baseline): how it is said and judged. */
	int diff_test;	  /* enum diff_test */
	int diff_format;  /* enum diff_format: of standard output */
	char gate[256];	  /* --gate RULES as given; "" none */
	char change[256]; /* --change KEY,...: the change under test */
	struct rule rules[RULES_MAX]; /* --gate's, parsed */
	size_t rule_count;
	char drift[512]; /* --drift as given; "" the defaults */
	struct drift_rule drifts[RULES_MAX]; /* --drift's, parsed */
	size_t drift_count;

	/* The screen, and what it remembers between starts. */
	unsigned int refresh_ms;
	char theme[65];
	bool no_config; /* neither read nor write the user's settings */

	/* Two hosts: an agent (--serve), or its client (--connect). */
	const char *listen; /* NULL: every address */
	unsigned int port;
	const char *connect; /* HOST[:PORT]; the topology is remote */
	bool reverse;	     /* the agent runs the senders */
	const char *auth_file;
	uint64_t max_memory; /* bytes of buffers a run may take; 0: default */
	unsigned int max_threads;
	unsigned int max_slots;
	uint64_t max_duration_ms;
	uint64_t max_idle_ms; /* a greeted client with no run, silent */

	/* The preset the options started from, if any. */
	char preset_name[65];
	char preset_description[1025];
	char *warnings; /* lines for the user: unknown preset keys */
	/* Nothing will run (--load): a strategy this machine lacks is fine. */
	bool viewing_only;

	/* Which rows of the table were given (on the command line or in a
	 * preset), by their index. */
	bool given[OPTIONS_MAX];
};

/* --diff-test: how a comparison calls a change (diff_test_names). */
enum diff_test {
	DIFF_TEST_WELCH, /* the interval of the analysis' estimator */
	DIFF_TEST_UTEST, /* benchstat's Mann-Whitney U, p < 0.05 */
};
extern const char *const diff_test_names[];

/* --format: what a comparison prints (diff_format_names). */
enum diff_format {
	DIFF_FORMAT_TEXT,
	DIFF_FORMAT_MARKDOWN,
};
extern const char *const diff_format_names[];

enum option_type {
	OPTION_FLAG,	   /* bool; no argument; not in presets */
	OPTION_BOOL,	   /* bool; a flag on the command line */
	OPTION_UINT,	   /* unsigned int */
	OPTION_SECONDS,	   /* uint64_t milliseconds, given in seconds */
	OPTION_NUMBER,	   /* double */
	OPTION_RATE,	   /* uint64_t bit/s: "1G" */
	OPTION_BYTES,	   /* uint64_t bytes: "2G" */
	OPTION_SIZES,	   /* message sizes: size_t[] and its count */
	OPTION_COUNTS,	   /* unsigned int[] and its count */
	OPTION_STRATEGIES, /* strategy pointers and their count */
	OPTION_CHOICE,	   /* an enum, one of names */
	OPTION_CHOICES,	   /* int[] of names' indices, each once, and a count */
	OPTION_NAME,	   /* char[size], safe as a file name */
	OPTION_TEXT,	   /* char[size], any text */
	OPTION_PATH,	   /* const char *, kept from argv */
	OPTION_SUBNET,	   /* struct in_addr and a prefix */
	OPTION_EVENTS,	   /* perf event names */
	OPTION_CPUS,	   /* struct cpu_list */
	OPTION_PRESET,	   /* -p: another preset's options, first */
	OPTION_PROBE,	   /* struct probe_settings: "RATE[,SIZE]" */
	OPTION_TYPE_COUNT, /* not a type: how many there are */
};

/* What a row is besides its type. */
enum option_flag {
	OPTION_SERVE = 1 << 0, /* belongs to --serve */
	OPTION_RUN = 1 << 1,   /* a run's own setting: on the wire, per run */
	OPTION_EARLY = 1 << 2, /* applied before presets are looked up */
};

/*
 * A run setting the explorer shows as a control (Left/Right step it): its
 * label in the controls panel, the values it steps through in the row's
 * unit (NULL: every value of the row's range, or every name), what its
 * toggle key (Enter) switches with 0, if anything, the figures it moves
 * most, and what it is for the help.  Adding a control is giving a row one
 * of these.
 */
struct option_control {
	const char *label;   /* "Size" */
	const double *steps; /* ascending */
	size_t step_count;
	const char *zero; /* how 0 reads ("continuous"), or NULL */
	const char *unit; /* after another value (" us"), or NULL */
	double toggle;	  /* Enter: 0 and this; 0: Enter runs it again */
	/*
	 * The gauges a change of it shows in most, by their keys in the
	 * metric table (NULL-terminated; NULL: none above the others): on a
	 * screen too short for every gauge, those stay while the runs vary
	 * it.
	 */
	const char *const *figures;
	/* What it is, in the help's glossary (F1); NULL: the row's help. */
	const char *gloss;
};

/*
 * The names a row had before, still read -- on the command line, in presets
 * and in a run's settings in files (exports, the explorer's settings) -- so
 * that what an older nio-top wrote opens; never written, listed or
 * completed.  A member may be NULL: that name did not change.
 */
struct option_alias {
	const char *name;    /* --name */
	const char *key;     /* the preset key */
	const char *run_key; /* the key in a run */
};

struct option_row {
	const char *name;    /* --name, or NULL: a preset key only */
	char letter;	     /* -x, or 0 */
	const char *arg;     /* the argument's name in --help; NULL: none */
	const char *key;     /* the preset key ("topology.mtu"), or NULL */
	const char *run_key; /* OPTION_RUN: the key in a run ("msg_size") */
	enum option_type type;
	size_t offset;		  /* in struct options */
	size_t count_offset;	  /* lists: their count */
	size_t run_offset;	  /* OPTION_RUN: in struct run_config */
	size_t size;		  /* char buffers */
	double min, max;	  /* values; items of lists; lengths of text */
	const char *const *names; /* OPTION_CHOICE, NULL-terminated */
	const char *def; /* the default, as the command line spells it */
	unsigned int flags;
	const char *help;
	const struct option_control *control; /* OPTION_RUN rows only */
	const struct option_alias *was;	      /* its former names, or NULL */
};

extern const struct option_row option_rows[];
extern const size_t option_row_count;

/*
 * The row of --name, or of preset key (NULL if none); options_by_key()
 * finds a row by its former key too (struct option_alias).
 */
const struct option_row *options_by_name(const char *name);
const struct option_row *options_by_key(const char *key);
/*
 * A run's value of row in from: under its run key, or in a file (file
 * true) under its former one; NULL if neither is there.
 */
const cJSON *options_run_item(const cJSON *from, const struct option_row *row,
			      bool file);
/* Whether --name was given (or set as if it were). */
bool options_given(const struct options *o, const char *name);

/* Whether runs a and b have the same value of row, a run setting. */
bool options_run_same(const struct option_row *row, const struct run_config *a,
		      const struct run_config *b);

/* The explorer's controls: the rows with a control, in the table's order. */
size_t options_control_count(void);
const struct option_row *options_control_at(size_t index);
/* A control's value in c for people: "64 KiB", "zero-copy", "continuous". */
void options_control_text(const struct option_row *row,
			  const struct run_config *c, char *out, size_t size);
/*
 * Steps a control's value in c by delta steps: names (strategies, modes)
 * wrap around, numbers stop at the ends.  A value allowed() refuses is
 * stepped over (NULL: all are allowed).  Whether c changed.
 */
bool options_control_step(
	const struct option_row *row, struct run_config *c, int delta,
	bool (*allowed)(const struct run_config *c, void *arg), void *arg);
/*
 * The toggle: 0, and back to what it was before (*back, kept here between
 * calls; 0 at first: the control's toggle value).
 */
bool options_control_toggle(const struct option_row *row, struct run_config *c,
			    double *back);

/*
 * The options that run c again: each run setting's value in c as the only
 * one -- a list of one strategy, one size -- marked as given.  controls:
 * NULL for every run setting, else only the controls it says (by their
 * index, options_control_at()).
 */
void options_from_run(struct options *o, const struct run_config *c,
		      const bool *controls);
/*
 * The controls of c as JSON by their run keys, and back: each one in from
 * that fits read into c, and marked in read[] by its index.
 */
cJSON *options_controls_to_json(const struct run_config *c);
void options_controls_from_json(const cJSON *from, struct run_config *c,
				bool read[OPTIONS_MAX]);

/* Every option at its default. */
void options_defaults(struct options *o);

/*
 * Parses argv into *o from the defaults, the preset (-p) first so every other
 * option overrides it, then the checks between options: 0, or -EINVAL with
 * *cause (caller frees) naming the option and the value.
 */
int options_parse(int argc, char **argv, struct options *o, char **cause);

/* Encodes the events named in o with libpfm4 (o->counters). */
int options_resolve_events(struct options *o, char **cause);

void options_usage(FILE *out);

/*
 * A preset (root, read from file) onto o: every key checked for its type
 * and range, errors naming file and key path; unknown keys add a line to
 * o->warnings.  0, or -EINVAL with *cause.
 */
int options_from_preset(const cJSON *root, const char *file, struct options *o,
			char **cause);
/*
 * -p: finds a preset by name (preset.h) or takes name as a file, and applies
 * it as options_from_preset() does; an export replays through the preset it
 * embeds.
 */
int options_load_preset(struct options *o, const char *name, char **cause);
/* The options as a preset that reproduces them. */
cJSON *options_to_preset(const struct options *o);
/* The JSON Schema of a preset. */
cJSON *options_schema(void);
/* The KEYS list of nio-top-preset(5), in mdoc, as the table says it. */
void options_man_keys(FILE *out);

/*
 * A completion script for shell ("bash", "zsh" or "fish") made from the
 * option table: 0, or -1 for a shell it does not know.
 */
int options_completion(FILE *out, const char *shell);

/*
 * A run's configuration as one object: its point (strategy, mode, message
 * size, flows, round) and every OPTION_RUN setting, with the events counted;
 * written into a run of an export and into the protocol's "run".
 */
void options_run_to_json(const struct run_config *c, cJSON *into);
/*
 * Reads one back into *c (its point and settings), the events' names into
 * events[] (*event_count of them).  Strategies must be available here unless
 * viewing.  0, or -EINVAL with *cause naming path and key.
 */
int options_run_from_json(const cJSON *from, const char *path,
			  enum codec_mode mode, bool viewing,
			  struct run_config *c, char events[][48],
			  unsigned int *event_count, char **cause);

#endif
