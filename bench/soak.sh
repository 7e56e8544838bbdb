#!/bin/bash
# Soak: the explorer in tmux (120x40, 10 Hz) for SECONDS, a control change
# every 2 s (strategy, size, threads, mode, and back), each one ending a run
# and starting the next.  Once per cycle of changes (16 s) it records
# nio-top's resident memory, open descriptors and threads; at the end it compares the first minute with
# the last.  Flat means: fds and threads equal, RSS within what the kept runs
# themselves explain (each finished run stays in the session, with its
# intervals) plus 2 MiB.  Needs root, tmux.
#
# With "long", one continuous run instead, no key pressed until the end
# (shaped to 1 Gbit/s, so that the machine stays usable): its intervals
# older than five minutes are merged (timeline.h), so RSS stops growing once
# the last five minutes are held, and the run's export stays within the
# timeline's bound however long it ran.
#
#   bench/soak.sh [BUILD_DIR] [SECONDS] [long]
set -eu
build=${1:-build}
seconds=${2:-600}
mode=${3:-changes}
nio_top=$(realpath "$build/nio-top")
. "$(dirname "$(realpath "$0")")/lib.sh"
sock="$tmp/tmux.sock"
bench_cleanup='tmux -S "$sock" kill-server 2>/dev/null'
T() { tmux -S "$sock" "$@"; }
args=
[ "$mode" = long ] && args="-s one-copy -m 64K --rate 1G"

T -f /dev/null new-session -d -s soak -x 120 -y 40 \
	"cd $tmp; env TERM=xterm-256color LANG=C.UTF-8 $nio_top -o $tmp/soak.json $args; sleep 3600"
shell=$(T display -p -t soak '#{pane_pid}')
pid=
while [ -z "$pid" ]; do
	pid=$(pgrep -P "$shell" -x nio-top || true)
	sleep 0.1
done

# One control change per step, in a cycle that comes back where it began.
steps=("Right" "Down Right" "Down Right" "Down Right" "Left" "Up Left" "Up Left" "Up")

sample() {
	local rss fds threads
	rss=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status")
	threads=$(awk '/^Threads/ {print $2}' "/proc/$pid/status")
	fds=$(ls "/proc/$pid/fd" | wc -l)
	printf '%6s %10s %5s %8s\n' "$1" "$rss" "$fds" "$threads" | tee -a "$tmp/samples"
}

printf '%6s %10s %5s %8s\n' "t s" "RSS KiB" fds threads
sleep 2
start=$(date +%s)
if [ "$mode" = long ]; then
	while :; do
		now=$(($(date +%s) - start))
		[ $now -ge "$seconds" ] && break
		sample "$now"
		sleep 30
	done
	sample "$(($(date +%s) - start))"
	T send-keys -t soak q
	while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
	# RSS once the last five minutes are held, against the end.
	held=$(awk '$1 >= 330 {print $2; exit}' "$tmp/samples")
	end_rss=$(tail -1 "$tmp/samples" | awk '{print $2}')
	echo
	echo "one run of $seconds s: RSS $(head -1 "$tmp/samples" | awk '{print $2}') KiB at start, ${held:-?} KiB at 5.5 min, $end_rss KiB at the end"
	jq -r '.runs[-1] | "its export: \(.intervals | length) intervals, " +
		"\([.intervals[] | select(.length_s < 0.15)] | length) of 100 ms, " +
		"the oldest merged to \([.intervals[].length_s] | max) s"' \
		"$tmp/soak.json"
	echo "export: $(stat -c %s "$tmp/soak.json") bytes"
	exit 0
fi
step=0
while :; do
	now=$(($(date +%s) - start))
	[ $now -ge "$seconds" ] && break
	# Once a cycle, at the same place in it: the same configuration runs.
	[ $((step % ${#steps[@]})) = 0 ] && sample "$now"
	# shellcheck disable=SC2086
	T send-keys -t soak ${steps[$((step % ${#steps[@]}))]}
	step=$((step + 1))
	sleep 2
done
T send-keys -t soak q
while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
runs=$(jq '.runs | length' "$tmp/soak.json")
per_run=$(($(stat -c %s "$tmp/soak.json") / (runs > 0 ? runs : 1)))

# First minute against last minute (medians).
first=$(awk '$1 < 60' "$tmp/samples")
last=$(awk -v end="$seconds" '$1 >= end - 60' "$tmp/samples")
f_rss=$(awk '{print $2}' <<<"$first" | median)
l_rss=$(awk '{print $2}' <<<"$last" | median)
f_fds=$(awk '{print $3}' <<<"$first" | median)
l_fds=$(awk '{print $3}' <<<"$last" | median)
f_thr=$(awk '{print $4}' <<<"$first" | median)
l_thr=$(awk '{print $4}' <<<"$last" | median)
echo
echo "$step control changes, $runs runs kept (export: $per_run bytes per run)"
echo "RSS KiB first minute $f_rss, last minute $l_rss ($((l_rss - f_rss)) KiB more)"
echo "fds first minute $f_fds, last minute $l_fds; threads $f_thr, $l_thr"
allow=$((runs * per_run / 1024 + 2048))
if [ "$f_fds" = "$l_fds" ] && [ "$f_thr" = "$l_thr" ] && [ $((l_rss - f_rss)) -le $allow ]; then
	echo "flat (RSS growth within the kept runs' $((runs * per_run / 1024)) KiB + 2 MiB)"
else
	echo "NOT flat (allowed RSS growth $allow KiB)"
fi
