/*
 * The crossover search: sizes, their runs and leads, the brackets between
 * them, and the choice of the next run.  A size's figures are worked out
 * again from its runs after each one, and so is every bracket, so that a
 * search read back from an export is the search that wrote it
 * (crossover_rebuild()).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crossover.h"

const char *const crossover_lead_names[] = {
	"pending", "a", "b", "equal", "undecided", "failed", NULL,
};
const char *const crossover_state_names[] = {
	"searching", "found",  "none",	  "undecided",
	"budget",    "failed", "stopped", NULL,
};
static const char *const side_names[] = {"a", "b", NULL};

static const struct record_field run_fields[] = {
	RECORD_FIELD("run", RECORD_SIZE, struct crossover_run, number),
	RECORD_FIELD("msg_size", RECORD_SIZE, struct crossover_run, msg_size),
	RECORD_ENUM_FIELD("side", struct crossover_run, side, side_names),
	RECORD_FIELD("usable", RECORD_BOOL, struct crossover_run, usable),
	RECORD_FIELD("value", RECORD_NUMBER, struct crossover_run, value),
	RECORD_FIELD("wall_s", RECORD_FINITE, struct crossover_run, wall_s),
};
const struct record crossover_run_record = RECORD_OF(run_fields);

static const struct record_field size_fields[] = {
	RECORD_FIELD("msg_size", RECORD_SIZE, struct crossover_size, msg_size),
	RECORD_ENUM_FIELD("lead", struct crossover_size, lead,
			  crossover_lead_names),
	RECORD_FIELD("ratio", RECORD_NUMBER, struct crossover_size,
		     difference.ratio),
	RECORD_FIELD("low", RECORD_NUMBER, struct crossover_size,
		     difference.low),
	RECORD_FIELD("high", RECORD_NUMBER, struct crossover_size,
		     difference.high),
	RECORD_FIELD("runs_a", RECORD_SIZE, struct crossover_size, runs[0]),
	RECORD_FIELD("runs_b", RECORD_SIZE, struct crossover_size, runs[1]),
	RECORD_FIELD("failed", RECORD_SIZE, struct crossover_size, failed),
	RECORD_FIELD("median_a", RECORD_NUMBER, struct crossover_size,
		     median[0]),
	RECORD_FIELD("median_b", RECORD_NUMBER, struct crossover_size,
		     median[1]),
	RECORD_FIELD("hopeless", RECORD_BOOL, struct crossover_size, hopeless),
};
const struct record crossover_size_record = RECORD_OF(size_fields);

static const struct record_field bracket_fields[] = {
	RECORD_FIELD("below", RECORD_SIZE, struct crossover_bracket, below),
	RECORD_FIELD("above", RECORD_SIZE, struct crossover_bracket, above),
	RECORD_ENUM_FIELD("lead_below", struct crossover_bracket, lead_below,
			  crossover_lead_names),
	RECORD_ENUM_FIELD("lead_above", struct crossover_bracket, lead_above,
			  crossover_lead_names),
};
const struct record crossover_bracket_record = RECORD_OF(bracket_fields);

static const struct record_field head_fields[] = {
	RECORD_TEXT_FIELD("dimension", struct crossover, dimension),
	RECORD_TEXT_FIELD("a", struct crossover, value[0]),
	RECORD_TEXT_FIELD("b", struct crossover, value[1]),
	RECORD_TEXT_FIELD("label_a", struct crossover, label[0]),
	RECORD_TEXT_FIELD("label_b", struct crossover, label[1]),
	RECORD_TEXT_FIELD("metric", struct crossover, metric),
	RECORD_TEXT_FIELD("metric_label", struct crossover, metric_label),
	RECORD_TEXT_FIELD("context", struct crossover, context),
	RECORD_FIELD("higher_is_better", RECORD_BOOL, struct crossover,
		     question.higher_is_better),
	RECORD_FIELD("min_size", RECORD_SIZE, struct crossover,
		     question.min_size),
	RECORD_FIELD("max_size", RECORD_SIZE, struct crossover,
		     question.max_size),
	RECORD_FIELD("resolution", RECORD_FINITE, struct crossover,
		     question.resolution),
	RECORD_FIELD("budget_ms", RECORD_U64, struct crossover,
		     question.budget_ms),
	RECORD_FIELD("min_runs", RECORD_SIZE, struct crossover,
		     question.min_runs),
	RECORD_FIELD("most_runs", RECORD_SIZE, struct crossover,
		     question.most_runs),
	RECORD_ENUM_FIELD("state", struct crossover, state,
			  crossover_state_names),
	RECORD_TEXT_FIELD("why", struct crossover, why),
	RECORD_TEXT_FIELD("failure", struct crossover, failure),
	RECORD_FIELD("run_count", RECORD_SIZE, struct crossover, runs),
	RECORD_FIELD("left_out", RECORD_SIZE, struct crossover, failed),
	RECORD_FIELD("elapsed_s", RECORD_FINITE, struct crossover, elapsed_s),
};
const struct record crossover_record = RECORD_OF(head_fields);

void crossover_init(struct crossover *x, const struct crossover_question *q)
{
	memset(x, 0, sizeof(*x));
	x->question = *q;
	if (x->question.min_runs < 2)
		x->question.min_runs = 2;
	if (x->question.most_runs < x->question.min_runs)
		x->question.most_runs = x->question.min_runs;
}

void crossover_fini(struct crossover *x)
{
	free(x->run);
	memset(x, 0, sizeof(*x));
}

int crossover_copy(struct crossover *to, const struct crossover *from)
{
	*to = *from;
	to->run = calloc(from->run_count + 1, sizeof(*to->run));
	to->run_capacity = to->run ? from->run_count + 1 : 0;
	if (!to->run) {
		to->run_count = 0;
		return -ENOMEM;
	}
	memcpy(to->run, from->run, from->run_count * sizeof(*to->run));
	return 0;
}

bool crossover_searching(const struct crossover *x)
{
	return x->state == CROSSOVER_SEARCHING;
}

static void finish(struct crossover *x, enum crossover_state state,
		   const char *why)
{
	x->state = state;
	snprintf(x->why, sizeof(x->why), "%s", why);
}

void crossover_stop(struct crossover *x, const char *why)
{
	if (x->state == CROSSOVER_SEARCHING)
		finish(x, CROSSOVER_STOPPED, why);
	x->asked = false;
}

static struct crossover_size *size_find(struct crossover *x, size_t msg_size)
{
	for (size_t i = 0; i < x->size_count; i++)
		if (x->size[i].msg_size == msg_size)
			return &x->size[i];
	return NULL;
}

const struct crossover_size *crossover_size_of(const struct crossover *x,
					       size_t msg_size)
{
	return size_find((struct crossover *)x, msg_size);
}

const struct crossover_run *crossover_run_of(const struct crossover *x,
					     size_t number)
{
	for (size_t i = 0; number && i < x->run_count; i++)
		if (x->run[i].number == number)
			return &x->run[i];
	return NULL;
}

/* A size to try, in its place by size; NULL when no more fit. */
static struct crossover_size *size_add(struct crossover *x, size_t msg_size)
{
	size_t at = 0;

