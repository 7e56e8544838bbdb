/*
 * The agent's front end (--serve): the agent until a terminating signal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "app_private.h"

_Static_assert(AGENT_POLL_MAX <= LOOP_FDS_MAX,
	       "the loop polls every descriptor the agent asks for");

struct serve {
	struct agent *agent;
	bool stopped;
};

static unsigned int serve_fds(void *data, struct pollfd *pfd)
{
	struct serve *sv = data;

	return agent_poll(sv->agent, pfd);
}

static uint64_t serve_deadline(void *data)
{
	struct serve *sv = data;

	return agent_deadline_ns(sv->agent);
}

static void serve_step(void *data, const struct pollfd *pfd, unsigned int n,
		       uint64_t now_ns)
{
	struct serve *sv = data;

	if (!sv->stopped)
		agent_step(sv->agent, pfd, n, now_ns);
}

static void serve_interrupt(void *data, const char *why)
{
	struct serve *sv = data;

	agent_close(sv->agent, why);
	sv->agent = NULL;
	sv->stopped = true;
}

static bool serve_done(const void *data)
{
	const struct serve *sv = data;

	return sv->stopped;
}

int serve_run(struct app *app, const struct options *o)
{
	struct serve sv = {0};
	const struct frontend fe = {
		.data = &sv,
		.fds = serve_fds,
		.deadline = serve_deadline,
		.step = serve_step,
		.interrupt = serve_interrupt,
		.done = serve_done,
	};
	char *cause = NULL;
	int r = agent_open(o, stderr, &sv.agent, &cause);

	if (r < 0) {
		app_say("%s", cause ? cause : strerror(-r));
		free(cause);
		return 1;
	}
	loop_run(app, &fe);
	return app->signal ? 128 + app->signal : 1;
}
