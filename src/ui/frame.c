/*
 * The frame.  Everything is drawn anew from the explorer on every refresh;
 * curses sends only what changed.  Where a part was drawn (the controls,
 * the runs table) is kept for the mouse and for the keys: what is not on
 * screen is not changed by a key.
 */
#include "frame.h"
#include "freeze.h"
#include "panel.h"
#include "status.h"
#include "table.h"
#include "views.h"

/* The controls and the gauges, from the top; returns the area below. */
static struct rect frame_panel(struct ui *ui, const struct explorer *e,
			       int body, bool compact)
{
	struct rect controls, gauges;
	struct ui_gauges *g;
	int rows, top;

	g = ui_gauges_layout(ui, e, ui->cols - UI_CONTROLS_W - 4, body - 5,
			     &rows);
	top = ui_controls_rows(compact);
	if (rows > top)
		top = rows;
	if (top > body - 5)
		top = body - 5;
	controls = (struct rect){1, 0, top, UI_CONTROLS_W};
	gauges = (struct rect){1, UI_CONTROLS_W, top, ui->cols - UI_CONTROLS_W};
	ui_draw_controls(ui, e, &controls, compact);
	if (g)
		ui_draw_gauges(ui, e, &gauges, g);
	ui_gauges_free(g);
	return (struct rect){1 + top, 0, body - top, ui->cols};
}

void ui_frame_draw(struct ui *ui, const struct explorer *live)
{
	const struct ui_view *v = ui_views[ui->view];
	bool compact = ui->rows < UI_ROOMY_ROWS;
	const struct explorer *e;
	char status[sizeof(ui->note) + 256];
	enum theme_role role;
	int rows, body;
	struct rect area;

	ui_runs_track(ui, live);
	rows = ui_status_text(ui, live, status, sizeof(status), &role);
	body = ui->rows - 2 - rows;
	e = ui_shown(ui, live);
	if (ui->rows < UI_MIN_ROWS || ui->cols < UI_MIN_COLS) {
		ui_draw_too_small(ui);
		return;
	}
	bkgdset((chtype)theme_attr(ROLE_TEXT) | ' ');
	erase();
	ui_draw_header(ui, e, live);
	ui->runs.at.h = 0;
	ui->controls.h = 0;
	/* Small: a view but the live one takes the whole body. */
	if (compact && ui->view != 0)
		area = (struct rect){1, 0, body, ui->cols};
	else
		area = frame_panel(ui, e, body, compact);
	v->draw(ui, ui->state[ui->view], e, &area);
	ui_draw_status(ui, status, role, rows);
	if (ui->overlay != SIZE_MAX) {
		struct rect over = {1, 0, body, ui->cols};

		/* An overlay stands alone: no edge under it peeks out. */
		ui_clear(&over);
		ui_views[ui->overlay]->draw(ui, ui->state[ui->overlay], e,
					    &over);
		/* What it covers takes no key and no click. */
		ui->runs.at.h = 0;
		ui->controls.h = 0;
	}
	ui_draw_keybar(ui, v,
		       ui->overlay != SIZE_MAX ? ui_views[ui->overlay] : NULL,
		       ui->runs.at.h > 0, live->viewing);
}
