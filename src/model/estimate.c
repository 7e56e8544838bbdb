/*
 * The estimator: a run's figure, and its intervals' series for the
 * uncertainty within the run.
 */
#include <math.h>
#include <stdlib.h>

#include "estimate.h"

/* An interval shorter than half a tick is a sliver of one. */
#define SLIVER_S (RUN_TICK_MS / 2000.0)

struct estimate_of estimate_figure_of(enum run_mode mode)
{
	if (mode == RUN_RR)
		return (struct estimate_of){.metric = -1, .percentile = 50};
	return (struct estimate_of){.metric = metric_find("gbps")};
}

const char *estimate_key(const struct estimate_of *of)
{
	if (of->metric >= 0)
		return metrics[of->metric].key;
	return of->percentile == 99 ? "p99_us" : "p50_us";
}

/* The run's value of a round trip's percentile, or NaN. */
static double round_trip(const struct run_result *r, unsigned int percentile)
{
	if (r->config.mode != RUN_RR || !r->latency.count)
		return NAN;
	return percentile == 99 ? r->latency.p99_us : r->latency.p50_us;
}

/*
 * The measured intervals' values of metric at a side.  A sliver (any tick
 * under SLIVER_S: the window's last partial one, or one a late loop cut
 * short) joins the interval before it, weighted by time: alone, its rate
 * over a few ms would count as much as 100 ms.
 */
static void interval_series(const struct run_result *r, int metric, int side,
			    struct stats_series *out)
{
	double *values = calloc(r->interval_count + 1, sizeof(*values));
	double *lengths = calloc(r->interval_count + 1, sizeof(*lengths));
	size_t n = 0;

	for (size_t i = 0;
	     values && lengths && metric >= 0 && i < r->interval_count; i++) {
		const struct run_interval *iv = &r->intervals[i];
		double v = iv->side[side].value[metric];

		if (iv->warmup || !isfinite(v))
			continue;
		if (n &&
		    (iv->length_s < SLIVER_S || lengths[n - 1] < SLIVER_S)) {
			double l = lengths[n - 1] + iv->length_s;

			if (l > 0)
				values[n - 1] = (values[n - 1] *
							 lengths[n - 1] +
						 v * iv->length_s) /
						l;
			lengths[n - 1] = l;
			continue;
		}
		values[n] = v;
		lengths[n++] = iv->length_s;
	}
	stats_series(values, n, out);
	free(values);
	free(lengths);
}

bool estimate_run(const struct run_result *r, const struct estimate_of *of,
		  double *value, struct stats_series *series)
{
	if (of->metric < 0) {
		interval_series(r, metric_find("msgs_per_s"), 1, series);
		*value = round_trip(r, of->percentile);
		return isfinite(*value);
	}
	interval_series(r, of->metric, of->sender ? 0 : 1, series);
	if (!run_result_metric(r, of->sender, (size_t)of->metric, value))
		*value = NAN;
	return isfinite(*value);
}
