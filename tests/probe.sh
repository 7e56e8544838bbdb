#!/bin/bash
# --probe: a request/response flow of its own beside each stream run.  Its
# round trips are counted alone and under the load (count > 0, percentiles
# in order, late sends counted and said), its counts agree on both ends
# (sent = answered = timed), its connection is its own (the load's bytes
# received = sent), a later run with the same probe reuses the figures
# alone, and it reaches every file (the export read back by --load, the
# CSV, the SVG, the JSON stream) and the screen (the gauge line at 80x24,
# the runs table's column at 120x40).  --load-rate paces the load.  Only
# structure and invariants: no measured ratio is asserted, the machine is
# shared.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq tmux
. "$(dirname "$0")/tmux.sh"

before=$(net_snapshot)
out="$tmp/probe.json"
"$NIO_TOP" --batch -s one-copy,zero-copy -m 64K -d 1 -w 0.2 --probe 1000 \
	--min-measured 0 -o "$out" --csv "$tmp/probe.csv" \
	--svg "$tmp/probe.svg" --json-stream "$tmp/stream.jsonl" \
	>"$tmp/table" 2>"$tmp/err"
ok $? "a batch of two runs with --probe 1000 exits 0" || diag "$tmp/err"
jq_true "$out" '[.runs[] | .error == null] | length == 2 and all'
ok $? "both runs ended cleanly ($(jq -c '[.runs[].error]' "$out"))"
jq_true "$out" '[.runs[].probe | .rate_hz == 1000 and .size == 64 and (.idle | type) == "object" and (.loaded | type) == "object"] | all'
ok $? "every run has probe.idle and probe.loaded"
for w in idle loaded; do
	jq_true "$out" "[.runs[].probe.$w | .round_trips > 0 and .p50 > 0 and .p50 <= .p90 and .p90 <= .p99 and .p99 <= .p99_9 and .p99_9 <= .max and .mean <= .max] | all"
	ok $? "$w: round trips counted, 0 < p50 <= p90 <= p99 <= p99.9 <= max ($(jq -c "[.runs[].probe.$w | [.round_trips, .p50, .p99, .max]]" "$out"))"
	jq_true "$out" "[.runs[].probe.$w | (.late | type) == \"number\" and .late <= .sent and .round_trips <= .sent + 1000 and .measured_s > 0 and .per_minute > 0] | all"
	ok $? "$w: late sends counted, no more than sent"
	# The schedule: no more slots than the window holds, and slots a late
	# requester passed are counted, not lost (half, on a busy machine).
	jq_true "$out" "[.runs[].probe.$w | (.sent + .skipped) as \$slots | \$slots <= 1000 * .measured_s * 1.05 + 2 and \$slots >= 1000 * .measured_s * 0.5] | all"
	ok $? "$w: sent and skipped slots fit the rate ($(jq -c "[.runs[].probe.$w | [.sent, .skipped, .measured_s]]" "$out"))"
done
jq_true "$out" '[.runs[].probe | .sent > 0 and .sent == .answered and .answered == .round_trips] | all'
ok $? "requests sent = answered = round trips timed, on both ends ($(jq -c '[.runs[].probe | [.sent, .answered, .round_trips]]' "$out"))"
jq_true "$out" '[.runs[] | .bytes_sent == .bytes_received and .messages_sent == .messages_received and .bytes_received > 0] | all'
ok $? "the load's bytes received = sent: the probe's connection is its own"
jq_true "$out" '[.runs[] | .bytes_received == .messages_received * 65536] | all'
ok $? "the load counts its own messages only (bytes = messages x 64 KiB)"
jq_true "$out" '.runs[0].probe.idle_reused == false and .runs[1].probe.idle_reused == true and .runs[0].probe.idle == .runs[1].probe.idle'
ok $? "the second run reuses the first's probe alone (same key)"
grep -q 'probe 1000/s x 64 B: alone p50' "$tmp/table" &&
	grep -q 'under the load p50 .* late' "$tmp/table"
ok $? "batch says each run's probe, alone and loaded, with late sends"
grep -q "after .* s of the probe alone" "$tmp/err"
ok $? "batch's progress says the probe runs alone first"
jq_true "$out" '.analysis.probe | length == 2 and (.[1].versus.strategy == "one-copy") and (.[0].text | test("beside one-copy the probe.s p99 is"))'
ok $? "the analysis holds each point's probe against alone and one-copy"

# --load reads back what it wrote, and writes it again the same.
"$NIO_TOP" --load "$out" --batch -o "$tmp/again.json" >"$tmp/loaded" 2>&1
ok $? "--load of the export exits 0" || diag "$tmp/loaded"
[ "$(jq -c '[.runs[].probe]' "$out")" = "$(jq -c '[.runs[].probe]' "$tmp/again.json")" ]
ok $? "--load keeps every run's probe as written"
grep -q 'probe 1000/s' "$tmp/loaded"
ok $? "a loaded export's table says its probe"

head -1 "$tmp/probe.csv" | tr , '\n' >"$tmp/columns"
col=$(grep -nx probe_loaded_p99_us "$tmp/columns" | cut -d: -f1)
rate=$(grep -nx probe_rate_hz "$tmp/columns" | cut -d: -f1)
[ -n "$col" ] && [ -n "$rate" ] &&
	awk -F, -v c="$col" -v r="$rate" 'NR > 1 && !($c > 0 && $r == 1000) { bad = 1 } END { exit bad || NR != 3 }' "$tmp/probe.csv"
