/*
 * The figures.  A cost per byte or per KiB is summed over both ends: over
 * veth much of the receiving end's work runs in the sender's context, so
 * either side alone would misplace it, while their sum is what moving a byte
 * cost the machine.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figure.h"

static const struct figure cpu_time_figure = {
	.key = "cost",
	.title = "CPU time per KiB moved (task-clock; no PMU for cycles)",
	.note = "Both ends' task-clock per KiB delivered, softirq included; "
		"markers: the median of a point's runs, bars: their range.",
	.unit = "ns per KiB, both ends",
	.mode = RUN_STREAM,
	.axis = FIGURE_BY_SIZE,
	.quantity = {{FIGURE_BOTH, "cpu_ns_per_kib", 0, "CPU time"}},
	.quantity_count = 1,
	.log_y = true,
};

const struct figure figures[] = {
	{
		.key = "throughput",
		.title = "Throughput vs message size",
		.note = "Delivered at the receivers over the measured window; "
			"markers: the median of a point's runs, bars: their "
			"range.",
		.unit = "Gbit/s delivered",
		.mode = RUN_STREAM,
		.axis = FIGURE_BY_SIZE,
		.quantity = {{FIGURE_RECEIVER, "gbps", 0, "Gbit/s"}},
		.quantity_count = 1,
	},
	{
		.key = "latency",
		.title = "Round trip vs flows (rr): p50, whisker to p99",
		.note = "Markers: the median p50 of a point's runs, capped "
			"bars their range; a thin line up to their median p99.",
		.unit = "microseconds",
		.mode = RUN_RR,
		.axis = FIGURE_BY_THREADS,
		.quantity = {{FIGURE_LATENCY, NULL, PERCENTILE_P50, "p50"},
			     {FIGURE_LATENCY, NULL, PERCENTILE_P99, "p99"}},
		.quantity_count = 2,
		.whisker = true,
		.log_y = true,
	},
	{
		.key = "caches",
		.title = "Cache misses per KiB vs message size: L1d (solid), "
			 "LLC (dashed)",
		.note = "Both ends' load misses per KiB delivered; markers: "
			"the median of a point's runs, bars: their range.",
		.unit = "misses per KiB, both ends",
		.mode = RUN_STREAM,
		.axis = FIGURE_BY_SIZE,
		.quantity = {{FIGURE_BOTH, "l1_misses_per_kib", 0, "L1d"},
			     {FIGURE_BOTH, "llc_misses_per_kib", 0, "LLC"}},
		.quantity_count = 2,
		.needs_pmu = true,
		.log_y = true,
	},
	{
		.key = "cost",
		.title = "CPU cycles per byte vs message size",
		.note = "Both ends' cycles per byte delivered; markers: the "
			"median of a point's runs, bars: their range.",
		.unit = "cycles per byte, both ends",
		.mode = RUN_STREAM,
		.axis = FIGURE_BY_SIZE,
		.quantity = {{FIGURE_BOTH, "cycles_per_byte", 0, "cycles"}},
		.quantity_count = 1,
		.needs_pmu = true,
		.log_y = true,
		.fallback = &cpu_time_figure,
	},
	{
		.key = "receive",
		.title =
			"Receiver CPU time per KiB vs message size, a line per "
			"receive side",
		.note = "The receiver's task-clock per KiB, softirq "
			"included; markers: the median of a point's runs, "
			"bars: their range.",
		.unit = "ns per KiB, receiver",
		.mode = RUN_STREAM,
		.axis = FIGURE_BY_SIZE,
		.quantity = {{FIGURE_RECEIVER, "cpu_ns_per_kib", 0,
			      "receiver CPU"}},
		.quantity_count = 1,
		.log_y = true,
	},
};

const size_t figure_count = sizeof(figures) / sizeof(figures[0]);

const char *figure_percentile_name(enum figure_percentile p)
{
	static const char *const names[] = {
		[PERCENTILE_P50] = "p50", [PERCENTILE_P90] = "p90",
		[PERCENTILE_P99] = "p99", [PERCENTILE_P99_9] = "p99.9",
		[PERCENTILE_MAX] = "max",
	};

	return names[p];
}

static double percentile(const struct latency_summary *l,
			 enum figure_percentile p)
{
	switch (p) {
	case PERCENTILE_P50:
		return l->p50_us;
	case PERCENTILE_P90:
		return l->p90_us;
	case PERCENTILE_P99:
		return l->p99_us;
	case PERCENTILE_P99_9:
		return l->p99_9_us;
	default:
		return l->max_us;
	}
}

bool figure_run_value(const struct figure_quantity *q,
		      const struct run_result *r, double *value)
{
	int m = q->metric ? metric_find(q->metric) : -1;
	double tx, rx;

	*value = NAN;
	if (r->error)
		return false;
	switch (q->source) {
	case FIGURE_LATENCY:
		if (r->config.mode != RUN_RR || !r->latency.count)
			return false;
		*value = percentile(&r->latency, q->percentile);
		break;
	case FIGURE_PROBE:
	case FIGURE_PROBE_IDLE: {
		const struct probe_summary *w = q->source == FIGURE_PROBE
							? &r->probe.loaded
							: &r->probe.idle;

		if (!r->probe.present || !w->rtt.count)
			return false;
		*value = percentile(&w->rtt, q->percentile);
		break;
	}
	case FIGURE_RECEIVER:
	case FIGURE_SENDER:
		if (m < 0 || !run_result_metric(r, q->source == FIGURE_SENDER,
						(size_t)m, value))
			return false;
		break;
	case FIGURE_BOTH:
		if (m < 0 || !run_result_metric(r, true, (size_t)m, &tx) ||
		    !run_result_metric(r, false, (size_t)m, &rx))
			return false;
		*value = tx + rx;
		break;
	}
	return isfinite(*value);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

bool figure_point_value(const struct figure_quantity *q,
			const struct analysis *a,
			const struct run_result *results,
			const struct analysis_point *p, struct figure_stat *out)
{
	double *v = calloc(p->runs + 1, sizeof(*v));
	size_t n = 0;

	*out = (struct figure_stat){.median = NAN, .min = NAN, .max = NAN};
	if (!v)
		return false;
	for (size_t i = 0; i < p->runs; i++)
		if (figure_run_value(q, &results[a->member[p->first + i]],
				     &v[n]))
			n++;
	if (n) {
		qsort(v, n, sizeof(*v), cmp_double);
		out->runs = n;
		out->median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
		out->min = v[0];
		out->max = v[n - 1];
	}
	free(v);
	return n > 0;
}

bool figure_has_data(const struct figure *f, const struct analysis *a,
		     const struct run_result *results)
{
	struct figure_stat stat;

	for (size_t i = 0; i < a->point_count; i++)
		if (a->points[i].key.mode == f->mode && a->points[i].runs &&
		    figure_point_value(&f->quantity[0], a, results,
				       &a->points[i], &stat))
			return true;
	return false;
}

void figure_quantity_name(const struct figure_quantity *q, char *out,
			  size_t size)
{
	int m = q->metric ? metric_find(q->metric) : -1;
	static const char *const where[] = {
		[FIGURE_RECEIVER] = "receiver",
		[FIGURE_SENDER] = "sender",
		[FIGURE_BOTH] = "both ends",
	};

	if (q->source == FIGURE_LATENCY || m < 0)
		snprintf(out, size, "Round trip %s us",
			 figure_percentile_name(q->percentile));
	else
		snprintf(out, size, "%s%s%s (%s)", metrics[m].label,
			 *metrics[m].unit ? " " : "", metrics[m].unit,
			 where[q->source]);
}

size_t figure_panel_values(const struct analysis *a, enum figure_axis axis,
			   enum run_mode mode, bool copy_rx_only, size_t *out,
			   size_t most)
{
	size_t n = 0;

	for (size_t i = 0; i < a->point_count; i++) {
		const struct analysis_point *p = &a->points[i];
		size_t v = axis == FIGURE_BY_SIZE ? p->key.threads
						  : p->key.msg_size;
		size_t j = n;
		bool seen = false;

		if (!p->runs || p->key.mode != mode ||
		    (copy_rx_only && !rx_side_of(p->key.rx)->own))
			continue;
		for (size_t k = 0; k < n; k++)
			seen |= out[k] == v;
		if (seen || n == most)
			continue;
		while (j > 0 && out[j - 1] > v) {
			out[j] = out[j - 1];
			j--;
		}
		out[j] = v;
		n++;
	}
	return n;
}

bool figure_in_scope(const struct figure_scope *scope,
		     const struct analysis_point *p)
{
	size_t v = scope->axis == FIGURE_BY_SIZE ? p->key.threads
						 : p->key.msg_size;

	return point_key_equal(&p->key, &scope->key, scope->parts) &&
	       (!scope->fixed || v == scope->fixed);
}

/* The receive side of figure_chart_scope(). */
static enum rx_mode chart_rx(const struct analysis *a, enum run_mode mode)
{
	enum rx_mode first = RX_MODE_COUNT;

