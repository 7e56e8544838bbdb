/*
 * The statistics.  Everything here is deterministic: the block bootstrap's
 * variance is computed exactly, as if resampled without end, so an export
 * loaded again gives the verdicts it was written with, and a test can work
 * an interval out by hand.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/*
 * The variance over the n - block + 1 places a block may start at of the
 * sum of its first length values (prefix[] holds the series' running sums).
 */
static double block_sum_variance(const double *prefix, size_t n, size_t block,
				 size_t length)
{
	size_t starts = n - block + 1;
	double mean = 0, squares = 0;

	for (size_t s = 0; s < starts; s++)
		mean += prefix[s + length] - prefix[s];
	mean /= (double)starts;
	for (size_t s = 0; s < starts; s++) {
		double d = prefix[s + length] - prefix[s] - mean;

		squares += d * d;
	}
	return squares / (double)starts;
}

void stats_series(const double *values, size_t count, struct stats_series *out)
{
	double *x = malloc((count + 1) * sizeof(*x));
	double *prefix = malloc((count + 1) * sizeof(*prefix));
	double squares = 0, variance;
	size_t n = 0, whole, rest;

	*out = (struct stats_series){.mean = NAN, .spread = NAN, .rel_se = NAN};
	if (!x || !prefix)
		goto out;
	prefix[0] = 0;
	for (size_t i = 0; i < count; i++)
		if (isfinite(values[i])) {
			x[n] = values[i];
			prefix[n + 1] = prefix[n] + x[n];
			n++;
		}
	out->count = n;
	if (!n)
		goto out;
	out->mean = prefix[n] / (double)n;
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
	/*
	 * A resample is whole blocks and the first values of one more, each
	 * starting at any place alike and independently: its sum's variance
	 * is that of a block's sum times the whole blocks, plus that of the
	 * last one's first values.
	 */
	whole = n / out->block;
	rest = n % out->block;
	variance = (double)whole *
		   block_sum_variance(prefix, n, out->block, out->block);
	if (rest)
		variance += block_sum_variance(prefix, n, out->block, rest);
	out->rel_se = sqrt(variance) / (double)n / out->mean;
out:
	free(x);
	free(prefix);
}

