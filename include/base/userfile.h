/*
 * A file a user names for nio-top to read: a preset, an export, a theme, a
 * secret.  Only a regular file is read: it is opened without following a
 * symbolic link and without waiting, so a FIFO or a device is refused before
 * any read can block (and a signal still ends nio-top at once), and it is
 * read whole up to a stated size.
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

/*
 * The same for a secret: also refused when other users may read or write it,
 * or it belongs to another user (root's will do), with the fix in *cause.
 */
int userfile_read_private(const char *path, size_t max_size, char **text,
			  size_t *len, char **cause);

/*
 * The first size - 1 bytes (or fewer) of the same kind of file, NUL-
 * terminated: 0, or -errno with *cause.
 */
int userfile_head(const char *path, char *buf, size_t size, char **cause);

#endif
