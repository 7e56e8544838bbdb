/*
 * The main loop.  Signals are blocked in every thread before any thread
 * starts and arrive here through a signalfd; a timerfd wakes the loop at the
 * front end's next deadline.  Every front end -- batch, the explorer, the
 * agent -- runs in this one loop.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "app_private.h"
#include "clock.h"

static const int loop_signals[] = {SIGINT,  SIGTERM, SIGHUP,
				   SIGQUIT, SIGPIPE, SIGWINCH};

int loop_setup(struct app *app, bool job_control)
{
	sigset_t mask;

	sigemptyset(&mask);
	for (size_t i = 0; i < sizeof(loop_signals) / sizeof(loop_signals[0]);
	     i++)
		sigaddset(&mask, loop_signals[i]);
	if (job_control)
		sigaddset(&mask, SIGTSTP);
	if (pthread_sigmask(SIG_BLOCK, &mask, NULL) != 0)
		return -EINVAL;
	app->signal_fd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (app->signal_fd < 0)
		return -errno;
	app->timer_fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (app->timer_fd < 0) {
		close(app->signal_fd);
		return -errno;
	}
	return 0;
}

void loop_teardown(struct app *app)
{
	if (app->timer_fd >= 0)
		close(app->timer_fd);
	if (app->signal_fd >= 0)
		close(app->signal_fd);
}

/*
 * Ctrl-Z: the front end gives the terminal back, the whole process stops
 * (SIGSTOP, since SIGTSTP is blocked), and on `fg` it takes it again.
 */
static void loop_stop(const struct frontend *fe)
{
	if (fe->suspend)
		fe->suspend(fe->data);
	raise(SIGSTOP);
	if (fe->resume)
		fe->resume(fe->data);
}

/*
 * The terminating signal read from the signalfd, or 0; notes SIGWINCH and
 * stops for SIGTSTP.
 */
static int loop_read_signal(struct app *app, const struct frontend *fe,
			    bool *resized)
{
	struct signalfd_siginfo info;

	while (read(app->signal_fd, &info, sizeof(info)) == sizeof(info)) {
		/* SIGPIPE cannot happen (MSG_NOSIGNAL); ignore a stray one. */
		if (info.ssi_signo == SIGWINCH)
			*resized = true;
		else if (info.ssi_signo == SIGTSTP)
			loop_stop(fe);
		else if (info.ssi_signo != SIGPIPE)
			return (int)info.ssi_signo;
	}
	return 0;
}

int loop_take_signal(struct app *app)
{
	const struct frontend none = {0};
	bool resized = false;
	int sig = app->signal_fd >= 0 ? loop_read_signal(app, &none, &resized)
				      : 0;

	if (sig && !app->signal)
		app->signal = sig;
	return sig;
}

static void loop_arm(struct app *app, uint64_t deadline_ns)
{
	struct itimerspec when = {
		.it_value = {.tv_sec = (time_t)(deadline_ns / 1000000000ull),
			     .tv_nsec = (long)(deadline_ns % 1000000000ull)},
	};

	/* 0 disarms; a deadline already past fires at once. */
	timerfd_settime(app->timer_fd, TFD_TIMER_ABSTIME, &when, NULL);
}

void loop_run(struct app *app, const struct frontend *fe)
{
	while (!fe->done(fe->data)) {
		struct pollfd pfd[LOOP_FDS_MAX + 3] = {
			{.fd = app->signal_fd, .events = POLLIN},
			{.fd = app->timer_fd, .events = POLLIN},
		};
		unsigned int n = fe->fds(fe->data, pfd + 2);
		/* --json-stream's lines that wait for their reader. */
		int stream_fd = app->stream ? stream_poll_fd(app->stream) : -1;
		bool resized = false;
		uint64_t expirations;
		int sig;

		pfd[n + 2] = (struct pollfd){.fd = stream_fd,
					     .events = POLLOUT};
		loop_arm(app, fe->deadline(fe->data));
		if (poll(pfd, n + 2 + (stream_fd >= 0), -1) < 0 &&
		    errno != EINTR) {
			fe->interrupt(fe->data, "poll failed");
			continue;
		}
		if (pfd[0].revents & POLLIN) {
			sig = loop_read_signal(app, fe, &resized);
			if (sig && !app->signal) {
				char why[64];

				app->signal = sig;
				snprintf(why, sizeof(why), "interrupted by %s",
					 sigabbrev_np(sig));
				fe->interrupt(fe->data, why);
			}
			if (resized && fe->resize)
				fe->resize(fe->data);
		}
		if (pfd[1].revents & POLLIN)
			(void)!read(app->timer_fd, &expirations,
				    sizeof(expirations));
		if (stream_fd >= 0 && pfd[n + 2].revents)
			stream_flush(app->stream);
		fe->step(fe->data, pfd + 2, n, clock_now_ns());
	}
}
