/*
 * Preset files.  A file is read with the preset limit first; only a file
 * too big for a preset is read again with an export's limit, so that a big
 * export still replays (-p run.json) while a preset stays small.
 */
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

void preset_dirs(const char *dirs[4])
{
	size_t n = 0;
	const char *env = getenv("NIO_TOP_PRESETS");

	if (env && env[0])
		dirs[n++] = env;
	dirs[n++] = NIO_TOP_PRESET_DIR;
	dirs[n++] = NIO_TOP_SOURCE_PRESET_DIR;
	dirs[n] = NULL;
}

/* A bare name is looked up in the preset folders; anything else is a path. */
static int preset_path(const char *name, char *out, size_t size, char **cause)
{
	const char *dirs[4];

	if (strchr(name, '/') || strstr(name, ".json")) {
		snprintf(out, size, "%s", name);
		return 0;
	}
	preset_dirs(dirs);
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

int preset_read(const char *name, cJSON **root, const cJSON **preset,
		char *where, size_t size, char **cause)
{
	const cJSON *format;
	char path[4096];
	int r;

	*cause = NULL;
	*root = NULL;
	r = preset_path(name, path, sizeof(path), cause);
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
