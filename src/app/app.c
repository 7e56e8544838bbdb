/*
 * The application: the entry points as a table (app_entries[], as tmux's
 * cmd_table), the first the options want taken; what it needs set up
 * before (the outputs checked, the main loop) and torn down after, once.
 * A study opens the session its front end runs on and writes the reports
 * at the end.  Teardown happens in ordinary code, in the reverse order of
 * setup.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"
#include "app_private.h"
#include "clock.h"
#include "diff_report.h"
#include "export.h"
#include "outfile.h"
#include "prefs.h"
#include "report.h"

/*
 * The files -o, --csv, --svg and --json-stream name, before anything runs:
 * no two the same (2), and each one writable (1), so that a study never
 * runs for nothing.
 */
static int app_check_outputs(const struct options *o)
{
	const char *const names[] = {"-o", "--csv", "--svg", "--json-stream"};
	const char *paths[] = {o->output, o->csv, o->svg,
			       o->json_stream && strcmp(o->json_stream, "-")
				       ? o->json_stream
				       : NULL};

	for (size_t i = 0; i < 4; i++)
		for (size_t k = i + 1; k < 4; k++)
			if (paths[i] && paths[k] &&
			    outfile_same(paths[i], paths[k])) {
				app_say("%s and %s name the same "
					"file (%s): each needs its own",
					names[i], names[k], paths[k]);
				return 2;
			}
	for (size_t i = 0; i < 4; i++) {
		char *cause = NULL;
		int r;

		if (!paths[i])
			continue;
		r = outfile_try(paths[i], &cause);
		if (r < 0) {
			app_say("%s %s", names[i],
				cause ? cause : strerror(-r));
			free(cause);
			return 1;
		}
	}
	return 0;
}

static int write_export(const char *path, const struct session *s,
			const struct report_style *style, char **cause)
{
	(void)style;
	return export_write(path, s, cause);
}

static int write_csv(const char *path, const struct session *s,
		     const struct report_style *style, char **cause)
{
	(void)style;
	return report_write_csv(path, s, cause);
}

/* -o, --csv and --svg: each written atomically; 0 or 1 (a failure said). */
static int app_write_reports(const struct options *o, const struct session *s,
			     const struct report_style *style)
{
	static const struct {
		int (*write)(const char *path, const struct session *s,
			     const struct report_style *style, char **cause);
		const char *what;
	} writers[] = {
		{write_export, "JSON"},
		{write_csv, "CSV"},
		{report_write_svg, "SVG figures"},
	};
	const char *paths[] = {o->output, o->csv, o->svg};
	int status = 0;

	for (size_t i = 0; i < 3; i++) {
		char *cause = NULL;
		int r;

		if (!paths[i])
			continue;
		r = writers[i].write(paths[i], s, style, &cause);
		if (r < 0) {
			app_say("%s", cause ? cause : strerror(-r));
			status = 1;
		} else {
			app_say("wrote %zu run%s to %s (%s)", s->result_count,
				s->result_count == 1 ? "" : "s", paths[i],
				writers[i].what);
		}
		free(cause);
	}
	return status;
}

/*
 * The figures' colours: the theme's chart colours (the one on screen at the
 * end, else --theme's), or the report's own palette without themes.
 */
static void app_report_style(const struct ui *ui, const struct options *o,
			     struct report_style *style)
{
	unsigned char rgb[REPORT_COLOURS_MAX][3];
	size_t n = ui_chart_colours(ui, o->theme, rgb, REPORT_COLOURS_MAX);

	report_style_default(style);
	for (size_t i = 0; i < n; i++)
		report_style_colour(style, i, rgb[i]);
	if (n)
		style->colour_count = n;
}

/*
 * --load OLD NEW: NEW read as OLD was, its runs moved after OLD's (so the
 * views show both), its host, environment and settings kept apart, and
 * the two compared.
 */
static int app_load_second(struct app *app, const struct options *options,
			   struct session *s, char **cause)
{
	struct options o = *options;
	size_t old_count = s->result_count, total;
	struct session *second = &app->second;
	struct run_result *grown;
	int r;

