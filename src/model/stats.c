/*
 * The statistics.  Everything here is deterministic: the bootstrap draws from
 * a fixed seed, so an export loaded again gives the verdicts it was written
 * with.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "stats.h"

/* splitmix64: small, fast and good enough to pick blocks. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void stats_series(const double *values, size_t count, struct stats_series *out)
{
	double *x = malloc((count ? count : 1) * sizeof(*x));
	double sum = 0, squares = 0, means = 0, mean_squares = 0;
	uint64_t seed = 0x6e696f2d746f70ull; /* "nio-top" */
	size_t n = 0, starts;

	*out = (struct stats_series){.mean = NAN, .spread = NAN, .rel_se = NAN};
	if (!x)
		return;
	for (size_t i = 0; i < count; i++)
		if (isfinite(values[i]))
			x[n++] = values[i];
	out->count = n;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	if (!n)
		goto out;
	out->mean = sum / (double)n;
	if (n < 2 || out->mean <= 0)
		goto out;
	for (size_t i = 0; i < n; i++)
		squares += (x[i] - out->mean) * (x[i] - out->mean);
	out->spread = sqrt(squares / (double)(n - 1)) / out->mean;
	/*
	 * Blocks of about n^(1/3) neighbours keep the correlation between
	 * intervals that are close in time, the usual choice for the
	 * variance of a mean; at most half the series, so blocks can move.
	 */
	out->block = (size_t)lround(cbrt((double)n));
	if (out->block > n / 2)
		out->block = n / 2;
	if (out->block < 1)
		out->block = 1;
	starts = n - out->block + 1;
	for (int b = 0; b < STATS_BOOTSTRAP_RESAMPLES; b++) {
		double total = 0;
		size_t taken = 0;

		while (taken < n) {
			size_t start = (size_t)(next_random(&seed) % starts);

			for (size_t k = 0; k < out->block && taken < n; k++) {
				total += x[start + k];
				taken++;
			}
		}
		total /= (double)n;
		means += total;
		mean_squares += total * total;
	}
	means /= STATS_BOOTSTRAP_RESAMPLES;
	mean_squares /= STATS_BOOTSTRAP_RESAMPLES;
	out->rel_se = sqrt(fmax(0, mean_squares - means * means) *
			   STATS_BOOTSTRAP_RESAMPLES /
			   (STATS_BOOTSTRAP_RESAMPLES - 1)) /
		      out->mean;
out:
	free(x);
}

void stats_point(const double *figures, const double *within_rel_se,
		 const double *interval_spread, size_t runs,
		 struct stats_point *out)
{
	double sum = 0, squares = 0, within = 0, natural = 0, natural_sq = 0;
	size_t known = 0;

	*out = (struct stats_point){
		.runs = runs,
		.log_mean = NAN,
		.variance = NAN,
		.df = runs ? (double)runs - 1 : 0,
		.spread = NAN,
	};
	if (!runs)
		return;
	for (size_t i = 0; i < runs; i++) {
		sum += log(figures[i]);
		natural += figures[i];
		if (isfinite(within_rel_se[i])) {
			within += within_rel_se[i] * within_rel_se[i];
			known++;
		}
	}
	out->log_mean = sum / (double)runs;
	natural /= (double)runs;
	if (runs < 2) {
		out->spread = interval_spread[0];
		return;
	}
	for (size_t i = 0; i < runs; i++) {
		double d = log(figures[i]) - out->log_mean;

		squares += d * d;
		natural_sq += (figures[i] - natural) * (figures[i] - natural);
	}
	squares /= (double)(runs - 1);
	within = known ? within / (double)known : 0;
	/*
	 * Runs that agree by chance must not claim more precision than their
	 * own intervals allow.
	 */
	out->variance = fmax(squares, within) / (double)runs;
	out->spread = sqrt(natural_sq / (double)(runs - 1)) / natural;
}

double stats_t95(double df)
{
	static const double table[] = {
		6.3138, 2.9200, 2.3534, 2.1318, 2.0150, 1.9432, 1.8946, 1.8595,
		1.8331, 1.8125, 1.7959, 1.7823, 1.7709, 1.7613, 1.7531, 1.7459,
		1.7396, 1.7341, 1.7291, 1.7247, 1.7207, 1.7171, 1.7139, 1.7109,
		1.7081, 1.7056, 1.7033, 1.7011, 1.6991, 1.6973,
	};
	const double z = 1.6448536;
	double n;

	if (!(df >= 1))
		df = 1;
	/* Fewer degrees of freedom than estimated: the safe side. */
	n = floor(df);
	if (n <= 30)
		return table[(size_t)n - 1];
	/* Cornish-Fisher: within 0.0002 of the exact value from 30 on. */
	return z + (z * z * z + z) / (4 * n) +
	       (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * n * n);
}

void stats_compare(const struct stats_point *a, const struct stats_point *b,
		   bool higher_is_better, struct stats_difference *out)
{
	double d = a->log_mean - b->log_mean;
	double v = a->variance + b->variance, df, t, low, high;
	double margin = log(1 + STATS_MIN_EFFECT);

	if (!higher_is_better)
		d = -d;
	*out = (struct stats_difference){
		.outcome = STATS_TOO_FEW_RUNS,
		.ratio = exp(d),
		.low = NAN,
		.high = NAN,
	};
	if (a->runs < 2 || b->runs < 2 || !isfinite(v))
		return;
	/* Welch-Satterthwaite. */
	df = v > 0 ? v * v /
			     (a->variance * a->variance / a->df +
			      b->variance * b->variance / b->df)
		   : a->df + b->df;
	t = stats_t95(df);
	low = d - t * sqrt(v);
	high = d + t * sqrt(v);
	out->low = exp(low);
	out->high = exp(high);
	if (low > margin)
		out->outcome = STATS_AHEAD;
	else if (high < -margin)
		out->outcome = STATS_BEHIND;
	else if (low > -margin && high < margin)
		out->outcome = STATS_EQUAL;
	else
		out->outcome = STATS_UNDECIDED;
}

const char *stats_outcome_name(enum stats_outcome outcome)
{
	static const char *const names[] = {
		[STATS_AHEAD] = "ahead",
		[STATS_BEHIND] = "behind",
		[STATS_EQUAL] = "equal",
		[STATS_UNDECIDED] = "undecided",
		[STATS_TOO_FEW_RUNS] = "too-few-runs",
	};

	return names[outcome];
}
