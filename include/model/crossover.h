/*
 * The crossover search (--crossover DIM=A,B): where in a range of message
 * sizes B overtakes A, or A overtakes B, on one figure, found by running
 * sizes chosen as it goes rather than a grid.  Both ends of the range
 * first; then a size between two neighbours whose leads differ, in the
 * middle of their gap on a log scale, until the bracket is narrower than
 * the resolution or the budget is spent.  Each size gets interleaved runs
 * of A and B (A B, B A, ...) until stats_compare() -- the analysis's own
 * test, at its own confidence, each run's figure and floor from the
 * estimator -- decides it, or its most runs are spent, or the spread its
 * runs showed says that many would not decide it.
 *
 * The search itself knows sizes, sides and figures only: each side's run
 * and how a figure is read from a run are crossover_run.h's.  The answer is a bracket with the sizes tried,
 * never one number without its evidence.
 */
#ifndef NIO_TOP_CROSSOVER_H
#define NIO_TOP_CROSSOVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "estimate.h"
#include "record.h"
#include "run.h"
#include "stats.h"

/* The most sizes one search tries. */
#define CROSSOVER_SIZES_MAX 64
/*
 * A side's runs at one size, at most, unless --repeat asks for more; where
 * undecided sizes would leave the answer open, the cap doubles, up to the
 * ceiling, while the budget lasts.
 */
#define CROSSOVER_RUNS_MOST    8
#define CROSSOVER_RUNS_CEILING 32
/*
 * Where no lead changes, no gap between sizes tried is left wider than
 * this: a second change of lead hides in a gap no narrower.
 */
#define CROSSOVER_SCAN_FACTOR 8.0
/* Runs that fail one after another at a size end the search. */
#define CROSSOVER_FAILURES_MAX 3
/* The default and the bounds of --resolution. */
#define CROSSOVER_RESOLUTION	 1.25
#define CROSSOVER_RESOLUTION_MIN 1.05
/* The most a search's line or reason takes, its NUL included. */
#define CROSSOVER_TEXT_MAX 640

/* Who is ahead at a size, by the figure's own direction. */
enum crossover_lead {
	LEAD_PENDING,	/* not decided; more runs may (or might have) */
	LEAD_A,		/* A better by at least the minimum effect */
	LEAD_B,		/* B better by at least the minimum effect */
	LEAD_EQUAL,	/* within the minimum effect of each other */
	LEAD_UNDECIDED, /* its runs were spent and did not decide it */
	LEAD_FAILED,	/* too few runs of a side finished to compare */
	LEAD_COUNT,
};
extern const char *const crossover_lead_names[];

enum crossover_state {
	CROSSOVER_SEARCHING,
	CROSSOVER_FOUND,     /* every bracket narrower than the resolution */
	CROSSOVER_NONE,	     /* no change of lead at any size tried */
	CROSSOVER_UNDECIDED, /* a bracket's sizes between are undecided */
	CROSSOVER_BUDGET,    /* the budget was spent first */
	CROSSOVER_FAILED,    /* a size's runs failed */
	CROSSOVER_STOPPED,   /* the user, or a signal, stopped it */
	CROSSOVER_STATE_COUNT,
};
extern const char *const crossover_state_names[];

/* One run of the search, in the order they ran. */
struct crossover_run {
	size_t number;	 /* the session's run number; 0: it did not start */
	size_t msg_size; /* bytes */
	int side;	 /* 0: A, 1: B */
	bool usable;	 /* its figure counts (not failed, short, stopped) */
	double value;	 /* its figure; NaN when not usable */
	double wall_s;	 /* from its start to its end */
	struct stats_series series; /* its intervals' (not exported) */
};
extern const struct record crossover_run_record;

/* A size tried, as its runs make it. */
struct crossover_size {
	size_t msg_size;
	size_t runs[2]; /* usable, A's and B's */
	size_t failed;	/* runs that did not count */
	size_t failed_in_row;
	double median[2]; /* of the usable runs' figures; NaN with none */
	/* B against A: ratio > 1 when B is better; its 90% interval. */
	struct stats_difference difference;
	enum crossover_lead lead;
	bool done; /* no more runs here */
	/* Done early: at the spread its runs showed, its most would not do. */
	bool hopeless;
};
extern const struct record crossover_size_record;

/* Two neighbours in size, each decided, with different leads. */
struct crossover_bracket {
	size_t below, above; /* bytes */
	enum crossover_lead lead_below, lead_above;
};
extern const struct record crossover_bracket_record;

#define CROSSOVER_BRACKETS_MAX (CROSSOVER_SIZES_MAX / 2)

/* What is asked: the range, when to stop, the figure's direction. */
struct crossover_question {
	size_t min_size, max_size; /* bytes, min < max */
	double resolution;	   /* a factor > 1 */
	uint64_t budget_ms;
	size_t min_runs; /* of each side at a size (at least 2) */
	/*
	 * Of each side at a size (at least min_runs), raised as the search
	 * goes (CROSSOVER_RUNS_CEILING): its sizes are judged by the last.
	 */
	size_t most_runs;
	bool higher_is_better;
	double planned_s; /* a run's length before any has run */
};

