/*
 * --gate: a comparison judged by the rules of config/rules.h, for a CI job
 * that must fail a build on a real regression and on nothing else.  A rule
 * is broken at a point when the whole 90% interval of its figure's change
 * lies beyond its limit: a change the runs cannot tell from the limit
 * breaks nothing, however far its median went.  Beside the rules, what
 * could make the comparison mislead is reported: points only one side
 * has, runs that failed or were left out, rows with too few runs to tell,
 * and every difference of host, settings and environment the user did not
 * name as the change under test (--change).
 *
 * The status is diff(1)'s: 0 when no rule is broken; 1 when one is, or
 * when a point of the new side has runs and none to compare (a change that
 * breaks a point is the worst regression, and gives no row to judge: --diff
 * fails on it too); 2 when a rule could not be judged at any point.
 */
#ifndef NIO_TOP_GATE_H
#define NIO_TOP_GATE_H

#include <stddef.h>

#include "diff.h"
#include "options.h"

enum gate_kind {
	GATE_BROKEN,	 /* a rule broken at a point */
	GATE_FAILED,	 /* a point with new runs and none to compare */
	GATE_UNJUDGED,	 /* a rule's row with too few runs to tell */
	GATE_NOTHING,	 /* a rule with no row to judge it at */
	GATE_ONE_SIDE,	 /* a point only one side has */
	GATE_LEFT_OUT,	 /* runs of a point that failed or were left out */
	GATE_DIFFERENCE, /* host, settings, environment: not --change's */
	GATE_CHANGE,	 /* the change under test, as --change names it */
};

/* "broken", "failed", ..., as -o names them. */
extern const char *const gate_kind_names[];

#define GATE_TEXT_MAX 480

struct gate_finding {
	enum gate_kind kind;
	const struct rule *rule;    /* BROKEN, UNJUDGED, NOTHING; else NULL */
	const struct diff_row *row; /* BROKEN, UNJUDGED; else NULL */
	char text[GATE_TEXT_MAX];   /* said on stderr and in -o */
};

struct gate {
	const struct rule *rules;
	size_t rule_count;
	struct gate_finding *finding;
	size_t count;
	size_t broken; /* findings GATE_BROKEN */
	size_t judged; /* rows a rule judged */
	int status;    /* 0, 1 or 2 */
};

/*
 * Judges d by o's rules (o->rules, o->change): 0, or -ENOMEM (nothing
 * held).  The gate points into d and o: they outlive it.
 */
int gate_judge(const struct diff *d, const struct options *o, struct gate *g);
void gate_fini(struct gate *g);

/* "passed: 2 rules at 4 points", "failed: 1 rule broken at 2 points" */
void gate_summary(const struct gate *g, char *out, size_t size);

#endif
