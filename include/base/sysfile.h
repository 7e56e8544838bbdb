/*
 * Small kernel facts read from /proc and /sys files.
 */
#ifndef NIO_TOP_SYSFILE_H
#define NIO_TOP_SYSFILE_H

/* The integer at the start of the file, or `fallback` if there is none. */
int sysfile_int(const char *path, int fallback);
/* The index-th integer of the file (0: the first), or `fallback`. */
int sysfile_int_at(const char *path, unsigned int index, int fallback);
/*
 * The file's first line, without its newline, into out (size bytes): 0, or
 * -errno with out empty.
 */
int sysfile_line(const char *path, char *out, int size);

#endif
