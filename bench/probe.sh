#!/bin/bash
# What the probe (--probe) costs the load it measures, and whether what it
# measures agrees with an independent ping-pong.  Needs root and jq
# (sockperf for the second part, else it is skipped with a note).
#
#   bench/probe.sh [BUILD_DIR] [PAIRS] [SECONDS] [RATE]
#                                         (default build 20 3 1000)
#
# cost: PAIRS interleaved pairs of one-copy 64K runs, one flow, SECONDS
#   measured after a 0.5 s warm-up, without and with --probe RATE (in
#   alternating order, so both see the same machine): the load's Gbit/s
#   with the probe over without, each pair's ratio; the table gives their
#   median and range against the target (at least 0.85 of without).
# agreement: PAIRS interleaved pairs of the same load, one with the probe
#   (its p50 beside the load, from the export) and one beside which
#   `sockperf ping-pong --tcp --full-rtt -m 64` runs over the same veth,
#   from the receivers' namespace to the senders' (as the probe goes), in
#   the load's measured window: nio-top's p50 over sockperf's, within a
#   factor of 2.  sockperf's ping-pong is not isochronous (it sends once it
#   has the answer): a load that stalls it shows in fewer round trips, not
#   in more late ones.  So the same pairs are run once more with sockperf
#   paced to the probe's rate (--mps RATE), as the probe is: each request
#   then finds both ends asleep, as each of the probe's does.
#
# Per-pair figures go to stderr.  Both parts run with --no-profile, alike
# on both sides of a pair.  At PAIRS 1 and SECONDS 1 it is a smoke test of
# the script, not a measurement.
set -eu
build=${1:-build}
pairs=${2:-20}
seconds=${3:-3}
rate=${4:-1000}
nio_top=$(realpath "$build/nio-top")
. "$(dirname "$(realpath "$0")")/lib.sh"
command -v jq >/dev/null || { echo "bench/probe.sh needs jq" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "bench/probe.sh needs root" >&2; exit 1; }

ns=niobp$$
sockperf_pid=
nio_pid=
bench_cleanup='[ -n "$sockperf_pid" ] && kill $sockperf_pid 2>/dev/null; [ -n "$nio_pid" ] && kill $nio_pid 2>/dev/null; wait 2>/dev/null'

# load FILE [OPTIONS...]: one-copy 64K x1 with OPTIONS, its export in FILE.
load() {
	local file=$1
	shift
	"$nio_top" --batch -s one-copy -m 64K -t 1 -d "$seconds" -w 0.5 \
		--no-profile --min-measured 0 -o "$file" "$@" >/dev/null 2>&1
	jq -e '.runs[0].error == null' "$file" >/dev/null
}

gbps() {
	jq '.runs[0].gbps' "$1"
}

# pair A B: A then B on odd rounds, B then A on even ones.
pair() {
	if [ $((round % 2)) = 1 ]; then
		"$1"
		"$2"
	else
		"$2"
		"$1"
	fi
}

# The cost.
off() { load "$tmp/off.json"; }
on() { load "$tmp/on.json" --probe "$rate"; }
for round in $(seq "$pairs"); do
	pair off on
	r=$(ratio "$(gbps "$tmp/on.json")" "$(gbps "$tmp/off.json")")
	echo "$r" >>"$tmp/cost"
	printf 'round %s: %.3f Gbit/s without the probe, %.3f with it (%s), its p50 %.1f us, %s late of %s\n' \
		"$round" "$(gbps "$tmp/off.json")" "$(gbps "$tmp/on.json")" "$r" \
		"$(jq '.runs[0].probe.loaded.p50' "$tmp/on.json")" \
		"$(jq '.runs[0].probe.loaded.late' "$tmp/on.json")" \
		"$(jq '.runs[0].probe.loaded.sent' "$tmp/on.json")" >&2
done

