/*
 * Plans.  Points are numbered mode-major, then receive side, then strategy:
 * point p of a grid of nd x nr x ns x nm x nt is mode p / (nr * ns * nm *
 * nt), receive side p / (ns * nm * nt) % nr, strategy p / (nm * nt) % ns,
 * size p / nt % nm, threads p % nt.
 */
#include <errno.h>
#include <stdlib.h>

#include "cause.h"
#include "plan.h"

struct run_config plan_point(const struct options *o,
			     const struct run_config *base, enum run_mode mode,
			     enum rx_mode rx,
			     const struct strategy_ops *strategy,
			     size_t msg_size, unsigned int threads)
{
	struct run_config c = *base;

	c.strategy = strategy;
	c.mode = mode;
	c.msg_size = msg_size;
	c.threads = threads;
	c.settings = o->run;
	c.settings.rx = rx;
	/*
	 * Only a strategy that waits for its receiver before it rewrites a
	 * page can be told not to: for the others it means nothing.
	 */
	c.settings.unsafe_reuse = o->run.unsafe_reuse &&
				  strategy->local_receiver;
	c.round = 1;
	return c;
}

int plan_build(const struct options *o, const struct run_config *base,
	       bool given_only, struct run_config **plan, size_t *count,
	       char **cause)
{
	bool all_s = !given_only || options_given(o, "strategy");
	bool all_m = !given_only || options_given(o, "msg-size");
	bool all_t = !given_only || options_given(o, "threads");
	bool all_d = !given_only || options_given(o, "mode");
	bool all_r = !given_only || options_given(o, "rx");
	size_t nd = all_d ? o->mode_count : 1;
	size_t nr = all_r ? o->rx_count : 1;
	size_t ns = all_s ? o->strategy_count : 1;
	size_t nm = all_m ? o->msg_size_count : 1;
	size_t nt = all_t ? o->thread_count : 1;
	size_t grid = nd * nr * ns * nm * nt;

	*plan = NULL;
	*count = 0;
	/* Refused before a byte of it is built: lists multiply. */
	if ((double)grid * o->repeat > PLAN_RUNS_MAX)
		return cause_set(cause, -E2BIG,
				 "the plan has %.0f runs (%zu modes x %zu "
				 "receive sides x %zu strategies x %zu sizes x "
				 "%zu flow counts x repeat %u); nio-top plans "
				 "at most %d",
				 (double)grid * o->repeat, nd, nr, ns, nm, nt,
				 o->repeat, PLAN_RUNS_MAX);
	*count = grid * o->repeat;
	*plan = calloc(*count, sizeof(**plan));
	if (!*plan)
		return cause_set(cause, -ENOMEM, "out of memory for %zu runs",
				 *count);
	for (size_t n = 0; n < *count; n++) {
		size_t p = n % grid;

		(*plan)[n] = plan_point(
			o, base,
			all_d ? (enum run_mode)o->modes[p / (nr * ns * nm * nt)]
			      : base->mode,
			all_r ? (enum rx_mode)o->rxs[p / (ns * nm * nt) % nr]
			      : base->settings.rx,
			all_s ? o->strategies[p / (nm * nt) % ns]
			      : base->strategy,
			all_m ? o->msg_sizes[p / nt % nm] : base->msg_size,
			all_t ? o->threads[p % nt] : base->threads);
		(*plan)[n].round = (unsigned int)(n / grid) + 1;
	}
	return 0;
}
