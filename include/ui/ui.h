/*
 * The terminal UI: draws the explorer and turns keys and mouse events into
 * commands for the main loop.  Everything that touches curses lives behind
 * this header, in src/ui/.  The UI never runs I/O of its own: what changes
 * the engine (a control, a run, an export) comes back as a command.
 */
#ifndef NIO_TOP_UI_H
#define NIO_TOP_UI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "command.h"
#include "explorer.h"
#include "prefs.h"

struct ui;

/*
 * Takes over the terminal on stdin/stdout with the named theme.  0, or
 * -errno with *cause (caller frees): no usable terminal, or a bad theme.
 */
int ui_open(struct ui **ui, const char *theme, char **cause);
/* Gives the terminal back as it was. */
void ui_close(struct ui *ui);

/* The descriptor to poll for input. */
int ui_input_fd(const struct ui *ui);

/*
 * Reads the waiting input (first what ui_typeahead() kept); returns how many
 * commands it wrote to cmd.
 */
size_t ui_read(struct ui *ui, const struct explorer *e,
	       struct ui_command cmd[UI_COMMANDS_MAX]);

/*
 * For a wait outside the loop (a run's set-up waiting for its agent): reads
 * the keys at the terminal and keeps them for ui_read() (a click is
 * dropped).  True when one of them quits (q or F10, no name or filter
 * being typed), or none could be read (the terminal is gone).
 */
bool ui_typeahead(struct ui *ui);
/* Whether ui_typeahead() kept keys that ui_read() has not answered yet. */
bool ui_typeahead_kept(const struct ui *ui);

/*
 * Before the explorer has anything to show (its agent being reached): what
 * it waits for, in the middle of the screen, and that q quits.
 */
void ui_draw_waiting(struct ui *ui, const char *what);

/* The terminal changed size (SIGWINCH). */
void ui_resize(struct ui *ui);

/* Ctrl-Z: the terminal as it was; fg: the program's mode again, whole. */
void ui_suspend(struct ui *ui);
void ui_resume(struct ui *ui);

/* What the screen leaves for the next start: its theme, the table's sort. */
void ui_remember(const struct ui *ui, struct prefs *p);
/* And takes back: the table's sort (the theme is ui_open's). */
void ui_recall(struct ui *ui, const struct prefs *p);

/* The keys as nio-top(1) lists them (mdoc .It lines), from the key table. */
void ui_man_keys(FILE *out);

void ui_draw(struct ui *ui, const struct explorer *e);

/*
 * The chart's series colours, one per strategy in registry order, from the
 * theme on ui's screen (or, ui NULL, the theme named): how many it wrote to
 * rgb, 0 if the theme cannot be read.  Needs no terminal.
 */
size_t ui_chart_colours(const struct ui *ui, const char *theme,
			unsigned char (*rgb)[3], size_t most);

#endif
