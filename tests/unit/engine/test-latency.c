/*
 * The latency histogram against values whose percentiles are known exactly:
 * every bucket holds what it says, quantiles of a wide synthetic distribution
 * fall within 1% of the sorted values, and a subtracted warm-up is gone.
 */
#include <math.h>
#include <stdlib.h>

#include "latency.h"
#include "tap.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The sorted sample at quantile q, by the same rank rule as the histogram. */
static uint64_t exact_quantile(const uint64_t *sorted, size_t n, double q)
{
	size_t rank = (size_t)ceil(q * (double)n);

	return sorted[(rank ? rank : 1) - 1];
}

static bool within(double got, double want, double rel)
{
	return fabs(got - want) <= rel * want;
}

static void test_buckets(void)
{
	bool contained = true, narrow = true, ordered = true;
	unsigned int last = 0;

	for (uint64_t v = 1; v < (1ull << 40); v = v * 9 / 8 + 1) {
		unsigned int i = latency_bucket(v);
		uint64_t low = latency_bucket_low(i);
		uint64_t width = latency_bucket_width(i);

		if (v < low || v >= low + width)
			contained = false;
		if (v >= LATENCY_SUB && width * LATENCY_SUB > v)
			narrow = false;
		if (i < last)
			ordered = false;
		last = i;
	}
	ok(contained, "every value lies inside its bucket");
	ok(narrow, "every bucket above 128 ns is at most 1/128 of its values");
	ok(ordered, "bucket indexes grow with the value");
	ok(latency_bucket(127) == 127 && latency_bucket(128) == 128 &&
		   latency_bucket(255) == 255 && latency_bucket(256) == 256 &&
		   latency_bucket(257) == 256,
	   "the exact range ends at 127 ns; 256 and 257 share a bucket");
	ok(latency_bucket(UINT64_MAX) == LATENCY_BUCKETS - 1,
	   "huge values go to the last bucket");
}

static void test_synthetic(void)
{
	const size_t n = 200000;
	static struct latency_recorder rec;
	struct latency_hist hist = {0};
	struct latency_summary sum;
	const double q[] = {0.5, 0.9, 0.99, 0.999, 1.0};
	uint64_t *values = malloc(n * sizeof(*values));
	uint64_t state = 12345, total = 0;
	bool all_close = true;

	/* Log-uniform from 1 us to 10 ms: every octave gets samples. */
	for (size_t i = 0; i < n; i++) {
		state = state * 6364136223846793005ull + 1442695040888963407ull;
		values[i] = (uint64_t)(1000.0 *
				       pow(10000.0,
					   (double)(state >> 11) /
						   9007199254740992.0));
		latency_record(&rec, values[i]);
		total += values[i];
	}
	qsort(values, n, sizeof(*values), cmp_u64);
	latency_hist_add(&hist, &rec);
	for (size_t k = 0; k < sizeof(q) / sizeof(q[0]); k++) {
		double got = latency_hist_quantile(&hist, q[k]);
		double want = (double)exact_quantile(values, n, q[k]);

		if (!ok(within(got, want, 0.01), "q%.3f: %.0f ns vs %.0f exact",
			q[k], got, want))
			all_close = false;
	}
	latency_hist_summarize(&hist, &sum);
	ok(sum.count == n, "count %llu", (unsigned long long)sum.count);
	ok(sum.max_us * 1e3 == (double)values[n - 1], "max is exact: %.3f us",
	   sum.max_us);
	ok(within(sum.mean_us * 1e3, (double)total / (double)n, 1e-9),
	   "mean is exact");
	ok(sum.p50_us <= sum.p90_us && sum.p90_us <= sum.p99_us &&
		   sum.p99_us <= sum.p99_9_us && sum.p99_9_us <= sum.max_us,
	   "p50 <= p90 <= p99 <= p99.9 <= max");
	ok(all_close, "all quantiles within 1%%");
	free(values);
}

static void test_window(void)
{
	static struct latency_recorder rec;
	struct latency_hist warm = {0}, end = {0};
	struct latency_summary sum;

	/* A warm-up of slow round trips, then 1000 of 20 us. */
	for (int i = 0; i < 100; i++)
		latency_record(&rec, 5000000);
	latency_hist_add(&warm, &rec);
	for (int i = 0; i < 1000; i++)
		latency_record(&rec, 20000);
	latency_hist_add(&end, &rec);
	latency_hist_subtract(&end, &warm);
	latency_hist_summarize(&end, &sum);
	ok(sum.count == 1000, "the window holds 1000 samples");
	ok(within(sum.p99_9_us, 20, 0.004) && within(sum.max_us, 20, 0.008),
	   "warm-up left out: p99.9 %.3f us, max %.3f us", sum.p99_9_us,
	   sum.max_us);
	ok(within(sum.mean_us, 20, 1e-9), "mean %.3f us", sum.mean_us);
}

static void test_empty(void)
{
	struct latency_hist hist = {0};
	struct latency_summary sum;

	latency_hist_summarize(&hist, &sum);
	ok(sum.count == 0 && sum.p50_us == 0 && sum.max_us == 0,
	   "an empty histogram summarizes to zero samples");
}

int main(void)
{
	test_buckets();
	test_synthetic();
	test_window();
	test_empty();
	return tap_done();
}
