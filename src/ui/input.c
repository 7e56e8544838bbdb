/* Input, by the key tables of keymap.c, table.c and each view. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "freeze.h"
#include "input.h"
#include "keymap.h"
#include "panel.h"
#include "skin.h"
#include "status.h"
#include "table.h"
#include "units.h"
#include "views.h"

/*
 * How many views there are, the overlays left out: ui_views[] lists the
 * views first, and v steps through them.
 */
static size_t view_count(void)
{
	size_t n = 0;

	while (n < ui_view_count && !ui_views[n]->overlay)
		n++;
	return n;
}

/* Shows view or overlay i, or closes it when it is the overlay shown. */
static void show(struct ui *ui, size_t i)
{
	const struct ui_view *v;

	if (i == SIZE_MAX)
		return;
	v = ui_views[i];
	if (!v->overlay) {
		ui->view = i;
		ui_note(ui, "view: %s (1-%zu go straight to one)", v->name,
			view_count());
		return;
	}
	if (ui->overlay == i) {
		ui->overlay = SIZE_MAX;
		return;
	}
	/* An overlay opens afresh, not where it was left (the help: at the
	 * view's own keys). */
	if (v->close)
		v->close(ui->state[i]);
	ui->state[i] = v->open ? v->open(ui) : NULL;
	if (v->open && !ui->state[i]) {
		ui_note(ui, "the %s cannot open: out of memory", v->name);
		return;
	}
	ui->overlay = i;
}

/* The name S suggests: what the controls run, "saved-one-copy-64K-x2-rr". */
static void suggested_name(const struct explorer *e, char *out, size_t size)
{
	const struct run_config *c = &e->config;
	char bytes[24];

	units_format_size(c->msg_size, bytes, sizeof(bytes));
	snprintf(out, size, "saved-%s-%s-x%u%s", c->strategy->name, bytes,
		 c->threads, c->mode == RUN_RR ? "-rr" : "");
}

/* Why a control key did nothing here. */
static void controls_hidden(struct ui *ui)
{
	if (ui->overlay != SIZE_MAX)
		ui_note(ui, "the %s covers the controls: Esc closes it",
			ui_views[ui->overlay]->name);
	else
		ui_note(ui,
			"the controls are not on screen in the %s view here: "
			"1 shows them (a taller terminal shows them with "
			"every view)",
			ui_views[ui->view]->name);
}

/* The keys that change a control or what runs: where the controls show. */
static void control_action(struct ui *ui, const struct explorer *e,
			   const struct ui_key *k, struct ui_commands *out)
{
	if (!ui->controls.h) {
		controls_hidden(ui);
		return;
	}
	switch (k->action) {
	case ACT_NEXT_CONTROL:
	case ACT_DOWN:
		ui->focus = (ui->focus + 1) % ui_control_count();
		break;
	case ACT_PREV_CONTROL:
	case ACT_UP:
		ui->focus = (ui->focus + ui_control_count() - 1) %
			    ui_control_count();
		break;
	case ACT_DECREASE:
	case ACT_INCREASE:
		ui_change(ui, e, k->key, out, UI_STEP,
			  k->action == ACT_DECREASE ? -1 : 1);
		break;
	default: /* ACT_TOGGLE */
		ui_change(ui, e, k->key, out, UI_TOGGLE, 0);
		break;
	}
}

static void action(struct ui *ui, const struct explorer *e,
		   const struct ui_key *k, struct ui_commands *out)
{
	char name[64];

	switch (k->action) {
	case ACT_SWEEP:
		ui_change(ui, e, k->key, out, UI_SWEEP, 0);
		break;
	case ACT_SAVE_PRESET:
		suggested_name(e, name, sizeof(name));
		ui_ask_name(ui, name);
		break;
	case ACT_PRESETS:
		if (!e->preset_count)
			ui_note(ui, "no presets found (set NIO_TOP_PRESETS)");
		else
			show(ui, ui_view_find("preset list"));
		break;
	case ACT_VIEW_NEXT:
		show(ui, (ui->view + 1) % view_count());
		break;
	case ACT_EXPLAIN:
		show(ui, ui_view_find("data path"));
		break;
	case ACT_HELP:
		show(ui, ui_view_find("help"));
		break;
	case ACT_THEME:
		ui_next_theme(ui);
		break;
	case ACT_FREEZE:
		ui_freeze(ui, e);
		break;
	case ACT_EXPORT:
		ui_push(out, UI_EXPORT, NULL, 0);
		break;
	case ACT_QUIT:
		ui_quit(ui, e, out);
		break;
	case ACT_CLOSE:
		if (ui->overlay == SIZE_MAX && ui->runs.filter[0]) {
			ui->runs.filter[0] = '\0';
			ui_note(ui, "filter cleared");
		}
		ui->overlay = SIZE_MAX;
		break;
	default:
		control_action(ui, e, k, out);
		break;
	}
}

