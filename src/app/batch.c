/*
 * The batch front end: runs the plan one run at a time, reports progress on
 * stderr and one table row per run on stdout, then the analysis.  A run cut
 * short by a signal is not a result.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_private.h"
#include "clock.h"
#include "crossover_run.h"
#include "diff_report.h"
#include "escape.h"
#include "report.h"
#include "stream.h"
#include "units.h"

struct batch {
	struct app *app;
	struct session *session;
	size_t next; /* the plan's next run */
	struct run *run;
	uint64_t started_ns;
	bool stopped; /* by a signal, or the stream's reader gone */
	bool quiet;   /* standard output is the stream: no table there */
	bool failed;
	bool profile_said; /* why a profile is partial or missing, said once */
};

static void batch_header(void)
{
	printf("%4s %-10s %6s %4s %-6s %-8s %9s %12s %14s %8s %10s %9s %9s  "
	       "%s\n",
	       "run", "strategy", "size", "thr", "mode", "rx", "Gbit/s",
	       "msgs/s", "bytes", "corrupt", "zc-copied", "p50-us", "p99-us",
	       "note");
	fflush(stdout);
}

/* "p50 31.2 / p99 48.0 us, 4990 round trips, 2 late": one window's. */
static void batch_probe_window(const struct probe_summary *w, char *out,
			       size_t size)
{
	char skipped[40] = "";

	if (!w->rtt.count) {
		snprintf(out, size, "no round trip");
		return;
	}
	if (w->skipped)
		snprintf(skipped, sizeof(skipped), ", %llu skipped",
			 (unsigned long long)w->skipped);
	snprintf(out, size,
		 "p50 %.1f p99 %.1f p99.9 %.1f us, %llu round trips, %llu "
		 "late%s",
		 w->rtt.p50_us, w->rtt.p99_us, w->rtt.p99_9_us,
		 (unsigned long long)w->rtt.count, (unsigned long long)w->late,
		 skipped);
}

/* A run's probe, idle and under the load, under its row. */
static void batch_probe(const struct run_result *r)
{
	char idle[160], loaded[160];

	if (!r->probe.present)
		return;
	batch_probe_window(&r->probe.idle, idle, sizeof(idle));
	batch_probe_window(&r->probe.loaded, loaded, sizeof(loaded));
	printf("    probe %u/s x %u B: alone%s %s\n",
	       r->config.settings.probe.rate_hz, r->config.settings.probe.size,
	       r->probe.idle_reused ? " (an earlier run's)" : "", idle);
	printf("      under the load %s", loaded);
	if (isfinite(r->probe.loaded.per_minute))
		printf(", %.0f round trips a minute",
		       r->probe.loaded.per_minute);
	printf("\n");
}

/* Row number (from 1) of the session's results. */
static void batch_row(const struct session *s, size_t number)
{
	const struct run_result *r = &s->results[number - 1];
	const struct run_totals *t = &r->totals;
	const struct analysis_run *facts = &s->run_facts[number - 1];
	char size[24], copied[16] = "-", corrupt[24] = "-";
	char p50[24] = "-", p99[24] = "-", knobs[96], said[512];
	struct settings_stack stack = settings_stack_of(&r->config.settings);

	settings_stack_tag(&stack, knobs, sizeof(knobs));
	units_format_size(r->config.msg_size, size, sizeof(size));
	if (r->config.strategy->zerocopy &&
	    !sampler_zc_copied(t, copied, sizeof(copied)))
		snprintf(copied, sizeof(copied), "-");
	if (r->config.settings.verify)
		snprintf(corrupt, sizeof(corrupt), "%llu",
			 (unsigned long long)t->corrupt);
	if (r->config.mode == RUN_RR && r->latency.count) {
		snprintf(p50, sizeof(p50), "%.1f", r->latency.p50_us);
		snprintf(p99, sizeof(p99), "%.1f", r->latency.p99_us);
	}
	printf("%4zu %-10s %6s %4u %-6s %-8s %9.3f %12.0f %14llu %8s %10s %9s "
	       "%9s%s%s%s%s\n",
	       number, r->config.strategy->name, size, r->config.threads,
	       run_mode_name(r->config.mode),
	       rx_mode_names[r->config.settings.rx], run_result_gbps(r),
	       run_result_msgs_per_s(r), (unsigned long long)t->bytes_received,
	       corrupt, copied, p50, p99,
	       rx_side_of(r->config.settings.rx)->bound ? "  bound" : "",
	       r->error		  ? ""
	       : r->stopped_s > 0 ? "  stopped"
	       : facts->short_run ? "  short"
				  : "",
	       knobs[0] ? " " : "", knobs);
	if (r->stopped_s > 0)
		printf("    stopped for %.1f s while measuring (SIGSTOP, "
		       "Ctrl-Z): the window ended where the stop began%s\n",
		       r->stopped_s,
		       facts->stopped ? "; left out of the analysis "
					"(--keep-stopped keeps it)"
				      : "");
	batch_probe(r);
	if (r->config.settings.unsafe_reuse)
		printf("    UNSAFE REUSE: pages rewritten before the receiver "
		       "read them (a teaching run, left out of the "
		       "analysis)\n");
	if (rx_side_say(r->config.settings.rx, r->config.strategy, t->rx_side,
			true, said, sizeof(said)))
		printf("    rx %s: %s\n",
		       rx_side_of(r->config.settings.rx)->name, said);
	if (r->error) {
		/* A loaded export's words: escaped. */
		char *safe = text_escape(r->error);

		printf("    error: %s\n", safe ? safe : "(out of memory)");
		free(safe);
	}
	fflush(stdout);
}

