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
ns=niofault

# Destroys the established TCP sockets of the receivers' namespace; prints
# how many were destroyed.
reset_receivers() {
	ip netns exec $ns-cli ss -K -t -n -H state established 2>"$tmp/ss.err" | wc -l
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
wait_for_line ' 1/2 ETA ' 300 "$tmp/err"
sleep 0.8
killed=$(reset_receivers)
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

start "${utf8[@]}" -- -s one-copy,two-copy -m 16K -t 2 -d 2 -w 0.2 \
	--keep-netns $ns -o "$tmp/tui.json"
wait_screen ': 1 of 2, run 1' 100 && sleep 0.8
killed=$(reset_receivers)
ok $([ "$killed" -ge 1 ]; echo $?) "TUI: ss -K destroyed the receivers' sockets ($killed)"
wait_screen ': 2 of 2, run 2' 100
ok $? "TUI: the sweep goes on to run 2"
wait_screen 'done: 2 runs' 100
ok $? "TUI: and finishes it"
screen | grep -qiE 'reset|abort|pipe'
ok $? "TUI: the runs table shows the error"
T send-keys -t ui q
wait_exit
ok $? "TUI: q quits"
reset_then_whole "$tmp/tui.json"
ok $? "TUI: run 1 ended with the reset in the export, run 2 completed"
T kill-server

sleep 0.2
[ "$(net_snapshot)" = "$before" ]
ok $? "no namespace or link left behind"

done_testing
