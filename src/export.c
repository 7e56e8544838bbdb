/*
 * JSON export.  Counters are 64-bit and must survive exactly, but cJSON keeps
 * numbers as doubles (exact only up to 2^53), so they are written as raw
 * decimal text.  Rates are doubles and written as such.
 */
#include <arpa/inet.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "analysis.h"
#include "hostinfo.h"
#include "remote.h"
#include "jsonfile.h"
#include "outfile.h"
#include "preset.h"

cJSON *export_host(const struct host_info *host)
{
	cJSON *obj = cJSON_CreateObject();

	cJSON_AddStringToObject(obj, "kernel", host->kernel);
	cJSON_AddStringToObject(obj, "cpu_model", host->cpu_model);
	cJSON_AddNumberToObject(obj, "cpus", (double)host->cpus);
	return obj;
}

static cJSON *availability(bool available, const char *reason)
{
	cJSON *obj = cJSON_CreateObject();

	cJSON_AddBoolToObject(obj, "available", available);
	if (available || !reason)
		cJSON_AddNullToObject(obj, "reason");
	else
		cJSON_AddStringToObject(obj, "reason", reason);
	return obj;
}

static cJSON *capability(const struct capability *cap)
{
	return availability(cap->available, cap->reason);
}

static void add_optional(cJSON *obj, const char *key, bool present,
			 double value)
{
	if (present)
		cJSON_AddNumberToObject(obj, key, value);
	else
		cJSON_AddNullToObject(obj, key);
}

static cJSON *export_topology(const struct topo *topo)
{
	const struct topo_options *o = &topo->options;
	cJSON *obj = cJSON_CreateObject();
	char subnet[INET_ADDRSTRLEN + 4];

	cJSON_AddStringToObject(obj, "kind", topo_kind_name(o->kind));
	add_optional(obj, "mtu", topo->mtu, topo->mtu);
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
	add_optional(obj, "delay_ms", o->delay_us, o->delay_us / 1000.0);
	add_optional(obj, "loss_pct", o->loss_pct > 0, o->loss_pct);
	if (o->keep_prefix)
		cJSON_AddStringToObject(obj, "keep_netns", o->keep_prefix);
	else
		cJSON_AddNullToObject(obj, "keep_netns");
	if (topo->remote)
		cJSON_AddStringToObject(obj, "agent",
					remote_name(topo->remote));
	cJSON_AddNumberToObject(obj, "setup_ms", topo->setup_ms);
	return obj;
}

/* The other host of a --connect session, as it described itself. */
static cJSON *export_agent(const struct remote *remote)
{
	cJSON *obj = cJSON_CreateObject();

	cJSON_AddStringToObject(obj, "address", remote_name(remote));
	cJSON_AddStringToObject(obj, "tool", remote_tool(remote));
	cJSON_AddItemToObject(obj, "host",
			      cJSON_Duplicate(remote_host(remote), true));
	cJSON_AddItemToObject(
		obj, "capabilities",
		cJSON_Duplicate(remote_capabilities(remote), true));
	return obj;
}

static cJSON *export_link(const struct run_result *r)
{
	cJSON *obj;

	if (!r->has_link)
		return cJSON_CreateNull();
	obj = cJSON_CreateObject();
	jsonfile_add_u64(obj, "tx_bytes", r->link.tx_bytes);
	jsonfile_add_u64(obj, "rx_bytes", r->link.rx_bytes);
	jsonfile_add_u64(obj, "tx_packets", r->link.tx_packets);
	jsonfile_add_u64(obj, "rx_packets", r->link.rx_packets);
	return obj;
}

static cJSON *export_counter(const struct counter_value *v)
{
	cJSON *obj = cJSON_CreateObject();

	if (v->has_value)
		jsonfile_add_u64(obj, "value", (uint64_t)llround(v->value));
	else
		cJSON_AddNullToObject(obj, "value");
	cJSON_AddStringToObject(obj, "status", counter_status_name(v->status));
	add_optional(obj, "running_pct", v->has_value, v->running_pct);
	if (v->reason[0])
		cJSON_AddStringToObject(obj, "reason", v->reason);
	else
		cJSON_AddNullToObject(obj, "reason");
	return obj;
}

