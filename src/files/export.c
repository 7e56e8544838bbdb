/*
 * The export.  The document is written a run at a time, each run's tree made,
 * printed and freed in turn: a long session's export never exists whole in
 * memory.  Reading it back checks every field it reads, with errors that
 * name the file, the run and the key.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "codec.h"
#include "export.h"
#include "figure.h"
#include "jsonfile.h"
#include "jsonlist.h"
#include "options.h"
#include "outfile.h"
#include "plan.h"
#include "rx_side.h"

static cJSON *number_or_null(bool known, double value)
{
	return known && isfinite(value) ? cJSON_CreateNumber(value)
					: cJSON_CreateNull();
}

static cJSON *export_topology(const struct topo *topo, const struct session *s)
{
	const struct topo_options *o = &topo->options;
	cJSON *obj = cJSON_CreateObject();
	char subnet[INET_ADDRSTRLEN + 4];

	cJSON_AddStringToObject(obj, "kind", topo_kind_name(o->kind));
	cJSON_AddItemToObject(obj, "mtu", number_or_null(topo->mtu, topo->mtu));
	if (o->kind == TOPO_VETH) {
		inet_ntop(AF_INET, &o->subnet, subnet, INET_ADDRSTRLEN);
		snprintf(subnet + strlen(subnet), 5, "/%u", o->prefix);
		cJSON_AddStringToObject(obj, "subnet", subnet);
	} else {
		cJSON_AddNullToObject(obj, "subnet");
	}
	if (o->rate_bps)
		jsonfile_add_u64(obj, "rate_bps", o->rate_bps);
	else
		cJSON_AddNullToObject(obj, "rate_bps");
	cJSON_AddItemToObject(obj, "delay_ms",
			      number_or_null(o->delay_ms > 0, o->delay_ms));
	cJSON_AddItemToObject(obj, "loss_pct",
			      number_or_null(o->loss_pct > 0, o->loss_pct));
	if (o->keep_prefix[0])
		cJSON_AddStringToObject(obj, "keep_netns", o->keep_prefix);
	else
		cJSON_AddNullToObject(obj, "keep_netns");
	if (s->has_agent)
		cJSON_AddStringToObject(obj, "agent", s->agent.address);
	cJSON_AddNumberToObject(obj, "setup_ms", topo->setup_ms);
	return obj;
}

/* The other host of a --connect session, as it described itself. */
static cJSON *export_agent(const struct session_agent *agent)
{
	cJSON *obj = cJSON_CreateObject();

	cJSON_AddStringToObject(obj, "address", agent->address);
	cJSON_AddStringToObject(obj, "tool", agent->tool);
	cJSON_AddItemToObject(obj, "host", codec_host(&agent->host));
	cJSON_AddItemToObject(obj, "capabilities",
			      codec_capabilities(&agent->host));
	return obj;
}

static cJSON *export_side(const struct counter_set *set,
			  const struct run_side_counters *side)
{
	cJSON *obj = cJSON_CreateObject();
	cJSON *counters = cJSON_AddObjectToObject(obj, "counters");

	for (unsigned int i = 0; i < set->count; i++)
		cJSON_AddItemToObject(
			counters, set->event[i].name,
			codec_object(&counter_value_record, &side->value[i]));
	cJSON_AddItemToObject(obj, "derived",
			      codec_metrics(&side->derived, true));
	return obj;
}

/*
 * The resolved options: the preset's keys that describe the runs, with the
 * topology as it was built rather than as asked for.
 */
static cJSON *export_config(const struct session *s)
{
	static const char *const not_config[] = {
		"format", "version", "name", "description",
		"mode",	  "repeat",  "ui",   "topology",
	};
	cJSON *obj = options_to_preset(&s->options);

	for (size_t i = 0; i < sizeof(not_config) / sizeof(*not_config); i++)
		cJSON_DeleteItemFromObjectCaseSensitive(obj, not_config[i]);
	cJSON_AddItemToObject(obj, "topology", export_topology(&s->topo, s));
	return obj;
}

static cJSON *export_intervals(const struct run_result *r)
{
	cJSON *list = cJSON_CreateArray();

	for (size_t i = 0; i < r->interval_count; i++) {
		const struct run_interval *iv = &r->intervals[i];
		cJSON *item = cJSON_CreateObject();

		codec_write(&run_interval_record, iv, item);
		cJSON_AddBoolToObject(item, "warmup", iv->warmup);
		if (r->counted) {
			cJSON_AddItemToObject(
				item, "sender",
				codec_metrics(&iv->side[0], true));
			cJSON_AddItemToObject(
				item, "receiver",
				codec_metrics(&iv->side[1], true));
		}
		cJSON_AddItemToArray(list, item);
	}
	return list;
}

/* A part of each end (sender, receiver) through rec, null where not had. */
static void export_ends(cJSON *obj, const char *key, const struct record *rec,
			const void *values, size_t size, const bool has[2])
{
	cJSON *ends = cJSON_AddObjectToObject(obj, key);

	for (int side = 0; side < 2; side++)
		cJSON_AddItemToObject(
			ends, side ? "receiver" : "sender",
			has[side] ? codec_object(rec, (const char *)values +
							      side * size)
				  : cJSON_CreateNull());
}

/*
 * Each side's profile, or where its time went (time), where it was
 * sampled, else null; null: neither side.
 */
static cJSON *export_sampled(const struct run_result *r, bool time)
{
	bool present[2];
	cJSON *obj;

	for (int side = 0; side < 2; side++)
		present[side] = time ? r->time[side].present
				     : r->profile[side].present;
	if (!present[0] && !present[1])
		return cJSON_CreateNull();
	obj = cJSON_CreateObject();
	for (int side = 0; side < 2; side++)
		cJSON_AddItemToObject(
			obj, side ? "receiver" : "sender",
			!present[side] ? cJSON_CreateNull()
			: time	       ? codec_time(&r->time[side])
				       : codec_profile(&r->profile[side]));
	return obj;
}

/*
 * The probe's figures into the object of its settings, which the run's
 * config wrote ("probe": {"rate_hz", "size"}; null without a probe).
 */
static void export_probe(cJSON *obj, const struct run_result *r)
{
	cJSON *probe = cJSON_GetObjectItemCaseSensitive(obj, "probe");

	if (!cJSON_IsObject(probe))
		return;
	cJSON_AddItemToObject(probe, "idle",
			      r->probe.present
				      ? codec_probe_window(&r->probe.idle)
				      : cJSON_CreateNull());
	cJSON_AddItemToObject(probe, "loaded",
			      r->probe.present
				      ? codec_probe_window(&r->probe.loaded)
				      : cJSON_CreateNull());
	if (r->probe.present)
		codec_write(&run_probe_record, &r->probe, probe);
}

