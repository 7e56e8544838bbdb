/*
 * The sockets' knobs, set and read back (sockopts.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/capability.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "sockopts.h"
#include "sysfile.h"

/* Linux 5.11 uAPI that Debian 12's headers may lack. */
#ifndef SO_PREFER_BUSY_POLL
#define SO_PREFER_BUSY_POLL 69
#endif

static const struct record_field sock_fields[] = {
	RECORD_FIELD("sndbuf", RECORD_U64, struct sock_state, sndbuf),
	RECORD_FIELD("rcvbuf", RECORD_U64, struct sock_state, rcvbuf),
	RECORD_FIELD("rcvlowat", RECORD_U64, struct sock_state, rcvlowat),
	RECORD_FIELD("notsent_lowat", RECORD_U64, struct sock_state,
		     notsent_lowat),
	RECORD_FIELD("busy_poll_us", RECORD_UINT, struct sock_state, busy_poll),
	RECORD_FIELD("prefer_busy_poll", RECORD_BOOL, struct sock_state,
		     prefer_busy_poll),
	RECORD_FIELD("nodelay", RECORD_BOOL, struct sock_state, nodelay),
	RECORD_TEXT_FIELD("congestion", struct sock_state, congestion),
	{.key = "max_pacing_rate",
	 .kind = RECORD_U64,
	 .offset = offsetof(struct sock_state, max_pacing_rate),
	 .optional = true},
};
const struct record sock_state_record = RECORD_OF(sock_fields);

/* One knob: 0, or -errno with *step its name. */
static int set_int(int fd, int level, int name, uint64_t value,
		   const char *label, const char **step)
{
	int v = value > INT32_MAX ? INT32_MAX : (int)value;

	if (setsockopt(fd, level, name, &v, sizeof(v)) == 0)
		return 0;
	*step = label;
	return -errno;
}

uint64_t sockopts_rx_mark(const struct run_settings *s, bool request_response,
			  size_t msg_size, uint64_t unread_least,
			  uint64_t link_rate_bps)
{
	uint64_t mark = SOCKOPTS_RX_MARK;

	if (request_response)
		return s->rcvlowat > msg_size ? msg_size : s->rcvlowat;
	if (s->rcvlowat)
		return s->rcvlowat;
	if (unread_least && mark > unread_least)
		mark = unread_least;
	if (link_rate_bps && mark > link_rate_bps / 8 / 1000)
		mark = link_rate_bps / 8 / 1000;
	return mark > 1 ? mark : 0;
}

int sockopts_apply(int fd, const struct run_settings *s, bool sender,
		   bool request_response, uint64_t rx_mark, const char **step)
{
	int r = 0;

	if (settings_nodelay(s, request_response))
		r = set_int(fd, IPPROTO_TCP, TCP_NODELAY, 1, "set TCP_NODELAY",
			    step);
	if (r == 0 && sender && s->sndbuf)
		r = set_int(fd, SOL_SOCKET, SO_SNDBUF, s->sndbuf,
			    "set SO_SNDBUF", step);
	if (r == 0 && sender && s->notsent_lowat)
		r = set_int(fd, IPPROTO_TCP, TCP_NOTSENT_LOWAT,
			    s->notsent_lowat, "set TCP_NOTSENT_LOWAT", step);
	if (r == 0 && !sender && s->rcvbuf)
		r = set_int(fd, SOL_SOCKET, SO_RCVBUF, s->rcvbuf,
			    "set SO_RCVBUF", step);
	if (r == 0 && !sender && rx_mark)
		r = set_int(fd, SOL_SOCKET, SO_RCVLOWAT, rx_mark,
			    "set SO_RCVLOWAT", step);
	if (r == 0 && s->busy_poll)
		r = set_int(fd, SOL_SOCKET, SO_BUSY_POLL, s->busy_poll,
			    "set SO_BUSY_POLL", step);
	if (r == 0 && s->prefer_busy_poll)
		r = set_int(fd, SOL_SOCKET, SO_PREFER_BUSY_POLL, 1,
			    "set SO_PREFER_BUSY_POLL", step);
	if (r == 0 && s->congestion[0] &&
	    setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, s->congestion,
		       (socklen_t)strlen(s->congestion)) < 0) {
		*step = "set TCP_CONGESTION";
		r = -errno;
	}
	return r;
}

int sockopts_pace(int fd, uint64_t bytes_per_s, const char **step)
{
	if (setsockopt(fd, SOL_SOCKET, SO_MAX_PACING_RATE, &bytes_per_s,
		       sizeof(bytes_per_s)) == 0)
		return 0;
	*step = "set SO_MAX_PACING_RATE";
	return -errno;
}

