/*
 * Preset files: where they are looked up ($NIO_TOP_PRESETS, the installed
 * folder, the source tree) and how one is read.  What a preset means is the
 * option table's business (options.h); a saved export is a preset too, by
 * the one it embeds.
 */
#ifndef NIO_TOP_PRESET_H
#define NIO_TOP_PRESET_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#define PRESET_SIZE_MAX (1024 * 1024)
/* An export holds every interval of every run: it may be large. */
#define PRESET_EXPORT_MAX    (256 * 1024 * 1024)
#define PRESET_EXPORT_FORMAT "nio-top-run"

/*
 * The user's own folder of nio-top ($XDG_CONFIG_HOME/nio-top, or
 * ~/.config/nio-top): its settings and saved presets.  0, or -ENOENT when
 * neither variable says where.
 */
int preset_user_dir(char *out, size_t size);

/*
 * The folders presets are looked up in, in order, NULL-terminated:
 * $NIO_TOP_PRESETS, the user's presets (unless !user), the installed
 * folder, the source tree.
 */
void preset_dirs(const char *dirs[5], bool user);

/* A preset of the folders, as the explorer lists them. */
struct preset_entry {
	char name[64];
	char description[1025]; /* "" if it has none */
	/* What loading it starts, as the explorer counts it (0: unknown). */
	size_t runs;
	double seconds; /* warm-ups and durations planned; 0: continuous */
};

/* Every preset of the folders, each name once (the first found), sorted. */
int preset_list(bool user, struct preset_entry **list, size_t *count);

/*
 * Reads the preset called name (a bare name is looked up in the folders,
 * anything else is a path): 0 with *root (cJSON_Delete it) and *preset, the
 * preset in it (an export's embedded one), and where it is named for
 * messages; or -EINVAL with *cause.
 */
int preset_read(const char *name, bool user, cJSON **root, const cJSON **preset,
		char *where, size_t size, char **cause);

#endif
