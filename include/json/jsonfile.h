/*
 * A JSON file a user hands nio-top (a preset, a saved export): read with
 * limits (a regular file, not a symlink, at most max_size bytes, nested at
 * most JSONFILE_DEPTH_MAX deep), parsed by cJSON, with every error naming the
 * file, the line and column and the key path where it happened
 * ("p.json:3:17: msg_sizes[2]: ...").  Duplicate keys are errors.  Numbers
 * keep their text, so a 64-bit integer reads back exactly.
 */
#ifndef NIO_TOP_JSONFILE_H
#define NIO_TOP_JSONFILE_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#define JSONFILE_DEPTH_MAX 16
#define JSONFILE_PATH_MAX  256

/* 0 with *root (cJSON_Delete it), or -errno with *cause (caller frees). */
int jsonfile_read(const char *path, size_t max_size, cJSON **root,
		  char **cause);

/* Parses text (NUL-terminated at len) as jsonfile_read() does. */
int jsonfile_parse(const char *name, const char *text, size_t len, cJSON **root,
		   char **cause);

/* A non-negative integer item, exactly: 0, or -EINVAL (not one). */
int jsonfile_u64(const cJSON *item, uint64_t *value);

/* Writes a 64-bit integer exactly (cJSON's numbers are doubles). */
cJSON *jsonfile_u64_item(uint64_t value);
void jsonfile_add_u64(cJSON *obj, const char *key, uint64_t value);

#endif