ok $? "the CSV has the probe's rate and loaded p99 for each run"
grep -q 'id="figure-probe"' "$tmp/probe.svg"
ok $? "the SVG has the probe's figure"
if command -v python3 >/dev/null; then
	python3 "$NIO_TOP_SOURCE/tests/svglayout.py" "$tmp/probe.svg" >"$tmp/layout"
	ok $? "svglayout: the probe's figure drawn as its legend says, inside the page" ||
		diag "$tmp/layout"
else
	skip_one "svglayout" "needs python3"
fi
jq -s '[.[] | select(.event == "interval" and .data.warmup == false) | .data.probe.round_trips] | length > 0 and all(. >= 0) and (max > 0)' \
	"$tmp/stream.jsonl" >"$tmp/streamed" 2>&1
[ "$(cat "$tmp/streamed")" = true ]
ok $? "the JSON stream's intervals carry the probe under the load"

# Without --probe: no probe anywhere.
"$NIO_TOP" --batch -s one-copy -m 64K -d 0.3 -w 0 --min-measured 0 \
	-o "$tmp/none.json" >"$tmp/none" 2>&1
jq_true "$tmp/none.json" '.runs[0].probe == null and (.analysis.probe | length) == 0' &&
	! grep -q 'probe' "$tmp/none"
ok $? "without --probe a run has none (null) and says none"

# Refused before anything runs, naming the option.
refused() {
	local want=$1 out rc
	shift
	out=$("$NIO_TOP" --batch -s one-copy -d 0.1 "$@" 2>&1)
	rc=$?
	[ $rc = 2 ] && [[ "$out" == *"$want"* ]]
	ok $? "$* refused, exit 2 (rc $rc: $(head -1 <<<"$out"))"
}
refused "over two hosts (--connect)" --probe 1000 --connect 192.0.2.1
refused "--probe-cpu other needs --pin" --probe 1000 --probe-cpu other
refused "a probe of 8 bytes" --probe 1000,8
refused "is not RATE[,SIZE]" --probe 100001

# Where its threads go: beside the first flow, or on a CPU --pin leaves.
cpus=$(nproc)
if [ "$cpus" -ge 2 ]; then
	"$NIO_TOP" --batch -s one-copy -m 16K -d 0.3 -w 0 --min-measured 0 \
		--pin 0,1 --probe 500 -o "$tmp/same.json" >/dev/null 2>&1
	jq_true "$tmp/same.json" '.runs[0].error == null and .runs[0].probe.requester_cpu == 1 and .runs[0].probe.answerer_cpu == 0'
	ok $? "--probe-cpu same: requester beside the receiver (1), answerer beside the sender (0)"
	"$NIO_TOP" --batch -s one-copy -m 16K -d 0.3 -w 0 --min-measured 0 \
		--pin 0 --probe 500 --probe-cpu other -o "$tmp/other.json" \
		>/dev/null 2>&1
	jq_true "$tmp/other.json" '.runs[0].error == null and .runs[0].probe.requester_cpu > 0 and .runs[0].probe.answerer_cpu > 0'
	ok $? "--probe-cpu other: off the load's CPU 0 ($(jq -c '.runs[0].probe | [.requester_cpu, .answerer_cpu]' "$tmp/other.json"))"
else
	skip_one "--probe-cpu same and other" "one CPU"
	skip_one "--probe-cpu other" "one CPU"
fi

# --load-rate: each sender paced at its share, recorded as set.
"$NIO_TOP" --batch -s one-copy -m 64K -t 2 -d 0.5 -w 0.1 --min-measured 0 \
	--load-rate 400 -o "$tmp/paced.json" >"$tmp/paced" 2>&1
jq_true "$tmp/paced.json" '.runs[0].error == null and .runs[0].load_rate_mbps == 400 and .runs[0].socket.sender.max_pacing_rate == 25000000 and .runs[0].gbps < 0.8'
ok $? "--load-rate 400 over 2 flows: 25 MB/s a sender, held under it ($(jq -c '.runs[0] | [.gbps, .socket.sender.max_pacing_rate]' "$tmp/paced.json"))"
grep -q 'paced 400M' "$tmp/paced"
ok $? "a paced run's row says its pace"

# The screen: the gauge line at 80x24, the runs table's column at 120x40.
size=80x24
start -- -s one-copy -m 64K -d 1 -w 0.2 --probe 1000
wait_screen 'Probe alone|the probe alone' 300
ok $? "80x24: the probe alone before the load is on screen"
# At 80 columns the line may wrap, never between a figure and its name.
wait_screen 'Probe p50/p99 us: alone.{1,2}[0-9.k]+/[0-9.k]+,' 300 &&
	wait_screen 'loaded.{1,2}[0-9.k]+/[0-9.k]+' 300
ok $? "80x24: the gauge line shows the probe alone and loaded" ||
	screen | comment
T kill-server
size=120x40
start -- -s one-copy -m 64K -d 1 -w 0.2 --probe 1000
wait_screen 'run 1 finished: .* probe.s p99' 300
ok $? "120x40: the finished run says the probe's p99" ||
	screen | comment
screen | grep -q 'probe p99' &&
	screen | grep -Eq 'under the load.{1,2}[0-9.k]+/[0-9.k]+ \([0-9]+ round'
ok $? "120x40: the runs table's probe p99 column and the gauge line" ||
	screen | comment
T kill-server

[ "$(net_snapshot)" = "$before" ]
ok $? "no namespace or link left behind"
[ -z "$(ours nio-top)" ]
ok $? "no nio-top left running"
done_testing
