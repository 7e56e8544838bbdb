#!/bin/bash
# The export is written atomically: a file appears whole or not at all, no
# temporary file is left, an existing file is replaced only by a complete
# one, and a path that cannot be written is an error naming it.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq

run() {
	"$NIO_TOP" --batch -s one-copy -m 4K -d 0.2 -w 0 "$@" >/dev/null
}

mkdir "$tmp/out"
run -o "$tmp/out/r.json" 2>/dev/null
ok $? "an export to a new file succeeds"
jq -e . "$tmp/out/r.json" >/dev/null 2>&1
ok $? "the file is valid JSON"
[ "$(ls -A "$tmp/out")" = r.json ]
ok $? "no temporary file is left beside it"
jq_true "$tmp/out/r.json" '(.runs[0].bytes_sent | tostring | test("^[0-9]+$"))'
ok $? "64-bit counters are written as integers"
jq_true "$tmp/out/r.json" '.host.cpus > 0 and (.host.kernel | length) > 0 and .tool.name == "nio-top"'
ok $? "host and tool are filled in"

echo '{"old": true}' >"$tmp/out/r.json"
run -o "$tmp/out/r.json" 2>/dev/null
jq_true "$tmp/out/r.json" '.format == "nio-top-run"'
ok $? "an existing file is replaced by the new export"

err=$(run -o "$tmp/missing/dir/r.json" 2>&1)
rc=$?
[ $rc = 1 ] && [[ "$err" == *"$tmp/missing/dir/r.json"* ]]
ok $? "an unwritable path exits 1 naming it (got $rc: ${err##*$'\n'})"
[ ! -e "$tmp/missing" ]
ok $? "and creates nothing"

# A folder is never replaced: refused, and nothing is left beside it.
mkdir "$tmp/out/taken"
err=$(run -o "$tmp/out/taken" 2>&1)
rc=$?
[ $rc = 1 ] && [[ "$err" == *"taken: a folder"* ]]
ok $? "a folder exits 1 and says so (got $rc: ${err##*$'\n'})"
[ "$(ls -A "$tmp/out" | sort | tr '\n' ' ')" = "r.json taken " ] &&
	[ -z "$(ls -A "$tmp/out/taken")" ]
ok $? "and leaves no temporary file behind"

# Output paths are tried before anything runs: a study never runs for
# nothing.
start=$(date +%s%N)
err=$(run -d 30 -o "$tmp/missing/r.json" 2>&1)
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
[ $rc = 1 ] && [[ "$err" == *"-o $tmp/missing/r.json: cannot create a file in its folder: No such file or directory"* ]] &&
	[[ "$err" != *ETA* ]] && [ "$ms" -lt 10000 ]
ok $? "an unwritable -o fails before any run (rc $rc, ${ms} ms: ${err##*$'\n'})"
err=$(run -d 30 --csv "$tmp/out/a.csv" --svg "$tmp/out/taken" 2>&1)
[ $? = 1 ] && [[ "$err" == *"--svg $tmp/out/taken: a folder"* && "$err" != *ETA* ]] &&
	[ ! -e "$tmp/out/a.csv" ]
ok $? "a folder as --svg fails before any run, and --csv is not written"
for pair in "-o $tmp/out/same --csv $tmp/out/same" \
	"--csv $tmp/out/same --svg $tmp/out/../out/same" \
	"-o $tmp/out/r.json --svg $tmp/out/r-link.json"; do
	ln -sf r.json "$tmp/out/r-link.json"
	# shellcheck disable=SC2086
	err=$(run -d 30 $pair 2>&1)
	rc=$?
	[ $rc = 2 ] && [[ "$err" == *"name the same file"* && "$err" != *ETA* ]] &&
		[ ! -e "$tmp/out/same" ]
	ok $? "the same file twice ($pair): exit 2 before any run (rc $rc)"
done
rm -f "$tmp/out/r-link.json"

# A checkpoint that fails (the folder went away after the start) is said at
# once, before the next run starts, not only at the end.
mkdir "$tmp/gone"
"$NIO_TOP" --batch -s one-copy,two-copy -m 4K -d 0.5 -w 0 \
	-o "$tmp/gone/r.json" >/dev/null 2>"$tmp/gone.err" &
study=$!
wait_for_line 'ETA' 300 "$tmp/gone.err"
rm -rf "$tmp/gone"
wait $study
rc=$?
grep -q "the checkpoint of -o failed: $tmp/gone/r.json: cannot create a file in its folder" "$tmp/gone.err" &&
	sed -n '/checkpoint of -o failed/,$p' "$tmp/gone.err" | grep -q '2/2' &&
	[ $rc = 1 ]
ok $? "a failed checkpoint is said at once, before the next run (rc $rc)"

