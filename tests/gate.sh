#!/bin/bash
# --gate on --diff, over exports whose spreads the test chose
# (tests/gatefixture.py makes them from the seed corpus' one-run exports:
# nothing is measured, so what is asserted of the statistics holds on a
# busy machine): the intervals the export gives, worked out by hand; an
# A/A comparison (an export against itself measured again, within 0.2%)
# calls no row changed and passes; the same study with every Gbit/s,
# message rate and byte count halved fails, naming each point; each exit
# status; what the gate reports beside its rules (too few runs, runs that
# failed, points one side has, differences not named by --change);
# --diff-test utest's p-value against every split of the runs counted;
# --format markdown.
. "$(dirname "$0")/lib.sh"
need_cmd jq python3
fixture() { python3 "${NIO_TOP_SOURCE:?}/tests/gatefixture.py" "$@"; }
corpus=$NIO_TOP_SOURCE/tests/fuzz/corpus/export
points=one-copy:4096,zero-copy:4096,one-copy:65536,zero-copy:65536
labels=("one-copy 4K x1 stream" "zero-copy 4K x1 stream"
	"one-copy 64K x1 stream" "zero-copy 64K x1 stream")

# Runs 2% apart, their intervals 10% either way: the floor rules.
fixture make "$corpus/stream.json" "$tmp/old.json" --points "$points" \
	--between 0.02 --within 0.10
ok $? "a study of 4 points, 3 runs each, made"

# The figures 1.1 times larger: ln 1.1 +- t(4) sqrt(2 * 0.0421637^2 / 3)
# (test-estimate.c works it out), the same for a counted figure; no drift
# between the two studies, to see the estimator within them alone.
fixture scale "$tmp/old.json" "$tmp/faster.json" --factor 1.1
"$NIO_TOP" --diff "$tmp/old.json" "$tmp/faster.json" -o "$tmp/faster-diff.json" \
	--drift 0 >"$tmp/faster.txt" 2>"$tmp/err"
ok $? "--diff against 1.1 times the figures exits 0" || diag "$tmp/err"
jq_true "$tmp/faster-diff.json" '[.rows[] | select(.metric == "gbps" or (.metric == "cpu_ns_per_kib" and .side == "sender")) | select(.point == "one-copy 4K x1 stream")] | length == 2 and (.[0].low - 1.022162 | fabs) < 1e-5 and (.[0].high - 1.183766 | fabs) < 1e-5 and (.[1].low - 1 / 1.183766 | fabs) < 1e-5 and (.[1].high - 1 / 1.022162 | fabs) < 1e-5'
ok $? "Gbit/s +10% in 1.022162 .. 1.183766, CPU per KiB -9.1% in the inverse: the intervals' floor under every figure" ||
	jq -c '.rows[] | select(.point == "one-copy 4K x1 stream") | [.metric, .side, .low, .high]' "$tmp/faster-diff.json" | comment
grep -q "^old, new: the median of a point's runs ±their spread (SD/mean; of its intervals for one run), n runs; change: new over old (the runs' geometric means) and its 90% interval" "$tmp/faster.txt" &&
	[ "$(grep -c '90%' "$tmp/faster.txt")" = 1 ]
ok $? "the text says once what ± and the interval are, and its level" || diag "$tmp/faster.txt"
jq_true "$tmp/faster-diff.json" '.test == "welch" and .level == 0.9 and (.legend | test("90% interval"))'
ok $? "-o says the test, the level and the same words"

# A/A: the same study measured again, each run within 0.2% of the first.
fixture noise "$tmp/old.json" "$tmp/again.json" --eps 0.002 --seed 3
"$NIO_TOP" --diff "$tmp/old.json" "$tmp/again.json" --gate 'gbps<-5%' \
	-o "$tmp/aa.json" >"$tmp/aa.txt" 2>"$tmp/aa.err"
ok $? "A/A: --gate 'gbps<-5%' exits 0" || diag "$tmp/aa.err"
jq_true "$tmp/aa.json" '(.rows | length) > 40 and all(.rows[]; (.ratio - 1 | fabs) < 0.01) and all(.rows[]; .significant == false) and .gate.status == 0 and .gate.broken == []'
ok $? "A/A: no row called changed, every change under 1% ($(jq '.rows | length' "$tmp/aa.json") rows)" ||
	jq -c '.rows[] | select(.significant) | [.metric, .side, .point, .ratio, .low, .high]' "$tmp/aa.json" | comment
