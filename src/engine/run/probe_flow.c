/*
 * The probe's threads and their readings (probe_flow.h).  The
 * requester keeps its schedule on an absolute clock with no timer slack
 * (the default 50 us would make every send at 2000/s a tenth late), and
 * reads the answers that come between two sends without blocking; each
 * answer carries its request's send time back, so a round trip needs no
 * table of requests in flight.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cause.h"
#include "clock.h"
#include "probe_flow.h"
#include "thread.h"

/*
 * How long a stopped requester waits for the answers on their way: behind
 * a shaped link's queue they may take seconds, as the flows' last bytes do
 * (the run gives those RUN_STOP_GRACE_MS).
 */
#define PROBE_DRAIN_NS (10000 * NS_PER_MS)
/* Answers read at once: whole ones are timed, a part waits for the rest. */
#define PROBE_READ_ANSWERS 64

struct probe_flow *probe_flow_new(const struct probe_settings *settings,
				  int requester_fd, int answerer_fd,
				  int requester_cpu, int answerer_cpu,
				  struct worker_gate *gate, int done_fd)
{
	struct probe_flow *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (p->wake_fd < 0) {
		free(p);
		return NULL;
	}
	p->settings = *settings;
	p->requester_fd = requester_fd;
	p->answerer_fd = answerer_fd;
	p->requester_cpu = requester_cpu;
	p->answerer_cpu = answerer_cpu;
	p->gate = gate;
	p->done_fd = done_fd;
	return p;
}

static void probe_fail(struct probe_flow *p, const char *step, int err)
{
	int none = 0;

	/* The first failure stays: a later one is its consequence. */
	if (atomic_compare_exchange_strong(&p->error, &none, err))
		atomic_store_explicit(&p->error_step, step,
				      memory_order_release);
}

int probe_flow_error(const struct probe_flow *p, const char **step)
{
	int err = atomic_load_explicit(&p->error, memory_order_acquire);

	*step = err ? atomic_load_explicit(&p->error_step, memory_order_acquire)
		    : NULL;
	if (err && !*step)
		*step = "start";
	return err;
}

static void probe_add(_Atomic uint64_t *counter, uint64_t n)
{
	atomic_store_explicit(
		counter,
		atomic_load_explicit(counter, memory_order_relaxed) + n,
		memory_order_relaxed);
}

/* A thread of the probe is set up: counted as ready, without waiting. */
static void probe_ready(struct probe_flow *p, const char *name, int fd)
{
	int one = 1;

	pthread_setname_np(pthread_self(), name);
	if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) < 0)
		probe_fail(p, "set TCP_NODELAY", -errno);
	atomic_fetch_add_explicit(&p->gate->ready, 1, memory_order_release);
	eventfd_write(p->done_fd, 1);
}

static void probe_end(struct probe_flow *p, int fd)
{
	shutdown(fd, p->error ? SHUT_RDWR : SHUT_WR);
	atomic_fetch_add_explicit(&p->gate->ended, 1, memory_order_release);
	eventfd_write(p->done_fd, 1);
}

/* The answerer: each request back as it came, until the requester is done. */
static void *probe_answerer(void *arg)
{
	struct probe_flow *p = arg;
	char *buf = malloc(p->settings.size);
	const char *step = "receive a request";
	ssize_t n;

	probe_ready(p, "nio-probe-an", p->answerer_fd);
	while (buf) {
		do {
			n = recv(p->answerer_fd, buf, p->settings.size,
				 MSG_WAITALL);
		} while (n < 0 && errno == EINTR);
		if (n == 0)
			break;
		if (n != (ssize_t)p->settings.size) {
			probe_fail(p, step, n < 0 ? -errno : -EPROTO);
			break;
		}
		do {
			n = send(p->answerer_fd, buf, p->settings.size,
				 MSG_NOSIGNAL);
		} while (n < 0 && errno == EINTR);
		if (n != (ssize_t)p->settings.size) {
			probe_fail(p, "answer", n < 0 ? -errno : -EPROTO);
			break;
		}
		probe_add(&p->answered, 1);
	}
	if (!buf)
		probe_fail(p, "allocate", -ENOMEM);
	free(buf);
	probe_end(p, p->answerer_fd);
	return NULL;
}

/* The requester's state: its schedule and the answers read so far. */
struct requester {
	struct probe_flow *p;
	uint64_t period_ns;
	uint64_t next_ns; /* the next slot */
	uint64_t seq;	  /* of the next request */
	uint64_t expect;  /* of the next answer */
	char *request;
	char *answers;
	size_t have; /* bytes of answers[] read, not yet a whole answer */
};

