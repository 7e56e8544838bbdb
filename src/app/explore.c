/*
 * The interactive front end: the explorer's state goes to the UI at every
 * refresh and the UI's commands go to the explorer, until q or a terminating
 * signal.  Exports and saved presets are written here, at the UI's word.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app_private.h"
#include "clock.h"
#include "explorer.h"
#include "export.h"
#include "outfile.h"
#include "prefs.h"
#include "preset.h"

struct explore {
	struct app *app;
	struct session *session;
	struct ui *ui;
	struct explorer explorer;
	uint64_t refresh_ns;
	uint64_t next_draw_ns;
	size_t saved;	  /* results at the last checkpoint */
	bool keep_tried;  /* the unsaved runs were written on a signal */
	bool fell_behind; /* the stream's reader fell behind: said */
};

/*
 * The user's data folder, $XDG_DATA_HOME/nio-top or ~/.local/share/nio-top,
 * made private if it is new: 0, or -errno.
 */
static int data_dir(char *out, size_t size)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	char *slash;

	if (xdg && xdg[0] == '/')
		snprintf(out, size, "%s/nio-top", xdg);
	else if (home && home[0] == '/')
		snprintf(out, size, "%s/.local/share/nio-top", home);
	else
		return -ENOENT;
	/* Each missing folder on the way, as mkdir -p. */
	for (slash = strchr(out + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(out, 0700);
		*slash = '/';
	}
	return mkdir(out, 0700) == 0 || errno == EEXIST ? 0 : -errno;
}

/*
 * A new file "PREFIX-YYYYmmdd-HHMMSS.json" in dir, made exclusively (a
 * file of that name already there gets a new one beside it) so that a link
 * planted under a name nio-top picks is never followed.  Where dir is a
 * folder every user may write (/tmp), the file goes to the user's data
 * folder instead, and *moved says so.  0 with the path in out, or -errno
 * with *cause.
 */
static int new_file(const char *dir, const char *prefix, char *out, size_t size,
		    bool *moved, char **cause)
{
	char stem[64], stamp[32], data[4096];
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(stem, sizeof(stem), "%s-%s", prefix, stamp);
	*moved = outfile_dir_shared(dir) == 1 &&
		 data_dir(data, sizeof(data)) == 0;
	return outfile_create_new(*moved ? data : dir, stem, "json", out, size,
				  cause);
}

/* The finished runs to path: 0, or -errno (said on the status line). */
/* What an export of s holds, for people: "62 runs and the crossover search". */
static void exported_text(const struct session *s, char *out, size_t size)
{
	snprintf(out, size, "%zu run%s%s", s->result_count,
		 s->result_count == 1 ? "" : "s",
		 s->crossover ? " and the crossover search" : "");
}

static int explore_write(struct explore *x, const char *path)
{
	const struct session *s = x->session;
	char *cause = NULL, what[64];
	int r = export_write(path, s, &cause);

	if (r < 0) {
		explorer_say(&x->explorer, "export failed: %s",
			     cause ? cause : strerror(-r));
	} else {
		x->explorer.saved_runs = s->result_count;
		exported_text(s, what, sizeof(what));
		explorer_say(&x->explorer, "wrote %s to %s", what, path);
	}
	free(cause);
	return r;
}

/*
 * The finished runs to a new file named by the time: 0 with its path in
 * out, or -errno (said on the status line; the new file is gone).
 */
static int explore_write_new(struct explore *x, char *out, size_t size)
{
	char *cause = NULL, what[64];
	bool moved;
	int r = new_file(".", "nio-top", out, size, &moved, &cause);

	if (r < 0) {
		explorer_say(&x->explorer, "export failed: %s",
			     cause ? cause : strerror(-r));
		free(cause);
		return r;
	}
	r = explore_write(x, out);
	if (r < 0)
		unlink(out);
	else if (moved) {
		exported_text(x->session, what, sizeof(what));
		explorer_say(&x->explorer,
			     "the current folder is writable by every user: "
			     "wrote %s to %s",
			     what, out);
	}
	return r;
}

/* e: the finished runs to -o, or to a new file named by the time. */
static void explore_export(struct explore *x)
{
	char path[4096];

	/* A long export takes a moment: the screen says so meanwhile. */
	explorer_say(&x->explorer, "writing %zu run%s...",
		     x->session->result_count,
		     x->session->result_count == 1 ? "" : "s");
	ui_draw(x->ui, &x->explorer);

	if (x->session->options.output)
		explore_write(x, x->session->options.output);
	else
		explore_write_new(x, path, sizeof(path));
}