	for (size_t i = 0; i < a->point_count; i++) {
		const struct analysis_point *p = &a->points[i];

		if (!p->runs || p->key.mode != mode)
			continue;
		if (rx_side_of(p->key.rx)->own)
			return p->key.rx;
		if (first == RX_MODE_COUNT)
			first = p->key.rx;
	}
	return first == RX_MODE_COUNT ? RX_COPY : first;
}

/* The knobs of figure_chart_scope(), at its mode and receive side. */
static struct settings_stack chart_stack(const struct analysis *a,
					 const struct point_key *key)
{
	const struct settings_stack built = {0};
	const struct settings_stack *first = NULL;

	for (size_t i = 0; i < a->point_count; i++) {
		const struct analysis_point *p = &a->points[i];

		if (!p->runs ||
		    !point_key_equal(&p->key, key, POINT_MODE | POINT_RX))
			continue;
		if (settings_stack_equal(&p->key.stack, &built))
			return built;
		if (!first)
			first = &p->key.stack;
	}
	return first ? *first : built;
}

struct figure_scope figure_chart_scope(const struct analysis *a,
				       enum run_mode mode,
				       enum figure_axis axis, size_t fixed)
{
	struct figure_scope scope = {
		.key = {.mode = mode, .rx = chart_rx(a, mode)},
		.parts = POINT_MODE | POINT_RX | POINT_STACK,
		.axis = axis,
		.fixed = fixed,
	};

