/*
 * The explorer.  One run at a time: a changed control stops the running one
 * (which drains, and joins the results if it measured anything) and starts
 * the new configuration as soon as the old one has ended.  The gauges are
 * rates over the last EXPLORER_WINDOW_MS of samples taken at each refresh.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dirent.h>

#include "clock.h"
#include "crossover_run.h"
#include "explorer.h"
#include "units.h"
#include "outfile.h"
#include "plan.h"
#include "preset.h"

/* What explorer_sweep() runs each strategy over. */
static const size_t sweep_sizes[] = {256,   1024,   4096,   16384,
				     65536, 262144, 1048576};
#define SWEEP_DEFAULT_MS 2000

void explorer_say(struct explorer *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->message, sizeof(e->message), fmt, ap);
	va_end(ap);
	e->said++;
	e->said_finished = false;
}

/*
 * What a run changes from the one before it, outside a sweep, is what the
 * runs vary; a sweep says its own (sweep_begin).
 */
static void note_varies(struct explorer *e, const struct run_config *next)
{
	if (e->sweep || !e->running.strategy)
		return;
	for (size_t i = 0; i < option_row_count; i++)
		if ((option_rows[i].flags & OPTION_RUN) &&
		    !options_run_same(&option_rows[i], &e->running, next))
			e->varies[i] = true;
}

bool explorer_varies(const struct explorer *e, const struct option_row *row)
{
	return row >= option_rows && row < option_rows + option_row_count &&
	       e->varies[row - option_rows];
}

static void explorer_start(struct explorer *e, const struct run_config *cfg)
{
	char *cause = NULL;
	int r;

	e->restart = false;
	r = session_start_run(e->session, cfg, &e->run, &cause);
	if (r < 0) {
		explorer_say(e, "%s: cannot start: %s", cfg->strategy->name,
			     cause ? cause : strerror(-r));
		/* Stale too once a run starts. */
		e->said_finished = true;
		free(cause);
		e->run = NULL;
		e->state = EXPLORER_IDLE;
		return;
	}
	note_varies(e, cfg);
	e->running = *cfg;
	/* "run 3 finished: ...", or why the last could not start, is stale. */
	if (e->said_finished) {
		e->message[0] = '\0';
		e->said++;
	}
	/* The number it will have in the table if it finishes. */
	e->run_number = (unsigned int)session_next_run(e->session);
	e->state = EXPLORER_RUNNING;
	e->sample_count = 0;
	memset(&e->live, 0, sizeof(e->live));
}

static void presets_count(struct explorer *e);

static void sweep_cancel(struct explorer *e)
{
	free(e->sweep);
	e->sweep = NULL;
	e->sweep_count = e->sweep_next = e->sweep_failed = 0;
	e->sweep_complete = e->sweep_holes = e->sweep_again = 0;
	e->sweep_tries = 0;
	e->sweep_run = false;
	if (e->searching && e->session->crossover)
		crossover_stop(e->session->crossover, "the controls changed");
	e->searching = false;
}

/*
 * Runs plan one by one; afterwards the controls return to what they are now
 * (before), idle, so that no run the user did not ask for joins the table.
 */
static void sweep_begin(struct explorer *e, struct run_config *plan,
			size_t count, const struct run_config *before,
			const char *name)
{
	e->before_sweep = *before;
	e->sweep = plan;
	/* The run going on, if any, is the one it stops to begin. */
	e->sweep_run = false;
	/* Kept apart from the plan: a frozen screen's copy outlives it. */
	e->sweep_planned_s = (double)(plan[0].settings.warmup_ms +
				      plan[0].settings.duration_ms +
				      run_sampled_ms(&plan[0])) /
			     1e3;
	if (!plan[0].settings.duration_ms)
		e->sweep_planned_s = 0;
	/* What it varies: the dimensions whose values its runs differ in. */
	for (size_t i = 0; i < option_row_count; i++) {
		e->varies[i] = false;
		for (size_t k = 1; k < count && !e->varies[i]; k++)
			e->varies[i] = (option_rows[i].flags & OPTION_RUN) &&
				       !options_run_same(&option_rows[i],
							 &plan[0], &plan[k]);
	}
	e->sweep_count = count;
	e->sweep_next = e->sweep_failed = 0;
	e->sweep_complete = e->sweep_holes = e->sweep_again = 0;
	e->sweep_tries = 0;
	e->sweep_left_s = NAN;
	e->sweep_started_ns = clock_now_ns();
	snprintf(e->sweep_name, sizeof(e->sweep_name), "%s", name);
}

