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
#include <pwd.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cause.h"
#include "outfile.h"

/* Links followed on the way to one file, as the kernel's MAXSYMLINKS. */
#define LINKS_MAX 40

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

/* A folder every user may write, whose sticky bit keeps their files apart. */
static bool sticky_shared(const struct stat *dir)
{
	return (dir->st_mode & (S_ISVTX | S_IWOTH)) == (S_ISVTX | S_IWOTH);
}

/*
 * Whether the kernel's fs.protected_symlinks would follow this link in this
 * folder: it is this user's or the folder owner's, or the folder is not a
 * sticky one that everybody writes.
 */
static bool link_trusted(const struct stat *link, const struct stat *dir)
{
	return !sticky_shared(dir) || link->st_uid == geteuid() ||
	       link->st_uid == dir->st_uid;
}

/* The same for writing an existing file (fs.protected_regular, _fifos). */
static bool file_trusted(const struct stat *file, const struct stat *dir)
{
	return !sticky_shared(dir) || file->st_uid == geteuid() ||
	       file->st_uid == dir->st_uid;
}

/* The user name of uid, or its number, for a refusal. */
static void user_name(uid_t uid, char *out, size_t size)
{
	struct passwd pw, *found = NULL;
	char buf[1024];

	if (getpwuid_r(uid, &pw, buf, sizeof(buf), &found) == 0 && found)
		snprintf(out, size, "%s", found->pw_name);
	else
		snprintf(out, size, "uid %u", (unsigned int)uid);
}

/* Reads the link name in dir_fd: its text, or NULL. */
static char *link_text(int dir_fd, const char *name, off_t size)
{
	size_t len = size > 0 ? (size_t)size + 1 : PATH_MAX;
	char *text = malloc(len);
	ssize_t n = text ? readlinkat(dir_fd, name, text, len) : -1;

	if (n < 0 || (size_t)n >= len) {
		free(text);
		return NULL;
	}
	text[n] = '\0';
	return text;
}

/* A link the way to the file does not follow: why, in words. */
static void refuse_link(struct outfile *f, const struct stat *link)
{
	char owner[64], why[256];

	user_name(link->st_uid, owner, sizeof(owner));
	snprintf(why, sizeof(why),
		 "a symbolic link of %s's in a folder that every user may "
		 "write; nio-top follows only your own links there (as the "
		 "kernel's fs.protected_symlinks does): name the file itself",
		 owner);
	outfile_refuse(f, why);
}

