/*
 * A run's life: start the flows' threads, wait until every one is ready (its
 * buffers allocated and filled) and only then start the clock, sample every
 * tick, note the counters where the warm-up ends and where the measured
 * window ends, tell the senders to stop, and wait for every thread to drain
 * and end.  A failing thread, or a caller's abort, shuts every connection
 * down so that no thread stays blocked.  A stop of the process (Ctrl-Z)
 * ends the measured window where it began.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cause.h"
#include "run_private.h"

#define STOP_GRACE_NS (RUN_STOP_GRACE_MS * NS_PER_MS)
/*
 * A tick this late finds a process that was stopped (SIGSTOP, a suspended
 * VM) or a loop held off as long: the time did not run for the flows as the
 * clock says.
 */
#define STALL_NS (1000 * NS_PER_MS)
/* How long a far end may take to report after the flows were cut. */
#define REPORT_GRACE_NS (5000 * NS_PER_MS)

const char *const run_mode_names[] = {
	[RUN_STREAM] = "stream",
	[RUN_RR] = "rr",
	NULL,
};

const char *run_mode_name(enum run_mode mode)
{
	return run_mode_names[mode];
}

const char *const run_role_names[] = {
	[RUN_BOTH] = "both",
	[RUN_SENDERS] = "senders",
	[RUN_RECEIVERS] = "receivers",
	NULL,
};

const char *run_role_name(enum run_role role)
{
	return run_role_names[role];
}

enum run_role run_role_peer(enum run_role role)
{
	return role == RUN_SENDERS     ? RUN_RECEIVERS
	       : role == RUN_RECEIVERS ? RUN_SENDERS
				       : RUN_BOTH;
}

void run_set_error(struct run *run, const char *fmt, ...)
{
	va_list ap;

	if (run->error)
		return;
	va_start(ap, fmt);
	if (vasprintf(&run->error, fmt, ap) < 0)
		run->error = NULL;
	va_end(ap);
}

const char *run_error(const struct run *run)
{
	return run->error;
}

void run_cut_connections(struct run *run)
{
	atomic_store(&run->stop, true);
	worker_gate_open(&run->gate);
	if (run->connections_cut)
		return;
	run->connections_cut = true;
	run->cut_ns = clock_now_ns();
	for (unsigned int i = 0; i < run->flow_count; i++) {
		if (run->flows[i].tx_fd >= 0)
			shutdown(run->flows[i].tx_fd, SHUT_RDWR);
		if (run->flows[i].rx_fd >= 0)
			shutdown(run->flows[i].rx_fd, SHUT_RDWR);
	}
	run_probe_cut(run);
}

void run_free(struct run *run)
{
	/* No thread may wait for a clock that will not start. */
	atomic_store(&run->stop, true);
	worker_gate_open(&run->gate);
	for (unsigned int i = 0; i < run->flow_count; i++) {
		worker_join(&run->flows[i]);
		if (run->flows[i].tx_counting)
			thread_counters_close(&run->flows[i].tx_counters);
		if (run->flows[i].rx_counting)
			thread_counters_close(&run->flows[i].rx_counters);
		if (run->flows[i].tx_fd >= 0)
			close(run->flows[i].tx_fd);
		if (run->flows[i].rx_fd >= 0)
			close(run->flows[i].rx_fd);
	}
	run_probe_free(run);
	/* The links as the run found them, for the next. */
	if (run->stack_set)
		topo_stack_set(run->topo, run->stack_before, true, true, NULL);
	if (run->done_fd >= 0)
		close(run->done_fd);
	run_profile_free(run);
	free(run->rtt);
	free(run->rtt_from);
	free(run->rtt_to);
	free(run->flows);
	timeline_fini(&run->timeline);
	free(run->error);
	worker_gate_fini(&run->gate);
	free(run);
}

/* The first flow's sockets this host has, as they are now. */
static void run_read_sockets(const struct run *run, struct sock_state out[2])
{
	const struct worker_flow *f = run->flow_count ? &run->flows[0] : NULL;

	for (int side = 0; f && side < 2; side++) {
		int fd = side == 0 ? f->tx_fd : f->rx_fd;

		if (fd >= 0)
			sockopts_read(fd, &out[side]);
	}
}

