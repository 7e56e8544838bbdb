/*
 * The status line: the latest note (a key's answer, or the explorer's
 * news), which fades after a while, or a question the next keys answer --
 * quitting with runs not saved, ending a sweep to change a control, the
 * filter and a preset's name as they are typed.  Commands that change what
 * runs go through here, so that a sweep is never ended without a word.
 */
#ifndef NIO_TOP_UI_STATUS_H
#define NIO_TOP_UI_STATUS_H

#include "state.h"

/* How long a note stays, in seconds; the explorer's news stays longer. */
#define UI_NOTE_S 8
#define UI_NEWS_S 30

void ui_note(struct ui *ui, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void ui_push(struct ui_commands *out, enum ui_command_kind kind,
	     const struct option_row *control, int arg);
/*
 * A command that changes what runs: during a sweep it would end the sweep,
 * so the same key again (or y) must say so first.
 */
void ui_change(struct ui *ui, const struct explorer *e, int key,
	       struct ui_commands *out, enum ui_command_kind kind, int arg);
/* q: at once, or asked first while a sweep runs or runs are not saved. */
void ui_quit(struct ui *ui, const struct explorer *e, struct ui_commands *out);
/* S: asks for the preset's name, then saves the controls under it. */
void ui_ask_name(struct ui *ui, const char *suggested);

/* A key while a question is asked: true when the question took it. */
bool ui_prompt_key(struct ui *ui, const struct explorer *e, int key,
		   struct ui_commands *out);

/*
 * What the status line says now, and in which role; the rows it takes (two
 * for a text too long for one).
 */
int ui_status_text(struct ui *ui, const struct explorer *e, char *text,
		   size_t size, enum theme_role *role);
void ui_draw_status(const struct ui *ui, const char *text, enum theme_role role,
		    int rows);

#endif