# kill -9 while an export is being written leaves nothing behind.  A big
# export (a real run's, its runs repeated) takes long enough to write that
# the kill lands in the middle: the writer is stopped once it holds the
# unnamed temporary file open, and killed if it still does.  A loaded
# machine may look too late (the file renamed, and removed here): it tries
# again, up to 15 times, for three kills mid-write.
jq '.runs = [range(600) as $i | .runs[0]]' "$tmp/out/r.json" >"$tmp/big.json"
mkdir "$tmp/kill"
holding() { ls -l /proc/$writer/fd 2>/dev/null | grep -q "$tmp/kill/#"; }
landed=0 tries=0 left=
while [ $landed -lt 3 ] && [ $tries -lt 15 ]; do
	tries=$((tries + 1))
	"$NIO_TOP" --batch --load "$tmp/big.json" -o "$tmp/kill/r.json" \
		>/dev/null 2>&1 &
	writer=$!
	while kill -0 $writer 2>/dev/null && ! holding; do
		sleep 0.01
	done
	kill -STOP $writer 2>/dev/null
	if holding; then
		landed=$((landed + 1))
		kill -9 $writer 2>/dev/null
		wait $writer 2>/dev/null
		left="$left$(ls -A "$tmp/kill")"
	else
		kill -9 $writer 2>/dev/null
		wait $writer 2>/dev/null
		find "$tmp/kill" -mindepth 1 -delete
	fi
done
if [ $landed -lt 3 ] && [ -z "$left" ]; then
	skip_one "kill -9 while writing: no file left behind" \
		"$landed of $tries kills landed mid-write on this busy machine"
else
	[ $landed -ge 3 ] && [ -z "$left" ]
	ok $? "kill -9 while writing ($landed of $tries mid-write): no file left behind${left:+ ($left)}"
fi
# SIGTERM while a large export loads for --batch: it ends at once (the
# default action: nothing is made yet), not once the file is read.
# Sent once the file's text is in (its size in memory): mid-load.
jq '.runs = [range(3000) as $i | .runs[0]]' "$tmp/out/r.json" >"$tmp/huge.json"
"$NIO_TOP" --batch --load "$tmp/huge.json" -o "$tmp/term.json" >/dev/null 2>&1 &
loader=$!
huge_kib=$(($(stat -c %s "$tmp/huge.json") / 1024))
for _ in $(seq 3000); do
	rss=$(awk '/^VmRSS/ {print $2}' /proc/$loader/status 2>/dev/null)
	[ "${rss:-0}" -ge $huge_kib ] && break
	sleep 0.01
done
term_from=$(date +%s%N)
kill -TERM $loader
wait $loader
rc=$?
ms=$((($(date +%s%N) - term_from) / 1000000))
[ $rc = 143 ] && [ $ms -lt 1000 ] && [ ! -e "$tmp/term.json" ]
ok $? "SIGTERM while --load reads a large export: exit $rc in $ms ms, nothing written"

# A long export is read a run at a time (jsonlist.h): each run as the
# whole file holds it, and an error inside one said as for the whole file,
# at its line and column in the file.
jq '.runs = [range(300) as $i | .runs[0]]' "$tmp/out/r.json" >"$tmp/long.json"
"$NIO_TOP" --batch --load "$tmp/long.json" -o "$tmp/long-again.json" \
	>/dev/null 2>&1
jq -e --slurpfile a "$tmp/long.json" '(.runs | length) == 300 and
	([.runs[] | del(.run)] == [$a[0].runs[] | del(.run)])' \
	"$tmp/long-again.json" >/dev/null
ok $? "300 runs loaded one at a time are the file's 300 runs"
line=$(grep -n '"gbps"' "$tmp/long.json" | sed -n 250p | cut -d: -f1)
sed "${line}s/\"gbps\": /\"gbps\": ,/" "$tmp/long.json" >"$tmp/long-bad.json"
"$NIO_TOP" --batch --load "$tmp/long-bad.json" >/dev/null 2>"$tmp/long.err"
rc=$?
[ $rc = 1 ] && grep -q "long-bad.json:$line:[0-9]*: runs\[[0-9]*\]\..*gbps: not valid JSON" "$tmp/long.err"
ok $? "a syntax error in a late run names the file's line $line and the run's key" || diag "$tmp/long.err"
sed "${line}s/\"gbps\"/\"msgs_per_s\"/" "$tmp/long.json" >"$tmp/long-dup.json"
"$NIO_TOP" --batch --load "$tmp/long-dup.json" >/dev/null 2>"$tmp/long.err"
grep -q "long-dup.json: runs\[[0-9]*\]\..*msgs_per_s: the key appears twice" "$tmp/long.err"
ok $? "a key twice in a late run is named" || diag "$tmp/long.err"
sed 's/"runs"/"ru\\u006es"/' "$tmp/long.json" >"$tmp/long-escaped.json"
"$NIO_TOP" --batch --load "$tmp/long-escaped.json" -o "$tmp/long-escaped-again.json" \
	>/dev/null 2>&1 &&
	[ "$(jq '.runs | length' "$tmp/long-escaped-again.json")" = 300 ]
ok $? "\"ru\\u006es\" is the key runs all the same: 300 runs"

