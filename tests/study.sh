#!/bin/bash
# A whole study, end to end: the course study (pa02: stream and rr over its
# grid), shortened, in batch with every report -- 96 runs with equal bytes,
# an analysis by mode whose every verdict says what it rests on (and, with
# one run per point, claims nothing), a CSV of 96 rows, an SVG of the four
# figures and where each side's CPU goes, whose every panel has drawn pixels
# (rendered by rsvg-convert), the
# cache figure saying why where there is no PMU -- then the export replayed
# as a preset (same config), and loaded back without running (64-bit counts
# exact, and a bad export named).
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq python3

before=$(net_snapshot)
cd "$tmp" || exit 1
"$NIO_TOP" --batch -p pa02 -d 0.5 -w 0.1 --repeat 1 --min-measured 0 \
	--profile-hz 4000 -o r.json --csv r.csv --svg r.svg >table 2>err
ok $? "pa02 -d 0.5 -w 0.1 --repeat 1 with -o, --csv, --svg exits 0"
jq_true r.json '(.runs | length) == 96'
ok $? "96 runs exported ($(jq '.runs | length' r.json))"
jq_true r.json '[.runs[] | .bytes_sent == .bytes_received and .messages_sent == .messages_received and .bytes_sent > 0 and .error == null] | all'
ok $? "every run: bytes and messages equal on both sides"
jq_true r.json '[.runs[] | .run] == [range(1; 97)]'
ok $? "the runs are numbered 1 .. 96 in the export"
jq_true r.json '([.runs[] | select(.mode == "rr")] | length) == 48 and ([.runs[] | select(.mode == "stream")] | length) == 48'
ok $? "48 stream and 48 rr runs: pa02 runs both modes"
jq_true r.json '(.analysis.points | length) == 96 and (.analysis.crossovers | length) == 24'
ok $? "analysis: 96 points, 3 comparisons x 4 flow counts x 2 modes"
jq_true r.json '[.analysis.crossovers[] | . as $c | ($c.mode == "stream" or $c.mode == "rr") and ($c.text | startswith(if $c.mode == "rr" then "rr (p50), " else "stream, " end)) and ($c.text | test("[0-9]+ flows?:"))] | all'
ok $? "every crossover carries its mode, and its text names mode and flows"
jq_true r.json '[.analysis.crossovers[] | .verdict == "undecided" and .fewest_runs == 1 and (.text | test("not distinguishable here: 1 run per point, spread [0-9]+%; try --repeat 3"))] | all'
ok $? "one run per point: no verdict, only 'not distinguishable ... try --repeat 3'"
jq_true r.json '[.analysis.crossovers[] | (.verdict == "from" and .msg_size != null) or (.verdict != "from" and .msg_size == null)] | all'
ok $? "every crossover has a size only when it is 'from'"
jq_true r.json '.analysis.zerocopy | test("copied")'
ok $? "the analysis says why zero-copy fared so: $(jq -r .analysis.zerocopy r.json | cut -c1-60)"
grep -q '^analysis' table && [ "$(grep -cE '^  (stream|rr \(p50\)), [0-9]+ flows?: ' table)" = 24 ]
ok $? "batch prints the analysis, a line per mode, flow count and pair"
grep -q '96/96 ETA' err
ok $? "batch shows progress with an ETA"

rows=$(($(wc -l <r.csv) - 1))
ok $([ "$rows" = 96 ]; echo $?) "the CSV has 96 data rows ($rows)"
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
           and int(r["run"]) == j["run"] and r["mode"] == j["mode"]
           for r, j in zip(rows, runs))
PY
ok $? "CSV rows match the export's runs"

