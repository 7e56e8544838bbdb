/*
 * What the front ends share: the main loop, what nio-top says, the
 * checkpoints of -o, and the front ends themselves (batch, explore, serve,
 * check), each in its own file and each driven by the one loop of loop.c.
 * app.c picks the one the options ask for and calls it; none calls back.
 */
#ifndef NIO_TOP_APP_PRIVATE_H
#define NIO_TOP_APP_PRIVATE_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

#include "options.h"
#include "diff.h"
#include "session.h"
#include "stream.h"
#include "ui.h"

#define LOOP_FDS_MAX 8

/* A front end, as the loop drives it. */
struct frontend {
	void *data;
	/* The descriptors to poll (at most LOOP_FDS_MAX): their count. */
	unsigned int (*fds)(void *data, struct pollfd *pfd);
	/* When to be called with no event (CLOCK_MONOTONIC ns), 0: never. */
	uint64_t (*deadline)(void *data);
	/* What the poll found (pfd as fds() set it up), and the time. */
	void (*step)(void *data, const struct pollfd *pfd, unsigned int n,
		     uint64_t now_ns);
	/* A terminating signal came: why ("interrupted by TERM"). */
	void (*interrupt)(void *data, const char *why);
	/* The terminal changed size; may be NULL. */
	void (*resize)(void *data);
	/*
	 * Ctrl-Z: give the terminal back before the process stops, take it
	 * again after it continues; NULL: the default stop (no terminal).
	 */
	void (*suspend)(void *data);
	void (*resume)(void *data);
	bool (*done)(const void *data);
};

struct app {
	int signal_fd;
	int timer_fd;
	/*
	 * What ends a wait for the agent: the signals, and in the explorer a
	 * key that quits (its ui).
	 */
	struct remote_wake wake;
	struct ui *ui;
	int signal;	/* the terminating signal received, or 0 */
	char *farewell; /* said on stderr once the terminal is back */
	/*
	 * What the explorer's settings could not give (a theme that is not
	 * one): on the status line at the start, and on stderr at the end.
	 */
	char *note;
	/* The last checkpoint of the -o export: when it ended, what it cost. */
	uint64_t checkpoint_end_ns;
	uint64_t checkpoint_cost_ns;
	char checkpoint_failed[512]; /* the failure said last, or "" */
	/* --json-stream, or NULL; standard output is it (-). */
	struct stream *stream;
	bool stream_stdout;
	/* What ended the runs early other than a signal, or NULL. */
	const char *stopped_why;
	/*
	 * --load OLD NEW: NEW's host, environment and settings (its runs
	 * follow OLD's in the session), and the two compared.
	 */
	bool compared;
	struct session second;
	struct diff diff;
	struct session baseline; /* --baseline: the export compared with */
};

/*
 * say.c: says one line on standard error, "nio-top: " and the formatted
 * text, escaped: a cause may hold a file's, a peer's or the host's words.
 */
void app_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Keeps the first note of the explorer's start (app->note): said once the
 * screen is up, where a line on stderr before it would be lost.
 */
void app_note(struct app *app, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * What the explorer had to say once the terminal is back (the screen hid
 * anything said on stderr while it was up): its start's note, then why it
 * ended; both are freed.
 */
void app_farewell(struct app *app);

/*
 * loop.c: signals, the timer, and the loop itself.  job_control: Ctrl-Z
 * comes through the loop too (the explorer gives the terminal back first).
 */
int loop_setup(struct app *app, bool job_control);
void loop_teardown(struct app *app);
/*
 * The terminating signal waiting on the signal descriptor (kept in
 * app->signal), or 0: for a wait outside the loop that a signal ended.
 */
int loop_take_signal(struct app *app);
/* Runs fe until it is done; a signal is handed to it once. */
void loop_run(struct app *app, const struct frontend *fe);

/*
 * checkpoint.c: rewrites -o after a finished run, at most a tenth of the
 * time.  0, or -errno with *cause (caller frees) when it failed, to be said
 * at once.
 */
int app_checkpoint(struct app *app, const struct session *s, char **cause);

/* The front ends: each returns the exit status. */
int batch_run(struct app *app, struct session *s);
int batch_loaded(const struct app *app, const struct session *s);
int explore_run(struct app *app, struct session *s, struct ui *ui);
int serve_run(struct app *app, const struct options *o);
int check_run(const struct options *o);
int check_list_strategies(void);

#endif
