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
jq_true "$out" '.environment.links | .senders.name == "nio0" and .receivers.name == "nio1" and .senders.mtu == 1500 and .senders.qdisc == "noqueue" and .senders.features.tso and .senders.features.sg and .senders.gso_ipv4_max_size > 0 and .senders.tso_max_size > 0'
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
# One busy loop beside the run: host_load sees it at the rate its own
# /proc/PID/stat gives, within 0.15 CPU and what every other process took
# (this kernel charges a softirq tick to the task it interrupted but to the
# softirq column of /proc/stat, so nio-top's veth delivery must not be
# taken off twice).  Too busy a machine to tell is said, not failed.
ticks() {
	python3 - "$@" <<'PY'
import os, sys
skip, total = set(sys.argv[1:]), 0
for pid in os.listdir("/proc"):
    if not pid.isdigit() or pid in skip:
        continue
    try:
        stat = open("/proc/%s/stat" % pid).read()
    except OSError:
        continue
    fields = stat[stat.rindex(")") + 2:].split()
    total += int(fields[11]) + int(fields[12])
print(total)
PY
}
hz=$(getconf CLK_TCK)
sh -c 'while :; do :; done' &
hog=$!
"$NIO_TOP" --batch -s one-copy -m 16K -d 3 -w 0.5 --no-profile \
	-o "$tmp/hog.json" >/dev/null 2>&1 &
batch=$!
t0=$(date +%s%N)
hog0=$(awk '{print $14 + $15}' /proc/$hog/stat)
others0=$(ticks "$hog" "$batch" $$)
wait $batch
t1=$(date +%s%N)
hog1=$(awk '{print $14 + $15}' /proc/$hog/stat)
others1=$(ticks "$hog" "$batch" $$)
kill $hog
wait $hog 2>/dev/null
read -r hog_cpus others_cpus outside < <(awk -v h0="$hog0" -v h1="$hog1" \
	-v o0="$others0" -v o1="$others1" -v hz="$hz" -v t0="$t0" -v t1="$t1" \
	-v out="$(jq .runs[0].host_load.outside_cpus "$tmp/hog.json")" \
	'BEGIN { s = (t1 - t0) / 1e9; printf "%.2f %.2f %.2f\n", (h1 - h0) / hz / s, (o1 - o0) / hz / s, out }')
awk -v h="$hog_cpus" -v out="$outside" 'BEGIN { exit !(out >= h - 0.15) }'
ok $? "a busy loop of $hog_cpus CPUs is not read low: outside_cpus $outside"
# Processes that come and go within the run escape the scan: a loop that
# got under half a CPU says they were there.
if awk -v h="$hog_cpus" -v o="$others_cpus" 'BEGIN { exit !(o > 0.3 || h < 0.5) }'; then
	skip_one "nor high" "the loop got $hog_cpus CPUs, other processes $others_cpus: too busy to tell"
else
	awk -v h="$hog_cpus" -v o="$others_cpus" -v out="$outside" \
		'BEGIN { exit !(out <= h + 0.15 + o) }'
	ok $? "nor high: within 0.15 CPU and the $others_cpus CPUs other processes took"
fi

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
