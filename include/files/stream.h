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
 */
#ifndef NIO_TOP_STREAM_H
#define NIO_TOP_STREAM_H

#include <stdbool.h>
#include <stddef.h>

#include "outfile.h"
#include "run.h"
#include "session.h"

#define STREAM_FORMAT "nio-top-stream"

struct stream {
	struct outfile file;
	const struct run *run; /* whose intervals were sent last */
	double sent_t_s;       /* the end of the last one sent */
	size_t runs_sent;      /* results sent as "run" lines */
	bool said;	       /* a failure other than a gone reader was said */
};

/* path: a file, or "-" for standard output.  0, or -errno with *cause. */
int stream_open(struct stream *st, const char *path, char **cause);

void stream_start(struct stream *st, const struct session *s);
/* The intervals of run (the session's next) not sent yet. */
void stream_intervals(struct stream *st, const struct session *s,
		      const struct run *run);
/* The session's results not sent yet. */
void stream_results(struct stream *st, const struct session *s);
void stream_analysis(struct stream *st, const struct session *s);

/* The reader went away (a pipe closed): nothing more can be sent. */
bool stream_gone(const struct stream *st);

/*
 * The end line (why: NULL when every run ran, else what stopped it) and
 * the file closed: 0, or -errno with *cause (not for a gone reader).
 */
int stream_close(struct stream *st, const struct session *s, const char *why,
		 char **cause);

#endif