grep -q '^nio-top: gate passed: 1 rule, no change beyond one (4 rows judged)$' "$tmp/aa.err"
ok $? "A/A: the gate says it passed, and over how many rows" || diag "$tmp/aa.err"
# Runs tight within too: the floor is small, the 1% margin still holds.
fixture make "$corpus/stream.json" "$tmp/tight.json" --points "$points" \
	--between 0.02 --within 0.001
fixture noise "$tmp/tight.json" "$tmp/tight-again.json" --eps 0.002 --seed 4
"$NIO_TOP" --diff "$tmp/tight.json" "$tmp/tight-again.json" --gate 'gbps<-5%' \
	-o "$tmp/aa-tight.json" >/dev/null 2>"$tmp/err"
ok $? "A/A, intervals tight: exits 0" || diag "$tmp/err"
jq_true "$tmp/aa-tight.json" 'all(.rows[]; .significant == false)'
ok $? "A/A, intervals tight: no row called changed"

# Every Gbit/s, message rate and byte count halved, consistently; Gbit/s
# drifting 3% between the two studies: ln 0.5 +- t(4) 2.1318 *
# sqrt(2 * 5.9259e-4 + 2 * 0.03^2) (test-estimate.c works it out) =
# 0.445 .. 0.562.
fixture scale "$tmp/old.json" "$tmp/half.json" --factor 0.5
"$NIO_TOP" --diff "$tmp/old.json" "$tmp/half.json" --gate 'gbps<-5%' \
	--drift gbps=3 -o "$tmp/half-diff.json" >"$tmp/half.txt" 2>"$tmp/half.err"
ok $([ $? = 1 ]; echo $?) "halved: --gate 'gbps<-5%' exits 1" || diag "$tmp/half.err"
named=0
for label in "${labels[@]}"; do
	grep -qF "nio-top: gate: gbps<-5% broken at $label: -50.0% (-55.5% .. -43.8%)" "$tmp/half.err" &&
		named=$((named + 1))
done
[ $named = 4 ] && grep -q '^nio-top: gate failed: 1 rule broken at 4 rows$' "$tmp/half.err"
ok $? "halved: each of the 4 points named with its change and interval on standard error" || diag "$tmp/half.err"
jq_true "$tmp/half-diff.json" '.gate.status == 1 and .gate.rules == ["gbps<-5%"] and ([.gate.broken[] | select(.rule == "gbps<-5%" and .metric == "gbps" and .high < 0.95) | .point] | sort) == (["one-copy 4K x1 stream", "zero-copy 4K x1 stream", "one-copy 64K x1 stream", "zero-copy 64K x1 stream"] | sort)'
ok $? "halved: -o names each broken rule with its point, change and interval"
"$NIO_TOP" --diff "$tmp/old.json" "$tmp/half.json" \
	--gate 'cpu_ns_per_kib.sender>+5%,gbps>+5%' >/dev/null 2>"$tmp/err"
[ $? = 1 ] && [ "$(grep -c 'cpu_ns_per_kib.sender>+5% broken at .*, sender: +100.0%' "$tmp/err")" = 4 ] &&
	! grep -q 'gbps>+5% broken' "$tmp/err"
ok $? "a side's rule breaks on that side alone; a rise rule not on a fall" || diag "$tmp/err"

# Exit 2: nothing to judge, a bad rule, an unreadable export, utest.
"$NIO_TOP" --diff "$tmp/old.json" "$tmp/again.json" --gate 'gbps<-5%,p99_us>+10%' \
	>/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q 'p99_us>+10%: no point to judge it at (no row of this figure in both exports)' "$tmp/err"