/*
 * S: the controls as preset name (name.json, or name-2.json if that is
 * taken) in the user's presets folder, where the preset list finds it next
 * time; the current folder with --no-config or where there is no home,
 * said by its whole path.
 */
static void explore_save_preset(struct explore *x, const char *name)
{
	char dir[4096] = ".", path[4200], *cause = NULL;
	int r;

	if (!x->session->options.no_config &&
	    preset_user_dir(dir, sizeof(dir) - 16) == 0) {
		*strrchr(dir, '/') = '\0';
		mkdir(dir, 0700);
		strcat(dir, "/nio-top");
		mkdir(dir, 0700);
		strcat(dir, "/presets");
		if (mkdir(dir, 0700) < 0 && errno != EEXIST)
			snprintf(dir, sizeof(dir), ".");
	}
	if (outfile_dir_shared(dir) == 1 && data_dir(dir, sizeof(dir)) < 0)
		snprintf(dir, sizeof(dir), ".");
	/* "mytest.json" says nothing of where: the folder by its path. */
	if (strcmp(dir, ".") == 0 && !getcwd(dir, sizeof(dir)))
		snprintf(dir, sizeof(dir), ".");
	r = outfile_create_new(dir, name, "json", path, sizeof(path), &cause);
	if (r < 0) {
		explorer_say(&x->explorer, "save: %s",
			     cause ? cause : strerror(-r));
		free(cause);
		return;
	}
	if (explorer_save_preset(&x->explorer, path) < 0)
		unlink(path);
}

static void explore_command(struct explore *x, const struct ui_command *cmd)
{
	struct explorer *e = &x->explorer;

	switch (cmd->kind) {
	case UI_STEP:
		explorer_step(e, cmd->control, cmd->arg);
		break;
	case UI_SET_STRATEGY:
		explorer_set_strategy(e, (size_t)cmd->arg);
		break;
	case UI_TOGGLE:
		explorer_toggle(e, cmd->control);
		break;
	case UI_SWEEP:
		explorer_sweep(e);
		break;
	case UI_EXPORT:
		explore_export(x);
		break;
	case UI_SAVE_PRESET:
		explore_save_preset(x, cmd->text);
		break;
	case UI_LOAD_PRESET:
		explorer_load_preset(e, (size_t)cmd->arg);
		break;
	case UI_CROSSOVER:
		explorer_crossover(e, (size_t)cmd->arg, cmd->text);
		break;
	case UI_QUIT:
		explorer_quit(e);
		break;
	}
}

/*
 * A terminating signal with finished runs no export holds: they are written
 * to a new file, and the terminal says where once it is back.
 */
static void explore_keep(struct explore *x)
{
	size_t unsaved = explorer_unsaved(&x->explorer);
	char path[4096];

	x->keep_tried = true;
	if (explore_write_new(x, path, sizeof(path)) == 0 &&
	    asprintf(
		    &x->app->farewell,
		    "interrupted: the %zu finished run%s not saved yet went to "
		    "%s",
		    unsaved, unsaved == 1 ? "" : "s", path) < 0)
		x->app->farewell = NULL;
	else if (!x->app->farewell &&
		 asprintf(&x->app->farewell, "interrupted: %s",
			  x->explorer.message) < 0)
		x->app->farewell = NULL;
}

static unsigned int explore_fds(void *data, struct pollfd *pfd)
{
	struct explore *x = data;
	unsigned int n = 0;

	pfd[n++] = (struct pollfd){.fd = ui_input_fd(x->ui), .events = POLLIN};
	if (explorer_event_fd(&x->explorer) >= 0)
		pfd[n++] = (struct pollfd){
			.fd = explorer_event_fd(&x->explorer),
			.events = POLLIN};
	return n;
}

static uint64_t explore_deadline(void *data)
{
	struct explore *x = data;
	uint64_t deadline = explorer_deadline_ns(&x->explorer);

	/* Keys typed while a run's set-up waited for the agent: now. */
	if (ui_typeahead_kept(x->ui))
		return clock_now_ns();
	return !deadline || deadline > x->next_draw_ns ? x->next_draw_ns
						       : deadline;
}

/* --json-stream: the run's new intervals and the new results. */
static void explore_stream(struct explore *x)
{
	struct stream *st = x->app->stream;

	if (!st || stream_gone(st))
		return;
	stream_results(st, x->session);
	if (x->explorer.run)
		stream_intervals(st, x->session, x->explorer.run);
	if (stream_gone(st)) {
		explorer_say(&x->explorer,
			     "the --json-stream reader went away: "
			     "nothing more is sent to it");
	} else if (stream_dropped(st) && !x->fell_behind) {
		x->fell_behind = true;
		explorer_say(&x->explorer,
			     "the --json-stream reader fell behind: lines are "
			     "dropped until it takes what waits");
	}
}