cJSON *export_run(const struct session *s, const struct run_result *r)
{
	cJSON *obj = cJSON_CreateObject(), *integrity;
	size_t index = (size_t)(r - s->results);

	/* The run's number, as the table and the header show it. */
	cJSON_AddNumberToObject(obj, "run", (double)index + 1);
	options_run_to_json(&r->config, obj);
	export_probe(obj, r);
	cJSON_AddItemToObject(obj, "topology", export_topology(&s->topo, s));
	/* Over two hosts: which ends the agent ran (the others ran here). */
	if (r->config.role != RUN_BOTH)
		cJSON_AddStringToObject(
			obj, "agent_side",
			run_role_name(run_role_peer(r->config.role)));
	cJSON_AddItemToObject(
		obj, "link",
		r->has_link ? codec_object(&topo_link_stats_record, &r->link)
			    : cJSON_CreateNull());
	codec_write(&run_summary_record, r, obj);
	cJSON_AddBoolToObject(obj, "short",
			      index < s->run_fact_count &&
				      s->run_facts[index].short_run);
	cJSON_AddNumberToObject(obj, "stopped_s", r->stopped_s);
	cJSON_AddItemToObject(
		obj, "host_load",
		r->host_load.known
			? codec_object(&run_host_load_record, &r->host_load)
			: cJSON_CreateNull());
	export_ends(obj, "stack_before", &topo_stack_record, r->stack_before,
		    sizeof(r->stack_before[0]),
		    (const bool[2]){r->has_stack, r->has_stack});
	export_ends(obj, "stack", &topo_stack_record, r->stack,
		    sizeof(r->stack[0]),
		    (const bool[2]){r->has_stack, r->has_stack});
	export_ends(obj, "socket", &sock_state_record, r->socket,
		    sizeof(r->socket[0]), r->has_socket);
	export_ends(obj, "socket_start", &sock_state_record, r->socket_start,
		    sizeof(r->socket_start[0]), r->has_socket);
	codec_write_totals(&r->totals, r->config.settings.rx, obj);
	/* The other receive sides' blocks, null: every run has every key. */
	for (int m = 0; m < RX_MODE_COUNT; m++) {
		const char *block = rx_side_of((enum rx_mode)m)->block;

		if (block && !cJSON_HasObjectItem(obj, block))
			cJSON_AddNullToObject(obj, block);
	}
	integrity = cJSON_GetObjectItemCaseSensitive(obj, "integrity");
	cJSON_AddBoolToObject(integrity, "verified", r->config.settings.verify);
	if (!r->config.strategy->zerocopy)
		cJSON_ReplaceItemInObjectCaseSensitive(obj, "zerocopy",
						       cJSON_CreateNull());
	if (!r->config.strategy->uring &&
	    !strategy_receiver(r->config.strategy, &r->config.settings)->uring)
		cJSON_ReplaceItemInObjectCaseSensitive(obj, "uring",
						       cJSON_CreateNull());
	cJSON_AddItemToObject(
		obj, "latency_us",
		r->config.mode == RUN_RR
			? codec_object(&latency_summary_record, &r->latency)
			: cJSON_CreateNull());
	cJSON_AddItemToObject(
		obj, "sender",
		r->counted ? export_side(r->config.counters, &r->sender)
			   : cJSON_CreateNull());
	cJSON_AddItemToObject(
		obj, "receiver",
		r->counted ? export_side(r->config.counters, &r->receiver)
			   : cJSON_CreateNull());
	cJSON_AddItemToObject(obj, "profile", export_sampled(r, false));
	cJSON_AddItemToObject(obj, "time", export_sampled(r, true));
	cJSON_AddItemToObject(obj, "intervals", export_intervals(r));
	if (r->error)
		cJSON_AddStringToObject(obj, "error", r->error);
	else
		cJSON_AddNullToObject(obj, "error");
	return obj;
}

/* {"min": lo, "max": hi} */
static cJSON *export_range(double lo, double hi)
{
	cJSON *obj = cJSON_CreateObject();

	cJSON_AddItemToObject(obj, "min", number_or_null(true, lo));
	cJSON_AddItemToObject(obj, "max", number_or_null(true, hi));
	return obj;
}

/* The knobs of a point or a pair's side, as the runs have them. */
static cJSON *export_stack(const struct settings_stack *k)
{
	cJSON *obj = cJSON_CreateObject();

	cJSON_AddNumberToObject(obj, "gso_ipv4_max_size", k->gso_max_size);
	cJSON_AddNumberToObject(obj, "gro_ipv4_max_size", k->gro_max_size);
	cJSON_AddStringToObject(obj, "gro", gro_mode_names[k->gro]);
	cJSON_AddNumberToObject(obj, "busy_poll_us", k->busy_poll);
	cJSON_AddNumberToObject(obj, "load_rate_mbps", k->load_rate_mbps);
	return obj;
}

/*
 * What the analysed runs were, whatever options the session started with
 * (an explorer's runs differ in length, warm-up and repeats): the same
 * figures as a figure's footer.
 */
static cJSON *export_analysed(const struct session *s)
{
	const struct figure_scope every = {.parts = 0};
	struct figure_runs r;
	cJSON *obj = cJSON_CreateObject();
	bool any;
	char text[320];

	figure_runs_of(&s->analysis, s->results, &every, &r);
	any = r.runs > 0;
	figure_runs_text(&r, false, text, sizeof(text));
	cJSON_AddStringToObject(obj, "text", text);
	cJSON_AddItemToObject(
		obj, "measured_s",
		any ? export_range(r.measured_min_s, r.measured_max_s)
		    : cJSON_CreateNull());
	cJSON_AddItemToObject(obj, "warmup_s",
			      any ? export_range(r.warmup_min_s, r.warmup_max_s)
				  : cJSON_CreateNull());
	cJSON_AddItemToObject(obj, "runs_per_point",
			      any ? export_range((double)r.per_point_min,
						 (double)r.per_point_max)
				  : cJSON_CreateNull());
	cJSON_AddItemToObject(obj, "fields",
			      any ? export_range(r.fields_min, r.fields_max)
				  : cJSON_CreateNull());
	cJSON_AddNumberToObject(obj, "counted", (double)r.counted);
	cJSON_AddNumberToObject(obj, "pinned", (double)r.pinned);
	return obj;
}

