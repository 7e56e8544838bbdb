/*
 * Names for code addresses, as a profile needs them: the kernel's from
 * /proc/kallsyms, this process's from the ELF symbol tables of the files it
 * has mapped (nio-top itself, libc, liburing, ...).  Loaded once per process,
 * sorted, and searched by address.  A name is found by an id, so that a
 * profile can count samples per function without holding names.
 *
 * libc's memcpy, memmove and memset are reached through IFUNCs whose chosen
 * implementations have no symbol of their own in the shipped libc: they are
 * named by the addresses this process resolved them to.
 */
#ifndef NIO_TOP_SYMBOLS_H
#define NIO_TOP_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SYMBOL_NONE UINT32_MAX

/*
 * Loads the tables (the first call; later ones return at once).  Kernel
 * names need /proc/kallsyms with addresses (root, or kptr_restrict 0): 0
 * with kernel_why set when they cannot be had; -errno only when nothing
 * could be loaded.
 */
int symbols_load(void);
/* Why kernel addresses have no names here, or NULL. */
const char *symbols_kernel_why(void);

/* The id of the function holding addr (kernel or user), or SYMBOL_NONE. */
uint32_t symbols_find(uint64_t addr, bool kernel);
/* An id's name ("tcp_sendmsg", "memcpy"); "?" for SYMBOL_NONE. */
const char *symbols_name(uint32_t id);
/* The file an id's function is in: "kernel", "nio-top", "libc.so.6". */
const char *symbols_object(uint32_t id);

#endif