void stats_point(const double *figures, const struct stats_series *series,
		 size_t runs, struct stats_point *out)
{
	double sum = 0, squares = 0, within = 0, natural = 0, natural_sq = 0;
	size_t known = 0;

	*out = (struct stats_point){
		.runs = runs,
		.log_mean = NAN,
		.variance = NAN,
		.df = runs ? (double)runs - 1 : 0,
		.spread = NAN,
		.within = NAN,
	};
	if (!runs)
		return;
	for (size_t i = 0; i < runs; i++) {
		sum += log(figures[i]);
		natural += figures[i];
		if (isfinite(series[i].rel_se)) {
			within += series[i].rel_se * series[i].rel_se;
			known++;
		}
	}
	out->log_mean = sum / (double)runs;
	natural /= (double)runs;
	within = known ? within / (double)known : 0;
	out->within = known ? within : NAN;
	if (runs < 2) {
		out->spread = series[0].spread;
		return;
	}
	for (size_t i = 0; i < runs; i++) {
		double d = log(figures[i]) - out->log_mean;

		squares += d * d;
		natural_sq += (figures[i] - natural) * (figures[i] - natural);
	}
	squares /= (double)(runs - 1);
	out->between = squares;
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
	const double z = STATS_Z95;
	double n;

	if (!(df >= 1))
		df = 1;
	/*
	 * Fewer degrees of freedom than estimated: the safe side; but a whole
	 * number computed as a hair under itself is that number.
	 */
	n = floor(df + 1e-9);
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
	double drift = a->drift * a->drift + b->drift * b->drift;
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
	/*
	 * Welch-Satterthwaite, of the runs' variance alone: the drift widens
	 * the interval and is given no degrees of freedom (counted in, it
	 * would lower t and could narrow the interval it widens).
	 */
	df = v > 0 ? v * v /
			     (a->variance * a->variance / a->df +
			      b->variance * b->variance / b->df)
		   : a->df + b->df;
	v += drift;
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

size_t stats_runs_to_tell(const struct stats_point *a,
			  const struct stats_point *b, double effect,
			  size_t most)
{
	double per_run[2] = {a->variance * (double)a->runs,
			     b->variance * (double)b->runs};
	double drift = a->drift * a->drift + b->drift * b->drift;

	if (a->runs < 2 || b->runs < 2 || !isfinite(per_run[0]) ||
	    !isfinite(per_run[1]))
		return 0;
	for (size_t k = 2; k <= most; k++) {
		double v = (per_run[0] + per_run[1]) / (double)k;
		double each = (per_run[0] * per_run[0] +
			       per_run[1] * per_run[1]) /
			      ((double)k * (double)k * (double)(k - 1));
		double df = each > 0 ? v * v / each : 2 * ((double)k - 1);

		if (stats_t95(df) * sqrt(v + drift) < log(1 + effect))
			return k;
	}
	return SIZE_MAX;
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

static int value_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* C(n, k) as a double: exact up to 2^53, near enough past it. */
static double choose(size_t n, size_t k)
{
	double c = 1;

	for (size_t i = 1; i <= k; i++)
		c = c * (double)(n - k + i) / (double)i;
	return c;
}

/*
 * The exact null distribution of 2U over every way na of the N values can
 * be a's, values tied in blocks (block[], in ascending order): a's k
 * values in a block of t, after b's before of the other sample below it,
 * add k (2 before + t - k) to 2U.  ways[a * (top + 1) + u2]; P(U <= u) is
 * the ways of 2U <= 2u over C(N, na).
 */
static double utest_cdf(const size_t *block, size_t blocks, size_t na,
			size_t nb, double u)
{
	size_t top = 2 * na * nb, stride = top + 1, placed = 0;
	double *ways = calloc((na + 1) * stride, sizeof(*ways));
	double *next = calloc((na + 1) * stride, sizeof(*next));
	double below = 0;

	if (!ways || !next)
		goto out;
	ways[0] = 1;
	for (size_t j = 0; j < blocks; j++) {
		size_t t = block[j];

		memset(next, 0, (na + 1) * stride * sizeof(*next));
		for (size_t a = 0; a <= na && a <= placed; a++) {
			size_t before = placed - a;

			if (before > nb)
				continue;
			for (size_t k = 0; k <= t && a + k <= na; k++) {
				size_t add = k * (2 * before + t - k);
				double c = choose(t, k);

				if (t - k > nb - before)
					continue;
				for (size_t u2 = 0; u2 + add <= top; u2++)
					if (ways[a * stride + u2] != 0)
						next[(a + k) * stride + u2 +
						     add] +=
							ways[a * stride + u2] *
							c;
			}
		}
		memcpy(ways, next, (na + 1) * stride * sizeof(*ways));
		placed += t;
	}
	for (size_t u2 = 0; u2 <= top && (double)u2 <= 2 * u + 1e-9; u2++)
		below += ways[na * stride + u2];
	below /= choose(na + nb, na);
out:
	free(ways);
	free(next);
	return ways && next ? below : NAN;
}

/* The standard normal's CDF. */
static double normal_cdf(double z)
{
	return 0.5 * erfc(-z / sqrt(2));
}

double stats_utest(const double *a, size_t na, const double *b, size_t nb)
{
	size_t n = na + nb, blocks = 0;
	double *all = malloc((n + 1) * sizeof(*all));
	size_t *block = malloc((n + 1) * sizeof(*block));
	double u = 0, small, p = NAN, ties = 0;
	bool tied = false;

	if (!all || !block || !na || !nb)
		goto out;
	memcpy(all, a, na * sizeof(*a));
	memcpy(all + na, b, nb * sizeof(*b));
	qsort(all, n, sizeof(*all), value_cmp);
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j < n && all[j] == all[i])
			j++;
		block[blocks++] = j - i;
		tied |= j - i > 1;
		ties += (double)(j - i) * (double)(j - i) * (double)(j - i) -
			(double)(j - i);
		i = j;
	}
	/* An a above a b counts 1, a tie a half. */
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			u += a[i] > b[j] ? 1 : a[i] == b[j] ? 0.5 : 0;
	if (blocks < 2)
		goto out; /* every value alike: nothing to test */
	small = fmin(u, (double)(na * nb) - u);
	if (u == (double)(na * nb) - u) {
		p = 1;
	} else if (na <= STATS_UTEST_EXACT_MAX(tied) &&
		   nb <= STATS_UTEST_EXACT_MAX(tied)) {
		p = 2 * utest_cdf(block, blocks, na, nb, small);
	} else {
		/* The normal, corrected for ties and for continuity. */
		double mean = (double)(na * nb) / 2, sd, d = u - mean;

		sd = sqrt(
			(double)(na * nb) / 12 *
			((double)n + 1 - ties / ((double)n * (double)(n - 1))));
		d -= d > 0 ? 0.5 : d < 0 ? -0.5 : 0;
		p = sd > 0 ? 2 * fmin(normal_cdf(d / sd),
				      1 - normal_cdf(d / sd))
			   : NAN;
	}
	p = fmin(p, 1);
out:
	free(all);
	free(block);
	return p;
}

size_t stats_utest_runs_needed(double alpha)
{
	/* The smallest p two samples of n each can give: 2 / C(2n, n). */
	for (size_t n = 2; n <= STATS_UTEST_EXACT_MAX(false); n++)
		if (2 / choose(2 * n, n) <= alpha)
			return n;
	return 0;
}
