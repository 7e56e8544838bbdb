/*
 * The command line: getopt over the option table's names and letters in
 * passes (the options that shape the lookup of presets, then -p, then the
 * rest, so every option given overrides a preset), the checks between
 * options, and --help.  -p's presets are loaded here (options_json.c reads
 * them); every other value is read by its row's type.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "metric.h"
#include "options_private.h"
#include "plan.h"
#include "sockopts.h"

int options_resolve_events(struct options *o, char **cause)
{
	const char *names[COUNTERS_MAX];

	*cause = NULL;
	o->counters_enabled = !o->no_counters &&
			      (o->event_count || !options_given(o, "events"));
	if (!o->counters_enabled)
		return 0;
	for (size_t i = 0; i < o->event_count; i++)
		names[i] = o->events[i];
	/* Without libpfm4 there is nothing to count; --check says why. */
	if (counters_resolve(o->event_count ? names : NULL,
			     (unsigned int)o->event_count, &o->counters,
			     cause) == 0)
		return 0;
	if (o->event_count)
		return -EINVAL;
	o->counters_enabled = false;
	free(*cause);
	*cause = NULL;
	return 0;
}

/* Options that shape a link need one nio-top made. */
static int check_topology(const struct topo_options *t, char **cause)
{
	const char *needs_veth = t->mtu	       ? "--mtu"
				 : t->rate_bps ? "--rate"
				 : t->delay_ms ? "--delay"
				 : t->loss_pct ? "--loss"
					       : NULL;

	if (needs_veth && t->kind != TOPO_VETH)
		return cause_set(cause, -EINVAL,
				 "%s needs --topology veth (not %s)",
				 needs_veth, topo_kind_name(t->kind));
	if (t->rate_bps && (t->delay_ms || t->loss_pct))
		return cause_set(cause, -EINVAL,
				 "--rate cannot be combined with --delay "
				 "or --loss yet: both need the root qdisc");
	if (t->keep_prefix[0] &&
	    (t->kind == TOPO_CURRENT || t->kind == TOPO_REMOTE))
		return cause_set(cause, -EINVAL,
				 "--keep-netns needs a namespace nio-top "
				 "makes (--topology veth or loopback)");
	return 0;
}

/*
 * The receive sides: each must be one the kernel has, and one that sees the
 * bytes if they are to be checked.  A receive side changes the receiver
 * only: the network (its MTU among the rest) stays as the other options
 * make it, so a run with one compares with a run with another.
 */
static int check_rx(struct options *o, char **cause)
{
	for (size_t i = 0; i < o->rx_count; i++) {
		const struct strategy_ops *rx = strategy_rx_ops(
			(enum rx_mode)o->rxs[i]);
		struct run_settings s = o->run;
		char *why = NULL;
		int r;

		s.rx = (enum rx_mode)o->rxs[i];
		if (strategy_rx_refusal(&s))
			return cause_set(cause, -EINVAL, "%s",
					 strategy_rx_refusal(&s));
		if (!rx || o->viewing_only || o->load ||
		    strategy_probe(rx, &why) == 0) {
			free(why);
			continue;
		}
		r = cause_set(cause, -EINVAL, "--rx %s: %s",
			      rx_mode_names[o->rxs[i]],
			      why ? why : "unavailable here");
		free(why);
		return r;
	}
	return 0;
}

/* A congestion control the kernel has, tried before any run needs it. */
static int check_congestion(struct options *o, char **cause)
{
	char *why = NULL;
	int r;

	if (!o->run.congestion[0] || o->viewing_only || o->load ||
	    sockopts_congestion_probe(o->run.congestion, &why) == 0)
		return 0;
	r = cause_set(cause, -EINVAL, "--congestion: %s",
		      why ? why : "unavailable here");
	free(why);
	return r;
}

/* --serve and --connect, and the options that belong to one of them. */
static int check_hosts(struct options *o, char **cause)
{
	if (o->serve && o->connect)
		return cause_set(cause, -EINVAL,
				 "--serve and --connect exclude each other");
	for (size_t i = 0; !o->serve && i < option_row_count; i++)
		if ((option_rows[i].flags & OPTION_SERVE) && o->given[i])
			return cause_set(cause, -EINVAL, "--%s needs --serve",
					 option_rows[i].name);
	if (o->reverse && !o->connect)
		return cause_set(cause, -EINVAL, "--reverse needs --connect");
	if (o->auth_file && !o->serve && !o->connect)
		return cause_set(cause, -EINVAL,
				 "--auth-file needs --serve or --connect");
	if (o->connect && o->load)
		return cause_set(cause, -EINVAL,
				 "--connect and --load exclude each other");
	if (o->connect) {
		if (options_given(o, "topology") && o->topo.kind != TOPO_REMOTE)
			return cause_set(cause, -EINVAL,
					 "--connect runs over --topology "
					 "remote (not %s)",
					 topo_kind_name(o->topo.kind));
		o->topo.kind = TOPO_REMOTE;
	}
	if (o->topo.kind == TOPO_REMOTE && !o->connect && !o->viewing_only &&
	    !o->load)
		return cause_set(cause, -EINVAL,
				 "--topology remote needs --connect HOST");
	return 0;
}

