#!/bin/bash
# Keys belong to the view on screen (tmux, 80x24): in compare Right brings
# the next marked run in, and in compare, the chart, the runs and the
# analysis, where the views cover the controls, Left and Right move no
# control and start no run; compare with nothing marked sets the selected
# run beside the latest that differs from it in one setting (its strategy
# rather than its size) and says how they differ; a key that works clears
# the last key's complaint; Enter on the duration comes back to its time;
# two strategies at one value on the chart are both drawn; a loaded export
# opens on its runs, and its key bar offers no key that starts runs.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd tmux jq

. "$(dirname "$0")/tmux.sh"
size=80x24

# Four timed runs of a sweep; then nothing runs until asked.
start "${utf8[@]}" -- -s one-copy,two-copy,zero-copy,uring -m 4K -d 0.5 -w 0 \
	--min-measured 0 -o "$tmp/four.json"
wait_screen 'sweep done: 4 of 4 points complete' 100
ok $? "a sweep of four runs ends, idle"
# The controls' box alone: the gauges' rows beside it follow the room the
# status line leaves them, and which gauges give way.
controls_box() {
	screen | grep -E '│ (Strategy|Size|Threads|Mode|Duration) ' |
		sed 's/││.*//'
}
controls=$(controls_box)

T send-keys -t ui 3
wait_screen 'Compare: ratios to run 4; run 3 differs in strategy alone \(c marks others\)' 20
ok $? "compare with nothing marked pairs the selected run with the latest that differs in one setting, and says so"
# Every row's name whole, or cut with a mark: "CPU in deliv copy %
# (receiver)" lost its last letter, unmarked.
: >"$tmp/compare"
for _ in $(seq 6); do
	screen >>"$tmp/compare"
	T send-keys -t ui NPage
	sleep 0.3
done
grep '^│ CPU in ' "$tmp/compare" | sort -u >"$tmp/names"
[ -s "$tmp/names" ] &&
	! grep -vE '^│ CPU in [a-z ]+ % \((sender|receiver)\) ' "$tmp/names"
ok $? "compare's rows of each role name it whole ($(wc -l <"$tmp/names") rows)"
# Scrolled, the title leaves the frame room to count the lines above.
screen | sed -n 2p | grep -qE '╭─ Compare: ratios to run 4; run 3 differs in strategy alone ─+ ▲ [0-9]+ more ─+╮'
ok $? "scrolled, compare's title and the count of lines above both whole ($(screen | sed -n 2p))"
T send-keys -t ui Home

T send-keys -t ui 2 c k c k c k c 3
wait_screen 'Compare: 1-2 of 4 marked \(Left/Right\), ratios to run 1' 20
ok $? "four runs marked: compare shows two of them and says how to see the rest"
T send-keys -t ui Right
wait_screen 'Compare: 1, 3 of 4 marked' 20 &&
	screen | grep -qE '(one-copy|two-copy|zero-copy|uring) #3 ' &&
	! screen | grep -qE '(one-copy|two-copy|zero-copy|uring) #2 '
ok $? "Right in compare brings the next marked run in beside the first, the ratios' base"

# Left and Right in the views that cover the controls: no control moves,
# no run starts.
for view in 3 4 2 5; do
	T send-keys -t ui "$view" Left Right Left
	sleep 0.5
	screen | head -1 | grep -q ' idle' && ! screen | grep -q 'run 5'
	ok $? "view $view at 80x24: Left and Right start no run"
done
# controls_kept: the live view is back, idle, its controls as they were.
controls_kept() {
	screen | head -1 | grep -q ' idle' &&
		[ "$(controls_box)" = "$controls" ]
}
T send-keys -t ui 1
wait_until controls_kept
ok $? "back in the live view the controls are as they were: $(grep -o 'Strategy ◀ [a-z-]*' <<<"$controls")"

# A key's answer goes with the next key that works.
T send-keys -t ui a
wait_screen 'no such key' 20
T send-keys -t ui Tab
wait_gone 'no such key' 20
ok $? "a key that works clears 'no such key'"
# A key of another view's own says which view has it.
T send-keys -t ui '['
wait_screen "that key is the chart view's: 4 shows it" 20
ok $? "[ in the live view says it is the chart's, and 4 shows it"
# Enter on the duration: continuous, then back to the time it had.
T send-keys -t ui Tab Tab Tab Enter
wait_screen 'Duration ◀ continuous' 20
T send-keys -t ui Enter
wait_screen 'Duration ◀ 0.5 s' 20
ok $? "Enter twice on a duration of 0.5 s comes back to 0.5 s"
T send-keys -t ui q
wait_exit
T kill-server

