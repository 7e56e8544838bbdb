#!/bin/bash
# The explorer in a real terminal: tmux (120x40) runs nio-top, the test reads
# the screen and types keys.  Live gauges that change, keys that move the
# controls and the run that follows, help, the explain pane, export, the
# too-small screen on resize, and a clean exit -- by q and by SIGTERM -- with
# the terminal sane and no namespace or link left.  Bad TERMs and a bad theme
# are clear errors.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd tmux jq

. "$(dirname "$0")/tmux.sh"

# The receiver's throughput gauge: its value, or nothing.
throughput() {
	screen | sed -n 's/.*Throughput .* \([0-9.]*[kMG]*\) Gbit\/s *│$/\1/p'
}

before=$(net_snapshot)

start "${utf8[@]}" -- -o "$tmp/session.json"
wait_screen 'Throughput .*[0-9] Gbit/s'
ok $? "the screen shows the throughput gauge with a value"
for name in Controls Messages CPU 'Ctx switches' 'L1d misses' 'LLC misses' \
	IPC 'Cycles/byte' 'Runs, by'; do
	wait_screen "$name"
	ok $? "the screen shows $name"
done
# Its first window may show no figure yet: wait for the run's.
if [ -e /sys/bus/event_source/devices/cpu ] || [ -e /sys/bus/event_source/devices/cpu_core ]; then
	skip_one "without a PMU, L1d misses says n/a (not 0)" "this machine has a PMU"
else
	wait_screen 'L1d misses.*n/a'
	ok $? "without a PMU, L1d misses says n/a (not 0) ($(screen | grep -E 'L1d misses' | tr -s ' '))"
fi
# Three digits may repeat by chance: live means it changes (within a
# second or so; a loaded machine redraws less often).
first=$(throughput)
changed() {
	second=$(throughput)
	[ -n "$first" ] && [ -n "$second" ] && [ "$first" != "$second" ]
}
wait_until changed
ok $? "the gauge is live: '$first' then '$second'"

T send-keys -t ui Right
wait_screen 'run [0-9]+: one-copy 16 KiB x1' 20
ok $? "Right on Strategy runs one-copy"
sleep 1
T send-keys -t ui Down Right
wait_screen 'run [0-9]+: one-copy 32 KiB x1' 20
ok $? "Down, Right runs 32 KiB messages"
sleep 1
T send-keys -t ui Down Right
wait_screen 'run [0-9]+: one-copy 32 KiB x2' 20
ok $? "Down, Right runs two flows"
wait_screen 'Throughput .*Gbit/s' 30
ok $? "the gauges follow the new run"
wait_screen '│ +[0-9]+ one-copy 16 KiB x1 ' 50
ok $? "the replaced runs are in the run table"

# A click on a strategy in the list picks it (SGR mouse reports, 1-based).
click() {
	T send-keys -t ui -l $'\e'"[<0;$1;$2M"
	T send-keys -t ui -l $'\e'"[<0;$1;$2m"
}
click 8 6
wait_screen 'run [0-9]+: zero-copy 32 KiB x2' 20
ok $? "a click on zero-copy runs it"
sleep 0.5 # not a double click
click 8 5
wait_screen 'run [0-9]+: one-copy 32 KiB x2' 20
ok $? "a click on one-copy runs it again"

T send-keys -t ui '?'
wait_screen 'Keys and words \(Up/Down/PgUp/PgDn/Home/End, Esc closes\)' 50
ok $? "? opens the help"
# The title may be drawn a refresh before the body.
wait_screen 'Tab +next control' 50
ok $? "the help lists keys from the key table"
T send-keys -t ui a
wait_gone 'Keys \(Up' 50
ok $? "any other key closes the help"

T send-keys -t ui x
wait_screen 'Data path of one-copy' 50
ok $? "x draws the data path"
wait_screen 'COPY .*sendmsg\(8-entry iovec\)'
ok $? "the data path marks the kernel's copy"
T send-keys -t ui x
wait_gone 'Data path of' 50
ok $? "x closes it"

T send-keys -t ui v
# The live view has a runs table too: wait for its graphs to go.
wait_gone 'CPU % \(sender\)' 50 && wait_screen 'Runs, by run number' 50
ok $? "v shows the runs table in place of the graphs"
T send-keys -t ui v
wait_screen 'Compare: ratios to run [0-9]+|Compare \(c marks' 50
ok $? "v again shows the comparison"
T send-keys -t ui v
wait_screen ' vs size, stream, [0-9]+ flows? ' 50
ok $? "and then the chart"
T send-keys -t ui 1
wait_screen 'Throughput Gbit/s \(receiver\)' 50
ok $? "1 goes back to the live view"