	if (size_find(x, msg_size))
		return size_find(x, msg_size);
	if (x->size_count == CROSSOVER_SIZES_MAX)
		return NULL;
	while (at < x->size_count && x->size[at].msg_size < msg_size)
		at++;
	memmove(&x->size[at + 1], &x->size[at],
		(x->size_count - at) * sizeof(x->size[0]));
	x->size_count++;
	x->size[at] = (struct crossover_size){
		.msg_size = msg_size,
		.median = {NAN, NAN},
		.difference = {.outcome = STATS_TOO_FEW_RUNS,
			       .ratio = NAN,
			       .low = NAN,
			       .high = NAN},
	};
	return &x->size[at];
}

static int double_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of n values (sorted in place here), NaN with none. */
static double median_of(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), double_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * Whether, at the spread the runs showed and the ratio they gave, even
 * most runs a side would leave the size undecided: neither the ratio's
 * lead past the minimum effect nor its tie within it could be shown
 * (stats_runs_to_tell(), as --diff says "would need n runs").
 */
static bool size_hopeless(const struct stats_point p[2],
			  const struct stats_difference *d, size_t most)
{
	double margin = log(1 + STATS_MIN_EFFECT), gap = fabs(log(d->ratio));
	size_t lead = SIZE_MAX, tie = SIZE_MAX;

	if (!isfinite(gap))
		return false;
	if (gap > margin)
		lead = stats_runs_to_tell(&p[0], &p[1], expm1(gap - margin),
					  most);
	if (gap < margin)
		tie = stats_runs_to_tell(&p[0], &p[1], expm1(margin - gap),
					 most);
	return lead == SIZE_MAX && tie == SIZE_MAX;
}

/* A decided outcome of B against A as a lead, or LEAD_PENDING. */
static enum crossover_lead lead_of(enum stats_outcome outcome)
{
	return outcome == STATS_AHEAD	 ? LEAD_B
	       : outcome == STATS_BEHIND ? LEAD_A
	       : outcome == STATS_EQUAL	 ? LEAD_EQUAL
					 : LEAD_PENDING;
}

