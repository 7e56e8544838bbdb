/*
 * What nio-top says on standard error, escaped, and what the explorer had
 * to say kept until the terminal is back.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "app_private.h"
#include "escape.h"

void app_say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	escape_vprint(stderr, "nio-top: ", fmt, ap);
	va_end(ap);
}

void app_farewell(struct app *app)
{
	if (app->note)
		app_say("%s", app->note);
	if (app->farewell)
		app_say("%s", app->farewell);
	free(app->note);
	free(app->farewell);
	app->note = app->farewell = NULL;
}

void app_note(struct app *app, const char *fmt, ...)
{
	va_list ap;
	char *text;

	if (app->note)
		return;
	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) >= 0)
		app->note = text;
	va_end(ap);
}