T resize-window -t ui -x 50 -y 12
wait_screen 'Terminal too small' 20
ok $? "at 50x12 the screen says it is too small"
T resize-window -t ui -x 120 -y 40
wait_screen 'Controls' 20 && wait_screen 'Throughput' 20
ok $? "back at 120x40 the layout returns"

T send-keys -t ui e
wait_screen "wrote [0-9]+ runs? to $tmp/session.json" 20
ok $? "e exports the session"
jq_true "$tmp/session.json" '.format == "nio-top-run" and (.runs | length) >= 2 and
	all(.runs[]; .bytes_received == .bytes_sent)'
ok $? "the export holds the finished runs, bytes equal"
# Runs ended by a control change: the last partial tick is an interval too,
# so the measured intervals add up to measured_s (to a microsecond).
jq_true "$tmp/session.json" 'all(.runs[]; . as $r | [.intervals[].t_s] as $t |
	[range(0; $t | length) | select($r.intervals[.].warmup | not) |
	 $t[.] - (if . == 0 then 0 else $t[. - 1] end)] | add // 0 |
	. - $r.measured_s | fabs < 1e-6)'
ok $? "every explorer run: its measured intervals add up to measured_s"

T send-keys -t ui q
wait_exit
ok $? "q quits"
[ "$(cat "$tmp/exit")" = 0 ]
ok $? "exit status 0 after q (got $(cat "$tmp/exit"))"
stty_sane
ok $? "the terminal is sane after q (stty -a)"
T kill-server
wait_until net_is "$before"
ok $? "no namespace or link left after q"

for sig in INT SEGV; do
	start "${utf8[@]}" --
	wait_screen 'Throughput .*Gbit/s' 30
	shell=$(T display -p -t ui '#{pane_pid}')
	if [ $sig = INT ]; then
		T send-keys -t ui C-c
	else
		kill -$sig "$(pgrep -P "$shell" -x nio-top)"
	fi
	wait_exit
	want=$((128 + $(kill -l $sig)))
	[ "$(cat "$tmp/exit" 2>/dev/null)" = $want ]
	ok $? "SIG$sig ends it with status $want (got $(cat "$tmp/exit" 2>/dev/null))"
	stty_sane
	ok $? "the terminal is sane after SIG$sig"
	T kill-server
done