static cJSON *export_derived(const struct counter_derived *d)
{
	cJSON *obj = cJSON_CreateObject();

	for (size_t i = 0; i < counter_derived_field_count; i++) {
		double v = *(const double *)((const char *)d +
					     counter_derived_fields[i].offset);

		add_optional(obj, counter_derived_fields[i].key, !isnan(v), v);
	}
	return obj;
}

static cJSON *export_side(const struct counter_set *set,
			  const struct run_side_counters *side)
{
	cJSON *obj = cJSON_CreateObject();
	cJSON *counters = cJSON_AddObjectToObject(obj, "counters");

	for (unsigned int i = 0; i < set->count; i++)
		cJSON_AddItemToObject(counters, set->event[i].name,
				      export_counter(&side->value[i]));
	cJSON_AddItemToObject(obj, "derived", export_derived(&side->derived));
	return obj;
}

static cJSON *export_pmu(const struct host_info *host)
{
	cJSON *obj = capability(&host->pmu);
	cJSON *events = cJSON_AddObjectToObject(obj, "events");

	for (unsigned int i = 0; host->events && i < host->events->count; i++)
		cJSON_AddStringToObject(
			events, host->events->event[i].name,
			counter_status_name(host->event[i].status));
	return obj;
}

cJSON *export_capabilities(const struct host_info *host)
{
	cJSON *obj = cJSON_CreateObject();
	cJSON *strategies = cJSON_CreateObject();

	cJSON_AddItemToObject(obj, "netns", capability(&host->netns));
	cJSON_AddItemToObject(obj, "veth", capability(&host->veth));
	cJSON_AddItemToObject(obj, "tbf", capability(&host->tbf));
	cJSON_AddItemToObject(obj, "netem", capability(&host->netem));
	cJSON_AddItemToObject(obj, "pmu", export_pmu(host));
	for (size_t i = 0; i < strategy_count(); i++) {
		const struct strategy_ops *ops = strategy_at(i);
		char *why = NULL;
		int r = strategy_probe(ops, &why);

		if (ops == &strategy_zero_copy)
			cJSON_AddItemToObject(obj, "zerocopy",
					      availability(r == 0, why));
		cJSON_AddItemToObject(strategies, ops->name,
				      availability(r == 0, why));
		free(why);
	}
	cJSON_AddItemToObject(obj, "strategies", strategies);
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
	cJSON *obj = preset_from_options(&s->options);

	for (size_t i = 0; i < sizeof(not_config) / sizeof(*not_config); i++)
		cJSON_DeleteItemFromObjectCaseSensitive(obj, not_config[i]);
	cJSON_AddItemToObject(obj, "topology", export_topology(&s->topo));
	return obj;
}

static cJSON *export_latency(const struct latency_summary *l)
{
	cJSON *obj = cJSON_CreateObject();

	jsonfile_add_u64(obj, "round_trips", l->count);
	cJSON_AddNumberToObject(obj, "p50", l->p50_us);
	cJSON_AddNumberToObject(obj, "p90", l->p90_us);
	cJSON_AddNumberToObject(obj, "p99", l->p99_us);
	cJSON_AddNumberToObject(obj, "p99_9", l->p99_9_us);
	cJSON_AddNumberToObject(obj, "max", l->max_us);
	cJSON_AddNumberToObject(obj, "mean", l->mean_us);
	return obj;
}