/*
 * The probe runs both its ends here: over two hosts the agent would have to
 * answer it and hold its flows while the probe runs alone, which the
 * protocol does not say.  Kept off the load's CPUs, it needs to know them.
 */
static int check_probe(const struct options *o, char **cause)
{
	if (!o->run.probe.rate_hz)
		return 0;
	if (o->connect)
		return cause_set(cause, -EINVAL,
				 "--probe runs both of its ends on this host; "
				 "over two hosts (--connect) the agent would "
				 "have to answer it and hold its flows while "
				 "the probe runs alone, which the protocol "
				 "cannot say yet");
	if (o->run.probe_cpu == PROBE_CPU_OTHER && !o->run.pin.count)
		return cause_set(cause, -EINVAL,
				 "--probe-cpu other needs --pin: the probe "
				 "keeps off the CPUs the load is pinned to");
	return 0;
}

/*
 * A comparison's options: --diff's or --baseline's, each other's excluded
 * (--drift also --load OLD NEW's); --gate's rules and --drift's figures
 * read; a study compared with a baseline runs headless.
 */
static int check_compare(struct options *o, char **cause)
{
	static const char *const compare_only[] = {"gate", "change",
						   "diff-test", "format"};
	int r;

	for (size_t i = 0; i < 4 && !o->diff && !o->baseline; i++)
		if (options_given(o, compare_only[i]))
			return cause_set(cause, -EINVAL,
					 "--%s needs a comparison: --diff "
					 "OLD NEW, or --baseline OLD",
					 compare_only[i]);
	if (o->drift[0] && !o->diff && !o->baseline && !o->load_new)
		return cause_set(cause, -EINVAL,
				 "--drift needs a comparison of two studies: "
				 "--diff OLD NEW, --baseline OLD or --load "
				 "OLD NEW");
	if (o->baseline && (o->diff || o->load || o->serve))
		return cause_set(cause, -EINVAL,
				 "--baseline compares the study it runs: not "
				 "with --%s",
				 o->diff   ? "diff"
				 : o->load ? "load"
					   : "serve");
	if (o->gate[0] && o->diff_test == DIFF_TEST_UTEST)
		return cause_set(cause, -EINVAL,
				 "--gate judges a change by its interval, and "
				 "--diff-test utest gives a p-value, no "
				 "interval: use one or the other");
	if (o->change[0] && !o->gate[0])
		return cause_set(cause, -EINVAL,
				 "--change names the change under test for "
				 "--gate");
	if (o->baseline)
		o->batch = true;
	r = o->drift[0]
		    ? drift_parse(o->drift, o->drifts, &o->drift_count, cause)
		    : 0;
	if (r == 0 && o->gate[0])
		r = rules_parse(o->gate, o->rules, &o->rule_count, cause);
	return r;
}

/*
 * --crossover: its pair (plan_crossover()), its figure, and the options
 * only it and the explorer's searches read.  It runs a study of its own:
 * no comparison, no agent.
 */
static int check_crossover(struct options *o, char **cause)
{
	char key[RULE_KEY_MAX];
	enum rule_side side;
	struct plan_pair pair;
	int r;

	/*
	 * Without --crossover they are the explorer's searches' (and a
	 * preset's, an export's replayed): not refused, only checked.
	 */
	if (!o->crossover[0])
		return o->crossover_metric[0]
			       ? rules_figure(o->crossover_metric, "--metric",
					      key, &side, cause)
			       : 0;
	if (o->diff || o->load || o->serve || o->baseline)
		return cause_set(cause, -EINVAL,
				 "--crossover runs a search of its own: not "
				 "with --%s",
				 o->diff    ? "diff"
				 : o->load  ? "load"
				 : o->serve ? "serve"
					    : "baseline");
	r = plan_crossover(o, &(struct run_config){0}, &pair, cause);
	if (r < 0 || !o->crossover_metric[0])
		return r;
	r = rules_figure(o->crossover_metric, "--metric", key, &side, cause);
	if (r == 0 && metric_find(key) < 0 && o->modes[0] != RUN_RR)
		r = cause_set(cause, -EINVAL,
			      "--metric %s: a round trip's, for --mode rr",
			      key);
	return r;
}

/* The passes over argv: options that shape the lookup, presets, the rest. */
enum parse_phase {
	PHASE_EARLY,
	PHASE_PRESETS,
	PHASE_REST,
};

static enum parse_phase row_phase(const struct option_row *row)
{
	return row->flags & OPTION_EARLY      ? PHASE_EARLY
	       : options_type_of(row)->preset ? PHASE_PRESETS
					      : PHASE_REST;
}

