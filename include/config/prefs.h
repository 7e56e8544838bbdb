/*
 * What the explorer remembers between starts: the theme, the refresh, the
 * last controls and how the runs table was sorted, in settings.json of the
 * user's folder (preset_user_dir()).  Written atomically when the explorer
 * ends; never required: a file that cannot be read is ignored with one line
 * of warning, and --no-config neither reads nor writes it.
 */
#ifndef NIO_TOP_PREFS_H
#define NIO_TOP_PREFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options.h"

#define PREFS_FORMAT  "nio-top-settings"
#define PREFS_VERSION 1

struct prefs {
	char theme[65];
	unsigned int refresh_ms;
	/* The last controls: those read, by options_control_at()'s index. */
	struct run_config controls;
	bool control_read[OPTIONS_MAX];
	/* The runs table: its sort column (a metric key, or a column name). */
	char sort[32];
	bool sort_descending;
};

/* settings.json's path: 0, or -ENOENT when there is no user folder. */
int prefs_path(char *out, size_t size);

/*
 * Reads the settings: 0 (nothing there is fine: *p stays empty), or
 * -errno with *cause, one line for the user.
 */
int prefs_load(struct prefs *p, char **cause);
/* Writes them, making the folder if need be: 0, or -errno with *cause. */
int prefs_save(const struct prefs *p, char **cause);

/*
 * Puts what the settings hold into o where the command line or a preset
 * said nothing: the theme, the refresh and the first run's controls.
 */
void prefs_apply(const struct prefs *p, struct options *o);

#endif