/* A step into folder name of f->dir_fd (never through a link): 0, -errno. */
static int outfile_descend(struct outfile *f, const char *name)
{
	int fd = openat(f->dir_fd, name,
			O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	close(f->dir_fd);
	f->dir_fd = fd;
	return 0;
}

/*
 * Walks f->name a component at a time from its start, each link on the way
 * judged (link_trusted) and its target walked in its place, up to the last
 * component that is not a link: f->dir_fd is its folder and f->base its
 * name, st what it is (st_mode 0: nothing yet).  0, or an error kept in f.
 * came_by_link: the last component is a link's target.
 */
static int outfile_walk(struct outfile *f, struct stat *st, bool *came_by_link)
{
	char *rest = strdup(f->name), *next, *comp, *end;
	unsigned int links = 0;
	struct stat dir;
	bool last;
	int r = 0;

	*came_by_link = false;
	if (rest)
		f->dir_fd = open(rest[0] == '/' ? "/" : ".",
				 O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (!rest || f->dir_fd < 0) {
		outfile_fail(f, "create a file in its folder",
			     rest ? -errno : -ENOMEM);
		goto out;
	}
	for (comp = rest;;) {
		while (*comp == '/')
			comp++;
		end = strchrnul(comp, '/');
		last = !end[strspn(end, "/")];
		*end = '\0';
		if (fstatat(f->dir_fd, comp, st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno == ENOENT && last && *came_by_link)
				outfile_refuse(f, "a symbolic link to nothing; "
						  "name the file itself");
			else if (errno != ENOENT || !last)
				outfile_fail(f, "create a file in its folder",
					     -errno);
			st->st_mode = 0;
			break;
		}
		if (!S_ISLNK(st->st_mode) && !last) {
			r = outfile_descend(f, comp);
			if (r < 0) {
				outfile_fail(f, "create a file in its folder",
					     r);
				break;
			}
			comp = end + 1;
			continue;
		}
		if (!S_ISLNK(st->st_mode))
			break;
		if (last && (f->flags & OUTFILE_NO_LINK)) {
			outfile_refuse(f, "a symbolic link; nio-top writes "
					  "this file only in place");
			break;
		}
		if (fstat(f->dir_fd, &dir) < 0) {
			outfile_fail(f, "create a file in its folder", -errno);
			break;
		}
		if (!link_trusted(st, &dir)) {
			refuse_link(f, st);
			break;
		}
		next = ++links <= LINKS_MAX
			       ? link_text(f->dir_fd, comp, st->st_size)
			       : NULL;
		if (!next) {
			outfile_refuse(f, "a symbolic link that cannot be "
					  "followed");
			break;
		}
		/* The link's text takes its place in what is left to walk. */
		if (!last && asprintf(&comp, "%s/%s", next, end + 1) < 0)
			comp = NULL;
		else if (last)
			comp = strdup(next);
		free(next);
		free(rest);
		rest = comp;
		if (!rest) {
			outfile_fail(f, "look at it", -ENOMEM);
			goto out;
		}
		*came_by_link = last;
		if (rest[0] == '/') {
			close(f->dir_fd);
			f->dir_fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
		}
	}
	if (!f->error) {
		f->base = strdup(comp);
		if (!f->base)
			outfile_fail(f, "look at it", -ENOMEM);
	}
out:
	free(rest);
	return f->error;
}

/*
 * Where the data goes: the path itself, or the end of its chain of links,
 * each link judged as the kernel would.  Sets f->dir_fd, f->base,
 * f->replace and what the replaced file was.
 */
static void outfile_resolve(struct outfile *f)
{
	char why[256], owner[64];
	bool came_by_link;
	struct stat st, dir;

	if (!*f->name || f->name[strlen(f->name) - 1] == '/') {
		outfile_refuse(f, *f->name ? "a folder; name a file in it"
					   : "an empty name");
		return;
	}
	if (outfile_walk(f, &st, &came_by_link) < 0)
		return;
	if (!st.st_mode) {
		f->replace = true;
		return;
	}
	if (fstat(f->dir_fd, &dir) < 0) {
		outfile_fail(f, "create a file in its folder", -errno);
		return;
	}
	if ((S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode)) &&
	    !file_trusted(&st, &dir)) {
		user_name(st.st_uid, owner, sizeof(owner));
		snprintf(why, sizeof(why),
			 "%s of %s's in a folder that every user may write; "
			 "nio-top writes only your own files there (as the "
			 "kernel's fs.protected_regular does)",
			 S_ISFIFO(st.st_mode) ? "a FIFO" : "a file", owner);
		outfile_refuse(f, why);
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
	if (faccessat(f->dir_fd, f->base, W_OK, AT_EACCESS) < 0) {
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
 * A temporary name beside the target, ".NAME.PID.N" in f->dir_fd, made by
 * make (a link, or a file created exclusively) for the first free N: 0 with
 * f->tmp, or -errno.
 */
static int outfile_temporary_name(struct outfile *f,
				  int (*make)(struct outfile *f))
{
	int r = -EEXIST;

	for (unsigned int attempt = 0; attempt < 100 && r == -EEXIST;
	     attempt++) {
		free(f->tmp);
		if (asprintf(&f->tmp, ".%s.%d.%u", f->base, (int)getpid(),
			     attempt) < 0) {
			f->tmp = NULL;
			r = -ENOMEM;
			break;
		}
		r = make(f);
	}
	if (r < 0) {
		free(f->tmp);
		f->tmp = NULL;
	}
	return r;
}

static int create_exclusive(struct outfile *f)
{
	f->fd = openat(f->dir_fd, f->tmp,
		       O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		       0600);
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
	int dir_fd = openat(f->dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dir_fd >= 0 ? fdopendir(dir_fd) : NULL;
	struct dirent *ent;

	if (!d) {
		if (dir_fd >= 0)
			close(dir_fd);
		return;
	}
	while ((ent = readdir(d))) {
		struct stat st;

		if (!stale_temporary(ent->d_name, f->base) ||
		    fstatat(dir_fd, ent->d_name, &st, AT_SYMLINK_NOFOLLOW) <
			    0 ||
		    !S_ISREG(st.st_mode) || st.st_uid != geteuid())
			continue;
		unlinkat(dir_fd, ent->d_name, 0);
	}
	closedir(d);
}

/* The temporary file of a replacement, in the target's folder. */
static void outfile_open_temporary(struct outfile *f)
{
	int r;

	outfile_remove_stale(f);
	f->fd = openat(f->dir_fd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
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

/* A device or a FIFO: opened without waiting for a reader, nor a link. */
static void outfile_open_through(struct outfile *f)
{
	int flags;

	f->fd = openat(f->dir_fd, f->base,
		       O_WRONLY | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW |
			       O_CLOEXEC);
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

/*
 * A regular file written in place as it goes: emptied (or made, never over
 * one that appeared since the walk), and never through a link.
 */
static void outfile_open_live(struct outfile *f)
{
	f->replace = false;
	f->fd = openat(f->dir_fd, f->base,
		       O_WRONLY | O_CREAT | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC |
			       (f->existed ? O_TRUNC : O_EXCL),
		       0666);
	if (f->fd < 0)
		outfile_fail(f, f->existed ? "open it" : "create it", -errno);
}

void outfile_open_flags(struct outfile *f, const char *path, unsigned int flags)
{
	*f = (struct outfile){
		.name = path, .flags = flags, .fd = -1, .dir_fd = -1};
	outfile_resolve(f);
	if (f->error)
		return;
	if (f->replace && (flags & OUTFILE_LIVE))
		outfile_open_live(f);
	else if (f->replace)
		outfile_open_temporary(f);
	else
		outfile_open_through(f);
}

void outfile_borrow(struct outfile *f, int fd, const char *name)
{
	*f = (struct outfile){
		.name = name, .fd = fd, .dir_fd = -1, .borrowed = true};
}

void outfile_open(struct outfile *f, const char *path)
{
	outfile_open_flags(f, path, 0);
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
	return linkat(AT_FDCWD, proc, f->dir_fd, f->tmp, AT_SYMLINK_FOLLOW) < 0
		       ? -errno
		       : 0;
}

/* Gives the unnamed file a name beside the target: 0 or -errno. */
static int outfile_link(struct outfile *f)
{
	return outfile_temporary_name(f, link_unnamed);
}

/*
 * The temporary file takes the target's name.  The rename replaces the
 * name in the folder opened at the start, whatever it holds by now, and
 * never follows a link.
 */
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
	if (!f->error && renameat(f->dir_fd, f->tmp, f->dir_fd, f->base) < 0)
		outfile_fail(f, "rename into place", -errno);
	if (f->error) {
		if (f->tmp)
			unlinkat(f->dir_fd, f->tmp, 0);
		return;
	}
	/* The rename is durable once the folder is synced. */
	dir_fd = openat(f->dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
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
		if (!f->borrowed && close(f->fd) < 0)
			outfile_fail(f, "write", -errno);
		if (f->error && f->tmp)
			unlinkat(f->dir_fd, f->tmp, 0);
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
	if (f->dir_fd >= 0)
		close(f->dir_fd);
	free(f->why);
	free(f->tmp);
	free(f->base);
	*f = (struct outfile){.fd = -1, .dir_fd = -1};
	return r;
}

int outfile_write_text_flags(const char *path, unsigned int flags,
			     const char *text, char **cause)
{
	struct outfile f;

	outfile_open_flags(&f, path, flags);
	outfile_puts(&f, text);
	outfile_puts(&f, "\n");
	return outfile_commit(&f, cause);
}

int outfile_write_text(const char *path, const char *text, char **cause)
{
	return outfile_write_text_flags(path, 0, text, cause);
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
	struct outfile f = {.name = path, .fd = -1, .dir_fd = -1};

	outfile_resolve(&f);
	if (!f.error && f.replace) {
		outfile_open_temporary(&f);
		if (f.fd >= 0)
			close(f.fd);
		f.fd = -1;
		if (f.tmp)
			unlinkat(f.dir_fd, f.tmp, 0);
	} else if (!f.error &&
		   faccessat(f.dir_fd, f.base, W_OK, AT_EACCESS) < 0) {
		outfile_fail(&f, "write it", -errno);
	}
	return outfile_commit(&f, cause);
}

int outfile_dir_shared(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) < 0)
		return -errno;
	return (st.st_mode & S_IWOTH) != 0;
}

int outfile_create_new(const char *dir, const char *stem, const char *ext,
		       char *out, size_t size, char **cause)
{
	int dir_fd, fd = -1, r = 0;
	char name[256];
	struct stat st;

	*cause = NULL;
	dir_fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir_fd < 0 || fstat(dir_fd, &st) < 0) {
		r = cause_set(cause, -errno, "%s: cannot open the folder: %s",
			      dir, strerror(errno));
		goto out;
	}
	if (st.st_mode & S_IWOTH) {
		r = cause_set(cause, -EPERM,
			      "%s is a folder that every user may write; "
			      "nio-top names files only in folders of yours",
			      dir);
		goto out;
	}
	for (unsigned int n = 1; n <= 100; n++) {
		if (n == 1)
			snprintf(name, sizeof(name), "%s.%s", stem, ext);
		else
			snprintf(name, sizeof(name), "%s-%u.%s", stem, n, ext);
		fd = openat(dir_fd, name,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				    O_CLOEXEC,
			    creation_mode());
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0) {
		r = cause_set(cause, -errno, "%s/%s: cannot create it: %s", dir,
			      name, strerror(errno));
		goto out;
	}
	close(fd);
	if (strcmp(dir, ".") == 0)
		snprintf(out, size, "%s", name);
	else
		snprintf(out, size, "%s/%s", dir, name);
out:
	if (dir_fd >= 0)
		close(dir_fd);
	return r;
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
