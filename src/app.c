/*
 * The main loop.  Signals are blocked in every thread before any thread
 * starts and arrive here through a signalfd; a timerfd wakes the loop on each
 * sampling tick and run boundary, and the run's eventfd when a worker ends.
 * Teardown happens in ordinary code, in the reverse order of setup.
 *
 * The batch front end runs the plan one run at a time, reports progress on
 * stderr and one table row per run on stdout, and exports the finished runs.
 * The interactive one (a terminal, no --batch) hands the explorer's state to
 * the UI at every refresh and the UI's commands to the explorer.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "agent.h"
#include "app.h"
#include "explorer.h"
#include "analysis.h"
#include "export.h"
#include "hostinfo.h"
#include "outfile.h"
#include "report.h"
#include "run.h"
#include "session.h"
#include "ui.h"

struct app {
	int signal_fd;
	int timer_fd;
	int signal;   /* the terminating signal received, or 0 */
	bool resized; /* SIGWINCH came */
	/* The last checkpoint of the -o export: when it ended, what it cost. */
	uint64_t checkpoint_end_ns;
	uint64_t checkpoint_cost_ns;
};

static const int app_signals[] = {SIGINT,  SIGTERM, SIGHUP,
				  SIGQUIT, SIGPIPE, SIGWINCH};

static int app_setup(struct app *app)
{
	sigset_t mask;

	sigemptyset(&mask);
	for (size_t i = 0; i < sizeof(app_signals) / sizeof(app_signals[0]);
	     i++)
		sigaddset(&mask, app_signals[i]);
	if (pthread_sigmask(SIG_BLOCK, &mask, NULL) != 0)
		return -EINVAL;
	app->signal_fd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (app->signal_fd < 0)
		return -errno;
	app->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (app->timer_fd < 0) {
		close(app->signal_fd);
		return -errno;
	}
	return 0;
}

static void app_teardown(struct app *app)
{
	close(app->timer_fd);
	close(app->signal_fd);
}

/* Returns the terminating signal read from the signalfd, or 0. */
static int app_read_signal(struct app *app)
{
	struct signalfd_siginfo info;

	while (read(app->signal_fd, &info, sizeof(info)) == sizeof(info)) {
		/* SIGPIPE cannot happen (MSG_NOSIGNAL); ignore a stray one. */
		if (info.ssi_signo == SIGWINCH)
			app->resized = true;
		else if (info.ssi_signo != SIGPIPE)
			return (int)info.ssi_signo;
	}
	return 0;
}

static int app_arm_timer(struct app *app, uint64_t deadline_ns)
{
	struct itimerspec when = {
		.it_value = {.tv_sec = (time_t)(deadline_ns / 1000000000ull),
			     .tv_nsec = (long)(deadline_ns % 1000000000ull)},
	};

	if (deadline_ns == 0)
		when.it_value.tv_nsec = 1;
	return timerfd_settime(app->timer_fd, TFD_TIMER_ABSTIME, &when, NULL);
}

/* True once for the first terminating signal, with why it stops. */
static bool app_signalled(struct app *app, char *why, size_t size)
{
	int sig = app_read_signal(app);

	if (!sig || app->signal)
		return false;
	app->signal = sig;
	snprintf(why, size, "interrupted by %s", sigabbrev_np(sig));
	return true;
}

/* Drives one run to its end; a terminating signal aborts it. */
static void app_drive(struct app *app, struct run *run)
{
	for (;;) {
		struct pollfd pfd[] = {
			{.fd = app->signal_fd, .events = POLLIN},
			{.fd = app->timer_fd, .events = POLLIN},
			{.fd = run_event_fd(run), .events = POLLIN},
		};
		uint64_t expirations;

		app_arm_timer(app, run_deadline_ns(run));
		if (poll(pfd, 3, -1) < 0 && errno != EINTR)
			run_abort(run, "poll failed");
		if (pfd[0].revents & POLLIN) {
			char why[64];

			if (app_signalled(app, why, sizeof(why)))
				run_abort(run, why);
		}
		if (pfd[1].revents & POLLIN)
			(void)!read(app->timer_fd, &expirations,
				    sizeof(expirations));
		if (run_tick(run, clock_now_ns()))
			return;
	}
}

