/*
 * The stream's lines: each an object printed on one line and written at
 * once (the outfile writes through, so a reader sees it as it happens), or
 * put in the queue and written as the reader takes it.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "codec.h"
#include "export.h"
#include "stream.h"

/*
 * Where the queue is written without blocking: a socket with
 * MSG_DONTWAIT; standard output through a description of its own (the
 * shell's, or standard error's, may be the one it has); a FIFO or a device
 * nio-top opened, as it is.  A regular file never waits for a reader: it
 * is written through, and so is anything else where this fails.
 */
static void stream_queue_open(struct stream *st)
{
	int fd = st->file.fd, flags;
	char path[64];
	struct stat sb;

	if (fstat(fd, &sb) < 0 || S_ISREG(sb.st_mode))
		return;
	if (S_ISSOCK(sb.st_mode)) {
		st->socket = true;
	} else if (st->file.borrowed) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		if (fd < 0)
			return;
		st->own_fd = true;
	} else {
		flags = fcntl(fd, F_GETFL);
		if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
			return;
	}
	st->fd = fd;
	st->queued = true;
}

int stream_open(struct stream *st, const char *path, bool queued, char **cause)
{
	*st = (struct stream){.fd = -1};
	if (strcmp(path, "-") == 0)
		outfile_borrow(&st->file, STDOUT_FILENO, "standard output");
	else
		outfile_open_flags(&st->file, path, OUTFILE_LIVE);
	if (st->file.error)
		return outfile_commit(&st->file, cause);
	if (queued)
		stream_queue_open(st);
	return 0;
}

bool stream_gone(const struct stream *st)
{
	return st->file.error == -EPIPE;
}

int stream_poll_fd(const struct stream *st)
{
	return st->queued && st->head < st->len && !st->file.error ? st->fd
								   : -1;
}

size_t stream_dropped(const struct stream *st)
{
	return st->dropped;
}

void stream_flush(struct stream *st)
{
	while (st->queued && st->head < st->len && !st->file.error) {
		const char *at = st->queue + st->head;
		size_t want = st->len - st->head;
		ssize_t n = st->socket ? send(st->fd, at, want,
					      MSG_DONTWAIT | MSG_NOSIGNAL)
				       : write(st->fd, at, want);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		if (n <= 0) {
			st->file.error = n < 0 ? -errno : -EIO;
			st->file.step = "write";
			return;
		}
		st->head += (size_t)n;
	}
	if (st->head == st->len)
		st->head = st->len = 0;
}

/* Room for len more bytes at the queue's end: whether there is. */
static bool stream_room(struct stream *st, size_t len)
{
	size_t cap = st->cap ? st->cap : 64 * 1024;
	char *grown;

	if (st->len + len <= st->cap)
		return true;
	if (st->head) {
		memmove(st->queue, st->queue + st->head, st->len - st->head);
		st->len -= st->head;
		st->head = 0;
	}
	while (cap < st->len + len)
		cap *= 2;
	if (cap <= st->cap)
		return true;
	grown = realloc(st->queue, cap);
	if (!grown)
		return false;
	st->queue = grown;
	st->cap = cap;
	return true;
}

/*
 * A line and its newline: written through, or queued whole, or dropped
 * whole when the reader is a queue's length behind (a line longer than
 * the queue goes alone).
 */
static void stream_put(struct stream *st, const char *text)
{
	size_t len = strlen(text);

	if (!st->queued) {
		outfile_puts(&st->file, text);
		outfile_puts(&st->file, "\n");
		return;
	}
	if (st->file.error)
		return;
	stream_flush(st);
	if ((st->len > st->head &&
	     st->len - st->head + len + 1 > STREAM_QUEUE_MAX) ||
	    !stream_room(st, len + 1)) {
		st->dropped++;
		return;
	}
	memcpy(st->queue + st->len, text, len);
	st->queue[st->len + len] = '\n';
	st->len += len + 1;
	stream_flush(st);
}

/* {"event": event, "time": now, "data": data}, data taken. */
static void stream_line(struct stream *st, const char *event, cJSON *data)
{
	cJSON *line = cJSON_CreateObject();
	struct timespec now;
	char *text;

	clock_gettime(CLOCK_REALTIME, &now);
	cJSON_AddStringToObject(line, "event", event);
	cJSON_AddNumberToObject(line, "time",
				(double)now.tv_sec + (double)now.tv_nsec / 1e9);
	cJSON_AddItemToObject(line, "data", data ? data : cJSON_CreateNull());
	text = cJSON_PrintUnformatted(line);
	cJSON_Delete(line);
	if (!text) {
		if (!st->file.error)
			st->file.error = -ENOMEM;
		return;
	}
	stream_put(st, text);
	cJSON_free(text);
}

void stream_start(struct stream *st, const struct session *s)
{
	cJSON *head = export_head(s);

	if (head) {
		cJSON_ReplaceItemInObjectCaseSensitive(
			head, "format", cJSON_CreateString(STREAM_FORMAT));
		cJSON_AddNumberToObject(head, "runs_planned",
					(double)s->plan_count);
	}
	stream_line(st, "start", head);
}

