/*
 * The frame of the screen: the header, the controls and gauges where they
 * fit, the view on screen below them, the status line and the key bar, and
 * an overlay over everything.  Below UI_ROOMY_ROWS rows every view but the
 * live one takes the whole body, so every view works at 80x24 and uses more
 * room when it has it.
 */
#ifndef NIO_TOP_UI_FRAME_H
#define NIO_TOP_UI_FRAME_H

#include "state.h"

void ui_frame_draw(struct ui *ui, const struct explorer *live);

#endif