struct crossover {
	/*
	 * The pair and the figure, as given and for people: "strategy",
	 * "one-copy" and "sendfile"; labels "one-copy" or "one-copy
	 * rx=trunc"; the metric's key ("cpu_ns_per_kib.sender") and label
	 * ("CPU per KiB, sender").  Set by crossover_run.h.
	 */
	char dimension[32];
	char value[2][64];
	char label[2][96];
	char metric[48];
	char metric_label[64];
	/* The context both sides share: "stream, 1 flow, rx copy". */
	char context[128];
	struct crossover_question question;
	/* Each side's run (its msg_size the search's), and the figure. */
	struct run_config side[2];
	struct estimate_of of;

	struct crossover_run *run; /* every run, in order */
	size_t run_count, run_capacity;
	struct crossover_size size[CROSSOVER_SIZES_MAX]; /* by size */
	size_t size_count;
	struct crossover_bracket bracket[CROSSOVER_BRACKETS_MAX];
	size_t bracket_count;

	enum crossover_state state;
	char why[CROSSOVER_TEXT_MAX]; /* why it stopped; "" while searching */
	char failure[200];	      /* the last failed run's error */
	size_t runs, failed;	      /* started; of them, not counted */
	double elapsed_s;	      /* from its first run's start */
	uint64_t started_ns;	      /* 0: no run yet */
	/* The run it asked for last and has not been told of. */
	bool asked;
	size_t asked_size;
	int asked_side;
	uint64_t asked_ns;
};
extern const struct record crossover_record;

/* An empty search of q. */
void crossover_init(struct crossover *x, const struct crossover_question *q);
void crossover_fini(struct crossover *x);

/*
 * The next run at now_ns: its size and side (0: A), or false once the
 * search has stopped (x->state, x->why).  A run is asked for only if it
 * would end within the budget, as the runs so far took.
 */
bool crossover_next(struct crossover *x, uint64_t now_ns, size_t *msg_size,
		    int *side);
/*
 * The run asked for last ended at now_ns: run's number, usable, value and
 * series (its msg_size, side and wall_s are the search's own).  error:
 * why it did not count, or NULL.  0, or -ENOMEM.
 */
int crossover_add(struct crossover *x, const struct crossover_run *run,
		  const char *error, uint64_t now_ns);
/* Stops the search (a user, a signal): why, for people. */
void crossover_stop(struct crossover *x, const char *why);
bool crossover_searching(const struct crossover *x);

/* A copy of from into to, its runs its own (a frozen screen's): 0, -ENOMEM. */
int crossover_copy(struct crossover *to, const struct crossover *from);

/*
 * The sizes, leads and brackets again from x->run (after --load): 0, or
 * -ENOMEM.
 */
int crossover_rebuild(struct crossover *x);

/* The size of msg_size, or NULL. */
const struct crossover_size *crossover_size_of(const struct crossover *x,
					       size_t msg_size);
/* The run that is the session's run number, or NULL. */
const struct crossover_run *crossover_run_of(const struct crossover *x,
					     size_t number);

/* "9 KiB", "1.5 MiB", "5.625 KiB", "640 B": a size as the search says it, exact. */
void crossover_size_text(size_t bytes, char *out, size_t size);
/* "one-copy ahead", "sendfile ahead", "equal within 5%", "pending", ... */
void crossover_lead_text(const struct crossover *x, enum crossover_lead lead,
			 char *out, size_t size);
/*
 * The one line a user quotes: "sendfile overtakes one-copy between 8 KiB
 * and 10 KiB (Gbit/s, 95%; 14 sizes, 62 runs, 3 min 40 s)", or "no
 * crossover in 1 KiB..1 MiB: one-copy ahead at every size tried (...)",
 * "no crossover decided in ...: one-copy ahead at 1 KiB; undecided at 64
 * KiB (...)", or "more than one crossover ...".
 */
void crossover_line(const struct crossover *x, char *out, size_t size);
/*
 * The answer in short, for a status line: the line without its figure and
 * cost, and without "more than one crossover in ..." before two brackets
 * ("sendfile overtakes one-copy between 8 KiB and 10 KiB; one-copy
 * overtakes sendfile between ..., not narrowed to 1.25x").
 */
void crossover_answer(const struct crossover *x, char *out, size_t size);
/* How far it is: "5 sizes, 18 runs, 1 min 2 s of 5 min". */
void crossover_progress(const struct crossover *x, char *out, size_t size);
/*
 * Where it is, for a status line: "5 sizes, 18 runs, 1 min 2 s of 5 min;
 * sendfile overtakes one-copy between 2 KiB and 8 KiB so far".
 */
void crossover_status(const struct crossover *x, char *out, size_t size);
/* The seconds of its budget left at now_ns (its runs' time while stopped). */
double crossover_left_s(const struct crossover *x, uint64_t now_ns);
/* "3 min 40 s", "52 s": a duration as the search says it. */
void crossover_duration_text(double seconds, char *out, size_t size);

#endif
