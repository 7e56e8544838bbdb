/*
 * The preset list (p, F3): every preset shipped or saved, its name, how
 * many runs it starts and for how long, and what it is for.  Up and Down
 * choose, Enter loads it (asking first during a sweep), p or Esc closes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"
#include "view.h"

struct presets {
	size_t cursor;
	size_t scroll, page;
};

static void *presets_open(struct ui *ui)
{
	(void)ui;
	return calloc(1, sizeof(struct presets));
}

static void presets_close(void *state)
{
	free(state);
}

/* "288 runs, about 12 min: " -- what loading a preset starts. */
static void preset_size(const struct preset_entry *p, char *out, size_t size)
{
	if (!p->runs)
		snprintf(out, size, "%s", "");
	else if (!p->seconds)
		snprintf(out, size, "%zu run%s, continuous: ", p->runs,
			 p->runs == 1 ? "" : "s");
	else if (p->seconds < 90)
		snprintf(out, size, "%zu run%s, about %.0f s: ", p->runs,
			 p->runs == 1 ? "" : "s", p->seconds);
	else
		snprintf(out, size, "%zu run%s, about %.0f min: ", p->runs,
			 p->runs == 1 ? "" : "s", p->seconds / 60);
}

/* The list's lines; where the chosen preset's lines begin and end. */
static void presets_lines(const struct presets *p, const struct explorer *e,
			  int width, struct ui_lines *l, size_t *from,
			  size_t *to)
{
	int name_w = 8;

	/* The names' column: as wide as the longest, within reason. */
	for (size_t i = 0; i < e->preset_count; i++)
		if ((int)strlen(e->presets[i].name) > name_w)
			name_w = (int)strlen(e->presets[i].name);
	if (name_w > width / 3)
		name_w = width / 3;
	*from = *to = 0;
	for (size_t i = 0; i < e->preset_count; i++) {
		const struct preset_entry *entry = &e->presets[i];
		char text[1200], size[64];

		if (i == p->cursor)
			*from = l->count;
		preset_size(entry, size, sizeof(size));
		snprintf(text, sizeof(text), "%-*s %s%s", name_w, entry->name,
			 size,
			 entry->description[0] ? entry->description
					       : "(no description)");
		ui_lines_wrap(l, i == p->cursor ? ROLE_SELECTED : ROLE_TEXT,
			      width, name_w + 1, text);
		if (i == p->cursor)
			*to = l->count - 1;
	}
}

static void presets_draw(struct ui *ui, void *state, const struct explorer *e,
			 const struct rect *body)
{
	struct presets *p = state;
	struct rect r = ui_centred(ui->rows, ui->cols, 96, ui->rows);
	struct ui_lines l = {0};
	size_t from, to;

	if (p->cursor >= e->preset_count)
		p->cursor = 0;
	presets_lines(p, e, r.w - 4, &l, &from, &to);
	/* As tall as the body, as the help is: the overlay stands alone. */
	if (r.y + r.h > body->y + body->h)
		r.h = body->y + body->h - r.y;
	ui_clear(&r);
	ui_box(ui->utf8, &r, ROLE_TITLE, "Presets (Enter loads, Esc closes)");
	/* The chosen preset stays in sight, all its lines. */
	if (from < p->scroll)
		p->scroll = from;
	if (r.h > 2 && to >= p->scroll + (size_t)(r.h - 2))
		p->scroll = to - (size_t)(r.h - 3);
	p->page = ui_lines_draw(ui->utf8, &l, &r, &p->scroll);
	ui_lines_free(&l);
}

/* Up, Down, PgUp ... choose; Enter loads; p or Esc closes. */
static bool presets_key(struct ui *ui, void *state, const struct explorer *e,
			int key, struct ui_commands *out)
{
	struct presets *p = state;
	size_t last = e->preset_count ? e->preset_count - 1 : 0;
	size_t page = p->page ? p->page : 1;

	if (key == KEY_UP || key == 'k')
		p->cursor = p->cursor ? p->cursor - 1 : 0;
	else if (key == KEY_DOWN || key == 'j')
		p->cursor = p->cursor < last ? p->cursor + 1 : last;
	else if (key == KEY_PPAGE)
		p->cursor = p->cursor > page ? p->cursor - page : 0;
	else if (key == KEY_NPAGE)
		p->cursor = p->cursor + page < last ? p->cursor + page : last;
	else if (key == KEY_HOME || key == KEY_END)
		p->cursor = key == KEY_HOME ? 0 : last;
	else if (key == '\n' || key == KEY_ENTER) {
		ui->overlay = SIZE_MAX;
		ui_change(ui, e, key, out, UI_LOAD_PRESET, (int)p->cursor);
	} else if (key == 'p' || key == KEY_F(3))
		ui->overlay = SIZE_MAX;
	else
		return false;
	return true;
}

const struct ui_view ui_over_presets = {
	.name = "preset list",
	.overlay = true,
	.keys =
		{
			{"Up Down PgUp PgDn Home End k j", "choose a preset"},
			{"Enter", "load it (its grid runs as a sweep)"},
			{"p F3 Esc", "close the list"},
		},
	.open = presets_open,
	.close = presets_close,
	.draw = presets_draw,
	.key = presets_key,
};
