#!/bin/bash
# The cost of counting: one-copy over veth with the default counters against
# the same run with --no-counters, interleaved, at two sizes.  Prints each
# pair and the median ratio on/off (the target is >= 0.97).  Needs root.
#
#   bench/counters-overhead.sh [BUILD_DIR] [ROUNDS] [SECONDS]
set -eu
build=${1:-build}
rounds=${2:-7}
seconds=${3:-2}
nio_top=$(realpath "$build/nio-top")
. "$(dirname "$(realpath "$0")")/lib.sh"

gbps() {
	"$nio_top" --batch -s one-copy -m "$1" -t 2 -d "$seconds" -w 0.5 \
		-o "$tmp/r.json" "${@:2}" >/dev/null 2>&1
	jq .runs[0].gbps "$tmp/r.json"
}

printf '%-5s %5s %10s %10s %7s\n' size round "on Gb/s" "off Gb/s" ratio
for size in 4K 64K; do
	: >"$tmp/ratios"
	for round in $(seq "$rounds"); do
		if [ $((round % 2)) = 1 ]; then
			on=$(gbps "$size")
			off=$(gbps "$size" --no-counters)
		else
			off=$(gbps "$size" --no-counters)
			on=$(gbps "$size")
		fi
		ratio=$(ratio "$on" "$off")
		echo "$ratio" >>"$tmp/ratios"
		printf '%-5s %5s %10.2f %10.2f %7s\n' "$size" "$round" "$on" "$off" "$ratio"
	done
	printf '%-5s median counters on/off: %s\n' "$size" "$(median <"$tmp/ratios")"
done
