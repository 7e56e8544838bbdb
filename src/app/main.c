/*
 * nio-top: parse the command line, then hand over to the application.
 */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "escape.h"
#include "options.h"

int main(int argc, char **argv)
{
	struct options options;
	char *cause;
	int r;

	/* Numbers stay in the C locale; the screen may draw UTF-8. */
	setlocale(LC_CTYPE, "");
	r = options_parse(argc, argv, &options, &cause);
	/* A preset's warnings may quote the file: each line escaped. */
	for (char *line = options.warnings, *end; line && *line; line = end) {
		end = strchr(line, '\n');
		if (end)
			*end++ = '\0';
		else
			end = line + strlen(line);
		escape_print(stderr, "", "%s", line);
	}
	free(options.warnings);
	options.warnings = NULL;
	if (r < 0) {
		escape_print(stderr, "nio-top: ", "%s",
			     cause ? cause : "bad usage");
		fprintf(stderr, "Try 'nio-top --help'.\n");
		free(cause);
		return 2;
	}
	if (options.help) {
		options_usage(stdout);
		return 0;
	}
	if (options.version) {
		printf("nio-top %s\n", NIO_TOP_VERSION);
		return 0;
	}
	return app_run(&options);
}