ok $? "a rule with no row to judge it: exit 2, saying so" || diag "$tmp/err"
"$NIO_TOP" --diff "$tmp/old.json" "$tmp/again.json" --gate 'gbps<5' >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "'gbps<5' is not a rule" "$tmp/err"
ok $? "a rule that is not one: exit 2, naming it" || diag "$tmp/err"
"$NIO_TOP" --diff "$tmp/old.json" "$tmp/missing.json" --gate 'gbps<-5%' >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q 'missing.json' "$tmp/err"
ok $? "an export that cannot be read: exit 2 with --gate (1 without)" || diag "$tmp/err"
"$NIO_TOP" --diff "$tmp/old.json" "$tmp/again.json" --gate 'gbps<-5%' \
	--diff-test utest >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q 'use one or the other' "$tmp/err"
ok $? "--gate with --diff-test utest: exit 2 (the gate needs an interval)" || diag "$tmp/err"
"$NIO_TOP" --gate 'gbps<-5%' >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q -- '--gate needs a comparison' "$tmp/err"
ok $? "--gate without a comparison: exit 2" || diag "$tmp/err"

# Too few runs: no interval, and how many would tell (test-estimate.c
# works out the 6); none would through Gbit/s's drift of 3% a side (its
# interval at least 1.645 * sqrt(2 * 0.03^2) = 0.070 either way, wider
# than ln 1.05 = 0.049).
fixture make "$corpus/stream.json" "$tmp/two.json" --points "$points" \
	--runs 2 --between 0.02 --within 0.10
"$NIO_TOP" --diff "$tmp/two.json" "$tmp/old.json" --gate 'gbps<-5%' \
	--drift 0,gbps=3 >"$tmp/two.txt" 2>"$tmp/err"
[ $? = 2 ] && grep -q '^one-copy 4K x1 stream .* too few runs to tell (n=2 vs 3): about 6 runs a side would tell a 5% change$' "$tmp/two.txt" &&
	[ "$(awk '/^Gbit\/s/ { t = 1; next } /^$/ { t = 0 } t' "$tmp/two.txt" |
		grep -c 'too few runs to tell (n=2 vs 3): no number of runs tells 5% through a 3% drift$')" = 4 ] &&
	grep -q 'gbps<-5% not judged at one-copy 4K x1 stream: too few runs to tell (n=2 vs 3)' "$tmp/err" &&
	grep -q 'every row has too few runs to tell' "$tmp/err"
ok $? "2 runs against 3: too few runs to tell, how many would (none through a drift); the gate cannot judge: exit 2" ||
	{ diag "$tmp/two.txt"; diag "$tmp/err"; }

# Runs that failed; a point one side has; differences not named.
fixture fail "$tmp/again.json" "$tmp/one-failed.json" --point one-copy:4096 --runs 1
"$NIO_TOP" --diff "$tmp/old.json" "$tmp/one-failed.json" --gate 'gbps<-5%' \
	>/dev/null 2>"$tmp/err"
[ $? = 0 ] && grep -q '^nio-top: gate: new: one-copy 4K x1 stream: 1 of 3 runs left out (connection reset)$' "$tmp/err" &&
	grep -q '^nio-top: gate: gbps<-5% not judged at one-copy 4K x1 stream: too few runs to tell (n=3 vs 2)' "$tmp/err"
ok $? "a new run that failed is reported, and its point, left with 2 runs, not judged; the others pass: exit 0" || diag "$tmp/err"
fixture fail "$tmp/half.json" "$tmp/all-failed.json" --point one-copy:4096 --runs 3
"$NIO_TOP" --diff "$tmp/old.json" "$tmp/all-failed.json" --gate 'gbps<-60%' \
	>/dev/null 2>"$tmp/err"
[ $? = 1 ] && grep -q '^nio-top: gate: one-copy 4K x1 stream: no new run to compare (3 runs, all failed: connection reset)$' "$tmp/err"
ok $? "every new run of a point failed: exit 1, though no rule broke" || diag "$tmp/err"
"$NIO_TOP" --diff "$tmp/old.json" "$tmp/all-failed.json" --format markdown \
	2>/dev/null | grep -q '^New, no run to compare: one-copy 4K x1 stream (3 runs, all failed: connection reset)$'
ok $? "and --format markdown says so too"
jq 'del(.runs[] | select(.strategy == "zero-copy" and .msg_size == 65536))
	| .host.kernel = "6.19.0" | .host.cpu_model = "Another CPU"' \
	"$tmp/again.json" >"$tmp/other.json"
