#!/bin/bash
# --crossover, end to end over the real veth: a short search of one-copy
# against two-copy (a budget of 60 s, runs of 0.3 s) ends within its
# budget, has tried both ends, runs each size it tried with both sides in
# turn, and says so the same way everywhere -- the table's last line, the
# export's crossover (read back by --load, refused when tampered with), the
# CSV's crossover columns, the SVG's figure; a pair of receive sides names
# its sides by strategy and setting; the explorer opens on the search and
# starts one from its view, at 80x24 and 120x40.  Only structure: which
# side leads where is the machine's to say, and a shared machine says it
# loudly, so no lead, ratio or bracket is asserted.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq tmux
. "$(dirname "$0")/tmux.sh"

out="$tmp/x.json"
started=$(date +%s)
"$NIO_TOP" --batch --crossover strategy=one-copy,two-copy -m 1K..64K \
	--budget 60s -d 0.3 -w 0.1 --min-measured 0 -o "$out" \
	--csv "$tmp/x.csv" --svg "$tmp/x.svg" >"$tmp/table" 2>"$tmp/err"
ok $? "a search of one-copy against two-copy over 1K..64K exits 0" ||
	diag "$tmp/err"
took=$(($(date +%s) - started))
# The budget bounds the runs; the network's setup and teardown come on top.
[ "$took" -le 120 ]
ok $? "it ends within its budget of 60 s, give or take setup ($took s)"
jq_true "$out" '.crossover | .dimension == "strategy" and .a == "one-copy" and .b == "two-copy" and .metric == "gbps" and .min_size == 1024 and .max_size == 65536 and .budget_ms == 60000'
ok $? "the export's crossover holds the pair, figure, range and budget"
jq_true "$out" '.crossover | (.state | IN("found", "none", "undecided", "budget")) and .elapsed_s <= 60 and (.why | length) > 0'
ok $? "it stopped for a reason, within the budget ($(jq -c '.crossover | [.state, .elapsed_s, .why]' "$out"))"
jq_true "$out" '.crossover | [.sizes[].msg_size] | index(1024) != null and index(65536) != null'
ok $? "both ends were tried ($(jq -c '[.crossover.sizes[].msg_size]' "$out"))"
jq_true "$out" '.crossover.sizes | all(.runs_a >= 1 and .runs_b >= 1 or .lead == "failed")'
ok $? "every size tried has runs of both sides ($(jq -c '[.crossover.sizes[] | [.msg_size, .runs_a, .runs_b]]' "$out"))"
jq_true "$out" '.crossover as $x | [$x.brackets[] | .below, .above] | all(. as $s | [$x.sizes[].msg_size] | index($s) != null)'
ok $? "each bracket's ends were tried ($(jq -c '.crossover.brackets' "$out"))"
jq_true "$out" '.crossover.run_count == (.crossover.runs | length) and (.crossover.runs | length) == (.runs | length)'
ok $? "every run of the export is one of the search's ($(jq '.runs | length' "$out"))"
jq_true "$out" '. as $d | $d.crossover.runs | all(. as $r | $d.runs[$r.run - 1] | .msg_size == $r.msg_size and .strategy == (if $r.side == "a" then "one-copy" else "two-copy" end))'
ok $? "each of its runs is of its size and side"
# In turn at each size: no side three times in a row.
jq_true "$out" '[.crossover.runs | group_by(.msg_size)[] | [.[].side] | . as $s | range(2; length) | select($s[.] == $s[. - 1] and $s[. - 1] == $s[. - 2])] | length == 0'
ok $? "at each size the sides take turns"
[ "$(tail -1 "$tmp/table")" = "$(jq -r .crossover.text "$out")" ]
ok $? "the table ends with the line to quote: $(tail -1 "$tmp/table")"
grep -qE '^  ended: ' "$tmp/table" && grep -qE '^ +1 KiB  [0-9]+\+[0-9]+' "$tmp/table"
ok $? "the report lists each size and why it stopped"
grep -q '^\[crossover\] ' "$tmp/err"
ok $? "the progress says where the search is"

head -1 "$tmp/x.csv" | tr , '\n' >"$tmp/columns"
side=$(grep -nx crossover_side "$tmp/columns" | cut -d: -f1)
strategy=$(grep -nx strategy "$tmp/columns" | cut -d: -f1)
lead=$(grep -nx crossover_lead "$tmp/columns" | cut -d: -f1)
[ -n "$side" ] && [ -n "$lead" ] &&
	awk -F, -v s="$side" -v t="$strategy" 'NR > 1 && !(($s == "a" && $t == "one-copy") || ($s == "b" && $t == "two-copy")) { bad = 1 } END { exit bad || NR < 3 }' "$tmp/x.csv"
ok $? "the CSV says each run's side, by its strategy"

grep -q 'id="figure-crossover"' "$tmp/x.svg"
ok $? "the SVG has the crossover's figure"
if command -v python3 >/dev/null; then
	python3 "$NIO_TOP_SOURCE/tests/svglayout.py" "$tmp/x.svg" >"$tmp/layout"
	ok $? "svglayout: the figure drawn as its legend says, inside the page" ||
		diag "$tmp/layout"
else
	skip_one "svglayout" "needs python3"
fi

# --load reads back what it wrote, and writes it again the same.
"$NIO_TOP" --load "$out" --batch -o "$tmp/again.json" >"$tmp/loaded" \
	2>"$tmp/loaded.err"
