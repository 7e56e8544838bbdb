#!/bin/bash
# --pin: each worker thread runs on the CPU its place in the list gives it
# (senders first, then receivers, round-robin), as the kernel reports in
# /proc/PID/task/TID/status; the export and its preset record the list; a CPU
# this process may not use is refused up front, named.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq nproc
[ "$(nproc)" -ge 2 ] || skip_all "needs 2 CPUs"

# 7 on a machine of up to 7 CPUs, else the first CPU beyond it.
beyond=$(($(nproc) > 7 ? $(nproc) : 7))
out=$("$NIO_TOP" --batch -s one-copy --pin "$beyond" 2>&1 >/dev/null)
[ $? = 2 ] && [[ "$out" == *"--pin: CPU $beyond is not one this process may run on"* ]]
ok $? "--pin $beyond exits 2 naming it: ${out%%$'\n'*}"
out=$("$NIO_TOP" --batch -s one-copy --pin 1,,2 2>&1 >/dev/null)
[ $? = 2 ] && [[ "$out" == *"--pin: '1,,2'"* ]]
ok $? "a malformed list exits 2 naming it"

"$NIO_TOP" --batch -s one-copy -m 16K -t 2 -d 3 -w 0 --pin 0,1 \
	-o "$tmp/r.json" >/dev/null 2>&1 &
pid=$!
# The workers: every thread but the main one, once all four are up and
# pinned (looked for while the run lasts).
pinned_or_done() {
	cpus=$(for t in /proc/$pid/task/*; do
		[ "$(basename "$t")" = "$pid" ] && continue
		awk '/^Cpus_allowed_list/ { print $2 }' "$t/status" 2>/dev/null
	done | sort | tr '\n' ' ')
	[ "$cpus" = "0 0 1 1 " ] || ! kill -0 "$pid" 2>/dev/null
}
wait_until pinned_or_done
wait "$pid"
rc=$?
[ "$cpus" = "0 0 1 1 " ]
ok $? "two flows on --pin 0,1: senders on 0 and 1, receivers on 0 and 1 (threads on: $cpus)"
[ $rc = 0 ] && jq_true "$tmp/r.json" '.runs[0].pin == [0, 1] and .preset.pin == [0, 1] and .runs[0].bytes_received == .runs[0].bytes_sent'
ok $? "the export records the list, and the run is clean"
"$NIO_TOP" --batch -p "$tmp/r.json" -d 0.2 -w 0 -o "$tmp/again.json" \
	>/dev/null 2>&1
jq_true "$tmp/again.json" '.runs[0].pin == [0, 1]'
ok $? "replayed as a preset, the run is pinned again"
done_testing