/* Applies the options of argv that belong to phase. */
static int parse_pass(int argc, char **argv, const struct option *longs,
		      const char *shorts, enum parse_phase phase,
		      struct options *o, char **cause)
{
	int key;

	optind = 1;
	opterr = 0;
	while ((key = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		const struct option_row *row;
		int r;

		if (key == '?')
			return cause_set(cause, -EINVAL, "unknown option '%s'",
					 argv[optind - 1]);
		if (key == ':')
			return cause_set(cause, -EINVAL,
					 "option '%s' needs a value",
					 argv[optind - 1]);
		row = key >= 256 ? &option_rows[key - 256] : NULL;
		for (size_t i = 0; !row && i < option_row_count; i++)
			if (option_rows[i].letter == key)
				row = &option_rows[i];
		if (!row || row_phase(row) != phase)
			continue;
		if (phase == PHASE_PRESETS)
			r = options_load_preset(o, optarg, cause);
		else
			r = options_value_from_text(o, row, optarg, cause);
		if (r < 0)
			return r;
		o->given[options_row_index(row)] = true;
	}
	return 0;
}

int options_parse(int argc, char **argv, struct options *o, char **cause)
{
	/* Each row's name, and its former one (read still). */
	struct option longs[2 * OPTIONS_MAX + 1];
	char shorts[2 * OPTIONS_MAX + 2] = ":";
	size_t n = 1, k = 0;
	int r = 0;

	*cause = NULL;
	options_defaults(o);
	memset(longs, 0, sizeof(longs));
	for (size_t i = 0; i < option_row_count; i++) {
		const struct option_row *row = &option_rows[i];
		int has_arg = row->arg ? required_argument : no_argument;

		if (!row->name)
			continue;
		longs[k++] = (struct option){
			.name = row->name,
			.has_arg = has_arg,
			.val = 256 + (int)i,
		};
		if (row->was && row->was->name)
			longs[k++] = (struct option){
				.name = row->was->name,
				.has_arg = has_arg,
				.val = 256 + (int)i,
			};
		if (row->letter) {
			shorts[n++] = row->letter;
			if (row->arg)
				shorts[n++] = ':';
		}
	}
	shorts[n] = '\0';

	for (int phase = PHASE_EARLY; phase <= PHASE_REST && r == 0; phase++)
		r = parse_pass(argc, argv, longs, shorts,
			       (enum parse_phase)phase, o, cause);
	if (r < 0)
		return r;
	/* --diff OLD NEW, --load OLD NEW: an argument that is no option's. */
	if (o->diff && optind < argc)
		o->diff_new = argv[optind++];
	else if (o->load && optind < argc)
		o->load_new = argv[optind++];
	if (o->diff && !o->diff_new)
		return cause_set(cause, -EINVAL,
				 "--diff needs two exports: --diff OLD.json "
				 "NEW.json");
	if (optind < argc)
		return cause_set(cause, -EINVAL, "unexpected argument '%s'",
				 argv[optind]);
	if (o->strategy_count == 0)
		return cause_set(cause, -EINVAL,
				 "--strategy: no strategy is "
				 "available on this machine");
	r = check_hosts(o, cause);
	if (r == 0)
		r = check_compare(o, cause);
	if (r == 0)
		r = check_rx(o, cause);
	if (r == 0)
		r = check_congestion(o, cause);
	if (r == 0)
		r = check_topology(&o->topo, cause);
	if (r == 0)
		r = check_probe(o, cause);
	if (r == 0)
		r = check_crossover(o, cause);
	if (o->no_profile)
		o->run.profile_hz = 0;
	if (r == 0 && !o->load)
		r = options_resolve_events(o, cause);
	return r;
}

void options_usage(FILE *out)
{
	fprintf(out, "usage: nio-top [--batch] [options]\n\n"
		     "Explore what each Linux TCP copy strategy costs.\n\n");
	for (size_t i = 0; i < option_row_count; i++) {
		const struct option_row *row = &option_rows[i];
		const struct option_type_ops *type = options_type_of(row);
		char left[40], extra[96] = "";

		if (!row->name)
			continue;
		if (row->letter)
			snprintf(left, sizeof(left), "-%c, --%s%s%s",
				 row->letter, row->name, row->arg ? " " : "",
				 row->arg ? row->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", row->name,
				 row->arg ? " " : "", row->arg ? row->arg : "");
		if (type->help_range)
			type->help_range(row, extra, sizeof(extra));
		if (row->def)
			snprintf(extra + strlen(extra),
				 sizeof(extra) - strlen(extra), "%sdefault %s",
				 extra[0] ? "; " : "", row->def);
		fprintf(out, "  %-26s %s%s%s%s\n", left, row->help,
			extra[0] ? " (" : "", extra, extra[0] ? ")" : "");
	}
	fprintf(out, "\nStrategies:");
	for (size_t i = 0; i < strategy_count(); i++)
		fprintf(out, " %s", strategy_at(i)->name);
	fprintf(out, "\n");
}
