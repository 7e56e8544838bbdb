/*
 * What each side's time says of a stream point (analysis.h's waits): a
 * side busy on its CPU limits the pair; where neither is, the pair is
 * limited by how often each waits for the other -- the receiver for data,
 * the sender for buffer space or completions -- or by the CPUs being
 * shared.  Then, where strategies are compared while their pairs wait on
 * each other, that a verdict between them weighs their wake-ups as much as
 * their copies; and, on a receive ladder (one strategy's receive sides at
 * one size), whether the rungs differ in how often they wake.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "units.h"

/* A side on its CPU this share of the time is busy: it limits the pair. */
#define WAITS_BUSY 0.85
/* Receivers woken this many times more often differ in their wake-ups. */
#define WAITS_WAKEUP_RATIO 1.5

/* The finite values of v, their median; NaN with none. */
static double median_of(double *v, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			v[k++] = v[i];
	for (size_t i = 1; i < k; i++)
		for (size_t j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return !k ? NAN : k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
}

/*
 * A run's side's share of a CPU per thread: its CPU % (task-clock) over
 * its threads, or where uncounted its time on the CPU while watched.
 */
static double run_cpu(const struct run_result *r, int side)
{
	int m = metric_find("cpu_pct");
	double v;

	if (m >= 0 && run_result_metric(r, side == 0, (size_t)m, &v))
		return v / 100 / (r->config.threads ? r->config.threads : 1);
	return run_time_on_cpu_share(&r->time[side]);
}

/*
 * A point's side: its sampled runs' time pooled, and the median of every
 * run's CPU (measured whether or not the run had an interval sampled).
 */
static void side_of(const struct analysis *a, const struct run_result *results,
		    const struct analysis_point *p, int side,
		    struct analysis_side_time *out)
{
	double cpu[64];
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	for (size_t k = 0; k < p->runs; k++) {
		const struct run_result *r = &results[a->member[p->first + k]];
		const struct run_time *t = &r->time[side];

		if (n < sizeof(cpu) / sizeof(*cpu))
			cpu[n++] = run_cpu(r, side);
		if (!t->present || t->window_s <= 0 || t->user_only)
			continue;
		out->window += t->window_s;
		out->on_cpu += t->on_cpu_s;
		for (size_t i = 0; i < reason_count; i++)
			out->wait[i] += t->reason[i].seconds;
	}
	out->known = out->window > 0;
	out->cpu = median_of(cpu, n);
	out->largest = reason_count;
	for (size_t i = 0; i < reason_count; i++)
		if (out->wait[i] > 0 &&
		    (out->largest == reason_count ||
		     out->wait[i] > out->wait[out->largest]))
			out->largest = i;
}

/* The receivers' wake-ups a message: the median of the point's runs. */
static double point_wakeups(const struct analysis *a,
			    const struct run_result *results,
			    const struct analysis_point *p)
{
	int m = metric_find("ctx_switches_per_msg");
	double v[64];
	size_t n = 0;

	for (size_t k = 0; k < p->runs && n < 64 && m >= 0; k++)
		if (!run_result_metric(&results[a->member[p->first + k]], false,
				       (size_t)m, &v[n]))
			v[n] = NAN;
		else
			n++;
	return median_of(v, n);
}

/* The receivers' low-water mark as the point's first run recorded it. */
static bool point_mark(const struct analysis *a,
		       const struct run_result *results,
		       const struct analysis_point *p, uint64_t *mark)
{
	const struct run_result *r = &results[a->member[p->first]];

	*mark = r->socket[1].rcvlowat;
	return r->has_socket[1];
}

/* "one-copy 64K x1", the receive side and the knobs after it. */
static void point_label(const struct analysis_point *p, char *out, size_t size)
{
	char bytes[24], knobs[96];

	units_format_size(p->key.msg_size, bytes, sizeof(bytes));
	settings_stack_tag(&p->key.stack, knobs, sizeof(knobs));
	snprintf(out, size, "%s%s %s x%u%s", p->key.strategy->name,
		 rx_side_of(p->key.rx)->tag, bytes, p->key.threads, knobs);
}

static double share(const struct analysis_side_time *s, size_t r)
{
	return s->window > 0 ? s->wait[r] / s->window : NAN;
}

/* Whether a side waits mostly for the other: its largest wait says so. */
static bool waits_for_peer(const struct analysis_side_time *s)
{
	const char *key = s->largest < reason_count ? reasons[s->largest].key
						    : "";

	return strcmp(key, "data") == 0 || strcmp(key, "buffer") == 0 ||
	       strcmp(key, "completion") == 0 || strcmp(key, "uring") == 0 ||
	       strcmp(key, "pipe") == 0 || strcmp(key, "lock") == 0;
}

/* The pair's limit, as the sides' time says it. */
static enum analysis_limit pair_limit(const struct analysis_side_time s[2])
{
	bool preempted = false;

	if (s[0].cpu >= WAITS_BUSY || s[1].cpu >= WAITS_BUSY)
		return LIMIT_CPU;
	for (int i = 0; i < 2; i++)
		preempted |= s[i].largest == reason_preempted;
	if (preempted)
		return LIMIT_SHARED_CPU;
	return waits_for_peer(&s[0]) && waits_for_peer(&s[1]) ? LIMIT_WAKEUPS
							      : LIMIT_UNCLEAR;
}

/* "the receiver waits for data 62% of its time (sk_wait_data)" */
static size_t side_said(const char *name, const struct analysis_side_time *s,
			char *out, size_t size)
{
	if (s->largest == reason_count)
		return (size_t)snprintf(out, size, "the %s never waits", name);
	return (size_t)snprintf(out, size, "the %s is %s %.0f%% of its time",
				name, reasons[s->largest].label,
				100 * share(s, s->largest));
}

/* What --rcvlowat would change for a pair limited by its wake-ups. */
static void mark_said(const struct analysis_wait *w, char *out, size_t size)
{
	char mark[24];

	if (!w->mark_known) {
		out[0] = '\0';
		return;
	}
	if (w->rcvlowat > 1)
		units_format_size((size_t)w->rcvlowat, mark, sizeof(mark));
	snprintf(out, size,
		 "; the receiver wakes once %s%s queued (its low-water mark): "
		 "runs at a higher --rcvlowat wake it less often and show "
		 "whether the pair turns CPU-bound",
		 w->rcvlowat > 1 ? mark : "any byte is",
		 w->rcvlowat > 1 ? " are" : "");
}

void analysis_wait_text(const struct analysis *a, const struct analysis_wait *w,
			char *out, size_t size)
{
	static const char *const names[] = {"sender", "receiver"};
	const struct analysis_point *p = &a->points[w->point];
	char label[160], said[2][200], woken[64] = "", mark[300] = "";
	size_t len;

	point_label(p, label, sizeof(label));
	for (int i = 0; i < 2; i++)
		side_said(names[i], &w->side[i], said[i], sizeof(said[i]));
	if (isfinite(w->wakeups_per_msg))
		snprintf(woken, sizeof(woken),
			 ", switched out %.2f times a message",
			 w->wakeups_per_msg);
	if (w->limit == LIMIT_CPU) {
		int busy = w->side[0].cpu >= w->side[1].cpu ? 0 : 1;

		snprintf(out, size,
			 "%s: the %s is busy (%.0f%% of a CPU): the pair is "
			 "CPU-bound; %s",
			 label, names[busy], 100 * w->side[busy].cpu,
			 said[!busy]);
		return;
	}
	len = (size_t)snprintf(out, size,
			       "%s: neither side busy (sender %.0f%%, receiver "
			       "%.0f%% of a CPU); %s%s; %s: ",
			       label, 100 * w->side[0].cpu,
			       100 * w->side[1].cpu, said[1], woken, said[0]);
	if (len >= size)
		return;
	if (w->limit == LIMIT_WAKEUPS)
		mark_said(w, mark, sizeof(mark));
	snprintf(out + len, size - len, "%s%s",
		 w->limit == LIMIT_WAKEUPS ? "the pair is limited by its "
					     "wake-ups, each side waiting for "
					     "the other"
		 : w->limit == LIMIT_SHARED_CPU
			 ? "the pair is limited by the CPUs it shares (a side "
			   "preempted while it could run: other processes, "
			   "or the other side, on its CPU)"
			 : "what limits the pair is not one wait",
		 mark);
}

/* The points' waits: a stream point each with both sides watched. */
static int add_points(struct analysis *a, const struct run_result *results)
{
	a->waits = calloc(a->point_count, sizeof(*a->waits));
	if (!a->waits && a->point_count)
		return -1;
	for (size_t i = 0; i < a->point_count; i++) {
		const struct analysis_point *p = &a->points[i];
		struct analysis_wait *w = &a->waits[a->wait_count];

		if (p->key.mode != RUN_STREAM || !p->runs)
			continue;
		side_of(a, results, p, 0, &w->side[0]);
		side_of(a, results, p, 1, &w->side[1]);
		if (!w->side[0].known || !w->side[1].known)
			continue;
		w->point = i;
		w->limit = pair_limit(w->side);
		w->wakeups_per_msg = point_wakeups(a, results, p);
		w->mark_known = point_mark(a, results, p, &w->rcvlowat);
		a->wait_count++;
	}
	return 0;
}

/* Whether two points differ in one thing: strategy, or receive side. */
static bool peers(const struct analysis_point *x,
		  const struct analysis_point *y, bool ladder)
{
	const unsigned int same = POINT_STACK | POINT_SIZE | POINT_FLOWS |
				  (ladder ? POINT_STRATEGY : POINT_RX);
	const unsigned int other = ladder ? POINT_RX : POINT_STRATEGY;

	return point_key_equal(&x->key, &y->key, same) &&
	       !point_key_equal(&x->key, &y->key, other);
}

/* Whether wait k is the first of its group (peers of each other). */
static bool first_of_group(const struct analysis *a, size_t k, bool ladder)
{
	const struct analysis_point *p = &a->points[a->waits[k].point];

	for (size_t j = 0; j < k; j++)
		if (peers(&a->points[a->waits[j].point], p, ladder))
			return false;
	return true;
}

/*
 * A group's sentence, from wait k: strategies compared while each pair
 * waits on itself, or a ladder's rungs and how often each wakes.  False:
 * nothing to say.
 */
static bool group_text(const struct analysis *a, size_t k, bool ladder,
		       char *out, size_t size)
{
	const struct analysis_point *p = &a->points[a->waits[k].point];
	double lo = INFINITY, hi = 0;
	size_t members = 0, bound = 0, len;
	char bytes[24], names[400] = "";
	size_t at = 0;

	units_format_size(p->key.msg_size, bytes, sizeof(bytes));
	for (size_t j = k; j < a->wait_count; j++) {
		const struct analysis_wait *w = &a->waits[j];
		const struct analysis_point *q = &a->points[w->point];

		if (j != k && !peers(q, p, ladder))
			continue;
		members++;
		bound += w->limit == LIMIT_WAKEUPS;
		/* Strategies: those whose pair waits on itself, named. */
		if (!ladder && w->limit != LIMIT_WAKEUPS)
			continue;
		if (isfinite(w->wakeups_per_msg)) {
			lo = fmin(lo, w->wakeups_per_msg);
			hi = fmax(hi, w->wakeups_per_msg);
		}
		if (at < sizeof(names))
			at += (size_t)snprintf(
				names + at, sizeof(names) - at,
				isfinite(w->wakeups_per_msg) ? "%s%s %s%.2f"
							     : "%s%s %s",
				at ? ", " : "",
				ladder ? (rx_side_of(q->key.rx)->own
						  ? "rx copy"
						  : rx_side_of(q->key.rx)->tag +
							    1)
				       : q->key.strategy->name,
				isfinite(w->wakeups_per_msg) ? "" : "n/a",
				w->wakeups_per_msg);
	}
	if (members < 2 || (!ladder && bound < 2))
		return false;
	len = (size_t)snprintf(out, size,
			       "stream, %u flow%s, %s: ", p->key.threads,
			       p->key.threads == 1 ? "" : "s", bytes);
	if (len >= size)
		return true;
	if (!ladder)
		snprintf(out + len, size - len,
			 "%zu strategies are compared while each pair is "
			 "limited by its wake-ups (their receivers switched "
			 "out, a message: %s): a verdict between them weighs "
			 "how often their receivers wake as much as what they "
			 "copy",
			 bound, names);
	else if (isfinite(lo) && lo > 0 && hi / lo >= WAITS_WAKEUP_RATIO)
		snprintf(out + len, size - len,
			 "%s's receive sides wake at different rates "
			 "(switched out, a message: %s): they differ in their "
			 "wake-ups, not only in what they do with the bytes; "
			 "with one low-water mark, the side that empties its "
			 "queue fastest waits for it most often, and over veth "
			 "the sender's CPU, which delivers in its own softirq, "
			 "wakes it: behind a busy sender that side can stream "
			 "least",
			 p->key.strategy->name, names);
	else
		snprintf(out + len, size - len,
			 "%s's receive sides wake alike (switched out, a "
			 "message: %s): they differ in what they do with the "
			 "bytes",
			 p->key.strategy->name, names);
	return true;
}

int analysis_waits(struct analysis *a, const struct run_result *results)
{
	size_t most;

	if (add_points(a, results) < 0)
		return -1;
	most = a->wait_count * 2;
	a->wait_groups = calloc(most ? most : 1, sizeof(*a->wait_groups));
	if (!a->wait_groups)
		return -1;
	for (int ladder = 0; ladder < 2; ladder++)
		for (size_t k = 0; k < a->wait_count; k++)
			if (first_of_group(a, k, ladder) &&
			    group_text(a, k, ladder,
				       a->wait_groups[a->wait_group_count],
				       sizeof(a->wait_groups[0])))
				a->wait_group_count++;
	return 0;
}
