#!/bin/bash
# nio-top one-copy against iperf3 on the same loopback (one private network
# namespace made for the benchmark), same message size, one flow, runs
# interleaved so both see the same machine state.  Prints each pair and the
# median ratio nio-top / iperf3 per size.  Needs root, iperf3 and jq.
#
#   bench/iperf3-vs-one-copy.sh [BUILD_DIR] [ROUNDS] [SECONDS]
set -eu
build=${1:-build}
rounds=${2:-5}
seconds=${3:-3}
nio_top=$(realpath "$build/nio-top")

if [ "${NIO_TOP_BENCH_INSIDE:-}" != 1 ]; then
	for c in iperf3 jq; do
		command -v $c >/dev/null || { echo "needs $c" >&2; exit 1; }
	done
	exec env NIO_TOP_BENCH_INSIDE=1 unshare -n "$0" "$build" "$rounds" "$seconds"
fi

# From here on we are alone in a fresh namespace: its lo is ours.
ip link set lo up
. "$(dirname "$(realpath "$0")")/lib.sh"
iperf3 -s -p 5202 -D --logfile "$tmp/iperf3.log" -I "$tmp/iperf3.pid"
# The server is gone before the script is.
bench_cleanup='pid=$(cat "$tmp/iperf3.pid"); kill "$pid"; while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done'
sleep 0.3

printf '%-6s %5s %12s %12s %7s\n' size round "iperf3 Gb/s" "nio-top Gb/s" ratio
for size in 16K 64K; do
	: >"$tmp/ratios"
	for round in $(seq "$rounds"); do
		iperf=$(iperf3 -c 127.0.0.1 -p 5202 -l "$size" -t "$seconds" -O 1 -J |
			jq '.end.sum_received.bits_per_second / 1e9')
		"$nio_top" --batch --topology current -s one-copy -m "$size" \
			-t 1 -d "$seconds" -w 1 -o "$tmp/r.json" >/dev/null 2>&1
		nio=$(jq '.runs[0].gbps' "$tmp/r.json")
		ratio=$(ratio "$nio" "$iperf")
		echo "$ratio" >>"$tmp/ratios"
		printf '%-6s %5s %12.2f %12.2f %7s\n' "$size" "$round" "$iperf" "$nio" "$ratio"
	done
	printf '%-6s median ratio nio-top/iperf3: %s\n' "$size" "$(median <"$tmp/ratios")"
done
