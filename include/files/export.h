/*
 * The run export: a session's runs as one JSON document (format
 * "nio-top-run"), and --load, which reads one back into a session.  Every
 * part is written and read by the records' codecs and the option table, so
 * the writer and the loader describe one schema once.  It is written as
 * outfile.h says: a regular file atomically, a device or a FIFO through.
 */
#ifndef NIO_TOP_EXPORT_H
#define NIO_TOP_EXPORT_H

#include <cjson/cJSON.h>

#include "jsonlist.h"
#include "preset.h"
#include "session.h"

#define EXPORT_FORMAT  PRESET_EXPORT_FORMAT
#define EXPORT_VERSION 1

/* 0, or -errno with *cause (caller frees). */
int export_write(const char *path, const struct session *s, char **cause);

/*
 * The document's head: format, version, tool, date, host, capabilities,
 * environment, agent, config, preset (the stream's start holds it too).
 */
cJSON *export_head(const struct session *s);

/* One run as the export holds it (CSV cells are read from this too). */
cJSON *export_run(const struct session *s, const struct run_result *r);

/* The analysis as the export holds it. */
cJSON *export_analysis(const struct session *s);

/*
 * Reads an export back (--load): its embedded preset onto *options (as -p
 * would, nothing run, no strategy needed here), its host and runs into
 * *session, with no network made.  0, or -EINVAL with *cause naming the
 * file and the key.  Totals are exact; counters are shown as saved.
 */
int export_load(const char *path, struct session *session,
		struct options *options, char **cause);

/*
 * The same from a parsed document whose runs come from runs (see jsonlist.h:
 * root's own "runs" is only checked to be a list); path names it in errors.
 */
int export_from_json(const cJSON *root, struct jsonfile_list *runs,
		     const char *path, struct session *session,
		     struct options *options, char **cause);

/*
 * The crossover search as the export holds it ("crossover"), and read
 * back from one into s->crossover once s holds the file's runs: 0, or
 * -EINVAL with *cause (path names the object) when it does not follow from
 * its runs.
 */
cJSON *export_search(const struct crossover *x);
int export_search_load(const cJSON *obj, const char *path, struct session *s,
		       char **cause);

#endif