/*
 * The combinations of the lists the user gave (on the command line or in a
 * preset), the others at the controls' values: with more than one, a sweep.
 */
static int explorer_given_sweep(struct explorer *e, const struct options *o,
				const struct run_config *before,
				const char *name)
{
	struct run_config *plan;
	size_t count;
	char *cause = NULL;
	int r = plan_build(o, &e->config, true, &plan, &count, &cause);

	if (r < 0) {
		explorer_say(e, "%s: %s", name, cause ? cause : strerror(-r));
		free(cause);
		return r;
	}
	if (count < 2) {
		free(plan);
		return 0;
	}
	sweep_begin(e, plan, count, before, name);
	return 0;
}

int explorer_open(struct explorer *e, struct session *session,
		  unsigned int refresh_ms)
{
	const struct options *o = &session->options;
	char name[80];
	int r;

	memset(e, 0, sizeof(*e));
	e->session = session;
	e->viewing = !session->plan;
	if (e->viewing) {
		/* A loaded export: the controls show its first run. */
		if (session->result_count)
			e->config = session->results[0].config;
		else
			e->config = (struct run_config){
				.strategy = o->strategies[0],
				.msg_size = o->msg_sizes[0],
				.threads = o->threads[0],
			};
	} else {
		e->config = session->plan[0];
		if (!options_given(o, "duration"))
			e->config.settings.duration_ms = 0;
	}
	for (size_t i = 0; i < strategy_count() && i < EXPLORER_STRATEGIES_MAX;
	     i++) {
		const struct capability *cap = &session->host.strategy[i];

		e->strategy_available[i] = cap->available;
		snprintf(e->strategy_why[i], sizeof(e->strategy_why[i]), "%s",
			 cap->reason);
	}
	e->window = EXPLORER_WINDOW_MS / refresh_ms;
	if (e->window < 1)
		e->window = 1;
	if (e->window >= EXPLORER_SAMPLES)
		e->window = EXPLORER_SAMPLES - 1;
	e->window_ms = e->window * refresh_ms;
	e->history_capacity = EXPLORER_HISTORY_S * 1000 / refresh_ms + 1;
	e->history = calloc(e->history_capacity, sizeof(*e->history));
	e->rtt = malloc(sizeof(*e->rtt));
	if (!e->history || !e->rtt)
		return -ENOMEM;
	preset_list(!o->no_config, &e->presets, &e->preset_count);
	presets_count(e);
	if (e->viewing) {
		explorer_say(e, "%zu run%s loaded from an export; nothing runs",
			     session->result_count,
			     session->result_count == 1 ? "" : "s");
		return 0;
	}
	if (session->crossover) {
		/* --crossover: the search, not the grid of -m's range. */
		e->before_sweep = e->config;
		e->searching = true;
		return 0;
	}
	if (o->preset_name[0])
		snprintf(name, sizeof(name), "preset %s", o->preset_name);
	else
		snprintf(name, sizeof(name), "sweep");
	r = explorer_given_sweep(e, o, &e->config, name);
	if (r < 0)
		return r;
	e->restart = true;
	return 0;
}

void explorer_close(struct explorer *e)
{
	if (e->run) {
		struct run_result result;

		run_abort(e->run, "closed");
		run_finish(e->run, &result);
		run_result_fini(&result);
	}
	sweep_cancel(e);
	free(e->history);
	free(e->rtt);
	free(e->presets);
	memset(e, 0, sizeof(*e));
}

/* The controls changed: the running run ends and the new one follows. */
static void explorer_changed(struct explorer *e)
{
	if (e->viewing) {
		explorer_say(e, "a saved export: nothing runs here (start "
				"nio-top without --load to measure)");
		e->restart = false;
		return;
	}
	if (e->sweep || explorer_searching(e)) {
		/* The sweep's own timing is not the user's. */
		e->config.settings.duration_ms =
			e->before_sweep.settings.duration_ms;
		explorer_say(e, "%s cancelled",
			     e->sweep ? "sweep" : "crossover search");
		sweep_cancel(e);
	}
	e->restart = true;
	if (e->state == EXPLORER_RUNNING) {
		run_stop(e->run);
		e->state = EXPLORER_STOPPING;
	}
}