# The SVG: the seven figures, each panel where nio-top said it would be.
pmu=$(jq -r '.capabilities.pmu.available' r.json)
python3 - r.svg "$pmu" >figures 2>&1 <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == ns + "svg", root.tag
figures = [g.get("id") for g in root.iter(ns + "g") if (g.get("id") or "").startswith("figure-")]
assert figures == ["figure-throughput", "figure-latency", "figure-caches", "figure-cost", "figure-receive", "figure-profile", "figure-time"], figures
def panels(key):
    return [r for r in root.iter(ns + "rect") if r.get("class") == "panel" and r.get("id").startswith(key + "-panel-")]
def texts(fig):
    g = [g for g in root.iter(ns + "g") if g.get("id") == fig][0]
    return " ".join("".join(t.itertext()) for t in g.iter(ns + "text"))
assert len(panels("throughput")) == 4, "a throughput panel per flow count"
assert len(panels("latency")) == 4, "a round-trip panel per message size"
assert len(panels("cost")) == 4, "a cost panel per flow count"
if sys.argv[2] == "true":
    assert len(panels("caches")) == 4
else:
    assert len(panels("caches")) == 1
    assert "no hardware PMU on " in texts("figure-caches") and ": not measured" in texts("figure-caches")
    assert "task-clock" in texts("figure-cost"), "without cycles, the CPU time"
for fig in figures:
    t = texts(fig)
    for word in ("host ", "Linux ", "CPUs", "nio-top ", "repeat 1", "over veth"):
        assert word in t, (fig, word)
# Where the CPU goes: a panel per flow count, a stacked bar per side of
# every stream point, the roles named in the legend.
prof = [r for r in root.iter(ns + "rect") if r.get("class") == "profile-panel"]
bars = [r for r in root.iter(ns + "rect") if r.get("class") == "role"]
assert len(prof) == 4, "a profile panel per flow count"
assert len(bars) >= 2 * 3 * 4 * 4, ("stacked bars", len(bars))
assert "copy on receive" in texts("figure-profile") and "the TCP/IP stack" in texts("figure-profile")
# Where the time goes: as many panels, each side's time stacked by reason.
waits = [r for r in root.iter(ns + "rect") if r.get("class") == "time-panel"]
parts = [r for r in root.iter(ns + "rect") if r.get("class") == "reason"]
assert len(waits) == 4, "a time panel per flow count"
assert len(parts) >= 2 * 3 * 4 * 4, ("stacked time bars", len(parts))
assert "on the CPU" in texts("figure-time") and "waiting for data" in texts("figure-time")
# The latency panels are against flows 1 .. 8; no rr size is a stream tick.
lat = texts("figure-latency")
assert "256 B messages" in lat and "16 KiB messages" in lat, lat[:200]
print("ok")
PY
ok $? "the SVG holds the seven figures, their panels and footers ($(tail -1 figures))"
if command -v rsvg-convert >/dev/null; then
	rsvg-convert -b white r.svg -o r.png 2>/dev/null
	ok $? "rsvg-convert renders the SVG"
	python3 - r.svg r.png >pixels 2>&1 <<'PY'
import struct, sys, zlib, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
data = open(sys.argv[2], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat = 8, b""
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, colour = struct.unpack(">IIBB", body[:10])
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
assert depth == 8 and colour in (2, 6), (depth, colour)
bpp = 4 if colour == 6 else 3
raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line)
    prev = line
scale = w / float(root.get("width"))
colours = {tuple(int(c[i:i + 2], 16) for i in (1, 3, 5))
           for e in root.iter(ns + "polyline") for c in [e.get("stroke")]}
assert colours, "no series drawn at all"
def count(x0, y0, x1, y1, want):
    n = 0
    for y in range(int(y0 * scale), int(y1 * scale)):
        line = rows[y]
        for x in range(int(x0 * scale), int(x1 * scale)):
            px = tuple(line[x * bpp:x * bpp + 3])
            n += want(px)
    return n
