#!/bin/bash
# A sweep in the explorer (tmux, 80x24): a point whose run a stop ended
# (here a stall: the process stopped from outside for 3 s) runs again
# before the sweep goes on, and the end says how many points are complete;
# the time left never goes up; frozen, the header says what goes on now as
# the status line does.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd tmux jq

. "$(dirname "$0")/tmux.sh"
size=80x24

# A stall in run 1's measured window: its point runs again.
start "${utf8[@]}" -- -s one-copy,two-copy -m 4K -d 6 -w 0.2 -o "$tmp/stop.json"
wait_screen 'run 1: one-copy 4 KiB x1, ([1-4])\.[0-9] s  '
ok $? "run 1 is in its measured window"
pid=$(ui_pid)
kill -STOP "$pid"
sleep 3
kill -CONT "$pid"
wait_screen 'sweep: 1 of 2 again, run 2 \(a stop ended the last run' 100
ok $? "the point the stop ended runs again, and the status line says so"
wait_screen 'run 2: one-copy 4 KiB x1' 20
ok $? "run 2 is the same point, one-copy 4 KiB"
wait_screen 'sweep done: 2 of 2 points complete, some run again after a stop' 300
ok $? "the end counts the points complete"
T send-keys -t ui 2
wait_screen '│ +1 one-copy 4 KiB x1 +stream +[0-9.]+ stopped' 20 &&
	wait_screen '│ +3 two-copy 4 KiB x1 +stream'
ok $? "the stopped run stays in the table, marked, before the point's own"
T send-keys -t ui q
wait_exit
# Each point has a run the analysis takes: none left out for its stop.
jq_true "$tmp/stop.json" '[.runs[] | select(.stopped_s == 0 and .error == null) | .strategy] | sort == ["one-copy", "two-copy"]' &&
	jq_true "$tmp/stop.json" '.runs[0].stopped_s > 2'
ok $? "the export: one whole run of each point, and the stopped one ($(jq -c '[.runs[] | [.strategy, .stopped_s]]' "$tmp/stop.json"))"
T kill-server

# The time left counts down: a run that takes longer than those before it
# holds it, never raises it.
start "${utf8[@]}" -- -s one-copy,two-copy,zero-copy,uring,sendfile -m 4K \
	-d 1 -w 0.2 -o "$tmp/left.json"
: >"$tmp/left"
seen() {
	screen | head -1 | grep -oE 'sweep [0-9]+/[0-9]+, [0-9]+:[0-9]+ left' >>"$tmp/left"
	shows 'sweep done'
}
wait_until -t 900 seen
ok $? "the sweep ends"
secs=$(sed -E 's/.*, ([0-9]+):([0-9]+) left/\1 \2/' "$tmp/left" |
	awk '{ print $1 * 60 + $2 }')
[ "$(wc -l <<<"$secs")" -ge 3 ] && sort -rn -c <<<"$secs" 2>/dev/null
ok $? "the time left never goes up ($(uniq "$tmp/left" | sed 's/.*, //' | paste -sd' '))"
T send-keys -t ui q
wait_exit
T kill-server

# Frozen in a sweep: the header says what goes on now, as the status line.
start "${utf8[@]}" -- -s one-copy,two-copy,zero-copy -m 4K -d 1 -w 0.2 \
	-o "$tmp/frozen.json"
wait_screen 'run 1: one-copy 4 KiB x1'
T send-keys -t ui F8
wait_screen 'FROZEN \(Z\)'
ok $? "F8 freezes the screen"
wait_screen 'sweep: 2 of 3, run 2' 300
screen | head -1 | grep -qE '^ run 1: one-copy 4 KiB x1.* FROZEN \(Z\); now:( [0-9]+ new runs?)?  sweep 2/3'
ok $? "frozen on run 1, the header says sweep 2/3 now, as the status line ($(screen | head -1))"
wait_screen 'sweep done: 3 of 3 points complete' 300 &&
	! screen | head -1 | grep -q 'sweep [0-9]'
ok $? "once the sweep is done, the frozen header no longer says one runs"
T send-keys -t ui q
wait_exit
T kill-server

done_testing
