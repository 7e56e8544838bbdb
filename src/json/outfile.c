/*
 * Output files.  The temporary file of a replacement is opened with O_TMPFILE
 * where the file system has it: it has no name until the commit links it in
 * beside the target and renames it over, so a process killed while writing
 * leaves nothing behind.  Where O_TMPFILE is missing, a named temporary file
 * (".NAME.XXXXXX") is used and removed on every failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

static void outfile_fail(struct outfile *f, const char *step, int error)
{
	if (f->error)
		return;
	f->step = step;
	f->error = error;
}

/* A refusal that no errno says well: the file is left alone. */
static void outfile_refuse(struct outfile *f, const char *why)
{
	if (f->error)
		return;
	f->error = -EINVAL;
	f->why = strdup(why);
}

static const char *file_kind(mode_t mode)
{
	return S_ISDIR(mode)	? "a folder"
	       : S_ISBLK(mode)	? "a block device"
	       : S_ISSOCK(mode) ? "a socket"
				: "not a regular file, device or FIFO";
}

/*
 * Where the data goes: the path itself, or a link's target.  Sets f->path,
 * f->replace and what the replaced file was.
 */
static void outfile_resolve(struct outfile *f)
{
	struct stat st;
	char why[160];

	if (lstat(f->name, &st) < 0) {
		if (errno != ENOENT) {
			outfile_fail(f, "look at it", -errno);
			return;
		}
		f->path = strdup(f->name);
		f->replace = true;
		return;
	}
	if (S_ISLNK(st.st_mode)) {
		f->path = realpath(f->name, NULL);
		if (!f->path) {
			outfile_refuse(f,
				       errno == ENOENT
					       ? "a symbolic link to nothing; "
						 "name the file itself"
					       : "a symbolic link that "
						 "cannot be followed");
			return;
		}
		if (stat(f->path, &st) < 0) {
			outfile_fail(f, "look at it", -errno);
			return;
		}
	} else {
		f->path = strdup(f->name);
	}
	if (!f->path) {
		outfile_fail(f, "look at it", -ENOMEM);
		return;
	}
	if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
		return;
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, sizeof(why),
			 "%s; nio-top writes regular files, "
			 "character devices and FIFOs",
			 file_kind(st.st_mode));
		outfile_refuse(f, why);
		return;
	}
	/* rename() would replace a file the user may not write. */
	if (faccessat(AT_FDCWD, f->path, W_OK, AT_EACCESS) < 0) {
		outfile_fail(f, "write it", -errno);
		return;
	}
	f->replace = true;
	f->existed = true;
	f->uid = st.st_uid;
	f->gid = st.st_gid;
	f->mode = st.st_mode & 07777;
}

static mode_t creation_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

/* The temporary file of a replacement, in the target's folder. */
static void outfile_open_temporary(struct outfile *f)
{
	char *copy = strdup(f->path);

	if (!copy) {
		outfile_fail(f, "create a temporary file", -ENOMEM);
		return;
	}
	f->dir = strdup(dirname(copy));
	free(copy);
	if (!f->dir) {
		outfile_fail(f, "create a temporary file", -ENOMEM);
		return;
	}
	f->fd = open(f->dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	if (f->fd >= 0) {
		f->unnamed = true;
		return;
	}
	if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) {
		outfile_fail(f, "create a temporary file", -errno);
		return;
	}
	copy = strdup(f->path);
	if (!copy ||
	    asprintf(&f->tmp, "%s/.%s.XXXXXX", f->dir, basename(copy)) < 0) {
		f->tmp = NULL;
		free(copy);
		outfile_fail(f, "create a temporary file", -ENOMEM);
		return;
	}
	free(copy);
	f->fd = mkostemp(f->tmp, O_CLOEXEC);
	if (f->fd < 0) {
		outfile_fail(f, "create a temporary file", -errno);
		free(f->tmp);
		f->tmp = NULL;
	}
}

