/*
 * A run's life: connect one TCP connection per flow across the topology, start
 * the flows' threads, wait until every one is ready (its buffers allocated
 * and filled) and only then start the clock, sample every tick, note the
 * counters where the warm-up ends and where the measured window ends, tell
 * the senders to stop, and wait for every thread to drain and end.  A failing
 * thread, or a caller's abort, shuts every connection down so that no thread
 * stays blocked.  A run that delivered no message in its measured window has
 * failed, and says so.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cause.h"
#include "netns.h"
#include "run.h"
#include "timeline.h"
#include "worker.h"

#define TICK_NS (RUN_TICK_MS * NS_PER_MS)
/* How long stopped flows may take to drain before they are cut off. */
#define STOP_GRACE_NS (15000 * NS_PER_MS)
/* How long a far end may take to report after the flows were cut. */
#define REPORT_GRACE_NS (5000 * NS_PER_MS)
/*
 * A tick this late finds a process that was stopped (SIGSTOP, a suspended
 * VM) or a loop held off as long: the time did not run for the flows as the
 * clock says.
 */
#define STALL_NS (1000 * NS_PER_MS)

enum run_state {
	RUN_STARTING, /* the threads get ready; the clock has not started */
	RUN_WARMUP,
	RUN_MEASURE,
	RUN_STOPPING,
	RUN_DONE,
};

struct run {
	struct run_config config;
	const struct topo *topo;
	bool has_link;
	struct topo_link_stats link_before;
	enum run_state state;
	atomic_bool stop;
	struct worker_gate gate; /* where the threads wait for the clock */
	uint64_t ready_deadline_ns;
	bool measure_at_start; /* paced: "measure" came while starting */
	int done_fd;
	unsigned int threads; /* started, i.e. expected to end */
	unsigned int threads_ended;
	bool connections_cut;
	uint64_t cut_ns;
	/* The host running the flows' other ends, or NULL. */
	const struct run_far_end *far;

	struct worker_flow *flows;
	unsigned int flow_count;
	struct latency_recorder *rtt;  /* RUN_RR: one per flow */
	struct latency_hist *rtt_from; /* where the measured window starts */
	struct latency_hist *rtt_to;

	uint64_t start_ns;
	uint64_t warmup_end_ns;
	uint64_t end_ns;
	uint64_t stop_ns;
	uint64_t next_tick_ns;
	struct sample last;
	struct sample measure_from;
	struct sample measure_to;

	struct timeline timeline; /* the intervals' boundaries, merged */
	char *error;

	/*
	 * A stop: when the process was about to stop (run_pause), and how
	 * long the measured window's run was stopped; it ended there.
	 */
	uint64_t paused_ns;
	bool pause_ended_window;
	double stopped_s;
};

struct listener {
	struct sockaddr_in addr;
	int backlog;
	int fd;
};

struct dialer {
	struct sockaddr_in addr;
	unsigned int count;
	int *fds;
};

/* In the server namespace: a listening socket on an ephemeral port. */
static int listener_open(void *arg)
{
	struct listener *l = arg;
	socklen_t len = sizeof(l->addr);

	l->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l->fd < 0)
		return -errno;
	if (bind(l->fd, (struct sockaddr *)&l->addr, sizeof(l->addr)) < 0 ||
	    listen(l->fd, l->backlog) < 0 ||
	    getsockname(l->fd, (struct sockaddr *)&l->addr, &len) < 0) {
		int r = -errno;

		close(l->fd);
		l->fd = -1;
		return r;
	}
	return 0;
}

/* In the client namespace: one connection per flow, handshakes done. */
static int dial_all(void *arg)
{
	struct dialer *d = arg;

	for (unsigned int i = 0; i < d->count; i++) {
		d->fds[i] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (d->fds[i] < 0)
			return -errno;
		if (connect(d->fds[i], (struct sockaddr *)&d->addr,
			    sizeof(d->addr)) < 0)
			return -errno;
	}
	return 0;
}

