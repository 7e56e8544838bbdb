/* The shared keys' table. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "keymap.h"

const struct ui_key ui_keys[] = {
	{'\t', "Tab", ACT_NEXT_CONTROL, 0, NULL, 0,
	 "next control (where the controls show)"},
	{KEY_BTAB, "Shift-Tab", ACT_PREV_CONTROL, 0, NULL, 0,
	 "previous control"},
	{KEY_UP, "Up", ACT_UP, 0, NULL, 0,
	 "previous control, where the view does not scroll"},
	{KEY_DOWN, "Down", ACT_DOWN, 0, NULL, 0, "next control"},
	{KEY_LEFT, "Left", ACT_DECREASE, 0, NULL, 0,
	 "smaller value of the control, where the view has no use for it"},
	{'-', "-", ACT_DECREASE, 0, NULL, 0, NULL},
	{KEY_RIGHT, "Right", ACT_INCREASE, 0, NULL, 0,
	 "larger value of the control"},
	{'+', "+", ACT_INCREASE, 0, NULL, 0, NULL},
	{'\n', "Enter", ACT_TOGGLE, 0, NULL, 0,
	 "run again; on Duration: continuous or timed"},
	{KEY_ENTER, "Enter", ACT_TOGGLE, 0, NULL, 0, NULL},
	{' ', "Space", ACT_TOGGLE, 0, NULL, 0, NULL},
	{KEY_F(5), "F5", ACT_SWEEP, 0, "Sweep", 2,
	 "sweep every strategy over 256 B .. 1 MiB (the controls come back "
	 "after it)"},
	{'w', "w", ACT_SWEEP, 0, NULL, 0, NULL},
	{KEY_F(3), "F3", ACT_PRESETS, 0, "Preset", 3,
	 "load a preset, shipped or saved (its grid runs as a sweep)"},
	{'p', "p", ACT_PRESETS, 0, NULL, 0, NULL},
	{'S', "S", ACT_SAVE_PRESET, 0, NULL, 0,
	 "save the controls as a preset, under a name it asks for"},
	{'1', "1", ACT_VIEW, 0, NULL, 0,
	 "views: live, runs, compare, chart, analysis, crossover"},
	{'2', "2", ACT_VIEW, 1, NULL, 0, NULL},
	{'3', "3", ACT_VIEW, 2, NULL, 0, NULL},
	{'4', "4", ACT_VIEW, 3, NULL, 0, NULL},
	{'5', "5", ACT_VIEW, 4, NULL, 0, NULL},
	{'6', "6", ACT_VIEW, 5, NULL, 0, NULL},
	{'v', "v", ACT_VIEW_NEXT, 0, NULL, 0, "next view"},
	{'x', "x", ACT_EXPLAIN, 0, NULL, 0,
	 "the strategy's data path: every copy of the payload"},
	{KEY_F(8), "F8", ACT_FREEZE, 0, "Freeze", 7,
	 "freeze the screen to read it (runs go on underneath)"},
	{'Z', "Z", ACT_FREEZE, 0, NULL, 0, NULL},
	{KEY_F(2), "F2", ACT_THEME, 0, "Theme", 8,
	 "next theme (kept for the next start)"},
	{'t', "t", ACT_THEME, 0, NULL, 0, NULL},
	{KEY_F(7), "F7", ACT_EXPORT, 0, "Export", 4,
	 "export the finished runs as JSON"},
	{'e', "e", ACT_EXPORT, 0, NULL, 0, NULL},
	{KEY_F(1), "F1", ACT_HELP, 0, "Help", 1, "this help"},
	{'?', "?", ACT_HELP, 0, NULL, 0, NULL},
	{'h', "h", ACT_HELP, 0, NULL, 0, NULL},
	{27, "Esc", ACT_CLOSE, 0, NULL, 0,
	 "close the help, the data path or the preset list; clear the "
	 "filter"},
	{KEY_F(10), "F10", ACT_QUIT, 0, "Quit", 1,
	 "quit (asks first while a sweep runs or finished runs are not "
	 "saved)"},
	{'q', "q", ACT_QUIT, 0, NULL, 0, NULL},
};

const size_t ui_key_count = sizeof(ui_keys) / sizeof(ui_keys[0]);

const struct ui_key *ui_key_find(int key)
{
	for (size_t i = 0; i < ui_key_count; i++)
		if (ui_keys[i].key == key)
			return &ui_keys[i];
	return NULL;
}

const char *ui_key_label(int key)
{
	const struct ui_key *k = ui_key_find(key);

	return k ? k->label : "the key";
}

void ui_action_keys(size_t i, char *out, size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	for (size_t j = i; j < ui_key_count && len < size; j++) {
		if (ui_keys[j].action != ui_keys[i].action ||
		    (j > i && ui_keys[j].help))
			continue;
		/* Enter is two keys to curses, one to the user. */
		if (j > i &&
		    strcmp(ui_keys[j].label, ui_keys[j - 1].label) == 0)
			continue;
		len += (size_t)snprintf(out + len, size - len, "%s%s",
					len ? " " : "", ui_keys[j].label);
	}
}
