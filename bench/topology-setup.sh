#!/bin/bash
# Setup + teardown of nio-top's veth topology (libnl, from `nio-top --check`)
# against the same topology made with ip(8) commands (two named namespaces, a
# veth pair with its peer in the other namespace, addresses, links up, then
# deleted), interleaved.  Prints each pair and the median ratio ip / nio-top.
# Needs root.
#
#   bench/topology-setup.sh [BUILD_DIR] [ROUNDS]
set -eu
build=${1:-build}
rounds=${2:-20}
nio_top=$(realpath "$build/nio-top")
. "$(dirname "$(realpath "$0")")/lib.sh"
bench_cleanup='ip netns del niobench-srv 2>/dev/null; ip netns del niobench-cli 2>/dev/null'

now_ms() { date +%s.%N; }

ip_topology() {
	ip netns add niobench-srv
	ip netns add niobench-cli
	ip -n niobench-srv link add nio0 type veth peer name nio1 netns niobench-cli
	ip -n niobench-srv addr add 198.18.0.1/30 dev nio0
	ip -n niobench-cli addr add 198.18.0.2/30 dev nio1
	ip -n niobench-srv link set nio0 up
	ip -n niobench-cli link set nio1 up
	ip -n niobench-srv link set lo up
	ip -n niobench-cli link set lo up
	ip -n niobench-srv link del nio0
	ip netns del niobench-srv
	ip netns del niobench-cli
}

printf '%5s %12s %12s %8s\n' round "ip ms" "nio-top ms" ratio
for round in $(seq "$rounds"); do
	start=$(now_ms)
	ip_topology
	ip_ms=$(echo "$start $(now_ms)" | awk '{printf "%.2f", ($2 - $1) * 1000}')
	nio_ms=$("$nio_top" --check | sed -n 's/.*setup \([0-9.]*\) ms, teardown \([0-9.]*\) ms.*/\1 \2/p' |
		awk '{printf "%.2f", $1 + $2}')
	ratio=$(ratio "$ip_ms" "$nio_ms" 1)
	echo "$ratio" >>"$tmp/ratios"
	printf '%5s %12s %12s %8s\n' "$round" "$ip_ms" "$nio_ms" "$ratio"
done
echo "median ratio ip / nio-top (setup + teardown): $(median <"$tmp/ratios")"
