/*
 * The explorer: the interactive session behind the terminal UI.  It holds the
 * controls a user moves, the run they describe, that run's live gauges on
 * both sides, the last minute of gauge history and any sweep in progress;
 * finished runs go to the session's results.  It knows nothing of screens:
 * the UI reads it and the main loop applies the UI's commands to it.
 */
#ifndef NIO_TOP_EXPLORER_H
#define NIO_TOP_EXPLORER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "metric.h"
#include "preset.h"
#include "run.h"
#include "session.h"

struct diff;

enum gauge_side { SIDE_SENDER, SIDE_RECEIVER, SIDE_COUNT };

struct gauge_reading {
	bool known;
	double value;
	char why[160]; /* when not known: why not */
};

struct explorer_live {
	bool running;
	bool starting; /* the threads fill their buffers; no clock yet */
	bool ready;    /* the gauges hold a window's rates */
	bool warmup;
	double elapsed_s;
	/* By the metric table's rows. */
	struct gauge_reading gauge[SIDE_COUNT][METRICS_MAX];
	struct run_totals totals; /* of the current run so far */
	/* RUN_RR: the round trips of the measured window so far. */
	struct latency_summary latency;
	/*
	 * --probe: what it is doing, its idle figures (so far, while it
	 * runs alone) and under the load over the window so far.
	 */
	enum run_probe_phase probe_phase;
	struct run_probe probe;
	/*
	 * Where each side's CPU went in the run's sampled intervals so far
	 * (false: not sampled here), and what sampling did to the rate.
	 */
	bool profiled[SIDE_COUNT];
	struct run_profile profile[SIDE_COUNT];
	double sampling_effect;
	/* Where each side's time went there, on the CPU and off it. */
	bool timed[SIDE_COUNT];
	struct run_time time[SIDE_COUNT];
};

/* One refresh's gauges; NaN where not known. */
struct explorer_point {
	uint64_t t_ns;
	float value[SIDE_COUNT][METRICS_MAX];
};

/*
 * How long a quit waits for the run's flows to drain (a shaped link may hold
 * megabytes): then the run ends at once, kept with the reason.
 */
#define EXPLORER_QUIT_GRACE_MS 1000

/*
 * A sweep runs a point a stop ended (Ctrl-Z, a stall) again, up to this
 * many runs of it in all, before it goes on without it.
 */
#define EXPLORER_SWEEP_TRIES 3

#define EXPLORER_HISTORY_S	60
#define EXPLORER_WINDOW_MS	500 /* the gauges average over this much */
#define EXPLORER_SAMPLES	64
#define EXPLORER_STRATEGIES_MAX 16

enum explorer_state {
	EXPLORER_IDLE,	   /* nothing runs: a fixed run ended, or a failure */
	EXPLORER_RUNNING,  /* config is running */
	EXPLORER_STOPPING, /* the run drains; then the next one starts */
};

struct explorer {
	struct session *session;
	/* The controls; changing one restarts the run with them. */
	struct run_config config;
	/* By option row: what a toggled control was before it went to 0. */
	double toggled_from[OPTIONS_MAX];
	bool strategy_available[EXPLORER_STRATEGIES_MAX];
	char strategy_why[EXPLORER_STRATEGIES_MAX][192];

	/*
	 * By option row: what the runs vary -- a sweep's dimensions while it
	 * runs, else what a run changed from the one before since the last
	 * sweep began.
	 */
	bool varies[OPTIONS_MAX];

	enum explorer_state state;
	struct run *run;
	struct run_config running; /* what run is running */
	unsigned int run_number;
	bool restart; /* start config once the stopping run is done */
	bool quitting;
	uint64_t quit_ns; /* when: the run's flows get EXPLORER_QUIT_GRACE_MS */
	bool aborted;	  /* by a signal: the run is not kept */
	bool viewing;	  /* a loaded export (no plan): nothing runs */
	/* --load OLD NEW: the two compared (NULL: one, or none). */
	const struct diff *diff;

	struct run_config *sweep; /* the plan being run one by one */
	/* The controls before the sweep: restored after it. */
	struct run_config before_sweep;
	size_t sweep_count;
	size_t sweep_next;
	uint64_t sweep_started_ns;
	uint64_t sweep_run_started_ns; /* the run in progress */
	double sweep_planned_s; /* a run's warm-up and duration; 0: none */
	char sweep_name
		[80]; /* "sweep", or "preset NAME": for the status line */
	size_t sweep_failed;	 /* runs of the sweep that ended in an error */
	char sweep_failure[200]; /* the latest: "run 3: flow 1 sender: ..." */
	/* The run going on is the sweep's (not one it stopped to begin). */
	bool sweep_run;
	/*
	 * The sweep's points: measured whole (complete), or left with no
	 * such run after EXPLORER_SWEEP_TRIES runs a stop ended (holes);
	 * the runs made again after a stop, and the current point's tries.
	 */
	size_t sweep_complete;
	size_t sweep_holes;
	size_t sweep_again;
	unsigned int sweep_tries;
	/*
	 * The time left as said last (NaN: not yet): a later guess that is
	 * longer holds it instead, so that it never goes up.
	 */
	double sweep_left_s;
	/*
	 * The session's crossover search runs one run after another, as a
	 * sweep does (explorer_crossover(), or --crossover).
	 */
	bool searching;

