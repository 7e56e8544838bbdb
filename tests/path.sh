#!/bin/bash
# The data path (x) says what the gauges say: under each move, the measured
# share of every role it plays comes from the same figures as the gauges'
# profile rows (tmux, 120x40).  splice's vmsplice takes page references
# (pinning's work) and its words no longer say "none pinned"; under the
# delivery said not to copy, the copy at delivery's own figure.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd tmux

. "$(dirname "$0")/tmux.sh"

# A role's share as the sender's profile row says it: "pin 13%" -> 13.
gauge_share() {
	screen | sed -n "s/.*││ Sender  .* $1 \([0-9]*\)%.*/\1/p" | head -1
}

start "${utf8[@]}" -- -s splice -m 64K -d 2 -w 0 --profile-hz 4000 \
	-o "$tmp/p.json"
wait_screen 'run 1 finished' 300
ok $? "a splice run at 64 KiB, sampled"
wait_screen '││ Sender  .* pin [0-9]+%' 200
ok $? "the sender's profile row shows pinning"
pin=$(gauge_share pin)
T send-keys -t ui x
wait_screen 'Data path of splice' 200
ok $? "x opens splice's data path"
wait_screen "measured in run 1: pin $pin% \\(.*\\) of the sender's CPU" 200
ok $? "under vmsplice, pinning's share is the gauges' ($pin%)" ||
	screen | comment
! screen | grep -q 'none pinned'
ok $? "its words no longer say none is pinned"
wait_screen "measured in run 1: deliv copy [0-9]+% of the sender's CPU; [0-9]+% of the" 200
ok $? "under the delivery said not to copy, the copy at delivery's own figure"
T send-keys -t ui Escape q
wait_exit
ok $? "q quits"

done_testing