/* The measured window starts at sample s. */
static void run_measure_from(struct run *run, const struct sample *s)
{
	run->measure_from = *s;
	run_probe_window_from(run, s->t_ns);
	run_read_sockets(run, run->socket_from);
	if (run->rtt)
		run_merge_latency(run, run->rtt_from);
}

/*
 * The warm-up is over at sample s: the window is measured from there and
 * lasts its whole duration from there.  A loop woken late (a busy machine can
 * hold it off for half a second) would otherwise start the window at its
 * planned end and measure nothing.
 */
static void run_enter_measure(struct run *run, const struct sample *s)
{
	run_measure_from(run, s);
	if (run->end_ns != UINT64_MAX)
		run->end_ns = s->t_ns +
			      run->config.settings.duration_ms * NS_PER_MS;
	run->state = RUN_MEASURE;
}

static int run_alloc_latency(struct run *run)
{
	run->rtt = calloc(run->flow_count, sizeof(*run->rtt));
	run->rtt_from = calloc(1, sizeof(*run->rtt_from));
	run->rtt_to = calloc(1, sizeof(*run->rtt_to));
	return run->rtt && run->rtt_from && run->rtt_to ? 0 : -ENOMEM;
}

/*
 * --pin: senders first, then receivers, round-robin over the list; each host
 * pins the ends it runs as if it ran both.
 */
static void run_pin(const struct cpu_list *pin, unsigned int flows,
		    unsigned int i, int *tx_cpu, int *rx_cpu)
{
	*tx_cpu = *rx_cpu = -1;
	if (!pin->count)
		return;
	*tx_cpu = pin->cpu[i % pin->count];
	*rx_cpu = pin->cpu[(flows + i) % pin->count];
}

/* A run with its flows set up but not yet connected. */
static int run_alloc(const struct run_config *config, struct run **out)
{
	struct run *run;
	size_t flows_size;
	int r;

	run = calloc(1, sizeof(*run));
	if (!run)
		return -ENOMEM;
	run->config = *config;
	worker_gate_init(&run->gate);
	timeline_init(&run->timeline, TICK_NS,
		      TIMELINE_RECENT_S * 1000 * NS_PER_MS, TIMELINE_OLD_MAX);
	run->flow_count = config->threads;
	run->done_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	flows_size = run->flow_count * sizeof(*run->flows);
	run->flows = aligned_alloc(64, flows_size);
	if (run->done_fd < 0 || !run->flows) {
		r = run->done_fd < 0 ? -errno : -ENOMEM;
		run->flow_count = 0;
		goto err;
	}
	memset(run->flows, 0, flows_size);
	if (config->mode == RUN_RR) {
		r = run_alloc_latency(run);
		if (r < 0)
			goto err;
	}
	for (unsigned int i = 0; i < run->flow_count; i++) {
		struct worker_flow *f = &run->flows[i];

		f->ops = config->strategy;
		f->msg_size = config->msg_size;
		f->settings = &run->config.settings;
		f->link_rate_bps = config->link_rate_bps;
		/* --load-rate, Mbit/s of all the flows: each its share. */
		f->pace_bytes_per_s =
			(uint64_t)config->settings.load_rate_mbps * 1000000 /
			8 / config->threads;
		f->request_response = config->mode == RUN_RR;
		f->rtt = run->rtt ? &run->rtt[i] : NULL;
		f->counters = config->counters;
		run_pin(&config->settings.pin, config->threads, i, &f->tx_cpu,
			&f->rx_cpu);
		f->stop = &run->stop;
		f->done_fd = run->done_fd;
		f->gate = &run->gate;
		f->tx_fd = f->rx_fd = -1;
		f->index = i;
	}
	r = run_profile_alloc(run);
	if (r < 0)
		goto err;
	*out = run;
	return 0;

err:
	run_free(run);
	return r;
}