# With the zero-copy receive where the kernel has it: its share live, below
# the gauges and in the data path, which follows the receive side.
rx=()
"$NIO_TOP" --check | grep -Eq '^zc-receive +yes' && rx=(--rx zerocopy)
start "${utf8[@]}" -- -s zero-copy "${rx[@]}"
# The gauges' column, its lines joined: the line may wrap.
zc_line() {
	screen | sed -n 's/^.*││ *\(.*[^ ]\) *│$/\1/p' | tr '\n' ' ' |
		grep -qE 'Zero-copy so far: the kernel copied [0-9.]+(-[0-9]+)?% of [0-9]+ sends \((each flagged|[0-9]+ flags, one per range of sends)\)'
}
wait_screen 'Zero-copy so far: the kernel copied' 30 && wait_until zc_line
ok $? "zero-copy shows the kernel's copied share"
if [ ${#rx[@]} = 2 ]; then
	wait_screen 'Receive so far: [0-9]+% of the bytes read in mapped' 50
	ok $? "--rx zerocopy: the gauges' foot shows the mapped share"
	T send-keys -t ui x
	wait_screen 'Data path of zero-copy, rx zerocopy' 50 &&
		wait_screen 'no copy +TCP_ZEROCOPY_RECEIVE' 50 &&
		wait_screen 'Live, --rx zerocopy: [0-9]+%' 50
	ok $? "--rx zerocopy: the data path maps at the receiver, with the live share"
	T send-keys -t ui Escape
else
	ok 0 "# SKIP TCP_ZEROCOPY_RECEIVE is unavailable here"
	ok 0 "# SKIP TCP_ZEROCOPY_RECEIVE is unavailable here"
fi
shell=$(T display -p -t ui '#{pane_pid}')
pid=$(pgrep -P "$shell" -x nio-top)
kill -TERM "$pid"
wait_exit
[ "$(cat "$tmp/exit" 2>/dev/null)" = 143 ]
ok $? "SIGTERM ends it with status 143"
stty_sane
ok $? "the terminal is sane after SIGTERM"
T kill-server
wait_until net_is "$before"
ok $? "no namespace or link left after SIGTERM"

# Runs of 20 s: long enough that a loaded machine's screen shows one run
# counting down (the test quits during the first).
start "${utf8[@]}" -- -s one-copy,two-copy -d 20
wait_screen 'Throughput .*Gbit/s' 30
wait_screen 'sweep [12]/2' 30
ok $? "two strategies given: a sweep runs, with its progress ($(screen | head -1 | cut -c30-110))"
# The time left counts down through a run, not only between runs.
left_s() { screen | head -1 | grep -oE '[0-9]+:[0-9]{2} left' | awk -F'[: ]' '{ print $1 * 60 + $2 }'; }
run_now() { screen | head -1 | grep -oE 'run [0-9]+:'; }
wait_screen '[0-9]+:[0-9]{2} left'
first=$(left_s) run=$(run_now)
counted_down() {
	second=$(left_s)
	[ -n "$first" ] && [ -n "$second" ] && [ "$second" -lt "$first" ]
}
wait_until counted_down && [ "$(run_now)" = "$run" ]
ok $? "the time left counts down within a run ($first s, then $second s, $run)"
quit_asks 'A sweep runs(: q again quits, other keys go on| and 1 run is not saved: q quits)' \
	"q during a sweep asks first" "any other key goes on"
T send-keys -t ui q q
wait_exit && [ "$(cat "$tmp/exit")" = 0 ]
ok $? "q twice quits"
T kill-server

# A checkpoint of -o that fails (its folder went away) is said on the
# status line at once, not only at quit.
mkdir "$tmp/cp"
start "${utf8[@]}" -- -s one-copy -d 1 -o "$tmp/cp/r.json"
wait_screen 'Throughput .*Gbit/s' 30
rm -rf "$tmp/cp"
wait_screen 'checkpoint of -o failed: .*cp/r.json' 40
ok $? "a failed checkpoint shows on the status line at once"
T send-keys -t ui q
wait_exit
T kill-server

# Request/response: the Mode control, the round-trip line, the header.
start "${utf8[@]}" -- -s one-copy -m 4K
wait_screen 'Throughput .*Gbit/s' 30
T send-keys -t ui Tab Tab Tab Right
wait_screen 'Mode .* rr ' 20 && wait_screen 'Round trip so far, us: p50.{1,2}[0-9.]+ .* p99.{1,2}[0-9.]+' 40
ok $? "Mode -> rr: the round trip p50 .. p99.9 shows live"
wait_screen 'run [0-9]+: one-copy 4 KiB x1 rr, '
ok $? "the header says the run is rr"

# Presets: S saves the controls to the user's folder; p lists the presets,
# the saved one too, and Enter loads one.
T send-keys -t ui S
wait_screen 'Save the controls as preset: saved-one-copy-4K-x1-rr_' 20
T send-keys -t ui Enter
wait_screen 'saved the controls as preset saved-one-copy-4K-x1-rr \(p lists it' 20
saved=$(ls "$tmp"/config.*/nio-top/presets/saved-one-copy-4K-x1-rr.json 2>/dev/null | head -1)
[ -n "$saved" ] && jq_true "$saved" '.format == "nio-top-preset" and .mode == "rr" and .strategies == ["one-copy"] and .msg_sizes == [4096]' &&
	"$NIO_TOP" -p "$saved" --list-strategies >/dev/null 2>&1
ok $? "S writes a preset of the controls that -p loads"
T send-keys -t ui p
wait_screen 'Presets \(Enter loads' 20 && wait_screen 'pa02' &&
	wait_screen 'zerocopy-crossover' && wait_screen '│ saved-'
ok $? "p lists the shipped presets and the one saved"
# Eight presets: PgDn goes to the last, four up is quick, the fourth.
T send-keys -t ui NPage Up Up Up Up Enter
wait_screen 'preset quick: ([0-9]+ of 7, run [0-9]+|7 runs)' 20 && wait_screen 'sweep [0-9]/7' 20
ok $? "PgDn, Up x3 and Enter load the chosen preset (quick) and run its grid as a sweep"
T send-keys -t ui q q
wait_exit
T kill-server

# With --no-config S saves to the folder nio-top started in, and says it
# by its whole path, and that the preset list does not read it.
start "${utf8[@]}" -- -s one-copy -m 4K --no-config
wait_screen 'Throughput .*Gbit/s' 30
T send-keys -t ui S
wait_screen 'Save the controls as preset: saved-one-copy-4K-x1_' 20
T send-keys -t ui Enter
wait_screen 'saved the controls as preset saved-one-copy-4K-x1, a file' 20 &&
	wait_screen 'preset list \(p\) does not read' &&
	wait_screen "nio-top -p( |$)" && wait_screen " $tmp/saved-one-copy-4K-x1.json" &&
	[ -s "$tmp/saved-one-copy-4K-x1.json" ]
ok $? "--no-config: S says where it saved by the whole path, and how to start with it"
T send-keys -t ui q q
wait_exit
T kill-server

# A saved export opens without running anything: runs, analysis.
"$NIO_TOP" --batch -s one-copy,two-copy -m 1K,64K -d 0.2 -w 0 \
	-o "$tmp/saved.json" >/dev/null 2>&1
loaded_before=$(net_snapshot)
start "${utf8[@]}" -- --load "$tmp/saved.json" --min-measured 0
wait_screen 'loaded export, 4 runs' 30
ok $? "--load shows the export's runs"
T send-keys -t ui 5
wait_screen 'Analysis: a verdict needs its 90% interval' 20 && wait_screen 'stream, 1 flow: one-copy'
ok $? "the analysis view shows the crossovers"
T send-keys -t ui Right
wait_screen 'nothing runs here' 50 && [ "$(net_snapshot)" = "$loaded_before" ]
ok $? "a loaded export runs nothing and makes no namespace"
T send-keys -t ui q
wait_exit && [ "$(cat "$tmp/exit")" = 0 ]
ok $? "q leaves the loaded export with status 0"
T kill-server

start LANG=C.UTF-8 TERM= --
wait_exit
screen | grep -q 'TERM is not set'
ok $? "TERM empty: a clear message"
[ "$(cat "$tmp/exit")" = 1 ]
ok $? "TERM empty: exit status 1"
T kill-server

start TERM=dumb --
wait_exit
screen | grep -q "'dumb' cannot move the cursor"
ok $? "TERM=dumb: a clear message"
T kill-server

# q on a shaped link: the run's flows cannot drain the megabytes queued at
# 200 kbit/s, so the quit waits a second for them, not the stop's 15.
start "${utf8[@]}" -- --no-config -s one-copy -m 64K --rate 200K
wait_screen 'run 1: one-copy' 100
ok $? "a continuous run over a 200 kbit/s link starts"
sleep 2
quit_from=$(date +%s%N)
T send-keys -t ui q
wait_until exited_or_shows 'q quits' && exited || T send-keys -t ui q
wait_exit
ms=$((($(date +%s%N) - quit_from) / 1000000))
[ "$(cat "$tmp/exit" 2>/dev/null)" = 0 ] && [ $ms -lt 10000 ]
ok $? "q quits it in $ms ms, not after the flows' 15 s (exit $(cat "$tmp/exit" 2>/dev/null))"
T kill-server

mkdir "$tmp/themes"
cp "$themes/default.theme" "$tmp/themes/"
printf '# broken\ntheme[main_fg]="#12345"\n' >"$tmp/themes/bad.theme"
start TERM=xterm-256color NIO_TOP_THEMES="$tmp/themes" -- --theme bad
wait_exit
screen | grep -q 'bad.theme: line 2: not a colour .*: main_fg'
ok $? "a bad theme names its line and key"
T kill-server
# A theme that is a FIFO is refused at once: nothing waits for a writer.
mkfifo "$tmp/themes/fifo.theme"
from=$(date +%s%N)
start TERM=xterm-256color NIO_TOP_THEMES="$tmp/themes" -- --theme fifo
wait_exit
ms=$((($(date +%s%N) - from) / 1000000))
[ "$(cat "$tmp/exit")" = 1 ] && screen | grep -q 'fifo.theme: not a regular file'
ok $? "a theme that is a FIFO: an error in $ms ms, not a wait for a writer, exit 1"
T kill-server
[ "$(net_snapshot)" = "$before" ]
ok $? "nothing left behind by the failed starts"

done_testing