static void batch_header(void)
{
	printf("%-10s %6s %4s %9s %12s %14s %8s %10s %9s %9s\n", "strategy",
	       "size", "thr", "Gbit/s", "msgs/s", "bytes", "corrupt",
	       "zc-copied", "p50-us", "p99-us");
	fflush(stdout);
}

static void batch_row(const struct run_result *r)
{
	const struct run_totals *t = &r->totals;
	char size[24], copied[16] = "-", corrupt[24] = "-";
	char p50[24] = "-", p99[24] = "-";

	cli_format_size(r->config.msg_size, size, sizeof(size));
	if (r->config.strategy->zerocopy && t->zc_completions)
		snprintf(copied, sizeof(copied), "%.0f%%",
			 100.0 * (double)t->zc_copied /
				 (double)t->zc_completions);
	if (r->config.verify)
		snprintf(corrupt, sizeof(corrupt), "%llu",
			 (unsigned long long)t->corrupt);
	if (r->config.mode == RUN_RR && r->latency.count) {
		snprintf(p50, sizeof(p50), "%.1f", r->latency.p50_us);
		snprintf(p99, sizeof(p99), "%.1f", r->latency.p99_us);
	}
	printf("%-10s %6s %4u %9.3f %12.0f %14llu %8s %10s %9s %9s\n",
	       r->config.strategy->name, size, r->config.threads, r->gbps,
	       r->msgs_per_s, (unsigned long long)t->bytes_received, corrupt,
	       copied, p50, p99);
	if (r->error)
		printf("    error: %s\n", r->error);
	fflush(stdout);
}

/* The analysis after the table: crossovers, and why zero-copy fared so. */
static void batch_analysis(const struct session *s)
{
	struct analysis a;
	char line[256];

	if (analysis_build(s->results, s->result_count, &a) < 0)
		return;
	if (a.crossover_count || a.zerocopy_why[0])
		printf("\nanalysis (a win must clear the run-to-run "
		       "spread):\n");
	for (size_t i = 0; i < a.crossover_count; i++) {
		analysis_crossover_text(&a.crossovers[i], line, sizeof(line));
		printf("  %s\n", line);
	}
	if (a.zerocopy_why[0])
		printf("  zero-copy: %s\n", a.zerocopy_why);
	analysis_fini(&a);
	fflush(stdout);
}

/* The time left, from the runs so far: "1:05". */
static void batch_eta(uint64_t started_ns, size_t done, size_t total, char *out,
		      size_t size)
{
	double per_run, left_s;

	if (!done) {
		snprintf(out, size, "?");
		return;
	}
	per_run = (double)(clock_now_ns() - started_ns) / 1e9 / (double)done;
	left_s = per_run * (double)(total - done);
	snprintf(out, size, "%d:%02d", (int)left_s / 60, (int)left_s % 60);
}

static void batch_progress(const struct run_config *cfg, size_t i, size_t n,
			   uint64_t started_ns)
{
	char size[24], eta[24], bar[21];
	size_t filled = n ? 20 * i / n : 0;

	for (size_t k = 0; k < 20; k++)
		bar[k] = k < filled ? '#' : '.';
	bar[20] = '\0';
	cli_format_size(cfg->msg_size, size, sizeof(size));
	batch_eta(started_ns, i, n, eta, sizeof(eta));
	fprintf(stderr,
		"[%s] %zu/%zu ETA %s  %s %s x%u%s, %.3g s + %.3g s "
		"warm-up\n",
		bar, i + 1, n, eta, cfg->strategy->name, size, cfg->threads,
		cfg->mode == RUN_RR ? " rr" : "",
		(double)cfg->duration_ms / 1000, (double)cfg->warmup_ms / 1000);
}

/*
 * With -o the export is rewritten, atomically, after every finished run, so
 * that a crash or kill -9 keeps what finished.  A long session's export is
 * big: a rewrite waits until ten times its last cost has passed, so that
 * writing never takes more than a tenth of the time.  Quiet: the write at
 * exit reports, and says why if writing fails.
 */