static cJSON *export_crossover(const struct analysis_crossover *c)
{
	cJSON *item = cJSON_CreateObject(), *list;
	char text[ANALYSIS_TEXT_MAX];

	cJSON_AddStringToObject(item, "mode", run_mode_name(c->mode));
	cJSON_AddNumberToObject(item, "threads", c->threads);
	cJSON_AddStringToObject(item, "strategy", c->strategy);
	cJSON_AddStringToObject(item, "versus", c->versus);
	cJSON_AddStringToObject(item, "rx", rx_mode_names[c->rx]);
	cJSON_AddStringToObject(item, "versus_rx",
				rx_mode_names[c->rx_pair ? RX_COPY : c->rx]);
	cJSON_AddItemToObject(item, "stack", export_stack(&c->stack));
	cJSON_AddItemToObject(item, "versus_stack",
			      export_stack(&c->versus_stack));
	cJSON_AddStringToObject(item, "verdict",
				analysis_verdict_name(c->verdict));
	if (c->verdict == VERDICT_FROM)
		jsonfile_add_u64(item, "msg_size", c->msg_size);
	else
		cJSON_AddNullToObject(item, "msg_size");
	cJSON_AddNumberToObject(item, "runs", (double)c->runs);
	cJSON_AddNumberToObject(item, "intervals", (double)c->intervals);
	cJSON_AddNumberToObject(item, "fewest_runs", (double)c->fewest_runs);
	cJSON_AddNumberToObject(item, "most_runs", (double)c->most_runs);
	cJSON_AddItemToObject(item, "spread", number_or_null(true, c->spread));
	cJSON_AddBoolToObject(item, "suspect", c->suspect);
	list = cJSON_AddArrayToObject(item, "sizes");
	for (size_t j = 0; j < c->size_count; j++) {
		const struct analysis_size *z = &c->size[j];
		cJSON *size = cJSON_CreateObject();

		jsonfile_add_u64(size, "msg_size", z->msg_size);
		cJSON_AddStringToObject(
			size, "outcome",
			stats_outcome_name(z->difference.outcome));
		cJSON_AddItemToObject(
			size, "ratio",
			number_or_null(true, z->difference.ratio));
		cJSON_AddItemToObject(size, "low",
				      number_or_null(true, z->difference.low));
		cJSON_AddItemToObject(size, "high",
				      number_or_null(true, z->difference.high));
		cJSON_AddNumberToObject(size, "runs", (double)z->runs);
		cJSON_AddItemToObject(size, "spread",
				      number_or_null(true, z->spread));
		cJSON_AddItemToArray(list, size);
	}
	analysis_crossover_text(c, text, sizeof(text));
	cJSON_AddStringToObject(item, "text", text);
	return item;
}

/* The probe at a point: its tail under the load against alone and one-copy. */
static cJSON *export_probe_verdict(const struct analysis *a,
				   const struct analysis_probe *p)
{
	const struct analysis_point *pt = &a->points[p->point];
	const struct stats_difference *d = &p->versus;
	cJSON *item = cJSON_CreateObject(), *versus;
	char text[ANALYSIS_PROBE_TEXT_MAX];

	cJSON_AddStringToObject(item, "strategy", pt->key.strategy->name);
	jsonfile_add_u64(item, "msg_size", pt->key.msg_size);
	cJSON_AddNumberToObject(item, "threads", pt->key.threads);
	cJSON_AddStringToObject(item, "mode", run_mode_name(pt->key.mode));
	cJSON_AddStringToObject(item, "rx", rx_mode_names[pt->key.rx]);
	cJSON_AddItemToObject(item, "stack", export_stack(&pt->key.stack));
	cJSON_AddNumberToObject(item, "runs", (double)p->runs);
	cJSON_AddItemToObject(item, "gbps", number_or_null(true, p->gbps));
	cJSON_AddItemToObject(item, "idle_p99_us",
			      number_or_null(true, p->idle_p99_us));
	cJSON_AddItemToObject(item, "loaded_p50_us",
			      number_or_null(true, p->loaded_p50_us));
	cJSON_AddItemToObject(item, "loaded_p99_us",
			      number_or_null(true, p->loaded_p99_us));
	cJSON_AddItemToObject(item, "ratio", number_or_null(true, p->ratio));
	cJSON_AddItemToObject(item, "low", number_or_null(true, p->low));
	cJSON_AddItemToObject(item, "high", number_or_null(true, p->high));
	if (p->has_versus) {
		/* How many times one-copy's p99 this one's is, as said. */
		versus = cJSON_AddObjectToObject(item, "versus");
		cJSON_AddStringToObject(versus, "strategy", "one-copy");
		cJSON_AddItemToObject(versus, "gbps",
				      number_or_null(true, p->versus_gbps));
		cJSON_AddItemToObject(versus, "loaded_p99_us",
				      number_or_null(true, p->versus_p99_us));
		cJSON_AddStringToObject(versus, "outcome",
					stats_outcome_name(d->outcome));
		cJSON_AddItemToObject(versus, "ratio",
				      number_or_null(true, 1 / d->ratio));
		cJSON_AddItemToObject(versus, "low",
				      number_or_null(true, 1 / d->high));
		cJSON_AddItemToObject(versus, "high",
				      number_or_null(true, 1 / d->low));
	} else {
		cJSON_AddNullToObject(item, "versus");
	}
	analysis_probe_text(a, p, text, sizeof(text));
	cJSON_AddStringToObject(item, "text", text);
	return item;
}

/*
 * Where each stream point's time went: {"points": [{"point", "limit",
 * "sender", "receiver", "wakeups_per_msg", "rcvlowat", "text"}], "groups":
 * [text]}.
 */
