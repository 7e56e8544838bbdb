/*
 * The roles a thread's CPU time plays on a network path -- copying on send,
 * the copy a zero-copy send gets anyway, copying on receive, pinning pages,
 * the stack, waking the other side, ... -- as one table: each role a row
 * with its key, its label and the kernel or user functions that are it.
 *
 * A sample belongs to the first role any frame of its call chain matches,
 * walking from the leaf up, so that memcpy under skb_copy_ubufs is the
 * deferred copy and a spin unlock under try_to_wake_up is the wake-up.  A
 * function matches a role by its name, or by a prefix of it ("tcp_*");
 * the longest match wins, so tcp_zerocopy_receive is the mapping, not the
 * stack.  A chain no frame of which matches is "other".
 *
 * An interrupt's entry has a role (interrupt), and so has a softirq's (the
 * stack's, whose delivery it runs), so the walk ends there: a sample taken
 * while one ran on top of a copy is never the copy's.  nio-top's own
 * counters and sampling (perf's paths in the kernel) are a role too: what
 * watching costs each side.
 */
#ifndef NIO_TOP_ROLE_H
#define NIO_TOP_ROLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ROLES_MAX 16

struct role {
	const char *key;    /* in exports and CSV columns: "copy_deferred" */
	const char *label;  /* for people: "copy at delivery" */
	const char *abbrev; /* a gauge's: "deliv copy" */
	/*
	 * Function names, "prefix*" for a prefix, space separated; a
	 * name after "user:" is a user-space one only (libc's memcpy, not
	 * the kernel's).
	 */
	const char *functions;
	const char *why; /* what it is, one sentence for nio-top(1) */
};

extern const struct role roles[];
extern const size_t role_count;
/* The row of "other": no frame matched. */
extern const size_t role_other;
/* The copy roles, whose share is a side's "copy share". */
bool role_is_copy(size_t role);
/*
 * Whether user space plays role r (a user: function is among its own, or
 * it is other): the roles a profile of user space only can hold.
 */
bool role_in_user_space(size_t role);

/*
 * The role a function plays, by its name (a suffix from ".isra" or ".cold"
 * on is not part of it), in the kernel or in user space; SIZE_MAX: none by
 * itself.
 */
size_t role_of_function(const char *name, bool kernel);
/*
 * How closely name matches a list of functions written as a role's are
 * ("tcp_* user:memcpy"): 0 not at all, else longer for a closer match, an
 * exact name above any prefix.  The reasons a thread waits (reason.h) are
 * matched the same way.
 */
size_t functions_match(const char *functions, const char *name, bool kernel);
/* The role of key, or SIZE_MAX. */
size_t role_find(const char *key);

#endif