static cJSON *export_run(const struct run_result *r, const struct topo *topo)
{
	const struct run_totals *t = &r->totals;
	cJSON *obj = cJSON_CreateObject();
	cJSON *integrity, *zc, *intervals;

	cJSON_AddStringToObject(obj, "strategy", r->config.strategy->name);
	jsonfile_add_u64(obj, "msg_size", r->config.msg_size);
	cJSON_AddNumberToObject(obj, "threads", r->config.threads);
	cJSON_AddNumberToObject(obj, "round", r->config.round);
	cJSON_AddStringToObject(obj, "mode", run_mode_name(r->config.mode));
	cJSON_AddItemToObject(obj, "topology", export_topology(topo));
	/* Over two hosts: which ends the agent ran (the others ran here). */
	if (r->config.role != RUN_BOTH)
		cJSON_AddStringToObject(
			obj, "agent_side",
			run_role_name(run_role_peer(r->config.role)));
	cJSON_AddItemToObject(obj, "link", export_link(r));
	cJSON_AddNumberToObject(obj, "duration_s",
				(double)r->config.duration_ms / 1000);
	cJSON_AddNumberToObject(obj, "warmup_s",
				(double)r->config.warmup_ms / 1000);
	cJSON_AddNumberToObject(obj, "measured_s", r->measured_s);
	jsonfile_add_u64(obj, "messages_sent", t->messages_sent);
	jsonfile_add_u64(obj, "messages_received", t->messages_received);
	jsonfile_add_u64(obj, "bytes_sent", t->bytes_sent);
	jsonfile_add_u64(obj, "bytes_received", t->bytes_received);
	cJSON_AddNumberToObject(obj, "gbps", r->gbps);
	cJSON_AddNumberToObject(obj, "msgs_per_s", r->msgs_per_s);

	if (r->config.mode == RUN_RR)
		cJSON_AddItemToObject(obj, "latency_us",
				      export_latency(&r->latency));
	else
		cJSON_AddNullToObject(obj, "latency_us");

	integrity = cJSON_AddObjectToObject(obj, "integrity");
	cJSON_AddBoolToObject(integrity, "verified", r->config.verify);
	jsonfile_add_u64(integrity, "checked", t->checked);
	jsonfile_add_u64(integrity, "corrupt", t->corrupt);

	if (r->config.strategy->zerocopy) {
		zc = cJSON_AddObjectToObject(obj, "zerocopy");
		jsonfile_add_u64(zc, "sends", t->zc_sends);
		jsonfile_add_u64(zc, "completions", t->zc_completions);
		jsonfile_add_u64(zc, "copied", t->zc_copied);
		jsonfile_add_u64(zc, "enobufs", t->zc_enobufs);
	} else {
		cJSON_AddNullToObject(obj, "zerocopy");
	}

	if (r->counted) {
		cJSON_AddItemToObject(
			obj, "sender",
			export_side(r->config.counters, &r->sender));
		cJSON_AddItemToObject(
			obj, "receiver",
			export_side(r->config.counters, &r->receiver));
	} else {
		cJSON_AddNullToObject(obj, "sender");
		cJSON_AddNullToObject(obj, "receiver");
	}

	intervals = cJSON_AddArrayToObject(obj, "intervals");
	for (size_t i = 0; i < r->interval_count; i++) {
		const struct run_interval *iv = &r->intervals[i];
		cJSON *item = cJSON_CreateObject();

		cJSON_AddNumberToObject(item, "t_s", iv->t_s);
		cJSON_AddNumberToObject(item, "gbps", iv->gbps);
		cJSON_AddNumberToObject(item, "msgs_per_s", iv->msgs_per_s);
		cJSON_AddBoolToObject(item, "warmup", iv->warmup);
		if (r->counted) {
			cJSON_AddItemToObject(item, "sender",
					      export_derived(&iv->sender));
			cJSON_AddItemToObject(item, "receiver",
					      export_derived(&iv->receiver));
		}
		cJSON_AddItemToArray(intervals, item);
	}
	if (r->error)
		cJSON_AddStringToObject(obj, "error", r->error);
	else
		cJSON_AddNullToObject(obj, "error");
	return obj;
}