/*
 * Sends the request of the slot due at or before now: the caller calls
 * again while slots are due, so those a late wake-up owes go out one after
 * another, as many as PROBE_OWED_MAX.
 */
static int requester_send(struct requester *q, uint64_t now)
{
	struct probe_flow *p = q->p;
	uint64_t behind = now - q->next_ns;
	ssize_t n;

	/* Slots owed beyond the newest PROBE_OWED_MAX are passed. */
	if (behind >= PROBE_OWED_MAX * q->period_ns) {
		uint64_t passed = behind / q->period_ns - (PROBE_OWED_MAX - 1);

		probe_add(&p->skipped, passed);
		q->next_ns += passed * q->period_ns;
		behind = now - q->next_ns;
	}
	now = clock_now_ns();
	memcpy(q->request, &q->seq, sizeof(q->seq));
	memcpy(q->request + sizeof(q->seq), &now, sizeof(now));
	do {
		n = send(p->requester_fd, q->request, p->settings.size,
			 MSG_NOSIGNAL);
	} while (n < 0 && errno == EINTR);
	if (n != (ssize_t)p->settings.size)
		return n < 0 ? -errno : -EPROTO;
	q->seq++;
	q->next_ns += q->period_ns;
	if (behind * 10 > q->period_ns)
		probe_add(&p->late, 1);
	probe_add(&p->sent, 1);
	return 0;
}

/* Reads the answers that wait, timing each whole one: 0, or -errno. */
static int requester_read(struct requester *q)
{
	struct probe_flow *p = q->p;
	size_t size = p->settings.size, cap = size * PROBE_READ_ANSWERS;
	uint64_t now, seq, sent_ns;
	ssize_t n;
	size_t at;

	n = recv(p->requester_fd, q->answers + q->have, cap - q->have,
		 MSG_DONTWAIT);
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -errno;
	if (n == 0)
		return -ECONNRESET;
	now = clock_now_ns();
	q->have += (size_t)n;
	for (at = 0; q->have - at >= size; at += size) {
		memcpy(&seq, q->answers + at, sizeof(seq));
		memcpy(&sent_ns, q->answers + at + sizeof(seq),
		       sizeof(sent_ns));
		if (seq != q->expect || sent_ns > now)
			return -EPROTO;
		q->expect++;
		latency_record(&p->rtt, now - sent_ns);
	}
	memmove(q->answers, q->answers + at, q->have - at);
	q->have -= at;
	return 0;
}

/* Waits for an answer, the wake-up or until_ns (0: no limit). */
static int requester_wait(struct requester *q, uint64_t until_ns)
{
	struct pollfd pfd[2] = {
		{.fd = q->p->requester_fd, .events = POLLIN},
		{.fd = q->p->wake_fd, .events = POLLIN},
	};
	uint64_t now = clock_now_ns(), left;
	struct timespec ts;
	eventfd_t wakes;
	int n;

	left = until_ns > now ? until_ns - now : 0;
	ts = (struct timespec){.tv_sec = (time_t)(left / 1000000000ull),
			       .tv_nsec = (long)(left % 1000000000ull)};
	n = ppoll(pfd, 2, until_ns ? &ts : NULL, NULL);
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	if (pfd[1].revents & POLLIN)
		(void)eventfd_read(q->p->wake_fd, &wakes);
	if (pfd[0].revents & (POLLIN | POLLHUP | POLLERR))
		return requester_read(q);
	return 0;
}

static bool probe_flag(const atomic_bool *flag)
{
	return atomic_load_explicit(flag, memory_order_acquire);
}

/* The schedule, from go until stop: 0, or -errno with *step. */
static int requester_run(struct requester *q, const char **step)
{
	struct probe_flow *p = q->p;
	int r = 0;

	*step = "wait to start";
	while (!probe_flag(&p->go) && !probe_flag(&p->stop) && r == 0)
		r = requester_wait(q, 0);
	q->next_ns = clock_now_ns();
	while (!probe_flag(&p->stop) && r == 0) {
		uint64_t now = clock_now_ns();

		*step = "send a request";
		if (now >= q->next_ns) {
			r = requester_send(q, now);
			continue;
		}
		*step = "receive an answer";
		r = requester_wait(q, q->next_ns);
	}
	/* The answers on their way, then the end of the stream. */
	*step = "receive an answer";
	for (uint64_t until = clock_now_ns() + PROBE_DRAIN_NS;
	     r == 0 && q->expect < q->seq && clock_now_ns() < until;)
		r = requester_wait(q, until);
	return r;
}

