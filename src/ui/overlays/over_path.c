/*
 * The data path (x): the strategy's stages from the sender's fields to the
 * receiver's, every move that copies the payload marked, with the --rx
 * receive side that is chosen, where each side waits beside the move it
 * waits in, and what the run going on shows of it live.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measures.h"
#include "view.h"

/*
 * A side's profile for the strategy the path shows: the run going on's, or
 * the last run's if it ran that strategy; NULL where none was sampled.
 */
/*
 * The profile of a side for the strategy drawn: the running run's, or the
 * last run's of that strategy; *run is its number (from 1).
 */
static const struct run_profile *path_profile(const struct explorer *e,
					      int side, size_t *run)
{
	const struct session *s = e->session;

	if (e->live.running) {
		*run = s->result_count + 1;
		return e->running.strategy == e->config.strategy &&
				       e->live.profiled[side] &&
				       e->live.profile[side].samples
			       ? &e->live.profile[side]
			       : NULL;
	}
	for (size_t k = s->result_count; k-- > 0;) {
		const struct run_result *r = &s->results[k];

		if (r->config.strategy != e->config.strategy)
			continue;
		*run = k + 1;
		return r->profile[side].present && r->profile[side].samples
			       ? &r->profile[side]
			       : NULL;
	}
	return NULL;
}

/*
 * A side's time for the strategy drawn, as path_profile() finds its
 * profile; NULL where it was not watched.
 */
static const struct run_time *path_time(const struct explorer *e, int side,
					size_t *run)
{
	const struct session *s = e->session;

	if (e->live.running) {
		*run = s->result_count + 1;
		return e->running.strategy == e->config.strategy &&
				       e->live.timed[side] &&
				       e->live.time[side].window_s > 0
			       ? &e->live.time[side]
			       : NULL;
	}
	for (size_t k = s->result_count; k-- > 0;) {
		const struct run_result *r = &s->results[k];

		if (r->config.strategy != e->config.strategy)
			continue;
		*run = k + 1;
		return r->time[side].present && r->time[side].window_s > 0
			       ? &r->time[side]
			       : NULL;
	}
	return NULL;
}

/*
 * Where a side waits, under the move it waits in (the sender's first, the
 * receiver's from its queue): "in run 3 the receiver is on the CPU 21% of
 * its time; waiting for data 52% (sk_wait_data, 410 us a wait), preempted
 * while runnable 27% (exit_to_user_mode_loop, ...)", its three largest.
 */
static bool path_waits(const struct ui *ui, const struct explorer *e, int side,
		       char *text, size_t size)
{
	/* A wait's length and its unit are never split by a wrap. */
	const char *nb = ui->utf8 ? "\u00a0" : "";
	static const char *const names[] = {"sender", "receiver"};
	size_t run = 0, len, shown = 0;
	const struct run_time *t = path_time(e, side, &run);
	bool taken[REASONS_MAX] = {false};

	if (!t)
		return false;
	len = (size_t)snprintf(
		text, size,
		"in run %zu%s the %s is on the CPU %.0f%% of its "
		"time;",
		run, e->live.running ? " (running)" : "", names[side],
		100 * run_time_on_cpu_share(t));
	while (shown < 3 && len < size) {
		size_t most = reason_count;

		for (size_t r = 0; r < reason_count; r++)
			if (!taken[r] && run_time_share(t, r) >= 0.01 &&
			    (most == reason_count ||
			     t->reason[r].seconds > t->reason[most].seconds))
				most = r;
		if (most == reason_count)
			break;
		taken[most] = true;
		len += (size_t)snprintf(text + len, size - len,
					"%s %s %.0f%% (%s%s%.0f%sus a wait)",
					shown ? "," : "", reasons[most].label,
					100 * run_time_share(t, most),
					t->reason[most].function,
					t->reason[most].function[0] ? ", " : "",
					t->reason[most].mean_us, nb);
		shown++;
	}
	if (!shown && len < size)
		snprintf(text + len, size - len, " it never waited");
	return true;
}

