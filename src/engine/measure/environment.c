/*
 * The environment: each fact read from the file the kernel keeps it in, as
 * it is, so that two exports compare by text.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "environment.h"
#include "netns.h"
#include "sysfile.h"

const char *const env_sysctl_names[] = {
	"net.core.rmem_default",
	"net.core.rmem_max",
	"net.core.wmem_default",
	"net.core.wmem_max",
	"net.core.optmem_max",
	"net.core.busy_poll",
	"net.core.busy_read",
	"net.core.netdev_max_backlog",
	"net.core.default_qdisc",
	"net.ipv4.tcp_rmem",
	"net.ipv4.tcp_wmem",
	"net.ipv4.tcp_mem",
	"net.ipv4.tcp_congestion_control",
	"net.ipv4.tcp_autocorking",
	"net.ipv4.tcp_limit_output_bytes",
	"net.ipv4.tcp_notsent_lowat",
	"kernel.perf_event_paranoid",
	"kernel.perf_event_max_sample_rate",
	"kernel.io_uring_disabled",
	NULL,
};

/*
 * A file's first line into out, each run of blanks one space, none at
 * either end (tcp_rmem's tabs): 0, or -1 with out empty.
 */
static int env_file(const char *path, char *out, size_t size)
{
	size_t len = 0;

	if (sysfile_line(path, out, (int)size) < 0)
		return -1;
	for (const char *c = out; *c; c++) {
		bool blank = *c == ' ' || *c == '\t';

		if (!blank || (len && out[len - 1] != ' '))
			out[len++] = blank ? ' ' : *c;
	}
	while (len && out[len - 1] == ' ')
		len--;
	out[len] = '\0';
	return 0;
}

/*
 * Each sysctl not read yet, as this thread's namespace has it: run in the
 * senders' (per-namespace sysctls are theirs), then in nio-top's own for
 * those a namespace does not show (the host-wide ones).
 */
static int env_sysctls(void *arg)
{
	struct host_env *env = arg;

	env->sysctl_count = 0;
	for (size_t i = 0;
	     env_sysctl_names[i] && env->sysctl_count < ENV_SYSCTLS_MAX; i++) {
		struct env_entry *e = &env->sysctl[env->sysctl_count++];
		char path[96];

		if (e->value[0])
			continue;
		snprintf(e->name, sizeof(e->name), "%s", env_sysctl_names[i]);
		snprintf(path, sizeof(path), "/proc/sys/%s", e->name);
		for (char *p = path + strlen("/proc/sys/"); *p; p++)
			if (*p == '.')
				*p = '/';
		env_file(path, e->value, sizeof(e->value));
	}
	return 0;
}

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct env_entry *)a)->name,
		      ((const struct env_entry *)b)->name);
}

static void env_mitigations(struct host_env *env)
{
	const char *dir = "/sys/devices/system/cpu/vulnerabilities";
	DIR *d = opendir(dir);
	struct dirent *de;

	env->mitigation_count = 0;
	if (!d)
		return;
	while ((de = readdir(d)) &&
	       env->mitigation_count < ENV_MITIGATIONS_MAX) {
		struct env_entry *e = &env->mitigation[env->mitigation_count];
		char path[320];

		if (de->d_name[0] == '.' ||
		    strlen(de->d_name) >= sizeof(e->name))
			continue;
		memcpy(e->name, de->d_name, strlen(de->d_name) + 1);
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (env_file(path, e->value, sizeof(e->value)) == 0)
			env->mitigation_count++;
	}
	closedir(d);
	qsort(env->mitigation, env->mitigation_count,
	      sizeof(env->mitigation[0]), entry_cmp);
}

/* "always [madvise] never": the bracketed one. */
static void env_thp(struct host_env *env)
{
	char text[sizeof(env->thp)], *open, *close;

	env_file("/sys/kernel/mm/transparent_hugepage/enabled", text,
		 sizeof(text));
	open = strchr(text, '[');
	close = open ? strchr(open, ']') : NULL;
	if (open && close) {
		*close = '\0';
		snprintf(env->thp, sizeof(env->thp), "%s", open + 1);
	} else {
		snprintf(env->thp, sizeof(env->thp), "%s", text);
	}
}

void host_env_read(struct host_env *env, const struct topo *topo)
{
	memset(env, 0, sizeof(*env));
	netns_run(topo ? topo->server_ns : -1, env_sysctls, env);
	env_sysctls(env);
	env->has_links = topo && topo_link_read(topo, env->link, NULL) == 0;
	env_file("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
		 env->governor, sizeof(env->governor));
	env_thp(env);
	env_mitigations(env);
	env_file("/proc/cmdline", env->cmdline, sizeof(env->cmdline));
}