static cJSON *export_waits(const struct analysis *a)
{
	static const char *const limits[] = {"cpu", "wakeups", "shared_cpu",
					     "unclear"};
	cJSON *obj = cJSON_CreateObject();
	cJSON *points = cJSON_AddArrayToObject(obj, "points");
	cJSON *groups = cJSON_AddArrayToObject(obj, "groups");
	char text[ANALYSIS_WAIT_TEXT];

	for (size_t i = 0; i < a->wait_count; i++) {
		const struct analysis_wait *w = &a->waits[i];
		cJSON *item = cJSON_CreateObject();

		cJSON_AddNumberToObject(item, "point", (double)w->point);
		cJSON_AddStringToObject(item, "limit", limits[w->limit]);
		for (int side = 0; side < 2; side++) {
			const struct analysis_side_time *t = &w->side[side];
			cJSON *part = cJSON_AddObjectToObject(
				item, side ? "receiver" : "sender");
			bool waited = t->largest < reason_count;

			cJSON_AddItemToObject(part, "cpu",
					      number_or_null(true, t->cpu));
			cJSON_AddItemToObject(
				part, "on_cpu_share",
				number_or_null(true, t->on_cpu / t->window));
			if (waited)
				cJSON_AddStringToObject(
					part, "largest",
					reasons[t->largest].key);
			else
				cJSON_AddNullToObject(part, "largest");
			cJSON_AddItemToObject(
				part, "largest_share",
				number_or_null(waited, t->wait[t->largest] /
							       t->window));
		}
		cJSON_AddItemToObject(item, "wakeups_per_msg",
				      number_or_null(true, w->wakeups_per_msg));
		if (w->mark_known)
			jsonfile_add_u64(item, "rcvlowat", w->rcvlowat);
		else
			cJSON_AddNullToObject(item, "rcvlowat");
		analysis_wait_text(a, w, text, sizeof(text));
		cJSON_AddStringToObject(item, "text", text);
		cJSON_AddItemToArray(points, item);
	}
	for (size_t i = 0; i < a->wait_group_count; i++)
		cJSON_AddItemToArray(groups,
				     cJSON_CreateString(a->wait_groups[i]));
	return obj;
}

cJSON *export_analysis(const struct session *s)
{
	const struct analysis *a = &s->analysis;
	cJSON *obj = cJSON_CreateObject(), *list;

	cJSON_AddNumberToObject(obj, "confidence", STATS_CONFIDENCE);
	cJSON_AddNumberToObject(obj, "min_effect", STATS_MIN_EFFECT);
	cJSON_AddNumberToObject(obj, "min_measured_s",
				(double)s->options.min_measured_ms / 1000);
	cJSON_AddNumberToObject(obj, "min_intervals", ANALYSIS_MIN_INTERVALS);
	cJSON_AddNumberToObject(obj, "runs", (double)a->runs);
	cJSON_AddNumberToObject(obj, "short_runs", (double)a->short_runs);
	cJSON_AddNumberToObject(obj, "stopped_runs", (double)a->stopped_runs);
	cJSON_AddItemToObject(obj, "analysed", export_analysed(s));
	list = cJSON_AddArrayToObject(obj, "points");
	for (size_t i = 0; i < a->point_count; i++) {
		const struct analysis_point *p = &a->points[i];
		const struct point_key *k = &p->key;
		bool rr = k->mode == RUN_RR;
		cJSON *item;

		if (!p->runs)
			continue;
		item = cJSON_CreateObject();
		cJSON_AddStringToObject(item, "strategy", k->strategy->name);
		jsonfile_add_u64(item, "msg_size", k->msg_size);
		cJSON_AddNumberToObject(item, "threads", k->threads);
		cJSON_AddStringToObject(item, "mode", run_mode_name(k->mode));
		cJSON_AddStringToObject(item, "rx", rx_mode_names[k->rx]);
		cJSON_AddItemToObject(item, "stack", export_stack(&k->stack));
		cJSON_AddStringToObject(item, "metric", rr ? "p50_us" : "gbps");
		cJSON_AddNumberToObject(item, "runs", (double)p->runs);
		cJSON_AddNumberToObject(item, "short_runs",
					(double)p->short_runs);
		cJSON_AddNumberToObject(item, "stopped_runs",
					(double)p->stopped_runs);
		cJSON_AddNumberToObject(item, "intervals",
					(double)p->intervals);
		cJSON_AddItemToObject(item, "median",
				      number_or_null(true, p->median));
		cJSON_AddItemToObject(item, "min",
				      number_or_null(true, p->min));
		cJSON_AddItemToObject(item, "max",
				      number_or_null(true, p->max));
		cJSON_AddItemToObject(item, "spread",
				      number_or_null(true, p->estimate.spread));
		cJSON_AddItemToObject(item, "p99_us_median",
				      number_or_null(rr, p->p99_median_us));
		cJSON_AddItemToArray(list, item);
	}
	list = cJSON_AddArrayToObject(obj, "crossovers");
	for (size_t i = 0; i < a->crossover_count; i++)
		cJSON_AddItemToArray(list, export_crossover(&a->crossovers[i]));
	list = cJSON_AddArrayToObject(obj, "probe");
	for (size_t i = 0; i < a->probe_count; i++)
		cJSON_AddItemToArray(list,
				     export_probe_verdict(a, &a->probes[i]));
	if (a->busy_why[0])
		cJSON_AddStringToObject(obj, "busy_host", a->busy_why);
	else
		cJSON_AddNullToObject(obj, "busy_host");
	if (a->zerocopy_why[0])
		cJSON_AddStringToObject(obj, "zerocopy", a->zerocopy_why);
	else
		cJSON_AddNullToObject(obj, "zerocopy");
	if (a->user_space_why[0])
		cJSON_AddStringToObject(obj, "user_space_only",
					a->user_space_why);
	else
		cJSON_AddNullToObject(obj, "user_space_only");
	if (a->counters_why[0])
		cJSON_AddStringToObject(obj, "rr_counters", a->counters_why);
	else
		cJSON_AddNullToObject(obj, "rr_counters");
	cJSON_AddItemToObject(obj, "waits", export_waits(a));
	return obj;
}

/* Writes item, printed, as a member at depth levels of indentation. */
static int write_item(struct outfile *f, const cJSON *item, int depth)
{
	char *text = item ? cJSON_Print(item) : NULL;
	const char *line = text;

	if (!text)
		return -ENOMEM;
	while (line) {
		const char *end = strchr(line, '\n');

		outfile_write(f, line,
			      end ? (size_t)(end - line + 1) : strlen(line));
		if (end)
			for (int i = 0; i < depth; i++)
				outfile_write(f, "\t", 1);
		line = end ? end + 1 : NULL;
	}
	cJSON_free(text);
	return 0;
}

