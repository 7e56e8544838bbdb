/*
 * A minimal TAP producer for the C unit tests: ok(cond, fmt, ...) prints one
 * test line, and tap_done() prints the plan and returns the exit status.
 */
#ifndef NIO_TOP_TAP_H
#define NIO_TOP_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static int tap_count;
static int tap_failed;

static inline bool ok(bool cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static inline bool ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond)
		tap_failed++;
	return cond;
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

#endif