	/* Presets to load: their names and descriptions, from the folders. */
	struct preset_entry *presets;
	size_t preset_count;
	/* Finished runs written somewhere (-o, e): the rest would be lost. */
	size_t saved_runs;
	struct latency_hist *rtt; /* room to merge the flows' round trips */

	struct sample samples[EXPLORER_SAMPLES]; /* ring, one per refresh */
	size_t sample_count;
	unsigned int window; /* samples the gauges span */
	unsigned int window_ms;
	struct explorer_live live;

	struct explorer_point *history; /* ring, last EXPLORER_HISTORY_S */
	size_t history_capacity;
	size_t history_count;
	size_t history_head; /* where the next point goes */

	char message[256];  /* the latest news for the status line */
	bool said_finished; /* it says a run finished or could not start */
	unsigned int said;  /* how often message was set: news even if alike */
};

/*
 * Starts with the first run of the session's plan; with a plan of several
 * runs given on the command line, runs them all as a sweep.  A session with
 * no plan (a loaded export) is only viewed: its runs, charts and analysis.
 */
int explorer_open(struct explorer *e, struct session *session,
		  unsigned int refresh_ms);
void explorer_close(struct explorer *e);

/*
 * Steps a control (a row of the option table, options_control_at()) by
 * delta values; strategies this machine cannot run are stepped over.
 */
void explorer_step(struct explorer *e, const struct option_row *control,
		   int delta);
/* Sets a strategy by its registry index, if available. */
void explorer_set_strategy(struct explorer *e, size_t index);
/*
 * Enter on a control: one with a toggle switches it (a continuous run
 * becomes a timed one of 5 s, and back); any other runs the controls again.
 */
void explorer_toggle(struct explorer *e, const struct option_row *control);
/*
 * The process is about to stop (Ctrl-Z): the run's measured window ends
 * here (run_pause) and, outside a sweep, the controls run again after it.
 */
void explorer_pause(struct explorer *e);
/* Every available strategy over a range of sizes at the current threads. */
void explorer_sweep(struct explorer *e);
/* Whether a sweep, or a crossover search, runs. */
bool explorer_sweeping(const struct explorer *e);
/*
 * A crossover search (crossover_run.h) of the controls' strategy against
 * strategy other (its registry index) over the session's -m range, 1 KiB
 * .. 1 MiB without one, on metric ("": the session's --metric, or the
 * mode's figure): the session's search from now on, its runs one after
 * another, the controls back as they were after it, as after a sweep.
 */
void explorer_crossover(struct explorer *e, size_t other, const char *metric);
/* Whether a crossover search runs. */
bool explorer_searching(const struct explorer *e);
/*
 * Runs done and to do in the sweep, and the seconds left (NaN: unknown), as
 * explorer_sample() last worked them out: never more than before.
 */
void explorer_sweep_progress(const struct explorer *e, size_t *done,
			     size_t *total, double *left_s);
/* Whether the runs vary row's setting (struct explorer's varies). */
bool explorer_varies(const struct explorer *e, const struct option_row *row);
/* Loads preset index (of e->presets) and runs its grid as a sweep. */
void explorer_load_preset(struct explorer *e, size_t index);
/* Writes the current controls as a preset file; the outcome to message. */
int explorer_save_preset(struct explorer *e, const char *path);
/* Says on the status line what the front end did (an export, say). */
void explorer_say(struct explorer *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Finished runs that no export holds yet (none are lost with -o). */
size_t explorer_unsaved(const struct explorer *e);

/* Stops the run; explorer_done() says when it has ended. */
void explorer_quit(struct explorer *e);
bool explorer_done(const struct explorer *e);
/* Aborts on a signal: the current run is not kept. */
void explorer_abort(struct explorer *e, const char *why);

/* For the main loop: the run's eventfd (or -1) and next deadline (or 0). */
int explorer_event_fd(const struct explorer *e);
uint64_t explorer_deadline_ns(const struct explorer *e);
/* Moves the run on; starts the next one when due. */
void explorer_tick(struct explorer *e, uint64_t now_ns);
/* Once per refresh: samples the run and updates live and history. */
void explorer_sample(struct explorer *e, uint64_t now_ns);

/* The history point age points back (0: the latest), or NULL. */
const struct explorer_point *explorer_history_at(const struct explorer *e,
						 size_t age);

#endif
