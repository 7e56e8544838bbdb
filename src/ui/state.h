/*
 * The UI's state that more than one part of the screen reads: the terminal
 * and its theme, the views' table and their states (each view keeps its own
 * behind a pointer), the status line, the controls' focus, the runs table's
 * selection, marks, sort and filter, a frozen screen, and the figures a
 * screen can show.  Types only: what acts on them lives in the module that
 * names it.
 */
#ifndef NIO_TOP_UI_STATE_H
#define NIO_TOP_UI_STATE_H

#include <curses.h>
#include <stdbool.h>
#include <stdint.h>
#include <termios.h>

#include "analysis.h"
#include "command.h"
#include "explorer.h"
#include "figure.h"
#include "paint.h"
#include "session.h"
#include "theme.h"

#define UI_MIN_COLS 80
#define UI_MIN_ROWS 24
/* Below this many rows the screen is compact: a view takes the whole body. */
#define UI_ROOMY_ROWS 30
/* Controls the panel has room to remember where it drew. */
#define UI_CONTROLS_MAX 12

/* A figure a graph, compare or chart can show: a metric on one side. */
struct ui_metric {
	size_t metric; /* the metric table's row */
	enum gauge_side side;
};

#define UI_METRICS_MAX (2 * METRICS_MAX)

/* The runs table's columns, by what they sort on. */
#define UI_COLUMNS_MAX 14

struct ui_column {
	char key[32];		 /* "#", "run", "secs", a metric's key, "p50" */
	char head[16];		 /* the heading */
	struct ui_metric metric; /* for a metric's column */
	bool is_metric;
	/* An rr run's round trip (stream runs show "-"). */
	bool latency;
	/*
	 * The probe's round trip beside the load, or alone (probe_idle):
	 * runs without a probe show "-".
	 */
	bool probe;
	bool probe_idle;
	enum figure_percentile percentile;
	/*
	 * A share of metric.side's profile, in %: a role's, or the copy
	 * roles' together (role ROLES_MAX).  Unsampled runs show "-".
	 */
	bool profile;
	size_t role;
	/*
	 * A share of metric.side's wall time, in %: a reason's, on the CPU
	 * (reason reason_count), or the largest wait's (SIZE_MAX), whose
	 * cell names it ("data 62%").  Unwatched runs show "-".
	 */
	bool time;
	size_t reason;
};

/* The runs table: what is selected, marked, sorted and filtered. */
struct ui_runs {
	size_t cursor;	 /* the selected run (its index in the results) */
	size_t seen;	 /* results at the last draw */
	size_t new_runs; /* finished since the cursor left the latest */
	bool *marked;	 /* per run: compared side by side */
	size_t marked_capacity;
	char sort[32]; /* a column's key; "#" by default */
	bool descending;
	char filter[64]; /* runs whose label holds it; "" for all */
	size_t first;	 /* the row on the table's first line */
	size_t page;	 /* the table's rows, as last drawn */
	struct rect at;	 /* where it was drawn (h 0: not on screen) */
};

/* A question on the status line, answered by the next keys. */
enum ui_prompt {
	PROMPT_NONE,
	PROMPT_QUIT,   /* a sweep runs, or runs are not saved */
	PROMPT_CHANGE, /* a sweep runs and a control would end it */
	PROMPT_FILTER, /* the filter is being typed */
	PROMPT_NAME,   /* a preset's name is being typed */
};

/* Commands for the main loop, gathered while keys are read. */
struct ui_commands {
	struct ui_command cmd[UI_COMMANDS_MAX];
	size_t count;
};

#define UI_VIEWS_MAX	 16
#define UI_TYPEAHEAD_MAX 32

struct ui {
	SCREEN *screen;
	struct termios saved;
	int stdin_flags; /* restored on exit; -1 if unknown */
	bool utf8;
	int rows, cols;

	struct theme theme;
	const char *theme_dir;
	char **theme_names;
	size_t theme_count;

	/* Each view's and overlay's own state, as ui_views[] (views.c). */
	void *state[UI_VIEWS_MAX];
	size_t view;	/* the view on screen */
	size_t overlay; /* the overlay over it, or SIZE_MAX */
	bool drawn;	/* once: a loaded export opens on its runs */

	/* The status line: a question, or the latest note. */
	enum ui_prompt prompt;
	int prompt_key;		   /* the key that asked, to say yes */
	struct ui_command pending; /* PROMPT_CHANGE: what it would do */
	char pending_what[64];	   /* "change the size" */
	char typed[64];		   /* PROMPT_NAME: the name so far */
	int refused;		   /* PROMPT_NAME: a key no name has, or 0 */
	/* Keys read during a wait outside the loop, for ui_read(). */
	int typeahead[UI_TYPEAHEAD_MAX];
	size_t typeahead_count;
	char note[256];
	uint64_t note_ns; /* when the note was said */
	bool note_news;	  /* the note is the explorer's, not a key's answer */
	/*
	 * The explorer's count of its messages (explorer.said) when the
	 * status line last took one: a count that differs is a new message,
	 * even one worded as the last.
	 */
	unsigned int said_taken;

	/* The controls: which has the focus, and where they were drawn. */
	size_t focus;	      /* options_control_at() */
	struct rect controls; /* h 0: not on screen */
	int control_row[UI_CONTROLS_MAX];
	int strategy_row; /* first row of the strategy list; -1: none */

	struct ui_runs runs;

	/* Frozen (Z): the screen holds what it showed; runs go on. */
	bool frozen;
	struct explorer frozen_explorer;
	struct explorer_point *frozen_history;
	struct session frozen_session; /* result_count: the runs then */
	struct analysis frozen_analysis;

	/* The figures to choose from, by the metric table. */
	struct ui_metric metric[UI_METRICS_MAX];
	size_t metric_count;
};

#endif