/*
 * Starts the connected flows' threads; the clock starts once they are all
 * ready (run_tick).
 */
static int run_launch(struct run *run, struct run **out, char **cause)
{
	for (unsigned int i = 0; i <= run->flow_count; i++) {
		int r = i < run->flow_count ? worker_start(&run->flows[i])
					    : run_probe_launch(run);

		if (i < run->flow_count)
			run->threads += run->flows[i].tx_started +
					run->flows[i].rx_started;
		if (r < 0) {
			if (asprintf(cause, "cannot start worker threads: %s",
				     strerror(-r)) < 0)
				*cause = NULL;
			run_mark_far(run, RUN_MARK_ABORT,
				     "the client could not start its threads");
			run_cut_connections(run);
			run_free(run);
			return r;
		}
	}

	run->start_ns = clock_now_ns();
	run->ready_deadline_ns = run->start_ns +
				 (uint64_t)RUN_READY_TIMEOUT_MS * NS_PER_MS;
	run->next_tick_ns = run->start_ns + TICK_NS;
	run_read(run, run->start_ns, &run->last);
	run_measure_from(run, &run->last);
	run->measure_to = run->last;
	run->state = RUN_STARTING;
	*out = run;
	return 0;
}

/*
 * A strategy that reuses a page once the receiver has read it needs the
 * receiver here, as a thread of this process; a receive side must be able
 * to do what the settings ask of it.
 */
static int run_check_ends(const struct run_config *config, char **cause)
{
	const char *refusal = strategy_rx_refusal(&config->settings);

	if (refusal) {
		if (asprintf(cause, "%s", refusal) < 0)
			*cause = NULL;
		return -EINVAL;
	}
	if (!config->strategy->local_receiver || config->role == RUN_BOTH ||
	    config->settings.unsafe_reuse)
		return 0;
	if (asprintf(cause,
		     "%s reuses a message's pages once the receiver has read "
		     "them, which nio-top knows only when it runs both ends "
		     "(not over two hosts)",
		     config->strategy->name) < 0)
		*cause = NULL;
	return -EOPNOTSUPP;
}

/* Whether settings ask anything of the links themselves. */
static bool run_wants_stack(const struct run_settings *s)
{
	return s->gso_max_size || s->gro_max_size || s->gro != GRO_DEFAULT;
}

/* Refuses link knobs where nio-top did not make the links: 0 or -EINVAL. */
static int run_check_stack(const struct run_config *config, enum topo_kind kind,
			   char **cause)
{
	const char *why = NULL;

	if (!run_wants_stack(&config->settings))
		return 0;
	if (kind == TOPO_REMOTE || config->role != RUN_BOTH)
		why = "BIG TCP and GRO are set on links nio-top makes; "
		      "over two hosts the links are the hosts' own";
	else if (kind == TOPO_CURRENT)
		why = "BIG TCP and GRO are set on links nio-top makes "
		      "(--topology veth or loopback), not this namespace's lo";
	else if (kind == TOPO_LOOPBACK && config->settings.gro != GRO_DEFAULT)
		why = "--gro is the veth's (its NAPI): lo has none "
		      "(--topology veth)";
	if (why && asprintf(cause, "%s", why) < 0)
		*cause = NULL;
	return why ? -EINVAL : 0;
}

/*
 * The links as the run finds them, then as its settings want them for the
 * run (connections made after this take their sizes from them), read back:
 * 0, or -errno and *cause.  A kernel that ignores an attribute it does not
 * have shows it by not reporting it.
 */
