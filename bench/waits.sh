#!/bin/bash
# What watching every context switch costs, and whether what it says is
# what perf says of the same run.  Needs root and jq; the perf group needs
# perf(1) (Debian's linux-perf) and mounts tracefs if it is not.
#
#   bench/waits.sh [BUILD_DIR] [ROUNDS] [SECONDS] [GROUPS]
#                                   (default build 5 2 "cost perf")
#
# cost: interleaved pairs, odd rounds one way and even the other, of
#   waits on / off        one-copy at 4K, 16K and 64K, one flow, the
#                         default against --no-waits (the profile on in
#                         both): Gbit/s, which leave the sampled intervals
#                         out, within 0.97 .. 1.03
#   sampled / unsampled   the sampled intervals' msg/s against the rest's
#                         (the export's sampling_effect), with the waits
#                         watched and without: what sampling every switch
#                         adds to the cpu-clock profile's own effect
# perf: one run each of one-copy, uring and sendfile at 64K for 4 x SECONDS
#   with perf record -e context-switches -c 1 -g --switch-events -k mono
#   attached, and the ioctl tracepoint marking nio-top's own sampled
#   intervals: perf's switches inside them, classified by the same reason
#   table (bench/waits-perf.py), against the run's export -- each reason's
#   share of each side's wall time, and the time off the CPU against the
#   wall time less the threads' own CPU clocks.
set -eu
build=${1:-build}
rounds=${2:-5}
seconds=${3:-2}
groups=${4:-cost perf}
nio_top=$(realpath "$build/nio-top")
test_metric=$(realpath "$build/tests/test-metric")
bench_dir=$(dirname "$(realpath "$0")")
. "$bench_dir/lib.sh"
command -v jq >/dev/null || { echo "bench/waits.sh needs jq" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "bench/waits.sh needs root" >&2; exit 1; }
has() { case " $groups " in *" $1 "*) return 0 ;; esac; return 1; }

# run SIZE [ARGS]: one-copy, one flow: "Gbit/s sampling_effect".
run() {
	"$nio_top" --batch -s one-copy -m "$1" -d "$seconds" -w 1 \
		-o "$tmp/r.json" "${@:2}" >/dev/null 2>&1
	jq -r '.runs[0] | "\(.gbps) \(.sampling_effect)"' "$tmp/r.json"
}

# A and B in the order of the round: odd rounds A first.
pair() {
	if [ $((round % 2)) = 1 ]; then "$1"; "$2"; else "$2"; "$1"; fi
}

record() { echo "$2" >>"$tmp/$1"; }

# row KEY WHAT [LOW-HIGH]: the median over the rounds, the range, the
# target and whether it is met.
row() {
	local med lo hi verdict=-
	med=$(median <"$tmp/$1")
	lo=$(sort -g "$tmp/$1" | head -1)
	hi=$(sort -g "$tmp/$1" | tail -1)
	[ -z "${3:-}" ] || verdict=$(awk -v m="$med" -v t="$3" 'BEGIN {
		split(t, r, "-"); print (m >= r[1] && m <= r[2]) ? "met" : "NOT met" }')
	printf '| %-38s | %7s | %-15s | %-10s | %-7s |\n' "$2" "$med" \
		"$lo .. $hi" "${3:-}" "$verdict"
}

if has cost; then
	for round in $(seq "$rounds"); do
		for size in 4K 16K 64K; do
			a() { read -r on on_effect <<<"$(run "$size")"; }
			b() { read -r off off_effect <<<"$(run "$size" --no-waits)"; }
			pair a b
			record "waits-$size" "$(ratio "$on" "$off")"
			record "effect-on-$size" "$(awk -v e="$on_effect" 'BEGIN { printf "%.3f", 1 + e }')"
			record "effect-off-$size" "$(awk -v e="$off_effect" 'BEGIN { printf "%.3f", 1 + e }')"
			printf 'round %s: %s waits on %.2f (sampled %+.2f), off %.2f Gbit/s (sampled %+.2f)\n' \
				"$round" "$size" "$on" "$on_effect" "$off" "$off_effect" >&2
		done
	done
	echo
	echo "nio-top bench/waits.sh on $(date +%F): Linux $(uname -r), $(nproc) CPUs;" \
		"$rounds rounds of ${seconds} s one-copy runs, one flow"
	echo
	printf '| %-38s | %7s | %-15s | %-10s | %-7s |\n' measure median range target verdict
	echo "|----------------------------------------|---------|-----------------|------------|---------|"
	for size in 4K 16K 64K; do
		row "waits-$size" "waits on / off, $size x1" 0.97-1.03
	done
	for size in 4K 16K 64K; do
		row "effect-on-$size" "sampled / unsampled, waits on, $size"
		row "effect-off-$size" "sampled / unsampled, waits off, $size"
	done
fi

if has perf; then
	command -v perf >/dev/null || { echo "bench/waits.sh: no perf(1): apt-get install linux-perf" >&2; exit 1; }
	[ -d /sys/kernel/tracing/events/syscalls ] ||
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
	"$test_metric" --print-man-reasons >"$tmp/reasons"
	long=$((seconds * 4))
	for s in one-copy uring sendfile; do
		"$nio_top" --batch -s "$s" -m 64K -d "$long" -w 1 \
			-o "$tmp/$s.json" >/dev/null 2>&1 &
		pid=$!
		# perf follows the threads there are: the workers once named.
		until grep -qs nio-rx0 /proc/"$pid"/task/*/comm; do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.05
		done
		perf record -q -e context-switches -c 1 -g --switch-events \
			-k mono -e syscalls:sys_enter_ioctl \
			-p "$pid" -o "$tmp/$s.data" >/dev/null 2>&1 &
		perf_pid=$!
		wait "$pid" || true
		kill -INT "$perf_pid" 2>/dev/null || true
		wait "$perf_pid" || true
		perf script -i "$tmp/$s.data" --show-switch-events \
			-F comm,tid,time,event,ip,sym,trace 2>/dev/null \
			>"$tmp/$s.script" || true
		echo
		echo "$s 64K x1, ${long} s: nio-top's export against perf record's switches in its sampled intervals"
		python3 "$bench_dir/waits-perf.py" "$tmp/reasons" "$tmp/$s.json" \
			"$tmp/$s.script" "$s"
	done
fi
