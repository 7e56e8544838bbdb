/*
 * Worker threads.  The sender stamps (or, with --verify, fills) each message
 * with its sequence number and hands it to the strategy until told to stop,
 * then drains the strategy and half-closes the connection; the receiver counts
 * whole messages until the end of the stream, checking each one if asked.
 *
 * In request/response mode the receiver drives: it sends an 8-byte request,
 * the sender answers it with one message, and the receiver times the round
 * trip.  Told to stop, the receiver half-closes; the sender sees the end of
 * the requests, drains and half-closes in turn.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "clock.h"
#include "thread.h"

#include "worker.h"

static void worker_count(struct flow_stats *stats, uint64_t messages,
			 size_t msg_size)
{
	flow_stat_add(&stats->messages, messages);
	flow_stat_add(&stats->bytes, messages * msg_size);
}

void worker_gate_init(struct worker_gate *gate)
{
	pthread_mutex_init(&gate->lock, NULL);
	pthread_cond_init(&gate->opened, NULL);
	gate->open = false;
	atomic_init(&gate->ready, 0);
	atomic_init(&gate->ended, 0);
}

void worker_gate_open(struct worker_gate *gate)
{
	pthread_mutex_lock(&gate->lock);
	gate->open = true;
	pthread_cond_broadcast(&gate->opened);
	pthread_mutex_unlock(&gate->lock);
}

void worker_gate_fini(struct worker_gate *gate)
{
	pthread_cond_destroy(&gate->opened);
	pthread_mutex_destroy(&gate->lock);
}

/* This thread is ready: it says so and waits for the run's clock. */
static void worker_ready(struct worker_flow *flow)
{
	struct worker_gate *gate = flow->gate;

	atomic_fetch_add_explicit(&gate->ready, 1, memory_order_release);
	eventfd_write(flow->done_fd, 1);
	pthread_mutex_lock(&gate->lock);
	while (!gate->open)
		pthread_cond_wait(&gate->opened, &gate->lock);
	pthread_mutex_unlock(&gate->lock);
}

static void worker_end(struct worker_flow *flow, int fd, bool failed)
{
	/* A failed side shuts the connection so the other side ends too. */
	shutdown(fd, failed ? SHUT_RDWR : SHUT_WR);
	atomic_fetch_add_explicit(&flow->gate->ended, 1, memory_order_release);
	eventfd_write(flow->done_fd, 1);
}

static struct strategy_params worker_params(struct worker_flow *flow,
					    bool sender)
{
	return (struct strategy_params){
		.fd = sender ? flow->tx_fd : flow->rx_fd,
		.msg_size = flow->msg_size,
		.request_response = flow->request_response,
		.settings = flow->settings,
		.stats = sender ? &flow->tx : &flow->rx,
		/* The receiver is a thread here only when both ends are. */
		.delivered = flow->rx_fd >= 0 ? &flow->rx.messages : NULL,
	};
}

/*
 * The settings' socket knobs on this end's socket (TCP_NODELAY among them:
 * a request or an answer sent in several pieces otherwise waits for the
 * delayed ACK of the one before): 0, or -errno with *step the knob that
 * failed.  What the socket became is read once the strategy has opened
 * (which may set a knob of its own), before the thread says it is ready.
 */
static int worker_socket(struct worker_flow *flow, bool sender,
			 const char **step)
{
	struct strategy_params params = worker_params(flow, false);
	uint64_t mark = sockopts_rx_mark(
		flow->settings, flow->request_response, flow->msg_size,
		strategy_unread_least(flow->ops, &params), flow->link_rate_bps);

	int r = sockopts_apply(sender ? flow->tx_fd : flow->rx_fd,
			       flow->settings, sender, flow->request_response,
			       mark, step);

	if (r == 0 && sender && flow->pace_bytes_per_s)
		r = sockopts_pace(flow->tx_fd, flow->pace_bytes_per_s, step);
	return r;
}

/*
 * Counting starts in the thread itself: perf counts the calling thread; its
 * id is what the run samples.  The thread takes its name first, so that
 * top -H and perf see which it is.
 */
static void worker_count_me(struct worker_flow *flow, bool sender)
{
	char name[16];

	snprintf(name, sizeof(name), "nio-%s%u", sender ? "tx" : "rx",
		 flow->index);
	pthread_setname_np(pthread_self(), name);
	if (flow->profile_hz || flow->offcpu) {
		*(sender ? &flow->tx_tid : &flow->rx_tid) = gettid();
		atomic_store_explicit(sender ? &flow->tx_profiled
					     : &flow->rx_profiled,
				      true, memory_order_release);
	}
	if (!flow->counters)
		return;
	thread_counters_open(sender ? &flow->tx_counters : &flow->rx_counters,
			     flow->counters, &counters_syscalls);
	atomic_store_explicit(sender ? &flow->tx_counting : &flow->rx_counting,
			      true, memory_order_release);
}

