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

void ui_time_text(const struct run_time *t, int width, char *out, size_t size)
{
	size_t order[REASONS_MAX], n = 0, len = 0;

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
	for (size_t r = 0; r < reason_count; r++) {
		size_t at = n;

		/* Under 1%: not worth a place. */
		if (run_time_share(t, r) < 0.01)
			continue;
		while (at > 0 &&
		       t->reason[r].seconds > t->reason[order[at - 1]].seconds)
			at--;
		memmove(&order[at + 1], &order[at], (n - at) * sizeof(*order));
		order[at] = r;
		n++;
	}
	for (size_t i = 0; i < n; i++) {
		char item[48];
		int w = snprintf(item, sizeof(item), "  %s %.0f%%",
				 reasons[order[i]].abbrev,
				 100 * run_time_share(t, order[i]));

		if ((int)len + w > width || len + (size_t)w >= size)
			break;
		len += (size_t)snprintf(out + len, size - len, "%s", item);
	}
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

	out[0] = '\0';
	if (!p->samples)
		return;
	/* User space's samples, said as such: no share of the CPU. */
	if (p->user_only)
		len = (size_t)snprintf(out, size, "user space only:");
	for (size_t r = 0; r < role_count; r++) {
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
	for (size_t i = 0; i < n; i++) {
		char item[48];
		int w = snprintf(item, sizeof(item), "%s%s %.0f%%",
				 i     ? "  "
				 : len ? " "
				       : "",
				 roles[order[i]].abbrev,
				 100 * run_profile_sample_share(p, order[i]));

		/* The first role always: the caller wraps what is longer. */
		if ((i && (int)len + w > width) || len + (size_t)w >= size)
			break;
		len += (size_t)snprintf(out + len, size - len, "%s", item);
	}
}
