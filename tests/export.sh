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

# An export written before the layers were split (nio-top 0.1.0, protocol
# version 1) still loads, its 64-bit counts exact.
old=${NIO_TOP_SOURCE:?}/tests/fuzz/corpus/export/stream.json
"$NIO_TOP" --batch --load "$old" -o "$tmp/again.json" >/dev/null 2>&1 &&
	[ "$(jq '.runs[0].bytes_sent' "$old")" = "$(jq '.runs[0].bytes_sent' "$tmp/again.json")" ] &&
	[ "$(jq '.runs[0].sender.counters["task-clock"].value' "$old")" = \
		"$(jq '.runs[0].sender.counters["task-clock"].value' "$tmp/again.json")" ]
ok $? "an export from before the layers loads; counts come back as saved"

done_testing