static cJSON *export_analysis(const struct session *s)
{
	cJSON *obj = cJSON_CreateObject(), *list;
	struct analysis a;
	char text[256];

	if (analysis_build(s->results, s->result_count, &a) < 0)
		return obj;
	cJSON_AddNumberToObject(obj, "margin", ANALYSIS_MARGIN);
	list = cJSON_AddArrayToObject(obj, "points");
	for (size_t i = 0; i < a.point_count; i++) {
		const struct analysis_point *p = &a.points[i];
		cJSON *item = cJSON_CreateObject();

		cJSON_AddStringToObject(item, "strategy", p->strategy->name);
		jsonfile_add_u64(item, "msg_size", p->msg_size);
		cJSON_AddNumberToObject(item, "threads", p->threads);
		cJSON_AddStringToObject(item, "mode", run_mode_name(p->mode));
		cJSON_AddStringToObject(item, "metric",
					p->mode == RUN_RR ? "p50_us" : "gbps");
		cJSON_AddNumberToObject(item, "runs", (double)p->runs);
		add_optional(item, "median", p->runs, p->median);
		add_optional(item, "min", p->runs, p->min);
		add_optional(item, "max", p->runs, p->max);
		add_optional(item, "p99_us_median",
			     p->runs && p->mode == RUN_RR, p->p99_median_us);
		cJSON_AddItemToArray(list, item);
	}
	list = cJSON_AddArrayToObject(obj, "crossovers");
	for (size_t i = 0; i < a.crossover_count; i++) {
		const struct analysis_crossover *c = &a.crossovers[i];
		cJSON *item = cJSON_CreateObject();

		cJSON_AddNumberToObject(item, "threads", c->threads);
		cJSON_AddStringToObject(item, "strategy", c->strategy);
		cJSON_AddStringToObject(item, "versus", c->versus);
		cJSON_AddStringToObject(item, "verdict",
					analysis_verdict_name(c->verdict));
		if (c->verdict == VERDICT_FROM)
			jsonfile_add_u64(item, "msg_size", c->msg_size);
		else
			cJSON_AddNullToObject(item, "msg_size");
		analysis_crossover_text(c, text, sizeof(text));
		cJSON_AddStringToObject(item, "text", text);
		cJSON_AddItemToArray(list, item);
	}
	if (a.zerocopy_why[0])
		cJSON_AddStringToObject(obj, "zerocopy", a.zerocopy_why);
	else
		cJSON_AddNullToObject(obj, "zerocopy");
	analysis_fini(&a);
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

/*
 * The document is written a run at a time, each run's tree made, printed and
 * freed in turn: a long session's export never exists whole in memory.
 */
int export_write(const char *path, const struct session *s, char **cause)
{
	struct host_info host;
	struct outfile f;
	cJSON *head = cJSON_CreateObject(), *item;
	cJSON *tool;
	char *text;
	int r = 0;

	*cause = NULL;
	if (!head)
		return -ENOMEM;
	if (s->host_known)
		host = s->host;
	else
		host_info_read(&host, s->options.counters_enabled
					      ? &s->options.counters
					      : NULL);
	cJSON_AddStringToObject(head, "format", EXPORT_FORMAT);
	cJSON_AddNumberToObject(head, "version", EXPORT_VERSION);
	tool = cJSON_AddObjectToObject(head, "tool");
	cJSON_AddStringToObject(tool, "name", "nio-top");
	cJSON_AddStringToObject(tool, "version", NIO_TOP_VERSION);
	cJSON_AddItemToObject(head, "host", export_host(&host));
	cJSON_AddItemToObject(head, "capabilities", export_capabilities(&host));
	if (s->topo.remote)
		cJSON_AddItemToObject(head, "agent",
				      export_agent(s->topo.remote));
	cJSON_AddItemToObject(head, "config", export_config(s));
	/* Replays with -p: the options as a preset. */
	cJSON_AddItemToObject(head, "preset", preset_from_options(&s->options));
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
		item = export_run(&s->results[i], &s->topo);
		r = write_item(&f, item, 2);
		cJSON_Delete(item);
	}
	outfile_puts(&f, s->result_count ? "\n\t],\n\t\"analysis\":\t"
					 : "],\n\t\"analysis\":\t");
	item = export_analysis(s);
	if (r == 0)
		r = write_item(&f, item, 1);
	cJSON_Delete(item);
	outfile_puts(&f, "\n}\n");
	if (r < 0 && !f.error)
		f.error = r;
	return outfile_commit(&f, cause);
}

