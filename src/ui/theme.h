/*
 * Themes: btop's .theme files (theme[key]="#rrggbb"), read into the colour
 * roles nio-top draws with and mapped onto what the terminal has (256
 * colours, 8, or none).  A theme file only names the colours it changes.
 */
#ifndef NIO_TOP_UI_THEME_H
#define NIO_TOP_UI_THEME_H

#include <stdbool.h>
#include <stddef.h>

enum theme_role {
	ROLE_TEXT,
	ROLE_TITLE,
	ROLE_HIGHLIGHT,
	ROLE_SELECTED,
	ROLE_INACTIVE,
	ROLE_GRAPH_TEXT,
	ROLE_METER_BG,
	ROLE_MISC,
	ROLE_BOX_CONTROLS,
	ROLE_BOX_GAUGES,
	ROLE_BOX_GRAPH,
	ROLE_BOX_HISTORY,
	ROLE_SENDER_LOW,
	ROLE_SENDER_MID,
	ROLE_SENDER_HIGH,
	ROLE_RECEIVER_LOW,
	ROLE_RECEIVER_MID,
	ROLE_RECEIVER_HIGH,
	ROLE_COUNT,
};

/* The btop keys nio-top reads; others in a file are ignored. */
enum theme_key {
	KEY_MAIN_BG,
	KEY_MAIN_FG,
	KEY_TITLE,
	KEY_HI_FG,
	KEY_SELECTED_BG,
	KEY_SELECTED_FG,
	KEY_INACTIVE_FG,
	KEY_GRAPH_TEXT,
	KEY_METER_BG,
	KEY_PROC_MISC,
	KEY_CPU_BOX,
	KEY_MEM_BOX,
	KEY_NET_BOX,
	KEY_PROC_BOX,
	KEY_UPLOAD_START,
	KEY_UPLOAD_MID,
	KEY_UPLOAD_END,
	KEY_DOWNLOAD_START,
	KEY_DOWNLOAD_MID,
	KEY_DOWNLOAD_END,
	THEME_KEY_COUNT,
};

struct theme_colour {
	bool set; /* false: the terminal's default */
	unsigned char r, g, b;
};

struct theme {
	char name[64];
	struct theme_colour colour[THEME_KEY_COUNT];
};

extern const char *const theme_key_names[THEME_KEY_COUNT];

/* nio-top's own colours, which a file's keys override. */
void theme_default(struct theme *theme);

/*
 * Reads text (a .theme file's contents) over theme.  A malformed line is
 * -EINVAL with *cause naming its number and key.
 */
int theme_parse(const char *text, struct theme *theme, char **cause);

/* Reads dir/name.theme; 0 or -errno with *cause. */
int theme_load(const char *dir, const char *name, struct theme *theme,
	       char **cause);

/*
 * The folder holding the themes: $NIO_TOP_THEMES, the installed folder, or
 * the source tree's; NULL if none has any.
 */
const char *theme_dir(void);

/* The theme names in dir, sorted; caller frees names and the array. */
int theme_list(const char *dir, char ***names, size_t *count);

/* Colour pairs for every role on the current screen (after start_color). */
void theme_apply(const struct theme *theme);

/* A role's foreground as a colour: false if the theme leaves it unset. */
bool theme_role_rgb(const struct theme *theme, enum theme_role role,
		    unsigned char rgb[3]);

/* The curses attribute of a role. */
int theme_attr(enum theme_role role);

#endif