void explorer_set_strategy(struct explorer *e, size_t index)
{
	if (index >= strategy_count() || !e->strategy_available[index]) {
		if (index < strategy_count())
			explorer_say(e, "%s is unavailable: %s",
				     strategy_at(index)->name,
				     e->strategy_why[index]);
		return;
	}
	if (strategy_at(index) == e->config.strategy)
		return;
	e->config.strategy = strategy_at(index);
	explorer_changed(e);
}

/* A control steps over the strategies this machine cannot run. */
static bool strategy_allowed(const struct run_config *c, void *arg)
{
	const struct explorer *e = arg;
	size_t i = strategy_index(c->strategy);

	return i < EXPLORER_STRATEGIES_MAX && e->strategy_available[i];
}

void explorer_step(struct explorer *e, const struct option_row *control,
		   int delta)
{
	if (options_control_step(control, &e->config, delta, strategy_allowed,
				 e))
		explorer_changed(e);
}

void explorer_toggle(struct explorer *e, const struct option_row *control)
{
	options_control_toggle(control, &e->config,
			       &e->toggled_from[control - option_rows]);
	explorer_changed(e);
}

void explorer_pause(struct explorer *e)
{
	/* The controls run again once the stopped run has drained. */
	if (e->run && run_pause(e->run) && e->state == EXPLORER_RUNNING &&
	    !e->sweep && !e->quitting) {
		e->state = EXPLORER_STOPPING;
		e->restart = true;
	}
}

void explorer_sweep(struct explorer *e)
{
	if (e->viewing) {
		explorer_changed(e);
		return;
	}
	size_t n = 0, sizes = sizeof(sweep_sizes) / sizeof(sweep_sizes[0]);
	struct run_config *plan = calloc(strategy_count() * sizes,
					 sizeof(*plan));
	struct run_config before;

	if (!plan) {
		explorer_say(e, "sweep: out of memory");
		return;
	}
	for (size_t i = 0; i < strategy_count(); i++) {
		if (!e->strategy_available[i])
			continue;
		for (size_t j = 0; j < sizes; j++) {
			plan[n] = e->config;
			plan[n].strategy = strategy_at(i);
			plan[n].msg_size = sweep_sizes[j];
			if (!plan[n].settings.duration_ms)
				plan[n].settings.duration_ms = SWEEP_DEFAULT_MS;
			n++;
		}
	}
	before = e->config;
	explorer_changed(e);
	sweep_begin(e, plan, n, &before, "sweep");
	explorer_say(e, "sweep: %zu runs", n);
}

bool explorer_sweeping(const struct explorer *e)
{
	return e->sweep != NULL || explorer_searching(e);
}

bool explorer_searching(const struct explorer *e)
{
	return e->searching && e->session->crossover &&
	       crossover_searching(e->session->crossover);
}

/* The range a search of the explorer's runs over: -m's, or 1K .. 1M. */
static void search_range(const struct options *o, size_t *lo, size_t *hi)
{
	*lo = 1024;
	*hi = 1048576;
	if (o->msg_size_count < 2)
		return;
	*lo = *hi = o->msg_sizes[0];
	for (size_t i = 1; i < o->msg_size_count; i++) {
		if (o->msg_sizes[i] < *lo)
			*lo = o->msg_sizes[i];
		if (o->msg_sizes[i] > *hi)
			*hi = o->msg_sizes[i];
	}
}

/*
 * Search x from now on, the session's search: what ran stops, and the
 * controls come back as before after it.
 */
static void search_begin(struct explorer *e, struct crossover *x,
			 const struct run_config *before)
{
	explorer_changed(e);
	crossover_free(e->session->crossover);
	e->session->crossover = x;
	e->before_sweep = *before;
	e->searching = true;
	e->sweep_started_ns = clock_now_ns();
	explorer_say(e, "crossover: where %s overtakes %s, or %s %s, on %s",
		     x->label[1], x->label[0], x->label[0], x->label[1],
		     x->metric_label);
}

