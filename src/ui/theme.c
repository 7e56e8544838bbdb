/*
 * Theme files, btop's grammar: one `theme[key]="value"` per line, where value
 * is "#rrggbb", "#gg" (a grey), "r g b" in decimal, or "" (the terminal's
 * default); `#` starts a comment.  On a 256-colour terminal each colour is
 * the nearest of xterm's cube and grey ramp; on 8 colours the nearest basic
 * one; without colour every role is plain text with attributes.
 */
#include <curses.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cause.h"
#include "theme.h"
#include "userfile.h"

#ifndef NIO_TOP_THEME_DIR
#define NIO_TOP_THEME_DIR "/usr/local/share/nio-top/themes"
#endif

const char *const theme_key_names[THEME_KEY_COUNT] = {
	[KEY_MAIN_BG] = "main_bg",
	[KEY_MAIN_FG] = "main_fg",
	[KEY_TITLE] = "title",
	[KEY_HI_FG] = "hi_fg",
	[KEY_SELECTED_BG] = "selected_bg",
	[KEY_SELECTED_FG] = "selected_fg",
	[KEY_INACTIVE_FG] = "inactive_fg",
	[KEY_GRAPH_TEXT] = "graph_text",
	[KEY_METER_BG] = "meter_bg",
	[KEY_PROC_MISC] = "proc_misc",
	[KEY_CPU_BOX] = "cpu_box",
	[KEY_MEM_BOX] = "mem_box",
	[KEY_NET_BOX] = "net_box",
	[KEY_PROC_BOX] = "proc_box",
	[KEY_UPLOAD_START] = "upload_start",
	[KEY_UPLOAD_MID] = "upload_mid",
	[KEY_UPLOAD_END] = "upload_end",
	[KEY_DOWNLOAD_START] = "download_start",
	[KEY_DOWNLOAD_MID] = "download_mid",
	[KEY_DOWNLOAD_END] = "download_end",
};

/* Which keys colour a role: foreground, and background (main_bg if unset). */
static const struct {
	enum theme_key fg;
	enum theme_key bg;
	int attr;
} theme_roles[ROLE_COUNT] = {
	[ROLE_TEXT] = {KEY_MAIN_FG, KEY_MAIN_BG, A_NORMAL},
	[ROLE_TITLE] = {KEY_TITLE, KEY_MAIN_BG, A_BOLD},
	[ROLE_HIGHLIGHT] = {KEY_HI_FG, KEY_MAIN_BG, A_BOLD},
	[ROLE_SELECTED] = {KEY_SELECTED_FG, KEY_SELECTED_BG, A_BOLD},
	[ROLE_INACTIVE] = {KEY_INACTIVE_FG, KEY_MAIN_BG, A_DIM},
	[ROLE_GRAPH_TEXT] = {KEY_GRAPH_TEXT, KEY_MAIN_BG, A_NORMAL},
	[ROLE_METER_BG] = {KEY_METER_BG, KEY_MAIN_BG, A_DIM},
	[ROLE_MISC] = {KEY_PROC_MISC, KEY_MAIN_BG, A_NORMAL},
	[ROLE_BOX_CONTROLS] = {KEY_CPU_BOX, KEY_MAIN_BG, A_NORMAL},
	[ROLE_BOX_GAUGES] = {KEY_NET_BOX, KEY_MAIN_BG, A_NORMAL},
	[ROLE_BOX_GRAPH] = {KEY_MEM_BOX, KEY_MAIN_BG, A_NORMAL},
	[ROLE_BOX_HISTORY] = {KEY_PROC_BOX, KEY_MAIN_BG, A_NORMAL},
	[ROLE_SENDER_LOW] = {KEY_UPLOAD_START, KEY_MAIN_BG, A_NORMAL},
	[ROLE_SENDER_MID] = {KEY_UPLOAD_MID, KEY_MAIN_BG, A_NORMAL},
	[ROLE_SENDER_HIGH] = {KEY_UPLOAD_END, KEY_MAIN_BG, A_BOLD},
	[ROLE_RECEIVER_LOW] = {KEY_DOWNLOAD_START, KEY_MAIN_BG, A_NORMAL},
	[ROLE_RECEIVER_MID] = {KEY_DOWNLOAD_MID, KEY_MAIN_BG, A_NORMAL},
	[ROLE_RECEIVER_HIGH] = {KEY_DOWNLOAD_END, KEY_MAIN_BG, A_BOLD},
};

static int role_attr[ROLE_COUNT];

bool theme_role_rgb(const struct theme *theme, enum theme_role role,
		    unsigned char rgb[3])
{
	const struct theme_colour *c = &theme->colour[theme_roles[role].fg];

	if (!c->set)
		return false;
	rgb[0] = c->r;
	rgb[1] = c->g;
	rgb[2] = c->b;
	return true;
}

