/*
 * The glossary's words, by where they show: the header, the controls, the
 * gauges, the lines below them, the profile's roles and the reasons of the
 * time rows, the runs table, compare, the graphs and the chart, the
 * analysis.
 */
#include <stdio.h>
#include <string.h>

#include "glossary.h"
#include "metric.h"
#include "options.h"
#include "reason.h"
#include "role.h"
#include "rx_side.h"
#include "stats.h"

/* A figure's meaning, by its metric key: one for every row of the table. */
static const struct {
	const char *key;
	const char *meaning;
} metric_meanings[] = {
	{"gbps", "payload delivered per second, in gigabits; the "
		 "receiver's is the run's"},
	{"msgs_per_s", "whole messages per second"},
	{"cpu_pct", "the side's threads' CPU time (task-clock), in % of one "
		    "core: 100% a flow is CPU bound; it holds the softirq work "
		    "the kernel runs in their context"},
	{"ctx_switches_per_s", "context switches per second: the threads "
			       "blocking and being woken"},
	{"l1_misses_per_s", "L1 data-cache load misses per second (a hardware "
			    "counter: n/a without a PMU)"},
	{"llc_misses_per_s", "last-level cache load misses per second (a "
			     "hardware counter)"},
	{"ipc", "instructions per cycle (hardware counters)"},
	{"cycles_per_byte", "CPU cycles per byte moved (a hardware counter)"},
	{"l1_misses_per_kib", "L1 data-cache load misses per KiB moved"},
	{"llc_misses_per_kib", "last-level cache load misses per KiB moved"},
	{"ctx_switches_per_msg", "context switches per message"},
	{"cpu_ns_per_kib", "CPU time per KiB moved, in ns: the cost of a "
			   "strategy that needs no PMU"},
	{"syscalls_per_msg", "system calls per message (the raw_syscalls "
			     "tracepoint)"},
};

/* Words the screens show that no table holds, by where. */
struct gloss {
	const char *word;
	const char *meaning;
};

static const struct gloss header_words[] = {
	{"run 3", "a run's number: its row in the runs table and in exports"},
	{"warming up", "the run's first seconds (-w): measured, left out of "
		       "its figures"},
	{"gso-ipv4, gro-ipv4, GRO, busy-poll, paced",
	 "the links' and sockets' knobs the run set (the controls below), "
	 "and the load's pace (--load-rate)"},
	{"sweep 5/7, 0:40 left", "the run of a sweep going on, of all, and a "
				 "guess of the time left (it never goes up)"},
	{"crossover 3 runs, 4:10 left",
	 "a crossover search going on (6): its runs so far, and what is left "
	 "of its budget (--budget)"},
	{"FROZEN (Z); now", "the screen held as it was (Z again shows it "
			    "live); what follows now goes on underneath"},
	{"2 new runs", "runs finished since the one selected in the runs "
		       "table (End follows the newest)"},
};

static const struct gloss foot_words[] = {
	{"Sender, Receiver; tx, rx",
	 "the two ends of each flow: tx sends the messages, rx receives them"},
	{"-", "no figure yet (the window is filling), or none for this run"},
	{"n/a", "cannot be measured here, and why: never shown as 0"},
	{"Moved so far; Moved in run N",
	 "the run's bytes sent and delivered: its totals, not the window's"},
	{"Zero-copy: the kernel copied",
	 "of the zero-copy sends completed, the share the kernel copied "
	 "anyway (a range where notifications cover several sends)"},
	{"Receive", "what the receive side counted (--rx): its own words"},
	{"Round trip p50 .. max", "rr: one request and its answer, timed; "
				  "percentiles in microseconds"},
	{"Sender/Receiver (tx/rx CPU) rows",
	 "sampled share of each side's CPU by role, one interval in five "
	 "(the roles below; shares of user space only where the kernel's "
	 "could not be sampled)"},
	{"Sender time, Receiver time (tx/rx time) rows",
	 "where each side's time went in the same intervals: its share on "
	 "the CPU, then its largest waits off it (the reasons below)"},
	{"Where each side's CPU and time go: x",
	 "rows too few for the CPU and time rows: the data path (x) shows "
	 "them"},
	{"Probe p50/p99 us", "--probe: a small request's round trip, timed "
			     "alone before the load and under it; late: "
			     "its own timer's error; some skipped: slots "
			     "more than 8 periods behind when it woke"},
	{"rest 18%", "a CPU or time row's shares that its width leaves no "
		     "room to name, together (x names each)"},
};

