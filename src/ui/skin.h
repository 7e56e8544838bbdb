/*
 * The theme on screen: loaded by name from the themes folder (or the
 * built-in colours), and stepped to the next one (t, F2).
 */
#ifndef NIO_TOP_UI_SKIN_H
#define NIO_TOP_UI_SKIN_H

#include "state.h"

/* 0, or -errno with *cause (a theme that cannot be read). */
int ui_set_theme(struct ui *ui, const char *name, char **cause);
/* The next theme of the folder, said on the status line. */
void ui_next_theme(struct ui *ui);

#endif