	o.viewing_only = true;
	session_init(second);
	r = export_load(options->load_new, second, &o, cause);
	total = old_count + second->result_count;
	grown = r == 0 ? realloc(s->results, (total + 1) * sizeof(*grown))
		       : NULL;
	if (r == 0 && !grown)
		r = -ENOMEM;
	if (r < 0) {
		session_close(second);
		return r;
	}
	s->results = grown;
	memcpy(s->results + old_count, second->results,
	       second->result_count * sizeof(*grown));
	s->result_count = total;
	/* They are s's now: closing second frees none of them. */
	second->result_count = 0;
	session_analyse(s);
	r = diff_build(&app->diff,
		       (struct diff_side[2]){
			       {s, s, 0, old_count},
			       {second, s, old_count, total - old_count}},
		       &(struct diff_how){.test = DIFF_TEST_WELCH,
					  .drift = options->drifts,
					  .drift_count = options->drift_count});
	if (r < 0) {
		session_close(second);
		return r;
	}
	app->compared = true;
	return 0;
}

/* The session: a saved export (read only: no network, no privilege), or a
 * new one. */
static int app_session(struct app *app, const struct options *options,
		       struct session *s, struct options *loaded, char **cause)
{
	if (!options->load && options->connect && app->ui) {
		char what[300];

		snprintf(what, sizeof(what), "Reaching the agent %s ...",
			 options->connect);
		ui_draw_waiting(app->ui, what);
	}
	if (!options->load)
		return session_open(s, options, &app->wake, cause);
	int r;

	*loaded = *options;
	loaded->viewing_only = true;
	r = export_load(options->load, s, loaded, cause);
	/* What the command line says of short runs outranks the file. */
	if (r == 0 && options_given(options, "min-measured")) {
		s->options.min_measured_ms = options->min_measured_ms;
		session_analyse(s);
	}
	if (r == 0 && options->load_new) {
		r = app_load_second(app, options, s, cause);
		/* OLD was read: a NEW refused leaves nothing of either. */
		if (r < 0)
			session_close(s);
	}
	return r;
}

/*
 * A wait for the agent woke in the explorer: a signal ends it (left for the
 * loop to read), and so does a key that quits; the keys are kept for the
 * explorer to answer once the wait is over.
 */
static bool app_wake_stop(void *data)
{
	struct app *app = data;
	struct pollfd pfd = {.fd = app->signal_fd, .events = POLLIN};

	return poll(&pfd, 1, 0) > 0 || ui_typeahead(app->ui);
}

/*
 * The explorer's settings (unless --no-config): what the user left last
 * time, under what the command line and presets say.
 */
static void app_recall(struct app *app, struct options *o, struct prefs *p)
{
	char *cause = NULL;

	memset(p, 0, sizeof(*p));
	if (o->no_config || o->load)
		return;
	if (prefs_load(p, &cause) < 0) {
		app_note(app, "settings ignored: %s",
			 cause ? cause : "cannot read them");
		free(cause);
		return;
	}
	prefs_apply(p, o);
}

/* The terminal for the explorer, in the theme asked for (or the default). */
static int app_open_ui(struct app *app, struct options *o,
		       const struct prefs *p, struct ui **ui, char **cause)
{
	int r = ui_open(ui, o->theme, cause);

	/*
	 * A remembered theme that is gone (or was never a theme's name, as
	 * "../..") is no reason not to start, but it is said.
	 */
	if (r < 0 && p->theme[0] && strcmp(o->theme, p->theme) == 0 &&
	    !options_given(o, "theme")) {
		app_note(app, "settings: %s; the default theme instead",
			 *cause ? *cause : "cannot load the theme");
		free(*cause);
		*cause = NULL;
		snprintf(o->theme, sizeof(o->theme), "default");
		r = ui_open(ui, o->theme, cause);
	}
	if (r == 0)
		ui_recall(*ui, p);
	return r;
}

/*
 * The explorer's terminal (what the user left last time recalled), and a
 * wait for the agent that a key that quits ends as well as a signal: 0, or
 * -errno with *cause.
 */
static int app_open_explorer(struct app *app, struct options *o,
			     struct prefs *p, struct ui **ui, char **cause)
{
	int r;

