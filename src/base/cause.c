/*
 * Causes.  Out of memory, a cause is NULL and the caller says strerror(err).
 * The old cause is freed only after the new one is made, so a cause may be
 * said again inside itself ("agent X sent a bad %s", *cause).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cause.h"

int cause_set(char **cause, int err, const char *fmt, ...)
{
	char *said;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&said, fmt, ap) < 0)
		said = NULL;
	va_end(ap);
	free(*cause);
	*cause = said;
	return err;
}