void explorer_crossover(struct explorer *e, size_t other, const char *metric)
{
	struct options *o = malloc(sizeof(*o));
	struct plan_pair pair = {.dimension = "strategy"};
	struct run_config before = e->config;
	struct crossover *x = NULL;
	char *cause = NULL;
	int r;

	if (!o || e->viewing || other >= strategy_count() ||
	    !e->strategy_available[other] ||
	    strategy_at(other) == e->config.strategy) {
		if (o && !e->viewing && other < strategy_count())
			explorer_say(e,
				     "crossover: %s against itself or "
				     "unavailable here: pick another",
				     strategy_at(other)->name);
		else if (e->viewing)
			explorer_changed(e);
		free(o);
		return;
	}
	*o = e->session->options;
	snprintf(o->crossover_metric, sizeof(o->crossover_metric), "%s",
		 metric[0] ? metric : e->session->options.crossover_metric);
	search_range(o, &pair.min_size, &pair.max_size);
	pair.side[0] = pair.side[1] = e->config;
	pair.side[1].strategy = strategy_at(other);
	for (int k = 0; k < 2; k++) {
		if (!pair.side[k].settings.duration_ms)
			pair.side[k].settings.duration_ms = SWEEP_DEFAULT_MS;
		pair.side[k].round = 1;
		snprintf(pair.value[k], sizeof(pair.value[k]), "%s",
			 pair.side[k].strategy->name);
	}
	r = crossover_start(&x, o, &pair, &cause);
	free(o);
	if (r < 0) {
		explorer_say(e, "crossover: %s", cause ? cause : strerror(-r));
		free(cause);
		return;
	}
	search_begin(e, x, &before);
}

/*
 * The time a sweep has left at now, a guess: a run's length as the runs
 * done so far took it (start to start), or as planned before any is done.
 * It counts down through the run in progress, and holds at the runs after
 * it if that one takes longer.  NaN: no guess.
 */
static double sweep_left_guess(const struct explorer *e, uint64_t now_ns)
{
	size_t done = e->sweep_next ? e->sweep_next - 1 : 0, after;
	double per_run, in_run = 0, left;

	if (!e->sweep_next || done >= e->sweep_count)
		return NAN;
	if (done)
		per_run = (double)(e->sweep_run_started_ns -
				   e->sweep_started_ns) /
			  1e9 / (double)done;
	else if (e->sweep_planned_s > 0)
		per_run = e->sweep_planned_s;
	else
		return NAN;
	if (e->state != EXPLORER_IDLE)
		in_run = (double)(now_ns - e->sweep_run_started_ns) / 1e9;
	after = e->sweep_count - done - 1;
	left = per_run * (double)(after + 1) - in_run;
	return left < per_run * (double)after ? per_run * (double)after : left;
}

/*
 * The time left as said: a guess longer than the last one said (a run
 * took longer than those before it, or a point runs again) holds the last
 * instead, so that a countdown never goes up; it goes on down once the
 * guess is under it.
 */
static void sweep_left_update(struct explorer *e, uint64_t now_ns)
{
	double guess = e->sweep ? sweep_left_guess(e, now_ns) : NAN;

	if (isnan(guess) || isnan(e->sweep_left_s) || guess < e->sweep_left_s)
		e->sweep_left_s = guess;
}

void explorer_sweep_progress(const struct explorer *e, size_t *done,
			     size_t *total, double *left_s)
{
	*total = e->sweep_count;
	/* The run in progress is not done yet. */
	*done = e->sweep_next ? e->sweep_next - 1 : 0;
	*left_s = e->sweep ? e->sweep_left_s : NAN;
}

/*
 * The session's options with preset name's grid and timing over them: the
 * network and the counted events stay (a preset's topology and events apply
 * to new sessions, -p).
 */
static int preset_options(const struct explorer *e, const char *name,
			  struct options *o, char **cause)
{
	int r;

	*o = e->session->options;
	memset(o->given, 0, sizeof(o->given));
	o->warnings = NULL;
	/* A search is the preset's own, not the session's. */
	o->crossover[0] = '\0';
	r = options_load_preset(o, name, cause);
	free(o->warnings);
	o->warnings = NULL;
	return r;
}

