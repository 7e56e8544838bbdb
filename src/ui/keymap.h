/*
 * The keys every view shares: one table, looked up by the input handler
 * and printed as the help's first section, the key bar's function keys and
 * nio-top(1)'s list.  A view's own keys are in its struct ui_view; the runs
 * table's in table.h.
 */
#ifndef NIO_TOP_UI_KEYMAP_H
#define NIO_TOP_UI_KEYMAP_H

#include <stddef.h>

enum ui_action {
	ACT_NEXT_CONTROL,
	ACT_PREV_CONTROL,
	ACT_UP,
	ACT_DOWN,
	ACT_DECREASE,
	ACT_INCREASE,
	ACT_TOGGLE,
	ACT_SWEEP,
	ACT_SAVE_PRESET,
	ACT_PRESETS,
	ACT_VIEW,
	ACT_VIEW_NEXT,
	ACT_EXPLAIN,
	ACT_HELP,
	ACT_THEME,
	ACT_FREEZE,
	ACT_EXPORT,
	ACT_QUIT,
	ACT_CLOSE,
};

/*
 * help: on the first key of an action (the help and the manual list the
 * action's other keys beside it); bar: the key bar's word for a function
 * key, and how much it is needed there (1 first; a narrow bar drops the
 * highest).  The views' row (ACT_VIEW) has no key of its own: each view
 * says its shortcut (struct ui_view), and the help lists them there.
 */
struct ui_key {
	int key; /* 0: none of its own */
	const char *label;
	enum ui_action action;
	const char *bar;
	int bar_rank;
	const char *help;
};

extern const struct ui_key ui_keys[];
extern const size_t ui_key_count;

/* The entry of key, or NULL (a view's shortcut is the view's). */
const struct ui_key *ui_key_find(int key);
/* A key's name ("Right", "F5"), or "the key". */
const char *ui_key_label(int key);
/* "F5 w": every key of the action of ui_keys[i], from there on. */
void ui_action_keys(size_t i, char *out, size_t size);

#endif