static int run_stack(struct run *run, char **cause)
{
	const struct run_settings *s = &run->config.settings;
	struct topo_stack want[2];
	struct utsname uts;
	int r;

	r = run_check_stack(&run->config, run->topo->options.kind, cause);
	if (r < 0)
		return r;
	r = topo_stack_read(run->topo, run->stack_before, cause);
	if (r == -ENODEV)
		return 0;
	if (r < 0)
		return r;
	run->has_stack = true;
	memcpy(run->stack, run->stack_before, sizeof(run->stack));
	if (!run_wants_stack(s))
		return 0;
	if ((s->gso_max_size || s->gro_max_size) &&
	    !run->stack_before[0].gso_max_size) {
		uname(&uts);
		if (asprintf(cause,
			     "--gso-ipv4-max-size and --gro-ipv4-max-size need "
			     "Linux "
			     "6.3 or later (BIG TCP for IPv4: "
			     "IFLA_GSO_IPV4_MAX_SIZE); this is Linux %s",
			     uts.release) < 0)
			*cause = NULL;
		return -EOPNOTSUPP;
	}
	for (int i = 0; i < 2; i++)
		if (s->gso_max_size > run->stack_before[i].tso_max_size &&
		    run->stack_before[i].tso_max_size) {
			if (asprintf(
				    cause,
				    "--gso-ipv4-max-size %u: the link takes at "
				    "most "
				    "%u (its tso_max_size)",
				    s->gso_max_size,
				    run->stack_before[i].tso_max_size) < 0)
				*cause = NULL;
			return -EINVAL;
		}
	for (int i = 0; i < 2; i++)
		want[i] = (struct topo_stack){
			.gso_max_size = (unsigned int)s->gso_max_size,
			.gro_max_size = (unsigned int)s->gro_max_size,
			.gro = s->gro == GRO_ON,
		};
	run->stack_set = true;
	r = topo_stack_set(run->topo, want, s->gso_max_size || s->gro_max_size,
			   s->gro != GRO_DEFAULT, cause);
	if (r == 0)
		r = topo_stack_read(run->topo, run->stack, cause);
	return r;
}

/* The flows over this host's topology, and the probe's connection. */
static int run_connect_here(struct run *run, const struct topo *topo,
			    char **cause)
{
	int probe_fds[2] = {-1, -1};
	bool probe = run->config.settings.probe.rate_hz > 0;
	int r = run_connect(run, topo, probe ? probe_fds : NULL, cause);

	return r == 0 && probe ? run_probe_adopt(run, probe_fds) : r;
}

int run_start(const struct run_config *config, const struct topo *topo,
	      const struct run_far_end *far, struct run **out, char **cause)
{
	struct run *run;
	int r;

	*cause = NULL;
	/* Over two hosts each runs one end of every flow. */
	if (!far != (config->role == RUN_BOTH))
		return -EINVAL;
	r = run_check_ends(config, cause);
	if (r < 0)
		return r;
	r = run_check_descriptors(config, cause);
	if (r < 0)
		return r;
	r = run_alloc(config, &run);
	if (r < 0)
		return r;
	run->topo = topo;
	run->far = far;
	r = run_probe_check(run, cause);
	if (r == 0)
		r = far ? run_check_stack(config, TOPO_REMOTE, cause)
			: run_stack(run, cause);
	if (r == 0)
		r = far ? run_connect_far(run, cause)
			: run_connect_here(run, topo, cause);
	if (r < 0) {
		run_free(run);
		return r;
	}
	run->has_link = topo_link_stats(topo, &run->link_before) == 0;
	return run_launch(run, out, cause);
}

int run_start_connected(const struct run_config *config, int *fds,
			struct run **out, char **cause)
{
	struct run *run;
	int r;

	*cause = NULL;
	r = run_check_ends(config, cause);
	if (r == 0)
		r = run_check_stack(config, TOPO_REMOTE, cause);
	if (r == 0 && config->settings.probe.rate_hz)
		r = cause_set(cause, -EINVAL,
			      "--probe runs both of its ends on one host, "
			      "not over two hosts");
	if (r == 0)
		r = run_alloc(config, &run);
	if (r < 0) {
		for (unsigned int i = 0; i < config->threads; i++)
			close(fds[i]);
		return r;
	}
	run_take_fds(run, fds);
	return run_launch(run, out, cause);
}

int run_event_fd(const struct run *run)
{
	return run->done_fd;
}

