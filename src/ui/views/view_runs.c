/* The runs view: the runs table, taking the whole area below the controls. */
#include "table.h"
#include "view.h"

static void runs_draw(struct ui *ui, void *state, const struct explorer *e,
		      const struct rect *r)
{
	(void)state;
	ui_runs_draw(ui, e, r);
}

/* Up and Down move the selection here, as k and j do. */
static bool runs_key(struct ui *ui, void *state, const struct explorer *e,
		     int key, struct ui_commands *out)
{
	(void)state;
	(void)out;
	return ui_runs_key(ui, e, key, true);
}

const struct ui_view ui_view_runs = {
	.name = "runs",
	.shortcut = '2',
	.bar = NULL,
	.keys =
		{
			{"Up Down", "the previous or next run"},
		},
	.draw = runs_draw,
	.key = runs_key,
};