/* Reading an export back: every field checked, errors name run and key. */
struct loader {
	const char *path;
	size_t run;
	char **cause;
	int error;
};

static void load_fail(struct loader *l, const char *key, const char *rule)
{
	if (l->error)
		return;
	l->error = -EINVAL;
	if (asprintf(l->cause, "%s: runs[%zu].%s: %s", l->path, l->run, key,
		     rule) < 0)
		*l->cause = NULL;
}

static uint64_t load_u64(struct loader *l, const cJSON *obj, const char *key)
{
	uint64_t v = 0;

	if (jsonfile_u64(cJSON_GetObjectItemCaseSensitive(obj, key), &v) < 0)
		load_fail(l, key, "must be a non-negative integer");
	return v;
}

static double load_number(struct loader *l, const cJSON *obj, const char *key,
			  bool null_ok)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (null_ok && cJSON_IsNull(v))
		return NAN;
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble)) {
		load_fail(l, key, "must be a number");
		return 0;
	}
	return v->valuedouble;
}

static const char *load_string(struct loader *l, const cJSON *obj,
			       const char *key, bool null_ok)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (null_ok && cJSON_IsNull(v))
		return NULL;
	if (!cJSON_IsString(v)) {
		load_fail(l, key, "must be text");
		return NULL;
	}
	return v->valuestring;
}

static void load_derived(struct loader *l, const cJSON *obj,
			 struct counter_derived *d)
{
	for (size_t i = 0; i < counter_derived_field_count; i++)
		*(double *)((char *)d + counter_derived_fields[i].offset) =
			load_number(l, obj, counter_derived_fields[i].key,
				    true);
}

static void load_side(struct loader *l, const cJSON *obj,
		      const struct counter_set *set,
		      struct run_side_counters *side)
{
	const cJSON *counters = cJSON_GetObjectItemCaseSensitive(obj,
								 "counters");

	load_derived(l, cJSON_GetObjectItemCaseSensitive(obj, "derived"),
		     &side->derived);
	for (unsigned int i = 0; set && i < set->count; i++) {
		const cJSON *c = cJSON_GetObjectItemCaseSensitive(
			counters, set->event[i].name);
		struct counter_value *v = &side->value[i];
		const char *status, *reason;

		*v = (struct counter_value){.status = COUNTER_NOT_COUNTED};
		if (!cJSON_IsObject(c))
			continue;
		status = load_string(l, c, "status", false);
		for (int s = COUNTER_OK; status && s <= COUNTER_USER_ONLY; s++)
			if (strcmp(status, counter_status_name(s)) == 0)
				v->status = (enum counter_status)s;
		v->value = load_number(l, c, "value", true);
		v->has_value = !isnan(v->value);
		v->running_pct = load_number(l, c, "running_pct", true);
		reason = load_string(l, c, "reason", true);
		if (reason)
			snprintf(v->reason, sizeof(v->reason), "%s", reason);
	}
}

static void load_latency(struct loader *l, const cJSON *obj,
			 struct latency_summary *out)
{
	out->count = load_u64(l, obj, "round_trips");
	out->p50_us = load_number(l, obj, "p50", false);
	out->p90_us = load_number(l, obj, "p90", false);
	out->p99_us = load_number(l, obj, "p99", false);
	out->p99_9_us = load_number(l, obj, "p99_9", false);
	out->max_us = load_number(l, obj, "max", false);
	out->mean_us = load_number(l, obj, "mean", false);
}

static void load_intervals(struct loader *l, const cJSON *list,
			   struct run_result *r)
{
	const cJSON *item;
	size_t n = 0;

