/*
 * Input: keys and the mouse turned into the UI's own changes and into
 * commands for the main loop.  A key goes to the question on the status
 * line, then to the overlay, then to the view on screen, and only then to
 * the keys every view shares; a control changes only where the controls
 * are on screen.
 */
#ifndef NIO_TOP_UI_INPUT_H
#define NIO_TOP_UI_INPUT_H

#include "state.h"

void ui_key(struct ui *ui, const struct explorer *e, int key,
	    struct ui_commands *out);
void ui_mouse(struct ui *ui, const struct explorer *e, struct ui_commands *out);

#endif
