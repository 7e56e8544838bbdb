/*
 * The runs table: every finished run, one row each, numbered as the
 * header and the export number them, filtered by a text and sorted by any
 * column; the selected run, the marked ones (compare reads them), and new
 * runs followed unless an older one is selected.  The live view draws it
 * under the graphs where there is room, the runs view fills the body with
 * it, and its keys work wherever it is on screen.
 */
#ifndef NIO_TOP_UI_TABLE_H
#define NIO_TOP_UI_TABLE_H

#include "state.h"
#include "view.h"

/* The table's keys: selection, marks, sort and filter. */
extern const struct ui_keyhelp ui_runs_keys[];
extern const size_t ui_runs_key_count;

/* The columns of the table, by the metric table. */
size_t ui_runs_columns(struct ui_column *col);
/* A column's figure of a run: false if it has none. */
bool ui_column_value(const struct run_result *r, const struct ui_column *c,
		     double *v);
/*
 * Whether column c is a profile's and r's side of it was sampled in user
 * space only: its shares of the CPU are n/a.
 */
bool ui_profile_user_only(const struct run_result *r,
			  const struct ui_column *c);
/* A column's cell: the figure, "-" where the mode has none, or "n/a". */
void ui_column_cell(const struct run_result *r, const struct ui_column *c,
		    char *out, size_t size);
/* Whether an rr run is among the runs (the table shows the round trip). */
bool ui_runs_rr(const struct explorer *e);
/* The runs shown, filtered and sorted: their indexes, and how many. */
size_t ui_runs_order(const struct ui *ui, const struct explorer *e,
		     size_t *order);
/* The sorted column's heading: "Gbit/s", "run number". */
void ui_sort_name(const struct ui *ui, const struct explorer *e, char *out,
		  size_t size);
/* "largest first", or as the sorted column (by name) reads: "A to Z". */
const char *ui_sort_direction(const struct ui *ui, const char *name);
/* The sort a saved setting names, if the table has that column. */
void ui_runs_sort_by(struct ui *ui, const char *key, bool descending);

/* Keeps the newest run selected as runs finish, unless an older one is. */
void ui_runs_track(struct ui *ui, const struct explorer *e);
/* Moves the selection by delta rows (SIZE_MAX / 4: to an end). */
void ui_runs_move(struct ui *ui, const struct explorer *e, long delta);
/* The run on screen row y of the table, or SIZE_MAX. */
size_t ui_runs_at_row(const struct ui *ui, const struct explorer *e, int y);
/* Whether run k is marked. */
bool ui_runs_marked(const struct ui *ui, size_t k);
/*
 * Why run k is left out of the analysis and the chart, as its row says it:
 * "stopped" (a stop ended its window), "short", or "".
 */
const char *ui_run_mark(const struct explorer *e, size_t k);

/* Draws the table in r; r.h 0 leaves it off screen. */
void ui_runs_draw(struct ui *ui, const struct explorer *e,
		  const struct rect *r);
/*
 * One of the table's keys, with the table on screen: true when it was one.
 * arrows: Up and Down move the selection too (the runs view).
 */
bool ui_runs_key(struct ui *ui, const struct explorer *e, int key, bool arrows);
/* Whether key is one of the table's (to say where it works). */
bool ui_runs_is_key(int key);

#endif
