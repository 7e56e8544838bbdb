/*
 * Plans.  The grid's dimensions are rows of the option table whose values
 * are lists, outermost first (dimensions[]); point p of the grid takes of
 * each dimension the value (p / the product of the counts of those inside
 * it) % its count, as digits of a number, so runs are numbered mode-major
 * and threads vary fastest.  A dimension's value is copied from the row's
 * list to the run's own field (the row's run_offset), item by item.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cause.h"
#include "options_private.h"
#include "plan.h"

/* The grid's dimensions, outermost first, each with its plural. */
static const struct {
	const char *name;
	const char *plural;
} dimensions[] = {
	{"mode", "modes"},
	{"rx", "receive sides"},
	{"gro", "GRO settings"},
	{"gso-ipv4-max-size", "GSO sizes"},
	{"busy-poll", "busy-poll settings"},
	{"load-rate", "load rates"},
	{"strategy", "strategies"},
	{"msg-size", "sizes"},
	{"threads", "flow counts"},
};

#define DIMENSIONS (sizeof(dimensions) / sizeof(dimensions[0]))

/* A dimension of one plan: its row, and how many values it takes. */
struct plan_dim {
	const struct option_row *row;
	size_t count;
	bool all; /* its list, or (1) the base run's value */
};

static void plan_dims(const struct options *o, bool given_only,
		      struct plan_dim dims[DIMENSIONS])
{
	for (size_t d = 0; d < DIMENSIONS; d++) {
		const struct option_row *row = options_by_name(
			dimensions[d].name);

		dims[d] = (struct plan_dim){
			.row = row,
			.all = !given_only ||
			       options_given(o, dimensions[d].name),
		};
		dims[d].count = dims[d].all ? *(const size_t *)options_at(
						      o, row->count_offset)
					    : 1;
	}
}

/*
 * The run at index[] of each dimension: o's settings, each dimension's value
 * from its list (or base's where it is not all), base's role and counters.
 */
static struct run_config plan_fill(const struct options *o,
				   const struct run_config *base,
				   const struct plan_dim dims[DIMENSIONS],
				   const size_t index[DIMENSIONS])
{
	struct run_config c = *base;

	c.settings = o->run;
	for (size_t d = 0; d < DIMENSIONS; d++) {
		const struct option_row *row = dims[d].row;
		size_t size = options_type_of(row)->item_size;
		const void *from = dims[d].all
					   ? (const char *)options_at(
						     o, row->offset) +
						     index[d] * size
					   : options_at(base, row->run_offset);

		memcpy(options_at(&c, row->run_offset), from, size);
	}
	/*
	 * Only a strategy that waits for its receiver before it rewrites a
	 * page can be told not to: for the others it means nothing.
	 */
	c.settings.unsafe_reuse = o->run.unsafe_reuse &&
				  c.strategy->local_receiver;
	c.round = 1;
	return c;
}

struct run_config plan_point(const struct options *o,
			     const struct run_config *base)
{
	struct plan_dim dims[DIMENSIONS];
	const size_t first[DIMENSIONS] = {0};

	plan_dims(o, false, dims);
	return plan_fill(o, base, dims, first);
}

/* "2 modes x 7 strategies x repeat 3": the lists that multiply. */
static void plan_product(const struct plan_dim dims[DIMENSIONS],
			 unsigned int repeat, char *out, size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	for (size_t d = 0; d < DIMENSIONS && len < size; d++)
		if (dims[d].count > 1)
			len += (size_t)snprintf(out + len, size - len,
						"%zu %s x ", dims[d].count,
						dimensions[d].plural);
	if (len < size)
		snprintf(out + len, size - len, "repeat %u", repeat);
}

int plan_build(const struct options *o, const struct run_config *base,
	       bool given_only, struct run_config **plan, size_t *count,
	       char **cause)
{
	struct plan_dim dims[DIMENSIONS];
	double grid = 1;
	char product[256];

	*plan = NULL;
	*count = 0;
	plan_dims(o, given_only, dims);
	for (size_t d = 0; d < DIMENSIONS; d++)
		grid *= (double)dims[d].count;
	/* Refused before a byte of it is built: lists multiply. */
	if (grid * o->repeat > PLAN_RUNS_MAX) {
		plan_product(dims, o->repeat, product, sizeof(product));
		return cause_set(cause, -E2BIG,
				 "the plan has %.0f runs (%s); nio-top plans "
				 "at most %d",
				 grid * o->repeat, product, PLAN_RUNS_MAX);
	}
	*count = (size_t)grid * o->repeat;
	*plan = calloc(*count, sizeof(**plan));
	if (!*plan)
		return cause_set(cause, -ENOMEM, "out of memory for %zu runs",
				 *count);
	for (size_t n = 0; n < *count; n++) {
		size_t index[DIMENSIONS], p = n % (size_t)grid;

		for (size_t d = DIMENSIONS; d-- > 0;) {
			index[d] = p % dims[d].count;
			p /= dims[d].count;
		}
		(*plan)[n] = plan_fill(o, base, dims, index);
		(*plan)[n].round = (unsigned int)(n / (size_t)grid) + 1;
	}
	return 0;
}

/* Whether two runs have the same point and settings, as a run writes them. */
static bool plan_same(const struct run_config *a, const struct run_config *b)
{
	cJSON *ja = cJSON_CreateObject(), *jb = cJSON_CreateObject();
	bool same;

	options_run_to_json(a, ja);
	options_run_to_json(b, jb);
	same = cJSON_Compare(ja, jb, true);
	cJSON_Delete(ja);
	cJSON_Delete(jb);
	return same;
}

