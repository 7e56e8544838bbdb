/*
 * The status line.  A note fades UI_NOTE_S seconds after it was said, the
 * explorer's news after UI_NEWS_S: a line that says "live again" a minute
 * later says nothing true.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "clock.h"
#include "keymap.h"
#include "status.h"
#include "views.h"

void ui_note(struct ui *ui, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ui->note, sizeof(ui->note), fmt, ap);
	va_end(ap);
	ui->note_ns = clock_now_ns();
	ui->note_news = false;
}

void ui_push(struct ui_commands *out, enum ui_command_kind kind,
	     const struct option_row *control, int arg)
{
	if (out->count < UI_COMMANDS_MAX)
		out->cmd[out->count++] = (struct ui_command){kind, control, arg,
							     ""};
}

void ui_change(struct ui *ui, const struct explorer *e, int key,
	       struct ui_commands *out, enum ui_command_kind kind, int arg)
{
	const struct option_row *control = options_control_at(ui->focus);
	char label[32];

	if (!explorer_sweeping(e) || ui->prompt == PROMPT_CHANGE) {
		ui_push(out, kind, control, arg);
		return;
	}
	ui->prompt = PROMPT_CHANGE;
	ui->prompt_key = key;
	ui->pending = (struct ui_command){kind, control, arg, ""};
	snprintf(label, sizeof(label), "%s", control->control->label);
	for (char *c = label; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	if (kind == UI_SET_STRATEGY)
		snprintf(ui->pending_what, sizeof(ui->pending_what),
			 "change the strategy");
	else if (kind == UI_STEP ||
		 (kind == UI_TOGGLE && control->control->toggle))
		snprintf(ui->pending_what, sizeof(ui->pending_what),
			 "change the %s", label);
	else
		snprintf(ui->pending_what, sizeof(ui->pending_what), "%s",
			 kind == UI_SWEEP	  ? "start a new sweep"
			 : kind == UI_CROSSOVER	  ? "start a new search"
			 : kind == UI_LOAD_PRESET ? "load the preset"
						  : "run the controls again");
}

void ui_quit(struct ui *ui, const struct explorer *e, struct ui_commands *out)
{
	if (ui->prompt == PROMPT_QUIT ||
	    (!explorer_sweeping(e) && !explorer_unsaved(e)))
		ui_push(out, UI_QUIT, NULL, 0);
	else
		ui->prompt = PROMPT_QUIT;
}

void ui_ask_name(struct ui *ui, const char *suggested)
{
	ui->prompt = PROMPT_NAME;
	snprintf(ui->typed, sizeof(ui->typed), "%s", suggested);
	ui->refused = 0;
}

/*
 * A line being typed: printable characters join it, Backspace takes one
 * back.  True when the key was one of those.
 */
static bool type_into(char *text, size_t size, int key)
{
	size_t len = strlen(text);

	if (key == KEY_BACKSPACE || key == 127 || key == 8) {
		if (len)
			text[len - 1] = '\0';
		return true;
	}
	if (key >= ' ' && key < 127 && len + 1 < size) {
		text[len] = (char)key;
		text[len + 1] = '\0';
		return true;
	}
	return false;
}

/* Typing the filter: it applies as it is typed. */
static void filter_key(struct ui *ui, int key)
{
	if (key == '\n' || key == KEY_ENTER) {
		ui->prompt = PROMPT_NONE;
		ui_note(ui, "%s",
			ui->runs.filter[0]
				? "filter kept (/ changes it, Esc clears it)"
				: "no filter");
	} else if (key == 27) {
		ui->prompt = PROMPT_NONE;
		ui->runs.filter[0] = '\0';
		ui_note(ui, "no filter");
	} else {
		type_into(ui->runs.filter, sizeof(ui->runs.filter), key);
	}
}

/* A name safe as a file name: letters, digits, '-', '_' and '.'. */
static bool name_char(int key)
{
	return (key >= 'a' && key <= 'z') || (key >= 'A' && key <= 'Z') ||
	       (key >= '0' && key <= '9') || key == '-' || key == '_' ||
	       key == '.';
}

/* Typing a preset's name: Enter saves under it, Esc does not save. */
static void name_key(struct ui *ui, int key, struct ui_commands *out)
{
	if (key == '\n' || key == KEY_ENTER) {
		ui->prompt = PROMPT_NONE;
		if (!ui->typed[0]) {
			ui_note(ui, "not saved: a preset needs a name");
			return;
		}
		ui_push(out, UI_SAVE_PRESET, NULL, 0);
		snprintf(out->cmd[out->count - 1].text,
			 sizeof(out->cmd[0].text), "%s", ui->typed);
	} else if (key == 27) {
		ui->prompt = PROMPT_NONE;
		ui_note(ui, "not saved");
	} else if (name_char(key) || key < ' ' || key == 127 ||
		   key == KEY_BACKSPACE) {
		type_into(ui->typed, sizeof(ui->typed), key);
		ui->refused = 0;
	} else {
		ui->refused = key; /* said in the question */
	}
}

bool ui_prompt_key(struct ui *ui, const struct explorer *e, int key,
		   struct ui_commands *out)
{
	enum ui_prompt asked = ui->prompt;

