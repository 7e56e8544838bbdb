/*
 * The crossover search over a session's runs: what the options ask, the
 * runs it needs, and what each finished run says of its figure.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "crossover_run.h"
#include "rules.h"
#include "units.h"

/*
 * The figure of --metric, or the mode's.  A side's figure with no side
 * named is the receiver's for a pair of receive sides, else the sender's.
 */
static int crossover_figure(struct crossover *x, const char *metric,
			    enum run_mode mode, char **cause)
{
	char key[RULE_KEY_MAX];
	enum rule_side side = RULE_BOTH;
	const struct metric *m;
	int r;

	x->of = estimate_figure_of(mode);
	if (metric[0]) {
		r = rules_figure(metric, "--metric", key, &side, cause);
		if (r < 0)
			return r;
		x->of = (struct estimate_of){
			.metric = metric_find(key),
			.percentile = strcmp(key, "p99_us") == 0 ? 99 : 50,
			.sender = side == RULE_SENDER ||
				  (side == RULE_BOTH &&
				   strcmp(x->dimension, "rx") != 0),
		};
	}
	if (x->of.metric < 0) {
		snprintf(x->metric, sizeof(x->metric), "%s",
			 estimate_key(&x->of));
		snprintf(x->metric_label, sizeof(x->metric_label),
			 "p%u round trip", x->of.percentile);
		x->question.higher_is_better = false;
		return 0;
	}
	m = &metrics[x->of.metric];
	x->of.sender &= !m->delivered;
	x->question.higher_is_better = m->higher_is_better;
	snprintf(x->metric, sizeof(x->metric), "%s%s", m->key,
		 m->delivered	? ""
		 : x->of.sender ? ".sender"
				: ".receiver");
	if (m->delivered)
		snprintf(x->metric_label, sizeof(x->metric_label), "%s",
			 m->unit);
	else
		snprintf(x->metric_label, sizeof(x->metric_label), "%s, %s",
			 m->label, x->of.sender ? "sender" : "receiver");
	return 0;
}

/*
 * Each side's name, "sendfile", or for another dimension "one-copy
 * rx=trunc"; and what both share, "stream, 1 flow, rx copy".
 */
static void crossover_names(struct crossover *x)
{
	const struct run_config *c = &x->side[0];
	bool strategy = strcmp(x->dimension, "strategy") == 0;
	struct settings_stack stack = settings_stack_of(&c->settings);
	char knobs[96];
	size_t len = 0;

	for (int k = 0; k < 2; k++) {
		int n = strategy ? snprintf(x->label[k], sizeof(x->label[k]),
					    "%s", x->value[k])
				 : snprintf(x->label[k], sizeof(x->label[k]),
					    "%s %s=%s",
					    x->side[k].strategy->name,
					    x->dimension, x->value[k]);

		/* A label too long for its place is cut, and says so. */
		if (n >= (int)sizeof(x->label[k]))
			memcpy(x->label[k] + sizeof(x->label[k]) - 4, "...", 4);
	}
	if (!strategy)
		len = (size_t)snprintf(x->context, sizeof(x->context), "%s, ",
				       c->strategy->name);
	len += (size_t)snprintf(x->context + len, sizeof(x->context) - len,
				"%s", run_mode_name(c->mode));
	if (strcmp(x->dimension, "threads") != 0 && len < sizeof(x->context))
		len += (size_t)snprintf(x->context + len,
					sizeof(x->context) - len, ", %u flow%s",
					c->threads, c->threads == 1 ? "" : "s");
	if (strcmp(x->dimension, "rx") != 0 && len < sizeof(x->context))
		len += (size_t)snprintf(x->context + len,
					sizeof(x->context) - len, ", rx %s",
					rx_mode_names[c->settings.rx]);
	settings_stack_tag(&stack, knobs, sizeof(knobs));
	if (knobs[0] && len < sizeof(x->context))
		snprintf(x->context + len, sizeof(x->context) - len, ",%s",
			 knobs);
}