/* The run setting a crossover pairs, by its run key or its option's name. */
static const struct option_row *pair_row(const char *dimension)
{
	for (size_t i = 0; i < option_row_count; i++) {
		const struct option_row *row = &option_rows[i];

		if (!(row->flags & OPTION_RUN) ||
		    strcmp(row->run_key, "msg_size") == 0 ||
		    strcmp(row->run_key, "mode") == 0)
			continue;
		if (strcmp(row->run_key, dimension) == 0 ||
		    (row->name && strcmp(row->name, dimension) == 0) ||
		    (row->was && (strcmp(row->was->run_key, dimension) == 0 ||
				  strcmp(row->was->name, dimension) == 0)))
			return row;
	}
	return NULL;
}

/* "DIM=A,B" into its dimension's row and the two values. */
static int pair_parse(const char *text, struct plan_pair *pair,
		      const struct option_row **row, char **cause)
{
	char copy[128], *eq, *comma;

	snprintf(copy, sizeof(copy), "%s", text);
	eq = strchr(copy, '=');
	comma = eq ? strchr(eq + 1, ',') : NULL;
	if (!eq || eq == copy || !comma || comma == eq + 1 || !comma[1] ||
	    strchr(comma + 1, ','))
		return cause_set(cause, -EINVAL,
				 "--crossover: '%s' is not DIM=A,B (two "
				 "values of one run setting: "
				 "strategy=one-copy,sendfile)",
				 text);
	*eq = *comma = '\0';
	*row = pair_row(copy);
	if (!*row)
		return cause_set(cause, -EINVAL,
				 "--crossover: '%s' is not a run setting a "
				 "pair can differ in (strategy, rx, threads, "
				 "fields, gso_ipv4_max_size, ...; not msg_size "
				 "or mode)",
				 copy);
	snprintf(pair->dimension, sizeof(pair->dimension), "%s",
		 (*row)->run_key);
	snprintf(pair->value[0], sizeof(pair->value[0]), "%s", eq + 1);
	snprintf(pair->value[1], sizeof(pair->value[1]), "%s", comma + 1);
	return 0;
}

/* Side k's options: o with the pair's setting at its value. */
static int pair_side(const struct options *o, const struct option_row *row,
		     const char *value, struct options *side, char **cause)
{
	const char *zero = row->control ? row->control->zero : NULL;
	char *why = NULL;
	int r;

	*side = *o;
	r = options_value_from_text(
		side, row, zero && strcmp(value, zero) == 0 ? "0" : value,
		&why);
	if (r < 0) {
		cause_set(cause, r, "--crossover: %s", why ? why : value);
		free(why);
		return r;
	}
	if (row->count_offset &&
	    *(const size_t *)options_at(side, row->count_offset) != 1)
		return cause_set(cause, -EINVAL,
				 "--crossover: '%s' is not one value", value);
	return 0;
}

/*
 * A crossover compares one pair: each grid list other than the pair's and
 * the sizes' holds one value.
 */
static int pair_alone(const struct options *o, const struct option_row *row,
		      char **cause)
{
	for (size_t d = 0; d < DIMENSIONS; d++) {
		const struct option_row *dim = options_by_name(
			dimensions[d].name);
		size_t n = *(const size_t *)options_at(o, dim->count_offset);

		if (dim == row || strcmp(dimensions[d].name, "msg-size") == 0 ||
		    n == 1)
			continue;
		return cause_set(cause, -EINVAL,
				 "--crossover compares one pair: --%s has %zu "
				 "%s; give one",
				 dim->name, n, dimensions[d].plural);
	}
	if (o->msg_size_count < 2)
		return cause_set(cause, -EINVAL,
				 "--crossover searches a range of sizes: -m "
				 "MIN..MAX (1K..1M)");
	return 0;
}

int plan_crossover(const struct options *o, const struct run_config *base,
		   struct plan_pair *pair, char **cause)
{
	const struct option_row *row;
	struct options *side = calloc(2, sizeof(*side));
	int r = side ? 0 : -ENOMEM;

	memset(pair, 0, sizeof(*pair));
	if (r == 0)
		r = pair_parse(o->crossover, pair, &row, cause);
	if (r == 0)
		r = pair_alone(o, row, cause);
	for (int k = 0; k < 2 && r == 0; k++)
		r = pair_side(o, row, pair->value[k], &side[k], cause);
	if (r < 0)
		goto out;
	pair->min_size = pair->max_size = o->msg_sizes[0];
	for (size_t i = 1; i < o->msg_size_count; i++) {
		if (o->msg_sizes[i] < pair->min_size)
			pair->min_size = o->msg_sizes[i];
		if (o->msg_sizes[i] > pair->max_size)
			pair->max_size = o->msg_sizes[i];
	}
	if (pair->min_size == pair->max_size) {
		r = cause_set(cause, -EINVAL,
			      "--crossover searches a range of sizes: -m "
			      "MIN..MAX (1K..1M)");
		goto out;
	}
	for (int k = 0; k < 2; k++) {
		pair->side[k] = plan_point(&side[k], base);
		pair->side[k].msg_size = pair->min_size;
	}
	if (plan_same(&pair->side[0], &pair->side[1]))
		r = cause_set(cause, -EINVAL,
			      "--crossover: %s and %s are the same run",
			      pair->value[0], pair->value[1]);
out:
	free(side);
	return r;
}