/* The roles a move is measured by: its copy's, then its others. */
static size_t move_roles(const struct strategy_step *s, size_t *role,
			 size_t most)
{
	const char *keys[] = {s->copy, s->roles};
	size_t n = 0;

	for (size_t k = 0; k < 2; k++)
		for (const char *p = keys[k]; p && *p && n < most;) {
			size_t len = strcspn(p, " ");
			char key[32];

			snprintf(key, sizeof(key), "%.*s", (int)len, p);
			if (role_find(key) != SIZE_MAX)
				role[n++] = role_find(key);
			p += len + strspn(p + len, " ");
		}
	return n;
}

/*
 * One side's words for a move's roles, as its gauges figure them: "pin 21%
 * (gup_fast_fallback), pipe 17% (...) of the sender's CPU"; where the side was
 * sampled in user space only, its kernel roles n/a and its own roles as
 * shares of user space.  "" where none of the roles is this side's.
 */
static void side_measured(const struct run_profile *p, const size_t *role,
			  size_t n, int side, bool receiver, bool named,
			  char *out, size_t size)
{
	static const char *const names[] = {"sender", "receiver"};
	size_t len = 0, items = 0, known = 0;

	out[0] = '\0';
	for (size_t i = 0; i < n && len < size; i++) {
		const struct role *r = &roles[role[i]];
		double share = p->user_only
				       ? run_profile_sample_share(p, role[i])
				       : run_profile_share(p, role[i]);

		/* The copy at delivery runs on either side; the rest on one. */
		if (strcmp(r->key, "copy_deferred") != 0 &&
		    side != (receiver ? SIDE_RECEIVER : SIDE_SENDER))
			continue;
		if (p->user_only && !role_in_user_space(role[i]))
			len += (size_t)snprintf(out + len, size - len,
						"%s%s%sn/a", items ? ", " : "",
						named ? r->abbrev : "",
						named ? " " : "");
		else {
			len += (size_t)snprintf(
				out + len, size - len, "%s%s%s%.0f%%%s%s%s",
				items ? ", " : "", named ? r->abbrev : "",
				named ? " " : "", 100 * share,
				p->role_function[role[i]][0] ? " (" : "",
				p->role_function[role[i]],
				p->role_function[role[i]][0] ? ")" : "");
			known++;
		}
		items++;
	}
	if (items && len < size && !p->user_only)
		snprintf(out + len, size - len, " of the %s's CPU",
			 names[side]);
	else if (items && len < size)
		snprintf(out + len, size - len,
			 known ? " of the %s's samples, all of user space"
			       : " (the %s's kernel was not sampled)",
			 names[side]);
}

/*
 * Under a move, what the profile measured of the roles it plays, and in
 * which run: the same figures as the gauges, so that the words and they
 * never disagree.
 */
static bool path_measured(const struct explorer *e,
			  const struct strategy_step *s, bool receiver,
			  char *text, size_t size)
{
	size_t run = 0, role[8], n = move_roles(s, role, 8), len;
	const struct run_profile *p[SIDE_COUNT] = {
		path_profile(e, SIDE_SENDER, &run),
		path_profile(e, SIDE_RECEIVER, &run)};
	char said[SIDE_COUNT][320];

	for (int side = 0; side < SIDE_COUNT; side++)
		if (p[side])
			/* The receiver's, after the sender's: its figures. */
			side_measured(p[side], role, n, side, receiver,
				      side == SIDE_SENDER || !said[0][0],
				      said[side], sizeof(said[side]));
		else
			said[side][0] = '\0';
	if (!said[SIDE_SENDER][0] && !said[SIDE_RECEIVER][0])
		return false;
	len = (size_t)snprintf(text, size, "measured in run %zu%s: %s", run,
			       e->live.running ? " (running)" : "",
			       said[SIDE_SENDER]);
	if (len < size)
		snprintf(text + len, size - len, "%s%s",
			 said[SIDE_SENDER][0] && said[SIDE_RECEIVER][0] ? "; "
									: "",
			 said[SIDE_RECEIVER]);
	return true;
}

