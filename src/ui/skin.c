/* The theme on screen. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "skin.h"
#include "status.h"

int ui_set_theme(struct ui *ui, const char *name, char **cause)
{
	struct theme theme;
	int r;

	if (!ui->theme_dir) {
		if (strcmp(name, "default") != 0)
			return cause_set(cause, -ENOENT,
					 "theme '%s': no themes folder found "
					 "(set NIO_TOP_THEMES)",
					 name);
		theme_default(&ui->theme);
		return 0;
	}
	r = theme_load(ui->theme_dir, name, &theme, cause);
	if (r < 0)
		return r;
	ui->theme = theme;
	return 0;
}

void ui_next_theme(struct ui *ui)
{
	size_t next = 0;
	char *cause = NULL;

	if (!ui->theme_count) {
		ui_note(ui, "no themes folder: only the built-in colours");
		return;
	}
	for (size_t i = 0; i < ui->theme_count; i++)
		if (strcmp(ui->theme_names[i], ui->theme.name) == 0)
			next = (i + 1) % ui->theme_count;
	if (ui_set_theme(ui, ui->theme_names[next], &cause) < 0) {
		ui_note(ui, "%s", cause ? cause : "cannot load the theme");
		free(cause);
		return;
	}
	theme_apply(&ui->theme);
	ui_note(ui, "theme: %s", ui->theme.name);
}
