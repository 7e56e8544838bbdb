/*
 * Reading files a user names.  O_NONBLOCK makes open() of a FIFO return at
 * once; fstat() then refuses anything that is not a regular file, so nothing
 * here can wait on another process.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cause.h"
#include "userfile.h"

int userfile_read(const char *path, size_t max_size, char **text, size_t *len,
		  char **cause)
{
	struct stat st;
	size_t got = 0;
	char *buf = NULL;
	int fd, r;

	*text = NULL;
	*len = 0;
	*cause = NULL;
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
	if (fstat(fd, &st) < 0) {
		r = cause_set(cause, -errno, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		r = cause_set(cause, -EINVAL, "%s: not a regular file", path);
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
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : -EIO;
			cause_set(cause, r, "%s: cannot read: %s", path,
				  strerror(-r));
			goto out;
		}
		got += (size_t)n;
	}
	buf[got] = '\0';
	*text = buf;
	*len = got;
	buf = NULL;
	r = 0;
out:
	free(buf);
	close(fd);
	return r;
}
