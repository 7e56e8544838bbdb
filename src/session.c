/*
 * Sessions.  Without the privilege for namespaces nio-top does not fail: it
 * says why and measures over the loopback of the namespace it was started in
 * (unless the user asked for something only its own network can give).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session.h"

struct run_config session_run_config(const struct session *s,
				     const struct options *o,
				     const struct strategy_ops *strategy,
				     size_t msg_size, unsigned int threads)
{
	const struct options *net = &s->options;

	return (struct run_config){
		.strategy = strategy,
		.role = !net->connect  ? RUN_BOTH
			: net->reverse ? RUN_RECEIVERS
				       : RUN_SENDERS,
		.mode = o->mode,
		.msg_size = msg_size,
		.threads = threads,
		.duration_ms = o->duration_ms,
		.warmup_ms = o->warmup_ms,
		.verify = o->verify,
		.slots = o->slots,
		.uring_depth = o->uring_depth,
		.uring_fixed = o->uring_fixed,
		.counters = net->counters_enabled ? &s->options.counters : NULL,
		.round = 1,
	};
}

/*
 * Every strategy x size x threads point, in that order, repeated: repeats are
 * interleaved (the whole grid, then the whole grid again), so that a slow
 * minute of a shared machine spreads over every point.
 */
static int session_plan(struct session *s)
{
	const struct options *o = &s->options;
	size_t grid = o->strategy_count * o->msg_size_count * o->thread_count;

	s->plan_count = grid * o->repeat;
	s->plan = calloc(s->plan_count, sizeof(*s->plan));
	if (!s->plan)
		return -ENOMEM;
	for (size_t n = 0; n < s->plan_count; n++) {
		size_t point = n % grid;
		size_t per_strategy = o->msg_size_count * o->thread_count;

		s->plan[n] = session_run_config(
			s, o, o->strategies[point / per_strategy],
			o->msg_sizes[point / o->thread_count %
				     o->msg_size_count],
			o->threads[point % o->thread_count]);
		s->plan[n].round = (unsigned int)(n / grid) + 1;
	}
	return 0;
}

/*
 * Falling back is honest only when nothing was asked of the link itself: a
 * shaped or named network cannot be had in someone else's namespace.
 */
static bool session_may_fall_back(const struct topo_options *t)
{
	return t->kind != TOPO_REMOTE && !t->mtu && !t->rate_bps &&
	       !t->delay_us && !t->loss_pct && !t->keep_prefix;
}

int session_open(struct session *s, const struct options *options, char **cause)
{
	int r;

	memset(s, 0, sizeof(*s));
	s->options = *options;
	s->topo.server_ns = s->topo.client_ns = -1;
	r = topo_create(&options->topo, &s->topo, cause);
	if (r == -EPERM && session_may_fall_back(&options->topo)) {
		struct topo_options here = options->topo;

		here.kind = TOPO_CURRENT;
		if (asprintf(&s->notice,
			     "%s (no CAP_SYS_ADMIN/CAP_NET_ADMIN?): running "
			     "over loopback in the current namespace",
			     *cause ? *cause : "no privilege for namespaces") <
		    0)
			s->notice = NULL;
		free(*cause);
		r = topo_create(&here, &s->topo, cause);
	}
	if (r < 0)
		return r;
	/* Once, not per export: probing builds a second network. */
	host_info_read(&s->host, s->options.counters_enabled
					 ? &s->options.counters
					 : NULL);
	s->host_known = true;
	r = session_plan(s);
	if (r < 0) {
		session_close(s);
		return r;
	}
	return 0;
}

int session_add_result(struct session *s, struct run_result *result)
{
	void *grown = realloc(s->results,
			      (s->result_count + 1) * sizeof(*s->results));

	if (!grown) {
		run_result_fini(result);
		return -ENOMEM;
	}
	s->results = grown;
	s->results[s->result_count++] = *result;
	return 0;
}

void session_close(struct session *s)
{
	for (size_t i = 0; i < s->result_count; i++)
		run_result_fini(&s->results[i]);
	free(s->results);
	free(s->plan);
	free(s->notice);
	topo_destroy(&s->topo);
	memset(s, 0, sizeof(*s));
	s->topo.server_ns = s->topo.client_ns = -1;
}