int crossover_start(struct crossover **out, const struct options *o,
		    const struct plan_pair *pair, char **cause)
{
	const struct run_config *c = &pair->side[0];
	struct crossover_question q = {
		.min_size = pair->min_size,
		.max_size = pair->max_size,
		.resolution = o->crossover_resolution > 1
				      ? o->crossover_resolution
				      : CROSSOVER_RESOLUTION,
		.budget_ms = o->crossover_budget_ms ? o->crossover_budget_ms
						    : 300000,
		.min_runs = o->repeat,
		.most_runs = CROSSOVER_RUNS_MOST,
		.planned_s = (double)(c->settings.warmup_ms +
				      c->settings.duration_ms +
				      run_sampled_ms(c)) /
			     1000,
	};
	struct crossover *x = calloc(1, sizeof(*x));
	int r;

	*out = NULL;
	if (!x)
		return -ENOMEM;
	crossover_init(x, &q);
	snprintf(x->dimension, sizeof(x->dimension), "%s", pair->dimension);
	for (int k = 0; k < 2; k++) {
		snprintf(x->value[k], sizeof(x->value[k]), "%s",
			 pair->value[k]);
		x->side[k] = pair->side[k];
	}
	r = crossover_figure(x, o->crossover_metric, c->mode, cause);
	if (r < 0) {
		crossover_free(x);
		return r;
	}
	crossover_names(x);
	*out = x;
	return 0;
}

int crossover_open(struct crossover **out, const struct options *o,
		   const struct run_config *base, char **cause)
{
	struct plan_pair pair;
	int r = plan_crossover(o, base, &pair, cause);

	*out = NULL;
	return r < 0 ? r : crossover_start(out, o, &pair, cause);
}

void crossover_free(struct crossover *x)
{
	if (!x)
		return;
	crossover_fini(x);
	free(x);
}

bool crossover_next_run(struct crossover *x, uint64_t now_ns,
			struct run_config *config)
{
	const struct crossover_size *z;
	size_t msg_size;
	int side;

	if (!crossover_next(x, now_ns, &msg_size, &side))
		return false;
	*config = x->side[side];
	config->msg_size = msg_size;
	z = crossover_size_of(x, msg_size);
	config->round = (unsigned int)(z ? z->runs[side] + 1 : 1);
	return true;
}

/* Why a finished run does not count, into why (NULL if it does). */
static const char *run_left_out(const struct crossover *x,
				const struct run_result *r,
				const struct analysis_run *facts, char *why,
				size_t size)
{
	if (r->error)
		return r->error;
	if (!facts)
		snprintf(why, size, "not analysed");
	else if (facts->usable && facts->stopped)
		snprintf(why, size,
			 "stopped for %.1f s while measuring (--keep-stopped "
			 "keeps it)",
			 r->stopped_s);
	else if (facts->usable && facts->short_run)
		snprintf(why, size,
			 "short (measured %.3g s; --min-measured 0 keeps it)",
			 r->measured_s);
	else
		snprintf(why, size, "no figure of %s", x->metric);
	return why;
}

int crossover_take(struct crossover *x, size_t number,
		   const struct run_result *result,
		   const struct analysis_run *facts, uint64_t now_ns)
{
	struct crossover_run run = {.number = number};
	char why[200];

	run.usable = facts && facts->usable && !facts->short_run &&
		     !facts->stopped &&
		     estimate_run(result, &x->of, &run.value, &run.series) &&
		     run.value > 0;
	return crossover_add(
		x, &run,
		run.usable ? NULL
			   : run_left_out(x, result, facts, why, sizeof(why)),
		now_ns);
}

int crossover_refused(struct crossover *x, const char *why, uint64_t now_ns)
{
	struct crossover_run run = {.value = NAN};

	return crossover_add(x, &run, why, now_ns);
}

int crossover_loaded(struct crossover *x, const struct run_result *results,
		     size_t result_count, const char *path, char **cause)
{
	enum run_mode mode = RUN_STREAM;
	int r;

	for (size_t i = 0; i < x->run_count; i++) {
		const struct crossover_run *run = &x->run[i];
		const struct run_result *result;

		if (!run->number)
			continue;
		if (run->number > result_count)
			return cause_set(cause, -EINVAL,
					 "%s: runs[%zu]: run %zu is not one of "
					 "the export's %zu",
					 path, i, run->number, result_count);
		result = &results[run->number - 1];
		if (result->config.msg_size != run->msg_size)
			return cause_set(cause, -EINVAL,
					 "%s: runs[%zu]: run %zu is of %zu "
					 "bytes, not %zu",
					 path, i, run->number,
					 result->config.msg_size,
					 run->msg_size);
		mode = result->config.mode;
		x->side[run->side] = result->config;
	}
	r = crossover_figure(x, x->metric, mode, cause);
	/* The figures are the file's; their intervals' floors are not. */
	for (size_t i = 0; r == 0 && i < x->run_count; i++) {
		struct crossover_run *run = &x->run[i];
		double value;

		run->series = (struct stats_series){.rel_se = NAN};
		if (run->number)
			estimate_run(&results[run->number - 1], &x->of, &value,
				     &run->series);
	}
	return r == 0 ? crossover_rebuild(x) : r;
}