	app_recall(app, o, p);
	r = app_open_ui(app, o, p, ui, cause);
	if (r < 0)
		return r;
	app->ui = *ui;
	app->wake = (struct remote_wake){
		.fd = {app->signal_fd, ui_input_fd(*ui)},
		.stop = app_wake_stop,
		.ctx = app};
	return 0;
}

/*
 * --diff OLD NEW: 0; 1 when an export could not be read or written, or a
 * point's new runs all failed (none could be compared).  With --gate, the
 * gate's status (0 passed, 1 a rule broken or a point's new runs all
 * failed), and 2 on any error.
 */
static int app_diff(struct app *app, const struct options *o)
{
	char *cause = NULL;
	size_t uncompared;
	int status, r = diff_exports(o, &status, &uncompared, &cause);

	(void)app;
	if (r < 0) {
		app_say("--diff: %s", cause ? cause : strerror(-r));
		free(cause);
		return o->gate[0] ? 2 : 1;
	}
	if (o->gate[0])
		return status;
	if (uncompared) {
		app_say("--diff: %zu point%s of the new export with no run "
			"to compare (listed after the tables)",
			uncompared, uncompared == 1 ? "" : "s");
		return 1;
	}
	return 0;
}

/*
 * --baseline OLD, before the study: read, or the exit status (2 with
 * --gate, else 1, as an export --load cannot read).
 */
static int app_baseline_load(const struct options *o, struct session *old)
{
	char *cause = NULL;
	int r = diff_baseline_load(o, old, &cause);

	if (r == 0)
		return 0;
	app_say("--baseline: %s", cause ? cause : strerror(-r));
	free(cause);
	return o->gate[0] ? 2 : 1;
}

/*
 * --baseline OLD after the study: the two compared and judged, the
 * comparison kept for the export.  The exit status: the gate's with
 * --gate, else the study's.
 */
static int app_baseline(const struct options *o, const struct session *old,
			struct session *s, int status)
{
	char *cause = NULL;
	int gate_status, r;

	/* After the runs' table; markdown stands alone (it has none). */
	if (o->diff_format == DIFF_FORMAT_TEXT)
		printf("\n");
	fflush(stdout);
	r = diff_baseline(o, old, s, &gate_status, &s->baseline, &cause);
	if (r < 0) {
		app_say("--baseline: %s", cause ? cause : strerror(-r));
		free(cause);
		return o->gate[0] ? 2 : 1;
	}
	return o->gate[0] ? gate_status : status;
}

/* --json-stream: opened, and its start sent.  Non-zero: said, failed. */
static int app_stream_open(struct app *app, const char *path,
			   struct stream *stream, const struct session *s)
{
	char *cause = NULL;
	/* Queued where a loop polls it, so that no reader holds a run up. */
	int r = stream_open(stream, path, app->signal_fd >= 0, &cause);

	if (r < 0) {
		app_say("--json-stream %s", cause ? cause : strerror(-r));
		free(cause);
		return 1;
	}
	app->stream = stream;
	app->stream_stdout = strcmp(path, "-") == 0;
	stream_start(stream, s);
	return 0;
}

/*
 * How long the stream's end waits for a reader that fell behind, as long
 * as it takes some in that time: a batch that ran to its end waits for a
 * script to read its end line; after a signal or the explorer's q nobody
 * waits for it.  A signal meanwhile ends the wait.
 */
#define STREAM_PATIENCE_NS (30000 * NS_PER_MS)
#define STREAM_QUIT_NS	   (500 * NS_PER_MS)