/*
 * An interval of run: its figures, and the probe's round trips under the
 * load so far in the measured window (null without a probe).
 */
static void stream_interval(struct stream *st, const struct session *s,
			    const struct run *run,
			    const struct run_interval *iv)
{
	const struct run_config *c = run_config_of(run);
	struct run_probe probe;
	cJSON *data = cJSON_CreateObject();

	cJSON_AddNumberToObject(data, "run", (double)session_next_run(s));
	cJSON_AddStringToObject(data, "strategy", c->strategy->name);
	cJSON_AddNumberToObject(data, "msg_size", (double)c->msg_size);
	cJSON_AddNumberToObject(data, "threads", c->threads);
	cJSON_AddStringToObject(data, "mode", run_mode_name(c->mode));
	cJSON_AddStringToObject(data, "rx", rx_mode_names[c->settings.rx]);
	cJSON_AddNumberToObject(data, "t_s", iv->t_s);
	cJSON_AddNumberToObject(data, "length_s", iv->length_s);
	cJSON_AddBoolToObject(data, "warmup", iv->warmup);
	cJSON_AddItemToObject(data, "sender",
			      codec_metrics(&iv->side[0], false));
	cJSON_AddItemToObject(data, "receiver",
			      codec_metrics(&iv->side[1], false));
	cJSON_AddItemToObject(data, "probe",
			      run_probe_now(run, &probe) != RUN_PROBE_NONE
				      ? codec_probe_window(&probe.loaded)
				      : cJSON_CreateNull());
	stream_line(st, "interval", data);
}

void stream_intervals(struct stream *st, const struct session *s,
		      const struct run *run)
{
	size_t n = run_interval_count(run), first = n;
	struct run_interval iv;

	if (st->run != run) {
		st->run = run;
		st->sent_t_s = -1;
	}
	/* Back from the end to the first not sent: older ones may merge. */
	while (first > 0) {
		if (run_interval_at(run, first - 1, &iv) &&
		    iv.t_s <= st->sent_t_s)
			break;
		first--;
	}
	for (size_t i = first; i < n; i++) {
		if (!run_interval_at(run, i, &iv))
			continue;
		stream_interval(st, s, run, &iv);
		st->sent_t_s = iv.t_s;
	}
}

void stream_results(struct stream *st, const struct session *s)
{
	while (st->runs_sent < s->result_count) {
		stream_line(st, "run",
			    export_run(s, &s->results[st->runs_sent]));
		st->runs_sent++;
		/* A new run reuses the address of the one before. */
		st->run = NULL;
	}
}

void stream_analysis(struct stream *st, const struct session *s)
{
	stream_line(st, "analysis", export_analysis(s));
}

/*
 * The lines that wait, written while the reader takes some every
 * patience_ns and stop_fd stays unreadable; the rest are dropped.
 */
static void stream_drain(struct stream *st, int stop_fd, uint64_t patience_ns)
{
	uint64_t since = clock_now_ns();

	while (stream_poll_fd(st) >= 0) {
		struct pollfd pfd[2] = {
			{.fd = st->fd, .events = POLLOUT},
			{.fd = stop_fd, .events = POLLIN},
		};
		uint64_t now = clock_now_ns();
		size_t left = st->len - st->head;

		if (now >= since + patience_ns)
			break;
		if (poll(pfd, stop_fd >= 0 ? 2 : 1,
			 (int)((since + patience_ns - now) / NS_PER_MS) + 1) <
			    0 &&
		    errno != EINTR)
			break;
		if (pfd[1].revents)
			break;
		stream_flush(st);
		if (st->len - st->head < left)
			since = clock_now_ns();
	}
	for (size_t i = st->head; i < st->len; i++)
		st->dropped += st->queue[i] == '\n';
	free(st->queue);
	st->queue = NULL;
	st->head = st->len = st->cap = 0;
	if (st->own_fd)
		close(st->fd);
	st->queued = st->own_fd = false;
}

int stream_close(struct stream *st, const struct session *s, const char *why,
		 int stop_fd, uint64_t patience_ns, char **cause)
{
	cJSON *data = cJSON_CreateObject();
	bool gone;

	cJSON_AddNumberToObject(data, "runs", (double)s->result_count);
	cJSON_AddBoolToObject(data, "complete", why == NULL);
	if (why)
		cJSON_AddStringToObject(data, "why", why);
	else
		cJSON_AddNullToObject(data, "why");
	cJSON_AddNumberToObject(data, "dropped", (double)st->dropped);
	stream_line(st, "end", data);
	stream_drain(st, stop_fd, patience_ns);
	gone = stream_gone(st);
	if (outfile_commit(&st->file, cause) < 0 && !gone)
		return -EIO;
	if (gone) {
		free(*cause);
		*cause = NULL;
	}
	return 0;
}
