/*
 * The table of views and overlays: the five views in the order their keys
 * (1-5) and v go through them, then the overlays.  Each is one module
 * (view.h); this is the one list of them.
 */
#ifndef NIO_TOP_UI_VIEWS_H
#define NIO_TOP_UI_VIEWS_H

#include "view.h"

extern const struct ui_view *const ui_views[];
extern const size_t ui_view_count;

/* The index of the view or overlay called name, or SIZE_MAX. */
size_t ui_view_find(const char *name);

#endif