/* The analysis after the table: verdicts, and why zero-copy fared so. */
static void batch_analysis(const struct session *s)
{
	const struct analysis *a = &s->analysis;
	char line[ANALYSIS_TEXT_MAX], threshold[32];

	if (!a->crossover_count && !a->zerocopy_why[0] && !a->short_runs &&
	    !a->stopped_runs && !a->busy_why[0] && !a->user_space_why[0] &&
	    !a->counters_why[0] && !a->probe_count && !a->wait_count)
		return;
	printf("\nanalysis (a verdict needs a ratio's whole %.0f%% interval "
	       "beyond %.0f%%, or within it for a tie; nio-top(1) "
	       "ANALYSIS):\n",
	       STATS_INTERVAL_LEVEL * 100, STATS_MIN_EFFECT * 100);
	for (size_t i = 0; i < a->crossover_count; i++) {
		analysis_crossover_text(&a->crossovers[i], line, sizeof(line));
		printf("  %s\n", line);
		if (crossover_suggest(&a->crossovers[i], line, sizeof(line)))
			printf("    %s\n", line);
	}
	for (size_t i = 0; i < a->probe_count; i++) {
		char probe[ANALYSIS_PROBE_TEXT_MAX];

		analysis_probe_text(a, &a->probes[i], probe, sizeof(probe));
		printf("  %s\n", probe);
	}
	if (a->zerocopy_why[0])
		printf("  zero-copy: %s\n", a->zerocopy_why);
	snprintf(threshold, sizeof(threshold), "%g s",
		 (double)s->options.min_measured_ms / 1000);
	if (a->short_runs)
		printf("  %zu short run%s left out (measured under %s or over "
		       "fewer than %d intervals; --min-measured 0 keeps "
		       "them)\n",
		       a->short_runs, a->short_runs == 1 ? "" : "s", threshold,
		       ANALYSIS_MIN_INTERVALS);
	if (a->stopped_runs)
		printf("  %zu stopped run%s left out (a stop ended the "
		       "window; --keep-stopped keeps them)\n",
		       a->stopped_runs, a->stopped_runs == 1 ? "" : "s");
	if (a->busy_why[0])
		printf("  measured on a busy host: %s\n", a->busy_why);
	if (a->user_space_why[0])
		printf("  sampled where the CPU goes: %s\n", a->user_space_why);
	if (a->counters_why[0])
		printf("  counting: %s\n", a->counters_why);
	if (a->wait_count)
		printf("  where the time goes (nio-top(1) WAITS):\n");
	for (size_t i = 0; i < a->wait_count; i++) {
		analysis_wait_text(a, &a->waits[i], line, sizeof(line));
		printf("    %s\n", line);
	}
	for (size_t i = 0; i < a->wait_group_count; i++)
		printf("    %s\n", a->wait_groups[i]);
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

static void batch_progress(const struct session *s,
			   const struct run_config *cfg, size_t i, size_t n,
			   uint64_t started_ns)
{
	uint64_t alone_ms = session_probe_alone_ms(s, cfg);
	char size[24], eta[24], bar[21], sampled[80] = "", knobs[96];
	struct settings_stack stack = settings_stack_of(&cfg->settings);
	size_t filled = n ? 20 * i / n : 0;

	settings_stack_tag(&stack, knobs, sizeof(knobs));
	for (size_t k = 0; k < 20; k++)
		bar[k] = k < filled ? '#' : '.';
	bar[20] = '\0';
	units_format_size(cfg->msg_size, size, sizeof(size));
	batch_eta(started_ns, i, n, eta, sizeof(eta));
	if (run_sampled_ms(cfg))
		snprintf(sampled, sizeof(sampled), " + %.3g s sampled",
			 (double)run_sampled_ms(cfg) / 1000);
	if (alone_ms)
		snprintf(sampled + strlen(sampled),
			 sizeof(sampled) - strlen(sampled),
			 ", after %.3g s of the probe alone",
			 (double)alone_ms / 1000);
	fprintf(stderr,
		"[%s] %zu/%zu ETA %s  %s %s x%u %s%s%s, %.3g s + %.3g s "
		"warm-up%s\n",
		bar, i + 1, n, eta, cfg->strategy->name, size, cfg->threads,
		run_mode_name(cfg->mode), rx_side_of(cfg->settings.rx)->tag,
		knobs, (double)cfg->settings.duration_ms / 1000,
		(double)cfg->settings.warmup_ms / 1000, sampled);
}

/*
 * --crossover: where the search is, and the run it asks for next.  Its
 * runs are numbered as any other, and it has no plan to count down.
 */
static void batch_progress_crossover(const struct crossover *x,
				     const struct run_config *cfg)
{
	char size[24], where[CROSSOVER_TEXT_MAX];

	crossover_status(x, where, sizeof(where));
	units_format_size(cfg->msg_size, size, sizeof(size));
	fprintf(stderr, "[crossover] %s; next %s %s x%u %s%s, %.3g s\n", where,
		cfg->strategy->name, size, cfg->threads,
		run_mode_name(cfg->mode), rx_side_of(cfg->settings.rx)->tag,
		(double)cfg->settings.duration_ms / 1000);
}

/* The next run of the plan, or of the search: false when there is none. */
static bool batch_next(struct batch *b, struct run_config *cfg)
{
	struct session *s = b->session;

	if (s->crossover) {
		if (!crossover_next_run(s->crossover, clock_now_ns(), cfg))
			return false;
		batch_progress_crossover(s->crossover, cfg);
		return true;
	}
	if (b->next >= s->plan_count)
		return false;
	*cfg = s->plan[b->next];
	batch_progress(s, cfg, b->next, s->plan_count, b->started_ns);
	b->next++;
	return true;
}

/* Starts the plan's next run; one that cannot start is said and skipped. */
static void batch_start(struct batch *b)
{
	struct session *s = b->session;
	struct run_config next;

	while (!b->run && batch_next(b, &next)) {
		const struct run_config *cfg = &next;
		char size[24], *cause = NULL;
		int r;

		r = session_start_run(s, cfg, &b->run, &cause);
		if (r == 0)
			break;
		/* A signal ended the wait for the agent: it ends the batch. */
		if (r == -EINTR) {
			free(cause);
			b->run = NULL;
			b->stopped = loop_take_signal(b->app) != 0;
			break;
		}
		units_format_size(cfg->msg_size, size, sizeof(size));
		app_say("%s %s x%u%s: %s", cfg->strategy->name, size,
			cfg->threads, rx_side_of(cfg->settings.rx)->tag,
			cause ? cause : strerror(-r));
		if (s->crossover)
			crossover_refused(s->crossover,
					  cause ? cause : strerror(-r),
					  clock_now_ns());
		free(cause);
		b->failed = true;
		b->run = NULL;
	}
}

static void batch_finish(struct batch *b)
{
	struct run_result result;
	char *cause = NULL;

	run_finish(b->run, &result);
	b->run = NULL;
	if (b->stopped) {
		run_result_fini(&result);
		return;
	}
	b->failed |= result.error != NULL;
	for (size_t side = 0; side < 2 && !b->profile_said; side++)
		if (result.profile[side].why[0]) {
			app_say("profile: %s", result.profile[side].why);
			b->profile_said = true;
		}
	if (session_add_result(b->session, &result) < 0) {
		b->failed = true;
		if (b->session->crossover)
			crossover_refused(b->session->crossover,
					  "out of memory", clock_now_ns());
	} else {
		if (session_search_take(b->session, clock_now_ns()) < 0)
			b->failed = true;
		if (!b->quiet)
			batch_row(b->session, b->session->result_count);
	}
	if (b->app->stream)
		stream_results(b->app->stream, b->session);
	if (app_checkpoint(b->app, b->session, &cause) < 0) {
		app_say("the checkpoint of -o failed: %s",
			cause ? cause : "out of memory");
		free(cause);
	}
}

static unsigned int batch_fds(void *data, struct pollfd *pfd)
{
	struct batch *b = data;

	if (!b->run)
		return 0;
	pfd[0] = (struct pollfd){.fd = run_event_fd(b->run), .events = POLLIN};
	return 1;
}

static uint64_t batch_deadline(void *data)
{
	struct batch *b = data;

	return b->run ? run_deadline_ns(b->run) : 1;
}

static void batch_interrupt(void *data, const char *why);

/* The run's new intervals; a reader gone ends the batch as a signal would. */
static void batch_stream(struct batch *b)
{
	if (!b->app->stream || b->stopped)
		return;
	stream_intervals(b->app->stream, b->session, b->run);
	if (stream_gone(b->app->stream)) {
		b->app->stopped_why = "the stream's reader went away";
		batch_interrupt(b, b->app->stopped_why);
	}
}

static void batch_step(void *data, const struct pollfd *pfd, unsigned int n,
		       uint64_t now_ns)
{
	struct batch *b = data;

	(void)pfd;
	(void)n;
	if (b->run && run_tick(b->run, now_ns)) {
		batch_stream(b);
		batch_finish(b);
	} else if (b->run) {
		batch_stream(b);
	}
	if (!b->stopped)
		batch_start(b);
}

static void batch_interrupt(void *data, const char *why)
{
	struct batch *b = data;

	b->stopped = true;
	if (b->session->crossover)
		crossover_stop(b->session->crossover, why);
	if (b->run)
		run_abort(b->run, why);
}

static bool batch_done(const void *data)
{
	const struct batch *b = data;

	return !b->run &&
	       (b->stopped ||
		(b->session->crossover
			 ? !crossover_searching(b->session->crossover)
			 : b->next == b->session->plan_count));
}

int batch_run(struct app *app, struct session *s)
{
	/* A comparison in markdown is all standard output says. */
	bool markdown = s->options.baseline &&
			s->options.diff_format == DIFF_FORMAT_MARKDOWN;
	struct batch b = {.app = app,
			  .session = s,
			  .started_ns = clock_now_ns(),
			  .quiet = app->stream_stdout || markdown};
	const struct frontend fe = {
		.data = &b,
		.fds = batch_fds,
		.deadline = batch_deadline,
		.step = batch_step,
		.interrupt = batch_interrupt,
		.done = batch_done,
	};

	if (!b.quiet)
		batch_header();
	batch_start(&b);
	loop_run(app, &fe);
	if (!b.stopped && !b.quiet)
		batch_analysis(s);
	if (s->crossover && !b.quiet)
		report_crossover_print(stdout, s);
	return b.failed ? 1 : 0;
}

/* A loaded export in batch: its table and analysis, as if just run. */
int batch_loaded(const struct app *app, const struct session *s)
{
	bool failed = false, quiet = app->stream_stdout;

	if (app->stream)
		stream_results(app->stream, s);
	if (!quiet)
		batch_header();
	for (size_t i = 0; i < s->result_count; i++) {
		if (!quiet)
			batch_row(s, i + 1);
		failed |= s->results[i].error != NULL;
	}
	if (!quiet)
		batch_analysis(s);
	if (!quiet && s->crossover)
		report_crossover_print(stdout, s);
	if (!quiet && app->compared) {
		printf("\ncompared: runs 1-%zu against %zu-%zu\n",
		       app->diff.side[0].count, app->diff.side[0].count + 1,
		       s->result_count);
		diff_print(&app->diff);
	}
	return failed ? 1 : 0;
}