/* 1 with the next request read, 0 at the end of the requests, or -errno. */
static int worker_next_request(struct worker_flow *flow)
{
	uint64_t request;
	ssize_t n;

	if (!flow->request_response)
		return !atomic_load_explicit(flow->stop, memory_order_relaxed);
	do {
		n = recv(flow->tx_fd, &request, sizeof(request), MSG_WAITALL);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (n == 0)
		return 0;
	return n == sizeof(request) ? 1 : -EPROTO;
}

static int worker_send_request(struct worker_flow *flow, uint64_t seq)
{
	ssize_t n;

	do {
		n = send(flow->rx_fd, &seq, sizeof(seq), MSG_NOSIGNAL);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return n == sizeof(seq) ? 0 : -EPROTO;
}

static void *worker_sender(void *arg)
{
	struct worker_flow *flow = arg;
	struct strategy_params params = worker_params(flow, true);
	const char *step = "open";
	struct message *msg;
	uint64_t seq = 0;
	void *tx;
	int r;

	worker_count_me(flow, true);
	r = worker_socket(flow, true, &step);
	if (r < 0)
		goto out;
	step = "open";
	r = flow->ops->tx_open(&params, &tx);
	if (r < 0)
		goto out;
	sockopts_read(flow->tx_fd, &flow->tx_socket);
	worker_ready(flow);

	for (;;) {
		step = "read a request";
		r = worker_next_request(flow);
		if (r <= 0)
			break;
		step = "wait for a free message slot";
		r = flow->ops->tx_slot(tx, &msg);
		if (r < 0)
			break;
		if (flow->settings->verify)
			message_fill(msg, seq);
		else
			message_stamp(msg, seq);
		step = "send";
		r = flow->ops->tx_send(tx, msg);
		if (r < 0)
			break;
		seq++;
		worker_count(&flow->tx, (uint64_t)r, flow->msg_size);
	}
	if (r >= 0) {
		step = "drain completions";
		r = flow->ops->tx_drain ? flow->ops->tx_drain(tx) : 0;
		if (r >= 0)
			worker_count(&flow->tx, (uint64_t)r, flow->msg_size);
	}
	flow->ops->tx_close(tx);
out:
	if (r < 0)
		flow_stats_fail(&flow->tx, step, r);
	worker_end(flow, flow->tx_fd, r < 0);
	return NULL;
}

/* Asks for the next message, or half-closes once told to stop. */
static int worker_request(struct worker_flow *flow, uint64_t seq,
			  bool *requesting, uint64_t *sent_ns)
{
	if (!*requesting)
		return 0;
	if (atomic_load_explicit(flow->stop, memory_order_relaxed)) {
		*requesting = false;
		shutdown(flow->rx_fd, SHUT_WR);
		return 0;
	}
	*sent_ns = clock_now_ns();
	return worker_send_request(flow, seq);
}

static void *worker_receiver(void *arg)
{
	struct worker_flow *flow = arg;
	struct strategy_params params = worker_params(flow, false);
	const struct strategy_ops *ops = strategy_receiver(flow->ops,
							   flow->settings);
	bool requesting = flow->request_response;
	const char *step = "open";
	uint64_t seq = 0, sent_ns = 0;
	struct message *msg;
	void *rx;
	int r;

	worker_count_me(flow, false);
	r = worker_socket(flow, false, &step);
	if (r < 0)
		goto out;
	step = "open";
	r = ops->rx_open(&params, &rx);
	if (r < 0)
		goto out;
	sockopts_read(flow->rx_fd, &flow->rx_socket);
	worker_ready(flow);
	for (;;) {
		step = "send a request";
		r = worker_request(flow, seq, &requesting, &sent_ns);
		if (r < 0)
			break;
		step = "receive";
		r = ops->rx_recv(rx, &msg);
		if (r <= 0)
			break;
		if (requesting)
			latency_record(flow->rtt, clock_now_ns() - sent_ns);
		if (flow->settings->verify) {
			flow_stat_add(&flow->rx.checked, 1);
			if (message_verify(msg, seq) < 0)
				flow_stat_add(&flow->rx.corrupt, 1);
		}
		seq++;
		/* Released: a sender waiting for this message may reuse it. */
		atomic_store_explicit(&flow->rx.messages,
				      flow_stat_read(&flow->rx.messages) + 1,
				      memory_order_release);
		flow_stat_add(&flow->rx.bytes, flow->msg_size);
	}
	ops->rx_close(rx);
out:
	if (r < 0)
		flow_stats_fail(&flow->rx, step, r);
	worker_end(flow, flow->rx_fd, r < 0);
	return NULL;
}

int worker_start(struct worker_flow *flow)
{
	int r;

	if (flow->rx_fd >= 0) {
		r = thread_start_on(&flow->rx_thread, flow->rx_cpu,
				    worker_receiver, flow);
		if (r < 0)
			return r;
		flow->rx_started = true;
	}
	if (flow->tx_fd >= 0) {
		r = thread_start_on(&flow->tx_thread, flow->tx_cpu,
				    worker_sender, flow);
		if (r < 0)
			return r;
		flow->tx_started = true;
	}
	return 0;
}

void worker_join(struct worker_flow *flow)
{
	if (flow->tx_started)
		pthread_join(flow->tx_thread, NULL);
	if (flow->rx_started)
		pthread_join(flow->rx_thread, NULL);
	flow->tx_started = flow->rx_started = false;
}