"$NIO_TOP" --diff "$tmp/old.json" "$tmp/other.json" --gate 'gbps<-5%' \
	-o "$tmp/other-diff.json" >/dev/null 2>"$tmp/err"
[ $? = 0 ] &&
	grep -q '^nio-top: gate: only in old: zero-copy 64K x1 stream (3 runs): not compared$' "$tmp/err" &&
	grep -q '^nio-top: gate: host.kernel differs (.* -> 6.19.0), not named as the change under test (--change kernel)$' "$tmp/err"
ok $? "a point only the old export has and a kernel not named are reported; the rules pass: exit 0" || diag "$tmp/err"
jq_true "$tmp/other-diff.json" '[.gate.findings[].kind] | (index("one-side") != null) and (index("difference") != null)'
ok $? "-o lists them too"
"$NIO_TOP" --diff "$tmp/old.json" "$tmp/other.json" --gate 'gbps<-5%' \
	--change kernel >/dev/null 2>"$tmp/err"
grep -q '^nio-top: gate: the change under test: host.kernel: .* -> 6.19.0$' "$tmp/err" &&
	! grep -q 'host.kernel differs' "$tmp/err" && grep -q 'host.cpu_model differs' "$tmp/err"
ok $? "--change kernel: the kernel is the change under test, the CPU model still a warning" || diag "$tmp/err"

# --diff-test utest: benchstat's test, against every split counted.
fixture make "$corpus/stream.json" "$tmp/u-old.json" --points "$points" \
	--runs 5 --between 0.04 --within 0.05
fixture scale "$tmp/u-old.json" "$tmp/u-up.json" --factor 1.12
fixture noise "$tmp/u-up.json" "$tmp/u-new.json" --eps 0.05 --seed 3
"$NIO_TOP" --diff "$tmp/u-old.json" "$tmp/u-new.json" --diff-test utest \
	-o "$tmp/u.json" >"$tmp/u.txt" 2>"$tmp/err"
ok $? "--diff-test utest exits 0" || diag "$tmp/err"
exact=$(fixture utest "$tmp/u-old.json" "$tmp/u-new.json" one-copy:4096)
got=$(jq '.rows[] | select(.metric == "gbps" and .point == "one-copy 4K x1 stream") | .p' "$tmp/u.json")
awk -v a="$exact" -v b="$got" 'BEGIN { exit !(a - b < 1e-6 && b - a < 1e-6) }'
ok $? "its p-value is the exact one, every split of 5 runs against 5 counted ($got, $exact)"
grep -Eq "^one-copy 4K x1 stream .* \+[0-9.]+% \(p=$(printf %.3f "$exact") n=5\+5\)$" "$tmp/u.txt" &&
	grep -q "Mann-Whitney's U" "$tmp/u.txt"
ok $? "and, under 0.05, says the change as benchstat does: +...% (p=... n=5+5)" || diag "$tmp/u.txt"
"$NIO_TOP" --diff "$tmp/old.json" "$tmp/half.json" --diff-test utest >"$tmp/u3.txt" 2>&1
grep -q '^one-copy 4K x1 stream .* too few runs to tell (n=3 vs 3, p=0.100): the U test needs 4 runs a side at p < 0.05$' "$tmp/u3.txt"
ok $? "3 runs a side, all apart: p=0.100, and the U test's need for 4 runs" || diag "$tmp/u3.txt"

# --format markdown, and --csv's p.
"$NIO_TOP" --diff "$tmp/old.json" "$tmp/half.json" --gate 'gbps<-5%' \
	--drift 0 --format markdown --csv "$tmp/half.csv" >"$tmp/half.md" 2>/dev/null
[ $? = 1 ] && head -1 "$tmp/half.md" | grep -q '^### nio-top: .*old.json against .*half.json$' &&
	grep -q '^| Gbit/s delivered | old | new | change (drift 0%) |$' "$tmp/half.md" &&
	grep -q '^|:--|--:|--:|:--|$' "$tmp/half.md" &&
	grep -qF '| one-copy 4K x1 stream | 2 ±2% n=3 | 1 ±2% n=3 | **-50.0% (-53.5% .. -46.2%)** |' "$tmp/half.md" &&
	grep -qF '**Gate `gbps<-5%`**: failed: 1 rule broken at 4 rows' "$tmp/half.md" &&
	[ "$(grep -c '^- \*\*gbps\\<-5% broken at ' "$tmp/half.md")" = 4 ]