/* Text wrapped under a move, the connector running down beside it. */
static void path_connected(const struct ui *ui, enum theme_role role, int width,
			   const char *text, struct ui_lines *l)
{
	struct ui_lines lines = {0};

	ui_lines_wrap(&lines, ROLE_TEXT, width - 4, 2, text);
	for (size_t k = 0; k < lines.count; k++)
		ui_lines_add(l, role, 2, "%s %*s%s", ui->utf8 ? "\u2502" : "|",
			     lines.line[k].indent, "", lines.line[k].text);
	ui_lines_free(&lines);
}

/* The stages and moves, each move marked COPY or not, its connector drawn. */
static int path_lines(const struct ui *ui, const struct explorer *e, int width,
		      struct ui_lines *l)
{
	struct strategy_step path[STRATEGY_STEPS_MAX];
	int queue, copies = 0;
	int steps = rx_side_path(e->config.strategy, e->config.settings.rx,
				 path, &queue);
	unsigned int fields = e->config.settings.fields
				      ? e->config.settings.fields
				      : MESSAGE_FIELDS_DEFAULT;
	char text[512], said[256];

	for (int i = 0; i < steps; i++) {
		const struct strategy_step *s = &path[i];

		strategy_step_text(s->stage, fields, said, sizeof(said));
		ui_lines_wrap(l, ROLE_SELECTED, width, 2, said);
		if (!s->move)
			break;
		copies += s->copy != NULL;
		strategy_step_text(s->move, fields, said, sizeof(said));
		snprintf(text, sizeof(text), "%s%s",
			 s->copy ? "COPY  " : "no copy  ", said);
		/* The connector runs down every line of the move. */
		path_connected(ui,
			       s->copy ? ROLE_SENDER_HIGH : ROLE_RECEIVER_HIGH,
			       width, text, l);
		if (path_measured(e, s, i >= queue, text, sizeof(text)))
			path_connected(ui, ROLE_HIGHLIGHT, width, text, l);
		if ((i == 0 || i == queue) &&
		    path_waits(ui, e, i ? SIDE_RECEIVER : SIDE_SENDER, text,
			       sizeof(text)))
			path_connected(ui, ROLE_MISC, width, text, l);
		ui_lines_add(l, ROLE_TEXT, 2, "%s", ui->utf8 ? "\u25bc" : "v");
	}
	return copies;
}

/* What the run going on shows of the path: copied, mapped, and why. */
static void path_live(const struct explorer *e, int width, struct ui_lines *l)
{
	const struct strategy_ops *ops = e->config.strategy;
	const struct run_totals *t = &e->live.totals;
	const struct rx_side *rx;
	char text[512], share[320] = "0%";

	if (ops->zerocopy && e->live.running) {
		ui_zc_copied(t, share, sizeof(share));
		snprintf(text, sizeof(text),
			 "Live: %llu sends pinned, %llu completed; at delivery "
			 "the kernel %s",
			 (unsigned long long)t->zc_sends,
			 (unsigned long long)t->zc_completions, share);
		ui_lines_wrap(l, ROLE_HIGHLIGHT, width, 2, text);
	}
	rx = rx_side_of(e->config.settings.rx);
	if (rx->note && rx->note(ops, text, sizeof(text)))
		ui_lines_wrap(l, ROLE_HIGHLIGHT, width, 2, text);
	if (e->live.running &&
	    rx_side_say(e->running.settings.rx, e->running.strategy, t->rx_side,
			false, share, sizeof(share))) {
		snprintf(text, sizeof(text), "Live, --rx %s: %s",
			 rx_side_of(e->running.settings.rx)->name, share);
		ui_lines_wrap(l, ROLE_HIGHLIGHT, width, 2, text);
	}
}

