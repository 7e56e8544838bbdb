/*
 * --diff OLD NEW: two exports read and compared as model/diff.h says,
 * printed on standard output, and written as JSON (format "nio-top-diff")
 * and CSV.
 */
#ifndef NIO_TOP_DIFF_REPORT_H
#define NIO_TOP_DIFF_REPORT_H

#include "diff.h"
#include "options.h"

/* The comparison's text on standard output. */
void diff_print(const struct diff *d);

/*
 * Compares given->diff (old) with given->diff_new, both read as --load
 * reads one under the given options; prints the comparison on standard
 * output and writes it to json_path and csv_path (each may be NULL), with
 * *uncompared_new the points whose new runs none could be compared.  0, or
 * -errno with *cause (caller frees).
 */
int diff_exports(const struct options *given, const char *json_path,
		 const char *csv_path, size_t *uncompared_new, char **cause);

#endif
