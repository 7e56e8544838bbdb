#!/bin/bash
# --diff OLD NEW, as benchstat compares: an export against itself is "~"
# everywhere; figures made 1.5 times larger are +50%, and on a study whose
# spread the test chose, with an interval that holds 1.5 and leaves out 1
# (a measured study's own spread is the machine's: under load it reached
# [0.60, 3.77]); a setting each export ran with one value
# (--fields 8 against 1) is the change under test, listed first, and its
# points are matched with their interval; a point only one export has is
# listed, and so is one whose new runs all failed (exit 1); an environment
# that differs is listed; --csv and -o write it.
# --load OLD NEW shows both files' runs and the same comparison, in batch
# and in the explorer's compare view.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq tmux
. "$(dirname "$0")/tmux.sh"

old="$tmp/old.json"
"$NIO_TOP" --batch -s one-copy,zero-copy -m 4K --repeat 3 -d 1.2 -w 0.2 \
	--fields 8 -o "$old" >/dev/null 2>"$tmp/err"
ok $? "a study of 6 runs of 1.2 s to compare" || diag "$tmp/err"

# The same file twice.
cp "$old" "$tmp/same.json"
"$NIO_TOP" --diff "$old" "$tmp/same.json" -o "$tmp/same-diff.json" \
	>"$tmp/same.txt" 2>"$tmp/err"
ok $? "--diff of an export and its copy exits 0" || diag "$tmp/err"
grep -q "host, settings and environment: the same" "$tmp/same.txt"
ok $? "nothing differs besides the runs"
jq_true "$tmp/same-diff.json" '.format == "nio-top-diff" and (.rows | length) > 10 and all(.rows[]; .ratio == 1 and .significant == false)'
ok $? "every row of the comparison: no change, not significant ($(jq '.rows | length' "$tmp/same-diff.json") rows)"
jq_true "$tmp/same-diff.json" '[.rows[] | select(.metric == "gbps")] | length == 2 and all(.[]; .low < 1 and .high > 1 and .old.runs == 3 and .new.runs == 3)'
ok $? "each point's Gbit/s interval holds no change, 3 runs a side"
awk '/^Gbit\/s/ {t = 1; next} /^$/ {t = 0} t' "$tmp/same.txt" >"$tmp/gbps.txt"
[ "$(wc -l <"$tmp/gbps.txt")" = 2 ] && ! grep -qv ' ~ (' "$tmp/gbps.txt"
ok $? "the Gbit/s table shows ~ on both points" || diag "$tmp/same.txt"

# Every Gbit/s figure 1.5 times larger, runs and intervals alike (and the
# bytes that make them: a rate beyond its run's bytes is refused).  Of the
# measured study only what its noise cannot change: a row for each point,
# each change exactly the scaling.
jq '.runs[] |= (.gbps *= 1.5 | .intervals[] |= (.gbps *= 1.5)
	| .bytes_sent = (.bytes_sent * 1.5 | floor)
	| .bytes_received = (.bytes_received * 1.5 | floor))' "$old" \
	>"$tmp/faster.json"
"$NIO_TOP" --diff "$old" "$tmp/faster.json" -o "$tmp/faster-diff.json" \
	--csv "$tmp/faster.csv" >"$tmp/faster.txt" 2>"$tmp/err"
ok $? "--diff against figures 1.5 times larger exits 0" || diag "$tmp/err"
jq_true "$tmp/faster-diff.json" '[.rows[] | select(.metric == "gbps")] | length == 2 and all(.[]; (.ratio - 1.5 | fabs) < 1e-9)'
ok $? "+50% on each point ($(jq -c '[.rows[] | select(.metric == "gbps") | .ratio]' "$tmp/faster-diff.json"))"
[ "$(($(wc -l <"$tmp/faster.csv") - 1))" = "$(jq '.rows | length' "$tmp/faster-diff.json")" ] &&
	head -1 "$tmp/faster.csv" | grep -q '^metric,side,point,old_median' &&
	grep -q '^gbps,,"zero-copy 4K x1 stream",' "$tmp/faster.csv"
ok $? "--csv holds a row for each of -o's rows"

