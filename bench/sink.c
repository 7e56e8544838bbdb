/*
 * A plain copying receiver for the reference senders of bench/run (the
 * kernel's msg_zerocopy selftest and liburing's send-zerocopy example, whose
 * own receivers discard the data with MSG_TRUNC): it accepts one TCP
 * connection and recv()s into a buffer of the message size until the end of
 * the stream, as nio-top's receivers copy every byte out.  It prints the
 * goodput over the stream after the warm-up, the way iperf3 -O does:
 *
 *   sink PORT MSG_SIZE WARMUP_S  ->  "<bytes> <seconds> <Gbit/s>"
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct sockaddr_in addr = {.sin_family = AF_INET};
	unsigned long long bytes = 0;
	double start = 0, from = 0, last = 0, warmup;
	size_t size;
	char *buf;
	int one = 1, lfd, fd;

	if (argc != 4) {
		fprintf(stderr, "usage: sink PORT MSG_SIZE WARMUP_S\n");
		return 2;
	}
	addr.sin_port = htons((unsigned short)atoi(argv[1]));
	size = strtoul(argv[2], NULL, 0);
	warmup = atof(argv[3]);
	buf = malloc(size);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (!buf || lfd < 0 ||
	    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    bind(lfd, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
	    listen(lfd, 1) < 0) {
		perror("sink: listen");
		return 1;
	}
	/* Ready: the caller may start the sender once this line is out. */
	fprintf(stderr, "listening\n");
	fd = accept(lfd, NULL, NULL);
	if (fd < 0) {
		perror("sink: accept");
		return 1;
	}
	for (;;) {
		ssize_t n = recv(fd, buf, size, 0);
		double t;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		t = now_s();
		if (!start)
			start = t;
		if (t - start < warmup) {
			from = t;
			continue;
		}
		bytes += (unsigned long long)n;
		last = t;
	}
	if (last <= from) {
		fprintf(stderr, "sink: nothing after the warm-up\n");
		return 1;
	}
	printf("%llu %.6f %.4f\n", bytes, last - from,
	       (double)bytes * 8 / (last - from) / 1e9);
	return 0;
}
