/*
 * A file nio-top writes because a user named it (-o, --csv, --svg, a saved
 * preset).  What the path is decides how: a regular file (or a new one) is
 * replaced atomically -- written to an unnamed temporary file in the same
 * folder, synced, and renamed over it, keeping the old file's owner and mode
 * -- so a reader sees the old file or the new one, never half of either, and
 * a kill leaves no temporary file.  A character device or a FIFO is written
 * through, never replaced.  A symbolic link leads to its target, which is
 * treated the same way; the link stays.  Anything else (a folder, a block
 * device, a socket, a link to nothing) is refused with the reason.
 *
 * Links and other users' files are judged as the kernel's
 * fs.protected_symlinks and fs.protected_regular judge them, whatever those
 * are set to: in a folder that every user may write and that has its sticky
 * bit (/tmp), a link is followed only if it belongs to this user or to the
 * folder's owner, and a file or FIFO of another user there is not written.
 * The path is walked a component at a time, so every link on the way is
 * judged, a folder's as much as the file's.
 */
#ifndef NIO_TOP_OUTFILE_H
#define NIO_TOP_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>

/* How outfile_open_flags() treats a path. */
enum outfile_flags {
	OUTFILE_NO_LINK = 1 << 0, /* a symbolic link is refused, not followed */
	/*
	 * A regular file is written in place as it goes, for a reader that
	 * follows it (a stream), not replaced at the commit.
	 */
	OUTFILE_LIVE = 1 << 1,
};

struct outfile {
	const char *name;   /* as the user gave it, for messages */
	unsigned int flags; /* enum outfile_flags */
	int dir_fd;	    /* the folder written in (O_PATH) */
	char *base;	    /* the name written in it: a link's target's */
	bool replace;	    /* a regular file: replaced by rename */
	bool existed;
	unsigned int uid, gid, mode; /* of the file it replaces */
	bool unnamed;		     /* the temporary file is O_TMPFILE */
	char *tmp;		     /* a named temporary file, if any */
	int fd;
	bool borrowed;	  /* fd is someone else's: not closed */
	const char *step; /* what failed, for the message */
	int error;	  /* the first error, -errno */
	char *why;	  /* a reason that is not an errno */
};

/*
 * Starts writing path.  Errors are kept: outfile_write() then does nothing
 * and outfile_commit() reports the first one.
 */
void outfile_open(struct outfile *f, const char *path);
void outfile_open_flags(struct outfile *f, const char *path,
			unsigned int flags);
/* Writes through fd (standard output), which the commit leaves open. */
void outfile_borrow(struct outfile *f, int fd, const char *name);
void outfile_write(struct outfile *f, const void *data, size_t len);
void outfile_puts(struct outfile *f, const char *text);
/*
 * Puts the file in place (or finishes writing through): 0, or -errno with
 * *cause naming the file and what failed.  A failed file leaves nothing.
 */
int outfile_commit(struct outfile *f, char **cause);

/* The whole file at once: text and a final newline. */
int outfile_write_text(const char *path, const char *text, char **cause);
int outfile_write_text_flags(const char *path, unsigned int flags,
			     const char *text, char **cause);

/*
 * A name nio-top picks itself (an export named by the time, a saved preset):
 * makes DIR/STEM.EXT, or DIR/STEM-2.EXT and so on when that name is taken,
 * as a new empty file of this user's, created exclusively and never through
 * a link, so that a file written to it afterwards replaces only this one.  A
 * folder that every user may write is refused: there the name could have
 * been planted.  0 with the path in out, or -errno with *cause.
 */
int outfile_create_new(const char *dir, const char *stem, const char *ext,
		       char *out, size_t size, char **cause);

/*
 * Whether dir is a folder that every user may write (/tmp): 1, 0, or -errno
 * when it cannot be looked at.
 */
int outfile_dir_shared(const char *dir);

/*
 * Tries path before anything is worth writing to it: for a regular file (or
 * a new one) a temporary file is made in its folder and removed; a device or
 * a FIFO must be writable; anything refused at writing is refused now.  0, or
 * -errno with *cause as outfile_commit() says it.  Nothing is left behind.
 */
int outfile_try(const char *path, char **cause);

/*
 * Whether two paths name one file that writing replaces (a link and its
 * target, say): one would replace the other.  A device or a FIFO is not.
 */
bool outfile_same(const char *a, const char *b);

/*
 * Whether path is (or would be) a regular file that can be replaced again
 * and again: a device or a FIFO is written once, at the end.
 */
bool outfile_replaceable(const char *path);

#endif
