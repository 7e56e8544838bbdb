#!/bin/bash
# Presets as a user meets them: every shipped preset validates against the
# schema (with an independent validator when python3-jsonschema is there), a
# table of bad presets each exits 2 naming the file and the key path and runs
# nothing, unknown keys warn, and the command line overrides a preset.
. "$(dirname "$0")/lib.sh"
need_cmd jq
presets=${NIO_TOP_SOURCE:?}/presets

# Debian's python3-jsonschema lives in /usr/bin/python3; a python3 earlier
# in PATH may lack it.
validator=
for py in python3 /usr/bin/python3; do
	if "$py" -c 'import jsonschema' 2>/dev/null; then
		validator=$py
		break
	fi
done
if [ -n "$validator" ]; then
	for p in "$presets"/[a-z]*.json; do
		[ "$(basename "$p")" = schema.json ] && continue
		"$validator" - "$presets/schema.json" "$p" <<'PY'
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))
PY
		ok $? "$(basename "$p") validates against schema.json (jsonschema)"
	done
	# And the validator catches what nio-top refuses.
	printf '{"format": "nio-top-preset", "version": 1, "threads": [0]}' \
		>"$tmp/zero.json"
	! "$validator" - "$presets/schema.json" "$tmp/zero.json" 2>/dev/null <<'PY'
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))
PY
	ok $? "the schema refuses threads [0], as nio-top does"
fi
for name in pa02 quick zerocopy-crossover latency uring receive \
	latency-under-load; do
	err=$("$NIO_TOP" -p "$name" --list-strategies 2>&1 >/dev/null)
	[ $? = 0 ] && [ -z "$err" ]
	ok $? "-p $name loads without a word"
done

# bad NAME KEY-PATH-IN-MESSAGE CONTENT: exit 2, the path named, nothing run.
bad() {
	local name=$1 want=$2 file=$tmp/$1.json
	shift 2
	[ $# -gt 0 ] && printf '%s' "$1" >"$file"
	out=$("$NIO_TOP" --batch -p "$file" -d 0.1 2>"$tmp/err")
	rc=$?
	[ $rc = 2 ] && [ -z "$out" ] && grep -qF -- "$file" "$tmp/err" &&
		grep -qF -- "$want" "$tmp/err"
	ok $? "$name: exit 2 naming '$want', nothing run (rc $rc: $(head -1 "$tmp/err"))"
}
head='"format": "nio-top-preset", "version": 1'
bad wrong-type 'threads: must be a list' "{$head, \"threads\": 4}"
bad wrong-item-type 'msg_sizes[1]: must be an integer' "{$head, \"msg_sizes\": [256, true]}"
bad out-of-range 'msg_sizes[2]: must be an integer 64 .. 4194304' "{$head, \"msg_sizes\": [256, \"1K\", 8388608]}"
bad size-text 'msg_sizes[0]:' "{$head, \"msg_sizes\": [\"16Q\"]}"
bad negative 'duration_s: must be a number 0.001 .. 86400' "{$head, \"duration_s\": -1}"
bad nan 'duration_s' "{$head, \"duration_s\": NaN}"
bad huge 'threads[0]: must be an integer 1 .. 64' "{$head, \"threads\": [1e300]}"
bad fraction 'repeat: must be an integer' "{$head, \"repeat\": 1.5}"
bad nested-range 'topology.mtu: must be an integer 68 .. 65535' "{$head, \"topology\": {\"mtu\": 9}}"
bad choice 'mode: must be one of "stream", "rr"' "{$head, \"mode\": \"pingpong\"}"
bad strategy 'strategies: --strategy' "{$head, \"strategies\": [\"five-copy\"]}"
bad duplicate 'mode: the key appears twice' "{$head, \"mode\": \"rr\", \"mode\": \"stream\"}"
bad duplicate-nested 'topology.kind: the key appears twice' "{$head, \"topology\": {\"kind\": \"veth\", \"kind\": \"loopback\"}}"
bad deep 'nested more than 16 deep' "{$head, \"x\": $(printf '[%.0s' $(seq 40))$(printf ']%.0s' $(seq 40))}"
bad truncated 'threads[1]: the file ends early' "{$head, \"threads\": [1, 2"
bad not-json '1:1: (top level): not valid JSON' "nio-top"
bad no-format 'format: missing' '{"version": 1}'
bad wrong-format 'format: must be "nio-top-preset"' '{"format": "btop", "version": 1}'
bad version 'version: 2 is not supported (this nio-top reads version 1)' '{"format": "nio-top-preset", "version": 2}'
bad not-object '(top level): must be an object' '[1, 2]'
printf '{%s}' "$head" >"$tmp/good.json"
ln -s "$tmp/good.json" "$tmp/symlink.json"
bad symlink 'a symbolic link'
mkfifo "$tmp/fifo.json"
bad fifo 'not a regular file'
{
	printf '{%s, "description": "' "$head"
	head -c 2097152 /dev/zero | tr '\0' x
	printf '"}'
} >"$tmp/big.json"
bad big 'bytes, more than the 1048576 allowed'

out=$("$NIO_TOP" -p "$tmp/nope.json" --list-strategies 2>&1)
[ $? = 2 ] && [[ "$out" == *"$tmp/nope.json: No such file"* ]]
ok $? "a missing file: exit 2 naming it"
out=$("$NIO_TOP" -p nope --list-strategies 2>&1)
[ $? = 2 ] && [[ "$out" == *"no preset named 'nope'"* ]]
ok $? "an unknown preset name: exit 2 saying so"

printf '{%s, "colour": "red", "ui": {"font": 1}, "threads": [2]}' "$head" >"$tmp/warn.json"
err=$("$NIO_TOP" -p "$tmp/warn.json" --list-strategies 2>&1 >/dev/null)
[ $? = 0 ] && [[ "$err" == *"warn.json: colour: unknown key, ignored"* ]] &&
	[[ "$err" == *"ui.font: unknown key, ignored"* ]]
ok $? "unknown keys warn, by path, and the preset still loads"

if [ "$(id -u)" = 0 ] && unshare -n true 2>/dev/null; then
	"$NIO_TOP" --batch -p quick -s one-copy -m 4K -d 0.1 -w 0 \
		-o "$tmp/o.json" >/dev/null 2>&1
	jq_true "$tmp/o.json" '(.runs | length) == 1 and .runs[0].strategy == "one-copy" and .runs[0].msg_size == 4096 and .preset.name == "quick" and .preset.duration_s == 0.1'
	ok $? "options override the preset; the export embeds the result"
	printf '{%s, "strategies": ["two-copy"], "msg_sizes": ["2K"], "threads": [2], "mode": "rr", "duration_s": 0.2, "warmup_s": 0, "topology": {"kind": "loopback"}, "events": []}' "$head" >"$tmp/rr.json"
	"$NIO_TOP" --batch -p "$tmp/rr.json" -o "$tmp/rr-out.json" >/dev/null 2>&1
	jq_true "$tmp/rr-out.json" '.runs[0] | .strategy == "two-copy" and .msg_size == 2048 and .threads == 2 and .mode == "rr" and .topology.kind == "loopback" and .sender == null and .latency_us.round_trips > 0'
	ok $? "every preset key takes effect in a real run"
fi
done_testing