# sockperf_beside FILE [SOCKPERF-OPTIONS...]: the load without a probe,
# sockperf's ping-pong p50 (round trips, us) in its measured window into
# FILE.p50.
sockperf_beside() {
	local file=$1 stream=$tmp/stream.jsonl
	shift
	rm -f "$stream"
	"$nio_top" --batch -s one-copy -m 64K -t 1 -d $((seconds + 2)) \
		-w 0.5 --no-profile --min-measured 0 --keep-netns "$ns" \
		--json-stream "$stream" -o "$file" >/dev/null 2>&1 &
	nio_pid=$!
	for _ in $(seq 300); do
		jq -e -s 'any(.[]; .event == "interval" and .data.warmup == false)' \
			"$stream" >/dev/null 2>&1 && break
		sleep 0.1
	done
	ip netns exec "$ns-srv" sockperf server --tcp -i 198.18.0.1 \
		-p 11111 >/dev/null 2>&1 &
	sockperf_pid=$!
	sleep 0.3
	ip netns exec "$ns-cli" sockperf ping-pong --tcp --full-rtt \
		-i 198.18.0.1 -p 11111 -m 64 -t $((seconds > 1 ? seconds - 1 : 1)) \
		"$@" 2>&1 | sed -n 's/.*percentile 50.000 = *\([0-9.]*\).*/\1/p' \
		>"$file.p50"
	kill "$sockperf_pid" 2>/dev/null || true
	wait "$sockperf_pid" 2>/dev/null || true
	sockperf_pid=
	wait "$nio_pid"
	nio_pid=
}

probed() { load "$tmp/probed.json" --probe "$rate"; }
beside() { sockperf_beside "$tmp/beside.json" "${paced[@]}"; }

# agree FILE [SOCKPERF-OPTIONS...]: PAIRS interleaved pairs of the probe
# beside the load and sockperf (with the options) beside it, the ratios of
# their p50s in FILE.
agree() {
	local file=$1 x y
	shift
	paced=("$@")
	for round in $(seq "$pairs"); do
		pair probed beside
		x=$(jq '.runs[0].probe.loaded.p50' "$tmp/probed.json")
		y=$(cat "$tmp/beside.json.p50")
		[ -n "$y" ] || { echo "round $round: sockperf said no p50" >&2; continue; }
		echo "$(ratio "$x" "$y")" >>"$file"
		printf 'round %s%s: the probe p50 %.1f us beside %.3f Gbit/s, sockperf p50 %.1f us beside %.3f Gbit/s\n' \
			"$round" "${paced[*]:+ (sockperf ${paced[*]})}" "$x" \
			"$(gbps "$tmp/probed.json")" "$y" \
			"$(gbps "$tmp/beside.json")" >&2
	done
}

agreement=
if command -v sockperf >/dev/null; then
	agree "$tmp/agree"
	agree "$tmp/agree-paced" --mps "$rate"
	agreement=yes
fi

# row NAME FILE TARGET-TEST TARGET-WORDS
row() {
	local m lo hi
	m=$(median <"$2")
	lo=$(sort -g "$2" | head -1)
	hi=$(sort -g "$2" | tail -1)
	printf '| %-36s | %7.3f | %5.3f .. %5.3f | %-8s | %-7s |\n' "$1" "$m" \
		"$lo" "$hi" "$4" \
		"$(awk -v m="$m" "BEGIN { print ($3) ? \"met\" : \"NOT met\" }")"
}

printf '| %-36s | %7s | %-14s | %-8s | %-7s |\n' measure median range target verdict
printf '|%s|%s|%s|%s|%s|\n' "--------------------------------------" \
	"---------" "----------------" "----------" "---------"
row "one-copy 64K, probe $rate/s on / off" "$tmp/cost" "m >= 0.85" ">= 0.85"
if [ -n "$agreement" ] && [ -s "$tmp/agree" ]; then
	row "probe p50 / sockperf p50, loaded" "$tmp/agree" \
		"m >= 0.5 && m <= 2" "0.5 .. 2"
	[ -s "$tmp/agree-paced" ] &&
		row "the same, sockperf at $rate/s" "$tmp/agree-paced" \
			"m >= 0.5 && m <= 2" "0.5 .. 2"
else
	echo "(sockperf not found: the agreement rows are skipped)"
fi
echo "$pairs pairs of ${seconds} s runs, $(date -u +%F), $(uname -r), $(nproc) CPUs"