/* " --gso-ipv4-max-size 185000": a knob of k set, as the command line says it. */
static size_t knob_flags(const struct settings_stack *k, char *out, size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	if (k->gso_max_size && len < size)
		len += (size_t)snprintf(out + len, size - len,
					" --gso-ipv4-max-size %u",
					k->gso_max_size);
	if (k->gro_max_size && len < size)
		len += (size_t)snprintf(out + len, size - len,
					" --gro-ipv4-max-size %u",
					k->gro_max_size);
	if (k->gro != GRO_DEFAULT && len < size)
		len += (size_t)snprintf(out + len, size - len, " --gro %s",
					gro_mode_names[k->gro]);
	if (k->busy_poll && len < size)
		len += (size_t)snprintf(out + len, size - len,
					" --busy-poll %u", k->busy_poll);
	if (k->load_rate_mbps && len < size)
		len += (size_t)snprintf(out + len, size - len,
					" --load-rate %u", k->load_rate_mbps);
	return len;
}

/*
 * "gso_ipv4_max_size=as-built,185000": the one knob a stack pair differs in,
 * 0 in the words its control has for it.
 */
static void knob_pair(const struct settings_stack *base,
		      const struct settings_stack *up, char *out, size_t size)
{
	char from[16];

	if (base->gso_max_size != up->gso_max_size) {
		snprintf(from, sizeof(from), "%u", base->gso_max_size);
		snprintf(out, size, "gso_ipv4_max_size=%s,%u",
			 base->gso_max_size ? from : "as-built",
			 up->gso_max_size);
	} else if (base->gro_max_size != up->gro_max_size) {
		snprintf(out, size, "gro_ipv4_max_size=%u,%u",
			 base->gro_max_size, up->gro_max_size);
	} else if (base->gro != up->gro) {
		snprintf(out, size, "gro=%s,%s", gro_mode_names[base->gro],
			 gro_mode_names[up->gro]);
	} else if (base->busy_poll != up->busy_poll) {
		snprintf(from, sizeof(from), "%u", base->busy_poll);
		snprintf(out, size, "busy_poll_us=%s,%u",
			 base->busy_poll ? from : "none", up->busy_poll);
	} else {
		snprintf(out, size, "load_rate_mbps=%u,%u",
			 base->load_rate_mbps, up->load_rate_mbps);
	}
}

int crossover_suggest(const struct analysis_crossover *c, char *out,
		      size_t size)
{
	char pair[96], context[160] = "", lo[24], hi[24];
	size_t below = 0, len;

	if (c->verdict != VERDICT_FROM)
		return 0;
	for (size_t i = 0; i < c->size_count; i++)
		if (c->size[i].msg_size < c->msg_size &&
		    c->size[i].msg_size > below)
			below = c->size[i].msg_size;
	if (!below)
		return 0;
	if (c->stack_pair)
		knob_pair(&c->versus_stack, &c->stack, pair, sizeof(pair));
	else if (c->rx_pair)
		snprintf(pair, sizeof(pair), "rx=copy,%s",
			 rx_mode_names[c->rx]);
	else
		snprintf(pair, sizeof(pair), "strategy=%s,%s", c->versus,
			 c->strategy);
	len = (size_t)snprintf(context, sizeof(context), "%s%s",
			       c->rx_pair || c->stack_pair ? " -s " : "",
			       c->rx_pair || c->stack_pair ? c->strategy : "");
	if (!c->rx_pair && c->rx != RX_COPY && len < sizeof(context))
		len += (size_t)snprintf(context + len, sizeof(context) - len,
					" --rx %s", rx_mode_names[c->rx]);
	if (c->threads != 1 && len < sizeof(context))
		len += (size_t)snprintf(context + len, sizeof(context) - len,
					" -t %u", c->threads);
	if (c->mode == RUN_RR && len < sizeof(context))
		len += (size_t)snprintf(context + len, sizeof(context) - len,
					" --mode rr");
	if (!c->stack_pair && len < sizeof(context))
		knob_flags(&c->stack, context + len, sizeof(context) - len);
	units_format_size(below, lo, sizeof(lo));
	units_format_size(c->msg_size, hi, sizeof(hi));
	snprintf(out, size,
		 "the grid puts the crossover between %s and %s; nio-top "
		 "--crossover %s%s -m %s..%s narrows it",
		 lo, hi, pair, context, lo, hi);
	return 1;
}
