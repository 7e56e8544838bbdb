/*
 * Preset files.  A file is read with the preset limit first; only a file
 * too big for a preset is read again with an export's limit, so that a big
 * export still replays (-p run.json) while a preset stays small.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cause.h"
#include "jsonfile.h"
#include "preset.h"
#include "userfile.h"

int preset_user_dir(char *out, size_t size)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");

	if (xdg && xdg[0] == '/')
		snprintf(out, size, "%s/nio-top", xdg);
	else if (home && home[0] == '/')
		snprintf(out, size, "%s/.config/nio-top", home);
	else
		return -ENOENT;
	return 0;
}

void preset_dirs(const char *dirs[5], bool user)
{
	static char user_dir[4096];
	const char *env = getenv("NIO_TOP_PRESETS");
	size_t n = 0;

	if (env && env[0])
		dirs[n++] = env;
	if (user && preset_user_dir(user_dir, sizeof(user_dir) - 8) == 0) {
		strcat(user_dir, "/presets");
		dirs[n++] = user_dir;
	}
	dirs[n++] = NIO_TOP_PRESET_DIR;
	dirs[n++] = NIO_TOP_SOURCE_PRESET_DIR;
	dirs[n] = NULL;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct preset_entry *)a)->name,
		      ((const struct preset_entry *)b)->name);
}

/* Adds the preset file dir/file to the list, unless its name is there. */
static void list_add(const char *dir, const char *file,
		     struct preset_entry **list, size_t *count)
{
	size_t len = strlen(file);
	struct preset_entry entry = {0};
	char path[4352], *cause = NULL;
	const cJSON *description;
	cJSON *root;
	void *grown;

	if (len < 6 || len - 5 >= sizeof(entry.name) ||
	    strcmp(file + len - 5, ".json") != 0 || file[0] == '.' ||
	    strcmp(file, "schema.json") == 0)
		return;
	snprintf(entry.name, sizeof(entry.name), "%.*s", (int)len - 5, file);
	for (size_t i = 0; i < *count; i++)
		if (strcmp((*list)[i].name, entry.name) == 0)
			return;
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (jsonfile_read(path, PRESET_SIZE_MAX, &root, &cause) < 0) {
		free(cause);
		return; /* not a preset it can load: not listed */
	}
	description = cJSON_GetObjectItemCaseSensitive(root, "description");
	if (cJSON_IsString(description))
		snprintf(entry.description, sizeof(entry.description), "%s",
			 description->valuestring);
	/* One line in the list: an escaped newline or tab is a space. */
	for (char *c = entry.description; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = ' ';
	cJSON_Delete(root);
	grown = realloc(*list, (*count + 1) * sizeof(**list));
	if (!grown)
		return;
	*list = grown;
	(*list)[(*count)++] = entry;
}

int preset_list(bool user, struct preset_entry **list, size_t *count)
{
	const char *dirs[5];

	*list = NULL;
	*count = 0;
	preset_dirs(dirs, user);
	for (size_t i = 0; dirs[i]; i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *ent;

		while (d && (ent = readdir(d)))
			list_add(dirs[i], ent->d_name, list, count);
		if (d)
			closedir(d);
	}
	if (*count)
		qsort(*list, *count, sizeof(**list), cmp_entry);
	return 0;
}

/* A bare name is looked up in the preset folders; anything else is a path. */
static int preset_path(const char *name, bool user, char *out, size_t size,
		       char **cause)
{
	const char *dirs[5];

	if (strchr(name, '/') || strstr(name, ".json")) {
		snprintf(out, size, "%s", name);
		return 0;
	}
	preset_dirs(dirs, user);
	for (size_t i = 0; dirs[i]; i++) {
		snprintf(out, size, "%s/%s.json", dirs[i], name);
		if (access(out, R_OK) == 0)
			return 0;
	}
	return cause_set(cause, -EINVAL,
			 "--preset: no preset named '%s' (in %s or %s; or "
			 "give a path)",
			 name, dirs[0], dirs[1]);
}

/* Whether the file's text begins as an export does. */
static bool looks_like_export(const char *path)
{
	char head[256], *cause = NULL;
	int r = userfile_head(path, head, sizeof(head), &cause);

	free(cause);
	return r == 0 && strstr(head, "\"" PRESET_EXPORT_FORMAT "\"") != NULL;
}

int preset_read(const char *name, bool user, cJSON **root, const cJSON **preset,
		char *where, size_t size, char **cause)
{
	const cJSON *format;
	char path[4096];
	int r;

	*cause = NULL;
	*root = NULL;
	r = preset_path(name, user, path, sizeof(path), cause);
	if (r < 0)
		return r;
	r = jsonfile_read(path, PRESET_SIZE_MAX, root, cause);
	if (r == -EFBIG && looks_like_export(path)) {
		free(*cause);
		*cause = NULL;
		r = jsonfile_read(path, PRESET_EXPORT_MAX, root, cause);
	}
	if (r < 0)
		return -EINVAL;
	*preset = *root;
	snprintf(where, size, "%s", path);
	format = cJSON_GetObjectItemCaseSensitive(*root, "format");
	if (cJSON_IsString(format) &&
	    strcmp(format->valuestring, PRESET_EXPORT_FORMAT) == 0) {
		/* A saved run replays through the preset it embeds. */
		*preset = cJSON_GetObjectItemCaseSensitive(*root, "preset");
		snprintf(where, size, "%s: preset", path);
		if (!*preset) {
			cJSON_Delete(*root);
			*root = NULL;
			return cause_set(cause, -EINVAL,
					 "%s: an export without an embedded "
					 "preset",
					 path);
		}
	}
	return 0;
}