/* Its lead, and whether it is done, from its runs' counts and test. */
static void size_judge(const struct crossover *x, struct crossover_size *z,
		       const struct stats_point p[2])
{
	const struct crossover_question *q = &x->question;
	bool enough = z->runs[0] >= q->min_runs && z->runs[1] >= q->min_runs;

	z->lead = enough ? lead_of(z->difference.outcome) : LEAD_PENDING;
	z->hopeless = false;
	if (z->lead == LEAD_PENDING && z->runs[0] >= q->most_runs &&
	    z->runs[1] >= q->most_runs)
		z->lead = LEAD_UNDECIDED;
	if (z->lead == LEAD_PENDING && enough && z->runs[0] >= 3 &&
	    z->runs[1] >= 3 && size_hopeless(p, &z->difference, q->most_runs)) {
		z->lead = LEAD_UNDECIDED;
		z->hopeless = true;
	}
	if (z->lead == LEAD_PENDING &&
	    z->failed_in_row >= CROSSOVER_FAILURES_MAX)
		z->lead = LEAD_FAILED;
	z->done = z->lead != LEAD_PENDING;
}

/* A size's counts, medians, test and lead from the runs at it. */
static int size_update(struct crossover *x, struct crossover_size *z)
{
	size_t n = x->run_count + 1;
	double *value = calloc(2 * n, sizeof(*value));
	double *sorted = calloc(n, sizeof(*sorted));
	struct stats_series *series = calloc(2 * n, sizeof(*series));
	struct stats_point p[2] = {0};

	if (!value || !sorted || !series) {
		free(value);
		free(sorted);
		free(series);
		return -ENOMEM;
	}
	z->runs[0] = z->runs[1] = z->failed = z->failed_in_row = 0;
	for (size_t i = 0; i < x->run_count; i++) {
		const struct crossover_run *r = &x->run[i];
		size_t k;

		if (r->msg_size != z->msg_size)
			continue;
		if (!r->usable) {
			z->failed++;
			z->failed_in_row++;
			continue;
		}
		z->failed_in_row = 0;
		k = z->runs[r->side]++;
		value[r->side * n + k] = r->value;
		series[r->side * n + k] = r->series;
	}
	z->difference = (struct stats_difference){.outcome = STATS_TOO_FEW_RUNS,
						  .ratio = NAN,
						  .low = NAN,
						  .high = NAN};
	for (int side = 0; side < 2; side++) {
		memcpy(sorted, value + side * n,
		       z->runs[side] * sizeof(double));
		z->median[side] = median_of(sorted, z->runs[side]);
		if (z->runs[side])
			stats_point(value + side * n, series + side * n,
				    z->runs[side], &p[side]);
	}
	if (z->runs[0] && z->runs[1])
		stats_compare(&p[1], &p[0], x->question.higher_is_better,
			      &z->difference);
	size_judge(x, z, p);
	free(value);
	free(sorted);
	free(series);
	return 0;
}

static int lead_sign(enum crossover_lead lead)
{
	return lead == LEAD_A ? -1 : lead == LEAD_B ? 1 : 0;
}

/* Neighbours among the decided sizes whose leads differ. */
static void brackets_find(struct crossover *x)
{
	const struct crossover_size *last = NULL;

	x->bracket_count = 0;
	for (size_t i = 0; i < x->size_count; i++) {
		const struct crossover_size *z = &x->size[i];

		if (!lead_sign(z->lead))
			continue;
		if (last && lead_sign(last->lead) != lead_sign(z->lead) &&
		    x->bracket_count < CROSSOVER_BRACKETS_MAX)
			x->bracket[x->bracket_count++] =
				(struct crossover_bracket){
					.below = last->msg_size,
					.above = z->msg_size,
					.lead_below = last->lead,
					.lead_above = z->lead,
				};
		last = z;
	}
}

int crossover_rebuild(struct crossover *x)
{
	int r = 0;

	x->size_count = 0;
	for (size_t i = 0; i < x->run_count; i++)
		if (!size_add(x, x->run[i].msg_size))
			return -E2BIG;
	for (size_t i = 0; i < x->size_count && r == 0; i++)
		r = size_update(x, &x->size[i]);
	brackets_find(x);
	return r;
}

/*
 * The size in the middle of lo and hi on a log scale, rounded to a whole
 * multiple of the largest power of two no more than a 32nd of it (within
 * 3%, and easier to read), or 0 if none lies strictly between them.
 */
