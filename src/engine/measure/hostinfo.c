/*
 * Host facts: host name and kernel release, CPU model and count from
 * uname, /proc/cpuinfo and sysconf; what the network stack lets this
 * process do, found by building a throwaway veth topology in private
 * namespaces and trying each qdisc on it; and what each perf event does
 * when this thread opens it.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "hostinfo.h"
#include "netns.h"
#include "profile.h"
#include "rx_side.h"
#include "topo.h"

static const struct record_field host_fields[] = {
	{.key = "hostname",
	 .kind = RECORD_TEXT,
	 .offset = offsetof(struct host_info, hostname),
	 .size = sizeof(((struct host_info *)0)->hostname),
	 .optional = true},
	RECORD_TEXT_FIELD("kernel", struct host_info, kernel),
	RECORD_TEXT_FIELD("cpu_model", struct host_info, cpu_model),
	RECORD_FIELD("cpus", RECORD_UINT, struct host_info, cpus),
};
const struct record host_info_record = RECORD_OF(host_fields);

static const struct record_field capability_fields[] = {
	RECORD_FIELD("available", RECORD_BOOL, struct capability, available),
	RECORD_TEXT_FIELD("reason", struct capability, reason),
};
const struct record capability_record = RECORD_OF(capability_fields);

static void cpu_model_read(char *model, size_t size)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[256];

	snprintf(model, size, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "model name", 10) != 0 || !colon)
			continue;
		colon += strspn(colon + 1, " \t") + 1;
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(model, size, "%s", colon);
		break;
	}
	fclose(f);
}

static void capability_set(struct capability *cap, int r, const char *why)
{
	cap->available = r == 0;
	snprintf(cap->reason, sizeof(cap->reason), "%s",
		 r == 0 ? ""
		 : why	? why
			: strerror(-r));
}

static void probe_qdisc(struct capability *cap, const struct topo *topo,
			const char *kind)
{
	char *cause = NULL, why[160];
	int r = topo_probe_qdisc(topo, kind, &cause);

	if (r == -ENOENT)
		snprintf(why, sizeof(why), "this kernel has no sch_%s", kind);
	else
		snprintf(why, sizeof(why), "%s", cause ? cause : strerror(-r));
	capability_set(cap, r, why);
	free(cause);
}

static void probe_network(struct host_info *host)
{
	struct topo_options options;
	struct topo topo;
	char *cause = NULL;
	int fd, r;

	r = netns_create(&fd);
	if (r == 0)
		close(fd);
	capability_set(&host->netns, r, NULL);
	if (r < 0) {
		snprintf(host->netns.reason, sizeof(host->netns.reason),
			 "cannot create a network namespace: %s", strerror(-r));
		capability_set(&host->veth, r, host->netns.reason);
		capability_set(&host->tbf, r, host->netns.reason);
		capability_set(&host->netem, r, host->netns.reason);
		return;
	}

	topo_options_default(&options);
	r = topo_create(&options, &topo, &cause);
	capability_set(&host->veth, r, cause);
	free(cause);
	if (r < 0) {
		capability_set(&host->tbf, r, "needs the veth topology");
		capability_set(&host->netem, r, "needs the veth topology");
		return;
	}
	probe_qdisc(&host->tbf, &topo, "tbf");
	probe_qdisc(&host->netem, &topo, "netem");
	host->veth_setup_ms = topo.setup_ms;
	topo_destroy(&topo);
	host->veth_teardown_ms = topo.teardown_ms;
}

static void probe_events(struct host_info *host,
			 const struct counter_set *events)
{
	const char *why = "no hardware event was asked for";

	if (!events) {
		capability_set(&host->pmu, -ENODATA, "counters are off");
		return;
	}
	counters_probe(events, &counters_syscalls, host->event);
	host->event_count = events->count;
	for (unsigned int i = 0; i < events->count; i++)
		snprintf(host->event_name[i], sizeof(host->event_name[i]), "%s",
			 events->event[i].name);
	for (unsigned int i = 0; i < events->count; i++) {
		if (!events->event[i].hardware)
			continue;
		if (counter_known(&host->event[i])) {
			capability_set(&host->pmu, 0, NULL);
			return;
		}
		why = host->event[i].reason;
	}
	capability_set(&host->pmu, -ENODEV, why);
}

/* Sampling with kernel call chains, on this thread, as a worker would. */
static void probe_profile(struct host_info *host)
{
	struct profile_thread t;
	char why[sizeof(host->profile.reason)];
	int r = profile_thread_open(&t, 0, PROFILE_HZ_DEFAULT);

	profile_why(t.error, t.user_only, why, sizeof(why));
	profile_thread_close(&t);
	capability_set(&host->profile, r == 0 && !t.user_only ? 0 : -EPERM,
		       why);
}

static void probe_strategies(struct host_info *host)
{
	char *why = NULL;
	int r = strategy_probe(rx_side_zerocopy.ops, &why);

	capability_set(&host->rx_zerocopy, r, why);
	free(why);
	why = NULL;
	r = strategy_probe(rx_side_uring.ops, &why);
	capability_set(&host->rx_uring, r, why);
	free(why);
	why = NULL;
	if (r == 0 && !strategy_rx_uring_bundle(&why))
		r = -EOPNOTSUPP;
	capability_set(&host->rx_bundle, r, why);
	free(why);
	why = NULL;
	r = strategy_probe(&strategy_uring_zc, &why);
	if (r == 0 && !strategy_uring_fixed_vector(&why))
		r = -EOPNOTSUPP;
	capability_set(&host->uring_fixed, r, why);
	free(why);
	probe_profile(host);

	for (size_t i = 0; i < strategy_count() && i < STRATEGIES_MAX; i++) {
		char *why = NULL;
		int r = strategy_probe(strategy_at(i), &why);

		capability_set(&host->strategy[i], r, why);
		free(why);
	}
}

void host_info_read(struct host_info *host, const struct counter_set *events)
{
	struct utsname uts;

	memset(host, 0, sizeof(*host));
	if (uname(&uts) == 0) {
		snprintf(host->hostname, sizeof(host->hostname), "%s",
			 uts.nodename);
		snprintf(host->kernel, sizeof(host->kernel), "%s", uts.release);
	}
	cpu_model_read(host->cpu_model, sizeof(host->cpu_model));
	host->cpus = (unsigned int)sysconf(_SC_NPROCESSORS_ONLN);
	probe_network(host);
	probe_events(host, events);
	probe_strategies(host);
}
