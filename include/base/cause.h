/*
 * Causes: a failure's reason in words, made where it is found and carried up
 * to the one place that shows it (`char **cause`, freed by that place).
 */
#ifndef NIO_TOP_CAUSE_H
#define NIO_TOP_CAUSE_H

/*
 * Sets *cause (freeing what it held) from fmt and returns err, so that a
 * failure can be said and returned in one statement.  The arguments may
 * include *cause itself: it is freed after the new cause is formatted.
 */
int cause_set(char **cause, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