cJSON *export_head(const struct session *s)
{
	cJSON *head = cJSON_CreateObject(), *tool;

	if (!head)
		return NULL;
	cJSON_AddStringToObject(head, "format", EXPORT_FORMAT);
	cJSON_AddNumberToObject(head, "version", EXPORT_VERSION);
	tool = cJSON_AddObjectToObject(head, "tool");
	cJSON_AddStringToObject(tool, "name", "nio-top");
	cJSON_AddStringToObject(tool, "version", NIO_TOP_VERSION);
	cJSON_AddStringToObject(head, "date", s->date);
	cJSON_AddItemToObject(head, "host", codec_host(&s->host));
	cJSON_AddItemToObject(head, "capabilities",
			      codec_capabilities(&s->host));
	cJSON_AddItemToObject(head, "environment",
			      s->has_env ? codec_environment(&s->env)
					 : cJSON_CreateNull());
	if (s->has_agent)
		cJSON_AddItemToObject(head, "agent", export_agent(&s->agent));
	cJSON_AddItemToObject(head, "config", export_config(s));
	/* Replays with -p: the options as a preset. */
	cJSON_AddItemToObject(head, "preset", options_to_preset(&s->options));
	return head;
}

int export_write(const char *path, const struct session *s, char **cause)
{
	cJSON *head = export_head(s), *item;
	struct outfile f;
	char *text;
	int r = 0;

	*cause = NULL;
	if (!head)
		return -ENOMEM;
	text = cJSON_Print(head);
	cJSON_Delete(head);
	if (!text)
		return -ENOMEM;

	outfile_open(&f, path);
	/* The head without its closing "\n}"; runs and analysis follow. */
	outfile_write(&f, text, strlen(text) - 2);
	cJSON_free(text);
	outfile_puts(&f, ",\n\t\"runs\":\t[");
	for (size_t i = 0; i < s->result_count && r == 0; i++) {
		outfile_puts(&f, i ? ",\n\t\t" : "\n\t\t");
		item = export_run(s, &s->results[i]);
		r = write_item(&f, item, 2);
		cJSON_Delete(item);
	}
	outfile_puts(&f, s->result_count ? "\n\t],\n\t\"analysis\":\t"
					 : "],\n\t\"analysis\":\t");
	item = export_analysis(s);
	if (r == 0)
		r = write_item(&f, item, 1);
	cJSON_Delete(item);
	if (r == 0 && s->crossover) {
		outfile_puts(&f, ",\n\t\"crossover\":\t");
		item = export_search(s->crossover);
		r = item ? write_item(&f, item, 1) : -ENOMEM;
		cJSON_Delete(item);
	}
	if (r == 0 && s->baseline) {
		outfile_puts(&f, ",\n\t\"baseline\":\t");
		r = write_item(&f, s->baseline, 1);
	}
	outfile_puts(&f, "\n}\n");
	if (r < 0 && !f.error)
		f.error = r;
	return outfile_commit(&f, cause);
}

/* Reading an export back. */

/* A number at key: *value, or an error naming path.key. */
static int load_number(const cJSON *obj, const char *key, const char *path,
		       double *value, char **cause)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) ||
	    v->valuedouble < 0)
		return cause_set(cause, -EINVAL, "%s.%s: must be a number >= 0",
				 path, key);
	*value = v->valuedouble;
	return 0;
}

/* path + suffix, cut if it must be (it only names where, in a message). */
static void join(char *out, size_t size, const char *path, const char *suffix)
{
	if (snprintf(out, size, "%s%s", path, suffix) >= (int)size)
		out[size - 1] = '\0';
}

static int load_side(const cJSON *obj, const char *path,
		     const struct counter_set *set,
		     struct run_side_counters *side, char **cause)
{
	const cJSON *counters = cJSON_GetObjectItemCaseSensitive(obj,
								 "counters");
	char at[8192];

	join(at, sizeof(at), path, ".derived");
	if (codec_read_metrics(cJSON_GetObjectItemCaseSensitive(obj, "derived"),
			       &side->derived, true, at, CODEC_FILE, cause) < 0)
		return -EINVAL;
	for (unsigned int i = 0; i < set->count; i++) {
		const cJSON *c = cJSON_GetObjectItemCaseSensitive(
			counters, set->event[i].name);

		side->value[i] = (struct counter_value){
			.status = COUNTER_NOT_COUNTED,
			.value = NAN,
			.running_pct = NAN,
		};
		if (!c)
			continue;
		char key[64];

		snprintf(key, sizeof(key), ".counters.%s", set->event[i].name);
		join(at, sizeof(at), path, key);
		if (codec_read(&counter_value_record, c, &side->value[i], at,
			       CODEC_FILE, cause) < 0)
			return -EINVAL;
	}
	return 0;
}

static int load_intervals(const cJSON *list, const char *path,
			  struct run_result *r, char **cause)
{
	const cJSON *item;
	char at[8192];
	size_t n = 0;

	if (!cJSON_IsArray(list))
		return cause_set(cause, -EINVAL, "%s.intervals: must be a list",
				 path);
	r->intervals = calloc((size_t)cJSON_GetArraySize(list) + 1,
			      sizeof(*r->intervals));
	if (!r->intervals)
		return -ENOMEM;
	cJSON_ArrayForEach(item, list)
	{
		struct run_interval *iv = &r->intervals[n];
		const cJSON *side;

		snprintf(at, sizeof(at), "%s.intervals[%zu]", path, n);
		r->interval_count = ++n;
		metric_values_unknown(&iv->side[0]);
		metric_values_unknown(&iv->side[1]);
		iv->length_s = NAN;
		if (codec_read(&run_interval_record, item, iv, at, CODEC_FILE,
			       cause) < 0)
			return -EINVAL;
		/* Exports before merging had 100 ms intervals end to end. */
		if (isnan(iv->length_s))
			iv->length_s = n > 1 ? iv->t_s - iv[-1].t_s : iv->t_s;
		iv->warmup = cJSON_IsTrue(
			cJSON_GetObjectItemCaseSensitive(item, "warmup"));
		for (int s = 0; s < 2 && r->counted; s++) {
			double delivered[METRICS_MAX];

			side = cJSON_GetObjectItemCaseSensitive(
				item, s ? "receiver" : "sender");
			if (!side)
				continue;
			memcpy(delivered, iv->side[s].value, sizeof(delivered));
			if (codec_read_metrics(side, &iv->side[s], true, at,
					       CODEC_FILE, cause) < 0)
				return -EINVAL;
			for (size_t m = 0; m < metric_count; m++)
				if (metrics[m].delivered)
					iv->side[s].value[m] = delivered[m];
		}
	}
	return 0;
}

