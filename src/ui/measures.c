/* The figures a screen shows. */
#include <stdio.h>
#include <string.h>

#include "measures.h"

static const char *const side_names[SIDE_COUNT] = {"sender", "receiver"};

void ui_metrics_init(struct ui *ui)
{
	ui->metric_count = 0;
	for (size_t i = 0; i < metric_count; i++) {
		if (!(metrics[i].show & METRIC_GAUGE))
			continue;
		/* Delivery happens at the receiver; the rest on both sides. */
		if (!metrics[i].delivered)
			ui->metric[ui->metric_count++] = (struct ui_metric){
				i, SIDE_SENDER};
		ui->metric[ui->metric_count++] = (struct ui_metric){
			i, SIDE_RECEIVER};
	}
}

void ui_metric_name(const struct ui_metric *m, char *out, size_t size)
{
	const struct metric *g = &metrics[m->metric];

	snprintf(out, size, "%s%s%s (%s)", g->label, *g->unit ? " " : "",
		 g->unit, side_names[m->side]);
}

void ui_result_label(const struct run_result *r, char *out, size_t size)
{
	struct point_key key = point_key_of(&r->config);

	/*
	 * The mode has a column of its own; the receive side and the knobs
	 * do not.
	 */
	point_key_label(&key, (POINT_ALL & ~POINT_MODE) | POINT_SIZE_IEC, out,
			size);
}

void ui_label_fit(bool utf8, const char *label, int width, char *out,
		  size_t size)
{
	int len = (int)strlen(label);

	if (len <= width) {
		snprintf(out, size, "%-*s", width, label);
		return;
	}
	snprintf(out, size, "%.*s%s", width > 0 ? width - 1 : 0, label,
		 utf8 ? "\u2026" : "~");
}

void ui_result_cell(const struct run_result *r, const struct ui_metric *m,
		    char *out, size_t size)
{
	double v;

	if (run_result_metric(r, m->side == SIDE_SENDER, m->metric, &v))
		ui_format_value(v, out, size);
	else
		snprintf(out, size, "n/a");
}

bool ui_metric_known(const struct explorer *e, const struct ui_metric *m)
{
	const struct session *s = e->session;
	double v;

	if (e->live.running && e->live.gauge[m->side][m->metric].known)
		return true;
	for (size_t k = 0; k < s->result_count; k++)
		if (run_result_metric(&s->results[k], m->side == SIDE_SENDER,
				      m->metric, &v))
			return true;
	return false;
}

void ui_zc_copied(const struct run_totals *t, char *out, size_t size)
{
	char share[32];

	sampler_zc_copied(t, share, sizeof(share));
	if (t->zc_copied_min == t->zc_copied_max)
		snprintf(out, size, "copied %s of %llu sends (%s)", share,
			 (unsigned long long)t->zc_completions,
			 t->zc_copied_min ? "each flagged" : "none flagged");
	else
		snprintf(out, size,
			 "copied %s of %llu sends (%llu flags, one per range "
			 "of sends)",
			 share, (unsigned long long)t->zc_completions,
			 (unsigned long long)t->zc_copied_min);
}

/* A share that a line names: its word and its share, 0 to 1. */
struct named_share {
	const char *name;
	double share;
};

/*
 * Appends the shares to out at len, each after two spaces (the first after
 * first), as many as width cells hold (the first always where
 * first_always); those that do not fit are summed in one "rest", so that
 * the line still adds up.
 */
static void shares_text(const struct named_share *item, size_t n,
			const char *first, bool first_always, int width,
			char *out, size_t size, size_t len)
{
	double rest = 0;
	size_t i;

	for (i = 0; i < n && len < size; i++) {
		char text[48], tail[24] = "";
		double left = 0;
		int w, tw = 0;

		for (size_t k = i + 1; k < n; k++)
			left += item[k].share;
		w = snprintf(text, sizeof(text), "%s%s %.0f%%",
			     i ? "  " : first, item[i].name,
			     100 * item[i].share);
		if (i + 1 < n)
			tw = snprintf(tail, sizeof(tail), "  rest %.0f%%",
				      100 * left);
		if (!(first_always && i == 0) &&
		    ((int)len + w + tw > width ||
		     len + (size_t)(w + tw) >= size))
			break;
		len += (size_t)snprintf(out + len, size - len, "%s", text);
	}
	for (size_t k = i; k < n; k++)
		rest += item[k].share;
	if (i < n && len < size)
		snprintf(out + len, size - len, "%srest %.0f%%",
			 i ? "  " : first, 100 * rest);
}

void ui_time_text(const struct run_time *t, int width, char *out, size_t size)
{
	struct named_share item[REASONS_MAX];
	size_t n = 0, len = 0;

	out[0] = '\0';
	if (!t->present || t->window_s <= 0)
		return;
	len = (size_t)snprintf(out, size, "CPU %.0f%%",
			       100 * run_time_on_cpu_share(t));
	if (len >= size)
		return;
	if (t->user_only) {
		snprintf(out + len, size - len,
			 "  off CPU %.0f%% (reasons n/a)",
			 100 * run_time_off_cpu_share(t));
		return;
	}
	for (size_t r = 0; r < reason_count && n < REASONS_MAX; r++) {
		size_t at = n;

		/* Under 1%: not worth a place. */
		if (run_time_share(t, r) < 0.01)
			continue;
		while (at > 0 && run_time_share(t, r) > item[at - 1].share)
			at--;
		memmove(&item[at + 1], &item[at], (n - at) * sizeof(*item));
		item[at] = (struct named_share){reasons[r].abbrev,
						run_time_share(t, r)};
		n++;
	}
	shares_text(item, n, "  ", false, width, out, size, len);
}

/* Whether role a goes before role b in a profile's line. */
static bool role_before(const struct run_profile *p, size_t a, size_t b)
{
	if (role_is_copy(a) != role_is_copy(b))
		return role_is_copy(a);
	return p->role[a] > p->role[b];
}

void ui_profile_text(const struct run_profile *p, int width, char *out,
		     size_t size)
{
	size_t order[ROLES_MAX], n = 0, len = 0;
	struct named_share item[ROLES_MAX];

	out[0] = '\0';
	if (!p->samples)
		return;
	/* User space's samples, said as such: no share of the CPU. */
	if (p->user_only)
		len = (size_t)snprintf(out, size, "user space only:");
	for (size_t r = 0; r < role_count && n < ROLES_MAX; r++) {
		size_t at = n;

		/* Under 1%: not worth a place. */
		if (p->role[r] * 100 < p->samples)
			continue;
		while (at > 0 && role_before(p, r, order[at - 1]))
			at--;
		memmove(&order[at + 1], &order[at], (n - at) * sizeof(*order));
		order[at] = r;
		n++;
	}
	for (size_t i = 0; i < n; i++)
		item[i] = (struct named_share){
			roles[order[i]].abbrev,
			run_profile_sample_share(p, order[i])};
	/* The first role always: the caller wraps what is longer. */
	shares_text(item, n, len ? " " : "", true, width, out, size, len);
}
