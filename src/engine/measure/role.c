/*
 * The role table, and the one function that finds a function's role.  The
 * kernel's low-level copy routines (rep_movs_alternative, memcpy) are in no
 * role by themselves: the function that called them says which copy it is.
 * Nor are _copy_from_user and _copy_to_user (a system call's arguments,
 * never the payload, which goes through an iov_iter), or
 * iov_iter_extract_pages (page references for MSG_SPLICE_PAGES, pinned
 * only when vmsplice's gup below it is).
 */
#include <string.h>

#include "role.h"

const struct role roles[] = {
	{"copy_send", "copy on send", "send copy",
	 "_copy_from_iter* copy_page_from_iter* csum_and_copy_from_iter* "
	 "copy_from_user_iter "
	 "skb_do_copy_data_nocache",
	 "the kernel copies the message from the sender's pages into socket "
	 "buffers"},
	{"copy_deferred", "copy at delivery", "deliv copy",
	 "skb_copy_ubufs skb_orphan_frags_rx",
	 "the copy a zero-copy send gets anyway: the kernel copies pinned "
	 "pages before a local receiver may see them"},
	{"copy_receive", "copy on receive", "recv copy",
	 "_copy_to_iter copy_page_to_iter* skb_copy_datagram_iter "
	 "__skb_datagram_iter simple_copy_to_iter copy_to_user_iter",
	 "the kernel copies the message from socket buffers into the "
	 "receiver's pages"},
	{"copy_user", "copy in user space", "user copy",
	 "user:memcpy user:memmove user:message_serialize "
	 "user:message_deserialize",
	 "copies nio-top makes itself, such as two-copy's serialization into "
	 "one buffer"},
	{"pin", "pinning pages", "pin",
	 "gup_fast* __gup* get_user_pages* pin_user_pages* unpin_user_page* "
	 "iov_iter_get_pages* try_grab_folio* "
	 "zerocopy_fill_skb_from_iter __zerocopy_sg_from_iter "
	 "mm_account_pinned_pages mm_unaccount_pinned_pages io_pin_pages",
	 "finding and pinning the sender's pages for a zero-copy send, and "
	 "releasing them"},
	{"map", "mapping pages", "map",
	 "tcp_zerocopy_receive tcp_zerocopy_vm_insert_batch* vm_insert_page* "
	 "zap_page_range* zap_vma_range unmap_page_range",
	 "a zero-copy receive mapping received pages into the receiver and "
	 "unmapping them"},
	{"completion", "completions", "compl",
	 "msg_zerocopy_* __msg_zerocopy_* sock_zerocopy_* skb_zcopy_* "
	 "ip_recv_error sock_recv_errqueue io_notif_* io_cqring_* __io_cq* "
	 "io_cq_* io_req_post_cqe* io_req_task_complete "
	 "__io_submit_flush_completions io_send_zc_cleanup",
	 "zero-copy notifications, the error queue and io_uring's completions"},
	{"pipe", "pipes and files", "pipe",
	 "splice_* __splice_* do_splice* vmsplice_* __do_sys_vmsplice "
	 "iter_file_splice_write pipe_* __pipe_* anon_pipe_* add_to_pipe "
	 "direct_splice_actor do_sendfile filemap_* shmem_* page_cache_pipe_*",
	 "splice's pipe and sendfile's page cache"},
	{"stack", "the TCP/IP stack", "stack",
	 "tcp_* __tcp_* tcp4_* ip_* __ip_* ipv4_* inet_* __inet_* skb_* "
	 "__skb_* kfree_skb* consume_skb* __kfree_skb* __alloc_skb alloc_skb* "
	 "sk_* __sk_* sock_* __sock_* release_sock lock_sock* __release_sock "
	 "veth_* __veth_* net_* __net_* netif_* __netif_* napi_* __napi_* "
	 "dev_* __dev_* nf_* eth_* dst_* neigh_* __neigh_* process_backlog "
	 "handle_softirqs __do_softirq do_softirq*",
	 "TCP and IP, socket buffers, the device and veth, and the softirq "
	 "that delivers (its entry ends the walk: the copy or call it ran "
	 "on top of is not charged)"},
	{"wakeup", "waking and sleeping", "wakeup",
	 "try_to_wake_up ttwu_* __wake_up* wake_up_* autoremove_wake_function "
	 "default_wake_function pollwake ep_poll_callback sock_def_readable "
	 "sock_def_write_space sk_stream_write_space sock_def_wakeup "
	 "schedule __schedule "
	 "schedule_* finish_task_switch* __switch_to* prepare_task_switch "
	 "enqueue_task* dequeue_task* pick_next_task* psi_* sched_*",
	 "waking the other side and being woken: in a VM this holds the cost "
	 "of the wake-up's interrupt"},
	{"syscall", "system calls", "syscall",
	 "entry_SYSCALL_64* do_syscall_64 syscall_exit_to_user_mode* "
	 "x64_sys_call __x64_sys_* __sys_* ksys_* __do_sys_* do_epoll_wait "
	 "ep_poll do_sys_poll io_submit_sqes io_issue_sqe __io_uring_enter* "
	 "io_uring_enter* __fget* fdget* fput*",
	 "entering and leaving the kernel, polls and waits, io_uring's "
	 "submission"},
	{"interrupt", "interrupts", "irq",
	 "asm_sysvec_* sysvec_* __sysvec_* asm_common_interrupt "
	 "common_interrupt __common_interrupt irq_enter* irq_exit* "
	 "__irq_exit_rcu hrtimer_run_softirq run_timer_softirq rcu_core* "
	 "tasklet_action* run_rebalance_domains",
	 "a hardware interrupt on top of the thread's work (a timer, a "
	 "wake-up's IPI, a device), and the softirqs other than the "
	 "network's: its entry ends the walk, so the copy or call it "
	 "interrupted is not charged"},
	{"measure", "nio-top's measuring", "measure",
	 "perf_* __perf_* ___perf_* task_clock_event_* cpu_clock_event_* "
	 "ctx_sched_in ctx_sched_out event_sched_in event_sched_out "
	 "group_sched_out merge_sched_in visit_groups_merge* "
	 "get_perf_callchain x86_pmu_* intel_pmu_* amd_pmu_* "
	 "syscall_trace_enter syscall_exit_work __traceiter_sys_*",
	 "what watching costs: the kernel's work for nio-top's counters "
	 "(on every context switch, and on every system call where they "
	 "are counted) and for its sampling"},
	{"other", "other", "other", "",
	 "everything else: the samples no role's function is in (the export "
	 "lists their top functions)"},
};

