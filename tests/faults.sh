#!/bin/bash
# A peer that resets the connection mid-run: the test destroys the receiving
# sockets inside nio-top's own namespace (`ss -K`, which answers the sender
# with a RST).  That run ends with the error in the export, and the session
# goes on to the next run -- in a batch and in the explorer.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq ss
. "$(dirname "$0")/tmux.sh"

before=$(net_snapshot)
ns=niofault$$

# Destroys the established TCP sockets of the receivers' namespace; prints
# how many were destroyed.
reset_receivers() {
	ip netns exec $ns-cli ss -K -t -n -H state established 2>"$tmp/ss.err" | wc -l
}

# reset_some: destroys the receivers' established sockets, true once some
# were ($killed of them; the flows connect some time after run 1 shows, and
# a loaded machine takes a while) or once the kernel says it cannot.
reset_some() {
	killed=$(reset_receivers)
	[ "$killed" -ge 1 ] || grep -q 'not supported' "$tmp/ss.err"
}

# Runs 1 and 2 of the export: the first cut by a reset, the second whole.
reset_then_whole() {
	jq_true "$1" '(.runs | length) == 2 and
		(.runs[0].error | test("reset|abort|pipe"; "i")) and
		.runs[1].error == null and .runs[1].bytes_sent > 0 and
		.runs[1].bytes_sent == .runs[1].bytes_received'
}

: >"$tmp/err" # emptied first: wait_for_line must not read the last run's lines
"$NIO_TOP" --batch -s one-copy,two-copy -m 16K -t 2 -d 2 -w 0.2 \
	--keep-netns $ns -o "$tmp/batch.json" >"$tmp/table" 2>"$tmp/err" &
pid=$!
killed=0
wait_for_line ' 1/2 ETA ' 300 "$tmp/err"
wait_until reset_some
grep -q 'not supported' "$tmp/ss.err" && {
	kill $pid
	wait $pid
	skip_all "the kernel cannot destroy sockets (CONFIG_INET_DIAG_DESTROY)"
}
ok $([ "$killed" -ge 1 ]; echo $?) "batch: ss -K destroyed the receivers' sockets ($killed)"
wait $pid
rc=$?
ok $([ $rc = 1 ]; echo $?) "batch: exit status 1, a run failed (got $rc)"
reset_then_whole "$tmp/batch.json"
ok $? "batch: run 1 ended with the reset in the export, run 2 completed"
grep -qE 'error: flow [0-9]+ (sender|receiver): .*(reset|abort|pipe)' "$tmp/table"
ok $? "batch: the table says what failed ($(grep -o 'error: .*' "$tmp/table"))"

# The explorer keeps no run cut before its warm-up ended: the reset waits
# for run 1's window to be open half a second (its header's time is the
# run's, warm-up included), and the run lasts long enough for a loaded
# machine's screen to show that.
start "${utf8[@]}" -- -s one-copy,two-copy -m 16K -t 2 -d 4 -w 0.2 \
	--keep-netns $ns -o "$tmp/tui.json"
killed=0
wait_screen 'run 1: one-copy 16 KiB x2, (0\.[5-9]|[1-3]\.[0-9]) s' &&
	wait_until reset_some
ok $([ "$killed" -ge 1 ]; echo $?) "TUI: ss -K destroyed the receivers' sockets ($killed)"
wait_screen ': 2 of 2, run 2' 100
ok $? "TUI: the sweep goes on to run 2"
wait_screen 'done: 1 of 2 points complete, 1 failed \(run 1: ' 100
ok $? "TUI: and finishes it"
screen | grep -qiE 'reset|abort|pipe'
ok $? "TUI: the runs table shows the error"
T send-keys -t ui q
wait_exit
ok $? "TUI: q quits"
reset_then_whole "$tmp/tui.json"
ok $? "TUI: run 1 ended with the reset in the export, run 2 completed"
T kill-server

wait_until net_is "$before"
ok $? "no namespace or link left behind"

done_testing