/* Each preset's runs and planned seconds, for the list to show. */
static void presets_count(struct explorer *e)
{
	for (size_t i = 0; i < e->preset_count; i++) {
		struct preset_entry *p = &e->presets[i];
		struct run_config *plan = NULL;
		struct options o;
		char *cause = NULL;
		size_t count = 0;

		p->runs = 0;
		p->seconds = 0;
		if (preset_options(e, p->name, &o, &cause) < 0 ||
		    plan_build(&o, &e->config, true, &plan, &count, &cause) <
			    0) {
			free(cause);
			continue;
		}
		p->runs = count;
		for (size_t k = 0; k < count; k++) {
			const struct run_settings *s = &plan[k].settings;

			if (!s->duration_ms) {
				p->seconds = 0;
				break;
			}
			p->seconds += (double)(s->warmup_ms + s->duration_ms +
					       run_sampled_ms(&plan[k])) /
				      1e3;
		}
		free(plan);
	}
}

void explorer_load_preset(struct explorer *e, size_t index)
{
	struct options o;
	struct run_config base = e->config;
	char *cause = NULL, name[80];

	if (e->viewing || index >= e->preset_count) {
		explorer_changed(e);
		return;
	}
	if (preset_options(e, e->presets[index].name, &o, &cause) < 0) {
		explorer_say(e, "%s", cause ? cause : "cannot load the preset");
		free(cause);
		return;
	}
	/* A preset of a crossover search searches, as --crossover does. */
	if (o.crossover[0]) {
		struct crossover *x = NULL;
		int r = crossover_open(&x, &o, &base, &cause);

		if (r < 0)
			explorer_say(e, "preset %s: %s", e->presets[index].name,
				     cause ? cause : strerror(-r));
		else
			search_begin(e, x, &base);
		free(cause);
		return;
	}
	explorer_changed(e);
	e->config = plan_point(&o, &base);
	sweep_cancel(e);
	snprintf(name, sizeof(name), "preset %s", e->presets[index].name);
	if (explorer_given_sweep(e, &o, &base, name) < 0)
		return;
	explorer_say(e, "preset %s: %zu run%s", e->presets[index].name,
		     e->sweep ? e->sweep_count : 1,
		     e->sweep && e->sweep_count == 1 ? "" : "s");
}

int explorer_save_preset(struct explorer *e, const char *path)
{
	struct options o = e->session->options;
	char *text, *cause = NULL, name[64], size[24];
	const char *base;
	bool found = false;
	cJSON *preset;
	int r;

	options_from_run(&o, &e->config, NULL);
	o.repeat = 1;
	o.run = e->config.settings;
	base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	snprintf(name, sizeof(name), "%.*s",
		 (int)(strlen(base) > 5 ? strlen(base) - 5 : strlen(base)),
		 base);
	snprintf(o.preset_name, sizeof(o.preset_name), "%s", name);
	units_format_size(e->config.msg_size, size, sizeof(size));
	snprintf(o.preset_description, sizeof(o.preset_description),
		 "Saved from the explorer: %s, %s, %u thread%s, %s, %s.",
		 e->config.strategy->name, size, e->config.threads,
		 e->config.threads == 1 ? "" : "s",
		 run_mode_name(e->config.mode),
		 o.run.duration_ms ? "timed" : "continuous in the explorer");
	preset = options_to_preset(&o);
	text = preset ? cJSON_Print(preset) : NULL;
	cJSON_Delete(preset);
	if (!text) {
		explorer_say(e, "save: out of memory");
		return -ENOMEM;
	}
	r = outfile_write_text(path, text, &cause);
	cJSON_free(text);
	if (r < 0) {
		explorer_say(e, "save: %s", cause ? cause : strerror(-r));
		free(cause);
		return r;
	}
	/* The list shows it now; by name if the folders find it so. */
	free(e->presets);
	e->presets = NULL;
	e->preset_count = 0;
	preset_list(!e->session->options.no_config, &e->presets,
		    &e->preset_count);
	presets_count(e);
	for (size_t i = 0; i < e->preset_count; i++)
		if (strcmp(e->presets[i].name, name) == 0)
			found = true;
	/* The name first: a path too long for the line is what is cut. */
	if (found)
		explorer_say(e,
			     "saved the controls as preset %s (p lists it, "
			     "nio-top -p %s starts with it): %s",
			     name, name, path);
	else
		explorer_say(e,
			     "saved the controls as preset %s, a file the "
			     "preset list (p) does not read: nio-top -p %s "
			     "starts with it",
			     name, path);
	return 0;
}

size_t explorer_unsaved(const struct explorer *e)
{
	if (e->viewing || e->session->options.output)
		return 0;
	return e->session->result_count - e->saved_runs;
}

