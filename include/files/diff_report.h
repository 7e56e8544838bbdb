/*
 * A comparison's reports: --diff OLD NEW (two exports read and compared as
 * model/diff.h says), printed on standard output as text or markdown, written as JSON (format
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

#endif