static int local_port(int fd, bool peer)
{
	struct sockaddr_in addr;
	socklen_t len = sizeof(addr);
	int r = peer ? getpeername(fd, (struct sockaddr *)&addr, &len)
		     : getsockname(fd, (struct sockaddr *)&addr, &len);

	return r < 0 ? -errno : ntohs(addr.sin_port);
}

/*
 * Connects every flow: receivers dial from the client namespace, senders are
 * the accepted ends in the server namespace, matched by port so that both
 * threads of a flow share one connection.
 */
static int run_connect(struct run *run, const struct topo *topo, char **cause)
{
	struct listener l = {.addr = topo->server_addr,
			     .backlog = (int)run->flow_count,
			     .fd = -1};
	struct dialer d = {.count = run->flow_count};
	const char *step;
	int r;

	d.fds = malloc(run->flow_count * sizeof(*d.fds));
	if (!d.fds)
		return -ENOMEM;
	for (unsigned int i = 0; i < run->flow_count; i++)
		d.fds[i] = -1;

	step = "listen";
	r = netns_run(topo->server_ns, listener_open, &l);
	if (r < 0)
		goto out;
	d.addr = l.addr;
	step = "connect";
	r = netns_run(topo->client_ns, dial_all, &d);
	if (r < 0)
		goto out;

	step = "accept";
	for (unsigned int i = 0; i < run->flow_count; i++) {
		int fd = accept4(l.fd, NULL, NULL, SOCK_CLOEXEC);
		int port;

		if (fd < 0) {
			r = -errno;
			goto out;
		}
		port = local_port(fd, true);
		for (unsigned int j = 0; j < run->flow_count; j++) {
			if (run->flows[j].tx_fd < 0 &&
			    local_port(d.fds[j], false) == port) {
				run->flows[j].tx_fd = fd;
				fd = -1;
				break;
			}
		}
		if (fd >= 0) {
			close(fd);
			r = -EPROTO;
			goto out;
		}
	}
	for (unsigned int i = 0; i < run->flow_count; i++) {
		run->flows[i].rx_fd = d.fds[i];
		d.fds[i] = -1;
	}
out:
	if (r < 0 && asprintf(cause, "cannot %s: %s", step, strerror(-r)) < 0)
		*cause = NULL;
	for (unsigned int i = 0; i < run->flow_count; i++) {
		if (d.fds[i] >= 0)
			close(d.fds[i]);
	}
	if (l.fd >= 0)
		close(l.fd);
	free(d.fds);
	return r;
}

/* Wakes every thread of the run: their sockets fail from now on. */
static void run_cut_connections(struct run *run)
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
}

static void run_free(struct run *run)
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
	if (run->done_fd >= 0)
		close(run->done_fd);
	free(run->rtt);
	free(run->rtt_from);
	free(run->rtt_to);
	free(run->flows);
	timeline_fini(&run->timeline);
	free(run->error);
	worker_gate_fini(&run->gate);
	free(run);
}

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

static const struct run_far_view *run_far(const struct run *run)
{
	return run->far->view(run->far->data);
}

static void run_mark_far(const struct run *run, enum run_mark mark,
			 const char *why)
{
	if (run->far)
		run->far->mark(run->far->data, mark, why);
}

static bool run_side_open(const struct run *run, bool sender,
			  struct counter_open *open);
static bool run_side_far(const struct run *run, bool sender);

/*
 * An event that some of a side's threads could not open counts only part of
 * the side: its reading is dropped, so that nothing is derived from it.
 */
static void run_drop_partial(const struct run *run, bool sender,
			     struct counter_reading *reading)
{
	struct counter_open open[COUNTERS_MAX];

	if (run_side_far(run, sender) || !run_side_open(run, sender, open))
		return;
	for (unsigned int i = 0; i < run->config.counters->count; i++)
		if (open[i].opened < open[i].threads)
			reading[i] = (struct counter_reading){0};
}

