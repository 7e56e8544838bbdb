/*
 * The run export: a session's runs as one JSON document (format
 * "nio-top-run"), written as outfile.h says: a regular file atomically, a
 * device or a FIFO through.
 */
#ifndef NIO_TOP_EXPORT_H
#define NIO_TOP_EXPORT_H

#include <cjson/cJSON.h>

#include "cli.h"
#include "hostinfo.h"
#include "session.h"

#define EXPORT_FORMAT  "nio-top-run"
#define EXPORT_VERSION 1
/* Exports hold every interval of every run: they may be large. */
#define EXPORT_LOAD_MAX (256 * 1024 * 1024)

/* 0, or -errno with *cause (caller frees). */
int export_write(const char *path, const struct session *session, char **cause);

/*
 * Reads an export back (--load): its embedded preset into *options (as -p
 * would), its runs into session->results, with no network made.  0, or
 * -EINVAL with *cause naming the file and the key.  Totals are exact.
 */
int export_load(const char *path, struct session *session,
		struct options *options, char **cause);

/* The same from a parsed document; path names it in errors. */
int export_from_json(const cJSON *root, const char *path,
		     struct session *session, struct options *options,
		     char **cause);

/* What a host is and can do, as the export's "host" and "capabilities". */
cJSON *export_host(const struct host_info *host);
cJSON *export_capabilities(const struct host_info *host);

#endif