/*
 * Each side's profile, or its time (time), where it was sampled:
 * {"sender", "receiver"}.
 */
static int load_sampled(const cJSON *obj, const char *path,
			struct run_result *r, bool time, char **cause)
{
	const char *key = time ? "time" : "profile";
	const cJSON *part = cJSON_GetObjectItemCaseSensitive(obj, key);
	char at[8192];

	if (!part || cJSON_IsNull(part))
		return 0; /* an export older than them, or none taken */
	for (int side = 0; side < 2; side++) {
		const char *name = side ? "receiver" : "sender";
		const cJSON *p = cJSON_GetObjectItemCaseSensitive(part, name);

		snprintf(at, sizeof(at), "%s.%s.%s", path, key, name);
		if (!p || cJSON_IsNull(p))
			continue;
		if (time ? codec_read_time(p, &r->time[side], at, CODEC_FILE,
					   cause)
			 : codec_read_profile(p, &r->profile[side], at,
					      CODEC_FILE, cause))
			return -EINVAL;
	}
	return 0;
}

/*
 * A part of each end (key: sender, receiver) read through rec into
 * values[side], has[side] saying which were there: 0 or -EINVAL.  Older
 * exports lack the part.
 */
static int load_ends(const cJSON *obj, const char *path, const char *key,
		     const struct record *rec, void *values, size_t size,
		     bool has[2], char **cause)
{
	const cJSON *ends = cJSON_GetObjectItemCaseSensitive(obj, key);
	char at[4300];

	has[0] = has[1] = false;
	if (!ends || cJSON_IsNull(ends))
		return 0;
	if (!cJSON_IsObject(ends))
		return cause_set(cause, -EINVAL,
				 "%s.%s: must be an object or null", path, key);
	for (int side = 0; side < 2; side++) {
		const char *name = side ? "receiver" : "sender";
		const cJSON *part = cJSON_GetObjectItemCaseSensitive(ends,
								     name);

		snprintf(at, sizeof(at), "%s.%s.%s", path, key, name);
		has[side] = cJSON_IsObject(part);
		if (has[side] &&
		    codec_read(rec, part, (char *)values + side * size, at,
			       CODEC_FILE, cause) < 0)
			return -EINVAL;
	}
	return 0;
}

/*
 * Each end's socket as the kernel made it, and the links as the run had
 * them.
 */
/*
 * A run's probe, where its settings had one: its windows, checked as
 * figures the probe could have had, and its counts.  A probe that never
 * started (its windows null) is none.
 */
static int load_probe(const cJSON *obj, const char *path, struct run_result *r,
		      char **cause)
{
	const struct probe_settings *set = &r->config.settings.probe;
	const cJSON *probe = cJSON_GetObjectItemCaseSensitive(obj, "probe");
	double alone_s = (double)probe_idle_ms(&r->config.settings) / 1e3;
	char at[8192], *why = NULL;
	struct {
		const char *key;
		struct probe_summary *w;
		double span_s;
	} windows[] = {
		{"idle", &r->probe.idle, alone_s},
		{"loaded", &r->probe.loaded,
		 run_span_s(&r->config, r->measured_s)},
	};

	r->probe = (struct run_probe){.requester_cpu = -1, .answerer_cpu = -1};
	if (!set->rate_hz || !cJSON_IsObject(probe) ||
	    cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(probe, "idle")))
		return 0;
	snprintf(at, sizeof(at), "%s.probe", path);
	if (codec_read(&run_probe_record, probe, &r->probe, at, CODEC_FILE,
		       cause) < 0)
		return -EINVAL;
	for (size_t i = 0; i < 2; i++) {
		snprintf(at, sizeof(at), "%s.probe.%s", path, windows[i].key);
		if (codec_read_probe_window(cJSON_GetObjectItemCaseSensitive(
						    probe, windows[i].key),
					    windows[i].w, at, cause) < 0)
			return -EINVAL;
		if (probe_summary_check(windows[i].w, set, windows[i].span_s,
					&why) < 0) {
			cause_set(cause, -EINVAL, "%s.%s", at, why);
			free(why);
			return -EINVAL;
		}
	}
	r->probe.present = true;
	return 0;
}

static int load_sockets(const cJSON *obj, const char *path,
			struct run_result *r, char **cause)
{
	bool stack[2], before[2], start[2];

	if (load_ends(obj, path, "socket", &sock_state_record, r->socket,
		      sizeof(r->socket[0]), r->has_socket, cause) < 0 ||
	    load_ends(obj, path, "socket_start", &sock_state_record,
		      r->socket_start, sizeof(r->socket_start[0]), start,
		      cause) < 0 ||
	    load_ends(obj, path, "stack", &topo_stack_record, r->stack,
		      sizeof(r->stack[0]), stack, cause) < 0 ||
	    load_ends(obj, path, "stack_before", &topo_stack_record,
		      r->stack_before, sizeof(r->stack_before[0]), before,
		      cause) < 0)
		return -EINVAL;
	/* A file from before the window's start was kept says one state. */
	for (int side = 0; side < 2; side++)
		if (!start[side])
			r->socket_start[side] = r->socket[side];
	r->has_stack = stack[0] && stack[1] && before[0] && before[1];
	return 0;
}

/* "host_load", null or absent (older files): not known. */
static int load_host_load(const cJSON *obj, const char *path,
			  struct run_host_load *load, char **cause)
{
	const cJSON *part = cJSON_GetObjectItemCaseSensitive(obj, "host_load");
	char at[8192];

	*load = (struct run_host_load){0};
	if (!part || cJSON_IsNull(part))
		return 0;
	snprintf(at, sizeof(at), "%s.host_load", path);
	if (codec_read(&run_host_load_record, part, load, at, CODEC_FILE,
		       cause) < 0)
		return -EINVAL;
	if (!(load->steal_pct >= 0 && load->steal_pct <= 100) ||
	    !(load->outside_cpus >= 0 && load->outside_cpus <= 1e6) ||
	    !(load->irq_cpus >= 0 && load->irq_cpus <= 1e6))
		return cause_set(cause, -EINVAL,
				 "%s: steal_pct must be 0 .. 100, "
				 "outside_cpus and irq_cpus 0 or more",
				 at);
	load->known = true;
	return 0;
}

/*
 * Figures that a run cannot have: rates beyond what its totals hold (or,
 * for a run that did not fail, far below), round trips out of order or
 * longer than the run.  A failed run's window may have delivered nothing.
 */