static void app_checkpoint(struct app *app, const struct session *s)
{
	uint64_t start = clock_now_ns();
	char *cause = NULL;

	if (!s->options.output ||
	    start - app->checkpoint_end_ns < 10 * app->checkpoint_cost_ns)
		return;
	/* A device or a FIFO gets the export once, at the end. */
	if (!outfile_replaceable(s->options.output))
		return;
	export_write(s->options.output, s, &cause);
	free(cause);
	app->checkpoint_end_ns = clock_now_ns();
	app->checkpoint_cost_ns = app->checkpoint_end_ns - start;
}

static int app_batch(struct app *app, struct session *s)
{
	uint64_t started_ns = clock_now_ns();
	bool failed = false;

	batch_header();
	for (size_t i = 0; i < s->plan_count && !app->signal; i++) {
		const struct run_config *cfg = &s->plan[i];
		struct run_result result;
		struct run *run;
		char size[24], *cause;
		int r;

		cli_format_size(cfg->msg_size, size, sizeof(size));
		batch_progress(cfg, i, s->plan_count, started_ns);
		r = run_start(cfg, &s->topo, &run, &cause);
		if (r < 0) {
			fprintf(stderr, "nio-top: %s %s x%u: %s\n",
				cfg->strategy->name, size, cfg->threads,
				cause ? cause : strerror(-r));
			free(cause);
			failed = true;
			continue;
		}
		app_drive(app, run);
		run_finish(run, &result);
		/* A run cut short by a signal is not a result. */
		if (app->signal) {
			run_result_fini(&result);
			break;
		}
		batch_row(&result);
		failed |= result.error != NULL;
		if (session_add_result(s, &result) < 0)
			failed = true;
		app_checkpoint(app, s);
	}
	if (!app->signal)
		batch_analysis(s);
	return failed ? 1 : 0;
}

/* A loaded export in batch: its table and analysis, as if just run. */
static int app_batch_loaded(const struct session *s)
{
	bool failed = false;

	batch_header();
	for (size_t i = 0; i < s->result_count; i++) {
		batch_row(&s->results[i]);
		failed |= s->results[i].error != NULL;
	}
	batch_analysis(s);
	return failed ? 1 : 0;
}

/* -o, --csv and --svg: each written atomically; 0 or 1 (a failure said). */
static int app_write_reports(const struct options *o, const struct session *s)
{
	static const struct {
		int (*write)(const char *path, const struct session *s,
			     char **cause);
		const char *what;
	} writers[] = {
		{export_write, "JSON"},
		{report_write_csv, "CSV"},
		{report_write_svg, "SVG charts"},
	};
	const char *paths[] = {o->output, o->csv, o->svg};
	int status = 0;

	for (size_t i = 0; i < 3; i++) {
		char *cause = NULL;
		int r;

		if (!paths[i])
			continue;
		r = writers[i].write(paths[i], s, &cause);
		if (r < 0) {
			fprintf(stderr, "nio-top: %s\n",
				cause ? cause : strerror(-r));
			status = 1;
		} else {
			fprintf(stderr, "nio-top: wrote %zu run%s to %s (%s)\n",
				s->result_count,
				s->result_count == 1 ? "" : "s", paths[i],
				writers[i].what);
		}
		free(cause);
	}
	return status;
}

/* "PREFIX-YYYYmmdd-HHMMSS.json" in the current folder. */
static void app_timestamped(const char *prefix, char *out, size_t size)
{
	time_t now = time(NULL);
	char stamp[32];
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	snprintf(out, size, "%s-%s.json", prefix, stamp);
}

static void app_export_name(const struct options *o, char *out, size_t size)
{
	if (o->output)
		snprintf(out, size, "%s", o->output);
	else
		app_timestamped("nio-top", out, size);
}

