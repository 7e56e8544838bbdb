/*
 * What the UI's files share: the UI's own state (views, focus, selection,
 * scrolling, theme) and the drawing helpers.
 */
#ifndef NIO_TOP_UI_PRIVATE_H
#define NIO_TOP_UI_PRIVATE_H

#include <curses.h>
#include <stdbool.h>
#include <termios.h>

#include "analysis.h"
#include "explorer.h"
#include "figure.h"
#include "session.h"
#include "theme.h"
#include "ui.h"

#define UI_MIN_COLS 80
#define UI_MIN_ROWS 24
/* Below this many rows the screen is compact: panes take the whole body. */
#define UI_ROOMY_ROWS 30

/* What the area below the controls and gauges shows. */
enum ui_view {
	VIEW_LIVE,
	VIEW_RUNS,
	VIEW_COMPARE,
	VIEW_CHART,
	VIEW_ANALYSIS,
	VIEW_COUNT,
};

/* What lies over the view, if anything. */
enum ui_overlay {
	OVERLAY_NONE,
	OVERLAY_HELP,
	OVERLAY_EXPLAIN,
	OVERLAY_PRESETS,
};

/* A question on the status line, answered by the next key. */
enum ui_confirm {
	CONFIRM_NONE,
	CONFIRM_QUIT,	/* a sweep runs, or runs are not saved */
	CONFIRM_CHANGE, /* a sweep runs and a control would end it */
	CONFIRM_FILTER, /* the filter is being typed */
};

struct rect {
	int y, x, h, w;
};

/* A figure a graph, compare or chart can show: a metric on one side. */
struct ui_metric {
	size_t metric; /* the metric table's row */
	enum gauge_side side;
};

#define UI_METRICS_MAX (2 * METRICS_MAX)

/*
 * A chart the chart view can draw: a quantity of figure.h against message
 * size (or, for the round trip, against flows), and maybe a whisker.
 */
struct ui_chart {
	struct figure_quantity quantity;
	bool has_whisker; /* a whisker up to whisker's value */
	struct figure_quantity whisker;
	enum figure_axis axis;
	bool rr_only; /* a round trip: only rr runs have it */
	char name[64];
};

#define UI_CHARTS_MAX (UI_METRICS_MAX + 16)
/* Lines of a pane that scrolls, made before they are drawn. */
struct ui_line_text {
	enum theme_role role;
	int indent;
	int mark; /* the first mark characters in mark_role: a key's name */
	enum theme_role mark_role;
	char text[256];
};

struct ui_lines {
	struct ui_line_text *line;
	size_t count;
	size_t capacity;
	size_t fixed; /* the first lines stay when the rest scroll (headings) */
};

/* The runs table's columns, by what they sort on. */
#define UI_COLUMNS_MAX 12

struct ui_column {
	char key[32];		 /* "#", "run", "secs", a metric's key, "p50" */
	char head[16];		 /* the heading */
	struct ui_metric metric; /* for a metric's column */
	bool is_metric;
	/* An rr run's round trip (stream runs show "-"). */
	bool latency;
	enum figure_percentile percentile;
};

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

	enum ui_view view;
	enum ui_overlay overlay;
	size_t overlay_scroll;
	size_t overlay_rows;		/* lines the overlay shows at once */
	size_t view_scroll[VIEW_COUNT]; /* compare and analysis scroll */
	uint64_t compare_runs; /* compare's runs: a new set scrolls home */
	size_t pane_rows;      /* lines compare or analysis shows */
	enum ui_confirm confirm;
	int confirm_key;	   /* the key that asked, to say yes */
	struct ui_command pending; /* CONFIRM_CHANGE: what it would do */
	char pending_what[64];	   /* "change the size" */
	size_t preset_cursor;
	enum explorer_control focus;

	/* The runs table. */
	size_t cursor;	  /* the selected run (its index in the results) */
	size_t seen_runs; /* results at the last draw */
	size_t new_runs;  /* finished since the cursor left the latest */
	bool *marked;	  /* per run: compared side by side */
	size_t marked_capacity;
	char sort[32]; /* a column's key; "#" by default */
	bool descending;
	char filter[64];      /* runs whose label holds it; "" for all */
	size_t history_first; /* the row on the table's first line */
	size_t page;	      /* the table's rows, as last drawn */

	/* Frozen (Z): the screen holds what it showed; runs go on. */
	bool frozen;
	struct explorer frozen_explorer;
	struct explorer_point *frozen_history;
	struct session frozen_session; /* result_count: the runs then */
	struct analysis frozen_analysis;

	/* The figures to choose from, by the metric table. */
	struct ui_metric metric[UI_METRICS_MAX];
	size_t metric_count;
	size_t graph_metric;
	/*
	 * The chart view's own choices, never the live controls': which
	 * chart, over which flows (or, against flows, which size), which mode.
	 */
	struct ui_chart chart[UI_CHARTS_MAX];
	size_t chart_count;
	size_t chart_index;
	unsigned int chart_threads; /* 0: the controls' until chosen */
	size_t chart_size;	    /* 0: the controls' until chosen */
	enum run_mode chart_mode;
	bool chart_mode_chosen;

	char note[256];		/* the status line */
	unsigned int seen_said; /* the explorer's news shown so far */

	/* Where things were drawn, for the mouse. */
	struct rect controls;
	int control_row[CONTROL_COUNT];
	int strategy_row; /* first row of the strategy list; -1: none */
	struct rect history;
};

