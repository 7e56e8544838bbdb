/* The views' and overlays' table, and the keys that show the views. */
#include <stdio.h>
#include <string.h>

#include "keymap.h"
#include "views.h"

extern const struct ui_view ui_view_live, ui_view_runs, ui_view_compare,
	ui_view_chart, ui_view_analysis, ui_view_crossover, ui_over_help,
	ui_over_path, ui_over_presets;

const struct ui_view *const ui_views[] = {
	&ui_view_live,	&ui_view_runs,	   &ui_view_compare,
	&ui_view_chart, &ui_view_analysis, &ui_view_crossover,
	&ui_over_help,	&ui_over_path,	   &ui_over_presets,
};

const size_t ui_view_count = sizeof(ui_views) / sizeof(ui_views[0]);

size_t ui_view_find(const char *name)
{
	for (size_t i = 0; i < ui_view_count; i++)
		if (strcmp(ui_views[i]->name, name) == 0)
			return i;
	return SIZE_MAX;
}

size_t ui_view_of_key(int key)
{
	for (size_t i = 0; i < ui_view_count; i++)
		if (!ui_views[i]->overlay && ui_views[i]->shortcut == key)
			return i;
	return SIZE_MAX;
}

/* Whether labels ("[ ]", "m M") name key, a character of its own. */
static bool labels_name(const char *labels, int key)
{
	for (const char *c = labels; *c; c++)
		if ((c == labels || c[-1] == ' ') && (c[1] == ' ' || !c[1]) &&
		    (unsigned char)*c == key)
			return true;
	return false;
}

size_t ui_view_owning_key(int key)
{
	for (size_t i = 0; i < ui_view_count; i++)
		for (size_t k = 0; !ui_views[i]->overlay &&
				   k < ui_view_key_count(ui_views[i]);
		     k++)
			if (labels_name(ui_views[i]->keys[k].keys, key))
				return i;
	return SIZE_MAX;
}

void ui_key_help(size_t i, char *keys, size_t keys_size, char *help,
		 size_t help_size)
{
	size_t keys_len = 0, help_len;

	if (ui_keys[i].action != ACT_VIEW) {
		ui_action_keys(i, keys, keys_size);
		snprintf(help, help_size, "%s", ui_keys[i].help);
		return;
	}
	keys[0] = '\0';
	help_len = (size_t)snprintf(help, help_size, "%s:", ui_keys[i].help);
	for (size_t k = 0; k < ui_view_count; k++) {
		const struct ui_view *v = ui_views[k];

		if (v->overlay || keys_len >= keys_size ||
		    help_len >= help_size)
			continue;
		keys_len += (size_t)snprintf(keys + keys_len,
					     keys_size - keys_len, "%s%c",
					     keys_len ? " " : "", v->shortcut);
		help_len += (size_t)snprintf(help + help_len,
					     help_size - help_len, "%s %s",
					     k ? "," : "", v->name);
	}
}