static void explore_step(void *data, const struct pollfd *pfd, unsigned int n,
			 uint64_t now_ns)
{
	struct explore *x = data;
	struct ui_command cmd[UI_COMMANDS_MAX];
	size_t commands = 0;
	bool redraw = false;

	(void)n;
	if ((pfd[0].revents & POLLIN) || ui_typeahead_kept(x->ui)) {
		commands = ui_read(x->ui, &x->explorer, cmd);
		redraw = true;
	}
	for (size_t i = 0; i < commands; i++)
		explore_command(x, &cmd[i]);
	explorer_tick(&x->explorer, now_ns);
	explore_stream(x);
	/* Samples keep their pace; input is drawn at once. */
	if (now_ns >= x->next_draw_ns) {
		explorer_sample(&x->explorer, now_ns);
		x->next_draw_ns = x->next_draw_ns + x->refresh_ns > now_ns
					  ? x->next_draw_ns + x->refresh_ns
					  : now_ns + x->refresh_ns;
		redraw = true;
	}
	if (redraw)
		ui_draw(x->ui, &x->explorer);
	if (x->session->result_count != x->saved && !x->explorer.viewing) {
		char *cause = NULL;

		x->saved = x->session->result_count;
		if (app_checkpoint(x->app, x->session, &cause) < 0) {
			explorer_say(&x->explorer,
				     "the checkpoint of -o failed: %s",
				     cause ? cause : "out of memory");
			ui_draw(x->ui, &x->explorer);
		}
		free(cause);
	}
	if (x->app->signal && !x->keep_tried && explorer_unsaved(&x->explorer))
		explore_keep(x);
}

static void explore_interrupt(void *data, const char *why)
{
	struct explore *x = data;

	explorer_abort(&x->explorer, why);
}

static void explore_suspend(void *data)
{
	struct explore *x = data;

	explorer_pause(&x->explorer);
	ui_suspend(x->ui);
}

static void explore_resume(void *data)
{
	struct explore *x = data;

	ui_resume(x->ui);
	ui_draw(x->ui, &x->explorer);
}

/* What this explorer leaves for the next start (unless --no-config). */
static void explore_remember(struct explore *x)
{
	struct prefs p = {0};
	char *cause = NULL;

	if (x->session->options.no_config || x->explorer.viewing)
		return;
	ui_remember(x->ui, &p);
	p.refresh_ms = x->session->options.refresh_ms;
	p.controls = x->explorer.config;
	if (prefs_save(&p, &cause) < 0 && !x->app->farewell &&
	    asprintf(&x->app->farewell, "settings not saved: %s",
		     cause ? cause : "cannot write them") < 0)
		x->app->farewell = NULL;
	free(cause);
}

static void explore_resize(void *data)
{
	struct explore *x = data;

	ui_resize(x->ui);
	ui_draw(x->ui, &x->explorer);
}

static bool explore_done(const void *data)
{
	const struct explore *x = data;

	return explorer_done(&x->explorer);
}

/* The last part of a path: what a status line has room for. */
static const char *file_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

int explore_run(struct app *app, struct session *s, struct ui *ui)
{
	struct explore x = {
		.app = app,
		.session = s,
		.ui = ui,
		.refresh_ns = s->options.refresh_ms * NS_PER_MS,
		.next_draw_ns = clock_now_ns(),
		.saved = s->result_count,
	};
	const struct frontend fe = {
		.data = &x,
		.fds = explore_fds,
		.deadline = explore_deadline,
		.step = explore_step,
		.interrupt = explore_interrupt,
		.resize = explore_resize,
		.suspend = explore_suspend,
		.resume = explore_resume,
		.done = explore_done,
	};
	int r = explorer_open(&x.explorer, s, s->options.refresh_ms);

	if (r < 0) {
		explorer_close(&x.explorer);
		return r;
	}
	if (s->notice)
		explorer_say(&x.explorer, "%s", s->notice);
	if (app->note)
		explorer_say(&x.explorer, "%s", app->note);
	if (app->compared) {
		x.explorer.diff = &app->diff;
		explorer_say(&x.explorer,
			     "runs 1-%zu: %s, %zu-%zu: %s; 3 compares them",
			     app->diff.side[0].count,
			     file_name(s->options.load),
			     app->diff.side[0].count + 1, s->result_count,
			     file_name(s->options.load_new));
	}
	loop_run(app, &fe);
	explore_remember(&x);
	explorer_close(&x.explorer);
	return 0;
}
