#!/bin/bash
# --json-stream: JSON lines as the runs go.  A reader on the pipe sees the
# start, each run's intervals arriving while the run goes, each run exactly
# as the export holds it, the analysis and the end, every line valid by
# man/nio-top-stream.schema.json; a reader that stops reading ends nio-top
# cleanly with the export written; one that falls behind holds no run up,
# and q and signals work; a file is written as it goes; a loaded export
# streams its runs again.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq tmux
. "$(dirname "$0")/tmux.sh"
py=
for p in /usr/bin/python3 python3; do
	if "$p" -c 'import jsonschema' 2>/dev/null; then
		py=$p
		break
	fi
done
[ -n "$py" ] || skip_all "needs python3 with jsonschema (python3-jsonschema)"
schema="$NIO_TOP_SOURCE/man/nio-top-stream.schema.json"

# Reads the stream as it comes: each line with the time it arrived, then
# what it saw as JSON (export: the -o file, read once the stream ends).
cat >"$tmp/reader.py" <<'PY'
import json, sys, time, jsonschema
schema = json.load(open(sys.argv[1]))
validator = jsonschema.Draft7Validator(schema)
lines, errors = [], []
for text in sys.stdin:
    line = json.loads(text)
    lines.append((time.time(), line))
    errors += ["%s: %s" % (line.get("event"), e.message[:160])
               for e in validator.iter_errors(line)]
events = [l["event"] for _, l in lines]
runs = {}
for arrived, l in lines:
    if l["event"] == "interval":
        runs.setdefault(l["data"]["run"], []).append(arrived)
export = json.load(open(sys.argv[2])) if len(sys.argv) > 2 else None
streamed = [l["data"] for _, l in lines if l["event"] == "run"]
json.dump({
    "events": events,
    "order": [e for i, e in enumerate(events) if i == 0 or events[i - 1] != e],
    "intervals": {str(k): len(v) for k, v in runs.items()},
    "arrival_spread_s": {str(k): max(v) - min(v) for k, v in runs.items()},
    "runs_equal": export is not None and streamed == export["runs"],
    "analysis_equal": export is not None and
        [l["data"] for _, l in lines if l["event"] == "analysis"] == [export["analysis"]],
    "errors": errors,
    "end": lines[-1][1]["data"] if lines else None,
}, sys.stdout)
PY

out="$tmp/run.json"
"$NIO_TOP" --batch -s one-copy,zero-copy -m 4K -d 2 -w 0.5 \
	--json-stream - -o "$out" 2>"$tmp/err" >"$tmp/lines"
ok $? "a batch with --json-stream - exits 0" || diag "$tmp/err"
# Read again as it comes, through a pipe, with the arrival times.
"$NIO_TOP" --batch -s one-copy,zero-copy -m 4K -d 2 -w 0.5 \
	--json-stream - -o "$tmp/piped.json" 2>"$tmp/err" |
	"$py" "$tmp/reader.py" "$schema" >"$tmp/seen.json"
"$py" "$tmp/reader.py" "$schema" "$out" <"$tmp/lines" >"$tmp/whole.json"
ok $? "the stream and its export read back" || diag "$tmp/err"
jq_true "$tmp/whole.json" '.order == ["start","interval","run","interval","run","analysis","end"]'
ok $? "start, run 1's intervals, run 1, run 2's, run 2, analysis, end ($(jq -c .order "$tmp/whole.json"))"
# As many intervals as the export holds (how many a loaded machine's loop
# ticks is its own), arriving over 1 s and more of each 2.5 s run.
[ "$(jq -c '[.intervals["1"], .intervals["2"]]' "$tmp/seen.json")" = \
	"$(jq -c '[.runs[].intervals | length]' "$tmp/piped.json")" ]
