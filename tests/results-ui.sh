#!/bin/bash
# Finished runs in the explorer (tmux, 120x40): an rr run's row keeps its
# mode, p50 and p99 once it ended and after --load; the numbers in the
# header, the status line, the table and the export agree; a session of
# stream and rr runs at different sizes charts each mode apart (no rr size
# in a stream chart), and the chart's flows and mode are chosen in the
# chart view without starting a run; the analysis names each mode.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd tmux jq

. "$(dirname "$0")/tmux.sh"

# The lines of the box whose title matches $1, up to its bottom edge.
box() {
	screen | sed -n "/╭─ $1/,/╰/p"
}
# box_has TITLE PATTERN...: the box shows each PATTERN (grep -E), and none
# of those written !PATTERN (waited for: the frame may still be drawing).
box_has() {
	local p
	box "$1" >"$tmp/box"
	shift
	for p; do
		if [ "${p:0:1}" = '!' ]; then
			! grep -qE -- "${p:1}" "$tmp/box" || return 1
		else
			grep -qE -- "$p" "$tmp/box" || return 1
		fi
	done
}
# box_says TITLE PATTERN: the box's text, its lines joined, says PATTERN.
box_says() {
	box "$1" | tr -d '│\n' | tr -s ' ' | grep -qE -- "$2"
}

before=$(net_snapshot)

# One timed rr run: it ends, and its row stays an rr row.
start "${utf8[@]}" -- --mode rr -s one-copy -m 4K -d 1.5 -w 0.2 \
	-o "$tmp/rr.json"
wait_screen 'run 1 finished: p50 [0-9.]+ us, p99 [0-9.]+ us' 60
ok $? "the status line gives run 1's p50 and p99 when it ends"
wait_screen '│ +1 one-copy 4 KiB x1 +rr +1\.[0-9]+ +[0-9.]+ +[0-9.]+k? +[0-9.]+k? '
ok $? "its row shows rr, Gbit/s, p50 and p99: $(screen | grep -E '│ +1 one-copy 4 KiB x1 +rr ' | tr -s ' ' | cut -c1-70)"
row=$(screen | grep -E '│ +1 one-copy 4 KiB x1 +rr ')
p50=$(awk '{print $10}' <<<"$row")
gauge=
# same_figure A B: two printings of one figure agree to the coarser one's
# last digit (the table gives 103 where the gauges give 102.7).
same_figure() {
	awk -v a="$1" -v b="$2" 'function unit(s) {
		return index(s, ".") ? 10 ^ -(length(s) - index(s, ".")) : 1 }
	BEGIN { d = a - b; if (d < 0) d = -d
		u = unit(a) > unit(b) ? unit(a) : unit(b)
		exit !(a != "" && b != "" && d <= u / 2 + 1e-9) }'
}
wait_screen 'Round trip in run 1, us: p50.{1,2}[0-9.]+ ' &&
	gauge=$(screen | sed -nE 's/.*Round trip in run 1, us: p50[^0-9]*([0-9.]+) .*/\1/p') &&
	same_figure "$gauge" "$p50" &&
	wait_screen 'Moved in run 1: [0-9.]+ [KMG]iB sent' &&
	wait_screen '╭─ [A-Za-z %/()]+: idle, top [0-9.]+k? '
ok $? "after it ended, the gauges' foot gives run 1's totals with the same p50 ($gauge, the table's $p50), the graphs say idle" ||
	screen | comment
T send-keys -t ui Enter
wait_screen 'run 2: one-copy 4 KiB x1' 30
ok $? "the next run is run 2 in the header"
T send-keys -t ui e
wait_screen "wrote [0-9]+ runs? to $tmp/rr.json" 30
jq_true "$tmp/rr.json" ".runs[0].run == 1 and .runs[0].mode == \"rr\" and .runs[0].latency_us.p50 > 0"
ok $? "the export numbers it run 1, with its latency"
T send-keys -t ui q
wait_exit
T kill-server

start "${utf8[@]}" -- --load "$tmp/rr.json"
wait_screen 'loaded export, [12] runs?' 30 &&
	wait_screen '│ +1 one-copy 4 KiB x1 +rr '