void theme_default(struct theme *theme)
{
	static const char defaults[] = "theme[main_fg]=\"#cccccc\"\n"
				       "theme[title]=\"#eeeeee\"\n"
				       "theme[hi_fg]=\"#5fafff\"\n"
				       "theme[selected_bg]=\"#005f87\"\n"
				       "theme[selected_fg]=\"#ffffff\"\n"
				       "theme[inactive_fg]=\"#6c6c6c\"\n"
				       "theme[graph_text]=\"#bcbcbc\"\n"
				       "theme[meter_bg]=\"#444444\"\n"
				       "theme[proc_misc]=\"#87d787\"\n"
				       "theme[cpu_box]=\"#5f87af\"\n"
				       "theme[mem_box]=\"#87af87\"\n"
				       "theme[net_box]=\"#af87af\"\n"
				       "theme[proc_box]=\"#af8787\"\n"
				       "theme[upload_start]=\"#d7af5f\"\n"
				       "theme[upload_mid]=\"#ff8700\"\n"
				       "theme[upload_end]=\"#ff005f\"\n"
				       "theme[download_start]=\"#5fafaf\"\n"
				       "theme[download_mid]=\"#00d7af\"\n"
				       "theme[download_end]=\"#87ff00\"\n";
	char *ignored = NULL;

	memset(theme, 0, sizeof(*theme));
	snprintf(theme->name, sizeof(theme->name), "default");
	theme_parse(defaults, theme, &ignored);
	free(ignored);
}

static int hex_digits(const char *s, size_t n, unsigned int *out)
{
	*out = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		unsigned int v;

		if (c >= '0' && c <= '9')
			v = (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = (unsigned int)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v = (unsigned int)(c - 'A' + 10);
		else
			return -EINVAL;
		*out = *out * 16 + v;
	}
	return 0;
}

static int parse_colour(const char *value, struct theme_colour *out)
{
	size_t len = strlen(value);
	unsigned int r, g, b;
	char tail;

	if (len == 0) {
		*out = (struct theme_colour){0};
		return 0;
	}
	if (value[0] == '#' && len == 7) {
		if (hex_digits(value + 1, 2, &r) ||
		    hex_digits(value + 3, 2, &g) ||
		    hex_digits(value + 5, 2, &b))
			return -EINVAL;
	} else if (value[0] == '#' && len == 3) {
		if (hex_digits(value + 1, 2, &r))
			return -EINVAL;
		g = b = r;
	} else if (sscanf(value, "%u %u %u%c", &r, &g, &b, &tail) != 3 ||
		   r > 255 || g > 255 || b > 255) {
		return -EINVAL;
	}
	*out = (struct theme_colour){true, (unsigned char)r, (unsigned char)g,
				     (unsigned char)b};
	return 0;
}

static int theme_error(char **cause, unsigned int line, const char *what,
		       const char *key)
{
	if (asprintf(cause, "line %u: %s%s%s", line, what, key ? ": " : "",
		     key ? key : "") < 0)
		*cause = NULL;
	return -EINVAL;
}

int theme_parse(const char *text, struct theme *theme, char **cause)
{
	unsigned int number = 0;

	*cause = NULL;
	while (*text) {
		const char *end = strchr(text, '\n');
		size_t len = end ? (size_t)(end - text) : strlen(text);
		char line[256], key[64], value[64];
		const char *p = line;
		int used = 0;

		number++;
		if (len >= sizeof(line))
			return theme_error(cause, number, "line too long",
					   NULL);
		memcpy(line, text, len);
		line[len] = '\0';
		text += len + (end ? 1 : 0);
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0' || *p == '#' || *p == '\r')
			continue;
		value[0] = '\0';
		if (sscanf(p, "theme[%63[^]]]=\"%n", key, &used) != 1 || !used)
			return theme_error(cause, number,
					   "not theme[key]=\"value\"", NULL);
		p += used;
		if (sscanf(p, "%63[^\"]", value) != 1)
			value[0] = '\0';
		p += strlen(value);
		if (*p != '"')
			return theme_error(cause, number, "unterminated value",
					   key);
		for (int k = 0; k < THEME_KEY_COUNT; k++) {
			if (strcmp(key, theme_key_names[k]) != 0)
				continue;
			if (parse_colour(value, &theme->colour[k]) < 0)
				return theme_error(cause, number,
						   "not a colour (#rrggbb, "
						   "#gg or \"r g b\")",
						   key);
		}
	}
	return 0;
}

/* The longest theme file read: btop's own are a few KiB. */
#define THEME_FILE_MAX 16383

int theme_load(const char *dir, const char *name, struct theme *theme,
	       char **cause)
{
	char path[4096], *text = NULL, *inner = NULL;
	size_t len;
	int r;

	*cause = NULL;
	/* A name, not a path: a settings file cannot reach outside dir. */
	if (!name[0] || name[0] == '.' || strchr(name, '/'))
		return cause_set(cause, -EINVAL,
				 "theme '%s': not a theme's name (a file in "
				 "the themes folder, no '/')",
				 name);
	snprintf(path, sizeof(path), "%s/%s.theme", dir, name);
	/* Never a theme cut short, nor a FIFO waited on: a user's file. */
	r = userfile_read(path, THEME_FILE_MAX, &text, &len, &inner);
	if (r == -EFBIG) {
		free(inner);
		return cause_set(cause, r, "%s: longer than %d bytes", path,
				 THEME_FILE_MAX);
	}
	if (r < 0) {
		r = cause_set(cause, r, "theme '%s': %s", name,
			      inner ? inner : strerror(-r));
		free(inner);
		return r;
	}
	if (strlen(text) != len) {
		free(text);
		return cause_set(cause, -EINVAL, "%s: holds a NUL byte", path);
	}
	theme_default(theme);
	snprintf(theme->name, sizeof(theme->name), "%s", name);
	r = theme_parse(text, theme, &inner);
	free(text);
	if (r < 0) {
		if (asprintf(cause, "%s: %s", path, inner ? inner : "bad") < 0)
			*cause = NULL;
		free(inner);
	}
	return r;
}