	scope.key.stack = chart_stack(a, &scope.key);
	return scope;
}

static void widen(double *lo, double *hi, double v)
{
	*lo = fmin(*lo, v);
	*hi = fmax(*hi, v);
}

void figure_runs_of(const struct analysis *a, const struct run_result *results,
		    const struct figure_scope *scope, struct figure_runs *out)
{
	double fields_lo = INFINITY, fields_hi = -INFINITY;
	double per_lo = INFINITY, per_hi = -INFINITY;

	*out = (struct figure_runs){
		.measured_min_s = INFINITY,
		.measured_max_s = -INFINITY,
		.warmup_min_s = INFINITY,
		.warmup_max_s = -INFINITY,
	};
	for (size_t i = 0; i < a->point_count; i++) {
		const struct analysis_point *p = &a->points[i];

		if (!figure_in_scope(scope, p))
			continue;
		out->left_out += p->short_runs + p->stopped_runs;
		if (!p->runs)
			continue;
		out->runs += p->runs;
		widen(&per_lo, &per_hi, (double)p->runs);
		for (size_t k = 0; k < p->runs; k++) {
			const struct run_result *r =
				&results[a->member[p->first + k]];

			widen(&out->measured_min_s, &out->measured_max_s,
			      r->measured_s);
			widen(&out->warmup_min_s, &out->warmup_max_s,
			      (double)r->config.settings.warmup_ms / 1000);
			widen(&fields_lo, &fields_hi,
			      r->config.settings.fields
				      ? r->config.settings.fields
				      : MESSAGE_FIELDS_DEFAULT);
			out->counted += r->counted;
			out->pinned += r->config.settings.pin.count > 0;
		}
	}
	if (!out->runs)
		return;
	out->per_point_min = (size_t)per_lo;
	out->per_point_max = (size_t)per_hi;
	out->fields_min = (unsigned int)fields_lo;
	out->fields_max = (unsigned int)fields_hi;
}