# A name a killed writer had for a moment (between naming its file and the
# rename) is removed by the next write of the same file.
sh -c 'exit 0' &
dead=$!
wait $dead
echo partial >"$tmp/kill/.r.json.$dead.0"
echo other >"$tmp/kill/.other.json.$dead.0"
run -o "$tmp/kill/r.json" 2>/dev/null &&
	[ "$(ls -A "$tmp/kill" | sort | tr '\n' ' ')" = ".other.json.$dead.0 r.json " ]
ok $? "a killed writer's temporary name is cleared by the next write, nothing else"

# -p of an export bigger than a preset may be (1 MiB): it replays.
jq '.runs = [range(160) as $i | .runs[0]]' "$tmp/out/r.json" >"$tmp/replay.json"
size=$(stat -c %s "$tmp/replay.json")
"$NIO_TOP" --batch -p "$tmp/replay.json" -o "$tmp/replayed.json" \
	>/dev/null 2>"$tmp/replay.err"
rc=$?
[ $rc = 0 ] && [ "$size" -gt 1100000 ] &&
	jq_true "$tmp/replayed.json" '(.runs | length) == 1 and .runs[0].strategy == "one-copy" and .runs[0].bytes_received > 0'
ok $? "-p of a $size-byte export replays its run (rc $rc: $(head -1 "$tmp/replay.err"))"

# An export written before the layers were split (nio-top 0.1.0, protocol
# version 1) still loads, its 64-bit counts exact.
old=${NIO_TOP_SOURCE:?}/tests/fuzz/corpus/export/stream.json
"$NIO_TOP" --batch --load "$old" -o "$tmp/again.json" >/dev/null 2>&1 &&
	[ "$(jq '.runs[0].bytes_sent' "$old")" = "$(jq '.runs[0].bytes_sent' "$tmp/again.json")" ] &&
	[ "$(jq '.runs[0].sender.counters["task-clock"].value' "$old")" = \
		"$(jq '.runs[0].sender.counters["task-clock"].value' "$tmp/again.json")" ]
ok $? "an export from before the layers loads; counts come back as saved"

# Figures from runs the session's options do not describe (as an explorer's
# are): runs of 1 s in two rounds and of 2 s in one, in one export.  Each
# footer says what the runs drawn were, not what the session started with.
"$NIO_TOP" --batch -s one-copy,two-copy -m 4K -d 1 -w 0.2 --repeat 2 \
	-o "$tmp/one-s.json" >/dev/null 2>&1 &&
	"$NIO_TOP" --batch -s one-copy,two-copy -m 4K -d 2 -w 0.5 \
		-o "$tmp/two-s.json" >/dev/null 2>&1 &&
	jq '.runs += $two' --argjson two "$(jq .runs "$tmp/two-s.json")" \
		"$tmp/one-s.json" >"$tmp/mixed.json"
"$NIO_TOP" --batch --load "$tmp/mixed.json" --svg "$tmp/mixed.svg" \
	-o "$tmp/mixed-again.json" >/dev/null 2>&1
footer=$(grep -o 'stream over veth: [^<]*' "$tmp/mixed.svg" | head -1)
[[ "$footer" == *"6 runs of 1.0-2.0 s measured after 0.2-0.5 s warm-up, repeat 3,"* ]]
ok $? "the SVG's footer names both lengths, both warm-ups and the repeats: $footer"
jq_true "$tmp/mixed-again.json" '.analysis.analysed | .measured_s.min < 1.5 and .measured_s.max > 1.5 and .runs_per_point.max == 3'
ok $? "and the export's analysis says the same: $(jq -r .analysis.analysed.text "$tmp/mixed-again.json")"

# Where each side's time went comes back as it was written; a file whose
# reasons do not hold its time off the CPU is refused, naming where.
jq_true "$tmp/two-s.json" '[.runs[].time | .sender, .receiver | .window_s > 0 and (.reasons | length) >= 8] | all'
ok $? "each run's sender and receiver have their time, every reason in it"
"$NIO_TOP" --batch --load "$tmp/two-s.json" -o "$tmp/two-s-again.json" \
	>/dev/null 2>&1 &&
	[ "$(jq -cS '[.runs[].time]' "$tmp/two-s.json")" = \
		"$(jq -cS '[.runs[].time]' "$tmp/two-s-again.json")" ]
ok $? "--load reads each side's time back as written"
jq '.runs[0].time.receiver.reasons.data.seconds += 1' "$tmp/two-s.json" \
	>"$tmp/two-s-bad.json"
"$NIO_TOP" --batch --load "$tmp/two-s-bad.json" >/dev/null 2>"$tmp/bad.err"
[ $? = 1 ] && grep -q 'runs\[0\].time.receiver.reasons: they hold' "$tmp/bad.err"
ok $? "reasons that do not add up to the time off the CPU are refused: $(head -1 "$tmp/bad.err")"
jq 'del(.preset)' "$tmp/two-s.json" >"$tmp/no-preset.json"
"$NIO_TOP" --batch --load "$tmp/no-preset.json" >/dev/null 2>"$tmp/bad.err"
[ $? = 1 ] && grep -q 'no-preset.json: preset: missing' "$tmp/bad.err"
ok $? "an export without its preset is refused, the key named missing: $(head -1 "$tmp/bad.err")"

done_testing
