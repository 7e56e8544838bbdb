/*
 * What stays on screen whatever the view: the header (the network, the run
 * in progress, what is frozen or new), the controls and the live gauges
 * side by side with the run's totals below them, the key bar, and the
 * screen a terminal too small gets instead.
 */
#ifndef NIO_TOP_UI_PANEL_H
#define NIO_TOP_UI_PANEL_H

#include "state.h"
#include "view.h"

#define UI_CONTROLS_W 36

/* e: the explorer shown (frozen, or live); live: the one that goes on. */
void ui_draw_header(const struct ui *ui, const struct explorer *e,
		    const struct explorer *live);

/* The rows the controls need; compact: without the strategy list. */
int ui_controls_rows(bool compact);
/* The controls the panel shows: the option table's, as many as fit. */
size_t ui_control_count(void);
void ui_draw_controls(struct ui *ui, const struct explorer *e,
		      const struct rect *r, bool compact);

/* The gauges laid out for a box width cells wide and at most max rows. */
struct ui_gauges;
struct ui_gauges *ui_gauges_layout(const struct ui *ui,
				   const struct explorer *e, int width, int max,
				   int *rows);
void ui_draw_gauges(struct ui *ui, const struct explorer *e,
		    const struct rect *r, struct ui_gauges *g);
void ui_gauges_free(struct ui_gauges *g);

/*
 * The key bar, htop's: the function keys that matter most where there is
 * room, then the view's own keys and how to reach the other views.
 * over: the overlay on it, or NULL (the view's F5 word stays, the
 * overlay's own keys replace the view's).  table: the runs table is on
 * screen (its function keys count); viewing: nothing runs (a loaded
 * export), so no key that starts runs is offered.
 */
void ui_draw_keybar(const struct ui *ui, const struct ui_view *view,
		    const struct ui_view *over, bool table, bool viewing);

void ui_draw_too_small(const struct ui *ui);

#endif
