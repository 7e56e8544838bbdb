/*
 * The rules of --gate: their grammar, and which rows of a comparison each
 * applies to.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "metric.h"
#include "rules.h"

/* A figure --diff compares: a round trip's, or the metric table's. */
static bool rule_key_known(const char *key)
{
	return strcmp(key, "p50_us") == 0 || strcmp(key, "p99_us") == 0 ||
	       metric_find(key) >= 0;
}

/* The keys, for an error: "gbps, msgs_per_s, ..., p50_us, p99_us". */
static void rule_keys(char *out, size_t size)
{
	size_t len = 0;

	for (size_t i = 0; i < metric_count && len < size; i++)
		len += (size_t)snprintf(out + len, size - len, "%s, ",
					metrics[i].key);
	if (len < size)
		snprintf(out + len, size - len, "p50_us, p99_us");
}

/* One rule, text[0 .. length), into rule. */
static int rule_parse(const char *text, size_t length, struct rule *rule,
		      char **cause)
{
	char given[RULE_TEXT_MAX], keys[512], *op, *dot, *end;
	int metric;

	if (length >= sizeof(given))
		return cause_set(cause, -EINVAL,
				 "--gate: '%.*s': longer than %d characters",
				 (int)length, text, RULE_TEXT_MAX - 1);
	memcpy(given, text, length);
	given[length] = '\0';
	*rule = (struct rule){0};
	snprintf(rule->text, sizeof(rule->text), "%s", given);
	op = strpbrk(given, "<>");
	/* The key and its side, if any, fit rule->key whole. */
	if (!op || op == given || op - given >= RULE_KEY_MAX)
		goto grammar;
	rule->above = *op == '>';
	*op = '\0';
	errno = 0;
	rule->limit = strtod(op + 1, &end);
	if (end == op + 1 || errno || strcmp(end, "%") != 0 ||
	    !isfinite(rule->limit) || rule->limit <= -100 ||
	    rule->limit > 10000)
		goto grammar;
	rule->limit = 1 + rule->limit / 100;
	dot = strchr(given, '.');
	if (dot) {
		*dot++ = '\0';
		if (strcmp(dot, "sender") == 0)
			rule->side = RULE_SENDER;
		else if (strcmp(dot, "receiver") == 0)
			rule->side = RULE_RECEIVER;
		else
			goto grammar;
	}
	memcpy(rule->key, given, strlen(given) + 1);
	if (!rule_key_known(rule->key)) {
		rule_keys(keys, sizeof(keys));
		return cause_set(cause, -EINVAL,
				 "--gate: '%s': no figure '%s' (one of %s)",
				 rule->text, rule->key, keys);
	}
	metric = metric_find(rule->key);
	if (rule->side != RULE_BOTH &&
	    (metric < 0 || metrics[metric].delivered))
		return cause_set(cause, -EINVAL,
				 "--gate: '%s': %s has no sides (only what "
				 "was delivered)",
				 rule->text, rule->key);
	return 0;
grammar:
	return cause_set(cause, -EINVAL,
			 "--gate: '%s' is not a rule (FIGURE<-N%% for a fall "
			 "past N%%, FIGURE>+N%% for a rise, as gbps<-5%%; "
			 "FIGURE.sender or .receiver for one side)",
			 rule->text);
}

/*
 * text's comma-separated entries, each handed to one with its index, at
 * most RULES_MAX of them (else an error naming option and what they are):
 * their count, or the first error.
 */
static int each_entry(const char *text, const char *option, const char *what,
		      int (*one)(const char *at, size_t length, void *into,
				 size_t i, char **cause),
		      void *into, size_t *count, char **cause)
{
	const char *at = text;

	*count = 0;
	for (;;) {
		size_t length = strcspn(at, ",");
		int r;

		if (*count == RULES_MAX)
			return cause_set(cause, -EINVAL, "%s: more than %d %s",
					 option, RULES_MAX, what);
		r = one(at, length, into, *count, cause);
		if (r < 0)
			return r;
		(*count)++;
		if (!at[length])
			return 0;
		at += length + 1;
	}
}