static size_t size_between(size_t lo, size_t hi)
{
	double m = sqrt((double)lo * (double)hi);
	size_t step = 1, mid;

	while ((double)(step * 2) <= m / 32)
		step *= 2;
	mid = (size_t)llround(m / (double)step) * step;
	if (mid <= lo || mid >= hi)
		mid = (size_t)llround(m);
	return mid > lo && mid < hi ? mid : 0;
}

/*
 * The widest gap between neighbouring sizes tried within lo .. hi that is
 * wider than factor and can be split: its middle, 0 if none is.
 */
static size_t widest_gap(const struct crossover *x, size_t lo, size_t hi,
			 double factor, double *width)
{
	size_t best = 0;

	*width = 0;
	for (size_t i = 0; i + 1 < x->size_count; i++) {
		size_t a = x->size[i].msg_size, b = x->size[i + 1].msg_size;
		double w = (double)b / (double)a;
		size_t mid = size_between(a, b);

		if (a < lo || b > hi || w <= factor || w <= *width || !mid)
			continue;
		*width = w;
		best = mid;
	}
	return best;
}

/*
 * Whether every size tried strictly inside bracket b is equal within the
 * minimum effect (and one is): a tie between, where the leads change.
 */
static bool bracket_tied(const struct crossover *x,
			 const struct crossover_bracket *b)
{
	size_t inside = 0;

	for (size_t i = 0; i < x->size_count; i++) {
		const struct crossover_size *z = &x->size[i];

		if (z->msg_size <= b->below || z->msg_size >= b->above)
			continue;
		if (z->lead != LEAD_EQUAL)
			return false;
		inside++;
	}
	return inside > 0;
}

/*
 * Whether bracket i is as narrow as asked: no wider than the resolution,
 * or no gap between sizes tried in it wider and those sizes all equal.
 */
static bool bracket_narrow(const struct crossover *x, size_t i)
{
	const struct crossover_bracket *b = &x->bracket[i];
	double width;

	return (double)b->above / (double)b->below <= x->question.resolution ||
	       (!widest_gap(x, b->below, b->above, x->question.resolution,
			    &width) &&
		bracket_tied(x, b));
}

/*
 * The sizes tried that no runs decided: while one is, no change of lead is
 * no answer.
 */
static size_t undecided(const struct crossover *x)
{
	size_t n = 0;

	for (size_t i = 0; i < x->size_count; i++)
		n += x->size[i].lead == LEAD_UNDECIDED ||
		     x->size[i].lead == LEAD_FAILED;
	return n;
}

/* Why a search that found every bracket it can stopped, into why. */
static void found(const struct crossover *x, size_t tied, char *why,
		  size_t size)
{
	if (tied)
		snprintf(why, size,
			 "no gap between sizes tried in %s is wider than %gx "
			 "(--resolution), the sizes between its ends equal "
			 "within %.0f%%",
			 x->bracket_count == 1 ? "the bracket" : "a bracket",
			 x->question.resolution, STATS_MIN_EFFECT * 100);
	else
		snprintf(why, size, "%s narrower than %gx (--resolution)",
			 x->bracket_count == 1 ? "the bracket is"
					       : "every bracket is",
			 x->question.resolution);
}

/*
 * How the undecided sizes strictly between lo and hi were spent: "at most
 * 8 runs a side each", or where each gave up on its spread, "at the spread
 * their runs showed, not even 32 runs a side would do".
 */
static void spent_text(const struct crossover *x, size_t lo, size_t hi,
		       char *out, size_t size)
{
	bool hopeless = true;

	for (size_t i = 0; i < x->size_count; i++) {
		const struct crossover_size *z = &x->size[i];

		if (z->msg_size > lo && z->msg_size < hi &&
		    z->lead == LEAD_UNDECIDED)
			hopeless &= z->hopeless;
	}
	if (hopeless)
		snprintf(out, size,
			 "at the spread their runs showed, not even %zu runs "
			 "a side would do",
			 x->question.most_runs);
	else
		snprintf(out, size, "at most %zu runs a side each",
			 x->question.most_runs);
}

/*
 * Once every size tried is done: the size to try next, in the widest gap
 * of a bracket wider than the resolution or, with no bracket, wider than
 * the scan's factor.  0 when none is left: then *state is what the search
 * would end as, and why says why.
 */