uint64_t run_deadline_ns(const struct run *run)
{
	uint64_t deadline = run->next_tick_ns;
	uint64_t boundary = 0;

	if (run->state == RUN_WARMUP)
		boundary = run->warmup_end_ns;
	else if (run->state == RUN_MEASURE)
		boundary = run->end_ns;
	else if (run->state == RUN_STOPPING && !run->connections_cut)
		boundary = run->stop_ns + STOP_GRACE_NS;
	else if (run->state == RUN_STARTING)
		boundary = run_probe_deadline(run) ? run_probe_deadline(run)
						   : run->ready_deadline_ns;
	return boundary && boundary < deadline ? boundary : deadline;
}

/*
 * The interval since the last boundary ends at raw, in the phase the run is
 * in (only while the clock runs and the window is open).  From here on the
 * run's samples are net of its sampled intervals: a sampled one ends as an
 * interval of no length.
 */
static void run_boundary(struct run *run, const struct sample *raw)
{
	struct sample net;

	run_slice_end(run, raw);
	run_net(run, raw, &net);
	run->last_ns = raw->t_ns;
	if (run->state == RUN_WARMUP || run->state == RUN_MEASURE)
		(void)timeline_add(&run->timeline, &net,
				   run->state == RUN_WARMUP);
	run->last = net;
}

/*
 * Reads the interval that ends now into raw and closes it.  A sampled
 * interval's rings are read before its end is, so that the time reading
 * them takes is sampled time too, never the next measured interval's:
 * "now" is then when they are read.
 */
static uint64_t run_read_boundary(struct run *run, uint64_t now_ns,
				  struct sample *raw)
{
	if (run_slice_close(run))
		now_ns = clock_now_ns();
	run_read(run, now_ns, raw);
	run_boundary(run, raw);
	return now_ns;
}

void run_begin_stop(struct run *run, uint64_t now_ns)
{
	if (run->state >= RUN_STOPPING)
		return;
	run_slice_stop(run);
	if (run->state == RUN_WARMUP)
		run_measure_from(run, &run->last);
	if (run->state != RUN_STARTING) {
		run->measure_to = run->last;
		run_read_sockets(run, run->socket_to);
	}
	if (run->rtt)
		run_merge_latency(run, run->rtt_to);
	run_probe_window_to(run, now_ns);
	run->state = RUN_STOPPING;
	run->stop_ns = now_ns;
	atomic_store(&run->stop, true);
	/* Threads waiting for the clock go on, and find the run stopped. */
	worker_gate_open(&run->gate);
	run_mark_far(run, RUN_MARK_STOP, NULL);
}

static void run_check_errors(struct run *run, uint64_t now_ns)
{
	if (run_probe_failed(run)) {
		run_begin_stop(run, now_ns);
		run_mark_far(run, RUN_MARK_ABORT, run->error);
		run_cut_connections(run);
		return;
	}
	for (unsigned int i = 0; i < run->flow_count; i++) {
		struct flow_stats *sides[] = {&run->flows[i].tx,
					      &run->flows[i].rx};

		for (int s = 0; s < 2; s++) {
			int err = atomic_load_explicit(&sides[s]->error,
						       memory_order_acquire);

			if (!err)
				continue;
			run_set_error(
				run, "flow %u %s: %s: %s", i + 1,
				s ? "receiver" : "sender",
				atomic_load_explicit(&sides[s]->error_step,
						     memory_order_relaxed),
				strerror(-err));
			run_begin_stop(run, now_ns);
			run_mark_far(run, RUN_MARK_ABORT, run->error);
			run_cut_connections(run);
			return;
		}
	}
}

/*
 * Every thread is ready: the clock starts now, and the threads go.  A paced
 * run measures from its client's "measure"; its client says it at once when
 * there is no warm-up, so that both hosts count from the same moment.
 */