static bool dir_has_themes(const char *dir)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/default.theme", dir);
	return stat(path, &st) == 0;
}

const char *theme_dir(void)
{
	const char *env = getenv("NIO_TOP_THEMES");

	if (env && *env)
		return env;
	if (dir_has_themes(NIO_TOP_THEME_DIR))
		return NIO_TOP_THEME_DIR;
#ifdef NIO_TOP_SOURCE_THEME_DIR
	if (dir_has_themes(NIO_TOP_SOURCE_THEME_DIR))
		return NIO_TOP_SOURCE_THEME_DIR;
#endif
	return NULL;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int theme_list(const char *dir, char ***names, size_t *count)
{
	DIR *d = opendir(dir);
	struct dirent *ent;
	char **list = NULL;
	size_t n = 0;

	*names = NULL;
	*count = 0;
	if (!d)
		return -errno;
	while ((ent = readdir(d))) {
		size_t len = strlen(ent->d_name);
		char **grown;

		if (len <= 6 || strcmp(ent->d_name + len - 6, ".theme") != 0 ||
		    ent->d_name[0] == '.')
			continue;
		grown = realloc(list, (n + 1) * sizeof(*list));
		if (!grown)
			break;
		list = grown;
		list[n] = strndup(ent->d_name, len - 6);
		if (list[n])
			n++;
	}
	closedir(d);
	qsort(list, n, sizeof(*list), compare_names);
	*names = list;
	*count = n;
	return 0;
}

static int nearest_cube(unsigned int v)
{
	static const unsigned int level[] = {0, 95, 135, 175, 215, 255};
	int best = 0;

	for (int i = 1; i < 6; i++)
		if (abs((int)v - (int)level[i]) <
		    abs((int)v - (int)level[best]))
			best = i;
	return best;
}

static int distance(int r1, int g1, int b1, int r2, int g2, int b2)
{
	return (r1 - r2) * (r1 - r2) + (g1 - g2) * (g1 - g2) +
	       (b1 - b2) * (b1 - b2);
}

/* The terminal colour closest to c, or -1 for the default. */
static short terminal_colour(const struct theme_colour *c)
{
	static const int basic[8][3] = {
		{0, 0, 0},   {205, 0, 0},   {0, 205, 0},   {205, 205, 0},
		{0, 0, 238}, {205, 0, 205}, {0, 205, 205}, {229, 229, 229},
	};
	static const int level[] = {0, 95, 135, 175, 215, 255};
	int best = 0;

	if (!c->set)
		return -1;
	if (COLORS >= 256) {
		int r = nearest_cube(c->r), g = nearest_cube(c->g),
		    b = nearest_cube(c->b);
		int cube = 16 + 36 * r + 6 * g + b;
		int grey = ((int)c->r + c->g + c->b) / 3;
		int step = grey < 8 ? 0 : grey > 238 ? 23 : (grey - 8) / 10;
		int grey_level = 8 + 10 * step;

		if (distance(c->r, c->g, c->b, grey_level, grey_level,
			     grey_level) <
		    distance(c->r, c->g, c->b, level[r], level[g], level[b]))
			return (short)(232 + step);
		return (short)cube;
	}
	for (int i = 1; i < 8; i++)
		if (distance(c->r, c->g, c->b, basic[i][0], basic[i][1],
			     basic[i][2]) <
		    distance(c->r, c->g, c->b, basic[best][0], basic[best][1],
			     basic[best][2]))
			best = i;
	return (short)best;
}

void theme_apply(const struct theme *theme)
{
	bool colour = has_colors() && COLORS >= 8 && COLOR_PAIRS > ROLE_COUNT;

	for (int role = 0; role < ROLE_COUNT; role++) {
		const struct theme_colour *fg =
			&theme->colour[theme_roles[role].fg];
		const struct theme_colour *bg =
			&theme->colour[theme_roles[role].bg];

		if (role == ROLE_SELECTED && !bg->set)
			bg = &theme->colour[KEY_MAIN_BG];
		if (!colour) {
			role_attr[role] = theme_roles[role].attr |
					  (role == ROLE_SELECTED ? A_REVERSE
								 : 0);
			continue;
		}
		init_pair((short)(role + 1), terminal_colour(fg),
			  terminal_colour(bg));
		role_attr[role] = (int)COLOR_PAIR(role + 1) |
				  (theme_roles[role].attr & A_BOLD);
	}
}

int theme_attr(enum theme_role role)
{
	return role_attr[role];
}