static void app_command(struct explorer *e, const struct options *o,
			const struct ui_command *cmd)
{
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
		app_export_name(o, path, sizeof(path));
		explorer_export(e, path);
		break;
	case UI_SAVE_PRESET:
		app_timestamped("nio-top-preset", path, sizeof(path));
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

/* The interactive front end: until q, or a terminating signal. */
static int app_explore(struct app *app, struct session *s, struct ui *ui)
{
	const struct options *o = &s->options;
	uint64_t refresh_ns = o->refresh_ms * NS_PER_MS;
	uint64_t next_draw = clock_now_ns();
	size_t saved = s->result_count;
	struct explorer ex;
	int r;

	r = explorer_open(&ex, s, o->refresh_ms);
	if (r < 0) {
		explorer_close(&ex);
		return r;
	}
	if (s->notice)
		snprintf(ex.message, sizeof(ex.message), "%s", s->notice);
	while (!explorer_done(&ex)) {
		struct pollfd pfd[] = {
			{.fd = app->signal_fd, .events = POLLIN},
			{.fd = app->timer_fd, .events = POLLIN},
			{.fd = ui_input_fd(ui), .events = POLLIN},
			{.fd = explorer_event_fd(&ex), .events = POLLIN},
		};
		uint64_t deadline = explorer_deadline_ns(&ex), now;
		struct ui_command cmd[UI_COMMANDS_MAX];
		bool redraw = false;
		size_t n = 0;
		char why[64];

		if (!deadline || deadline > next_draw)
			deadline = next_draw;
		app_arm_timer(app, deadline);
		if (poll(pfd, 4, -1) < 0 && errno != EINTR)
			explorer_abort(&ex, "poll failed");
		if ((pfd[0].revents & POLLIN) &&
		    app_signalled(app, why, sizeof(why)))
			explorer_abort(&ex, why);
		if (pfd[1].revents & POLLIN) {
			uint64_t expirations;

			(void)!read(app->timer_fd, &expirations,
				    sizeof(expirations));
		}
		if (app->resized) {
			app->resized = false;
			ui_resize(ui);
			redraw = true;
		}
		if (pfd[2].revents & POLLIN) {
			n = ui_read(ui, &ex, cmd);
			redraw = true;
		}
		for (size_t i = 0; i < n; i++)
			app_command(&ex, o, &cmd[i]);
		now = clock_now_ns();
		explorer_tick(&ex, now);
		/* Samples keep their pace; input is drawn at once. */
		if (now >= next_draw) {
			explorer_sample(&ex, now);
			next_draw = next_draw + refresh_ns > now
					    ? next_draw + refresh_ns
					    : now + refresh_ns;
			redraw = true;
		}
		if (redraw)
			ui_draw(ui, &ex);
		if (s->result_count != saved && !ex.viewing) {
			saved = s->result_count;
			app_checkpoint(app, s);
		}
	}
	explorer_close(&ex);
	return 0;
}

static int app_list_strategies(void);

static void check_line(const char *what, const struct capability *cap,
		       const char *detail)
{
	if (cap->available)
		printf("%-12s yes  %s\n", what, detail ? detail : "");
	else
		printf("%-12s no   %s\n", what, cap->reason);
}

/* --check: every capability, tried for real, in words. */
static int app_check(const struct options *options)
{
	struct host_info host;
	char timing[96];

	host_info_read(&host,
		       options->counters_enabled ? &options->counters : NULL);
	printf("nio-top %s on Linux %s, %s, %ld CPUs\n\n", NIO_TOP_VERSION,
	       host.kernel, host.cpu_model, host.cpus);
	check_line("namespaces", &host.netns, "private network namespaces");
	snprintf(timing, sizeof(timing),
		 "two namespaces + veth pair: setup %.1f ms, teardown %.1f ms",
		 host.veth_setup_ms, host.veth_teardown_ms);
	check_line("veth", &host.veth, timing);
	check_line("tbf", &host.tbf, "--rate");
	check_line("netem", &host.netem, "--delay, --loss");
	check_line("pmu", &host.pmu, "hardware events count");
	printf("\n");
	for (unsigned int i = 0; host.events && i < host.events->count; i++)
		printf("event %-22s %-13s %s\n", host.events->event[i].name,
		       counter_status_name(host.event[i].status),
		       host.event[i].reason);
	if (host.events)
		printf("\n");
	return app_list_strategies();
}

static int app_list_strategies(void)
{
	for (size_t i = 0; i < strategy_count(); i++) {
		const struct strategy_ops *ops = strategy_at(i);
		char *why;

		if (strategy_probe(ops, &why) == 0)
			printf("%-10s available    %s\n", ops->name,
			       ops->summary);
		else
			printf("%-10s unavailable  %s\n", ops->name,
			       why ? why : "probe failed");
		free(why);
	}
	return 0;
}

/* --serve: the agent until a terminating signal. */
static int app_serve(struct app *app, const struct options *options)
{
	struct agent *agent;
	char *cause = NULL;
	int r = agent_open(options, stderr, &agent, &cause);

	if (r < 0) {
		fprintf(stderr, "nio-top: %s\n", cause ? cause : strerror(-r));
		free(cause);
		return 1;
	}
	while (!app->signal) {
		struct pollfd pfd[AGENT_POLL_MAX + 2] = {
			{.fd = app->signal_fd, .events = POLLIN},
			{.fd = app->timer_fd, .events = POLLIN},
		};
		unsigned int n = agent_poll(agent, pfd + 2);
		uint64_t deadline = agent_deadline_ns(agent), expirations;
		char why[64];

		if (deadline)
			app_arm_timer(app, deadline);
		else
			timerfd_settime(app->timer_fd, 0,
					&(struct itimerspec){0}, NULL);
		if (poll(pfd, n + 2, -1) < 0 && errno != EINTR)
			break;
		if ((pfd[0].revents & POLLIN) &&
		    app_signalled(app, why, sizeof(why))) {
			agent_close(agent, why);
			return 128 + app->signal;
		}
		if (pfd[1].revents & POLLIN)
			(void)!read(app->timer_fd, &expirations,
				    sizeof(expirations));
		agent_step(agent, pfd + 2, n, clock_now_ns());
	}
	agent_close(agent, "the agent stopped");
	return 1;
}

int app_run(const struct options *options)
{
	struct options loaded; /* --load: the export's own options */
	struct session session;
	struct app app = {0};
	struct ui *ui = NULL;
	char *cause = NULL;
	int status, r;

	if (options->list_strategies)
		return app_list_strategies();
	if (options->check)
		return app_check(options);

	r = app_setup(&app);
	if (r < 0) {
		fprintf(stderr,
			"nio-top: cannot set up signals and timers: %s\n",
			strerror(-r));
		return 1;
	}
	if (options->serve) {
		status = app_serve(&app, options);
		app_teardown(&app);
		return status;
	}
	/* Without a terminal nio-top runs headless, as with --batch. */
	if (!options->batch && isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
		r = ui_open(&ui, options->theme, &cause);
		if (r < 0) {
			fprintf(stderr, "nio-top: %s\n",
				cause ? cause : strerror(-r));
			free(cause);
			app_teardown(&app);
			return 1;
		}
	}
	/* A saved export is only read: no network, no privilege needed. */
	if (options->load) {
		loaded = *options;
		loaded.viewing_only = true;
		r = export_load(options->load, &session, &loaded, &cause);
	} else {
		r = session_open(&session, options, &cause);
	}
	if (r < 0) {
		ui_close(ui);
		fprintf(stderr, "nio-top: %s\n", cause ? cause : strerror(-r));
		free(cause);
		app_teardown(&app);
		return 1;
	}
	if (ui) {
		r = app_explore(&app, &session, ui);
		ui_close(ui);
		status = r < 0 ? 1 : 0;
		if (r < 0)
			fprintf(stderr, "nio-top: %s\n", strerror(-r));
	} else if (options->load) {
		status = app_batch_loaded(&session);
	} else {
		if (session.notice)
			fprintf(stderr, "nio-top: %s\n", session.notice);
		status = app_batch(&app, &session);
	}

	if (app_write_reports(options, &session))
		status = 1;
	session_close(&session);
	app_teardown(&app);
	if (app.signal)
		status = 128 + app.signal;
	return status;
}
