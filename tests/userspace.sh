#!/bin/bash
# As a user who may not sample the kernel (kernel.perf_event_paranoid 2, no
# CAP_PERFMON), a profile holds user space's samples alone: every place that
# shows one says "user space only" and why, and shows the kernel's roles and
# the copy shares as n/a, never as 0 or as "other" -- the batch's analysis,
# the export, the CSV, the SVG, and the explorer's gauges, runs table,
# compare, analysis and data path at 80x24 and 120x40.  The runs are the
# user nobody's, in a private network namespace of their own.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd tmux jq setpriv unshare ip

paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
[ "$paranoid" -ge 2 ] ||
	skip_all "kernel.perf_event_paranoid is $paranoid here: a user may sample the kernel"

. "$(dirname "$0")/tmux.sh"

# nobody's own folder, and nio-top started as nobody over a loopback of its
# own (nobody may not make a namespace: the root that starts it does).
chmod 711 "$tmp"
mkdir -m 1777 "$tmp/u" "$tmp/u/cfg"
cat >"$tmp/as-nobody" <<'EOF'
#!/bin/sh
exec unshare -n sh -c 'ip link set lo up &&
	exec setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"' sh "$@"
EOF
chmod 755 "$tmp/as-nobody"

# The batch: its analysis says it, and each file it writes does.
(cd "$tmp/u" && "$tmp/as-nobody" "$NIO_TOP" --batch -s two-copy,one-copy \
	-m 16K -d 2 -w 0 --profile-hz 4000 -o u.json --csv u.csv \
	--svg u.svg >out 2>err)
ok $? "as nobody, two-copy and one-copy run, sampled" || diag "$tmp/u/err"
grep -qE '^  sampled where the CPU goes: runs 1-2: user space only: kernel samples are not allowed .*perf_event_paranoid.*their CPU by role is n/a$' "$tmp/u/out"
ok $? "the batch's analysis says the profiles are user space only, why, and that their roles are n/a" || diag "$tmp/u/out"
jq_true "$tmp/u/u.json" '[.runs[].profile[] | .user_only and .copy_share == null and ([.roles[].share] | all(. == null))] | all'
ok $? "the export: user_only, no share of the CPU for any role nor the copies ($(jq -c '[.runs[].profile[] | .samples]' "$tmp/u/u.json") user-space samples)"
jq_true "$tmp/u/u.json" '.analysis.user_space_only | test("^runs 1-2: user space only: .*perf_event_paranoid")'
ok $? "the export's analysis says which runs, and why"
cells=$(python3 - "$tmp/u/u.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(sum(1 for r in rows for k, v in r.items() if k.endswith("_share") and v != ""))
PY
)
[ "$cells" = 0 ]
ok $? "the CSV: every share cell empty ($cells not)"
grep -q 'class="role-na"' "$tmp/u/u.svg" && ! grep -q 'class="role"' "$tmp/u/u.svg" &&
	grep -q 'class="profile-note".*n/a: runs 1-2: user space only' "$tmp/u/u.svg"
ok $? "the SVG: n/a bars, none stacked by role, and a note saying why"

# The explorer as nobody.
config="$tmp/u/cfg"
ui_binary="$tmp/as-nobody $NIO_TOP"
size=80x24
start "${utf8[@]}" -- -s two-copy,one-copy -m 16K -d 1.5 -w 0 \
	--profile-hz 4000 -o "$tmp/u/ui.json"
# Every screen of the sweep: an n/a reason in the gauges is wrapped, never
# cut with an ellipsis.
: >"$tmp/u/na"
gauges_na() {
	local s
	s=$(screen)
	grep -E '││ .*n/a' <<<"$s" >>"$tmp/u/na"
	grep -E '││.*…' <<<"$s" | grep -v 'Gauges, over' >>"$tmp/u/cut"
	grep -q 'sweep done: 2 of 2 points complete' <<<"$s"
}
wait_until -t 3000 gauges_na
ok $? "80x24: a sweep of two runs as nobody"
grep -q 'run as root' "$tmp/u/na" && [ ! -s "$tmp/u/cut" ]
ok $? "80x24: the gauges' n/a reasons wrapped, none cut ($(sort -u "$tmp/u/cut" 2>/dev/null | head -2 | sed 's/  */ /g'))"
wait_screen '││ tx user space only: ' 200 &&
	wait_screen '││ rx user space only: ' 200
ok $? "80x24: both sides' profile rows say user space only"
! screen | grep -qE '││ (tx|rx) (other|user copy|stack)'
ok $? "80x24: no profile row presents user space's samples as the CPU's"
# As much of why as the rows leave room for, down to the fix: never cut.
wait_screen '││   (kernel n/a: run as root|user space only: kernel samples)' 200 &&
	wait_screen '││ .*kernel.perf_event_paranoid=1 +│$' 200
ok $? "80x24: why, or at least the fix, wrapped (not cut)"
T send-keys -t ui 3
wait_screen 'Compare: ' 200
for _ in $(seq 12); do
	T send-keys -t ui Down
done
wait_screen 'CPU by role n/a in runs [12], [12]: user space only: kernel' 200 &&
	wait_screen 'allowed to this user \(kernel.perf_event_paranoid\): run as' 200
ok $? "80x24: compare says the runs' roles are n/a, and why"
T send-keys -t ui 5
wait_screen 'Sampled where the CPU goes: runs 1-2: user space only: kernel' 200
ok $? "80x24: the analysis says it"
T send-keys -t ui 1 x
wait_screen 'Data path of two-copy' 200 &&
	wait_screen "measured in run 1: send copy n/a \\(the sender's kernel was" 200 &&
	wait_screen 'measured in run 1: user copy [0-9]+%' 200 &&
	wait_screen "(sender's samples,|all of user space)" 200
ok $? "80x24: the data path: the kernel's copy n/a, the program's own as user space's"
for _ in $(seq 12); do
	T send-keys -t ui Down
done
wait_screen 'Measured in run 1: user space only: kernel samples are not' 200
ok $? "80x24: the data path says why"
T send-keys -t ui Escape q
wait_exit
ok $? "80x24: q quits"
T kill-server

size=120x40
start "${utf8[@]}" -- -s two-copy,one-copy -m 16K -d 1.5 -w 0 \
	--profile-hz 4000 -o "$tmp/u/ui.json"
wait_screen 'sweep done: 2 of 2 points complete' 300
ok $? "120x40: a sweep of two runs as nobody"
wait_screen '││ Sender +user space only: ' 200 &&
	wait_screen '││ Receiver +user space only: ' 200 &&
	wait_screen '││   user space only: kernel samples are not allowed to this' 200
ok $? "120x40: the profile rows say user space only, and why in full"
wait_screen '│ +[12] (two|one)-copy 16 KiB x1 +stream .* n/a +n/a ' 200 &&
	wait_screen '│ copy tx, copy rx n/a: user space only: kernel samples are' 200
ok $? "120x40: the runs table's copy columns say n/a, and why"
T send-keys -t ui q
wait_exit
ok $? "120x40: q quits"

done_testing