static int gate_entry(const char *at, size_t length, void *into, size_t i,
		      char **cause)
{
	return rule_parse(at, length, (struct rule *)into + i, cause);
}

int rules_parse(const char *text, struct rule *rules, size_t *count,
		char **cause)
{
	return each_entry(text, "--gate", "rules", gate_entry, rules, count,
			  cause);
}

bool rule_side_matches(enum rule_side want, const char *side)
{
	if (want == RULE_BOTH || !side)
		return true;
	return strcmp(side, want == RULE_SENDER ? "sender" : "receiver") == 0;
}

bool rule_matches(const struct rule *rule, const char *key, const char *side)
{
	return strcmp(rule->key, key) == 0 &&
	       rule_side_matches(rule->side, side);
}

int rules_figure(const char *text, const char *option, char *key,
		 enum rule_side *side, char **cause)
{
	char given[RULE_KEY_MAX], keys[512], *dot;
	int metric;

	*side = RULE_BOTH;
	if (strlen(text) >= sizeof(given))
		return cause_set(cause, -EINVAL,
				 "%s: '%s': longer than %d characters", option,
				 text, RULE_KEY_MAX - 1);
	snprintf(given, sizeof(given), "%s", text);
	dot = strchr(given, '.');
	if (dot) {
		*dot++ = '\0';
		if (strcmp(dot, "sender") == 0)
			*side = RULE_SENDER;
		else if (strcmp(dot, "receiver") == 0)
			*side = RULE_RECEIVER;
		else
			return cause_set(cause, -EINVAL,
					 "%s: '%s': a side is .sender or "
					 ".receiver",
					 option, text);
	}
	if (!rule_key_known(given)) {
		rule_keys(keys, sizeof(keys));
		return cause_set(cause, -EINVAL,
				 "%s: no figure '%s' (one of %s)", option,
				 given, keys);
	}
	metric = metric_find(given);
	if (*side != RULE_BOTH && (metric < 0 || metrics[metric].delivered))
		return cause_set(cause, -EINVAL,
				 "%s: '%s': %s has no sides (only what was "
				 "delivered)",
				 option, text, given);
	snprintf(key, RULE_KEY_MAX, "%s", given);
	return 0;
}

/* A per cent of --drift: 0 to 100, the '%' optional. */
static int drift_pct(const char *text, const char *entry, double *pct,
		     char **cause)
{
	char *end;
	bool none;

	errno = 0;
	*pct = strtod(text, &end);
	none = end == text;
	if (*end == '%')
		end++;
	if (none || *end || errno || !(*pct >= 0 && *pct <= 100))
		return cause_set(cause, -EINVAL,
				 "--drift: '%s' is not a drift (a per cent, 0 "
				 "to 100, as 4; or FIGURE=PCT, as "
				 "cpu_pct.receiver=8)",
				 entry);
	return 0;
}

/* FIGURE=PCT, or PCT for every figure. */
static int drift_entry(const char *at, size_t length, void *into, size_t i,
		       char **cause)
{
	struct drift_rule *rule = (struct drift_rule *)into + i;
	char entry[RULE_TEXT_MAX], *eq;
	int r;

	if (length >= sizeof(entry))
		return cause_set(cause, -EINVAL,
				 "--drift: '%.*s': longer than %d characters",
				 (int)length, at, RULE_TEXT_MAX - 1);
	memcpy(entry, at, length);
	entry[length] = '\0';
	*rule = (struct drift_rule){.side = RULE_BOTH};
	eq = strchr(entry, '=');
	if (!eq)
		return drift_pct(entry, entry, &rule->pct, cause);
	*eq = '\0';
	r = rules_figure(entry, "--drift", rule->key, &rule->side, cause);
	*eq = '=';
	return r < 0 ? r : drift_pct(eq + 1, entry, &rule->pct, cause);
}

int drift_parse(const char *text, struct drift_rule *rules, size_t *count,
		char **cause)
{
	return each_entry(text, "--drift", "figures", drift_entry, rules, count,
			  cause);
}
