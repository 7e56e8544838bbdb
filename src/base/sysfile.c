/*
 * Reading single values from /proc and /sys files.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sysfile.h"

int sysfile_int_at(const char *path, unsigned int index, int fallback)
{
	FILE *f = fopen(path, "re");
	int value = fallback;

	if (!f)
		return fallback;
	for (unsigned int i = 0; i <= index; i++) {
		if (fscanf(f, "%d", &value) != 1) {
			value = fallback;
			break;
		}
	}
	fclose(f);
	return value;
}

int sysfile_int(const char *path, int fallback)
{
	return sysfile_int_at(path, 0, fallback);
}

int sysfile_line(const char *path, char *out, int size)
{
	FILE *f = fopen(path, "re");
	int r = 0;

	out[0] = '\0';
	if (!f)
		return -errno;
	if (!fgets(out, size, f))
		r = -EIO;
	fclose(f);
	if (r < 0)
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
	return r;
}