/* A device or a FIFO: opened without waiting for a reader. */
static void outfile_open_through(struct outfile *f)
{
	int flags;

	f->fd = open(f->path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (f->fd < 0) {
		if (errno == ENXIO)
			outfile_refuse(f, "a FIFO that no process reads");
		else
			outfile_fail(f, "open it", -errno);
		return;
	}
	flags = fcntl(f->fd, F_GETFL);
	if (flags < 0 || fcntl(f->fd, F_SETFL, flags & ~O_NONBLOCK) < 0)
		outfile_fail(f, "open it", -errno);
}

void outfile_open(struct outfile *f, const char *path)
{
	*f = (struct outfile){.name = path, .fd = -1};
	outfile_resolve(f);
	if (f->error)
		return;
	if (f->replace)
		outfile_open_temporary(f);
	else
		outfile_open_through(f);
}

void outfile_write(struct outfile *f, const void *data, size_t len)
{
	const char *p = data;

	while (!f->error && len > 0) {
		ssize_t n = write(f->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			outfile_fail(f, "write", n < 0 ? -errno : -EIO);
			return;
		}
		p += n;
		len -= (size_t)n;
	}
}

void outfile_puts(struct outfile *f, const char *text)
{
	outfile_write(f, text, strlen(text));
}

/* The replaced file's owner and mode, or a new file's usual mode. */
static void outfile_keep_attributes(struct outfile *f)
{
	if (!f->existed) {
		if (fchmod(f->fd, creation_mode()) < 0)
			outfile_fail(f, "set its mode", -errno);
		return;
	}
	/* Only root may give a file away; others keep what they can. */
	if (fchown(f->fd, f->uid, f->gid) < 0 && errno != EPERM)
		outfile_fail(f, "keep its owner", -errno);
	if (fchmod(f->fd, f->mode) < 0)
		outfile_fail(f, "keep its mode", -errno);
}

/* Gives the unnamed file a name beside the target: 0 or -errno. */
static int outfile_link(struct outfile *f)
{
	char proc[64], *copy = strdup(f->path);

	if (!copy)
		return -ENOMEM;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", f->fd);
	for (unsigned int attempt = 0; attempt < 100; attempt++) {
		free(f->tmp);
		if (asprintf(&f->tmp, "%s/.%s.%d.%u", f->dir, basename(copy),
			     (int)getpid(), attempt) < 0) {
			f->tmp = NULL;
			break;
		}
		if (linkat(AT_FDCWD, proc, AT_FDCWD, f->tmp,
			   AT_SYMLINK_FOLLOW) == 0) {
			free(copy);
			return 0;
		}
		if (errno != EEXIST)
			break;
	}
	free(copy);
	free(f->tmp);
	f->tmp = NULL;
	return errno ? -errno : -EEXIST;
}

static void outfile_replace(struct outfile *f)
{
	int dir_fd, r;

	outfile_keep_attributes(f);
	if (!f->error && fsync(f->fd) < 0)
		outfile_fail(f, "fsync", -errno);
	if (!f->error && f->unnamed) {
		r = outfile_link(f);
		if (r < 0)
			outfile_fail(f, "name the temporary file", r);
	}
	if (!f->error && rename(f->tmp, f->path) < 0)
		outfile_fail(f, "rename into place", -errno);
	if (f->error) {
		if (f->tmp)
			unlink(f->tmp);
		return;
	}
	/* The rename is durable once the folder is synced. */
	dir_fd = open(f->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir_fd >= 0) {
		fsync(dir_fd);
		close(dir_fd);
	}
}

int outfile_commit(struct outfile *f, char **cause)
{
	int r;

	*cause = NULL;
	if (f->fd >= 0) {
		if (f->replace)
			outfile_replace(f);
		if (close(f->fd) < 0)
			outfile_fail(f, "write", -errno);
		if (f->error && f->tmp)
			unlink(f->tmp);
	}
	r = f->error;
	if (r < 0 && f->why) {
		if (asprintf(cause, "%s: %s", f->name, f->why) < 0)
			*cause = NULL;
	} else if (r < 0) {
		if (asprintf(cause, "%s: cannot %s: %s", f->name, f->step,
			     strerror(-r)) < 0)
			*cause = NULL;
	}
	free(f->why);
	free(f->tmp);
	free(f->dir);
	free(f->path);
	*f = (struct outfile){.fd = -1};
	return r;
}

int outfile_write_text(const char *path, const char *text, char **cause)
{
	struct outfile f;

	outfile_open(&f, path);
	outfile_puts(&f, text);
	outfile_puts(&f, "\n");
	return outfile_commit(&f, cause);
}

bool outfile_replaceable(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return errno == ENOENT;
	return S_ISREG(st.st_mode);
}
