/*
 * The run export: a session's runs as one JSON document (format
 * "nio-top-run"), written atomically so a reader never sees half a file.
 */
#ifndef NIO_TOP_EXPORT_H
#define NIO_TOP_EXPORT_H

#include "session.h"

#define EXPORT_FORMAT  "nio-top-run"
#define EXPORT_VERSION 1

/* 0, or -errno with *cause (caller frees). */
int export_write(const char *path, const struct session *session, char **cause);

/* Writes text to path via a temporary file in the same folder, fsync, rename. */
int export_write_atomically(const char *path, const char *text, char **cause);

#endif
