#!/bin/bash
# A whole study, end to end: the course grid (pa02) in batch with every
# report -- 48 runs with equal bytes, an analysis, a CSV of 48 rows, an SVG
# that parses as SVG with a panel per thread count -- then the export replayed
# as a preset (same config), and loaded back without running (64-bit counts
# exact, and a bad export named).
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq python3

before=$(net_snapshot)
cd "$tmp" || exit 1
"$NIO_TOP" --batch -p pa02 -d 0.3 -w 0.1 -o r.json --csv r.csv --svg r.svg \
	>table 2>err
ok $? "pa02 -d 0.3 -w 0.1 with -o, --csv, --svg exits 0"
jq_true r.json '(.runs | length) == 48'
ok $? "48 runs exported ($(jq '.runs | length' r.json))"
jq_true r.json '[.runs[] | .bytes_sent == .bytes_received and .messages_sent == .messages_received and .bytes_sent > 0 and .error == null] | all'
ok $? "every run: bytes and messages equal on both sides"
jq_true r.json '(.analysis.points | length) == 48 and (.analysis.crossovers | length) == 12'
ok $? "analysis: 48 points, 3 comparisons x 4 thread counts"
jq_true r.json '[.analysis.crossovers[] | (.verdict == "from" and .msg_size != null) or (.verdict != "from" and .msg_size == null)] | all'
ok $? "every crossover has a verdict and a size only when it is 'from'"
jq_true r.json '.analysis.zerocopy | test("copied")'
ok $? "the analysis says why zero-copy fared so: $(jq -r .analysis.zerocopy r.json | cut -c1-60)"
grep -q '^analysis' table && [ "$(grep -c '^  threads ' table)" = 12 ]
ok $? "batch prints the analysis"
grep -q '48/48 ETA' err
ok $? "batch shows progress with an ETA"

rows=$(($(wc -l <r.csv) - 1))
ok $([ "$rows" = 48 ]; echo $?) "the CSV has 48 data rows ($rows)"
header=$(head -1 r.csv)
cols=$(tr ',' '\n' <<<"$header" | wc -l)
awk -F, -v n="$cols" 'NR > 1 && NF != n { bad = 1 } END { exit bad }' r.csv
ok $? "every CSV row has the header's $cols columns"
man=${NIO_TOP_SOURCE:?}/man/nio-top.1
documented=$(sed -n '/^\.Sh CSV/,/^\.Sh/p' "$man" | grep -o 'Li [a-z0-9_ ,]*' |
	sed 's/^Li //' | tr ',' '\n' | tr -d ' ' | grep -v '^$' | paste -sd,)
ok $([ "$documented" = "$header" ]; echo $?) "the CSV columns are the ones nio-top(1) documents"
python3 - r.csv r.json <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
runs = json.load(open(sys.argv[2]))["runs"]
assert all(int(r["bytes_sent"]) == j["bytes_sent"] and r["strategy"] == j["strategy"]
           for r, j in zip(rows, runs))
PY
ok $? "CSV rows match the export's runs"

python3 - r.svg <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == ns + "svg", root.tag
w, h = float(root.get("width")), float(root.get("height"))
lines = root.findall(ns + "polyline")
dots = root.findall(ns + "circle")
assert len(lines) == 12, len(lines)          # 3 strategies x 4 panels
assert len(dots) == 48, len(dots)            # one point per run
for d in dots:
    assert 0 <= float(d.get("cx")) <= w and 0 <= float(d.get("cy")) <= h
titles = [t.text for t in root.iter(ns + "text") if t.text and "flow" in t.text]
assert len(titles) == 4, titles              # a panel per thread count
PY
ok $? "the SVG parses: 4 panels, 12 lines, 48 points inside the canvas"

"$NIO_TOP" --batch -p r.json -s one-copy -m 1K -t 2 -o b.json >/dev/null 2>&1
ok $? "-p r.json replays an export"
jq_true b.json '(.runs | length) == 1 and .runs[0].msg_size == 1024'
ok $? "options given with it still override it"
"$NIO_TOP" --batch -p b.json -o c.json >/dev/null 2>&1
diff <(jq -S .preset b.json) <(jq -S .preset c.json) >/dev/null &&
	diff <(jq -S '.config | del(.topology.setup_ms)' b.json) \
		<(jq -S '.config | del(.topology.setup_ms)' c.json) >/dev/null
ok $? "-o a.json, then -p a.json -o b.json: the same preset and config"

# 2^53 + 1 cannot be a double: it survives only if read and written as text.
sed -e '0,/"bytes_sent":[[:space:]]*[0-9]*/s//"bytes_sent": 9007199254740993/' \
	-e '0,/"bytes_received":[[:space:]]*[0-9]*/s//"bytes_received": 9007199254740993/' \
	r.json >big.json
"$NIO_TOP" --batch --load big.json -o big2.json --csv big2.csv >loaded 2>&1
ok $? "--load reads an export in batch and writes it out again"
[ "$(grep -Ec '"bytes_sent":[[:space:]]*9007199254740993' big2.json)" = 1 ] &&
	grep -q ',9007199254740993,9007199254740993,' big2.csv
ok $? "a count of 2^53+1 survives load and export, to JSON and CSV"
[ "$(grep -c '^[a-z-]* .* [0-9]' loaded)" -ge 48 ] && grep -q '^analysis' loaded
ok $? "--load prints the runs and the analysis"
jq '.runs[3].msg_size = "big"' r.json >bad.json
out=$("$NIO_TOP" --batch --load bad.json 2>&1)
[ $? = 1 ] && [[ "$out" == *"bad.json: runs[3].msg_size: must be a non-negative integer"* ]]
ok $? "a bad export: exit 1 naming the run and the key"

# A viva machine may lack a strategy the export ran: it still opens.
knob=/proc/sys/kernel/io_uring_disabled
if [ -w "$knob" ] && "$NIO_TOP" --list-strategies | grep -q '^uring .*available'; then
	"$NIO_TOP" --batch -s one-copy,uring -m 1K -d 0.1 -w 0 -o u.json \
		>/dev/null 2>&1
	old=$(cat "$knob")
	trap 'echo "$old" >"$knob"; rm -rf "$tmp"' EXIT
	echo 2 >"$knob"
	"$NIO_TOP" --batch --load u.json >u.out 2>&1
	rc=$?
	echo "$old" >"$knob"
	[ $rc = 0 ] && grep -q '^uring ' u.out
	ok $? "--load opens an export of uring runs with io_uring disabled (rc $rc)"
fi

[ "$(net_snapshot)" = "$before" ]
ok $? "no namespace or link left behind"
done_testing
