#!/bin/bash
# --baseline: a study run, then compared with an export read before it
# ran, as --diff compares two, and judged by --gate: an export that cannot
# be read stops it before anything runs (exit 2); a rule no run can break
# passes (exit 0), the comparison after the table and in the export -o
# writes; a baseline 1000 times faster (tests/gatefixture.py scales a
# real one) fails (exit 1), and --format markdown prints the comparison
# alone.  Only what noise cannot change is asserted: a change of 1000
# times, rules at -50% and -99.9%.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq python3
study=(-s one-copy -m 4K --repeat 3 -d 1 -w 0.2)

"$NIO_TOP" --batch "${study[@]}" -o "$tmp/base.json" >/dev/null 2>"$tmp/err"
ok $? "a baseline of 3 runs" || diag "$tmp/err"

"$NIO_TOP" "${study[@]}" --baseline "$tmp/missing.json" --gate 'gbps<-5%' \
	>"$tmp/out" 2>"$tmp/err"
[ $? = 2 ] && [ ! -s "$tmp/out" ] && grep -q 'missing.json' "$tmp/err"
ok $? "a baseline that cannot be read: exit 2, and nothing ran" || diag "$tmp/err"

"$NIO_TOP" "${study[@]}" --baseline "$tmp/base.json" --gate 'gbps<-99.9%' \
	-o "$tmp/new.json" >"$tmp/out" 2>"$tmp/err"
ok $? "a rule no run can break: exit 0" || diag "$tmp/err"
grep -qE '^ +3 one-copy ' "$tmp/out" && grep -q "^old: .*base.json$" "$tmp/out" &&
	grep -q "^new: .*new.json$" "$tmp/out" && grep -q '^Gbit/s delivered ' "$tmp/out" &&
	grep -q '^nio-top: gate passed: 1 rule' "$tmp/err"
ok $? "the comparison follows the runs' table, the gate's verdict on standard error" || diag "$tmp/out"
jq_true "$tmp/new.json" '(.runs | length) == 3 and .baseline.format == "nio-top-diff" and (.baseline.old | endswith("base.json")) and .baseline.gate.status == 0 and ([.baseline.rows[] | select(.metric == "gbps")] | length) == 1'
ok $? "the export -o writes holds the comparison as its baseline"

python3 "$NIO_TOP_SOURCE/tests/gatefixture.py" scale "$tmp/base.json" \
	"$tmp/fast.json" --factor 1000
"$NIO_TOP" "${study[@]}" --baseline "$tmp/fast.json" --gate 'gbps<-50%' \
	--format markdown >"$tmp/out.md" 2>"$tmp/err"
[ $? = 1 ] && grep -q 'nio-top: gate: gbps<-50% broken at one-copy 4K x1 stream: -99.9%' "$tmp/err"
ok $? "a baseline 1000 times faster: exit 1, the point named" || diag "$tmp/err"
head -1 "$tmp/out.md" | grep -q '^### nio-top: .*fast.json against this study$' &&
	! grep -qE '^ +[0-9]+ one-copy ' "$tmp/out.md" &&
	grep -qF '**Gate `gbps<-50%`**: failed' "$tmp/out.md"
ok $? "--format markdown: the comparison alone on standard output" || diag "$tmp/out.md"

done_testing