ok $? "each run's intervals, every one its export holds ($(jq -c .intervals "$tmp/seen.json"))"
jq_true "$tmp/seen.json" '.arrival_spread_s["1"] >= 1 and .arrival_spread_s["2"] >= 1'
ok $? "each run's intervals arrive while it runs, over 1 s and more ($(jq -c .arrival_spread_s "$tmp/seen.json"))"
jq_true "$tmp/whole.json" '.runs_equal and .analysis_equal'
ok $? "the run and analysis lines are the export's runs and analysis"
jq_true "$tmp/whole.json" '.errors == []' &&
	jq_true "$tmp/seen.json" '.errors == [] and (.events | length) > 30'
ok $? "every line is valid by the schema ($(jq -c '.errors[:2]' "$tmp/whole.json"))"
jq_true "$tmp/whole.json" '.end == {"runs": 2, "complete": true, "why": null, "dropped": 0}'
ok $? "the end says 2 runs, complete"
! grep -q '^ *[0-9]* one-copy' "$tmp/lines"
ok $? "standard output holds the stream only, not the table"

# A reader that stops reading: nio-top ends at once, the export written.
out="$tmp/head.json"
start=$(date +%s)
"$NIO_TOP" --batch -s one-copy,zero-copy -m 4K -d 5 -w 0.5 \
	--json-stream - -o "$out" 2>"$tmp/err" | head -3 >"$tmp/head"
status=${PIPESTATUS[0]}
took=$(($(date +%s) - start))
[ "$status" = 0 ] || [ "$status" = 141 ]
ok $? "| head -3 ends nio-top with 0 or 141 (status $status)" || diag "$tmp/err"
[ "$took" -lt 10 ]
ok $? "without running the rest of the plan ($took s of 11)"
jq_true "$out" '.format == "nio-top-run" and (.runs | type) == "array"'
ok $? "the export is written, whole" || diag "$tmp/err"
[ "$(wc -l <"$tmp/head")" = 3 ] && [ "$(head -1 "$tmp/head" | jq -r .event)" = start ]
ok $? "the reader got the start and two lines"
grep -q "reader went away" "$tmp/err"
ok $? "nio-top says why it stopped" || diag "$tmp/err"

# A reader that falls behind holds nothing up.  full.py holds the read end
# of a pipe (its standard input) or a FIFO and never reads, and says every
# 0.2 s how many bytes wait in it; wait_full waits until 32 KiB or more
# wait and no more come for 2 s: the pipe is full.
cat >"$tmp/full.py" <<'PY'
import fcntl, os, struct, sys, termios, time
fd = 0 if sys.argv[1] == "-" else os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK)
while True:
    n = struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0" * 4))[0]
    with open(sys.argv[2] + ".new", "w") as f:
        f.write("%d\n" % n)
    os.rename(sys.argv[2] + ".new", sys.argv[2])
    time.sleep(0.2)
PY
wait_full() {
	local n last=-1 same=0
	for _ in $(seq 600); do
		n=$(cat "$1" 2>/dev/null || echo 0)
		if [ "$n" -ge 32768 ] && [ "$n" = "$last" ]; then
			same=$((same + 1))
			[ $same -ge 20 ] && return 0
		else
			same=0
		fi
		last=$n
		sleep 0.1
	done
	return 1
}

# A reader asleep for 22 s beside a 6 s run: the run is measured whole and
# not stopped (the main loop wrote into the full pipe before, and the run
# was "stopped" after 14 s with 5.7 s measured), and the reader, once
# awake, reads every line to the end.
"$NIO_TOP" --batch -s one-copy -m 4K -d 6 -w 0.5 --json-stream - \
	-o "$tmp/asleep.json" 2>"$tmp/err" | { sleep 22; cat; } >"$tmp/asleep"
jq_true "$tmp/asleep.json" '.runs[0] | .error == null and .stopped_s == 0 and .measured_s >= 5.95'
ok $? "a reader asleep for 22 s: the 6 s run is whole and not stopped ($(jq -c '.runs[0] | [.measured_s, .stopped_s, .error]' "$tmp/asleep.json"))" ||
	diag "$tmp/err"
