#!/bin/bash
# What the explorer's screen costs.  Each round runs the same one-copy run
# (64K, one flow) twice, interleaved: once in the TUI (tmux, 120x40, 10 Hz)
# and once with --batch.  It reports
#   - the main thread's CPU (utime + stime from /proc) as a share of one core,
#     in each mode: the main thread samples the run in both, and draws only
#     in the TUI, so the difference is the UI's own cost (target <= 2%);
#   - the throughput ratio TUI / batch.
# Needs root, tmux and jq.
#
#   bench/ui-cost.sh [BUILD_DIR] [ROUNDS] [SECONDS]
set -eu
build=${1:-build}
rounds=${2:-5}
seconds=${3:-6} # at least 2
nio_top=$(realpath "$build/nio-top")
. "$(dirname "$(realpath "$0")")/lib.sh"
sock="$tmp/tmux.sock"
bench_cleanup='tmux -S "$sock" kill-server 2>/dev/null'
hz=$(getconf CLK_TCK)

# The main thread's CPU ticks (utime + stime) of process $1.
ticks() {
	awk '{print $14 + $15}' "/proc/$1/task/$1/stat"
}

# main_cpu PID: the main thread's share of one core over the measured run,
# from the end of the warm-up to a second before the run's end.
main_cpu() {
	local pid=$1 t0 t1 window=$((seconds - 1))
	sleep 0.6
	t0=$(ticks "$pid")
	sleep "$window"
	t1=$(ticks "$pid")
	awk -v d=$((t1 - t0)) -v hz="$hz" -v s="$window" 'BEGIN {printf "%.2f", 100 * d / hz / s}'
}

run_tui() {
	rm -f "$tmp/tui.json"
	tmux -S "$sock" -f /dev/null new-session -d -s b -x 120 -y 40 \
		"env TERM=xterm-256color LANG=C.UTF-8 $nio_top -s one-copy -m 64K -t 1 -d $seconds -w 0.5 -o $tmp/tui.json; sleep 60"
	local shell pid=
	shell=$(tmux -S "$sock" display -p -t b '#{pane_pid}')
	while [ -z "$pid" ]; do
		pid=$(pgrep -P "$shell" -x nio-top || true)
	done
	tui_cpu=$(main_cpu "$pid")
	sleep 1
	tmux -S "$sock" send-keys -t b q
	while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
	tmux -S "$sock" kill-server
	tui_gbps=$(jq .runs[0].gbps "$tmp/tui.json")
}

run_batch() {
	"$nio_top" --batch -s one-copy -m 64K -t 1 -d "$seconds" -w 0.5 \
		-o "$tmp/batch.json" >/dev/null 2>&1 &
	local pid=$!
	batch_cpu=$(main_cpu "$pid")
	wait "$pid"
	batch_gbps=$(jq .runs[0].gbps "$tmp/batch.json")
}

printf '%5s %12s %12s %10s %10s %8s\n' round "TUI main %" "batch main %" "TUI Gb/s" "batch Gb/s" ratio
: >"$tmp/ui"
: >"$tmp/ratio"
for round in $(seq "$rounds"); do
	if [ $((round % 2)) = 1 ]; then run_tui; run_batch; else run_batch; run_tui; fi
	r=$(ratio "$tui_gbps" "$batch_gbps")
	echo "$r" >>"$tmp/ratio"
	awk -v a="$tui_cpu" -v b="$batch_cpu" 'BEGIN {print a - b}' >>"$tmp/ui"
	printf '%5s %12s %12s %10.2f %10.2f %8s\n' "$round" "$tui_cpu" "$batch_cpu" "$tui_gbps" "$batch_gbps" "$r"
done
echo "median UI cost (TUI main - batch main): $(median <"$tmp/ui") % of one core (target <= 2)"
echo "median throughput TUI / batch: $(median <"$tmp/ratio")"