static int load_plausible(const struct run_result *r, bool failed,
			  const char *path, char **cause)
{
	char *why = NULL;
	int err;

	if (run_rates_check(&r->totals, &r->receiver.derived, r->measured_s,
			    failed ? 0 : run_span_s(&r->config, r->measured_s),
			    &why) < 0)
		err = cause_set(cause, -EINVAL, "%s.%s", path, why);
	else if (r->config.mode == RUN_RR &&
		 latency_summary_check(
			 &r->latency,
			 r->measured_s +
				 (double)r->config.settings.warmup_ms / 1e3,
			 r->config.threads, &why) < 0)
		err = cause_set(cause, -EINVAL, "%s.latency_us.%s", path, why);
	else
		err = 0;
	free(why);
	return err;
}

static int load_run(const cJSON *obj, const char *path, struct session *s,
		    struct run_result *r, char **cause)
{
	const struct run_config base = session_base(s);
	const cJSON *part;
	char events[COUNTERS_MAX][48], at[8192];
	unsigned int event_count;
	const char *error;

	*r = (struct run_result){.config = base};
	r->config.counters = &s->loaded_counters;
	metric_values_unknown(&r->sender.derived);
	metric_values_unknown(&r->receiver.derived);
	if (!cJSON_IsObject(obj))
		return cause_set(cause, -EINVAL, "%s: must be an object", path);
	if (options_run_from_json(obj, path, CODEC_FILE, true, &r->config,
				  events, &event_count, cause) < 0)
		return -EINVAL;
	part = cJSON_GetObjectItemCaseSensitive(obj, "agent_side");
	if (part) {
		int side = RUN_SENDERS;

		while (side <= RUN_RECEIVERS && cJSON_IsString(part) &&
		       strcmp(part->valuestring, run_role_names[side]) != 0)
			side++;
		if (side > RUN_RECEIVERS || !cJSON_IsString(part))
			return cause_set(cause, -EINVAL,
					 "%s.agent_side: must be \"senders\" "
					 "or \"receivers\"",
					 path);
		r->config.role = run_role_peer((enum run_role)side);
	}
	/* Exports older than the mark lack it: never stopped. */
	if (cJSON_GetObjectItemCaseSensitive(obj, "stopped_s") &&
	    load_number(obj, "stopped_s", path, &r->stopped_s, cause) < 0)
		return -EINVAL;
	/* The summary's delivered figures are the receiver's derived ones. */
	r->sampling_effect = NAN; /* unless the summary says */
	if (load_sampled(obj, path, r, false, cause) < 0 ||
	    load_sampled(obj, path, r, true, cause) < 0 ||
	    codec_read(&run_summary_record, obj, r, path, CODEC_FILE, cause) ||
	    codec_read_totals(obj, &r->totals, r->config.settings.rx, path,
			      CODEC_FILE, cause))
		return -EINVAL;
	r->config.settings.verify = cJSON_IsTrue(
		cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(obj, "integrity"),
			"verified"));
	part = cJSON_GetObjectItemCaseSensitive(obj, "latency_us");
	snprintf(at, sizeof(at), "%s.latency_us", path);
	if (r->config.mode == RUN_RR &&
	    codec_read(&latency_summary_record, part, &r->latency, at,
		       CODEC_FILE, cause) < 0)
		return -EINVAL;
	if (load_plausible(r,
			   cJSON_IsString(cJSON_GetObjectItemCaseSensitive(
				   obj, "error")),
			   path, cause) < 0)
		return -EINVAL;
	if (load_sockets(obj, path, r, cause) < 0 ||
	    load_host_load(obj, path, &r->host_load, cause) < 0 ||
	    load_probe(obj, path, r, cause) < 0)
		return -EINVAL;
	part = cJSON_GetObjectItemCaseSensitive(obj, "link");
	snprintf(at, sizeof(at), "%s.link", path);
	r->has_link = cJSON_IsObject(part);
	if (r->has_link && codec_read(&topo_link_stats_record, part, &r->link,
				      at, CODEC_FILE, cause) < 0)
		return -EINVAL;
	r->counted = cJSON_IsObject(
			     cJSON_GetObjectItemCaseSensitive(obj, "sender")) &&
		     cJSON_IsObject(
			     cJSON_GetObjectItemCaseSensitive(obj, "receiver"));
	for (int side = 0; side < 2 && r->counted; side++) {
		struct run_side_counters *c = side ? &r->receiver : &r->sender;
		double delivered[METRICS_MAX];

		snprintf(at, sizeof(at), "%s.%s", path,
			 side ? "receiver" : "sender");
		memcpy(delivered, c->derived.value, sizeof(delivered));
		if (load_side(cJSON_GetObjectItemCaseSensitive(
				      obj, side ? "receiver" : "sender"),
			      at, &s->loaded_counters, c, cause) < 0)
			return -EINVAL;
		for (size_t m = 0; m < metric_count; m++)
			if (metrics[m].delivered && side)
				c->derived.value[m] = delivered[m];
	}
	if (load_intervals(cJSON_GetObjectItemCaseSensitive(obj, "intervals"),
			   path, r, cause) < 0)
		return -EINVAL;
	part = cJSON_GetObjectItemCaseSensitive(obj, "error");
	error = cJSON_IsString(part) ? part->valuestring : NULL;
	if (part && !cJSON_IsNull(part) && !error)
		return cause_set(cause, -EINVAL,
				 "%s.error: must be text or null", path);
	if (error) {
		r->error = strdup(error);
		if (!r->error)
			return -ENOMEM;
	}
	return 0;
}

int export_load(const char *path, struct session *s, struct options *o,
		char **cause)
{
	struct jsonfile_list *runs;
	cJSON *head;
	int r;

	*cause = NULL;
	session_init(s);
	/* Run by run: a long export holds its text and its runs, no tree. */
	r = jsonfile_read_list(path, PRESET_EXPORT_MAX, "runs", &head, &runs,
			       cause);
	if (r < 0)
		return -EINVAL;
	r = export_from_json(head, runs, path, s, o, cause);
	jsonfile_list_free(runs);
	cJSON_Delete(head);
	return r;
}

