#!/bin/bash
# The SVG laid out for the most series a figure may draw: studies written
# here as exports (the corpus's stream and rr runs copied over a grid, each
# point its own figures, no measuring) and opened with --load --svg.  Every
# <text> inside the page, every series drawn labelled in its legend, no two
# series alike (tests/svglayout.py), nothing drawn outside the page and the
# whole rendered by rsvg-convert: fourteen series (-s all --rx copy,trunc),
# the receive preset's grid, and more series than a figure draws.
. "$(dirname "$0")/lib.sh"
need_cmd jq python3 rsvg-convert

corpus=${NIO_TOP_SOURCE:?}/tests/fuzz/corpus/export
layout=$NIO_TOP_SOURCE/tests/svglayout.py

# study NAME GRID: an export of every point of GRID (strategies, rx,
# msg_sizes, threads, busy_poll_us, repeat), stream at each size and rr at
# the first, each run the corpus's own with its point's settings and
# figures of its own: the k-th series' throughput (1 + 0.3 k) times the
# square root of the size in 4 KiB, its costs and round trips falling
# with k, a profile per side.
study() {
	jq --argjson grid "$2" --slurpfile rr "$corpus/rr.json" '
	def role($n): {samples: $n, share: null, function: null};
	def profile($copy; $role):
		{hz: 1000, samples: 100, lost: 0, user_only: false, why: null,
		 roles: {($role): role($copy), stack: role(60 - $copy),
			 wakeup: role(20), syscall: role(15)},
		 top_symbols: [], other_top: []};
	def costs($k): {ipc: 1.2, cycles_per_byte: (4 / (1 + $k / 5)),
		l1_misses_per_kib: (40 / (1 + $k / 5)),
		llc_misses_per_kib: (4 / (1 + $k / 5)),
		cpu_ns_per_kib: (900 / (1 + $k / 5))};
	.runs[0] as $stream | $rr[0].runs[0] as $round_trip
	| .capabilities.pmu.available = true
	| .runs = [
		$grid.strategies as $s | $grid.rx as $x
		| $grid.busy_poll_us as $b
		| range(0; $s | length) as $i | range(0; $x | length) as $j
		| range(0; $b | length) as $l
		| ($i * ($x | length) + $j) * ($b | length) + $l | . as $k
		| range(0; $grid.repeat) as $round
		| $grid.threads[] as $t
		| ([$grid.msg_sizes[] | {mode: "stream", msg_size: .}]
		   + [{mode: "rr", msg_size: $grid.msg_sizes[0]}])[] as $p
		| {strategy: $s[$i], rx: $x[$j], busy_poll_us: $b[$l],
		   threads: $t, round: ($round + 1), msg_size: $p.msg_size}
		  as $point
		| if $p.mode == "rr" then
			$round_trip | .latency_us |= with_entries(
				if .key == "round_trips" then .
				else .value *= 1 - $k / 80 end)
		else
			((1 + 0.3 * $k) * ($p.msg_size / 4096 | sqrt)) as $g
			| ($g * 1e9 / 8 * $stream.measured_s / $p.msg_size
			   | floor) as $n
			| $stream + {messages_sent: $n, messages_received: $n,
				bytes_sent: ($n * $p.msg_size),
				bytes_received: ($n * $p.msg_size),
				gbps: ($n * $p.msg_size * 8
				       / $stream.measured_s / 1e9),
				msgs_per_s: ($n / $stream.measured_s),
				profile: {sender: profile(10 + $k % 40; "copy_send"),
					  receiver: profile(30; "copy_receive")}}
			| .sender.derived += costs($k)
			| .receiver.derived += costs($k)
		end
		| . + $point ]
	| .runs |= [to_entries[] | .value + {run: (.key + 1)}]
	' "$corpus/stream.json" >"$tmp/$1.json"
}

# figures NAME WHAT SERIES: the study's SVG, its layout checked, and its
# throughput figure's legend holding SERIES.
figures() {
	"$NIO_TOP" --batch --load "$tmp/$1.json" --min-measured 0 \
		--svg "$tmp/$1.svg" >/dev/null 2>"$tmp/$1.err"
	ok $? "$2: --load --svg writes its figures" || diag "$tmp/$1.err"
	python3 "$layout" "$tmp/$1.svg" >"$tmp/$1.layout" 2>&1 &&
		grep -q "^throughput: $3 series drawn, $3 in the legend" \
			"$tmp/$1.layout" &&
		grep -q "^latency: $3 series drawn, $3 in the legend" \
			"$tmp/$1.layout"
	ok $? "$2: texts inside the page, series labelled, none alike" ||
		diag "$tmp/$1.layout"
	python3 "$layout" --ink "$tmp/$1.svg" >"$tmp/$1.ink" 2>&1
	ok $? "$2: rsvg-convert draws nothing outside the page" ||
		diag "$tmp/$1.ink"
	rsvg-convert -b white -o "$tmp/$1.png" "$tmp/$1.svg" 2>"$tmp/$1.rsvg" &&
		[ -s "$tmp/$1.png" ]
	ok $? "$2: rsvg-convert renders it" || diag "$tmp/$1.rsvg"
}

all='["two-copy","one-copy","zero-copy","uring","uring-zc","sendfile","splice"]'

# -s all --rx copy,trunc: fourteen series, figure 6's sizes up to 1 MiB.
study fourteen "{\"strategies\": $all, \"rx\": [\"copy\", \"trunc\"],
	\"msg_sizes\": [4096, 16384, 65536, 262144, 1048576],
	\"threads\": [1, 4], \"busy_poll_us\": [0], \"repeat\": 1}"
figures fourteen "14 series (-s all --rx copy,trunc)" 14
python3 - "$tmp/fourteen.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
fig = [g for g in root.iter(ns + "g") if g.get("id") == "figure-profile"][0]
bars = [g for g in fig.iter(ns + "g") if g.get("class") == "bars"]
sizes = sorted({"".join(t.itertext()) for t in fig.iter(ns + "text")
                if t.get("class") == "size"})
assert len(bars) == 2 * 14 * 5, len(bars)
assert sizes == ["1 MiB", "16 KiB", "256 KiB", "4 KiB", "64 KiB"], sizes
PY
ok $? "figure 6: a bar pair for each of the 140 points, each size named"

# The receive preset's grid, as it ships.
grid=$(jq -c '{strategies, rx, threads, repeat, busy_poll_us: [0],
	msg_sizes: [.msg_sizes[] | sub("K$"; "") | tonumber * 1024]}' \
	"$NIO_TOP_SOURCE/presets/receive.json")
study receive "$grid"
series=$(jq '(.strategies | length) * (.rx | length)' <<<"$grid")
figures receive "the receive preset's grid" "$series"

# Every strategy, every receive side, busy polling off and on: more series
# than a figure draws, and the legend says how many it left out.
study many "{\"strategies\": $all,
	\"rx\": [\"copy\", \"trunc\", \"zerocopy\", \"uring\"],
	\"msg_sizes\": [4096, 65536], \"threads\": [1],
	\"busy_poll_us\": [0, 50], \"repeat\": 1}"
figures many "56 series" 32
grep -q '>24 more series not drawn: a figure draws at most 32<' "$tmp/many.svg"
ok $? "56 series: the legend says 24 more were not drawn"

done_testing