/* draw.c */
void ui_draw_screen(struct ui *ui, const struct explorer *e);
void ui_box(const struct ui *ui, const struct rect *r, enum theme_role role,
	    const char *title);
void ui_line(const struct ui *ui, int y, int x, int n, bool vertical);
/* Text in width cells; what does not fit is cut with a marker. */
void ui_text(int y, int x, int width, enum theme_role role, const char *fmt,
	     ...) __attribute__((format(printf, 5, 6)));
void ui_format_size(size_t bytes, char *out, size_t size);
void ui_format_value(double value, char *out, size_t size);
void ui_format_duration(uint64_t ms, char *out, size_t size);
/* A reason without its parenthesised details, where the whole does not fit. */
void ui_short_reason(const char *why, char *out, size_t size);
void ui_metric_name(const struct ui_metric *m, char *out, size_t size);
/* The figures of the metric table a screen can show, in order. */
void ui_metrics_init(struct ui *ui);
/* The charts the chart view offers (after ui_metrics_init()). */
void ui_charts_init(struct ui *ui);

/* graph.c: the chart's series, one per strategy in registry order. */
#define UI_CHART_SERIES 7
extern const enum theme_role ui_chart_roles[UI_CHART_SERIES];
extern const char ui_chart_markers[UI_CHART_SERIES + 1];
/* A result's figure as a table cell: "12.3", or "n/a". */
void ui_result_cell(const struct run_result *r, const struct ui_metric *m,
		    char *out, size_t size);
/* "one-copy 16 KiB x1" */
void ui_result_label(const struct run_result *r, char *out, size_t size);

/* panes.c: the lines of a pane, wrapped, and drawing them scrolled. */
void ui_lines_add(struct ui_lines *l, enum theme_role role, int indent,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Adds text wrapped at width, each line after the first at indent. */
void ui_lines_wrap(struct ui_lines *l, enum theme_role role, int width,
		   int indent, const char *text);
/* Line i's first n characters in role (the line's keys, say). */
void ui_lines_mark(struct ui_lines *l, size_t i, enum theme_role role, int n);
void ui_lines_free(struct ui_lines *l);
/* Text in box r from its row dy on, wrapped at words (an empty view's hint). */
void ui_say(const struct rect *r, int dy, enum theme_role role, const char *fmt,
	    ...) __attribute__((format(printf, 4, 5)));
/* Draws the lines in r (inside its box) from *scroll, clamping it. */
void ui_lines_draw(const struct ui *ui, const struct ui_lines *l,
		   const struct rect *r, size_t *scroll);
void ui_draw_runs(struct ui *ui, const struct explorer *e,
		  const struct rect *r);
void ui_draw_compare(struct ui *ui, const struct explorer *e,
		     const struct rect *r);
void ui_draw_analysis(struct ui *ui, const struct explorer *e,
		      const struct rect *r);
void ui_draw_explain(struct ui *ui, const struct explorer *e);
void ui_draw_presets(struct ui *ui, const struct explorer *e);
/* The runs shown, filtered and sorted: their indexes, and how many. */
size_t ui_runs_order(struct ui *ui, const struct explorer *e, size_t *order);
/* The sorted column's heading: "Gbit/s", "run number". */
void ui_sort_name(const struct ui *ui, const struct explorer *e, char *out,
		  size_t size);
/* "largest first", or as the sorted column (by name) reads: "A to Z". */
const char *ui_sort_direction(const struct ui *ui, const char *name);
/* Whether an rr run is among the runs (the table shows the round trip). */
bool ui_runs_rr(const struct explorer *e);
/* The columns of the runs table, by the metric table. */
size_t ui_runs_columns(struct ui_column *col);

void ui_graph(struct ui *ui, const struct explorer *e, const struct rect *r,
	      const struct ui_metric *metric, enum theme_role low,
	      enum theme_role high);
void ui_chart(struct ui *ui, const struct explorer *e, const struct rect *r);
/* The chart's mode, flows and size: chosen, else the controls'. */
enum run_mode ui_chart_mode(const struct ui *ui, const struct explorer *e);
/* Steps the chart's flows (or size) to the next measured one. */
void ui_chart_step(struct ui *ui, const struct explorer *e, int delta);

/* ui.c */
/* t: the next theme of the folder, said on the status line. */
void ui_next_theme(struct ui *ui);

/* keys.c */
/* A key's name in the key table ("Right", "F5"), or "the key". */
const char *ui_key_label(int key);
/* What a frozen screen shows: the explorer and its runs when frozen. */
const struct explorer *ui_frozen_view(struct ui *ui, const struct explorer *e);
/* Follows the newest run, or counts new runs while an old one is chosen. */
void ui_track_runs(struct ui *ui, const struct explorer *e);
void ui_draw_help(struct ui *ui);
/* The key bar's line, from the key table. */
void ui_draw_keybar(const struct ui *ui);

#endif
