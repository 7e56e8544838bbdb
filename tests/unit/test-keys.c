/*
 * The keys of nio-top(1) are the key table's: the Keys list of the page is
 * what ui_man_keys() prints (regenerate it with `test-keys --print-man`);
 * and the help's glossary says what every figure of the metric table is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glossary.h"
#include "metric.h"
#include "tap.h"
#include "text.h"
#include "ui.h"

#define KEYS_START ".Ss Keys\n.Bl -tag -width Ds -compact\n"

int main(int argc, char **argv)
{
	char *text, *want = NULL, *start, *end;
	size_t size = 0;
	FILE *f;

	if (argc > 1 && strcmp(argv[1], "--print-man") == 0) {
		ui_man_keys(stdout);
		return 0;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: test-keys MAN-PAGE | --print-man\n");
		return 2;
	}
	text = read_text(argv[1]);
	f = open_memstream(&want, &size);
	ui_man_keys(f);
	fclose(f);
	ok(strstr(want, ".It Ic F10 , Ic q\n") != NULL,
	   "the table's q quits, with F10 beside it");
	start = text ? strstr(text, KEYS_START) : NULL;
	end = start ? strstr(start, "\n.El\n") : NULL;
	if (start) {
		start += strlen(KEYS_START);
		end[1] = '\0';
	}
	ok(start && strcmp(start, want) == 0,
	   "nio-top(1) lists the keys as the key table says "
	   "(test-keys --print-man)");
	free(want);
	free(text);
	for (size_t m = 0; m < metric_count; m++)
		ok(ui_gloss_metric(metrics[m].key) != NULL,
		   "the glossary says what %s (%s) is", metrics[m].label,
		   metrics[m].key);
	return tap_done();
}
