#!/bin/bash
# The environment in every export: the sysctls that change the path, the
# veth as built, the CPU governor, transparent huge pages, the mitigations
# and the kernel command line; and each run's steal and the CPU that other
# processes took while it measured, which a busy host shows and the
# analysis names.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq

out="$tmp/quiet.json"
"$NIO_TOP" --batch -s one-copy -m 16K -d 1 -w 0.2 -o "$out" >/dev/null \
	2>"$tmp/err"
ok $? "a run to record" || diag "$tmp/err"
rmem=$(cat /proc/sys/net/core/rmem_max)
cc=$(cat /proc/sys/net/ipv4/tcp_congestion_control)
jq_true "$out" '.environment.sysctl | .["net.core.rmem_max"] == "'"$rmem"'" and (.["net.ipv4.tcp_rmem"] | test("^[0-9]+ [0-9]+ [0-9]+$")) and .["net.core.optmem_max"] != null and .["kernel.perf_event_paranoid"] != null and .["net.core.busy_poll"] != null'
ok $? "the sysctls as the kernel has them ($(jq -c '.environment.sysctl | with_entries(select(.key | test("rmem")))' "$out"))"
# A new namespace takes the congestion control of the host's.
jq_true "$out" '.environment.sysctl["net.ipv4.tcp_congestion_control"] | type == "string" and length > 0'
ok $? "the senders' congestion control ($(jq -r '.environment.sysctl["net.ipv4.tcp_congestion_control"]' "$out"), the host's $cc)"
jq_true "$out" '.environment.links | .senders.name == "nio0" and .receivers.name == "nio1" and .senders.mtu == 1500 and .senders.qdisc == "noqueue" and .senders.features.tso and .senders.features.sg and .senders.gso_max_size > 0 and .senders.tso_max_size > 0'
ok $? "the veth as built: names, MTU, qdisc, offloads, sizes ($(jq -c .environment.links.senders "$out"))"
thp=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
jq_true "$out" '.environment.transparent_hugepages == ("'"$thp"'" | if . == "" then null else . end) and .environment.cmdline == "'"$(tr -s ' \n' '  ' </proc/cmdline | sed 's/ $//' | sed 's/"/\\"/g')"'"'
ok $? "transparent huge pages ($thp) and the kernel command line"
n=$(ls /sys/devices/system/cpu/vulnerabilities 2>/dev/null | wc -l)
jq_true "$out" '(.environment.mitigations | length) == '"$n"' and (.environment | has("cpu_governor"))'
ok $? "every CPU vulnerability's mitigation ($n), and the governor ($(jq -c .environment.cpu_governor "$out"))"
jq_true "$out" '.runs[0].host_load | .steal_pct >= 0 and .steal_pct <= 100 and .outside_cpus >= 0 and .irq_cpus >= 0'
ok $? "the run's steal and outside CPU ($(jq -c .runs[0].host_load "$out"))"

# Two CPU hogs beside the run: their CPU is outside nio-top's.
hogs=()
for _ in 1 2; do
	yes >/dev/null &
	hogs+=($!)
done
out="$tmp/busy.json"
"$NIO_TOP" --batch -s one-copy -m 16K -d 1 -w 0.2 -o "$out" >"$tmp/table" \
	2>"$tmp/err"
kill "${hogs[@]}"
wait "${hogs[@]}" 2>/dev/null
jq_true "$out" '.runs[0].host_load.outside_cpus >= 0.5'
ok $? "two yes hogs: at least half a CPU outside nio-top ($(jq -c .runs[0].host_load "$out"))"
jq_true "$out" '.analysis.busy_host | test("^run 1: .*[0-9.]+ CPUs of other processes")'
ok $? "the analysis names the run ($(jq -c .analysis.busy_host "$out"))"
grep -q '^  measured on a busy host: run 1: ' "$tmp/table"
ok $? "and the batch's analysis says so" || diag "$tmp/table"

# Read back and written again, unchanged.
"$NIO_TOP" --load "$out" --batch -o "$tmp/again.json" >/dev/null 2>"$tmp/err"
[ "$(jq -S '[.environment, [.runs[].host_load]]' "$out")" = \
	"$(jq -S '[.environment, [.runs[].host_load]]' "$tmp/again.json")" ]
ok $? "--load keeps the environment and each run's load" || diag "$tmp/err"
jq '.runs[0].host_load.steal_pct = 140' "$out" >"$tmp/bad.json"
"$NIO_TOP" --load "$tmp/bad.json" --batch >/dev/null 2>"$tmp/err"
[ $? != 0 ] && grep -q 'host_load.*steal_pct must be 0 .. 100' "$tmp/err"
ok $? "a steal of 140% is refused, named ($(head -1 "$tmp/err"))"

done_testing
