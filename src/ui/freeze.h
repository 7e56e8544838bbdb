/*
 * A frozen screen (Z, F8): it holds what it showed -- the gauges, the
 * graphs' minute, the runs then and their analysis -- while the runs go on
 * underneath; Z again shows them.
 */
#ifndef NIO_TOP_UI_FREEZE_H
#define NIO_TOP_UI_FREEZE_H

#include "state.h"

/* Freezes the screen, or thaws it. */
void ui_freeze(struct ui *ui, const struct explorer *e);
/* What the screen shows: the explorer as frozen, or e itself. */
const struct explorer *ui_shown(struct ui *ui, const struct explorer *e);
void ui_freeze_free(struct ui *ui);

#endif