static size_t size_next(struct crossover *x, enum crossover_state *state,
			char *why, size_t size)
{
	const struct crossover_question *q = &x->question;
	size_t best = 0, stuck = 0, tied = 0, mid;
	double widest = 0, width;
	char lo[24], hi[24], spent[96];

	for (size_t i = 0; i < x->bracket_count; i++) {
		const struct crossover_bracket *b = &x->bracket[i];

		if ((double)b->above / (double)b->below <= q->resolution)
			continue;
		mid = widest_gap(x, b->below, b->above, q->resolution, &width);
		if (!mid && bracket_tied(x, b))
			tied++;
		else if (!mid && !stuck)
			stuck = i + 1;
		if (mid && width > widest) {
			widest = width;
			best = mid;
		}
	}
	if (x->bracket_count == 0)
		best = widest_gap(x, q->min_size, q->max_size,
				  CROSSOVER_SCAN_FACTOR, &width);
	if (best && x->size_count < CROSSOVER_SIZES_MAX)
		return best;
	*state = CROSSOVER_UNDECIDED;
	if (best) {
		snprintf(why, size,
			 "the most sizes a search tries (%d) were "
			 "tried",
			 CROSSOVER_SIZES_MAX);
	} else if (!x->bracket_count && undecided(x)) {
		spent_text(x, 0, SIZE_MAX, spent, sizeof(spent));
		snprintf(why, size,
			 "%zu of the %zu sizes tried were not decided (%s): "
			 "their runs spread too widely for the test; longer "
			 "runs (-d) would tell more",
			 undecided(x), x->size_count, spent);
	} else if (!x->bracket_count) {
		*state = CROSSOVER_NONE;
		snprintf(why, size,
			 "no lead changed between neighbouring sizes tried, "
			 "none more than %gx apart",
			 CROSSOVER_SCAN_FACTOR);
	} else if (stuck) {
		crossover_size_text(x->bracket[stuck - 1].below, lo,
				    sizeof(lo));
		crossover_size_text(x->bracket[stuck - 1].above, hi,
				    sizeof(hi));
		spent_text(x, x->bracket[stuck - 1].below,
			   x->bracket[stuck - 1].above, spent, sizeof(spent));
		snprintf(why, size,
			 "the sizes between %s and %s, no more than %gx apart, "
			 "were not decided (%s)",
			 lo, hi, q->resolution, spent);
	} else {
		*state = CROSSOVER_FOUND;
		found(x, tied, why, size);
	}
	return 0;
}

/*
 * Before an answer that undecided sizes leave open: more runs a size, up
 * to CROSSOVER_RUNS_CEILING, each size judged again under the higher cap.
 * Whether one opened again (it runs on); false at the ceiling.
 */
static bool runs_raise(struct crossover *x)
{
	bool reopened = false;

	if (x->question.most_runs >= CROSSOVER_RUNS_CEILING)
		return false;
	x->question.most_runs *= 2;
	if (x->question.most_runs > CROSSOVER_RUNS_CEILING)
		x->question.most_runs = CROSSOVER_RUNS_CEILING;
	for (size_t i = 0; i < x->size_count; i++) {
		size_update(x, &x->size[i]);
		reopened |= !x->size[i].done;
	}
	brackets_find(x);
	return reopened || runs_raise(x);
}

/* The size not done with the fewest runs (both ends alike), or NULL. */
static struct crossover_size *size_open(struct crossover *x)
{
	struct crossover_size *z = NULL;

	for (size_t i = 0; i < x->size_count; i++) {
		const struct crossover_size *c = &x->size[i];

		if (!c->done &&
		    (!z || c->runs[0] + c->runs[1] + c->failed <
				   z->runs[0] + z->runs[1] + z->failed))
			z = &x->size[i];
	}
	return z;
}

/*
 * The size of the next run: one not done, else a new one, else -- where
 * undecided sizes leave the answer open -- one reopened by a higher cap.
 * NULL once the search has finished.
 */
static struct crossover_size *size_choose(struct crossover *x)
{
	enum crossover_state state = CROSSOVER_SEARCHING;
	struct crossover_size *z = size_open(x);
	char why[CROSSOVER_TEXT_MAX];
	size_t next;
	bool open = false;

	if (z)
		return z;
	next = size_next(x, &state, why, sizeof(why));
	if (next)
		return size_add(x, next);
	for (size_t i = 0; i < x->size_count; i++)
		open |= x->size[i].lead == LEAD_UNDECIDED;
	if (open && state != CROSSOVER_FOUND) {
		if (runs_raise(x))
			return size_open(x);
		/* Said at the cap it reached. */
		size_next(x, &state, why, sizeof(why));
	}
	finish(x, state, why);
	return NULL;
}