# The interval around the change, on a study whose spread the test chose:
# the measured study's runs at 3 and 2 Gbit/s (one-copy, zero-copy), 2%
# apart, their intervals 1% about them; then the same 1.5 times larger.
chosen() {
	jq "$at_gbps"' .runs[] |= at_gbps((if .strategy == "one-copy" then 3 else 2 end)
		* ([1, 1.02, 0.98][(.round - 1) % 3]) * '"$1"'; 0.01)' "$old"
}
chosen 1 >"$tmp/chosen.json" && chosen 1.5 >"$tmp/chosen-faster.json"
"$NIO_TOP" --diff "$tmp/chosen.json" "$tmp/chosen-faster.json" \
	-o "$tmp/chosen-diff.json" --csv "$tmp/chosen.csv" >"$tmp/chosen.txt" \
	2>"$tmp/err"
ok $? "--diff of a chosen study and the same 1.5 times larger exits 0" ||
	diag "$tmp/err"
jq_true "$tmp/chosen-diff.json" '[.rows[] | select(.metric == "gbps")] | length == 2 and all(.[]; (.ratio - 1.5 | fabs) < 1e-9 and .low > 1 and .low < 1.5 and .high > 1.5 and .significant)'
ok $? "+50% on each point, its interval around 1.5 and above 1 ($(jq -c '[.rows[] | select(.metric == "gbps") | [.low, .high]]' "$tmp/chosen-diff.json"))"
grep -Eq '^one-copy 4K x1 stream +.* \+50\.0% \(\+[0-9.]+% \.\. \+[0-9.]+%\)$' "$tmp/chosen.txt"
ok $? "the text says +50.0% with its interval" || diag "$tmp/chosen.txt"
grep -q '^gbps,,"zero-copy 4K x1 stream",.*,true,[0-9.e-]*$' "$tmp/chosen.csv"
ok $? "--csv says the change is significant" || diag "$tmp/chosen.csv"

# A point only one export has; an environment that differs.
jq 'del(.runs[] | select(.strategy == "one-copy")) | .environment.sysctl["net.core.rmem_max"] = "1"' \
	"$old" >"$tmp/fewer.json"
"$NIO_TOP" --diff "$old" "$tmp/fewer.json" >"$tmp/fewer.txt" 2>"$tmp/err"
grep -q '^only in old: one-copy 4K x1 stream (3 runs)$' "$tmp/fewer.txt"
ok $? "a point only the old export has is listed" || diag "$tmp/fewer.txt"
grep -q '^  environment.sysctl.net.core.rmem_max: [0-9]* -> 1$' "$tmp/fewer.txt"
ok $? "an environment that differs is listed first" || diag "$tmp/fewer.txt"

# New runs that all failed give no row: they are listed, in the text and
# in -o, and the new export's make --diff exit 1.  one-copy's three runs
# end with an error; of zero-copy's, two were stopped and one was too
# short (a failure is named first, and a short run is no failure).
jq '(.runs[] | select(.strategy == "one-copy")) |= (.error = "connection reset")
	| ([.runs[] | select(.strategy == "zero-copy") | .run]) as $zc
	| (.runs[] | select(.run == $zc[0] or .run == $zc[1])) |= (.stopped_s = 2)
	| (.runs[] | select(.run == $zc[2])) |= (.measured_s = 0.3)' \
	"$old" >"$tmp/failed.json"
"$NIO_TOP" --diff "$old" "$tmp/failed.json" -o "$tmp/failed-diff.json" \
	>"$tmp/failed.txt" 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && grep -q '^nio-top: --diff: 2 points of the new export with no run to compare' "$tmp/err"
ok $? "--diff against new runs that all failed exits 1, saying so (rc $rc)" || diag "$tmp/err"
grep -q '^new: one-copy 4K x1 stream: 3 runs, all failed: connection reset$' "$tmp/failed.txt" &&
	grep -q '^new: zero-copy 4K x1 stream: 3 runs, none compared: stopped for 2.0 s while measuring (--keep-stopped keeps it) (1 run for another reason)$' "$tmp/failed.txt"