static const struct gloss table_words[] = {
	{"#, run", "the run's number, strategy, size and flows (x2: two)"},
	{"secs", "seconds measured: the warm-up and the profile's sampled "
		 "intervals (one in five) left out"},
	{"short", "measured under --min-measured: left out of the analysis"},
	{"stopped", "a stop (Ctrl-Z, a stall) ended its window: left out of "
		    "the analysis and charts"},
	{"bound", "--rx trunc: nothing reads the bytes, the most a receiver "
		  "could do"},
	{"tx, rx after a figure", "the sender's or the receiver's"},
	{"copy tx, copy rx", "the share of each side's sampled CPU in copies"},
	{"wait tx, wait rx", "each side's largest wait and its share of the "
			     "side's time"},
	{"probe p99", "--probe: the probe's p99 under the load, in us"},
	{"p50 us, p99 us", "rr: the round trip's median and 99th percentile"},
	{"marked (c, F9)", "runs chosen to compare (3)"},
};

static const struct gloss compare_words[] = {
	{"#3", "a run's number"},
	{"x1.23", "the ratio to the first column's run, the base"},
	{"CPU in copies %", "the share of a side's sampled CPU in copies"},
	{"Time on the CPU %, Waiting: ... %",
	 "the share of a side's time on the CPU, and in each wait"},
	{"Sampling moved msg/s", "what sampling the CPU did to the rate in the "
				 "intervals sampled, left out of the figures"},
	{"change (drift 2%)",
	 "two exports compared (--load OLD NEW): over a figure's changes, "
	 "how far it moves between two studies beyond its runs' spread "
	 "(--drift), which widens each interval"},
	{"top 3.84", "a graph's scale: the highest value of its last minute"},
	{"6 other rx/knobs (not drawn)",
	 "the chart's footer: runs of its mode with another receive side "
	 "or other knobs than the title names, which it does not draw"},
};

static const struct gloss crossover_words[] = {
	{"a+b", "the runs of the size so far: of the first (a), of the "
		"second (b)"},
	{"ratio, 90% interval",
	 "b's figure over a's (their runs' geometric means, as the test "
	 "weighs them), and the interval around it: a lead where it lies "
	 "wholly past 5% either way (past 1.05, or under 1/1.05), equal "
	 "where wholly within (95% sure of each bound)"},
	{"lead: a/b ahead, equal",
	 "decided: one ahead, or the two within the smallest difference "
	 "the analysis calls one"},
	{"pending, running",
	 "not decided yet, more runs may decide it (not run yet, or cut "
	 "short when the search ended; the export's \"pending\"); its run "
	 "going on"},
	{"undecided",
	 "not told apart within the runs a size may have, or, at the spread "
	 "its runs showed, not with them; a cap raised later (up to 32 a "
	 "side) runs it again"},
	{"failed", "too few of a side's runs finished to compare"},
	{"the ruler: a b = ? o x * -",
	 "each size tried along -m's range: a or b ahead, equal, "
	 "undecided, pending, failed, running; - the bracket where one "
	 "overtakes the other"},
	{"ended", "why the search ended: its answer, its budget spent, a "
		  "failed size, or a stop (the export's \"state\")"},
};

static const struct gloss analysis_words[] = {
	{"beats ... from 4K", "ahead, as the analysis' test decides, at that "
			      "size and every size after it"},
	{"never beats", "behind, or within the smallest difference it calls "
			"one, wherever it could tell"},
	{"behind ... at",
	 "behind at those sizes, not told apart at the others"},
	{"ahead of ... at", "ahead at some sizes only (behind at others)"},
	{"not distinguishable here", "the runs cannot tell them apart: more "
				     "runs a point (--repeat) may tell them "
				     "apart"},
	{"busy host",
	 "other processes used the CPU while it ran, or the hypervisor took "
	 "it (steal): figures may be off"},
};

const char *ui_gloss_metric(const char *key)
{
	for (size_t i = 0;
	     i < sizeof(metric_meanings) / sizeof(*metric_meanings); i++)
		if (strcmp(metric_meanings[i].key, key) == 0)
			return metric_meanings[i].meaning;
	return NULL;
}

/* "word: meaning", wrapped; the word stands out. */
static void gloss_line(struct ui_lines *l, int width, const char *word,
		       const char *meaning)
{
	size_t first = l->count;
	char text[512];

	snprintf(text, sizeof(text), "%s: %s", word, meaning);
	ui_lines_wrap(l, ROLE_TEXT, width, 4, text);
	if (l->count > first)
		ui_lines_mark(l, first, ROLE_HIGHLIGHT, (int)strlen(word) + 1);
}

