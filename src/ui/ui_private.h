/*
 * What the UI's files share: the UI's own state (views, focus, selection,
 * theme) and the drawing helpers.
 */
#ifndef NIO_TOP_UI_PRIVATE_H
#define NIO_TOP_UI_PRIVATE_H

#include <curses.h>
#include <stdbool.h>
#include <termios.h>

#include "explorer.h"
#include "figure.h"
#include "theme.h"
#include "ui.h"

#define UI_MIN_COLS 80
#define UI_MIN_ROWS 24

enum ui_view { VIEW_LIVE, VIEW_COMPARE, VIEW_CHART, VIEW_ANALYSIS, VIEW_COUNT };

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
	bool help;
	bool explain;
	bool confirm_quit;
	bool preset_menu;
	size_t preset_cursor;
	enum explorer_control focus;
	size_t cursor;	  /* the selected run in the history */
	size_t seen_runs; /* runs in the history at the last draw */
	bool *marked;	  /* per run: compared side by side */
	size_t marked_capacity;
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
	char seen_message[256]; /* the explorer's, once shown */

	/* Where things were drawn, for the mouse. */
	struct rect controls;
	int control_row[CONTROL_COUNT];
	int strategy_row; /* first row of the strategy list */
	struct rect history;
	size_t history_first; /* the run on the history's first row */
};

/* draw.c */
void ui_draw_screen(struct ui *ui, const struct explorer *e);
void ui_box(const struct ui *ui, const struct rect *r, enum theme_role role,
	    const char *title);
void ui_line(const struct ui *ui, int y, int x, int n, bool vertical);
void ui_text(int y, int x, int width, enum theme_role role, const char *fmt,
	     ...) __attribute__((format(printf, 5, 6)));
void ui_format_size(size_t bytes, char *out, size_t size);
void ui_format_value(double value, char *out, size_t size);
void ui_format_duration(uint64_t ms, char *out, size_t size);
void ui_metric_name(const struct ui_metric *m, char *out, size_t size);
/* The figures of the metric table a screen can show, in order. */
void ui_metrics_init(struct ui *ui);
/* The charts the chart view offers (after ui_metrics_init()). */
void ui_charts_init(struct ui *ui);

/* graph.c: the chart's series, one per strategy in registry order. */
#define UI_CHART_SERIES 7
extern const enum theme_role ui_chart_roles[UI_CHART_SERIES];
extern const char ui_chart_markers[UI_CHART_SERIES + 1];

void ui_graph(struct ui *ui, const struct explorer *e, const struct rect *r,
	      const struct ui_metric *metric, enum theme_role low,
	      enum theme_role high);
void ui_chart(struct ui *ui, const struct explorer *e, const struct rect *r);
/* The chart's mode, flows and size: chosen, else the controls'. */
enum run_mode ui_chart_mode(const struct ui *ui, const struct explorer *e);
/* Steps the chart's flows (or size) to the next measured one. */
void ui_chart_step(struct ui *ui, const struct explorer *e, int delta);

/* ui.c */
void ui_help(struct ui *ui, const struct rect *r);

#endif
