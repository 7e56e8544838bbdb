/*
 * Reading single values from /proc and /sys files.
 */
#include <stdio.h>

#include "sysfile.h"

int sysfile_int(const char *path, int fallback)
{
	FILE *f = fopen(path, "re");
	int value = fallback;

	if (f) {
		if (fscanf(f, "%d", &value) != 1)
			value = fallback;
		fclose(f);
	}
	return value;
}
