/*
 * The rules of --gate: "gbps<-5%,cpu_ns_per_kib>+5%,p99_us>+10%", each a
 * figure --diff compares (the metric table's keys, and a round trip's
 * p50_us and p99_us), optionally one side of it (cpu_pct.sender), and a
 * change it must not go beyond: below a fall ("<-5%") or above a rise
 * (">+10%").  A rule is broken at a point when the whole interval of the
 * change lies beyond its limit (model/gate.h judges them).
 */
#ifndef NIO_TOP_RULES_H
#define NIO_TOP_RULES_H

#include <stdbool.h>
#include <stddef.h>

#define RULES_MAX     16
#define RULE_TEXT_MAX 48
#define RULE_KEY_MAX  32

enum rule_side {
	RULE_BOTH,     /* every row of the figure: sender and receiver */
	RULE_SENDER,   /* ".sender" */
	RULE_RECEIVER, /* ".receiver" */
};

struct rule {
	char text[RULE_TEXT_MAX]; /* as given: "gbps<-5%" */
	char key[RULE_KEY_MAX];	  /* "gbps", "p99_us", "cpu_pct" */
	enum rule_side side;
	bool above;   /* '>': a rise past limit breaks it; '<': a fall */
	double limit; /* the change as a ratio new / old: 0.95 for -5% */
};

/*
 * The rules of text, comma separated, into rules[] (RULES_MAX at most):
 * 0, or -EINVAL with *cause naming the rule and saying the grammar.
 */
int rules_parse(const char *text, struct rule *rules, size_t *count,
		char **cause);

/* Whether want covers a row's side ("sender", "receiver"; NULL: none). */
bool rule_side_matches(enum rule_side want, const char *side);

/* Whether the rule applies to a row of key at side ("sender", NULL). */
bool rule_matches(const struct rule *rule, const char *key, const char *side);

/*
 * One figure as a rule names it, "cpu_ns_per_kib.sender" (--metric): its
 * key (RULE_KEY_MAX bytes) and side.  0, or -EINVAL with *cause naming
 * option ("--metric") and the rule broken.
 */
int rules_figure(const char *text, const char *option, char *key,
		 enum rule_side *side, char **cause);

/*
 * --drift: how far a figure's level moves between two studies, beyond
 * what their runs spread, in per cent of it (a relative SD): "4" for every
 * figure, "cpu_pct.receiver=8,gbps=1.5" for some, each named as a rule
 * names it; a later one over an earlier, and over the defaults
 * (model/drift.h).
 */
struct drift_rule {
	char key[RULE_KEY_MAX]; /* "": every figure */
	enum rule_side side;
	double pct;
};

/*
 * text into rules[] (RULES_MAX at most): 0, or -EINVAL with *cause
 * naming the entry and saying the grammar.
 */
int drift_parse(const char *text, struct drift_rule *rules, size_t *count,
		char **cause);

#endif