/* Puts the far end's latest counts into s: the ends this host lacks. */
static void run_merge_far(const struct run *run, struct sample *s)
{
	const struct run_far_view *v = run_far(run);
	struct run_totals *t = &s->totals;

	if (!v->has_sample)
		return;
	if (run->config.role == RUN_SENDERS) {
		t->messages_received = v->totals.messages_received;
		t->bytes_received = v->totals.bytes_received;
		t->checked = v->totals.checked;
		t->corrupt = v->totals.corrupt;
		t->rx_mapped = v->totals.rx_mapped;
		t->rx_copied = v->totals.rx_copied;
		t->uring_cq_overflow += v->totals.uring_cq_overflow;
		memcpy(s->rx_counters, v->counters, sizeof(v->counters));
	} else {
		t->messages_sent = v->totals.messages_sent;
		t->bytes_sent = v->totals.bytes_sent;
		t->zc_sends = v->totals.zc_sends;
		t->zc_completions = v->totals.zc_completions;
		t->zc_copied = v->totals.zc_copied;
		t->zc_enobufs = v->totals.zc_enobufs;
		t->zc_copied_min = v->totals.zc_copied_min;
		t->zc_copied_max = v->totals.zc_copied_max;
		t->zc_unmatched = v->totals.zc_unmatched;
		t->uring_cq_overflow += v->totals.uring_cq_overflow;
		t->uring_fixed_sends = v->totals.uring_fixed_sends;
		memcpy(s->tx_counters, v->counters, sizeof(v->counters));
	}
}

static void run_merge_latency(const struct run *run, struct latency_hist *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned int i = 0; i < run->flow_count; i++)
		latency_hist_add(out, &run->rtt[i]);
}

/*
 * The flows' counters now: this host's ends, and the ends an agent runs as it
 * last reported them.
 */
static void run_read(const struct run *run, uint64_t now_ns, struct sample *out)
{
	sampler_read(run->flows, run->flow_count, now_ns, out);
	run_drop_partial(run, true, out->tx_counters);
	run_drop_partial(run, false, out->rx_counters);
	if (run->far)
		run_merge_far(run, out);
}

/* The measured window starts at sample s. */
static void run_measure_from(struct run *run, const struct sample *s)
{
	run->measure_from = *s;
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

size_t run_memory(const struct run_config *c)
{
	struct strategy_params params = {
		.msg_size = c->msg_size,
		.request_response = c->mode == RUN_RR,
		.settings = &c->settings,
	};
	size_t per_flow = sizeof(struct worker_flow);

	if (c->role != RUN_RECEIVERS)
		per_flow += strategy_memory(c->strategy, &params, true);
	if (c->role != RUN_SENDERS)
		per_flow += strategy_memory(c->strategy, &params, false);
	if (c->mode == RUN_RR)
		per_flow += sizeof(struct latency_recorder);
	return per_flow * c->threads;
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
		f->request_response = config->mode == RUN_RR;
		f->rtt = run->rtt ? &run->rtt[i] : NULL;
		f->counters = config->counters;
		run_pin(&config->settings.pin, config->threads, i, &f->tx_cpu,
			&f->rx_cpu);
		f->stop = &run->stop;
		f->done_fd = run->done_fd;
		f->gate = &run->gate;
		f->tx_fd = f->rx_fd = -1;
	}
	*out = run;
	return 0;

err:
	run_free(run);
	return r;
}

/* Gives flow i this host's end of its connection, fds[i]. */
static void run_take_fds(struct run *run, int *fds)
{
	for (unsigned int i = 0; i < run->flow_count; i++) {
		if (run->config.role == RUN_SENDERS)
			run->flows[i].tx_fd = fds[i];
		else
			run->flows[i].rx_fd = fds[i];
		fds[i] = -1;
	}
}

/* The far end first, then this host's: one connection per flow. */
static int run_connect_far(struct run *run, char **cause)
{
	int *fds = malloc(run->flow_count * sizeof(*fds));
	int r;

	if (!fds)
		return -ENOMEM;
	r = run->far->start(run->far->data, &run->config, fds, cause);
	if (r == 0)
		run_take_fds(run, fds);
	free(fds);
	return r;
}

/*
 * Starts the connected flows' threads; the clock starts once they are all
 * ready (run_tick).
 */