static void run_go(struct run *run, uint64_t now_ns)
{
	const struct run_config *config = &run->config;
	bool warmup = config->paced ? !run->measure_at_start
				    : config->settings.warmup_ms > 0;

	run->start_ns = now_ns;
	run->warmup_end_ns = config->paced
				     ? UINT64_MAX
				     : now_ns + config->settings.warmup_ms *
							NS_PER_MS;
	run->end_ns = config->settings.duration_ms && !config->paced
			      ? run->warmup_end_ns +
					config->settings.duration_ms * NS_PER_MS
			      : UINT64_MAX;
	run->next_tick_ns = now_ns + TICK_NS;
	run_read(run, now_ns, &run->last);
	run->last_ns = now_ns;
	run_measure_from(run, &run->last);
	run->state = warmup ? RUN_WARMUP : RUN_MEASURE;
	(void)timeline_add(&run->timeline, &run->last, false);
	run_probe_go(run);
	worker_gate_open(&run->gate);
	if (!warmup)
		run_mark_far(run, RUN_MARK_MEASURE, NULL);
}

/* Before the clock: every thread ready, or a failure when they take long. */
static void run_check_ready(struct run *run, uint64_t now_ns)
{
	if (run->state != RUN_STARTING)
		return;
	if (atomic_load_explicit(&run->gate.ready, memory_order_acquire) >=
	    run->threads) {
		/* The probe alone first, the load's threads waiting. */
		if (!run_probe_alone(run, now_ns))
			run_go(run, now_ns);
		return;
	}
	if (now_ns < run->ready_deadline_ns)
		return;
	run_set_error(run,
		      "%u of %u threads were ready (buffers allocated and "
		      "filled) within %d s",
		      atomic_load(&run->gate.ready), run->threads,
		      RUN_READY_TIMEOUT_MS / 1000);
	run_begin_stop(run, now_ns);
	run_mark_far(run, RUN_MARK_ABORT, run->error);
	run_cut_connections(run);
}

bool run_started(const struct run *run)
{
	return run->state > RUN_STARTING;
}

/*
 * Whether the far end is over: it reported, or is gone, or kept silent too
 * long after the flows were cut.
 */
static bool run_far_ended(struct run *run, uint64_t now_ns)
{
	const struct run_far_view *v;

	if (!run->far)
		return true;
	v = run_far(run);
	if (v->done || v->lost)
		return true;
	if (run->connections_cut && now_ns >= run->cut_ns + REPORT_GRACE_NS) {
		run_set_error(run, "the agent did not report "
				   "its end of the run");
		return true;
	}
	return false;
}

/* News from the far end: its ends failed, or it is gone. */
static void run_check_far(struct run *run, uint64_t now_ns)
{
	const struct run_far_view *v;

	if (!run->far)
		return;
	run->far->poll(run->far->data);
	v = run_far(run);
	if (!v->error || (v->done && !v->lost && run->state >= RUN_STOPPING))
		return;
	run_set_error(run, "%s", v->error);
	run_begin_stop(run, now_ns);
	run_cut_connections(run);
}

/*
 * A boundary between ticks (the warm-up's end or the window's, when a front
 * end says so): the partial tick up to now becomes an interval of its own, so
 * the intervals always add up to the run.
 */
static void run_close_tick(struct run *run, uint64_t now_ns)
{
	struct sample s;

	run_read_boundary(run, now_ns, &s);
}

/*
 * The process was stopped, or the loop held off, from since_ns to now_ns.
 * A warm-up starts again; a measured window ends where the stop began, so
 * no figure of the run counts the stopped time, and the run says so.
 */
static void run_stalled(struct run *run, uint64_t since_ns, uint64_t now_ns)
{
	const struct run_settings *set = &run->config.settings;

	if (run->state == RUN_WARMUP) {
		run->warmup_end_ns = now_ns + set->warmup_ms * NS_PER_MS;
		if (run->end_ns != UINT64_MAX)
			run->end_ns = run->warmup_end_ns +
				      set->duration_ms * NS_PER_MS;
		return;
	}
	if (run->state == RUN_MEASURE) {
		run->stopped_s = (double)(now_ns - since_ns) / 1e9;
		run_begin_stop(run, now_ns);
	} else if (run->pause_ended_window) {
		run->stopped_s = (double)(now_ns - since_ns) / 1e9;
	}
}