ok $? "--load of the export exits 0" || diag "$tmp/loaded.err"
[ "$(tail -1 "$tmp/loaded")" = "$(tail -1 "$tmp/table")" ]
ok $? "--load says the same line"
[ "$(jq -cS .crossover "$out")" = "$(jq -cS .crossover "$tmp/again.json")" ]
ok $? "--load keeps the crossover as written"
jq '.crossover.sizes[0].runs_a += 1' "$out" >"$tmp/tampered.json"
out_t=$("$NIO_TOP" --load "$tmp/tampered.json" --batch 2>&1)
[ $? != 0 ] && [[ "$out_t" == *"crossover.sizes[0]: does not follow from its runs"* ]]
ok $? "a size whose runs are not its runs' is refused: $out_t"
jq '.crossover.brackets = [{"below": 1024, "above": 65536, "lead_below": "a", "lead_above": "a"}]' \
	"$out" >"$tmp/tampered.json"
out_t=$("$NIO_TOP" --load "$tmp/tampered.json" --batch 2>&1)
[ $? != 0 ] && [[ "$out_t" == *"crossover.brackets[0]: not between two sizes tried with its leads"* ]]
ok $? "a bracket not between sizes of its leads is refused: $out_t"

# A pair of receive sides: each side named by its strategy and setting.
"$NIO_TOP" --batch --crossover rx=copy,trunc -s one-copy -m 16K..64K \
	--budget 10 -d 0.3 -w 0.1 --min-measured 0 -o "$tmp/rx.json" \
	>"$tmp/rx" 2>&1
ok $? "a search of --rx copy against trunc exits 0" || diag "$tmp/rx"
jq_true "$tmp/rx.json" '.crossover | .label_a == "one-copy rx=copy" and .label_b == "one-copy rx=trunc" and .metric == "gbps"'
ok $? "its sides are one-copy rx=copy and one-copy rx=trunc"
jq_true "$tmp/rx.json" '. as $d | $d.crossover.runs | all(. as $r | $d.runs[$r.run - 1] | .strategy == "one-copy" and .rx == (if $r.side == "a" then "copy" else "trunc" end))'
ok $? "each of its runs received as its side says"

# Refused before anything runs, naming what is wrong.
refused() {
	local want=$1 out rc
	shift
	out=$("$NIO_TOP" --batch -d 0.1 "$@" 2>&1)
	rc=$?
	[ $rc = 2 ] && [[ "$out" == *"$want"* ]]
	ok $? "$* refused, exit 2 (rc $rc: $(head -1 <<<"$out"))"
}
refused "searches a range of sizes" --crossover strategy=one-copy,sendfile -m 16K
refused "--strategy has" --crossover rx=copy,trunc -m 1K..4K
refused "is not DIM=A,B" --crossover strategy=one-copy -m 1K..4K
refused "are the same run" --crossover threads=2,2 -s one-copy -m 1K..4K
refused "not a run setting" --crossover msg_size=1K,2K -s one-copy -m 1K..4K
refused "a round trip's, for --mode rr" --crossover strategy=one-copy,sendfile -m 1K..4K --metric p50_us
refused "--metric: no figure 'gbs'" --metric gbs

# The explorer: a session with --crossover opens on the search.
size=80x24
start -- --crossover strategy=one-copy,two-copy -m 4K..16K --budget 20 \
	-d 0.3 -w 0.1 --min-measured 0 -o "$tmp/ui.json"
wait_screen 'Crossover: two-copy against one-copy' 300
ok $? "80x24: the explorer opens on the crossover view" ||
	screen | comment
wait_screen 'searching, [0-9]:[0-9]{2} of the budget left' 300
ok $? "80x24: it says the search runs and the time left" ||
	screen | comment
wait_screen 'ended: ' 600
ok $? "80x24: and why it stopped" || screen | comment
screen >"$tmp/screen80"
grep -qE '4 KiB \|.*\| 16 KiB' "$tmp/screen80" &&
	grep -qE '^│ +4 KiB +[0-9]+\+[0-9]+' "$tmp/screen80"
ok $? "80x24: the ruler and each size's row" || comment "$tmp/screen80"
T send-keys -t ui q
wait_exit
ok $? "q quits once the search has ended"
T kill-server
jq_true "$tmp/ui.json" '.crossover.state != "searching" and (.crossover.runs | length) == (.runs | length)'
ok $? "the explorer's export holds its search"

# The view starts one: the controls' strategy against the one picked.
size=120x40
start -- -s one-copy -d 0.3 -w 0.1 --min-measured 0 --budget 15
wait_screen 'run 1 finished' 300
ok $? "120x40: the explorer ran its first run" || screen | comment
T send-keys -t ui 6
wait_screen 'F5 or w here searches where' 100
ok $? "120x40: the crossover view says how to start a search" ||
	screen | comment
T send-keys -t ui F5
wait_screen 'Crossover: [a-z-]+ against one-copy' 300
ok $? "120x40: F5 there starts one against one-copy" ||
	screen | comment
wait_screen 'crossover [0-9]+ runs, [0-9]:[0-9]{2} left' 300
ok $? "120x40: the header counts its runs and the time left" ||
	screen | comment
T send-keys -t ui F1
wait_screen 'In crossover \(6\):' 300 && screen | grep -q 'F5Search'
ok $? "120x40: F1 there opens the help at the view's keys, F5 still its search" ||
	screen | comment
T send-keys -t ui Escape
wait_gone 'Keys and words' 300
T send-keys -t ui q
wait_screen 'A search runs' 100
ok $? "q asks first while the search runs"
T send-keys -t ui q
wait_exit
ok $? "q again quits"
done_testing
