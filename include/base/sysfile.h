/*
 * Small kernel facts read from /proc and /sys files.
 */
#ifndef NIO_TOP_SYSFILE_H
#define NIO_TOP_SYSFILE_H

/* The integer at the start of the file, or `fallback` if there is none. */
int sysfile_int(const char *path, int fallback);
/* The index-th integer of the file (0: the first), or `fallback`. */
int sysfile_int_at(const char *path, unsigned int index, int fallback);

#endif