ok $? "--format markdown: a table per figure, the gate's verdict and each broken rule" || diag "$tmp/half.md"
head -1 "$tmp/half.csv" | grep -q ',ratio,low,high,p,significant,drift$' &&
	grep -q '^gbps,,"one-copy 4K x1 stream",.*,true,0$' "$tmp/half.csv"
ok $? "--csv has each row's p-value and drift"

# --drift: the defaults, every figure, one figure and side; what is not one.
"$NIO_TOP" --diff "$tmp/old.json" "$tmp/again.json" -o "$tmp/d-default.json" \
	>/dev/null 2>&1 &&
	"$NIO_TOP" --diff "$tmp/old.json" "$tmp/again.json" --drift 4 \
		-o "$tmp/d-all.json" >/dev/null 2>&1 &&
	"$NIO_TOP" --diff "$tmp/old.json" "$tmp/again.json" \
		--drift cpu_pct.receiver=12.5 -o "$tmp/d-one.json" >/dev/null 2>&1
ok $? "--drift 4 and --drift cpu_pct.receiver=12.5 are taken"
jq_true "$tmp/d-default.json" 'all(.rows[]; .drift >= 0 and .drift < 0.5) and ([.rows[] | select(.metric == "gbps") | .drift] | unique | length == 1 and .[0] > 0) and ([.rows[] | "\(.metric) \(.side)"] | unique | length) == ([.rows[] | "\(.metric) \(.side) \(.drift)"] | unique | length)'
ok $? "by default each row takes its figure's drift, the same at every point, Gbit/s's above none ($(jq -c '[.rows[] | select(.point == "one-copy 4K x1 stream") | .drift]' "$tmp/d-default.json"))"
jq_true "$tmp/d-all.json" 'all(.rows[]; .drift == 0.04)'
ok $? "--drift 4: every row's drift is 4%"
jq -n --slurpfile a "$tmp/d-default.json" --slurpfile b "$tmp/d-one.json" -e '
	[$a[0].rows, $b[0].rows] | transpose | all(.[];
		if .[1].metric == "cpu_pct" and .[1].side == "receiver"
		then .[1].drift == 0.125 and .[1].high > .[0].high
		else .[1].drift == .[0].drift and .[1].high == .[0].high end)' >/dev/null
ok $? "--drift cpu_pct.receiver=12.5: that figure's rows take 12.5%, wider; every other row as by default"
grep -q ' change (drift 12.5%)$' <("$NIO_TOP" --diff "$tmp/old.json" "$tmp/again.json" \
	--drift cpu_pct.receiver=12.5 2>&1)
ok $? "the text says each figure's drift over its changes"
"$NIO_TOP" --diff "$tmp/old.json" "$tmp/again.json" --drift 'gbps=2.5%' \
	-o "$tmp/d-sign.json" >/dev/null 2>&1 &&
	jq_true "$tmp/d-sign.json" '[.rows[] | select(.metric == "gbps") | .drift] | unique == [0.025]'
ok $? "--drift gbps=2.5%: the per cent sign taken, as --gate's rules have it"
for bad in 'cpu_pct.middle=3|a side is .sender or .receiver' '%|.%. is not a drift' \
	'nosuch=3|no figure .nosuch.' '101|.101. is not a drift' \
	'gbps=|.gbps=. is not a drift' 'gbps.sender=2|gbps has no sides'; do
	"$NIO_TOP" --diff "$tmp/old.json" "$tmp/again.json" --drift "${bad%%|*}" \
		>/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc = 2 ] && grep -q -- "--drift.*${bad#*|}" "$tmp/err"
	ok $? "--drift '${bad%%|*}': exit 2, '$(head -1 "$tmp/err")'"
done
"$NIO_TOP" --drift 3 --batch -s one-copy >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q -- '--drift needs a comparison of two studies' "$tmp/err"
ok $? "--drift without a comparison: exit 2, saying it needs one"

done_testing