# Nothing marked, compare sets a run beside the latest that differs from it
# in the strategy alone, not in its size (zero-copy 16 KiB against
# zero-copy 1 KiB, the run before it, said nothing of the strategy).
start "${utf8[@]}" -- -s zero-copy,one-copy -m 1K,16K -d 0.5 -w 0 \
	--min-measured 0
wait_screen 'sweep done: 4 of 4 points complete' 100
T send-keys -t ui 2 k k 3
wait_screen 'Compare: ratios to run 2; run 4 differs in strategy alone' 20 &&
	wait_screen 'zero-copy #2 +one-copy #4'
ok $? "zero-copy 16 KiB is compared with one-copy 16 KiB, not zero-copy 1 KiB"
T send-keys -t ui q q
wait_exit
T kill-server

# By name, A to Z: the words after the size (the receive side's tag, the
# mode) in the order of the alphabet, not of the receive sides' table.
rx=copy,trunc,uring
"$NIO_TOP" --list-strategies | grep -Eq '^--rx zerocopy +available' &&
	rx=copy,zerocopy,trunc
"$NIO_TOP" --batch -s one-copy -m 4K --rx "$rx" --mode stream,rr -d 0.3 \
	-w 0 --min-measured 0 -o "$tmp/names.json" >/dev/null 2>&1
start "${utf8[@]}" -- --load "$tmp/names.json" --min-measured 0
wait_screen '╭─ Runs, by run number'
T send-keys -t ui F6
wait_screen '╭─ Runs, by name, A to Z'
ok $? "F6 sorts the runs by name, A to Z"
# names: each row's name and mode, as "NAME|MODE".
names() {
	screen | sed -nE 's/^│[ *]+[0-9]+ (one-copy 4 KiB x1( .*[^ ])?) +(rr|stream) .*/\1|\3/p' \
		>"$tmp/names"
	[ "$(wc -l <"$tmp/names")" = 6 ]
}
wait_until names && LC_ALL=C sort -t'|' -k1,1 -k2,2 -c "$tmp/names"
ok $? "the rows' names go A to Z ($(paste -sd'|' "$tmp/names"))"
# The chart draws the copy receiver's stream run; its footer counts the
# two of the other receive sides it leaves out.
T send-keys -t ui 4
wait_screen '╰─ 1 run, .*, 2 other rx/knobs' 20
ok $? "the chart's footer counts the runs it leaves out for their receive side ($(screen | grep '╰─ '))"
T send-keys -t ui q
wait_exit
T kill-server

# Two strategies at one value at one size: both markers are drawn.
"$NIO_TOP" --batch -s two-copy,one-copy -m 4K -d 0.5 -w 0 --min-measured 0 \
	-o "$tmp/two.json" >/dev/null 2>&1
# The value chosen, with the totals that go with it: a run's own figure
# raised past its totals (the other's, on a busy machine) is refused.
jq "$at_gbps"' .runs[] |= at_gbps(2; 0)' "$tmp/two.json" >"$tmp/same.json"
start "${utf8[@]}" -- --load "$tmp/same.json" --min-measured 0
wait_screen 'loaded export, 2 runs' && wait_screen '╭─ Runs, by run number'
ok $? "--load opens on the runs view" || screen | comment
# Nothing runs: the key bar offers no key that starts runs.
screen | tail -1 | grep -q 'F1Help' && ! screen | tail -1 | grep -qE 'F3|F5'
ok $? "--load: the key bar offers no F3 Preset nor F5 Sweep ($(screen | tail -1))"
T send-keys -t ui 4
wait_screen 'Throughput Gbit/s \(receiver\) vs size' &&
	wait_screen '│ +[0-9.]+│ *(21|12)|│ *(21|12) *│'
ok $? "two strategies at one value: both markers, side by side" ||
	screen | comment
T send-keys -t ui q
wait_exit
T kill-server

done_testing
