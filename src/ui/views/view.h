/*
 * A view is a module, as a tmux window mode is: one file exports one
 * const struct ui_view that says its name, the key that shows it, its own
 * keys (for the help, the key bar and nio-top(1)), and its functions, and
 * keeps its state in a struct of its own that open() makes.  The views
 * below the controls and the overlays over everything are alike; views.c
 * holds their one table.  A key goes to the overlay on screen first, then
 * to the view, and only then to the keys every view shares (input.c).
 */
#ifndef NIO_TOP_UI_VIEW_H
#define NIO_TOP_UI_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "state.h"

/* A view's own keys, as the help and nio-top(1) list them. */
struct ui_keyhelp {
	const char *keys; /* "Left Right": labels, space-separated */
	const char *help;
};

#define UI_VIEW_KEYS_MAX 8

struct ui_view {
	const char *name; /* "compare" */
	int shortcut;	  /* the key that shows it ('3'); 0 for an overlay */
	bool overlay;	  /* over everything, not below the controls */
	/* Its own keys in the key bar, after the function keys: "<-> runs". */
	const char *bar;
	/* F5's word in the key bar where it does other than sweep; NULL. */
	const char *sweep_bar;
	const struct ui_keyhelp keys[UI_VIEW_KEYS_MAX];

	/* Its state, made when the UI opens; NULL: out of memory. */
	void *(*open)(struct ui *ui);
	void (*close)(void *state);
	/* Draws it in r (an overlay: over the screen's body, r). */
	void (*draw)(struct ui *ui, void *state, const struct explorer *e,
		     const struct rect *r);
	/* A key while it is on screen: true when it was the view's. */
	bool (*key)(struct ui *ui, void *state, const struct explorer *e,
		    int key, struct ui_commands *out);
};

/* The number of keys in a view's list. */
static inline size_t ui_view_key_count(const struct ui_view *v)
{
	size_t n = 0;

	while (n < UI_VIEW_KEYS_MAX && v->keys[n].keys)
		n++;
	return n;
}

#endif
