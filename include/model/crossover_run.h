/*
 * The crossover search over a session's runs: the question put from the
 * options (--resolution, --budget, --repeat, --metric), each side's run
 * from the pair (plan_crossover(), or the explorer's own), and each
 * finished run's figure read as the analysis reads every figure:
 * estimate_run(), and the analysis' own facts of which runs count (short
 * and stopped ones do not).  It is handed the runs, not the session, which
 * opens and frees the search and so sits above it.
 */
#ifndef NIO_TOP_CROSSOVER_RUN_H
#define NIO_TOP_CROSSOVER_RUN_H

#include "analysis.h"
#include "crossover.h"
#include "plan.h"

/*
 * A search of pair with o's figure and stopping rules: 0 with *out (free
 * it with crossover_free()), or -errno with *cause.
 */
int crossover_start(struct crossover **out, const struct options *o,
		    const struct plan_pair *pair, char **cause);
/* The same of o->crossover (plan_crossover()), base as for plan_point(). */
int crossover_open(struct crossover **out, const struct options *o,
		   const struct run_config *base, char **cause);
void crossover_free(struct crossover *x);

/* The next run at now_ns, or false once the search has stopped. */
bool crossover_next_run(struct crossover *x, uint64_t now_ns,
			struct run_config *config);
/*
 * The run asked for last is the session's run number, result, with the
 * analysis' facts of it (NULL: none), ended at now_ns; or it could not
 * start, why.  0, or -ENOMEM.
 */
int crossover_take(struct crossover *x, size_t number,
		   const struct run_result *result,
		   const struct analysis_run *facts, uint64_t now_ns);
int crossover_refused(struct crossover *x, const char *why, uint64_t now_ns);

/*
 * A search read back from an export (its head and runs), made whole from
 * the session's runs (results, run n at n - 1): its figure, each run's
 * intervals, its sizes and brackets.  0, or -EINVAL with *cause (path
 * names it) when a run it names is not one of the session's or not of its
 * size.
 */
int crossover_loaded(struct crossover *x, const struct run_result *results,
		     size_t result_count, const char *path, char **cause);

/*
 * For a verdict of a grid ("one-copy beats two-copy from 16K"): the
 * bracket its grid implies, the size before its first and that size, and
 * the --crossover command that would narrow it, into out ("the grid puts
 * ... between 4K and 16K; nio-top --crossover strategy=two-copy,one-copy
 * -m 4K..16K narrows it").  1 when there is one to suggest, else 0.
 */
int crossover_suggest(const struct analysis_crossover *c, char *out,
		      size_t size);

#endif
