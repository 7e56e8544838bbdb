#!/bin/bash
# Verdicts only as strong as the numbers, on a busy machine: with a CPU hog
# (yes) beside it, one run per point over veth never has zero-copy beating
# one-copy -- nor anything beating anything: each comparison says it cannot
# tell and asks for repeats -- while a real difference (one-copy ahead of
# zero-copy at 1 KiB over one flow, five runs each) is still found (where
# the host was no busier than the hog makes it; and on the same runs at
# figures the test chose), with the zero-copy explanation agreeing.  Then a session of stream and rr runs
# at different sizes: every crossover carries its mode, stream comparisons
# hold no rr size, and the stream figure draws none.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq python3 yes

before=$(net_snapshot)
cd "$tmp" || exit 1
yes >/dev/null &
hog=$!
trap 'kill $hog 2>/dev/null; rm -rf "$tmp"' EXIT

"$NIO_TOP" --batch -s one-copy,zero-copy -m 4K,16K -t 1,2 -d 1 --repeat 1 \
	-o once.json >once 2>/dev/null
ok $? "with a CPU hog: one-copy and zero-copy at 4K, 16K over 1 and 2 flows, once each"
! grep -Eq 'zero-copy (beats|ahead of) one-copy' once &&
	jq_true once.json '[.analysis.crossovers[] | select(.strategy == "zero-copy" and .versus == "one-copy") | .sizes[].outcome != "ahead"] | all'
ok $? "zero-copy never beats one-copy ($(grep -c 'zero-copy vs one-copy' once) comparisons)"
jq_true once.json '(.analysis.crossovers | length) == 2 and ([.analysis.crossovers[] | .verdict == "undecided" and .mode == "stream" and (.text | test("not distinguishable here: 1 run per point, spread [0-9]+%; try --repeat 3"))] | all)'
ok $? "each comparison says one run cannot tell, names the spread and asks for --repeat 3"

# Five runs each: with three, one run that the busy machine held back (40%
# of its neighbours, once in a CI run) left the 95% interval reaching 1.03.
# At 1 KiB, not 4: under the sanitizers zero-copy at 4 KiB streamed 0.6 to
# 0.85 of one-copy, and one run held back (0.73 Gbit/s beside 2 to 3.2, in
# CI) left the interval at 0.5 .. 1.54; at 1 KiB it streams about 0.35.
# A host busier than the hog alone makes it (other processes' CPU over
# 1.5) may hold back more: there the measured verdict cannot tell, and the
# same runs with figures the test chose (zero-copy at half one-copy's
# Gbit/s, runs 2% apart) show what the analysis makes of a real difference.
"$NIO_TOP" --batch -s one-copy,zero-copy -m 1K -t 1 -d 1 --repeat 5 \
	-o repeated.json >repeated 2>/dev/null
ok $? "with a CPU hog: one-copy and zero-copy at 1K over 1 flow, five times each"
# behind FILE: zero-copy never beats one-copy, behind at 1K, surely.
behind() {
	jq_true "$1" '[.analysis.crossovers[] | select(.mode == "stream" and .threads == 1 and .strategy == "zero-copy" and .versus == "one-copy")] | length == 1 and .[0].verdict == "never" and .[0].sizes[0].msg_size == 1024 and .[0].sizes[0].outcome == "behind" and .[0].sizes[0].high < 1 / 1.05'
}
# says_behind FILE: the batch's line of it, with mode, flows, ratio,
# interval, runs and intervals.
says_behind() {
	grep -Eq '^  stream, 1 flow: zero-copy never beats one-copy: behind at 1K \(1K 0\.[0-9]+ \[0\.[0-9]+, 0\.[0-9]+\]; 10 runs, [0-9]+ intervals\)$' "$1"
}
behind repeated.json
noise_ok $? repeated.json "the real difference is found: zero-copy behind one-copy at 1K (ratio $(jq -r '.analysis.crossovers[0].sizes[0] | "\(.ratio * 100 | round / 100), \(.low * 100 | round / 100) .. \(.high * 100 | round / 100)"' repeated.json); Gbit/s: $(jq -r '[.runs[] | "\(.strategy) \(.gbps * 100 | round / 100)"] | join(", ")' repeated.json))" 1.5
says_behind repeated
noise_ok $? repeated.json "batch says so with its mode, flows, ratio and interval, runs and intervals: $(grep 'never beats' repeated | sed 's/^ *//')" 1.5
jq "$at_gbps"' .runs[] |= at_gbps((if .strategy == "one-copy" then 2 else 1 end)
	* ([1, 1.02, 0.98, 1.01, 0.99][(.round - 1) % 5]); 0.01)' repeated.json \
	>chosen.json &&
	"$NIO_TOP" --batch --load chosen.json -o chosen-again.json >chosen 2>&1 &&
	behind chosen-again.json && says_behind chosen
ok $? "on the same runs at chosen figures it is found and said: $(grep 'never beats' chosen | sed 's/^ *//')"
grep -Eq 'zero-copy: the kernel copied ([0-9.]+-)?100% .*only added work( \(.*lower bound\))?(; sampled, its senders spent [0-9]+% of their CPU in the copy at delivery and [0-9]+% pinning pages)?$' repeated &&
	! grep -q suspect repeated
ok $? "and the zero-copy explanation agrees with it"
kill $hog
wait $hog 2>/dev/null

# Stream at 1K and 16K, rr at 64 B: one session, loaded from two runs' files.
"$NIO_TOP" --batch -s two-copy,one-copy -m 1K,16K -d 1 -w 0.2 -o stream.json \
	>/dev/null 2>&1 &&
	"$NIO_TOP" --batch --mode rr -s two-copy,one-copy -m 64 -d 1 -w 0.2 \
		-o rr.json >/dev/null 2>&1
ok $? "stream runs at 1K and 16K, rr runs at 64 B"
jq -s '.[0] | .runs += ($rr | .runs) | .runs |= [to_entries[] | .value.run = .key + 1 | .value]' \
	--argjson rr "$(cat rr.json)" stream.json >both.json
"$NIO_TOP" --batch --load both.json -o again.json --svg both.svg >both 2>&1
ok $? "one session of both loads (--load)"
jq_true again.json '(.analysis.crossovers | length) == 2 and ([.analysis.crossovers[] | has("mode")] | all) and ([.analysis.crossovers[] | select(.mode == "stream") | .sizes[].msg_size] == [1024, 16384]) and ([.analysis.crossovers[] | select(.mode == "rr") | .sizes[].msg_size] == [64])'
ok $? "each crossover carries its mode; the stream one holds no rr size"
python3 - both.svg <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
g = [g for g in root.iter(ns + "g") if g.get("id") == "figure-throughput"][0]
points = [t.text for t in g.iter(ns + "title")]
assert points and all(" 1K " in p or " 16K " in p for p in points), points
assert not any(" 64 " in p for p in points), points
g = [g for g in root.iter(ns + "g") if g.get("id") == "figure-latency"][0]
assert [p for p in (t.text for t in g.iter(ns + "title")) if " 64 x1 p50" in p]
PY
ok $? "the stream figure draws 1K and 16K only; the rr one has 64 B"

wait_until net_is "$before"
ok $? "no namespace or link left behind"
done_testing