/* A run's length as the runs so far took it, or as planned. */
static double run_estimate_s(const struct crossover *x)
{
	double sum = 0;
	size_t n = 0;

	for (size_t i = 0; i < x->run_count; i++)
		if (x->run[i].number) {
			sum += x->run[i].wall_s;
			n++;
		}
	return n ? sum / (double)n : x->question.planned_s;
}

/* Whether another run would end past the budget: then it is spent. */
static bool budget_spent(struct crossover *x, uint64_t now_ns)
{
	double budget_s = (double)x->question.budget_ms / 1000;
	double elapsed_s = x->started_ns && now_ns > x->started_ns
				   ? (double)(now_ns - x->started_ns) / 1e9
				   : 0;
	double run_s = run_estimate_s(x);
	char why[CROSSOVER_TEXT_MAX], budget[32], run[32], spent[32];

	if (elapsed_s + run_s <= budget_s)
		return false;
	crossover_duration_text(budget_s, budget, sizeof(budget));
	crossover_duration_text(run_s, run, sizeof(run));
	crossover_duration_text(elapsed_s, spent, sizeof(spent));
	snprintf(why, sizeof(why),
		 "the budget of %s was spent: %s gone, and a run takes about "
		 "%s",
		 budget, spent, run);
	finish(x, CROSSOVER_BUDGET, why);
	return true;
}

/*
 * The side of a size's next run: the one with fewer runs, else A then B
 * in even pairs and B then A in odd ones, so that a drift of the machine
 * falls on both alike.
 */
static int side_next(const struct crossover_size *z)
{
	if (z->runs[0] != z->runs[1])
		return z->runs[0] < z->runs[1] ? 0 : 1;
	return z->runs[0] % 2 ? 1 : 0;
}

bool crossover_next(struct crossover *x, uint64_t now_ns, size_t *msg_size,
		    int *side)
{
	struct crossover_size *z = NULL;

	if (x->state != CROSSOVER_SEARCHING)
		return false;
	if (!x->size_count) {
		size_add(x, x->question.min_size);
		size_add(x, x->question.max_size);
	}
	if (budget_spent(x, now_ns))
		return false;
	z = size_choose(x);
	if (!z)
		return false;
	*msg_size = z->msg_size;
	*side = side_next(z);
	x->asked = true;
	x->asked_size = *msg_size;
	x->asked_side = *side;
	x->asked_ns = now_ns;
	if (!x->started_ns)
		x->started_ns = now_ns;
	return true;
}

/* Ends the search where a size's runs kept failing. */
static void failed_at(struct crossover *x, const struct crossover_size *z)
{
	char why[CROSSOVER_TEXT_MAX], size[24];

	crossover_size_text(z->msg_size, size, sizeof(size));
	snprintf(why, sizeof(why), "%zu runs in a row at %s did not count%s%s",
		 z->failed_in_row, size, x->failure[0] ? ": " : "", x->failure);
	finish(x, CROSSOVER_FAILED, why);
}

int crossover_add(struct crossover *x, const struct crossover_run *run,
		  const char *error, uint64_t now_ns)
{
	struct crossover_run *r;
	struct crossover_size *z;
	int err;

	if (!x->asked)
		return 0;
	x->asked = false;
	if (x->run_count == x->run_capacity) {
		size_t cap = x->run_capacity ? 2 * x->run_capacity : 32;
		void *grown = realloc(x->run, cap * sizeof(*x->run));

		if (!grown)
			return -ENOMEM;
		x->run = grown;
		x->run_capacity = cap;
	}
	r = &x->run[x->run_count++];
	*r = *run;
	r->msg_size = x->asked_size;
	r->side = x->asked_side;
	r->wall_s = now_ns > x->asked_ns ? (double)(now_ns - x->asked_ns) / 1e9
					 : 0;
	if (!r->usable)
		r->value = NAN;
	x->runs++;
	if (!r->usable) {
		x->failed++;
		if (error && r->number)
			snprintf(x->failure, sizeof(x->failure), "run %zu: %s",
				 r->number, error);
		else if (error)
			snprintf(x->failure, sizeof(x->failure), "%s", error);
	}
	if (now_ns > x->started_ns)
		x->elapsed_s = (double)(now_ns - x->started_ns) / 1e9;
	z = size_find(x, r->msg_size);
	err = z ? size_update(x, z) : 0;
	brackets_find(x);
	if (z && z->lead == LEAD_FAILED && x->state == CROSSOVER_SEARCHING)
		failed_at(x, z);
	return err;
}