/* What the measured words could not see, and the fix: once, below them. */
static void path_why(const struct explorer *e, int width, struct ui_lines *l)
{
	size_t run = 0;
	const struct run_profile *p[SIDE_COUNT] = {
		path_profile(e, SIDE_SENDER, &run),
		path_profile(e, SIDE_RECEIVER, &run)};
	char text[320];

	for (int side = 0; side < SIDE_COUNT; side++) {
		if (!p[side] || !p[side]->why[0] ||
		    (side && p[0] && !strcmp(p[0]->why, p[side]->why)))
			continue;
		snprintf(text, sizeof(text), "Measured in run %zu: %s", run,
			 p[side]->why);
		ui_lines_wrap(l, ROLE_INACTIVE, width, 2, text);
	}
}

struct path_view {
	size_t scroll, page;
};

static void *path_open(struct ui *ui)
{
	(void)ui;
	return calloc(1, sizeof(struct path_view));
}

static void path_close(void *state)
{
	free(state);
}

/*
 * The strategy's data path, top to bottom: each stage, then each move and
 * whether it copies the payload, wrapped to the width there is.
 */
static void path_draw(struct ui *ui, void *state, const struct explorer *e,
		      const struct rect *body)
{
	struct path_view *p = state;
	struct rect r = ui_centred(ui->rows, ui->cols, 112, 40);
	struct ui_lines l = {0};
	int width, copies;
	char title[96], text[512];

	if (r.y + r.h > body->y + body->h)
		r.h = body->y + body->h - r.y;
	width = r.w - 4;
	copies = path_lines(ui, e, width, &l);
	path_live(e, width, &l);
	path_why(e, width, &l);
	snprintf(text, sizeof(text),
		 "%d cop%s of the payload per message on the whole path as "
		 "drawn, sender to receiver, the kernel's included; where the "
		 "kernel copies after all, the lines under a move and Live say "
		 "how much.  A strategy's name "
		 "counts something else: the sender's copies, up to the "
		 "socket (two-copy: the program's own serialization and the "
		 "kernel's copy into the socket; one-copy: the kernel's copy "
		 "only; zero-copy: none, where the kernel can avoid it).",
		 copies, copies == 1 ? "y" : "ies");
	ui_lines_add(&l, ROLE_TEXT, 0, "%s", "");
	ui_lines_wrap(&l, ROLE_HIGHLIGHT, width, 0, text);
	ui_clear(&r);
	snprintf(title, sizeof(title), "Data path of %s%s%s (x or Esc closes)",
		 e->config.strategy->name,
		 rx_side_of(e->config.settings.rx)->own ? "" : ", rx ",
		 rx_side_of(e->config.settings.rx)->own
			 ? ""
			 : rx_side_of(e->config.settings.rx)->name);
	ui_box(ui->utf8, &r, ROLE_TITLE, title);
	p->page = ui_lines_draw(ui->utf8, &l, &r, &p->scroll);
	ui_lines_free(&l);
}

/* It scrolls; x closes it as it opened it (Esc closes any overlay). */
static bool path_key(struct ui *ui, void *state, const struct explorer *e,
		     int key, struct ui_commands *out)
{
	struct path_view *p = state;

	(void)e;
	(void)out;
	if (key == 'x') {
		ui->overlay = SIZE_MAX;
		return true;
	}
	return ui_scroll_key(key, &p->scroll, p->page);
}

const struct ui_view ui_over_path = {
	.name = "data path",
	.overlay = true,
	.keys =
		{
			{"Up Down PgUp PgDn Home End", "scroll the data path"},
			{"x Esc", "close it"},
		},
	.open = path_open,
	.close = path_close,
	.draw = path_draw,
	.key = path_key,
};