/* The pace fd keeps, 0 where it has none (the kernel's ~0: unlimited). */
static uint64_t get_pace(int fd)
{
	uint64_t v = 0;
	socklen_t len = sizeof(v);

	if (getsockopt(fd, SOL_SOCKET, SO_MAX_PACING_RATE, &v, &len) < 0)
		return 0;
	if (len == sizeof(uint32_t))
		v = (uint32_t)v == UINT32_MAX ? 0 : (uint32_t)v;
	return v == UINT64_MAX ? 0 : v;
}

/* A knob's value, 0 where the kernel does not say. */
static uint64_t get_int(int fd, int level, int name)
{
	int v = 0;
	socklen_t len = sizeof(v);

	if (getsockopt(fd, level, name, &v, &len) < 0 || v < 0)
		return 0;
	return (uint64_t)v;
}

void sockopts_read(int fd, struct sock_state *out)
{
	socklen_t len = sizeof(out->congestion) - 1;

	*out = (struct sock_state){
		.sndbuf = get_int(fd, SOL_SOCKET, SO_SNDBUF),
		.rcvbuf = get_int(fd, SOL_SOCKET, SO_RCVBUF),
		.rcvlowat = get_int(fd, SOL_SOCKET, SO_RCVLOWAT),
		.notsent_lowat = get_int(fd, IPPROTO_TCP, TCP_NOTSENT_LOWAT),
		.busy_poll = (unsigned int)get_int(fd, SOL_SOCKET,
						   SO_BUSY_POLL),
		.prefer_busy_poll = get_int(fd, SOL_SOCKET,
					    SO_PREFER_BUSY_POLL) != 0,
		.nodelay = get_int(fd, IPPROTO_TCP, TCP_NODELAY) != 0,
		.max_pacing_rate = get_pace(fd),
	};
	if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, out->congestion, &len) <
	    0)
		out->congestion[0] = '\0';
	out->congestion[sizeof(out->congestion) - 1] = '\0';
}

int sockopts_congestion_probe(const char *name, char **cause)
{
	char have[256];
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), r = 0;

	*cause = NULL;
	if (fd < 0)
		return -errno;
	if (setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, name,
		       (socklen_t)strlen(name)) < 0) {
		r = -errno;
		if (sysfile_line("/proc/sys/net/ipv4/"
				 "tcp_available_congestion_control",
				 have, sizeof(have)) < 0)
			snprintf(have, sizeof(have), "unknown");
		if (r != -ENOENT
			    ? asprintf(cause, "'%s': %s (this kernel has: %s)",
				       name, strerror(-r), have) < 0
			    : asprintf(cause,
				       "'%s' is not a congestion control this "
				       "kernel has (it has: %s)",
				       name, have) < 0)
			*cause = NULL;
	}
	close(fd);
	return r;
}

/* Whether name is one of the words of list (separated by spaces). */
static bool listed(const char *list, const char *name)
{
	size_t len = strlen(name);

	while (*list) {
		size_t word = strcspn(list, " ");

		if (word == len && strncmp(list, name, len) == 0)
			return true;
		list += word;
		list += strspn(list, " ");
	}
	return false;
}

/* Whether this process may set any congestion control (CAP_NET_ADMIN). */
static bool net_admin(void)
{
	char line[256];
	uint64_t caps;
	FILE *f = fopen("/proc/self/status", "re");
	bool has = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %" SCNx64, &caps) == 1) {
			has = caps & (UINT64_C(1) << CAP_NET_ADMIN);
			break;
		}
	fclose(f);
	return has;
}

int sockopts_congestion_listed(const char *name, char **cause)
{
	const char *dir = "/proc/sys/net/ipv4/";
	char path[128], have[512];

	*cause = NULL;
	snprintf(path, sizeof(path), "%stcp_available_congestion_control", dir);
	if (sysfile_line(path, have, sizeof(have)) < 0)
		return asprintf(cause,
				"'%s': this kernel does not list its "
				"congestion controls",
				name) < 0
			       ? -ENOMEM
			       : -ENOENT;
	if (!name[0] || !listed(have, name))
		return asprintf(cause,
				"'%s' is not a congestion control this "
				"kernel has loaded (it has: %s)",
				name, have) < 0
			       ? -ENOMEM
			       : -ENOENT;
	if (net_admin())
		return 0;
	snprintf(path, sizeof(path), "%stcp_allowed_congestion_control", dir);
	if (sysfile_line(path, have, sizeof(have)) < 0 || !listed(have, name))
		return asprintf(cause,
				"'%s' is not a congestion control this "
				"kernel allows without CAP_NET_ADMIN (it "
				"allows: %s)",
				name, have[0] ? have : "none") < 0
			       ? -ENOMEM
			       : -EPERM;
	return 0;
}