static void *probe_requester(void *arg)
{
	struct probe_flow *p = arg;
	struct requester q = {
		.p = p,
		.period_ns = 1000000000ull / p->settings.rate_hz,
		.request = calloc(1, p->settings.size),
		.answers = malloc((size_t)p->settings.size *
				  PROBE_READ_ANSWERS),
	};
	const char *step = "allocate";
	int r = q.request && q.answers ? 0 : -ENOMEM;

	/* Wake-ups on the schedule, not up to 50 us after it. */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	probe_ready(p, "nio-probe-rq", p->requester_fd);
	if (r == 0)
		r = requester_run(&q, &step);
	if (r < 0)
		probe_fail(p, step, r);
	free(q.request);
	free(q.answers);
	probe_end(p, p->requester_fd);
	return NULL;
}

int probe_flow_start(struct probe_flow *p)
{
	int r = thread_start_on(&p->answerer, p->answerer_cpu, probe_answerer,
				p);

	if (r < 0)
		return r;
	p->answerer_started = true;
	r = thread_start_on(&p->requester, p->requester_cpu, probe_requester,
			    p);
	if (r < 0)
		return r;
	p->requester_started = true;
	return 0;
}

void probe_flow_go(struct probe_flow *p)
{
	if (probe_flag(&p->go))
		return;
	atomic_store_explicit(&p->go, true, memory_order_release);
	eventfd_write(p->wake_fd, 1);
}

void probe_flow_stop(struct probe_flow *p)
{
	if (probe_flag(&p->stop))
		return;
	atomic_store_explicit(&p->stop, true, memory_order_release);
	eventfd_write(p->wake_fd, 1);
}

void probe_flow_cut(struct probe_flow *p)
{
	probe_flow_stop(p);
	shutdown(p->requester_fd, SHUT_RDWR);
	shutdown(p->answerer_fd, SHUT_RDWR);
}

void probe_flow_join(struct probe_flow *p)
{
	/* A requester that never started waits for go or stop. */
	probe_flow_stop(p);
	if (p->requester_started)
		pthread_join(p->requester, NULL);
	if (p->answerer_started)
		pthread_join(p->answerer, NULL);
	p->requester_started = p->answerer_started = false;
}

void probe_flow_free(struct probe_flow *p)
{
	if (!p)
		return;
	probe_flow_join(p);
	close(p->requester_fd);
	close(p->answerer_fd);
	close(p->wake_fd);
	free(p);
}

static uint64_t probe_load(const _Atomic uint64_t *v)
{
	return atomic_load_explicit(v, memory_order_relaxed);
}

void probe_flow_read(const struct probe_flow *p, uint64_t now_ns,
		     struct probe_reading *out)
{
	memset(&out->rtt, 0, sizeof(out->rtt));
	out->t_ns = now_ns;
	/* The round trips first: none is counted before its request. */
	latency_hist_add(&out->rtt, &p->rtt);
	out->answered = probe_load(&p->answered);
	out->sent = probe_load(&p->sent);
	out->late = probe_load(&p->late);
	out->skipped = probe_load(&p->skipped);
}

void probe_reading_delta(const struct probe_reading *from,
			 const struct probe_reading *to,
			 struct probe_reading *out)
{
	*out = *to;
	out->t_ns = to->t_ns - from->t_ns;
	out->sent = to->sent - from->sent;
	out->late = to->late - from->late;
	out->skipped = to->skipped - from->skipped;
	out->answered = to->answered - from->answered;
	latency_hist_subtract(&out->rtt, &from->rtt);
}

void probe_reading_add(struct probe_reading *sum,
		       const struct probe_reading *delta)
{
	sum->t_ns += delta->t_ns;
	sum->sent += delta->sent;
	sum->late += delta->late;
	sum->skipped += delta->skipped;
	sum->answered += delta->answered;
	latency_hist_merge(&sum->rtt, &delta->rtt);
}

void probe_summarize(const struct probe_reading *window, double measured_s,
		     struct probe_summary *out)
{
	*out = (struct probe_summary){
		.sent = window->sent,
		.late = window->late,
		.skipped = window->skipped,
		.measured_s = measured_s > 0 ? measured_s : 0,
		.per_minute = NAN,
	};
	latency_hist_summarize(&window->rtt, &out->rtt);
	if (out->rtt.count && out->rtt.mean_us > 0)
		out->per_minute = 60e6 / out->rtt.mean_us;
}
