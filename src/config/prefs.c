/*
 * The explorer's settings.  Every field is optional when read, so a file
 * from an older nio-top (or one a user trimmed) still gives what it has;
 * a value that no longer fits (a strategy this nio-top lacks) is left out.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cause.h"
#include "codec.h"
#include "jsonfile.h"
#include "outfile.h"
#include "preset.h"
#include "prefs.h"

#define PREFS_FIELD(name, record_kind, member)                                 \
	{                                                                      \
		.key = name, .kind = record_kind,                              \
		.offset = offsetof(struct prefs, member), .optional = true     \
	}

static const struct record_field prefs_fields[] = {
	{.key = "theme",
	 .kind = RECORD_TEXT,
	 .offset = offsetof(struct prefs, theme),
	 .size = sizeof(((struct prefs *)0)->theme),
	 .optional = true},
	PREFS_FIELD("refresh_ms", RECORD_UINT, refresh_ms),
	{.key = "runs.sort",
	 .kind = RECORD_TEXT,
	 .offset = offsetof(struct prefs, sort),
	 .size = sizeof(((struct prefs *)0)->sort),
	 .optional = true},
	PREFS_FIELD("runs.descending", RECORD_BOOL, sort_descending),
};
static const struct record prefs_record = RECORD_OF(prefs_fields);

int prefs_path(char *out, size_t size)
{
	char dir[4096];
	int r = preset_user_dir(dir, sizeof(dir));

	if (r == 0)
		snprintf(out, size, "%s/settings.json", dir);
	return r;
}

int prefs_load(struct prefs *p, char **cause)
{
	const cJSON *format;
	char path[4200];
	cJSON *root;
	int r;

	*cause = NULL;
	memset(p, 0, sizeof(*p));
	if (prefs_path(path, sizeof(path)) < 0 || access(path, F_OK) < 0)
		return 0;
	r = jsonfile_read(path, 64 * 1024, &root, cause);
	if (r < 0)
		return r;
	format = cJSON_GetObjectItemCaseSensitive(root, "format");
	if (!cJSON_IsString(format) ||
	    strcmp(format->valuestring, PREFS_FORMAT) != 0)
		r = cause_set(cause, -EINVAL, "%s: format: must be \"%s\"",
			      path, PREFS_FORMAT);
	else
		r = codec_read(&prefs_record, root, p, path, CODEC_FILE, cause);
	/* The controls are the option table's: read by it, each on its own. */
	if (r == 0)
		options_controls_from_json(
			cJSON_GetObjectItemCaseSensitive(root, "controls"),
			&p->controls, p->control_read);
	cJSON_Delete(root);
	if (r < 0)
		memset(p, 0, sizeof(*p));
	return r;
}

int prefs_save(const struct prefs *p, char **cause)
{
	char dir[4096], path[4200], *text;
	cJSON *root;
	int r;

	*cause = NULL;
	if (preset_user_dir(dir, sizeof(dir)) < 0)
		return 0; /* no home: nowhere to remember */
	/* $XDG_CONFIG_HOME/nio-top, its parent made as the spec says. */
	*strrchr(dir, '/') = '\0';
	mkdir(dir, 0700);
	strcat(dir, "/nio-top");
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return cause_set(cause, -errno, "cannot make %s: %s", dir,
				 strerror(errno));
	snprintf(path, sizeof(path), "%s/settings.json", dir);
	root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "format", PREFS_FORMAT);
	cJSON_AddNumberToObject(root, "version", PREFS_VERSION);
	codec_write(&prefs_record, p, root);
	cJSON_AddItemToObject(root, "controls",
			      options_controls_to_json(&p->controls));
	text = cJSON_Print(root);
	cJSON_Delete(root);
	if (!text)
		return -ENOMEM;
	/* Refused as a link when read, so never followed when written. */
	r = outfile_write_text_flags(path, OUTFILE_NO_LINK, text, cause);
	cJSON_free(text);
	return r;
}

void prefs_apply(const struct prefs *p, struct options *o)
{
	if (p->theme[0] && !options_given(o, "theme"))
		snprintf(o->theme, sizeof(o->theme), "%s", p->theme);
	if (p->refresh_ms >= 20 && p->refresh_ms <= 10000 &&
	    !options_given(o, "refresh"))
		o->refresh_ms = p->refresh_ms;
	/*
	 * The last controls come back whole or not at all: a command line or
	 * preset that names any of them gets its own defaults for the rest,
	 * not a mode or size left from another session.
	 */
	if (o->preset_name[0])
		return;
	for (size_t k = 0; k < options_control_count(); k++)
		if (options_given(o, options_control_at(k)->name))
			return;
	/*
	 * A timed run last time is timed again; a continuous one (0) is out
	 * of --duration's range, so not read: the explorer's own again.
	 */
	options_from_run(o, &p->controls, p->control_read);
}
