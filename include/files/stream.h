/*
 * --json-stream: the session as JSON lines, each written and flushed as it
 * happens, like iperf3's --json-stream: {"event": E, "time": unix seconds,
 * "data": {...}}, E one of
 *
 *   start     the export's head (version, host, environment, settings)
 *   interval  a tick of the run under way: its number, what it runs, and
 *             both sides' figures by the metric table
 *   run       a finished run, exactly as the export holds it
 *   analysis  the analysis, as the export holds it
 *   end       how many runs, and why it ended
 *
 * The records come from the export's own writers; man/nio-top-stream.json
 * is the JSON Schema of a line.  A reader that goes away (a closed pipe)
 * is noticed at the next line: stream_gone() says so, and the front end
 * ends as if stopped, its files written.
 *
 * A reader is never waited for while runs go: where a main loop runs, the
 * lines of a pipe, a FIFO, a terminal or a socket wait in a queue of at
 * most STREAM_QUEUE_MAX bytes, written as the descriptor takes them (the
 * loop polls it: stream_poll_fd(), stream_flush()).  A line that does not
 * fit is dropped whole and counted, and said; at the end the rest is given
 * the time the front end can spare (stream_close()).  A regular file is
 * written through, as before.
 */
#ifndef NIO_TOP_STREAM_H
#define NIO_TOP_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "outfile.h"
#include "run.h"
#include "session.h"

#define STREAM_FORMAT	 "nio-top-stream"
#define STREAM_QUEUE_MAX (8u << 20)

struct stream {
	struct outfile file;
	const struct run *run; /* whose intervals were sent last */
	double sent_t_s;       /* the end of the last one sent */
	size_t runs_sent;      /* results sent as "run" lines */
	bool said;	       /* a failure other than a gone reader was said */
	/* The queue, where lines wait for a reader that may fall behind. */
	bool queued;
	int fd;	     /* where it is written, without blocking */
	bool own_fd; /* fd is a descriptor of the stream's own: closed */
	bool socket; /* fd is a socket: send(MSG_DONTWAIT) */
	char *queue;
	size_t head, len, cap; /* queue[head .. len) waits */
	size_t dropped;	       /* lines that did not fit */
};

/*
 * path: a file, or "-" for standard output; queued: a loop polls the
 * stream (else every line is written before the call returns).  0, or
 * -errno with *cause.
 */
int stream_open(struct stream *st, const char *path, bool queued, char **cause);

void stream_start(struct stream *st, const struct session *s);
/* The intervals of run (the session's next) not sent yet. */
void stream_intervals(struct stream *st, const struct session *s,
		      const struct run *run);
/* The session's results not sent yet. */
void stream_results(struct stream *st, const struct session *s);
void stream_analysis(struct stream *st, const struct session *s);

/* The reader went away (a pipe closed): nothing more can be sent. */
bool stream_gone(const struct stream *st);

/* The descriptor to poll for POLLOUT while lines wait, else -1. */
int stream_poll_fd(const struct stream *st);
/* Writes what the descriptor takes now of the lines that wait. */
void stream_flush(struct stream *st);
/* The lines dropped so far: the reader fell behind by the whole queue. */
size_t stream_dropped(const struct stream *st);

/*
 * The end line (why: NULL when every run ran, else what stopped it), the
 * lines that wait written while the reader takes some every patience_ns
 * and stop_fd (a signal's) stays unreadable, and the file closed: the rest
 * dropped.  0, or -errno with *cause (not for a gone reader).
 */
int stream_close(struct stream *st, const struct session *s, const char *why,
		 int stop_fd, uint64_t patience_ns, char **cause);

#endif
