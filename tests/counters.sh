#!/bin/bash
# Counters through the real binary: both sides of a -t 2 run carry every
# event with a status; where this machine has no hardware PMU the hardware
# events are not-supported with a reason and no value (never 0), while the
# software ones count; --check says the same in words; --no-counters and
# --events do what they say.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq

out="$tmp/c.json"
"$NIO_TOP" --batch -s one-copy -m 16K -t 2 -d 0.5 -w 0.1 -o "$out" \
	>/dev/null 2>&1
ok $? "a counted -t 2 run exits 0"
for side in sender receiver; do
	jq_true "$out" ".runs[0].$side.counters | keys | length == 8"
	ok $? "$side: all 8 default events reported"
	jq_true "$out" ".runs[0].$side.counters[\"context-switches\"] | .status == \"ok\" and .value > 0"
	ok $? "$side: context-switches ok, $(jq ".runs[0].$side.counters[\"context-switches\"].value" "$out") > 0"
	jq_true "$out" ".runs[0].$side.counters[\"task-clock\"].value > 0 and .runs[0].$side.derived.cpu_pct > 0"
	ok $? "$side: task-clock and CPU use"
	jq_true "$out" ".runs[0].$side.derived.ctx_switches_per_s > 0 and .runs[0].$side.derived.ctx_switches_per_msg > 0"
	ok $? "$side: context switches per second and per message derived"
	jq_true "$out" "[.runs[0].$side.counters[] | select(.status != \"ok\" and .status != \"scaled\" and .status != \"user-only\") | .value == null and (.reason | length) > 0] | all"
	ok $? "$side: every counter that did not count has no value and a reason"
done
jq_true "$out" '[.runs[0].intervals[] | .sender.ctx_switches_per_s != null] | any'
ok $? "intervals carry the derived rates"

if [ "$(jq -r .capabilities.pmu.available "$out")" = false ]; then
	for ev in cycles instructions L1-dcache-load-misses LLC-load-misses; do
		jq_true "$out" "[.runs[0].sender.counters[\"$ev\"], .runs[0].receiver.counters[\"$ev\"]] | all(.status == \"not-supported\" and .value == null and (.reason | test(\"no hardware PMU\")))"
		ok $? "no PMU: $ev is not-supported on both sides, no value, says why"
	done
	jq_true "$out" '.runs[0].sender.derived.ipc == null and .runs[0].sender.derived.cycles_per_byte == null'
	ok $? "no PMU: IPC and cycles per byte are null, not 0"
	jq_true "$out" '.capabilities.pmu.events.cycles == "not-supported" and .capabilities.pmu.events["context-switches"] == "ok" and (.capabilities.pmu.reason | test("no hardware PMU"))'
	ok $? "capabilities.pmu says which events count and why not"
	check=$("$NIO_TOP" --check)
	grep -Eq '^pmu +no +no hardware PMU on this machine' <<<"$check"
	ok $? "--check: no PMU, in words"
	grep -Eq '^event cycles +not-supported +no hardware PMU on this machine' <<<"$check"
	ok $? "--check: cycles not-supported, and why"
	grep -Eq '^event context-switches +ok' <<<"$check"
	ok $? "--check: context-switches ok"
else
	jq_true "$out" '[.runs[0].sender.counters.cycles.status] | inside(["ok", "scaled", "user-only"])'
	ok $? "a PMU: cycles counted on the sender"
fi

"$NIO_TOP" --batch -s one-copy -m 16K -d 0.2 -w 0 --no-counters -o "$out" \
	>/dev/null 2>&1
jq_true "$out" '.runs[0].sender == null and .runs[0].receiver == null and .config.events == []'
ok $? "--no-counters: no counter blocks"

"$NIO_TOP" --batch -s one-copy -m 16K -d 0.2 -w 0 \
	--events task-clock,context-switches -o "$out" >/dev/null 2>&1
jq_true "$out" '(.runs[0].sender.counters | keys) == ["context-switches", "task-clock"] and .config.events == ["task-clock", "context-switches"]'
ok $? "--events replaces the default set"

# Descriptors: a run is checked against ulimit -n before it starts, so no
# counter is ever summed over only the threads that could open it.
err=$(ulimit -n 64 && "$NIO_TOP" --batch -s one-copy -m 16K -t 20 -d 0.2 -w 0 \
	-o "$tmp/t20.json" 2>&1 >/dev/null)
rc=$?
[ $rc = 1 ] && [[ "$err" == *"20 flows need about "*" open files here"*"ulimit -n allows 64: raise it (ulimit -n "* ]] &&
	jq_true "$tmp/t20.json" '(.runs | length) == 0'
ok $? "ulimit -n 64, -t 20: refused before the run, saying what it needs ($(grep -o 'x20: .*' <<<"$err"))"
(ulimit -n 64 && "$NIO_TOP" --batch -s one-copy -m 16K -t 2 -d 0.2 -w 0 \
	-o "$tmp/t2.json" >/dev/null 2>&1)
ok $? "ulimit -n 64, -t 2: fits, and runs"
jq_true "$tmp/t2.json" '.runs[0] | [.sender.counters[], .receiver.counters[]] |
	all(.status != "partial") and
	([.[] | select(.status == "ok")] | length) >= 6'
ok $? "and every counter is whole (none partial)"
(ulimit -S -n 64 && "$NIO_TOP" --batch -s one-copy -m 16K -t 20 -d 0.2 -w 0 \
	-o "$tmp/soft.json" >/dev/null 2>&1)
rc=$?
[ $rc = 0 ] && jq_true "$tmp/soft.json" '.runs[0] |
	.sender.counters["task-clock"].status == "ok" and
	.receiver.counters["task-clock"].status == "ok" and
	.sender.derived.cpu_pct > 0'
ok $? "a soft limit of 64 under a higher hard one: raised, -t 20 counts every thread (rc $rc)"

done_testing
