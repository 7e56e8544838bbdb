/*
 * Causes.  Out of memory, a cause is NULL and the caller says strerror(err).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cause.h"

int cause_set(char **cause, int err, const char *fmt, ...)
{
	va_list ap;

	free(*cause);
	va_start(ap, fmt);
	if (vasprintf(cause, fmt, ap) < 0)
		*cause = NULL;
	va_end(ap);
	return err;
}