series = lambda px: any(sum(abs(p - q) for p, q in zip(px, c)) < 60 for c in colours)
ink = lambda px: sum(px) < 200
for r in root.iter(ns + "rect"):
    if r.get("class") != "panel":
        continue
    x, y, pw, ph = (float(r.get(k)) for k in ("x", "y", "width", "height"))
    note = [t for t in root.iter(ns + "text") if float(t.get("y", -1)) > y and float(t.get("y", -1)) < y + ph and "not measured" in "".join(t.itertext())]
    if note:
        n = count(x, y, x + pw, y + ph, ink)
        assert n > 200, (r.get("id"), "note", n)
    else:
        # The plot area, left of the axis labels and above the x labels.
        n = count(x + 62, y + 28, x + pw - 14, y + ph - 44, series)
        assert n > 30, (r.get("id"), "series pixels", n)
    print(r.get("id"), n)
# The profile's panels: their bars' colours drawn.
fills = {tuple(int(c[i:i + 2], 16) for i in (1, 3, 5))
         for e in root.iter(ns + "rect") if e.get("class") == "role" for c in [e.get("fill")]}
bar = lambda px: any(sum(abs(p - q) for p, q in zip(px, c)) < 30 for c in fills)
for r in root.iter(ns + "rect"):
    if r.get("class") != "profile-panel":
        continue
    x, y, pw, ph = (float(r.get(k)) for k in ("x", "y", "width", "height"))
    n = count(x + 48, y + 44, x + pw, y + ph - 56, bar)
    assert n > 500, (r.get("id"), "bar pixels", n)
    print(r.get("id"), n)
PY
	ok $? "every figure's panel has drawn pixels ($(wc -l <pixels) panels: $(paste -sd' ' pixels | cut -c1-80))"
else
	echo "ok $((tap_count + 1)) # SKIP rsvg-convert is not installed (librsvg2-bin)"
	echo "ok $((tap_count + 2)) # SKIP rsvg-convert is not installed (librsvg2-bin)"
	tap_count=$((tap_count + 2))
fi

"$NIO_TOP" --batch -p r.json -s one-copy -m 1K -t 2 -o b.json >/dev/null 2>&1
ok $? "-p r.json replays an export"
jq_true b.json '(.runs | length) == 2 and ([.runs[].msg_size] | unique) == [1024] and ([.runs[].mode] == ["stream", "rr"])'
ok $? "options given with it still override it (its two modes stay)"
"$NIO_TOP" --batch -p b.json -o c.json >/dev/null 2>&1
diff <(jq -S .preset b.json) <(jq -S .preset c.json) >/dev/null &&
	diff <(jq -S '.config | del(.topology.setup_ms)' b.json) \
		<(jq -S '.config | del(.topology.setup_ms)' c.json) >/dev/null
ok $? "-o a.json, then -p a.json -o b.json: the same preset and config"

# 2^53 + 1 cannot be a double: it survives only if read and written as text.
# (The bytes sent: more bytes received than the run's Gbit/s could carry
# would be refused, as a loaded run's figures must fit its totals.)
sed -e '0,/"bytes_sent":[[:space:]]*[0-9]*/s//"bytes_sent": 9007199254740993/' \
	r.json >big.json
"$NIO_TOP" --batch --load big.json -o big2.json --csv big2.csv >loaded 2>&1
ok $? "--load reads an export in batch and writes it out again"
[ "$(grep -Ec '"bytes_sent":[[:space:]]*9007199254740993' big2.json)" = 1 ] &&
	grep -q ',9007199254740993,' big2.csv
ok $? "a count of 2^53+1 survives load and export, to JSON and CSV"
[ "$(grep -cE '^ +[0-9]+ [a-z-]+ .* [0-9]' loaded)" -ge 96 ] && grep -q '^analysis' loaded
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
	[ $rc = 0 ] && grep -qE '^ +[0-9]+ uring ' u.out
	ok $? "--load opens an export of uring runs with io_uring disabled (rc $rc)"
fi

wait_until net_is "$before"
ok $? "no namespace or link left behind"
done_testing
