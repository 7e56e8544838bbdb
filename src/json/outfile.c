/*
 * Output files.  The temporary file of a replacement is opened with O_TMPFILE
 * where the file system has it: it has no name until the commit links it in
 * beside the target and renames it over, so a process killed while writing
 * leaves nothing behind.  Where O_TMPFILE is missing, a named temporary file
 * is used and removed on every failure.  Either way a name it has for a
 * moment is ".NAME.PID.N": one left by a process killed at that moment is
 * removed the next time NAME is written, once that process is gone.
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
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

/*
 * A temporary name beside the target, ".NAME.PID.N", made by make (a link,
 * or a file created exclusively) for the first free N: 0 with f->tmp, or
 * -errno.
 */
static int outfile_temporary_name(struct outfile *f,
				  int (*make)(struct outfile *f))
{
	char *copy = strdup(f->path);
	int r = -EEXIST;

	if (!copy)
		return -ENOMEM;
	for (unsigned int attempt = 0; attempt < 100 && r == -EEXIST;
	     attempt++) {
		free(f->tmp);
		if (asprintf(&f->tmp, "%s/.%s.%d.%u", f->dir, basename(copy),
			     (int)getpid(), attempt) < 0) {
			f->tmp = NULL;
			r = -ENOMEM;
			break;
		}
		r = make(f);
	}
	free(copy);
	if (r < 0) {
		free(f->tmp);
		f->tmp = NULL;
	}
	return r;
}

static int create_exclusive(struct outfile *f)
{
	f->fd = open(f->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	return f->fd < 0 ? -errno : 0;
}

/*
 * Whether name is ".BASE.PID.N" for a process that no longer runs: a
 * temporary file of a writer killed between naming it and the rename.
 */
static bool stale_temporary(const char *name, const char *base)
{
	size_t len = strlen(base);
	const char *p = name;
	unsigned long pid;
	char *end;

	if (p[0] != '.' || strncmp(p + 1, base, len) != 0 || p[len + 1] != '.')
		return false;
	p += len + 2;
	if (*p < '0' || *p > '9')
		return false;
	errno = 0;
	pid = strtoul(p, &end, 10);
	if (errno || *end != '.' || end[1] < '0' || end[1] > '9' || pid == 0 ||
	    pid > INT_MAX)
		return false;
	for (p = end + 1; *p >= '0' && *p <= '9'; p++)
		;
	if (*p)
		return false;
	return kill((pid_t)pid, 0) < 0 && errno == ESRCH;
}

/* Removes what a killed writer of the same target left in its folder. */
static void outfile_remove_stale(struct outfile *f)
{
	char *copy = strdup(f->path);
	const char *base;
	struct dirent *ent;
	DIR *d;
	int dir_fd;

	if (!copy)
		return;
	base = basename(copy);
	d = opendir(f->dir);
	dir_fd = d ? dirfd(d) : -1;
	while (d && (ent = readdir(d))) {
		struct stat st;

		if (!stale_temporary(ent->d_name, base) ||
		    fstatat(dir_fd, ent->d_name, &st, AT_SYMLINK_NOFOLLOW) <
			    0 ||
		    !S_ISREG(st.st_mode) || st.st_uid != geteuid())
			continue;
		unlinkat(dir_fd, ent->d_name, 0);
	}
	if (d)
		closedir(d);
	free(copy);
}

/* The target's folder, for the temporary file: 0 or -errno. */
static int outfile_dir(struct outfile *f)
{
	char *copy = strdup(f->path);

	if (!copy)
		return -ENOMEM;
	f->dir = strdup(dirname(copy));
	free(copy);
	return f->dir ? 0 : -ENOMEM;
}

/* The temporary file of a replacement, in the target's folder. */
static void outfile_open_temporary(struct outfile *f)
{
	int r = outfile_dir(f);

	if (r < 0) {
		outfile_fail(f, "create a file in its folder", r);
		return;
	}
	outfile_remove_stale(f);
	f->fd = open(f->dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	if (f->fd >= 0) {
		f->unnamed = true;
		return;
	}
	if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) {
		outfile_fail(f, "create a file in its folder", -errno);
		return;
	}
	r = outfile_temporary_name(f, create_exclusive);
	if (r < 0)
		outfile_fail(f, "create a file in its folder", r);
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

static int link_unnamed(struct outfile *f)
{
	char proc[64];

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", f->fd);
	return linkat(AT_FDCWD, proc, AT_FDCWD, f->tmp, AT_SYMLINK_FOLLOW) < 0
		       ? -errno
		       : 0;
}

/* Gives the unnamed file a name beside the target: 0 or -errno. */
static int outfile_link(struct outfile *f)
{
	return outfile_temporary_name(f, link_unnamed);
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

int outfile_try(const char *path, char **cause)
{
	struct outfile f = {.name = path, .fd = -1};

	outfile_resolve(&f);
	if (!f.error && f.replace) {
		outfile_open_temporary(&f);
		if (f.fd >= 0)
			close(f.fd);
		f.fd = -1;
		if (f.tmp)
			unlink(f.tmp);
	} else if (!f.error &&
		   faccessat(AT_FDCWD, f.path, W_OK, AT_EACCESS) < 0) {
		outfile_fail(&f, "write it", -errno);
	}
	return outfile_commit(&f, cause);
}

/*
 * Where path's data would go, as one text: a link's target, and for a file
 * not yet there its folder resolved; NULL if that cannot be known.
 */
static char *outfile_canonical(const char *path)
{
	char *full = realpath(path, NULL), *copy, *dir, *joined = NULL;

	if (full || errno != ENOENT)
		return full;
	copy = strdup(path);
	if (!copy)
		return NULL;
	dir = realpath(dirname(copy), NULL);
	free(copy);
	copy = strdup(path);
	if (dir && copy && asprintf(&joined, "%s/%s", dir, basename(copy)) < 0)
		joined = NULL;
	free(dir);
	free(copy);
	return joined;
}

bool outfile_same(const char *a, const char *b)
{
	struct stat sa, sb;
	char *ca, *cb;
	bool same;

	/* A device or a FIFO is written through: each report goes in turn. */
	if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino &&
		       S_ISREG(sa.st_mode);
	if (strcmp(a, b) == 0)
		return true;
	ca = outfile_canonical(a);
	cb = outfile_canonical(b);
	same = ca && cb && strcmp(ca, cb) == 0;
	free(ca);
	free(cb);
	return same;
}
