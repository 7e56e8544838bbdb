/*
 * For the C tests that check a file's text (a man page, a schema): the whole
 * file as one NUL-terminated string, or NULL.  The caller frees it.
 */
#ifndef NIO_TOP_TEST_TEXT_H
#define NIO_TOP_TEST_TEXT_H

#include <stdio.h>
#include <stdlib.h>

static inline char *read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t size = 0;

	if (!f)
		return NULL;
	if (getdelim(&text, &size, '\0', f) < 0) {
		free(text);
		text = NULL;
	}
	fclose(f);
	return text;
}

#endif
