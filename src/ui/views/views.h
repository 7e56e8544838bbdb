/*
 * The table of views and overlays: the six views in the order v goes
 * through them, then the overlays.  Each is one module (view.h), which
 * says its own shortcut (1-6); this is the one list of them.
 */
#ifndef NIO_TOP_UI_VIEWS_H
#define NIO_TOP_UI_VIEWS_H

#include "view.h"

extern const struct ui_view *const ui_views[];
extern const size_t ui_view_count;

/* The index of the view or overlay called name, or SIZE_MAX. */
size_t ui_view_find(const char *name);
/* The index of the view whose shortcut is key, or SIZE_MAX. */
size_t ui_view_of_key(int key);
/* The view whose own keys list key (a character), or SIZE_MAX. */
size_t ui_view_owning_key(int key);

/*
 * The keys every view shares as the help and nio-top(1) list them: those
 * of ui_keys[i]'s action ("F5 w") and its help; for the views' row, each
 * view's shortcut ("1 2 3 4 5 6") and their names ("views: live, runs,
 * ...").
 */
void ui_key_help(size_t i, char *keys, size_t keys_size, char *help,
		 size_t help_size);

#endif