	switch (asked) {
	case PROMPT_NONE:
		return false;
	case PROMPT_FILTER:
		filter_key(ui, key);
		return true;
	case PROMPT_NAME:
		name_key(ui, key, out);
		return true;
	case PROMPT_QUIT:
		ui->prompt = PROMPT_NONE;
		if (key == 'q' || key == KEY_F(10))
			ui_push(out, UI_QUIT, NULL, 0);
		else if (key == 'e' || key == KEY_F(7))
			ui_push(out, UI_EXPORT, NULL, 0);
		else
			ui_note(ui, "not quitting");
		/* Not quitting: any other key then does what it does. */
		return key == 'q' || key == KEY_F(10) || key == 'e' ||
		       key == KEY_F(7) || key == 27;
	case PROMPT_CHANGE:
		ui->prompt = PROMPT_NONE;
		if ((key == ui->prompt_key || key == 'y') &&
		    out->count < UI_COMMANDS_MAX) {
			out->cmd[out->count++] = ui->pending;
			return true;
		}
		/* A key of its own then does what it does (2: the runs). */
		ui_note(ui, "the %s goes on",
			explorer_searching(e) ? "search" : "sweep");
		return (!ui_key_find(key) && ui_view_of_key(key) == SIZE_MAX) ||
		       key == 27;
	}
	(void)e;
	return false;
}

/* The question being asked, in words. */
static void question(const struct ui *ui, const struct explorer *e, char *text,
		     size_t size)
{
	size_t unsaved = explorer_unsaved(e);
	const char *them = unsaved == 1 ? "it" : "them";
	const char *what = explorer_searching(e) ? "A search" : "A sweep";

	if (ui->prompt == PROMPT_QUIT && explorer_sweeping(e) && unsaved)
		snprintf(text, size,
			 "%s runs and %zu run%s not saved: q quits "
			 "without %s, e exports %s, other keys go on",
			 what, unsaved, unsaved == 1 ? " is" : "s are", them,
			 them);
	else if (ui->prompt == PROMPT_QUIT && explorer_sweeping(e))
		snprintf(text, size,
			 "%s runs: q again quits%s, other keys go on", what,
			 e->session->result_count
				 ? " (the finished runs are saved)"
				 : "");
	else if (ui->prompt == PROMPT_QUIT)
		snprintf(text, size,
			 "%zu run%s not saved: q quits without %s, e exports "
			 "%s, other keys go on",
			 unsaved, unsaved == 1 ? "" : "s", them, them);
	else if (ui->prompt == PROMPT_CHANGE)
		snprintf(text, size,
			 "%s runs: %s again or y ends it to %s; other "
			 "keys let it go on",
			 what,
			 ui->prompt_key == KEY_MOUSE
				 ? "the same click"
				 : ui_key_label(ui->prompt_key),
			 ui->pending_what);
	else if (ui->prompt == PROMPT_FILTER)
		snprintf(text, size,
			 "Filter runs: %s_  (Enter keeps it, Esc clears it)",
			 ui->runs.filter);
	else if (ui->refused > ' ' && ui->refused < 127)
		snprintf(text, size,
			 "Save the controls as preset: %s_  ('%c' cannot be "
			 "in a name: letters, digits, - _ . only)",
			 ui->typed, ui->refused);
	else if (ui->refused)
		snprintf(text, size,
			 "Save the controls as preset: %s_  (a name has "
			 "letters, digits, - _ . only, no spaces)",
			 ui->typed);
	else
		snprintf(text, size,
			 "Save the controls as preset: %s_  (Enter saves, "
			 "Esc does not)",
			 ui->typed);
}

int ui_status_text(struct ui *ui, const struct explorer *e, char *text,
		   size_t size, enum theme_role *role)
{
	uint64_t now = clock_now_ns();

	/* The explorer's news becomes the note, once. */
	if (e->said != ui->said_taken) {
		ui->said_taken = e->said;
		snprintf(ui->note, sizeof(ui->note), "%s", e->message);
		ui->note_ns = now + (UI_NEWS_S - UI_NOTE_S) * 1000 * NS_PER_MS;
		ui->note_news = true;
	}
	if (ui->prompt != PROMPT_NONE) {
		question(ui, e, text, size);
		*role = ROLE_HIGHLIGHT;
	} else {
		if (ui->note[0] &&
		    now > ui->note_ns + UI_NOTE_S * 1000 * NS_PER_MS)
			ui->note[0] = '\0';
		snprintf(text, size, "%s", ui->note);
		*role = ROLE_MISC;
	}
	return (int)mbstowcs(NULL, text, 0) > ui->cols - 2 ? 2 : 1;
}

/* Wrapped at words; what a second row cannot hold ends in an ellipsis. */
void ui_draw_status(const struct ui *ui, const char *text, enum theme_role role,
		    int rows)
{
	int y = ui->rows - 1 - rows;
	struct ui_lines l = {0};

	attrset(theme_attr(ROLE_TEXT));
	for (int i = 0; i < rows; i++)
		mvhline(y + i, 0, ' ', ui->cols);
	if (rows == 1) {
		ui_text(y, 1, ui->cols - 2, role, "%s", text);
		return;
	}
	ui_lines_wrap(&l, role, ui->cols - 2, 0, text);
	if (l.count)
		ui_text(y, 1, ui->cols - 2, role, "%s", l.line[0].text);
	if (l.count > 1) {
		/* The rest, from the second line's first word on. */
		const char *rest = text + strlen(l.line[0].text);

		while (*rest == ' ')
			rest++;
		ui_text(y + 1, 1, ui->cols - 2, role, "%s", rest);
	}
	ui_lines_free(&l);
}