void explorer_quit(struct explorer *e)
{
	if (e->searching && e->session->crossover)
		crossover_stop(e->session->crossover, "the explorer quit");
	sweep_cancel(e);
	e->restart = false;
	if (!e->quitting)
		e->quit_ns = clock_now_ns();
	e->quitting = true;
	if (e->state == EXPLORER_RUNNING) {
		run_stop(e->run);
		e->state = EXPLORER_STOPPING;
	}
}

bool explorer_done(const struct explorer *e)
{
	return e->quitting && !e->run;
}

void explorer_abort(struct explorer *e, const char *why)
{
	explorer_quit(e);
	e->aborted = true;
	if (e->run)
		run_abort(e->run, why);
}

int explorer_event_fd(const struct explorer *e)
{
	return e->run ? run_event_fd(e->run) : -1;
}

/* When a quit stops waiting for the run's flows. */
static uint64_t quit_deadline_ns(const struct explorer *e)
{
	return e->quit_ns + EXPLORER_QUIT_GRACE_MS * NS_PER_MS;
}

uint64_t explorer_deadline_ns(const struct explorer *e)
{
	uint64_t d = e->run ? run_deadline_ns(e->run) : 0;

	if (e->run && e->quitting && !e->aborted && quit_deadline_ns(e) < d)
		d = quit_deadline_ns(e);
	return d;
}

/*
 * A sweep's run ended: its point is complete, failed, or -- a stop (Ctrl-Z,
 * a stall) having ended its window, which leaves it out of the charts and
 * the analysis -- run again before the sweep goes on, up to
 * EXPLORER_SWEEP_TRIES runs in all; then it is a hole, counted.
 */
static void sweep_point_done(struct explorer *e, const struct run_result *r)
{
	if (r->error) {
		e->sweep_failed++;
		snprintf(e->sweep_failure, sizeof(e->sweep_failure),
			 "run %u: %s", e->run_number, r->error);
	} else if ((r->stopped_s > 0 || r->measured_s <= 0) &&
		   e->sweep_tries + 1 < EXPLORER_SWEEP_TRIES) {
		e->sweep_tries++;
		e->sweep_again++;
		e->sweep_next--;
		return;
	} else if (r->stopped_s > 0 || r->measured_s <= 0) {
		e->sweep_holes++;
	} else {
		e->sweep_complete++;
	}
	e->sweep_tries = 0;
}

static void explorer_finish(struct explorer *e)
{
	struct run_result result;

	run_finish(e->run, &result);
	e->run = NULL;
	e->state = EXPLORER_IDLE;
	e->live.running = false;
	/* A run the sweep stopped to begin is none of its points. */
	if (e->sweep && e->sweep_run && !e->aborted)
		sweep_point_done(e, &result);
	e->sweep_run = false;
	/* Cut short before the warm-up ended, or by a signal: no result. */
	if (e->aborted || result.measured_s <= 0) {
		if (e->searching && e->session->crossover)
			crossover_refused(e->session->crossover,
					  result.error ? result.error
						       : "cut short before it "
							 "measured",
					  clock_now_ns());
		run_result_fini(&result);
		return;
	}
	if (result.error) {
		explorer_say(e, "run %u: %s", e->run_number, result.error);
	} else if (result.stopped_s > 0 && e->sweep) {
		/* The next run says it: it is this point's again, or not. */
	} else if (result.stopped_s > 0) {
		explorer_say(e,
			     "run %u ended at a stop of %.1f s (Ctrl-Z): its "
			     "%.1f s before it are kept, marked stopped, and "
			     "left out of charts and the analysis",
			     e->run_number, result.stopped_s,
			     result.measured_s);
	} else if (e->searching) {
		/* The search says where it is when the next run starts. */
	} else if (!e->restart && !e->sweep && result.config.mode == RUN_RR) {
		explorer_say(e, "run %u finished: p50 %.1f us, p99 %.1f us",
			     e->run_number, result.latency.p50_us,
			     result.latency.p99_us);
	} else if (!e->restart && !e->sweep && result.probe.present &&
		   result.probe.loaded.rtt.count) {
		explorer_say(e,
			     "run %u finished: %.2f Gbit/s, the probe's p99 "
			     "%.0f us beside it (%.0f us alone)",
			     e->run_number, run_result_gbps(&result),
			     result.probe.loaded.rtt.p99_us,
			     result.probe.idle.rtt.p99_us);
	} else if (!e->restart && !e->sweep) {
		explorer_say(e, "run %u finished: %.2f Gbit/s", e->run_number,
			     run_result_gbps(&result));
	}
	e->said_finished = !result.error && !e->restart && !e->sweep;
	if (session_add_result(e->session, &result) < 0)
		explorer_say(e, "out of memory: run %u not kept",
			     e->run_number);
	else if (e->searching && e->session->crossover &&
		 session_search_take(e->session, clock_now_ns()) < 0)
		explorer_say(e, "out of memory: the search lost run %u",
			     e->run_number);
}