/* The other host of a two-host export, as it described itself. */
static int load_agent(const cJSON *agent, const char *path, struct session *s,
		      char **cause)
{
	const cJSON *address = cJSON_GetObjectItemCaseSensitive(agent,
								"address");
	const cJSON *tool = cJSON_GetObjectItemCaseSensitive(agent, "tool");
	char host[4200], capabilities[4200];

	if (!cJSON_IsString(address) || !cJSON_IsString(tool))
		return cause_set(cause, -EINVAL,
				 "%s: agent: must have an address and a tool",
				 path);
	snprintf(s->agent.address, sizeof(s->agent.address), "%s",
		 address->valuestring);
	snprintf(s->agent.tool, sizeof(s->agent.tool), "%s", tool->valuestring);
	snprintf(host, sizeof(host), "%s: agent.host", path);
	snprintf(capabilities, sizeof(capabilities), "%s: agent.capabilities",
		 path);
	s->has_agent = true;
	return codec_read_host(
		cJSON_GetObjectItemCaseSensitive(agent, "host"),
		cJSON_GetObjectItemCaseSensitive(agent, "capabilities"),
		&s->agent.host, host, capabilities, CODEC_FILE, cause);
}

/*
 * What the network was as the runs say (every run holds it): the MTU and
 * the time it took to build, so that an export written again says them.
 */
static void load_topology(const cJSON *topology, struct topo *topo)
{
	const cJSON *mtu = cJSON_GetObjectItemCaseSensitive(topology, "mtu");
	const cJSON *ms = cJSON_GetObjectItemCaseSensitive(topology,
							   "setup_ms");

	if (cJSON_IsNumber(mtu) && mtu->valuedouble >= TOPO_MTU_MIN &&
	    mtu->valuedouble <= TOPO_MTU_MAX)
		topo->mtu = (unsigned int)mtu->valuedouble;
	if (cJSON_IsNumber(ms) && ms->valuedouble >= 0 &&
	    isfinite(ms->valuedouble))
		topo->setup_ms = ms->valuedouble;
}

/* Files older than the environment have none (null or absent). */
static int load_environment(const cJSON *root, const char *path,
			    struct session *s, char **cause)
{
	const cJSON *env = cJSON_GetObjectItemCaseSensitive(root,
							    "environment");
	char where[4200];

	if (!env || cJSON_IsNull(env))
		return 0;
	snprintf(where, sizeof(where), "%s: environment", path);
	if (codec_read_environment(env, &s->env, where, cause) < 0)
		return -EINVAL;
	s->has_env = true;
	return 0;
}

int export_from_json(const cJSON *root, struct jsonfile_list *runs,
		     const char *path, struct session *s, struct options *o,
		     char **cause)
{
	const cJSON *format, *version, *agent;
	cJSON *run = NULL;
	const char *names[COUNTERS_MAX];
	char where[4200], capabilities[4200];
	size_t n = 0;
	int r;

	*cause = NULL;
	session_init(s);
	format = cJSON_GetObjectItemCaseSensitive(root, "format");
	version = cJSON_GetObjectItemCaseSensitive(root, "version");
	if (!cJSON_IsString(format) ||
	    strcmp(format->valuestring, EXPORT_FORMAT) != 0) {
		r = cause_set(cause, -EINVAL,
			      "%s: format: not an export (\"%s\")", path,
			      EXPORT_FORMAT);
		goto out;
	}
	if (!cJSON_IsNumber(version) ||
	    version->valuedouble != EXPORT_VERSION) {
		r = cause_set(cause, -EINVAL,
			      "%s: version: not supported (this nio-top reads "
			      "version %d)",
			      path, EXPORT_VERSION);
		goto out;
	}
	snprintf(where, sizeof(where), "%s: preset", path);
	if (!cJSON_GetObjectItemCaseSensitive(root, "preset")) {
		r = cause_set(cause, -EINVAL,
			      "%s: missing (an export holds the options its "
			      "runs were made with)",
			      where);
		goto out;
	}
	o->viewing_only = true;
	r = options_from_preset(
		cJSON_GetObjectItemCaseSensitive(root, "preset"), where, o,
		cause);
	if (r < 0)
		goto out;
	/* The counters as saved: names only, nothing asked of libpfm4. */
	o->counters_enabled = !o->no_counters &&
			      (o->event_count || !options_given(o, "events"));
	for (size_t i = 0; i < o->event_count; i++)
		names[i] = o->events[i];
	counters_named(names, (unsigned int)o->event_count,
		       &s->loaded_counters);
	s->options = *o;
	s->options.counters = s->loaded_counters;
	/* Files before the date was written have none. */
	if (cJSON_IsString(cJSON_GetObjectItemCaseSensitive(root, "date")))
		snprintf(s->date, sizeof(s->date), "%s",
			 cJSON_GetObjectItemCaseSensitive(root, "date")
				 ->valuestring);
	s->topo.options = o->topo;
	snprintf(where, sizeof(where), "%s: host", path);
	snprintf(capabilities, sizeof(capabilities), "%s: capabilities", path);
	r = codec_read_host(
		cJSON_GetObjectItemCaseSensitive(root, "host"),
		cJSON_GetObjectItemCaseSensitive(root, "capabilities"),
		&s->host, where, capabilities, CODEC_FILE, cause);
	agent = cJSON_GetObjectItemCaseSensitive(root, "agent");
	if (r == 0 && agent)
		r = load_agent(agent, path, s, cause);
	if (r == 0)
		r = load_environment(root, path, s, cause);
	if (r < 0)
		goto out;
	if (!cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(root, "runs"))) {
		r = cause_set(cause, -EINVAL, "%s: runs: must be a list", path);
		goto out;
	}
	s->results = calloc(jsonfile_list_count(runs) + 1, sizeof(*s->results));
	if (!s->results) {
		r = -ENOMEM;
		goto out;
	}
	/* One run's tree at a time; the first says what the network was. */
	while ((r = jsonfile_list_next(runs, &run, cause)) == 1) {
		snprintf(where, sizeof(where), "%s: runs[%zu]", path, n);
		r = load_run(run, where, s, &s->results[s->result_count],
			     cause);
		s->result_count++;
		if (r == 0 && n++ == 0)
			load_topology(cJSON_GetObjectItemCaseSensitive(
					      run, "topology"),
				      &s->topo);
		cJSON_Delete(run);
		if (r < 0)
			goto out;
	}
	if (r < 0)
		goto out;
	session_analyse(s);
	if (cJSON_GetObjectItemCaseSensitive(root, "crossover")) {
		snprintf(where, sizeof(where), "%s: crossover", path);
		r = export_search_load(
			cJSON_GetObjectItemCaseSensitive(root, "crossover"),
			where, s, cause);
	}
out:
	if (r < 0)
		session_close(s);
	return r;
}