row=$(screen | grep -E '│ +1 one-copy 4 KiB x1 +rr ')
[ -n "$p50" ] && grep -Eq " $p50 " <<<"$row"
ok $? "after --load the row shows the same p50 ($p50): $(tr -s ' ' <<<"$row" | cut -c1-70)"
T send-keys -t ui q
wait_exit
T kill-server

# Stream at 1K and 16K, rr at 64 B, in one session.
"$NIO_TOP" --batch -s two-copy,one-copy -m 1K,16K -d 1 -w 0.2 \
	-o "$tmp/stream.json" >/dev/null 2>&1 &&
	"$NIO_TOP" --batch --mode rr -s two-copy,one-copy -m 64 -d 1 -w 0.2 \
		-o "$tmp/rr64.json" >/dev/null 2>&1
ok $? "stream runs at 1K and 16K, rr runs at 64 B"
jq -s '.[0] | .runs += ($rr | .runs)' --argjson rr "$(cat "$tmp/rr64.json")" \
	"$tmp/stream.json" >"$tmp/both.json"
start "${utf8[@]}" -- --load "$tmp/both.json"
wait_screen 'loaded export, 6 runs' 30
T send-keys -t ui 4
wait_screen '╭─ Throughput Gbit/s \(receiver\) vs size, stream, 1 flow' 20 &&
	wait_until box_has Throughput '1 KiB' '16 KiB' '!64 B'
ok $? "the stream chart spans 1 KiB .. 16 KiB, no 64 B of rr"
T send-keys -t ui r
wait_screen '╭─ Throughput Gbit/s \(receiver\) vs size, rr, 1 flow' 20 &&
	wait_until box_has Throughput '64 B' '!16 KiB'
ok $? "r in the chart: the rr runs, at 64 B only"
T send-keys -t ui m
wait_screen '╭─ Round trip p50 \(to p99\) us vs flows, rr, 64 B' 20
ok $? "m: the round trip against flows, for the size measured"
T send-keys -t ui ']'
screen | grep -q 'Mode .* stream ' && screen | grep -q 'loaded export, 6 runs'
ok $? "the chart's keys leave the controls and start nothing"
# Compare: the selected run (6, rr) and a stream run (4), both marked.
T send-keys -t ui 2 c k k c 3
wait_screen 'No ratio between a stream and an rr run' 20
ok $? "compare of rr and stream runs says it gives no ratio between them"
# Without a PMU (as on most VMs) the L1d counter is n/a: compare says why.
why=$(jq -r '.runs[0].sender.counters["L1-dcache-load-misses"] | select(.value == null) | .reason' "$tmp/both.json")
[ -z "$why" ] ||
	wait_until box_says Compare "L1d misses[a-zA-Z/, ]*: n/a in these runs: ${why:0:20}"
ok $? "a figure no compared run has is named with that run's reason (${why:-counted here})"
T send-keys -t ui 5
wait_screen 'Analysis: a verdict needs its 90% interval' 20 &&
	wait_screen 'stream, 1 flow: one-copy vs two-copy' &&
	wait_screen 'rr \(p50\), 1 flow: one-copy vs two-copy'
ok $? "the analysis compares stream and rr apart, naming each"
T send-keys -t ui q
wait_exit
T kill-server

# Compare gives each run's share of zero-copy sends the kernel copied, as
# its export counts it, and '-' for a strategy that has none; with one run
# per point the analysis says how to get more runs in the explorer.
"$NIO_TOP" --batch -s zero-copy,one-copy -m 16K -d 1 -w 0.2 \
	-o "$tmp/zc.json" >/dev/null 2>&1
