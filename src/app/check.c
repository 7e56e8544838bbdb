/*
 * --check and --list-strategies: what this machine supports, each thing
 * tried for real, in words.
 */
#include <stdio.h>
#include <stdlib.h>

#include "app_private.h"
#include "hostinfo.h"

static void check_line(const char *what, const struct capability *cap,
		       const char *detail)
{
	if (cap->available)
		printf("%-12s yes  %s\n", what, detail ? detail : "");
	else
		printf("%-12s no   %s\n", what, cap->reason);
}

int check_list_strategies(void)
{
	char *why = NULL;

	for (size_t i = 0; i < strategy_count(); i++) {
		const struct strategy_ops *ops = strategy_at(i);

		if (strategy_probe(ops, &why) == 0)
			printf("%-10s available    %s\n", ops->name,
			       ops->summary);
		else
			printf("%-10s unavailable  %s\n", ops->name,
			       why ? why : "probe failed");
		free(why);
	}
	/*
	 * The receive sides any of them pairs with: --rx's values, not
	 * strategies -s takes.
	 */
	printf("\nreceive sides, --rx MODE with any strategy:\n");
	for (int rx = 0; rx < RX_MODE_COUNT; rx++) {
		const struct strategy_ops *ops = rx_side_of(rx)->ops;

		if (!ops) {
			printf("--rx %-9s available    each strategy's own "
			       "receiver\n",
			       rx_mode_names[rx]);
			continue;
		}
		if (strategy_probe(ops, &why) == 0)
			printf("--rx %-9s available    %s\n", rx_mode_names[rx],
			       ops->summary);
		else
			printf("--rx %-9s unavailable  %s\n", rx_mode_names[rx],
			       why ? why : "probe failed");
		free(why);
	}
	return 0;
}

int check_run(const struct options *options)
{
	struct host_info host;
	char timing[96];

	host_info_read(&host,
		       options->counters_enabled ? &options->counters : NULL);
	printf("nio-top %s on Linux %s, %s, %u CPUs\n\n", NIO_TOP_VERSION,
	       host.kernel, host.cpu_model, host.cpus);
	check_line("namespaces", &host.netns, "private network namespaces");
	snprintf(timing, sizeof(timing),
		 "two namespaces + veth pair: setup %.1f ms, teardown %.1f ms",
		 host.veth_setup_ms, host.veth_teardown_ms);
	check_line("veth", &host.veth, timing);
	check_line("tbf", &host.tbf, "--rate");
	check_line("netem", &host.netem, "--delay, --loss");
	check_line("pmu", &host.pmu, "hardware events count");
	check_line("zc-receive", &host.rx_zerocopy,
		   "--rx zerocopy (TCP_ZEROCOPY_RECEIVE)");
	check_line("uring-rx", &host.rx_uring,
		   "--rx uring (multishot receive into a provided buffer "
		   "ring)");
	check_line("uring-bundle", &host.rx_bundle,
		   "--rx uring fills several buffers per completion");
	check_line("uring-fixed", &host.uring_fixed,
		   "--uring-fixed sends batches from registered buffers");
	check_line("profile", &host.profile,
		   "cpu-clock samples with kernel and user call chains "
		   "(--profile-hz)");
	printf("\n");
	for (unsigned int i = 0; i < host.event_count; i++)
		printf("event %-22s %-13s %s\n", host.event_name[i],
		       counter_status_name(host.event[i].status),
		       host.event[i].reason);
	if (host.event_count)
		printf("\n");
	return check_list_strategies();
}