void crossover_size_text(size_t bytes, char *out, size_t size)
{
	double unit = bytes >= 1024 * 1024 ? 1048576 : 1024;

	/* Exact, as short as that allows: "180 KiB", "5.625 KiB", else bytes. */
	for (int digits = 3; bytes >= 1024 && digits <= 6; digits++) {
		char text[24];

		snprintf(text, sizeof(text), "%.*g", digits,
			 (double)bytes / unit);
		if (strtod(text, NULL) * unit == (double)bytes) {
			snprintf(out, size, "%s %s", text,
				 unit > 1024 ? "MiB" : "KiB");
			return;
		}
	}
	snprintf(out, size, "%zu B", bytes);
}

void crossover_duration_text(double seconds, char *out, size_t size)
{
	long s = lround(seconds);

	if (s >= 3600)
		snprintf(out, size, "%ld h %ld min", s / 3600, s % 3600 / 60);
	else if (s >= 60 && s % 60)
		snprintf(out, size, "%ld min %ld s", s / 60, s % 60);
	else if (s >= 60)
		snprintf(out, size, "%ld min", s / 60);
	else if (seconds >= 9.95 || seconds == 0)
		snprintf(out, size, "%ld s", s);
	else
		snprintf(out, size, "%.1f s", seconds);
}

void crossover_lead_text(const struct crossover *x, enum crossover_lead lead,
			 char *out, size_t size)
{
	switch (lead) {
	case LEAD_A:
	case LEAD_B:
		snprintf(out, size, "%s ahead", x->label[lead == LEAD_B]);
		break;
	case LEAD_EQUAL:
		snprintf(out, size, "equal within %.0f%%",
			 STATS_MIN_EFFECT * 100);
		break;
	default:
		snprintf(out, size, "%s", crossover_lead_names[lead]);
		break;
	}
}

/* "B overtakes A between 8 KiB and 10 KiB": bracket i. */
static size_t bracket_text(const struct crossover *x, size_t i, char *out,
			   size_t size)
{
	const struct crossover_bracket *b = &x->bracket[i];
	char lo[24], hi[24];

	crossover_size_text(b->below, lo, sizeof(lo));
	crossover_size_text(b->above, hi, sizeof(hi));
	return (size_t)snprintf(out, size, "%s overtakes %s between %s and %s",
				x->label[b->lead_above == LEAD_B],
				x->label[b->lead_below == LEAD_B], lo, hi);
}

/*
 * The sizes tried whose lead is lead, for people: "1 KiB, 4 KiB and 16
 * KiB" ("" when none).
 */
static void sizes_text(const struct crossover *x, enum crossover_lead lead,
		       char *out, size_t size)
{
	size_t n = 0, len = 0, said = 0;
	char one[24];

	for (size_t i = 0; i < x->size_count; i++)
		n += x->size[i].lead == lead;
	out[0] = '\0';
	for (size_t i = 0; i < x->size_count && len < size; i++) {
		if (x->size[i].lead != lead)
			continue;
		crossover_size_text(x->size[i].msg_size, one, sizeof(one));
		said++;
		len += (size_t)snprintf(out + len, size - len, "%s%s",
					said == 1   ? ""
					: said == n ? " and "
						    : ", ",
					one);
	}
}

/*
 * Without a bracket: who is ahead where, "one-copy ahead at every size
 * tried", "within 5% of each other at every size tried", or each lead at
 * its sizes: "one-copy ahead at 1 KiB and 4 KiB; undecided at 64 KiB".
 */
static void leads_text(const struct crossover *x, char *out, size_t size)
{
	static const enum crossover_lead order[] = {
		LEAD_A,		LEAD_B,	     LEAD_EQUAL,
		LEAD_UNDECIDED, LEAD_FAILED, LEAD_PENDING,
	};
	size_t count[LEAD_COUNT] = {0}, len = 0;
	char lead[128], sizes[CROSSOVER_TEXT_MAX / 2];

	for (size_t i = 0; i < x->size_count; i++)
		count[x->size[i].lead]++;
	for (size_t k = 0; k < LEAD_COUNT; k++)
		if (count[k] && count[k] == x->size_count) {
			if (k == LEAD_EQUAL)
				snprintf(lead, sizeof(lead),
					 "within %.0f%% of each other",
					 STATS_MIN_EFFECT * 100);
			else
				crossover_lead_text(x, (enum crossover_lead)k,
						    lead, sizeof(lead));
			snprintf(out, size, "%s at every size tried", lead);
			return;
		}
	out[0] = '\0';
	for (size_t k = 0; k < sizeof(order) / sizeof(*order); k++) {
		if (!count[order[k]] || len >= size)
			continue;
		crossover_lead_text(x, order[k], lead, sizeof(lead));
		sizes_text(x, order[k], sizes, sizeof(sizes));
		len += (size_t)snprintf(out + len, size - len, "%s%s at %s",
					len ? "; " : "", lead, sizes);
	}
	if (!len)
		snprintf(out, size, "no size tried");
}

