#!/bin/bash
# uring and uring-zc against one-copy over the default veth topology, one
# flow, at 4K and 64K, in interleaved rounds (each round runs the three back
# to back).  Prints each round and the median ratios uring/one-copy and
# uring-zc/one-copy per size.  Needs root.
#
#   bench/uring-vs-one-copy.sh [BUILD_DIR] [ROUNDS] [SECONDS]
set -eu
build=${1:-build}
rounds=${2:-5}
seconds=${3:-2}
nio_top=$(realpath "$build/nio-top")
. "$(dirname "$(realpath "$0")")/lib.sh"

printf '%-5s %5s %10s %10s %10s %8s %8s\n' size round one-copy uring uring-zc u/1c uzc/1c
for size in 4K 64K; do
	: >"$tmp/u"
	: >"$tmp/z"
	for round in $(seq "$rounds"); do
		"$nio_top" --batch -s one-copy,uring,uring-zc -m "$size" -t 1 \
			-d "$seconds" -w 0.5 -o "$tmp/r.json" >/dev/null 2>&1
		read -r one uring zc <<<"$(jq -r '[.runs[].gbps] | map(tostring) | join(" ")' "$tmp/r.json")"
		u=$(ratio "$uring" "$one")
		z=$(ratio "$zc" "$one")
		echo "$u" >>"$tmp/u"
		echo "$z" >>"$tmp/z"
		printf '%-5s %5s %10.2f %10.2f %10.2f %8s %8s\n' "$size" "$round" "$one" "$uring" "$zc" "$u" "$z"
	done
	printf '%-5s median uring/one-copy %s, uring-zc/one-copy %s\n' "$size" \
		"$(median <"$tmp/u")" "$(median <"$tmp/z")"
done
