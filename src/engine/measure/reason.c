/*
 * The reason table, and the one function that finds a function's reason.
 * schedule() and its helpers (schedule_timeout, wait_woken, the wait
 * queues) name none: every wait goes through them, and the function that
 * called them says what it waits for.
 */
#include <string.h>

#include "reason.h"
#include "role.h"

const struct reason reasons[] = {
	{"data", "waiting for data", "data",
	 "sk_wait_data __skb_wait_for_more_packets",
	 "a receive with less to read than its low-water mark "
	 "(SO_RCVLOWAT); an rr sender waiting for the next request"},
	{"buffer", "waiting for send-buffer space", "sndbuf",
	 "sk_stream_wait_memory sock_wait_for_wmem",
	 "a send that finds the socket's send buffer full: the receiver has "
	 "not taken enough, or TCP cannot send more yet"},
	{"completion", "waiting for completions", "compl", "",
	 "a zero-copy sender waiting for the kernel to be done with its "
	 "pages, and sendfile's and splice's waiting for the receiver to "
	 "have read a slot's bytes (their polls and sleeps: the strategy "
	 "says so)"},
	{"uring", "waiting in io_uring", "uring",
	 "io_cqring_wait* __io_cqring_wait* io_uring_cancel_generic "
	 "io_sqd_handle_event",
	 "io_uring_enter waiting for completions: sends or receives, and "
	 "zero-copy notifications"},
	{"lock", "waiting for the socket lock", "lock",
	 "__lock_sock lock_sock_nested __mutex_lock* mutex_lock* "
	 "rwsem_down_* __down* rt_mutex_*",
	 "the socket (or another kernel lock) held by the other thread or "
	 "its softirq"},
	{"pipe", "waiting for a pipe", "pipe",
	 "pipe_wait_readable pipe_wait_writable wait_for_space anon_pipe_read "
	 "anon_pipe_write pipe_read pipe_write splice_pipe_to_pipe",
	 "splice's pipe full or empty"},
	{"preempted", "preempted while runnable", "preempt",
	 "exit_to_user_mode_loop irqentry_exit_to_user_mode irqentry_exit* "
	 "__cond_resched _cond_resched preempt_schedule* "
	 "do_sched_yield",
	 "the thread could run but the CPU was taken from it (on its way "
	 "back to user space, or at a kernel preemption point): waiting for "
	 "a CPU, not for the other side"},
	{"other", "other", "other", "",
	 "everything else: a switch no reason's function is in (the page "
	 "cache, a fault, a sleep the strategy does not explain), and a "
	 "thread off the CPU as sampling began whose stack could not be "
	 "read"},
};

const size_t reason_count = sizeof(reasons) / sizeof(reasons[0]);
const size_t reason_other = sizeof(reasons) / sizeof(reasons[0]) - 1;
const size_t reason_preempted = sizeof(reasons) / sizeof(reasons[0]) - 2;

const char reason_generic_functions[] =
	"do_sys_poll do_select core_sys_select do_epoll_wait ep_poll "
	"do_nanosleep hrtimer_nanosleep";

size_t reason_of_function(const char *name)
{
	size_t best = SIZE_MAX, best_len = 0;

	for (size_t r = 0; r < reason_count; r++) {
		size_t got = functions_match(reasons[r].functions, name, true);

		if (got > best_len) {
			best = r;
			best_len = got;
		}
	}
	if (functions_match(reason_generic_functions, name, true) > best_len)
		return REASON_GENERIC;
	return best;
}

size_t reason_find(const char *key)
{
	for (size_t r = 0; r < reason_count; r++)
		if (strcmp(reasons[r].key, key) == 0)
			return r;
	return SIZE_MAX;
}