	if (!cJSON_IsArray(list)) {
		load_fail(l, "intervals", "must be a list");
		return;
	}
	r->intervals = calloc((size_t)cJSON_GetArraySize(list) + 1,
			      sizeof(*r->intervals));
	if (!r->intervals) {
		load_fail(l, "intervals", "out of memory");
		return;
	}
	cJSON_ArrayForEach(item, list)
	{
		struct run_interval *iv = &r->intervals[n++];
		const cJSON *side;

		iv->t_s = load_number(l, item, "t_s", false);
		iv->gbps = load_number(l, item, "gbps", false);
		iv->msgs_per_s = load_number(l, item, "msgs_per_s", false);
		iv->warmup = cJSON_IsTrue(
			cJSON_GetObjectItemCaseSensitive(item, "warmup"));
		side = cJSON_GetObjectItemCaseSensitive(item, "sender");
		if (r->counted && side)
			load_derived(l, side, &iv->sender);
		side = cJSON_GetObjectItemCaseSensitive(item, "receiver");
		if (r->counted && side)
			load_derived(l, side, &iv->receiver);
	}
	r->interval_count = n;
}

static void load_run(struct loader *l, const cJSON *obj,
		     const struct options *o, struct run_result *r)
{
	const char *name = load_string(l, obj, "strategy", false);
	const char *mode = load_string(l, obj, "mode", false);
	const cJSON *part;
	struct run_totals *t = &r->totals;
	const char *error;

	if (!cJSON_IsObject(obj)) {
		load_fail(l, "strategy", "the run must be an object");
		return;
	}
	r->config.strategy = name ? strategy_find(name) : NULL;
	if (name && !r->config.strategy)
		load_fail(l, "strategy", "not a strategy nio-top knows");
	if (mode && run_mode_parse(mode, &r->config.mode) < 0)
		load_fail(l, "mode", "must be \"stream\" or \"rr\"");
	if (cJSON_GetObjectItemCaseSensitive(obj, "agent_side")) {
		const char *side = load_string(l, obj, "agent_side", false);
		enum run_role agent;

		if (side && run_role_parse(side, &agent) == 0 &&
		    agent != RUN_BOTH)
			r->config.role = run_role_peer(agent);
		else
			load_fail(l, "agent_side",
				  "must be \"senders\" or \"receivers\"");
	}
	r->config.msg_size = load_u64(l, obj, "msg_size");
	r->config.threads = (unsigned int)load_u64(l, obj, "threads");
	r->config.round = (unsigned int)load_u64(l, obj, "round");
	r->config.duration_ms = (uint64_t)llround(
		load_number(l, obj, "duration_s", false) * 1e3);
	r->config.warmup_ms = (uint64_t)llround(
		load_number(l, obj, "warmup_s", false) * 1e3);
	r->measured_s = load_number(l, obj, "measured_s", false);
	t->messages_sent = load_u64(l, obj, "messages_sent");
	t->messages_received = load_u64(l, obj, "messages_received");
	t->bytes_sent = load_u64(l, obj, "bytes_sent");
	t->bytes_received = load_u64(l, obj, "bytes_received");
	r->gbps = load_number(l, obj, "gbps", false);
	r->msgs_per_s = load_number(l, obj, "msgs_per_s", false);
	part = cJSON_GetObjectItemCaseSensitive(obj, "integrity");
	r->config.verify = cJSON_IsTrue(
		cJSON_GetObjectItemCaseSensitive(part, "verified"));
	t->checked = load_u64(l, part, "checked");
	t->corrupt = load_u64(l, part, "corrupt");
	part = cJSON_GetObjectItemCaseSensitive(obj, "zerocopy");
	if (cJSON_IsObject(part)) {
		t->zc_sends = load_u64(l, part, "sends");
		t->zc_completions = load_u64(l, part, "completions");
		t->zc_copied = load_u64(l, part, "copied");
		t->zc_enobufs = load_u64(l, part, "enobufs");
	}
	part = cJSON_GetObjectItemCaseSensitive(obj, "latency_us");
	if (r->config.mode == RUN_RR)
		load_latency(l, part, &r->latency);
	part = cJSON_GetObjectItemCaseSensitive(obj, "link");
	if (cJSON_IsObject(part)) {
		r->has_link = true;
		r->link.tx_bytes = load_u64(l, part, "tx_bytes");
		r->link.rx_bytes = load_u64(l, part, "rx_bytes");
		r->link.tx_packets = load_u64(l, part, "tx_packets");
		r->link.rx_packets = load_u64(l, part, "rx_packets");
	}
	r->config.counters = o->counters_enabled ? &o->counters : NULL;
	r->counted = cJSON_IsObject(
			     cJSON_GetObjectItemCaseSensitive(obj, "sender")) &&
		     cJSON_IsObject(
			     cJSON_GetObjectItemCaseSensitive(obj, "receiver"));
	if (r->counted) {
		load_side(l, cJSON_GetObjectItemCaseSensitive(obj, "sender"),
			  r->config.counters, &r->sender);
		load_side(l, cJSON_GetObjectItemCaseSensitive(obj, "receiver"),
			  r->config.counters, &r->receiver);
	}
	load_intervals(l, cJSON_GetObjectItemCaseSensitive(obj, "intervals"),
		       r);
	error = load_string(l, obj, "error", true);
	if (error)
		r->error = strdup(error);
}