static int run_launch(struct run *run, struct run **out, char **cause)
{
	for (unsigned int i = 0; i < run->flow_count; i++) {
		int r = worker_start(&run->flows[i]);

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
 * receiver here, as a thread of this process.
 */
static int run_check_ends(const struct run_config *config, char **cause)
{
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
	r = far ? run_connect_far(run, cause) : run_connect(run, topo, cause);
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
		boundary = run->ready_deadline_ns;
	return boundary && boundary < deadline ? boundary : deadline;
}

static void run_set_error(struct run *run, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void run_set_error(struct run *run, const char *fmt, ...)
{
	va_list ap;

	if (run->error)
		return;
	va_start(ap, fmt);
	if (vasprintf(&run->error, fmt, ap) < 0)
		run->error = NULL;
	va_end(ap);
}

/* The descriptors this process holds now. */
static size_t open_descriptors(void)
{
	DIR *d = opendir("/proc/self/fd");
	size_t n = 0;

	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	/* ".", ".." and the folder's own descriptor. */
	return n > 3 ? n - 3 : 0;
}

size_t run_descriptors(const struct run_config *c)
{
	unsigned int ends = c->role == RUN_BOTH ? 2 : 1;
	size_t per_end = 1 + c->strategy->descriptors +
			 (c->counters ? counters_descriptors(c->counters) : 0);

	/* Each end's socket, ring and counters; the listener; some slack. */
	return (size_t)c->threads * ends * per_end + 1 + 8;
}

/* What a run short of descriptors needs: appended to reason. */
static void run_descriptor_hint(const struct run_config *c, char *reason,
				size_t size)
{
	struct rlimit limit = {0};
	size_t len = strlen(reason);

	getrlimit(RLIMIT_NOFILE, &limit);
	snprintf(reason + len, size - len,
		 "; ulimit -n is %llu, the run needs about %zu",
		 (unsigned long long)limit.rlim_cur,
		 run_descriptors(c) + open_descriptors());
}

int run_check_descriptors(const struct run_config *c, char **cause)
{
	size_t need = run_descriptors(c) + open_descriptors();
	struct rlimit limit;

	if (getrlimit(RLIMIT_NOFILE, &limit) < 0 || need <= limit.rlim_cur)
		return 0;
	/* The soft limit is ours to raise, up to the hard one. */
	if (limit.rlim_max == RLIM_INFINITY || need <= limit.rlim_max) {
		limit.rlim_cur = need;
		if (setrlimit(RLIMIT_NOFILE, &limit) == 0)
			return 0;
	}
	return cause_set(
		cause, -EMFILE,
		"%u flows need about %zu open files here (%u per "
		"thread for its socket%s%s), and ulimit -n allows "
		"%llu: raise it (ulimit -n %zu), or run fewer flows%s",
		c->threads, need,
		1 + c->strategy->descriptors +
			(c->counters ? counters_descriptors(c->counters) : 0),
		c->strategy->descriptors ? ", its io_uring" : "",
		c->counters ? " and its perf events" : "",
		(unsigned long long)limit.rlim_max, need,
		c->counters ? " or count fewer events (--events, "
			      "--no-counters)"
			    : "");
}

/* Whether one side's threads run on the far end. */
static bool run_side_far(const struct run *run, bool sender)
{
	return run->far &&
	       run->config.role == (sender ? RUN_RECEIVERS : RUN_SENDERS);
}

/*
 * How one side's events opened over every thread of it here: each event's
 * first error, user-only if any thread counted user space only, and how many
 * threads opened it.  False until every thread has opened its counters.
 */
static bool run_side_open(const struct run *run, bool sender,
			  struct counter_open *open)
{
	if (!run->flow_count || !run->config.counters)
		return false;
	memset(open, 0, COUNTERS_MAX * sizeof(*open));
	for (unsigned int f = 0; f < run->flow_count; f++) {
		const struct worker_flow *flow = &run->flows[f];
		const struct thread_counters *tc = sender ? &flow->tx_counters
							  : &flow->rx_counters;

		if (!atomic_load_explicit(sender ? &flow->tx_counting
						 : &flow->rx_counting,
					  memory_order_acquire))
			return false;
		for (unsigned int i = 0; i < run->config.counters->count; i++) {
			if (!open[i].error)
				open[i].error = tc->open[i].error;
			open[i].user_only |= tc->open[i].user_only;
			open[i].threads++;
			open[i].opened += !tc->open[i].error;
		}
	}
	return true;
}

/* A reason given for the far end's threads says so. */
static void run_far_reason(struct counter_value *v)
{
	char own[sizeof(v->reason)];

	if (!v->reason[0] || strncmp(v->reason, "on the agent: ", 14) == 0)
		return;
	memcpy(own, v->reason, sizeof(own));
	snprintf(v->reason, sizeof(v->reason), "on the agent: %.*s",
		 (int)sizeof(own) - 15, own);
}

void run_counter_value(const struct run *run, bool sender, unsigned int i,
		       const struct counter_reading *delta,
		       struct counter_value *out)
{
	const struct counter_set *set = run->config.counters;
	struct counter_open open[COUNTERS_MAX];

	if (run_side_far(run, sender)) {
		const struct run_far_view *v = run_far(run);
		struct counter_set far_set = *set;

		if (!v->counting || i >= set->count) {
			*out = (struct counter_value){
				.status = COUNTER_NOT_COUNTED,
				.value = NAN,
				.running_pct = NAN};
			snprintf(out->reason, sizeof(out->reason),
				 "the agent's threads have not opened their "
				 "counters yet");
			return;
		}
		far_set.pmu_present = v->pmu;
		counter_evaluate(&far_set, i, &v->open[i], delta, out);
		run_far_reason(out);
		return;
	}
	if (!run_side_open(run, sender, open)) {
		*out = (struct counter_value){.status = COUNTER_NOT_COUNTED,
					      .value = NAN,
					      .running_pct = NAN};
		snprintf(out->reason, sizeof(out->reason),
			 "the threads have not opened their counters yet");
		return;
	}
	counter_evaluate(set, i, &open[i], delta, out);
	if (open[i].error == EMFILE || open[i].error == ENFILE)
		run_descriptor_hint(&run->config, out->reason,
				    sizeof(out->reason));
}

bool run_counters_open(const struct run *run, bool sender,
		       struct counter_open *open)
{
	return run_side_open(run, sender, open);
}

const char *run_error(const struct run *run)
{
	return run->error;
}

/* One side's counters over the measured window, and what they mean. */
static void run_side(const struct run *run, bool sender,
		     struct run_side_counters *side)
{
	struct counter_reading delta[COUNTERS_MAX];

	sampler_side(run->config.counters, &run->measure_from, &run->measure_to,
		     sender, delta, &side->derived);
	for (unsigned int i = 0;
	     run->config.counters && i < run->config.counters->count; i++)
		run_counter_value(run, sender, i, &delta[i], &side->value[i]);
}

/*
 * The interval since the last boundary ends at s, in the phase the run is in
 * (only while the clock runs and the window is open).
 */
static void run_boundary(struct run *run, const struct sample *s)
{
	if (run->state == RUN_WARMUP || run->state == RUN_MEASURE)
		(void)timeline_add(&run->timeline, s, run->state == RUN_WARMUP);
	run->last = *s;
}

/* The result's intervals, from the timeline's boundaries. */
static void run_intervals(const struct run *run, struct run_result *result)
{
	size_t n = timeline_intervals(&run->timeline);

	result->intervals = n ? calloc(n, sizeof(*result->intervals)) : NULL;
	if (!result->intervals)
		return;
	for (size_t i = 0; i < n; i++) {
		struct run_interval *iv = &result->intervals[i];
		const struct sample *from, *to;

		timeline_interval(&run->timeline, i, &from, &to, &iv->warmup);
		iv->t_s = (double)(to->t_ns - run->start_ns) / 1e9;
		iv->length_s = (double)(to->t_ns - from->t_ns) / 1e9;
		sampler_side(run->config.counters, from, to, true, NULL,
			     &iv->side[0]);
		sampler_side(run->config.counters, from, to, false, NULL,
			     &iv->side[1]);
	}
	result->interval_count = n;
}

/* Ends the measured window now and tells the senders to finish. */
static void run_begin_stop(struct run *run, uint64_t now_ns)
{
	if (run->state >= RUN_STOPPING)
		return;
	if (run->state == RUN_WARMUP)
		run_measure_from(run, &run->last);
	if (run->state != RUN_STARTING)
		run->measure_to = run->last;
	if (run->rtt)
		run_merge_latency(run, run->rtt_to);
	run->state = RUN_STOPPING;
	run->stop_ns = now_ns;
	atomic_store(&run->stop, true);
	/* Threads waiting for the clock go on, and find the run stopped. */
	worker_gate_open(&run->gate);
	run_mark_far(run, RUN_MARK_STOP, NULL);
}

static void run_check_errors(struct run *run, uint64_t now_ns)
{
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
		run_set_error(run, "the agent did not report its end of the "
				   "run");
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
	run_measure_from(run, &run->last);
	run->state = warmup ? RUN_WARMUP : RUN_MEASURE;
	(void)timeline_add(&run->timeline, &run->last, false);
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
 * A boundary between ticks (the warm-up's end or the window's, when a front
 * end says so): the partial tick up to now becomes an interval of its own, so
 * the intervals always add up to the run.
 */
static void run_close_tick(struct run *run, uint64_t now_ns)
{
	struct sample s;

	run_read(run, now_ns, &s);
	run_boundary(run, &s);
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
	uint64_t since = run->paused_ns ? run->paused_ns : run->last.t_ns;

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

		run_read(run, now_ns, &s);
		run_boundary(run, &s);
		if (run->state == RUN_WARMUP && now_ns >= run->warmup_end_ns) {
			run_enter_measure(run, &s);
			run_mark_far(run, RUN_MARK_MEASURE, NULL);
		}
		if (run->state == RUN_MEASURE && now_ns >= run->end_ns)
			run_begin_stop(run, now_ns);
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

void run_sample(const struct run *run, struct sample *out)
{
	run_read(run, clock_now_ns(), out);
}

bool run_latency(const struct run *run, struct latency_hist *out)
{
	if (!run->rtt)
		return false;
	/* The round trips are timed where the requests are sent. */
	if (run_side_far(run, false)) {
		if (!run_far(run)->has_latency)
			return false;
		*out = run_far(run)->latency;
		return true;
	}
	if (run->state >= RUN_STOPPING)
		*out = *run->rtt_to;
	else
		run_merge_latency(run, out);
	if (run->state != RUN_WARMUP)
		latency_hist_subtract(out, run->rtt_from);
	return true;
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

/* Whether every thread of one side opened its counters. */
static bool run_side_counted(const struct run *run, bool sender)
{
	struct counter_open open[COUNTERS_MAX];

	if (run_side_far(run, sender))
		return run_far(run)->counted;
	if (run->config.role == (sender ? RUN_RECEIVERS : RUN_SENDERS))
		return true; /* not this host's to count */
	return run_side_open(run, sender, open);
}

/*
 * One side over the measured window: counted here, or as the far end
 * reported it over its own window.
 */
static void run_side_result(const struct run *run, bool sender,
			    struct run_side_counters *side)
{
	if (run_side_far(run, sender) && run_far(run)->done)
		*side = run_far(run)->side;
	else
		run_side(run, sender, side);
}

void run_finish(struct run *run, struct run_result *result)
{
	const struct run_far_view *peer = run->far ? run_far(run) : NULL;
	struct topo_link_stats after = {0};
	struct sample final;

	for (unsigned int i = 0; i < run->flow_count; i++)
		worker_join(&run->flows[i]);
	run_read(run, clock_now_ns(), &final);
	if (run->has_link && topo_link_stats(run->topo, &after) < 0)
		run->has_link = false;

	*result = (struct run_result){
		.config = run->config,
		.totals = final.totals,
		.measured_s = (double)(run->measure_to.t_ns -
				       run->measure_from.t_ns) /
			      1e9,
		.gbps = sampler_gbps(&run->measure_from, &run->measure_to),
		.msgs_per_s = sampler_msgs_per_s(&run->measure_from,
						 &run->measure_to),
		.has_link = run->has_link,
		.stopped_s = run->stopped_s,
		.counted = run->config.counters &&
			   run_side_counted(run, true) &&
			   run_side_counted(run, false),
	};
	/* Delivery is measured where it happens: over the agent's window. */
	if (run_side_far(run, false) && peer->done) {
		result->gbps = peer->gbps;
		result->msgs_per_s = peer->msgs_per_s;
	}
	if (run_side_far(run, false)) {
		if (run->rtt && peer->has_latency)
			latency_hist_summarize(&peer->latency,
					       &result->latency);
	} else if (run->rtt) {
		latency_hist_subtract(run->rtt_to, run->rtt_from);
		latency_hist_summarize(run->rtt_to, &result->latency);
	}
	run_side_result(run, true, &result->sender);
	run_side_result(run, false, &result->receiver);
	if (run->has_link)
		result->link = (struct topo_link_stats){
			.tx_bytes = after.tx_bytes - run->link_before.tx_bytes,
			.rx_bytes = after.rx_bytes - run->link_before.rx_bytes,
			.tx_packets = after.tx_packets -
				      run->link_before.tx_packets,
			.rx_packets = after.rx_packets -
				      run->link_before.rx_packets,
		};
	/* The agent's end failed: that is the run's failure too. */
	if (peer && peer->error)
		run_set_error(run, "%s", peer->error);
	/*
	 * A clean run that lost a byte is a bug nio-top must not hide.  An
	 * agent holds one end: its client checks both ends' counts.
	 */
	if ((run->config.role == RUN_BOTH || run->far) &&
	    final.totals.bytes_received != final.totals.bytes_sent)
		run_set_error(run, "delivered %llu of %llu bytes sent",
			      (unsigned long long) final.totals.bytes_received,
			      (unsigned long long) final.totals.bytes_sent);
	if (run->config.strategy->zerocopy &&
	    (run->config.role != RUN_RECEIVERS || run->far) &&
	    final.totals.zc_completions != final.totals.zc_sends)
		run_set_error(
			run, "%llu zero-copy sends never completed",
			(unsigned long long)(final.totals.zc_sends -
					     final.totals.zc_completions));
	/* A completion no send waited for: the accounting is wrong. */
	if (final.totals.zc_unmatched)
		run_set_error(run, "%llu zero-copy completions matched no send",
			      (unsigned long long) final.totals.zc_unmatched);
	if (final.totals.uring_cq_overflow)
		run_set_error(run,
			      "io_uring's completion queue overflowed %llu "
			      "times: completions were held back or lost",
			      (unsigned long long)
				      final.totals.uring_cq_overflow);
	/* Figures of a window that delivered nothing would mean nothing. */
	if ((run->config.role == RUN_BOTH || run->far) &&
	    !(result->msgs_per_s > 0))
		run_set_error(run,
			      "no message arrived in the measured window "
			      "(%.3g s)",
			      result->measured_s);
	result->error = run->error;
	run->error = NULL;
	run_intervals(run, result);
	run_free(run);
}

bool run_result_metric(const struct run_result *r, bool sender, size_t metric,
		       double *value)
{
	const struct run_side_counters *side = sender ? &r->sender
						      : &r->receiver;

	if (r->measured_s <= 0 ||
	    (metric_counted(&metrics[metric]) && !r->counted))
		return false;
	*value = side->derived.value[metric];
	return !isnan(*value);
}

const char *run_result_metric_why(const struct run_result *r, bool sender,
				  size_t metric)
{
	const struct run_side_counters *side = sender ? &r->sender
						      : &r->receiver;
	const char *events[2];
	unsigned int n = metric_events(&metrics[metric], events);

	if (r->measured_s <= 0)
		return "the run measured nothing";
	if (metric_counted(&metrics[metric]) && !r->counted)
		return "not counted (--no-counters)";
	for (unsigned int k = 0; k < n; k++) {
		int i = counters_find(r->config.counters, events[k]);

		if (i < 0)
			return "its event is not among --events";
		if (!counter_known(&side->value[i]))
			return side->value[i].reason;
	}
	return "nothing moved in the window";
}

void run_result_fini(struct run_result *result)
{
	free(result->intervals);
	free(result->error);
	result->intervals = NULL;
	result->error = NULL;
}
