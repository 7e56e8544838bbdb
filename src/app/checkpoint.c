/*
 * The checkpoints of -o: a study's export rewritten after each finished
 * run, by batch and the explorer alike.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_private.h"
#include "clock.h"
#include "export.h"
#include "outfile.h"

/*
 * With -o the export is rewritten, atomically, after every finished run, so
 * that a crash or kill -9 keeps what finished.  A long session's export is
 * big: a rewrite waits until ten times its last cost has passed, so that
 * writing never takes more than a tenth of the time.  A failure is said at
 * once, but the same failure only once in a row.
 */
int app_checkpoint(struct app *app, const struct session *s, char **cause)
{
	uint64_t start = clock_now_ns();
	char *why = NULL;
	int r;

	*cause = NULL;
	if (!s->options.output ||
	    start - app->checkpoint_end_ns < 10 * app->checkpoint_cost_ns)
		return 0;
	/* A device or a FIFO gets the export once, at the end. */
	if (!outfile_replaceable(s->options.output))
		return 0;
	r = export_write(s->options.output, s, &why);
	app->checkpoint_end_ns = clock_now_ns();
	app->checkpoint_cost_ns = app->checkpoint_end_ns - start;
	if (r == 0) {
		app->checkpoint_failed[0] = '\0';
		free(why);
		return 0;
	}
	if (!why &&
	    asprintf(&why, "%s: %s", s->options.output, strerror(-r)) < 0)
		why = NULL;
	if (why && strcmp(why, app->checkpoint_failed) == 0) {
		free(why);
		return 0;
	}
	snprintf(app->checkpoint_failed, sizeof(app->checkpoint_failed), "%s",
		 why ? why : "");
	*cause = why;
	return r;
}