[ "$(tail -1 "$tmp/asleep" | jq -c .data)" = '{"runs":1,"complete":true,"why":null,"dropped":0}' ]
ok $? "and the reader gets every line, to the end ($(tail -1 "$tmp/asleep" | cut -c1-100))"

# A reader that never reads: SIGTERM ends a batch at once.
"$NIO_TOP" --batch -s one-copy -m 4K -d 60 -w 0.5 --json-stream - \
	2>"$tmp/err" | python3 "$tmp/full.py" - "$tmp/waiting" &
reader=$!
wait_full "$tmp/waiting"
ok $? "a batch fills the pipe of a reader that never reads ($(cat "$tmp/waiting") bytes wait)"
nio=$(pgrep -P $$ -x nio-top)
start=$(date +%s%N)
kill -TERM $nio
for _ in $(seq 200); do
	kill -0 $nio 2>/dev/null || break
	sleep 0.1
done
ms=$((($(date +%s%N) - start) / 1000000))
! kill -0 $nio 2>/dev/null && grep -q 'reader fell behind: [0-9]* lines\? dropped' "$tmp/err"
ok $? "SIGTERM ends it at once ($ms ms), saying the reader fell behind" || diag "$tmp/err"
kill $nio "$reader" 2>/dev/null
wait "$reader" 2>/dev/null

# The explorer with a FIFO whose reader never reads: q, and SIGTERM, end it
# at once (it ignored both until the reader was killed).
mkfifo "$tmp/fifo"
for how in q TERM; do
	rm -f "$tmp/waiting"
	python3 "$tmp/full.py" "$tmp/fifo" "$tmp/waiting" &
	reader=$!
	wait_for_line . 200 "$tmp/waiting"
	start "${utf8[@]}" -- --no-config -s one-copy -m 4K --json-stream "$tmp/fifo"
	wait_full "$tmp/waiting"
	ok $? "$how: the explorer fills the FIFO ($(cat "$tmp/waiting") bytes wait)"
	start=$(date +%s%N)
	if [ $how = q ]; then
		T send-keys -t ui q
	else
		kill -TERM "$(ui_pid)"
	fi
	for _ in $(seq 200); do
		[ -s "$tmp/exit" ] && break
		sleep 0.1
	done
	ms=$((($(date +%s%N) - start) / 1000000))
	status=$(cat "$tmp/exit" 2>/dev/null)
	[ "$status" = "$([ $how = q ] && echo 0 || echo 143)" ]
	ok $? "$how ends the explorer at once ($ms ms, status ${status:-none})"
	T kill-server
	kill "$reader"
	wait "$reader" 2>/dev/null
done

# A file, written as it goes.
live="$tmp/live.jsonl"
"$NIO_TOP" --batch -s one-copy -m 16K -d 0.5 -w 0.1 --json-stream "$live" \
	>/dev/null 2>"$tmp/err"
ok $? "--json-stream FILE exits 0" || diag "$tmp/err"
"$py" "$tmp/reader.py" "$schema" <"$live" >"$tmp/file.json"
jq_true "$tmp/file.json" '.errors == [] and .order[0] == "start" and .order[-1] == "end" and (.events | map(select(. == "run")) | length) == 1'
ok $? "the file holds start .. end, valid ($(jq -c .order "$tmp/file.json"))"

# A loaded export streams its runs again.
"$NIO_TOP" --load "$tmp/run.json" --json-stream - 2>"$tmp/err" |
	"$py" "$tmp/reader.py" "$schema" "$tmp/run.json" >"$tmp/load.json"
jq_true "$tmp/load.json" '.order == ["start","run","analysis","end"] and .runs_equal and .errors == []'
ok $? "--load X --json-stream -: start, its runs, analysis, end ($(jq -c .order "$tmp/load.json"))"

# A stream cannot share a file with the export.
"$NIO_TOP" --batch -s one-copy -d 0.2 -o "$tmp/same" --json-stream "$tmp/same" \
	>/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "json-stream" "$tmp/err"
ok $? "-o and --json-stream naming one file are refused"

done_testing
