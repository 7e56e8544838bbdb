/*
 * Runs a fuzz target over files, as libFuzzer would replay them: every file
 * named, and every file in every folder named (sorted).  A broken promise
 * aborts; otherwise one TAP line per file.
 */
#include <dirent.h>
#include <stdbool.h>
#include <sys/stat.h>

#include "fuzz.h"

static unsigned int count;

static bool replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = NULL;
	size_t size = 0, cap = 0, n;

	if (!f) {
		printf("not ok %u - %s: cannot open\n", ++count, path);
		return false;
	}
	do {
		if (size == cap) {
			cap = cap ? 2 * cap : 4096;
			data = realloc(data, cap);
			if (!data)
				abort();
		}
		n = fread(data + size, 1, cap - size, f);
		size += n;
	} while (n > 0);
	fclose(f);
	fflush(stdout);
	LLVMFuzzerTestOneInput(data, size);
	free(data);
	printf("ok %u - %s (%zu bytes)\n", ++count, path, size);
	return true;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int main(int argc, char **argv)
{
	bool good = true;

	for (int i = 1; i < argc; i++) {
		struct dirent **names;
		struct stat st;
		int n;

		if (stat(argv[i], &st) < 0 || !S_ISDIR(st.st_mode)) {
			good &= replay_file(argv[i]);
			continue;
		}
		n = scandir(argv[i], &names, NULL, by_name);
		if (n < 0) {
			printf("not ok %u - %s: cannot list\n", ++count,
			       argv[i]);
			good = false;
			continue;
		}
		for (int j = 0; j < n; j++) {
			char path[4096];

			if (names[j]->d_name[0] != '.') {
				snprintf(path, sizeof(path), "%s/%s", argv[i],
					 names[j]->d_name);
				good &= replay_file(path);
			}
			free(names[j]);
		}
		free(names);
	}
	printf("1..%u\n", count);
	return good && count > 0 ? 0 : 1;
}
