/* The shared keys' table. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "keymap.h"

const struct ui_key ui_keys[] = {
	{.key = '\t',
	 .label = "Tab",
	 .action = ACT_NEXT_CONTROL,
	 .help = "next control (where the controls show)"},
	{.key = KEY_BTAB,
	 .label = "Shift-Tab",
	 .action = ACT_PREV_CONTROL,
	 .help = "previous control"},
	{.key = KEY_UP,
	 .label = "Up",
	 .action = ACT_UP,
	 .help = "previous control, where the view does not scroll"},
	{.key = KEY_DOWN,
	 .label = "Down",
	 .action = ACT_DOWN,
	 .help = "next control"},
	{.key = KEY_LEFT,
	 .label = "Left",
	 .action = ACT_DECREASE,
	 .help = "smaller value of the control, "
		 "where the view has no use for it"},
	{.key = '-', .label = "-", .action = ACT_DECREASE},
	{.key = KEY_RIGHT,
	 .label = "Right",
	 .action = ACT_INCREASE,
	 .help = "larger value of the control"},
	{.key = '+', .label = "+", .action = ACT_INCREASE},
	{.key = '\n',
	 .label = "Enter",
	 .action = ACT_TOGGLE,
	 .help = "run again; on Duration: continuous or timed"},
	{.key = KEY_ENTER, .label = "Enter", .action = ACT_TOGGLE},
	{.key = ' ', .label = "Space", .action = ACT_TOGGLE},
	{.key = KEY_F(5),
	 .label = "F5",
	 .action = ACT_SWEEP,
	 .bar = "Sweep",
	 .bar_rank = 2,
	 .help = "sweep every strategy over 256 B .. 1 MiB "
		 "(the controls come back after it)"},
	{.key = 'w', .label = "w", .action = ACT_SWEEP},
	{.key = KEY_F(3),
	 .label = "F3",
	 .action = ACT_PRESETS,
	 .bar = "Preset",
	 .bar_rank = 3,
	 .help = "load a preset, shipped or saved (its grid runs as a sweep)"},
	{.key = 'p', .label = "p", .action = ACT_PRESETS},
	{.key = 'S',
	 .label = "S",
	 .action = ACT_SAVE_PRESET,
	 .help = "save the controls as a preset, under a name it asks for"},
	/* The views' own keys: each view says its shortcut (views.c). */
	{.action = ACT_VIEW, .help = "views"},
	{.key = 'v',
	 .label = "v",
	 .action = ACT_VIEW_NEXT,
	 .help = "next view"},
	{.key = 'x',
	 .label = "x",
	 .action = ACT_EXPLAIN,
	 .help = "the strategy's data path: every copy of the payload"},
	{.key = KEY_F(8),
	 .label = "F8",
	 .action = ACT_FREEZE,
	 .bar = "Freeze",
	 .bar_rank = 7,
	 .help = "freeze the screen to read it (runs go on underneath)"},
	{.key = 'Z', .label = "Z", .action = ACT_FREEZE},
	{.key = KEY_F(2),
	 .label = "F2",
	 .action = ACT_THEME,
	 .bar = "Theme",
	 .bar_rank = 8,
	 .help = "next theme (kept for the next start)"},
	{.key = 't', .label = "t", .action = ACT_THEME},
	{.key = KEY_F(7),
	 .label = "F7",
	 .action = ACT_EXPORT,
	 .bar = "Export",
	 .bar_rank = 4,
	 .help = "export the finished runs as JSON"},
	{.key = 'e', .label = "e", .action = ACT_EXPORT},
	{.key = KEY_F(1),
	 .label = "F1",
	 .action = ACT_HELP,
	 .bar = "Help",
	 .bar_rank = 1,
	 .help = "this help (over a view but the live one, at that "
		 "view's keys)"},
	{.key = '?', .label = "?", .action = ACT_HELP},
	{.key = 'h', .label = "h", .action = ACT_HELP},
	{.key = 27,
	 .label = "Esc",
	 .action = ACT_CLOSE,
	 .help = "close the help, the data path or the preset list; "
		 "clear the filter"},
	{.key = KEY_F(10),
	 .label = "F10",
	 .action = ACT_QUIT,
	 .bar = "Quit",
	 .bar_rank = 1,
	 .help = "quit (asks first while a sweep runs "
		 "or finished runs are not saved)"},
	{.key = 'q', .label = "q", .action = ACT_QUIT},
};

const size_t ui_key_count = sizeof(ui_keys) / sizeof(ui_keys[0]);

bool ui_action_runs(enum ui_action action)
{
	return action == ACT_SWEEP || action == ACT_PRESETS;
}

const struct ui_key *ui_key_find(int key)
{
	for (size_t i = 0; i < ui_key_count; i++)
		if (ui_keys[i].key && ui_keys[i].key == key)
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
