/*
 * Scatter-gather loops over message fields.  TCP may move fewer bytes than
 * asked at any call, so both directions resume from where the kernel stopped;
 * a message is counted only when every one of its bytes has moved.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "scatter.h"

struct scatter_end {
	int fd;
	struct message msg;
};

void scatter_advance(struct iovec **iov, int *iovcnt, size_t n)
{
	while (*iovcnt > 0 && n >= (*iov)->iov_len) {
		n -= (*iov)->iov_len;
		(*iov)++;
		(*iovcnt)--;
	}
	if (*iovcnt > 0 && n > 0) {
		(*iov)->iov_base = (char *)(*iov)->iov_base + n;
		(*iov)->iov_len -= n;
	}
}

int scatter_join(struct iovec *iov, int iovcnt)
{
	int n = 0;

	for (int i = 0; i < iovcnt; i++) {
		if (n > 0 && (char *)iov[n - 1].iov_base + iov[n - 1].iov_len ==
				     iov[i].iov_base)
			iov[n - 1].iov_len += iov[i].iov_len;
		else
			iov[n++] = iov[i];
	}
	return n;
}

int scatter_send_all(int fd, struct iovec *iov, int iovcnt, int flags)
{
	while (iovcnt > 0) {
		struct msghdr mh = {.msg_iov = iov, .msg_iovlen = iovcnt};
		ssize_t n = sendmsg(fd, &mh, flags | MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		scatter_advance(&iov, &iovcnt, (size_t)n);
	}
	return 0;
}

int scatter_recv_all(int fd, struct iovec *iov, int iovcnt)
{
	size_t received = 0;

	while (iovcnt > 0) {
		struct msghdr mh = {.msg_iov = iov, .msg_iovlen = iovcnt};
		ssize_t n = recvmsg(fd, &mh, MSG_WAITALL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return received ? -EPROTO : 0;
		received += (size_t)n;
		scatter_advance(&iov, &iovcnt, (size_t)n);
	}
	return 1;
}

int scatter_open(const struct strategy_params *params, void **state)
{
	struct scatter_end *end = calloc(1, sizeof(*end));
	int r;

	if (!end)
		return -ENOMEM;
	end->fd = params->fd;
	r = message_init(&end->msg, params->msg_size, strategy_fields(params));
	if (r < 0) {
		free(end);
		return r;
	}
	*state = end;
	return 0;
}

void scatter_close(void *state)
{
	struct scatter_end *end = state;

	message_fini(&end->msg);
	free(end);
}

int scatter_tx_slot(void *tx, struct message **msg)
{
	struct scatter_end *end = tx;

	*msg = &end->msg;
	return 0;
}

int scatter_tx_send(void *tx, struct message *msg)
{
	struct scatter_end *end = tx;
	struct iovec iov[MESSAGE_FIELDS_MAX];
	int iovcnt = message_iovec(msg, iov);
	int r = scatter_send_all(end->fd, iov, iovcnt, 0);

	return r < 0 ? r : 1;
}

int scatter_rx_recv(void *rx, struct message **msg)
{
	struct scatter_end *end = rx;
	struct iovec iov[MESSAGE_FIELDS_MAX];
	int iovcnt = message_iovec(&end->msg, iov);

	*msg = &end->msg;
	return scatter_recv_all(end->fd, iov, iovcnt);
}
