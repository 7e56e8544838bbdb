/*
 * A comparison's reports: --diff OLD NEW (two exports read and compared as
 * model/diff.h says), and a study compared with --baseline OLD; printed on
 * standard output as text or markdown, written as JSON (format
 * "nio-top-diff") and CSV, and judged by --gate (model/gate.h), whose
 * findings go to standard error and into the JSON.
 */
#ifndef NIO_TOP_DIFF_REPORT_H
#define NIO_TOP_DIFF_REPORT_H

#include <stdio.h>

#include "diff.h"
#include "gate.h"
#include "options.h"

/* The comparison's text on standard output. */
void diff_print(const struct diff *d);

/* As markdown on out, the gate's verdict after it (g may be NULL). */
void diff_markdown(FILE *out, const struct diff *d, const struct gate *g,
		   const char *const paths[2]);

/*
 * Compares given->diff (old) with given->diff_new, both read as --load
 * reads one under the given options; prints the comparison on standard
 * output in given->diff_format, writes it to -o and --csv, and judges it by
 * --gate.  0 with *status the gate's (0 without one) and *uncompared_new
 * the points whose new runs none could be compared, or -errno with *cause
 * (caller frees).
 */
int diff_exports(const struct options *given, int *status,
		 size_t *uncompared_new, char **cause);

/*
 * --baseline OLD, read before the study runs (so that it never runs for
 * nothing) as --diff reads an export: 0, or -errno with *cause.
 */
int diff_baseline_load(const struct options *given, struct session *old,
		       char **cause);

/*
 * The baseline old against the study s, printed and judged as --diff
 * does; *json the comparison as -o's "baseline" (caller frees with
 * cJSON_Delete).  0 with *status the gate's, or -errno with *cause.
 */
int diff_baseline(const struct options *given, const struct session *old,
		  const struct session *s, int *status, cJSON **json,
		  char **cause);

#endif