void ui_key(struct ui *ui, const struct explorer *e, int key,
	    struct ui_commands *out)
{
	const struct ui_view *v = ui_views[ui->view];
	const struct ui_key *k;

	if (key == '\r')
		key = '\n';
	/* A note answers the key before: this one is answered afresh. */
	if (!ui->note_news)
		ui->note[0] = '\0';
	if (ui_prompt_key(ui, e, key, out))
		return;
	if (ui->overlay != SIZE_MAX &&
	    ui_views[ui->overlay]->key(ui, ui->state[ui->overlay], e, key, out))
		return;
	if (ui->overlay == SIZE_MAX && v->key &&
	    v->key(ui, ui->state[ui->view], e, key, out))
		return;
	/* A view's own shortcut (1-6), then the keys every view shares. */
	if (ui_view_of_key(key) != SIZE_MAX) {
		show(ui, ui_view_of_key(key));
		return;
	}
	k = ui_key_find(key);
	if (k)
		action(ui, e, k, out);
	else if (ui_runs_is_key(key))
		ui_note(ui, "that key is the runs table's: 2 shows it");
	else if (ui_view_owning_key(key) != SIZE_MAX)
		ui_note(ui, "that key is the %s view's: %c shows it",
			ui_views[ui_view_owning_key(key)]->name,
			ui_views[ui_view_owning_key(key)]->shortcut);
	else
		ui_note(ui, "no such key; F1 or ? lists the keys");
}

/* Whether (y, x) lies in r. */
static bool inside(const struct rect *r, int y, int x)
{
	return r->h && y >= r->y && y < r->y + r->h && x >= r->x &&
	       x < r->x + r->w;
}

/* A click on a control's row: its ends step it, a strategy is picked. */
static void mouse_controls(struct ui *ui, const struct explorer *e,
			   const MEVENT *ev, int clicks,
			   struct ui_commands *out)
{
	const struct rect *c = &ui->controls;

	for (size_t i = 0; i < ui_control_count(); i++) {
		if (ev->y != ui->control_row[i])
			continue;
		ui->focus = i;
		/* The left third steps down, the right third up. */
		if (ev->x < c->x + c->w / 3)
			ui_change(ui, e, KEY_MOUSE, out, UI_STEP, -clicks);
		else if (ev->x >= c->x + 2 * c->w / 3)
			ui_change(ui, e, KEY_MOUSE, out, UI_STEP, clicks);
		return;
	}
	if (ui->strategy_row >= 0 && ev->y >= ui->strategy_row &&
	    ev->y < ui->strategy_row + (int)strategy_count()) {
		ui->focus = 0; /* the strategy's: the list is under it */
		ui_change(ui, e, KEY_MOUSE, out, UI_SET_STRATEGY,
			  ev->y - ui->strategy_row);
	}
}

/* A click or the wheel: on a control, a strategy, a run, or an overlay. */
void ui_mouse(struct ui *ui, const struct explorer *e, struct ui_commands *out)
{
	MEVENT ev;
	int wheel, clicks;

	if (getmouse(&ev) != OK)
		return;
	clicks = ev.bstate & BUTTON1_TRIPLE_CLICKED   ? 3
		 : ev.bstate & BUTTON1_DOUBLE_CLICKED ? 2
						      : 1;
	wheel = ev.bstate & BUTTON4_PRESSED   ? -1
		: ev.bstate & BUTTON5_PRESSED ? 1
					      : 0;
	if (ui->overlay != SIZE_MAX) {
		/* The wheel scrolls an overlay as its arrow keys do. */
		for (int i = 0; wheel && i < 3; i++)
			ui_views[ui->overlay]->key(
				ui, ui->state[ui->overlay], e,
				wheel < 0 ? KEY_UP : KEY_DOWN, out);
		return;
	}
	if (inside(&ui->runs.at, ev.y, ev.x)) {
		size_t k = wheel ? SIZE_MAX
				 : ui_runs_at_row(ui, ui_shown(ui, e), ev.y);

		if (wheel)
			ui_runs_move(ui, e, wheel);
		else if (k != SIZE_MAX)
			ui->runs.cursor = k;
		return;
	}
	if (!inside(&ui->controls, ev.y, ev.x))
		return;
	if (wheel)
		ui_change(ui, e, KEY_MOUSE, out, UI_STEP, -wheel);
	else
		mouse_controls(ui, e, &ev, clicks, out);
}
