/*
 * The control protocol between `nio-top --connect` (the client) and
 * `nio-top --serve` (the agent): one JSON object per line over its own TCP
 * connection.  Every message names its type and is checked in full before it
 * is acted on: unknown types and keys, missing keys, wrong kinds and values
 * out of range are errors naming the key path, as in a preset.  A line longer
 * than the reader's limit is an error, never buffered whole.  Numbers of
 * 64 bits travel exactly.  nio-top(1) documents the messages.
 */
#ifndef NIO_TOP_PROTO_H
#define NIO_TOP_PROTO_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "counters.h"
#include "latency.h"
#include "metric.h"
#include "run.h"
#include "sampler.h"

#define PROTO_VERSION 8
#define PROTO_PORT    5310
/* The longest line an agent reads: its client's messages are small. */
#define PROTO_AGENT_LINE_MAX (64 * 1024)
/* The longest line a client reads: results carry latency histograms. */
#define PROTO_CLIENT_LINE_MAX (1024 * 1024)
/* The longest shared secret (--auth-file), on both ends. */
#define PROTO_SECRET_MAX 256
/*
 * What an agent tells a connection it drops to make room for a newer one,
 * every handshake being taken: a client says hello again.
 */
#define PROTO_BUSY_GREETING                                                    \
	"busy: too many connections waiting to be greeted; try again"

/*
 * The shared secret in path (--auth-file): the whole file, one line of 1 ..
 * PROTO_SECRET_MAX bytes (a final newline is not part of it; a NUL is an
 * error), in a regular file that no other user may read or write.  0, or
 * -EINVAL with *cause naming the file and the fix.
 */
int proto_read_secret(const char *path, char secret[PROTO_SECRET_MAX + 1],
		      char **cause);

/* Whether two secrets are equal, in a time that does not tell where not. */
bool proto_secret_equal(const char *a, const char *b);

/* Lines from a socket: at most max bytes each, newline included. */
struct proto_reader {
	char *buf;
	size_t len;
	size_t max;
	size_t scanned; /* bytes of buf known to hold no newline */
	size_t taken;	/* the line handed out last, newline included */
};

int proto_reader_init(struct proto_reader *r, size_t max);
void proto_reader_fini(struct proto_reader *r);
void proto_reader_reset(struct proto_reader *r);
/*
 * One read(2) into the buffer: bytes read, 0 at the end of the stream, or
 * -errno (-EAGAIN: nothing yet on a non-blocking socket).
 */
ssize_t proto_reader_fill(struct proto_reader *r, int fd);
/*
 * The next whole line (without its newline, NUL-terminated, valid until the
 * next call): 1, or 0 if none is whole yet, or -EMSGSIZE if max bytes hold
 * no newline.
 */
int proto_reader_next(struct proto_reader *r, char **line, size_t *len);

/*
 * Parses and checks one message: 0 with *msg (cJSON_Delete it) and *type, or
 * -EINVAL with *cause ("tick.totals.bytes_sent: must be ...").
 */
int proto_parse(const char *line, size_t len, cJSON **msg, const char **type,
		char **cause);

/* A new message of a type, with "run": id if id is not 0. */
cJSON *proto_message(const char *type, unsigned int id);
/* Writes msg as one line, whole (the socket blocks, with a timeout). */
int proto_send(int fd, const cJSON *msg);
/* Sends {"type": "error", "error": text, "version": ...}. */
int proto_send_error(int fd, const char *text);

/* The run a message belongs to (0: none). */
unsigned int proto_run_id(const cJSON *msg);

/*
 * The report of an agent's ends of a run (sender: its senders' side, else
 * its receivers'), rx its receive side and rtt its round trips (NULL:
 * none): totals, summary, counters and figures, and where the side's CPU
 * and time went where it sampled them.
 */
cJSON *proto_result(unsigned int id, const struct run_result *r, bool sender,
		    enum rx_mode rx, const struct latency_hist *rtt);

/*
 * What a peer's report can hold: in its measured window (measured_s) it
 * cannot have moved more bytes or messages than its totals hold (1% and a
 * message of rounding allowed), nor its flows' round trips (rtt, or NULL)
 * have taken longer than the window and the warm-up before it (warmup_s:
 * one begun there may end in the window), together or any one of them.  0,
 * or -EPROTO with *cause naming the figure.
 */
int proto_check_result(const struct run_totals *totals,
		       const struct metric_values *derived, double measured_s,
		       double warmup_s, const struct latency_hist *rtt,
		       unsigned int flows, char **cause);

#endif