static void gloss_heading(struct ui_lines *l, const char *text)
{
	ui_lines_add(l, ROLE_TEXT, 0, "%s", "");
	ui_lines_add(l, ROLE_TITLE, 0, "%s", text);
}

static void gloss_list(struct ui_lines *l, int width, const char *heading,
		       const struct gloss *g, size_t n)
{
	gloss_heading(l, heading);
	for (size_t i = 0; i < n; i++)
		gloss_line(l, width, g[i].word, g[i].meaning);
}

#define GLOSS_LIST(l, width, heading, list)                                    \
	gloss_list(l, width, heading, list, sizeof(list) / sizeof(*(list)))

/* The controls, from their rows; the receive sides' tags, from theirs. */
static void gloss_controls(struct ui_lines *l, int width)
{
	char tag[64];

	gloss_heading(l, "The controls (and the header's tags):");
	for (size_t k = 0; k < options_control_count(); k++) {
		const struct option_row *row = options_control_at(k);

		gloss_line(l, width, row->control->label,
			   row->control->gloss ? row->control->gloss
					       : row->help);
	}
	for (int rx = 0; rx < RX_MODE_COUNT; rx++) {
		const struct rx_side *side = rx_side_of((enum rx_mode)rx);

		if (!side->tag[0] || !side->ops)
			continue;
		snprintf(tag, sizeof(tag), "%s", side->tag + 1);
		gloss_line(l, width, tag, side->ops->summary);
	}
}

/* The gauges' and the table's figures, from the metric table. */
static void gloss_figures(struct ui_lines *l, int width)
{
	char word[96];

	gloss_heading(l, "The figures (gauges, runs table, compare):");
	for (size_t m = 0; m < metric_count; m++) {
		const char *meaning = ui_gloss_metric(metrics[m].key);

		if (!meaning)
			continue;
		if (strcmp(metrics[m].label, metrics[m].abbrev) == 0)
			snprintf(word, sizeof(word), "%s", metrics[m].label);
		else
			snprintf(word, sizeof(word), "%s (%s)",
				 metrics[m].label, metrics[m].abbrev);
		gloss_line(l, width, word, meaning);
	}
}

/* The profile's roles, from the role table: its words and sentences. */
static void gloss_roles(struct ui_lines *l, int width)
{
	char meaning[400];

	gloss_heading(l,
		      "The roles of the CPU rows (each side's sampled CPU):");
	for (size_t r = 0; r < role_count; r++) {
		/* The label where it says more than the word ("other"). */
		if (strcmp(roles[r].label, roles[r].abbrev) == 0)
			snprintf(meaning, sizeof(meaning), "%s", roles[r].why);
		else
			snprintf(meaning, sizeof(meaning), "%s: %s",
				 roles[r].label, roles[r].why);
		gloss_line(l, width, roles[r].abbrev, meaning);
	}
}

/* The reasons of the time rows, from the reason table. */
static void gloss_reasons(struct ui_lines *l, int width)
{
	char meaning[400];

	gloss_heading(l, "The waits of the time rows (each side's time off "
			 "the CPU):");
	for (size_t r = 0; r < reason_count; r++) {
		if (strcmp(reasons[r].label, reasons[r].abbrev) == 0)
			snprintf(meaning, sizeof(meaning), "%s",
				 reasons[r].why);
		else
			snprintf(meaning, sizeof(meaning), "%s: %s",
				 reasons[r].label, reasons[r].why);
		gloss_line(l, width, reasons[r].abbrev, meaning);
	}
}

void ui_glossary(struct ui_lines *l, int width)
{
	char tie[64];

	gloss_heading(l, "What the screens' words mean:");
	GLOSS_LIST(l, width, "The header:", header_words);
	gloss_controls(l, width);
	gloss_figures(l, width);
	GLOSS_LIST(l, width, "Below the gauges:", foot_words);
	gloss_roles(l, width);
	gloss_reasons(l, width);
	GLOSS_LIST(l, width, "The runs table (2):", table_words);
	GLOSS_LIST(l, width,
		   "Compare (3), the graphs and the chart (4):", compare_words);
	GLOSS_LIST(l, width, "The analysis (5):", analysis_words);
	GLOSS_LIST(l, width, "A crossover search (6):", crossover_words);
	/* The smallest difference a verdict calls one, as the analysis has it. */
	snprintf(tie, sizeof(tie), "within %.0f%% of each other",
		 STATS_MIN_EFFECT * 100);
	gloss_line(l, width, tie, "a tie at every size");
}