/*
 * The search's next run, or its end: its line said, the controls back as
 * they were before it.
 */
static void search_step(struct explorer *e, uint64_t now_ns)
{
	struct crossover *x = e->session->crossover;
	char where[CROSSOVER_TEXT_MAX], size[24];
	struct run_config next;

	if (!crossover_next_run(x, now_ns, &next)) {
		crossover_answer(x, where, sizeof(where));
		explorer_say(e, "crossover: %s", where);
		e->searching = false;
		e->config = e->before_sweep;
		return;
	}
	e->config = next;
	e->sweep_run_started_ns = now_ns;
	explorer_start(e, &next);
	if (!e->run) {
		crossover_refused(x, e->message, now_ns);
		return;
	}
	crossover_progress(x, where, sizeof(where));
	crossover_size_text(next.msg_size, size, sizeof(size));
	explorer_say(e, "crossover, run %u: %s at %s (%s)", e->run_number,
		     next.strategy->name, size, where);
}

/*
 * What a sweep could not measure so far, as a sentence's tail: ", 1 failed
 * (run 3: ...), 1 stopped 3 times" ("" if nothing).
 */
static void sweep_misses(const struct explorer *e, char *out, size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	if (e->sweep_failed)
		len += (size_t)snprintf(out, size, ", %zu failed (%s)",
					e->sweep_failed, e->sweep_failure);
	if (e->sweep_holes && len < size)
		snprintf(out + len, size - len, ", %zu stopped %d times",
			 e->sweep_holes, EXPLORER_SWEEP_TRIES);
}

/* The sweep's next run, or its end: said on the status line. */
static void sweep_next(struct explorer *e, uint64_t now_ns)
{
	char misses[300];

	sweep_misses(e, misses, sizeof(misses));
	if (e->sweep_next < e->sweep_count) {
		struct run_config next = e->sweep[e->sweep_next++];

		/* The controls show what runs. */
		e->config = next;
		e->sweep_run_started_ns = now_ns;
		explorer_start(e, &next);
		e->sweep_run = e->run != NULL;
		/* Its place in the sweep, and the run's own number. */
		if (!e->run) {
			e->sweep_failed++;
			snprintf(e->sweep_failure, sizeof(e->sweep_failure),
				 "%.*s", (int)sizeof(e->sweep_failure) - 1,
				 e->message);
		} else if (e->sweep_tries) {
			explorer_say(e,
				     "%s: %zu of %zu again, run %u (a stop "
				     "ended the last run's window; try %u of "
				     "%d)%s",
				     e->sweep_name, e->sweep_next,
				     e->sweep_count, e->run_number,
				     e->sweep_tries + 1, EXPLORER_SWEEP_TRIES,
				     misses);
		} else {
			explorer_say(e, "%s: %zu of %zu, run %u%s",
				     e->sweep_name, e->sweep_next,
				     e->sweep_count, e->run_number, misses);
		}
		return;
	}
	explorer_say(e,
		     "%s done: %zu of %zu points complete%s%s; the controls "
		     "are back as they were (Enter runs them)",
		     e->sweep_name, e->sweep_complete, e->sweep_count, misses,
		     e->sweep_again ? ", some run again after a stop" : "");
	sweep_cancel(e);
	e->config = e->before_sweep;
}

void explorer_tick(struct explorer *e, uint64_t now_ns)
{
	if (e->run && e->quitting && !e->aborted &&
	    now_ns >= quit_deadline_ns(e) && !run_error(e->run))
		run_abort(e->run, "quit before its flows drained");
	if (e->run && run_tick(e->run, now_ns))
		explorer_finish(e);
	if (e->run || e->quitting)
		return;
	/* A sweep goes on past a failed run or a hole, and keeps saying so. */
	if (e->sweep)
		sweep_next(e, now_ns);
	else if (e->searching)
		search_step(e, now_ns);
	else if (e->restart)
		explorer_start(e, &e->config);
}

