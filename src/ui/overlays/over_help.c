/*
 * The help: every key, from the tables that drive them -- the keys every
 * view shares, the runs table's, then each view's own -- so that it cannot
 * drift from what the keys do; then what the screens' words mean (the
 * glossary).  It scrolls; q quits, Esc and any other key close it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "glossary.h"
#include "keymap.h"
#include "table.h"
#include "views.h"

struct help {
	size_t scroll, page;
	bool placed; /* scrolled to the view's own keys, once */
};

static void *help_open(struct ui *ui)
{
	(void)ui;
	return calloc(1, sizeof(struct help));
}

static void help_close(void *state)
{
	free(state);
}

#define KEYS_W 15

static void help_key_line(struct ui_lines *l, int width, const char *keys,
			  const char *help)
{
	size_t first = l->count;
	char text[512];

	snprintf(text, sizeof(text), "%-*s  %s", KEYS_W, keys, help);
	ui_lines_wrap(l, ROLE_TEXT, width, KEYS_W + 2, text);
	/* The keys stand out from what they do. */
	if (l->count > first)
		ui_lines_mark(l, first, ROLE_HIGHLIGHT, KEYS_W);
}

static void help_heading(struct ui_lines *l, const char *text)
{
	ui_lines_add(l, ROLE_TEXT, 0, "%s", "");
	ui_lines_add(l, ROLE_TITLE, 0, "%s", text);
}

/*
 * Each view's own keys, under its name and the key that shows it; *at:
 * the line of view here's heading (unchanged if it has no keys).
 */
static void help_views(int width, size_t here, struct ui_lines *l, size_t *at)
{
	char heading[96];

	help_heading(l, "The runs table's keys (where it shows: 2, and 1 "
			"below the graphs):");
	for (size_t k = 0; k < ui_runs_key_count; k++)
		help_key_line(l, width, ui_runs_keys[k].keys,
			      ui_runs_keys[k].help);
	for (size_t i = 0; i < ui_view_count; i++) {
		const struct ui_view *v = ui_views[i];
		size_t n = ui_view_key_count(v);

		if (!n)
			continue;
		if (v->shortcut)
			snprintf(heading, sizeof(heading),
				 "In %s (%c):", v->name, v->shortcut);
		else
			snprintf(heading, sizeof(heading),
				 "Over the %s:", v->name);
		help_heading(l, heading);
		if (i == here)
			*at = l->count - 1;
		for (size_t k = 0; k < n; k++)
			help_key_line(l, width, v->keys[k].keys,
				      v->keys[k].help);
	}
}

static void help_draw(struct ui *ui, void *state, const struct explorer *e,
		      const struct rect *body)
{
	struct help *h = state;
	struct rect r = {body->y, 2, body->h, ui->cols - 4};
	struct ui_lines l = {0};
	size_t at = 0;
	int width;

	(void)e;
	if (r.w > 100) {
		r.w = 100;
		r.x = (ui->cols - r.w) / 2;
	}
	width = r.w - 4;
	ui_lines_wrap(&l, ROLE_INACTIVE, width, 0,
		      "The keys first; below them, what the screens' words "
		      "mean.");
	ui_lines_add(&l, ROLE_TEXT, 0, "%s", "");
	ui_lines_add(&l, ROLE_TITLE, 0, "%s", "Everywhere:");
	for (size_t i = 0; i < ui_key_count; i++) {
		char keys[64], help[160];

		if (!ui_keys[i].help)
			continue;
		ui_key_help(i, keys, sizeof(keys), help, sizeof(help));
		help_key_line(&l, width, keys, help);
	}
	help_views(width, ui->view, &l, &at);
	ui_lines_add(&l, ROLE_TEXT, 0, "%s", "");
	ui_lines_wrap(&l, ROLE_INACTIVE, width, 0,
		      "The mouse: a click on the left or right end of a "
		      "control steps it, on a strategy picks it, on a run "
		      "selects it; the wheel steps the focused control, or "
		      "scrolls what it is over.");
	ui_lines_wrap(&l, ROLE_INACTIVE, width, 0,
		      "q or F10 quits from anywhere; the bottom bar names "
		      "the function keys and the view's own. A key goes to "
		      "what is on screen first: the controls change only "
		      "where they show.");
	ui_glossary(&l, width);
	/* Opened over a view but the live one: at that view's own keys. */
	if (!h->placed && ui->view)
		h->scroll = at;
	h->placed = true;
	ui_clear(&r);
	/* Short enough to leave the frame's "more" mark room at 80 columns. */
	ui_box(ui->utf8, &r, ROLE_TITLE,
	       "Keys and words (Up/Down/PgUp/PgDn/Home/End, Esc closes)");
	h->page = ui_lines_draw(ui->utf8, &l, &r, &h->scroll);
	ui_lines_free(&l);
}

/* Over the help, keys scroll, q quits, and the rest close it. */
static bool help_key(struct ui *ui, void *state, const struct explorer *e,
		     int key, struct ui_commands *out)
{
	struct help *h = state;

	(void)e;
	(void)out;
	if (ui_scroll_key(key, &h->scroll, h->page))
		return true;
	if (key == 'q' || key == KEY_F(10))
		return false;
	ui->overlay = SIZE_MAX;
	return true;
}

const struct ui_view ui_over_help = {
	.name = "help",
	.overlay = true,
	.open = help_open,
	.close = help_close,
	.draw = help_draw,
	.key = help_key,
};