/* "2.0 s", or "1.0-2.0 s" where the ends differ as printed. */
static void range_text(double lo, double hi, const char *format,
		       const char *unit, char *out, size_t size)
{
	char a[32], b[32];

	snprintf(a, sizeof(a), format, lo);
	snprintf(b, sizeof(b), format, hi);
	if (strcmp(a, b) == 0)
		snprintf(out, size, "%s%s", a, unit);
	else
		snprintf(out, size, "%s-%s%s", a, b, unit);
}

void figure_runs_text(const struct figure_runs *r, bool brief, char *out,
		      size_t size)
{
	char measured[80], warmup[80], per[80], fields[80], left[48] = "";
	char counted[48], pinned[48] = "";

	if (r->left_out)
		snprintf(left, sizeof(left), ", %zu left out", r->left_out);
	if (r->counted == r->runs)
		snprintf(counted, sizeof(counted), ", counters on");
	else if (!r->counted)
		snprintf(counted, sizeof(counted), ", counters off");
	else
		snprintf(counted, sizeof(counted), ", counters on in %zu",
			 r->counted);
	if (r->pinned == r->runs)
		snprintf(pinned, sizeof(pinned), ", threads pinned");
	else if (r->pinned)
		snprintf(pinned, sizeof(pinned), ", threads pinned in %zu",
			 r->pinned);
	if (!r->runs) {
		snprintf(out, size, "no runs drawn%s", left);
		return;
	}
	range_text(r->measured_min_s, r->measured_max_s, "%.1f", " s", measured,
		   sizeof(measured));
	range_text(r->warmup_min_s, r->warmup_max_s, "%g", " s", warmup,
		   sizeof(warmup));
	range_text((double)r->per_point_min, (double)r->per_point_max, "%.0f",
		   "", per, sizeof(per));
	range_text(r->fields_min, r->fields_max, "%.0f", "", fields,
		   sizeof(fields));
	if (brief)
		snprintf(out, size,
			 "%zu run%s, %s after %s warm-up, repeat %s, %s "
			 "field%s%s",
			 r->runs, r->runs == 1 ? "" : "s", measured, warmup,
			 per, fields, r->fields_max == 1 ? "" : "s", left);
	else
		snprintf(out, size,
			 "%zu run%s of %s measured after %s warm-up, repeat "
			 "%s, %s field%s%s%s%s",
			 r->runs, r->runs == 1 ? "" : "s", measured, warmup,
			 per, fields, r->fields_max == 1 ? "" : "s", counted,
			 pinned, left);
}

/*
 * The series of a strategy, receive side and knobs, made if it is new; or
 * NULL.
 */
static struct figure_plot_series *plot_series(struct figure_plot *out,
					      const struct analysis_point *p)
{
	for (size_t i = 0; i < out->series_count; i++)
		if (point_key_equal(&out->series[i].key, &p->key, POINT_LINE))
			return &out->series[i];
	if (out->series_count == FIGURE_SERIES_MAX)
		return NULL;
	out->series[out->series_count] = (struct figure_plot_series){
		.key = p->key};
	return &out->series[out->series_count++];
}

