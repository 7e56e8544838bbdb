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
#include "message.h"
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
	{.key = "controls.strategy",
	 .kind = RECORD_TEXT,
	 .offset = offsetof(struct prefs, strategy),
	 .size = sizeof(((struct prefs *)0)->strategy),
	 .optional = true},
	PREFS_FIELD("controls.msg_size", RECORD_SIZE, msg_size),
	PREFS_FIELD("controls.threads", RECORD_UINT, threads),
	{.key = "controls.mode",
	 .kind = RECORD_ENUM,
	 .offset = offsetof(struct prefs, mode),
	 .names = run_mode_names,
	 .optional = true},
	PREFS_FIELD("controls.duration_ms", RECORD_U64, duration_ms),
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
	const struct strategy_ops *ops = strategy_find(p->strategy);

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
	if (o->preset_name[0] || options_given(o, "strategy") ||
	    options_given(o, "msg-size") || options_given(o, "threads") ||
	    options_given(o, "mode") || options_given(o, "duration"))
		return;
	if (ops) {
		o->strategies[0] = ops;
		o->strategy_count = 1;
	}
	if (p->msg_size >= MESSAGE_SIZE_MIN &&
	    p->msg_size <= MESSAGE_SIZE_MAX) {
		o->msg_sizes[0] = p->msg_size;
		o->msg_size_count = 1;
	}
	if (p->threads >= 1 && p->threads <= OPTIONS_THREADS_MAX) {
		o->threads[0] = p->threads;
		o->thread_count = 1;
	}
	if (p->strategy[0] && p->mode >= 0 && p->mode < RUN_MODE_COUNT) {
		o->modes[0] = p->mode;
		o->mode_count = 1;
	}
	/* A timed run last time is timed again; else the explorer's own. */
	if (p->duration_ms && p->duration_ms <= 86400000) {
		o->run.duration_ms = p->duration_ms;
		options_set_given(o, "duration");
	}
}
