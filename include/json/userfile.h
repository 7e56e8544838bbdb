/*
 * A file a user names for nio-top to read: a preset, an export, a theme, a
 * secret.  Only a regular file is read: it is opened without following a
 * symbolic link and without waiting, so a FIFO or a device is refused before
 * any read can block, and it is read whole up to a stated size.
 */
#ifndef NIO_TOP_USERFILE_H
#define NIO_TOP_USERFILE_H

#include <stddef.h>

/*
 * 0 with *text (NUL-terminated, *len bytes before the NUL; caller frees), or
 * -errno with *cause naming the file and what is wrong with it.
 */
int userfile_read(const char *path, size_t max_size, char **text, size_t *len,
		  char **cause);

#endif
