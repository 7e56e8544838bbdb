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
