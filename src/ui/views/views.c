/* The views' and overlays' table. */
#include <string.h>

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