/* A stop seen in a late tick, or a pause (run_pause) now over. */
static void run_check_stall(struct run *run, uint64_t now_ns)
{
	uint64_t since = run->paused_ns ? run->paused_ns : run->last_ns;

	if (run->config.paced || run->state == RUN_DONE)
		return;
	if (run->paused_ns) {
		/* Time to get ready, or to drain, runs from here again. */
		run->ready_deadline_ns += now_ns - since;
		run->stop_ns += now_ns - since;
		run->paused_ns = 0;
		run_stalled(run, since, now_ns);
		/* A resumed warm-up starts its intervals again from here. */
		if (run->state == RUN_WARMUP)
			run_close_tick(run, now_ns);
	} else if ((run->state == RUN_WARMUP || run->state == RUN_MEASURE) &&
		   now_ns - since > STALL_NS) {
		run_stalled(run, since, now_ns);
	}
}

bool run_tick(struct run *run, uint64_t now_ns)
{
	eventfd_t wakes;

	/* The eventfd only wakes the loop; the gate counts. */
	(void)eventfd_read(run->done_fd, &wakes);
	run->threads_ended = atomic_load_explicit(&run->gate.ended,
						  memory_order_acquire);
	run_check_errors(run, now_ns);
	run_check_far(run, now_ns);
	run_check_ready(run, now_ns);
	run_check_stall(run, now_ns);

	/*
	 * An interval per tick (and at the warm-up's end and the run's),
	 * however often the front end calls.
	 */
	if ((run->state == RUN_WARMUP || run->state == RUN_MEASURE) &&
	    now_ns >= run_deadline_ns(run)) {
		struct sample s;

		now_ns = run_read_boundary(run, now_ns, &s);
		if (run->state == RUN_WARMUP && now_ns >= run->warmup_end_ns) {
			run_enter_measure(run, &run->last);
			run_mark_far(run, RUN_MARK_MEASURE, NULL);
		}
		if (run->state == RUN_MEASURE && now_ns >= run->end_ns)
			run_begin_stop(run, now_ns);
		run_slice_begin(run, &s);
	}
	while (run->next_tick_ns <= now_ns)
		run->next_tick_ns += TICK_NS;

	if (run->state == RUN_STOPPING) {
		if (run->threads_ended == run->threads &&
		    run_far_ended(run, now_ns)) {
			run->state = RUN_DONE;
		} else if (now_ns >= run->stop_ns + STOP_GRACE_NS &&
			   !run->connections_cut) {
			run_set_error(run,
				      "flows did not finish within %llu s "
				      "of the stop",
				      STOP_GRACE_NS / 1000000000ull);
			run_cut_connections(run);
		}
	}
	return run->state == RUN_DONE;
}

double run_elapsed_s(const struct run *run, uint64_t now_ns, bool *warmup)
{
	*warmup = run->state <= RUN_WARMUP;
	if (run->state == RUN_STARTING)
		return 0;
	return (double)(now_ns - run->start_ns) / 1e9;
}

bool run_pause(struct run *run)
{
	uint64_t now = clock_now_ns();

	if (run->config.paced || run->state == RUN_DONE)
		return false;
	/* The window ends before the stop, with its last partial tick. */
	if (run->state == RUN_MEASURE) {
		run_close_tick(run, now);
		run_begin_stop(run, now);
		run->pause_ended_window = true;
	}
	run->paused_ns = now;
	return run->pause_ended_window;
}

void run_stop(struct run *run)
{
	uint64_t now = clock_now_ns();

	/* The window ends now, not at the last tick. */
	if (run->state < RUN_STOPPING)
		run_close_tick(run, now);
	run_begin_stop(run, now);
}

void run_end_warmup(struct run *run)
{
	if (run->state == RUN_STARTING)
		run->measure_at_start = true;
	if (run->state != RUN_WARMUP)
		return;
	run_close_tick(run, clock_now_ns());
	run_enter_measure(run, &run->last);
}

void run_abort(struct run *run, const char *why)
{
	run_set_error(run, "%s", why);
	run_begin_stop(run, clock_now_ns());
	run_mark_far(run, RUN_MARK_ABORT, why);
	run_cut_connections(run);
}