const size_t role_count = sizeof(roles) / sizeof(roles[0]);
const size_t role_other = sizeof(roles) / sizeof(roles[0]) - 1;

bool role_is_copy(size_t role)
{
	return role < role_count && strncmp(roles[role].key, "copy_", 5) == 0;
}

/*
 * How well pattern (len bytes, "user:" already taken off) matches name
 * (its first n bytes): 0 not at all; else longer for a closer match, an
 * exact name above any prefix.
 */
static size_t match(const char *pattern, size_t len, const char *name, size_t n)
{
	if (len && pattern[len - 1] == '*')
		return n >= len - 1 && strncmp(pattern, name, len - 1) == 0
			       ? len
			       : 0;
	return len == n && strncmp(pattern, name, n) == 0 ? SIZE_MAX : 0;
}

bool role_in_user_space(size_t role)
{
	return role == role_other ||
	       (role < role_count && strstr(roles[role].functions, "user:"));
}

size_t functions_match(const char *functions, const char *name, bool kernel)
{
	size_t n = strcspn(name, "."), best_len = 0;
	const char *p = functions;

	while (*p) {
		size_t len = strcspn(p, " "), got;
		bool user = strncmp(p, "user:", 5) == 0;
		const char *pattern = user ? p + 5 : p;

		got = user == !kernel
			      ? match(pattern, len - (user ? 5 : 0), name, n)
			      : 0;
		if (got > best_len)
			best_len = got;
		p += len;
		while (*p == ' ')
			p++;
	}
	return best_len;
}

size_t role_of_function(const char *name, bool kernel)
{
	size_t best = SIZE_MAX, best_len = 0;

	for (size_t r = 0; r < role_count; r++) {
		size_t got = functions_match(roles[r].functions, name, kernel);

		if (got > best_len) {
			best = r;
			best_len = got;
		}
	}
	return best;
}

size_t role_find(const char *key)
{
	for (size_t r = 0; r < role_count; r++)
		if (strcmp(roles[r].key, key) == 0)
			return r;
	return SIZE_MAX;
}
