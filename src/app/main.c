/*
 * nio-top: parse the command line, then hand over to the application.
 */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>

#include "app.h"
#include "options.h"

int main(int argc, char **argv)
{
	struct options options;
	char *cause;
	int r;

	/* Numbers stay in the C locale; the screen may draw UTF-8. */
	setlocale(LC_CTYPE, "");
	r = options_parse(argc, argv, &options, &cause);
	if (options.warnings)
		fprintf(stderr, "%s", options.warnings);
	free(options.warnings);
	options.warnings = NULL;
	if (r < 0) {
		fprintf(stderr, "nio-top: %s\n", cause ? cause : "bad usage");
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