/* Adds point p at x to its series, in x order; false if it has no value. */
static bool plot_point(struct figure_plot *out, const struct analysis *a,
		       const struct run_result *results,
		       const struct figure_quantity *quantity,
		       size_t quantity_count, const struct analysis_point *p,
		       double x)
{
	struct figure_plot_point pt = {.x = x, .point = p};
	struct figure_plot_series *s;
	bool any = false;
	size_t at;

	for (size_t q = 0; q < quantity_count; q++)
		any |= figure_point_value(&quantity[q], a, results, p,
					  &pt.value[q]);
	if (!any || !(s = plot_series(out, p)) ||
	    s->count == ANALYSIS_SIZES_MAX)
		return false;
	for (at = s->count; at > 0 && s->point[at - 1].x > x; at--)
		s->point[at] = s->point[at - 1];
	s->point[at] = pt;
	s->count++;
	for (size_t q = 0; q < quantity_count; q++) {
		const struct figure_stat *v = &pt.value[q];

		if (!v->runs)
			continue;
		out->y_max = fmax(out->y_max, v->max);
		if (v->min > 0)
			out->y_min = fmin(out->y_min, v->min);
		out->median_max = fmax(out->median_max, v->median);
	}
	return true;
}

/*
 * A before b: the lesser knob first, gso, gro, GRO, busy polling, then the
 * load's pace.
 */
static int cmp_stack(const struct settings_stack *a,
		     const struct settings_stack *b)
{
	if (a->gso_max_size != b->gso_max_size)
		return a->gso_max_size < b->gso_max_size ? -1 : 1;
	if (a->gro_max_size != b->gro_max_size)
		return a->gro_max_size < b->gro_max_size ? -1 : 1;
	if (a->gro != b->gro)
		return (int)a->gro - (int)b->gro;
	if (a->busy_poll != b->busy_poll)
		return a->busy_poll < b->busy_poll ? -1 : 1;
	return (a->load_rate_mbps > b->load_rate_mbps) -
	       (a->load_rate_mbps < b->load_rate_mbps);
}

/*
 * Series in registry order, a strategy's copy receive first, then its
 * knobs from the links as built.
 */
static int cmp_series(const void *a, const void *b)
{
	const struct figure_plot_series *x = a, *y = b;
	size_t i = 0, j = 0;

	while (strategy_at(i) && strategy_at(i) != x->key.strategy)
		i++;
	while (strategy_at(j) && strategy_at(j) != y->key.strategy)
		j++;
	if (i != j)
		return i < j ? -1 : 1;
	if (x->key.rx != y->key.rx)
		return (int)x->key.rx - (int)y->key.rx;
	return cmp_stack(&x->key.stack, &y->key.stack);
}

void figure_plot(const struct analysis *a, const struct run_result *results,
		 const struct figure_quantity *quantity, size_t quantity_count,
		 const struct figure_scope *scope, struct figure_plot *out)
{
	memset(out, 0, sizeof(*out));
	out->x_lo = out->y_min = INFINITY;
	out->x_hi = -INFINITY;
	for (size_t i = 0; i < a->point_count; i++) {
		const struct analysis_point *p = &a->points[i];
		double x = scope->axis == FIGURE_BY_SIZE
				   ? (double)p->key.msg_size
				   : p->key.threads;

		if (!p->runs || !figure_in_scope(scope, p) ||
		    !plot_point(out, a, results, quantity, quantity_count, p,
				x))
			continue;
		out->x_lo = fmin(out->x_lo, log2(x));
		out->x_hi = fmax(out->x_hi, log2(x));
	}
	qsort(out->series, out->series_count, sizeof(out->series[0]),
	      cmp_series);
	figure_runs_of(a, results, scope, &out->runs);
}