/*
 * The answer without its figure and cost: every bracket (headed "more than
 * one crossover in ..." where headed), or without one who is ahead where.
 * Its length, as snprintf's.
 */
static size_t answer_text(const struct crossover *x, bool headed, char *out,
			  size_t size)
{
	char lo[24], hi[24], leads[CROSSOVER_TEXT_MAX / 2];
	size_t len = 0;

	crossover_size_text(x->question.min_size, lo, sizeof(lo));
	crossover_size_text(x->question.max_size, hi, sizeof(hi));
	if (x->state == CROSSOVER_FAILED)
		return (size_t)snprintf(out, size, "no answer in %s..%s: %s",
					lo, hi, x->why);
	if (!x->bracket_count) {
		leads_text(x, leads, sizeof(leads));
		return (size_t)snprintf(
			out, size, "no crossover %sin %s..%s%s: %s",
			x->state == CROSSOVER_UNDECIDED ? "decided "
			: x->state == CROSSOVER_BUDGET ||
					x->state == CROSSOVER_STOPPED
				? "found "
				: "",
			lo, hi,
			x->state == CROSSOVER_SEARCHING ? " so far"
			: x->state == CROSSOVER_BUDGET	? " within the budget"
			: x->state == CROSSOVER_STOPPED ? " before it stopped"
							: "",
			leads);
	}
	if (headed && x->bracket_count > 1)
		len = (size_t)snprintf(
			out, size, "more than one crossover in %s..%s: ", lo,
			hi);
	/* An ended search says which brackets it left wider than asked. */
	for (size_t i = 0; i < x->bracket_count && len < size; i++) {
		if (i)
			len += (size_t)snprintf(out + len, size - len, "; ");
		if (len < size)
			len += bracket_text(x, i, out + len, size - len);
		if (x->state != CROSSOVER_SEARCHING &&
		    x->state != CROSSOVER_FOUND && !bracket_narrow(x, i) &&
		    len < size)
			len += (size_t)snprintf(out + len, size - len,
						", not narrowed to %gx",
						x->question.resolution);
	}
	if (x->state == CROSSOVER_SEARCHING && len < size)
		len += (size_t)snprintf(out + len, size - len, " so far");
	return len;
}

void crossover_line(const struct crossover *x, char *out, size_t size)
{
	size_t len = answer_text(x, true, out, size);
	char took[32];

	if (x->state == CROSSOVER_FAILED || len >= size)
		return;
	crossover_duration_text(x->elapsed_s, took, sizeof(took));
	snprintf(out + len, size - len,
		 " (%s, %.0f%%; %zu size%s, %zu run%s, %s)", x->metric_label,
		 STATS_CONFIDENCE * 100, x->size_count,
		 x->size_count == 1 ? "" : "s", x->runs,
		 x->runs == 1 ? "" : "s", took);
}

void crossover_answer(const struct crossover *x, char *out, size_t size)
{
	answer_text(x, false, out, size);
}

void crossover_progress(const struct crossover *x, char *out, size_t size)
{
	char took[32], budget[32];

	crossover_duration_text(x->elapsed_s, took, sizeof(took));
	crossover_duration_text((double)x->question.budget_ms / 1000, budget,
				sizeof(budget));
	snprintf(out, size, "%zu size%s, %zu run%s, %s of %s", x->size_count,
		 x->size_count == 1 ? "" : "s", x->runs,
		 x->runs == 1 ? "" : "s", took, budget);
}

void crossover_status(const struct crossover *x, char *out, size_t size)
{
	size_t len;

	crossover_progress(x, out, size);
	len = strlen(out);
	if (len + 2 < size && x->size_count) {
		len += (size_t)snprintf(out + len, size - len, "; ");
		answer_text(x, false, out + len, size - len);
	}
}

double crossover_left_s(const struct crossover *x, uint64_t now_ns)
{
	double spent = x->elapsed_s;

	if (x->state == CROSSOVER_SEARCHING && x->started_ns &&
	    now_ns > x->started_ns)
		spent = (double)(now_ns - x->started_ns) / 1e9;
	return fmax((double)x->question.budget_ms / 1000 - spent, 0);
}