/* The analysis and the end, and the stream closed.  Non-zero: failed. */
static int app_stream_close(struct app *app, const struct session *s,
			    bool explored)
{
	char *cause = NULL, why[64];
	const char *stopped = app->stopped_why;
	bool patient = !explored && !app->signal && !app->stopped_why;
	int r;

	if (app->signal) {
		snprintf(why, sizeof(why), "interrupted by %s",
			 sigabbrev_np(app->signal));
		stopped = why;
	}
	stream_analysis(app->stream, s);
	if (stream_gone(app->stream))
		app_say("%s: stopped after %zu run%s",
			app->stopped_why ? app->stopped_why
					 : "the stream's reader went away",
			s->result_count, s->result_count == 1 ? "" : "s");
	r = stream_close(app->stream, s, stopped, app->signal_fd,
			 patient ? STREAM_PATIENCE_NS : STREAM_QUIT_NS, &cause);
	/* A signal that ended the wait is the exit's. */
	if (app->signal_fd >= 0)
		loop_take_signal(app);
	if (stream_dropped(app->stream))
		app_say("the stream's reader fell behind: %zu line%s dropped",
			stream_dropped(app->stream),
			stream_dropped(app->stream) == 1 ? "" : "s");
	app->stream = NULL;
	if (r < 0) {
		app_say("--json-stream %s", cause ? cause : "failed");
		free(cause);
		return 1;
	}
	return 0;
}

/* An error's exit status: --gate keeps 1 for a rule broken. */
static int app_failed(const struct options *o)
{
	return o->gate[0] ? 2 : 1;
}

/*
 * A study: its session (a new one, or a saved export), the front end on
 * it, then the reports and the stream's end.  opts: the options as the
 * explorer's settings left them (else options itself), which the session
 * opens with.
 */
static int app_study(struct app *app, const struct options *options,
		     const struct options *opts,
		     int (*front)(struct app *app, const struct options *o,
				  struct session *s,
				  struct report_style *style))
{
	struct options loaded; /* --load: the export's own options */
	struct session session;
	struct report_style style;
	struct stream stream;
	/* The explorer's terminal is closed by its front end. */
	bool explored = app->ui != NULL;
	char *cause = NULL;
	int status, r;

	r = app_session(app, opts, &session, &loaded, &cause);
	if (r < 0) {
		ui_close(app->ui);
		app_farewell(app);
		app_say("%s", cause ? cause : strerror(-r));
		free(cause);
		/*
		 * A signal that ended a wait for the agent is the exit's; a
		 * key that quits ended it as the user asked.
		 */
		return r != -EINTR	       ? app_failed(options)
		       : loop_take_signal(app) ? 128 + app->signal
					       : 0;
	}
	if (options->json_stream &&
	    app_stream_open(app, options->json_stream, &stream, &session)) {
		ui_close(app->ui);
		app_farewell(app);
		session_close(&session);
		return app_failed(options);
	}
	status = front(app, options, &session, &style);
	if (app_write_reports(options, &session, &style))
		status = app_failed(options);
	if (app->stream && app_stream_close(app, &session, explored))
		status = app_failed(options);
	session_close(&session);
	if (app->compared) {
		diff_fini(&app->diff);
		session_close(&app->second);
	}
	return app->signal ? 128 + app->signal : status;
}

/* The explorer on the session, then its terminal closed. */
static int front_explore(struct app *app, const struct options *o,
			 struct session *s, struct report_style *style)
{
	int r = explore_run(app, s, app->ui);

	app_report_style(app->ui, o, style);
	ui_close(app->ui);
	if (r < 0)
		app_say("%s", strerror(-r));
	app_farewell(app);
	return r < 0 ? 1 : 0;
}

/* A saved export's runs and analysis, printed. */
static int front_loaded(struct app *app, const struct options *o,
			struct session *s, struct report_style *style)
{
	app_report_style(NULL, o, style);
	return batch_loaded(app, s);
}

/*
 * The study's runs, one after another, headless; then compared with
 * --baseline.
 */
static int front_batch(struct app *app, const struct options *o,
		       struct session *s, struct report_style *style)
{
	int status;

	app_report_style(NULL, o, style);
	if (s->notice)
		app_say("%s", s->notice);
	status = batch_run(app, s);
	if (o->baseline && !app->signal)
		status = app_baseline(o, &app->baseline, s, status);
	return status;
}

/* The explorer: its terminal first, then the study. */
static int app_explore(struct app *app, const struct options *options)
{
	struct options opts = *options;
	struct prefs prefs;
	struct ui *ui = NULL;
	char *cause = NULL;
	int r = app_open_explorer(app, &opts, &prefs, &ui, &cause);

	if (r < 0) {
		app_farewell(app);
		app_say("%s", cause ? cause : strerror(-r));
		free(cause);
		return 1;
	}
	return app_study(app, options, &opts, front_explore);
}

