/*
 * Reading single values from /proc and /sys files.
 */
#include <stdio.h>

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
