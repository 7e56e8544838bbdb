/*
 * Reading files a user names.  O_NONBLOCK makes open() of a FIFO return at
 * once; fstat() then refuses anything that is not a regular file, so nothing
 * here can wait on another process.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cause.h"
#include "userfile.h"

/* The file opened, if it is a regular one: fd, or -errno with *cause. */
static int userfile_open(const char *path, struct stat *st, char **cause)
{
	int fd, r;

	fd = open(path,
		  O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		if (r == -ELOOP)
			return cause_set(cause, r,
					 "%s: a symbolic link; name the "
					 "file itself",
					 path);
		return cause_set(cause, r, "%s: %s", path, strerror(-r));
	}
	if (fstat(fd, st) < 0) {
		r = cause_set(cause, -errno, "%s: %s", path, strerror(errno));
		close(fd);
		return r;
	}
	if (!S_ISREG(st->st_mode)) {
		close(fd);
		return cause_set(cause, -EINVAL, "%s: not a regular file",
				 path);
	}
	return fd;
}

/* Reads up to size bytes: how many, or -errno with *cause. */
static ssize_t userfile_fill(int fd, const char *path, char *buf, size_t size,
			     char **cause)
{
	size_t got = 0;

	while (got < size) {
		ssize_t n = read(fd, buf + got, size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return cause_set(cause, -errno, "%s: cannot read: %s",
					 path, strerror(errno));
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

/*
 * Reads an opened file whole; with private, only one that its owner (this
 * user, or root) alone may read or write.
 */
static int userfile_read_fd(const char *path, bool private, size_t max_size,
			    char **text, size_t *len, char **cause)
{
	struct stat st;
	char *buf = NULL;
	ssize_t got;
	int fd, r;

	*text = NULL;
	*len = 0;
	*cause = NULL;
	fd = userfile_open(path, &st, cause);
	if (fd < 0)
		return fd;
	if (private && (st.st_mode & 077)) {
		r = cause_set(cause, -EACCES,
			      "%s: other users may %s it (mode %04o): "
			      "chmod 600 %s",
			      path, st.st_mode & 044 ? "read" : "write",
			      (unsigned int)(st.st_mode & 07777), path);
		goto out;
	}
	if (private && st.st_uid != geteuid() && st.st_uid != 0) {
		r = cause_set(cause, -EACCES,
			      "%s: owned by another user (uid %u): a secret "
			      "must be yours",
			      path, (unsigned int)st.st_uid);
		goto out;
	}
	if ((size_t)st.st_size > max_size) {
		r = cause_set(cause, -EFBIG,
			      "%s: %lld bytes, more than the %zu allowed", path,
			      (long long)st.st_size, max_size);
		goto out;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		r = -ENOMEM;
		goto out;
	}
	got = userfile_fill(fd, path, buf, (size_t)st.st_size, cause);
	if (got >= 0 && (size_t)got < (size_t)st.st_size)
		got = cause_set(cause, -EIO, "%s: cannot read: it shrank",
				path);
	if (got < 0) {
		r = (int)got;
		goto out;
	}
	buf[got] = '\0';
	*text = buf;
	*len = (size_t)got;
	buf = NULL;
	r = 0;
out:
	free(buf);
	close(fd);
	return r;
}

int userfile_head(const char *path, char *buf, size_t size, char **cause)
{
	struct stat st;
	ssize_t got;
	int fd;

	*cause = NULL;
	buf[0] = '\0';
	fd = userfile_open(path, &st, cause);
	if (fd < 0)
		return fd;
	got = userfile_fill(fd, path, buf, size - 1, cause);
	close(fd);
	if (got < 0)
		return (int)got;
	buf[got] = '\0';
	return 0;
}

int userfile_read(const char *path, size_t max_size, char **text, size_t *len,
		  char **cause)
{
	return userfile_read_fd(path, false, max_size, text, len, cause);
}

int userfile_read_private(const char *path, size_t max_size, char **text,
			  size_t *len, char **cause)
{
	return userfile_read_fd(path, true, max_size, text, len, cause);
}