static int app_load(struct app *app, const struct options *options)
{
	return app_study(app, options, options, front_loaded);
}

/* The study headless; --baseline's export read before anything runs. */
static int app_batch(struct app *app, const struct options *options)
{
	int status;

	session_init(&app->baseline);
	if (options->baseline && app_baseline_load(options, &app->baseline))
		status = app_failed(options);
	else
		status = app_study(app, options, options, front_batch);
	session_close(&app->baseline);
	return status;
}

/* --completion SHELL: the script, or 2 for a shell it does not know. */
static int app_completion(struct app *app, const struct options *o)
{
	(void)app;
	if (options_completion(stdout, o->completion) == 0)
		return 0;
	app_say("--completion: '%s' is not bash, zsh or fish", o->completion);
	return 2;
}

static int app_list_strategies(struct app *app, const struct options *o)
{
	(void)app;
	(void)o;
	return check_list_strategies();
}

static int app_check(struct app *app, const struct options *o)
{
	(void)app;
	return check_run(o);
}

static bool wants_completion(const struct options *o)
{
	return o->completion[0];
}

static bool wants_list_strategies(const struct options *o)
{
	return o->list_strategies;
}

static bool wants_diff(const struct options *o)
{
	return o->diff;
}

static bool wants_check(const struct options *o)
{
	return o->check;
}

static bool wants_serve(const struct options *o)
{
	return o->serve;
}

/* Without a terminal nio-top runs headless, as with --batch. */
static bool wants_explorer(const struct options *o)
{
	return !o->batch && !o->serve && isatty(STDIN_FILENO) &&
	       isatty(STDOUT_FILENO);
}

static bool wants_load(const struct options *o)
{
	return o->load;
}

/* Whatever else: the study, headless. */
static bool wants_batch(const struct options *o)
{
	(void)o;
	return true;
}

/*
 * An entry point: whether the options ask for it, what it needs before it
 * runs, and the run, which returns the exit status.
 */
struct app_entry {
	bool (*wants)(const struct options *o);
	int (*run)(struct app *app, const struct options *o);
	/* -o, --csv, --svg and --json-stream checked before anything runs. */
	bool outputs;
	/* Signals and the timer through the main loop; Ctrl-Z as well. */
	bool loop;
	bool job_control;
};

/*
 * The entry points, the first that the options want taken.  A saved export
 * printed again only reads and writes files: signals keep their default, so
 * a large one can be stopped while it loads (an output is linked in only
 * when whole: nothing is left behind).
 */
static const struct app_entry app_entries[] = {
	{.wants = wants_completion, .run = app_completion},
	{.wants = wants_list_strategies, .run = app_list_strategies},
	{.wants = wants_diff, .run = app_diff},
	{.wants = wants_check, .run = app_check},
	{.wants = wants_serve, .run = serve_run, .outputs = true, .loop = true},
	{.wants = wants_explorer,
	 .run = app_explore,
	 .outputs = true,
	 .loop = true,
	 .job_control = true},
	{.wants = wants_load, .run = app_load, .outputs = true},
	{.wants = wants_batch, .run = app_batch, .outputs = true, .loop = true},
};

int app_run(const struct options *options)
{
	const struct app_entry *entry = app_entries;
	struct app app = {.signal_fd = -1, .timer_fd = -1};
	int status, r;

	while (!entry->wants(options))
		entry++;
	if (entry->outputs) {
		status = app_check_outputs(options);
		if (status)
			return status == 1 ? app_failed(options) : status;
	}
	if (entry->loop) {
		r = loop_setup(&app, entry->job_control);
		if (r < 0) {
			app_say("cannot set up signals and timers: %s",
				strerror(-r));
			return app_failed(options);
		}
	}
	app.wake = (struct remote_wake){.fd = {app.signal_fd, -1}};
	status = entry->run(&app, options);
	loop_teardown(&app);
	return status;
}
