/*
 * The interactive front end: the explorer's state goes to the UI at every
 * refresh and the UI's commands go to the explorer, until q or a terminating
 * signal.  Exports and saved presets are written here, at the UI's word.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app_private.h"
#include "clock.h"
#include "explorer.h"
#include "export.h"

struct explore {
	struct app *app;
	struct session *session;
	struct ui *ui;
	struct explorer explorer;
	uint64_t refresh_ns;
	uint64_t next_draw_ns;
	size_t saved; /* results at the last checkpoint */
};

/* "PREFIX-YYYYmmdd-HHMMSS.json" in the current folder. */
static void timestamped(const char *prefix, char *out, size_t size)
{
	time_t now = time(NULL);
	char stamp[32];
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(out, size, "%s-%s.json", prefix, stamp);
}

/* e: the finished runs to -o, or to a new file named by the time. */
static void explore_export(struct explore *x)
{
	const struct session *s = x->session;
	char path[4096], *cause = NULL;
	int r;

	if (s->options.output)
		snprintf(path, sizeof(path), "%s", s->options.output);
	else
		timestamped("nio-top", path, sizeof(path));
	r = export_write(path, s, &cause);
	if (r < 0)
		explorer_say(&x->explorer, "export failed: %s",
			     cause ? cause : strerror(-r));
	else
		explorer_say(&x->explorer, "wrote %zu run%s to %s",
			     s->result_count, s->result_count == 1 ? "" : "s",
			     path);
	free(cause);
}

static void explore_command(struct explore *x, const struct ui_command *cmd)
{
	struct explorer *e = &x->explorer;
	char path[4096];

	switch (cmd->kind) {
	case UI_STEP:
		explorer_step(e, cmd->control, cmd->arg);
		break;
	case UI_SET_STRATEGY:
		explorer_set_strategy(e, (size_t)cmd->arg);
		break;
	case UI_RESTART:
		explorer_restart(e);
		break;
	case UI_DURATION_TOGGLE:
		explorer_toggle_duration(e);
		break;
	case UI_SWEEP:
		explorer_sweep(e);
		break;
	case UI_EXPORT:
		explore_export(x);
		break;
	case UI_SAVE_PRESET:
		timestamped("nio-top-preset", path, sizeof(path));
		explorer_save_preset(e, path);
		break;
	case UI_LOAD_PRESET:
		explorer_load_preset(e, (size_t)cmd->arg);
		break;
	case UI_QUIT:
		explorer_quit(e);
		break;
	}
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

	return !deadline || deadline > x->next_draw_ns ? x->next_draw_ns
						       : deadline;
}

static void explore_step(void *data, const struct pollfd *pfd, unsigned int n,
			 uint64_t now_ns)
{
	struct explore *x = data;
	struct ui_command cmd[UI_COMMANDS_MAX];
	size_t commands = 0;
	bool redraw = false;

	(void)n;
	if (pfd[0].revents & POLLIN) {
		commands = ui_read(x->ui, &x->explorer, cmd);
		redraw = true;
	}
	for (size_t i = 0; i < commands; i++)
		explore_command(x, &cmd[i]);
	explorer_tick(&x->explorer, now_ns);
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
}

static void explore_interrupt(void *data, const char *why)
{
	struct explore *x = data;

	explorer_abort(&x->explorer, why);
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
		.done = explore_done,
	};
	int r = explorer_open(&x.explorer, s, s->options.refresh_ms);

	if (r < 0) {
		explorer_close(&x.explorer);
		return r;
	}
	if (s->notice)
		explorer_say(&x.explorer, "%s", s->notice);
	loop_run(app, &fe);
	explorer_close(&x.explorer);
	return 0;
}