# As the kernel's notifications prove it: a range where MSG_ZEROCOPY
# coalesced them ("2.9-100%"), one figure where they agree.
share=$(jq -r 'def pct: . * 100 | if . < 10 then (. * 10 | round) as $t | "\($t / 10 | floor).\($t % 10)" else round | tostring end;
	.runs[0].zerocopy | (.copied_min / .completions | pct) as $lo |
	(.copied_max / .completions * 100 | round | tostring) as $hi |
	if $lo == $hi then $hi else "\($lo)-\($hi)" end' "$tmp/zc.json")
start "${utf8[@]}" -- --load "$tmp/zc.json"
wait_screen 'loaded export, 2 runs' 30
T send-keys -t ui 3
wait_screen 'Compare: ' 30
# Under the gauges the rows may start below the fold: scrolled to.
for _ in $(seq 12); do
	shows 'Zero-copy sends copied' && break
	T send-keys -t ui Down
done
# Two columns, the zero-copy run's and the one-copy run's, in either order.
[ -n "$share" ] && wait_screen "Zero-copy sends copied.* (- +$share%|$share% +-) "
row=$(screen | grep 'Zero-copy sends copied')
ok $? "compare: zero-copy's copied share is the export's ($share%), one-copy's is '-': $(tr -s ' ' <<<"$row")"
T send-keys -t ui 5
wait_screen 'Analysis: a verdict needs its 90% interval' 20
! screen | grep -q 'More runs here'
ok $? "a loaded export, where nothing runs, is not told how to run more"
T send-keys -t ui q
wait_exit
T kill-server

# One run loaded: "1 run", in the header and on the status line.
jq '.runs = [.runs[0]]' "$tmp/zc.json" >"$tmp/one.json"
start "${utf8[@]}" -- --load "$tmp/one.json"
wait_screen 'loaded export, 1 run\b' 300
screen | grep -q '1 run loaded from an export; nothing runs'
ok $? "one loaded run is \"1 run loaded\", not \"1 runs\"" ||
	screen | tail -3 | comment
T send-keys -t ui q
wait_exit
T kill-server

# Runs all received with --rx zerocopy are charted (as rx-zc), not hidden.
"$NIO_TOP" --batch --rx zerocopy -s one-copy,zero-copy -m 4K,16K -d 1 -w 0.2 \
	-o "$tmp/rxzc.json" >/dev/null 2>&1
start "${utf8[@]}" -- --load "$tmp/rxzc.json"
wait_screen 'loaded export, 4 runs' 30
T send-keys -t ui 4
wait_screen '╭─ Throughput Gbit/s \(receiver\) vs size, stream rx-zc, 1 flow' 20 &&
	wait_until box_has Throughput 'one-copy' 'zero-copy' '!No finished'
ok $? "a session of --rx zerocopy runs is charted, titled rx-zc"
T send-keys -t ui q
wait_exit
T kill-server

# Live: the chart's flows are its own; moving them starts no run.
start "${utf8[@]}" -- -s one-copy -m 4K -d 1 -w 0.2
wait_screen 'run 1 finished' 40
T send-keys -t ui 4 ']' '[' r
sleep 1
screen | grep -q 'idle' && ! screen | grep -q 'run 2'
ok $? "[ ] and r in the chart start no run"
T send-keys -t ui Right
wait_screen 'run 2 finished' 40
T send-keys -t ui 5
wait_screen 'Analysis: a verdict needs its 90% interval' 20 &&
	wait_until box_says Analysis 'More runs here \(--repeat is the command line.s\): w sweeps'
ok $? "one run per point: the analysis says how to get more runs here"
T send-keys -t ui q q
wait_exit
T kill-server

# A thousand runs: the numbers get a fourth digit and the columns stay put.
jq '.runs = [range(1000) as $i | .runs[0] | .run = $i + 1]' "$tmp/zc.json" \
	>"$tmp/many.json"
size=80x24 start "${utf8[@]}" -- --load "$tmp/many.json"
wait_screen ' 1000 zero-copy' 50 && wait_screen ' 999 zero-copy'
at() { screen | grep " $1 zero-copy" | awk -v n="$1" '{print index($0, n " zero-copy") + length(n)}'; }
[ -n "$(at 999)" ] && [ "$(at 999)" = "$(at 1000)" ]
ok $? "rows 999 and 1000 start their run at the same column ($(at 999), $(at 1000))" ||
	screen | comment
T kill-server

wait_until net_is "$before"
ok $? "no namespace or link left behind"
done_testing
