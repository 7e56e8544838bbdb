/*
 * Presets: JSON files (format "nio-top-preset", version 1) that hold a run or
 * a sweep grid and the settings around it.  One table of keys drives the
 * parsing, the defaults (those of the command line), the validation, the
 * JSON Schema in presets/schema.json and the key list of nio-top-preset(5).
 */
#ifndef NIO_TOP_PRESET_H
#define NIO_TOP_PRESET_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "cli.h"

#define PRESET_FORMAT	"nio-top-preset"
#define PRESET_VERSION	1
#define PRESET_SIZE_MAX (1024 * 1024)

enum preset_kind {
	PRESET_OBJECT, /* holds the keys below it */
	PRESET_FORMAT_KEY,
	PRESET_VERSION_KEY,
	PRESET_TEXT,
	PRESET_CHOICE,
	PRESET_NUMBER,
	PRESET_INTEGER,
	PRESET_BOOL,
	PRESET_SIZES,	 /* [bytes or "16K"] */
	PRESET_INTEGERS, /* [counts] */
	PRESET_NAMES,	 /* [names] */
	PRESET_RATE,	 /* bit/s or "1G" */
};

struct preset_key {
	const char *path; /* "topology.mtu" */
	enum preset_kind kind;
	double min, max;	    /* numbers; lengths for text */
	const char *const *choices; /* NULL-terminated, or NULL */
	const char *option;	    /* the command-line option it sets */
	const char *doc;
};

extern const struct preset_key preset_keys[];
extern const size_t preset_key_count;

/*
 * Finds a preset by name (in $NIO_TOP_PRESETS, the installed folder, the
 * source tree) or takes name as a path, and applies it to opts.  An export
 * (-o file) replays through its embedded preset.  0, or -EINVAL with *cause
 * naming the file, the key and the rule; unknown keys add to opts->warnings.
 */
int preset_load(const char *name, struct options *opts, char **cause);

/* Applies a parsed preset (root) read from name. */
int preset_apply(const cJSON *root, const char *name, struct options *opts,
		 char **cause);

/* The options as a preset that reproduces them. */
cJSON *preset_from_options(const struct options *opts);

/* The JSON Schema of a preset, generated from the key table. */
cJSON *preset_schema(void);

/* The folders presets are looked up in, in order; NULL-terminated. */
void preset_dirs(const char *dirs[4]);

#endif