ok $? "the text lists each such point with its runs and the first failure" || diag "$tmp/failed.txt"
jq_true "$tmp/failed-diff.json" '.rows == [] and (.uncompared | map([.side, .point, .runs, .failed, .why[:16]])) == [["new", "one-copy 4K x1 stream", 3, true, "connection reset"], ["new", "zero-copy 4K x1 stream", 3, false, "stopped for 2.0 "]]'
ok $? "-o lists them under uncompared ($(jq -c '.uncompared | map([.point, .failed])' "$tmp/failed-diff.json"))"
"$NIO_TOP" --diff "$tmp/failed.json" "$old" >"$tmp/old-failed.txt" 2>"$tmp/err"
rc=$?
[ $rc = 0 ] && grep -q '^old: one-copy 4K x1 stream: 3 runs, all failed: connection reset$' "$tmp/old-failed.txt"
ok $? "old runs that all failed are listed, and exit 0 (rc $rc)" || diag "$tmp/old-failed.txt"

# A real change: one field a message against eight.
new="$tmp/new.json"
"$NIO_TOP" --batch -s one-copy,zero-copy -m 4K --repeat 3 -d 1.2 -w 0.2 \
	--fields 1 -o "$new" >/dev/null 2>"$tmp/err"
"$NIO_TOP" --diff "$old" "$new" -o "$tmp/fields.json" >"$tmp/fields.txt" \
	2>"$tmp/err"
ok $? "--diff of --fields 8 against --fields 1 exits 0" || diag "$tmp/err"
grep -q '^  settings.fields: 8 -> 1$' "$tmp/fields.txt"
ok $? "the setting under test is listed first" || diag "$tmp/fields.txt"
jq_true "$tmp/fields.json" '(.only_old + .only_new) == [] and ([.rows[] | select(.metric == "gbps" and .settings.strategy == "zero-copy")] | length == 1 and (.[0] | (.low | type) == "number" and (.high | type) == "number" and .low < .ratio and .ratio < .high))'
ok $? "zero-copy 4K is matched across the change, with its interval ($(jq -c '.rows[] | select(.metric == "gbps" and .settings.strategy == "zero-copy") | [.ratio, .low, .high]' "$tmp/fields.json"))"

# Both loaded: their runs one after the other, and the same comparison.
"$NIO_TOP" --load "$old" "$new" --batch >"$tmp/both.txt" 2>"$tmp/err"
ok $? "--load OLD NEW --batch exits 0" || diag "$tmp/err"
[ "$(grep -cE '^ +[0-9]+ (one|zero)-copy ' "$tmp/both.txt")" = 12 ] &&
	grep -q '^compared: runs 1-6 against 7-12$' "$tmp/both.txt"
ok $? "it lists the 12 runs, then compares runs 1-6 against 7-12" || diag "$tmp/both.txt"
sed -n '/^compared:/,$p' "$tmp/both.txt" | tail -n +2 >"$tmp/both-diff.txt"
tail -n +3 "$tmp/fields.txt" | diff - "$tmp/both-diff.txt" >/dev/null
ok $? "the comparison is --diff's, line for line"
size=80x24
start "${utf8[@]}" -- --load "$old" "$new"
wait_screen 'runs 1-6: .*old.json, 7-12: .*new.json' 50
ok $? "the explorer says which runs came from which file"
T send-keys -t ui 3
wait_screen 'Compare: runs 1-6 against 7-12' 30 &&
	wait_screen '^│   [0-9.k]+ ±[0-9]+% n=3 -> [0-9.k]+ ±[0-9]+% n=3  ' 10
ok $? "its compare view (3) shows the comparison, each point's figures under its name at 80 columns" || screen | comment
screen | grep -q 'settings.fields: 8 -> 1'
ok $? "with the setting under test first"
T send-keys -t ui F10
wait_screen 'q quits' 20
T send-keys -t ui q
wait_exit && [ "$(cat "$tmp/exit")" = 0 ]
ok $? "q quits with 0"

# Bad input.
"$NIO_TOP" --diff "$old" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q 'needs two exports' "$tmp/err"
ok $? "--diff with one export exits 2, saying it needs two"
"$NIO_TOP" --diff "$old" "$tmp/missing.json" >/dev/null 2>"$tmp/err"
[ $? = 1 ] && grep -q 'missing.json' "$tmp/err"
ok $? "--diff of a missing file exits 1 naming it"
echo '{"format": "nio-top-run", "version": 1, "runs": 3}' >"$tmp/bad.json"
"$NIO_TOP" --diff "$old" "$tmp/bad.json" >/dev/null 2>"$tmp/err"
[ $? = 1 ] && grep -q 'bad.json' "$tmp/err"
ok $? "--diff of a broken export exits 1 naming it ($(head -1 "$tmp/err"))"

done_testing
