/*
 * Host facts: kernel release, CPU model and count from uname, /proc/cpuinfo and
 * sysconf, and whether this process may create network namespaces (tried, not
 * guessed from the uid).
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "hostinfo.h"
#include "netns.h"

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

void host_info_read(struct host_info *host)
{
	struct utsname uts;
	int fd, r;

	memset(host, 0, sizeof(*host));
	if (uname(&uts) == 0)
		snprintf(host->kernel, sizeof(host->kernel), "%s", uts.release);
	cpu_model_read(host->cpu_model, sizeof(host->cpu_model));
	host->cpus = sysconf(_SC_NPROCESSORS_ONLN);

	r = netns_create(&fd);
	host->netns = r == 0;
	if (r == 0)
		close(fd);
	else
		snprintf(host->netns_reason, sizeof(host->netns_reason),
			 "cannot create a network namespace: %s", strerror(-r));
}