/* Why event name cannot feed a gauge of this side, or NULL if it can. */
static const char *event_missing(struct explorer *e, enum gauge_side side,
				 const char *name,
				 const struct counter_reading *delta,
				 struct counter_value *value)
{
	const struct counter_set *set = e->running.counters;
	int i;

	if (!set)
		return "not counted (--no-counters)";
	i = counters_find(set, name);
	if (i < 0) {
		snprintf(value->reason, sizeof(value->reason),
			 "%s is not among --events", name);
		return value->reason;
	}
	run_counter_value(e->run, side == SIDE_SENDER, (unsigned int)i,
			  &delta[i], value);
	if (counter_known(value))
		return NULL;
	return value->reason;
}

static void live_side(struct explorer *e, enum gauge_side side,
		      const struct sample *from, const struct sample *to)
{
	struct counter_reading delta[COUNTERS_MAX];
	struct metric_values values;

	sampler_side(e->running.counters, from, to, side == SIDE_SENDER, delta,
		     &values);
	for (size_t g = 0; g < metric_count; g++) {
		struct gauge_reading *out = &e->live.gauge[side][g];
		const char *events[2], *why = NULL;
		unsigned int n = metric_events(&metrics[g], events);
		struct counter_value value;

		for (unsigned int k = 0; k < n && !why; k++)
			why = event_missing(e, side, events[k], delta, &value);
		out->value = values.value[g];
		out->known = !why && !isnan(out->value);
		snprintf(out->why, sizeof(out->why), "%s",
			 why ? why : "nothing moved in the window");
	}
}

static void history_push(struct explorer *e, uint64_t now_ns)
{
	struct explorer_point *p = &e->history[e->history_head];

	p->t_ns = now_ns;
	for (int s = 0; s < SIDE_COUNT; s++)
		for (size_t g = 0; g < metric_count; g++)
			p->value[s][g] =
				e->live.gauge[s][g].known
					? (float)e->live.gauge[s][g].value
					: NAN;
	e->history_head = (e->history_head + 1) % e->history_capacity;
	if (e->history_count < e->history_capacity)
		e->history_count++;
}

void explorer_sample(struct explorer *e, uint64_t now_ns)
{
	struct sample *to = &e->samples[e->sample_count % EXPLORER_SAMPLES];
	const struct sample *from;
	struct sample raw;
	size_t back;

	sweep_left_update(e, now_ns);
	if (e->state != EXPLORER_RUNNING) {
		e->live.running = false;
		return;
	}
	run_sample(e->run, &raw, to);
	e->sample_count++;
	e->live.running = true;
	e->live.elapsed_s = run_elapsed_s(e->run, now_ns, &e->live.warmup);
	e->live.starting = !run_started(e->run);
	e->live.totals = raw.totals;
	for (int s = 0; s < SIDE_COUNT; s++) {
		e->live.profiled[s] = run_profile_now(e->run, s == SIDE_SENDER,
						      &e->live.profile[s]);
		e->live.timed[s] = run_time_now(e->run, s == SIDE_SENDER,
						&e->live.time[s]);
	}
	e->live.sampling_effect = run_sampling_effect(e->run);
	e->live.probe_phase = run_probe_now(e->run, &e->live.probe);
	if (e->sample_count < 2)
		return;
	back = e->sample_count - 1 < e->window ? e->sample_count - 1
					       : e->window;
	from = &e->samples[(e->sample_count - 1 - back) % EXPLORER_SAMPLES];
	if (to->t_ns <= from->t_ns)
		return;
	live_side(e, SIDE_SENDER, from, to);
	live_side(e, SIDE_RECEIVER, from, to);
	if (run_latency(e->run, e->rtt))
		latency_hist_summarize(e->rtt, &e->live.latency);
	e->live.ready = true;
	history_push(e, now_ns);
}

const struct explorer_point *explorer_history_at(const struct explorer *e,
						 size_t age)
{
	if (age >= e->history_count)
		return NULL;
	return &e->history[(e->history_head + e->history_capacity - 1 - age) %
			   e->history_capacity];
}