int export_load(const char *path, struct session *s, struct options *o,
		char **cause)
{
	cJSON *root;
	int r;

	*cause = NULL;
	memset(s, 0, sizeof(*s));
	s->topo.server_ns = s->topo.client_ns = -1;
	r = jsonfile_read(path, EXPORT_LOAD_MAX, &root, cause);
	if (r < 0)
		return -EINVAL;
	r = export_from_json(root, path, s, o, cause);
	cJSON_Delete(root);
	return r;
}

int export_from_json(const cJSON *root, const char *path, struct session *s,
		     struct options *o, char **cause)
{
	const cJSON *format, *version, *runs, *run;
	struct loader l = {.path = path, .cause = cause};
	char where[4200];
	int r;

	*cause = NULL;
	memset(s, 0, sizeof(*s));
	s->topo.server_ns = s->topo.client_ns = -1;
	format = cJSON_GetObjectItemCaseSensitive(root, "format");
	version = cJSON_GetObjectItemCaseSensitive(root, "version");
	runs = cJSON_GetObjectItemCaseSensitive(root, "runs");
	if (!cJSON_IsString(format) ||
	    strcmp(format->valuestring, EXPORT_FORMAT) != 0) {
		r = -EINVAL;
		if (asprintf(cause, "%s: format: not an export (\"%s\")", path,
			     EXPORT_FORMAT) < 0)
			*cause = NULL;
		goto out;
	}
	if (!cJSON_IsNumber(version) ||
	    version->valuedouble != EXPORT_VERSION) {
		r = -EINVAL;
		if (asprintf(cause,
			     "%s: version: not supported (this nio-top reads "
			     "version %d)",
			     path, EXPORT_VERSION) < 0)
			*cause = NULL;
		goto out;
	}
	snprintf(where, sizeof(where), "%s: preset", path);
	r = preset_apply(cJSON_GetObjectItemCaseSensitive(root, "preset"),
			 where, o, cause);
	if (r < 0)
		goto out;
	s->options = *o;
	/* A theme named by the preset lives in the options themselves. */
	if (o->theme == o->theme_name)
		s->options.theme = s->options.theme_name;
	s->topo.options = o->topo;
	if (!cJSON_IsArray(runs)) {
		r = -EINVAL;
		if (asprintf(cause, "%s: runs: must be a list", path) < 0)
			*cause = NULL;
		goto out;
	}
	s->results = calloc((size_t)cJSON_GetArraySize(runs) + 1,
			    sizeof(*s->results));
	if (!s->results) {
		r = -ENOMEM;
		goto out;
	}
	cJSON_ArrayForEach(run, runs)
	{
		struct run_result *result = &s->results[s->result_count];

		load_run(&l, run, &s->options, result);
		s->result_count++;
		l.run++;
		if (l.error) {
			r = l.error;
			goto out;
		}
	}
out:
	if (r < 0)
		session_close(s);
	return r;
}
