#!/bin/bash
# The crossover finder (--crossover) against a dense grid: where B
# overtakes A, found both ways on this machine, and what each cost.
# Needs root and jq.
#
#   bench/crossover.sh [BUILD_DIR] [REPEAT] [SECONDS] [BUDGET] [PAIR] [METRIC]
#                      [OPTIONS]
#     (default build 5 2 300 strategy=one-copy,sendfile gbps "")
#
# PAIR is any --crossover pair: a strategy pair, or DIM=A,B of an option
# --DIM (pin=0,0-1: both threads on CPU 0, or sender on 0 and receiver on 1;
# rx=copy,trunc), with OPTIONS (say "-s one-copy") given to every run.
# grid: every size from 1K to 256K at 2^(1/4) steps (33 sizes), both sides
#   of PAIR, REPEAT runs of each interleaved (a strategy pair: the plan's own
#   --repeat; any other: REPEAT rounds of A's sizes then B's), SECONDS
#   measured after a 0.5 s warm-up.  Its crossover: per size, B's
#   median figure over A's (better above 1, by METRIC's direction); the
#   grid puts the crossover between the size before the first from which
#   B stays ahead and that size, and names it by their middle.
# finder: --crossover PAIR -m 1K..256K --metric METRIC --budget BUDGET,
#   runs of SECONDS after the same warm-up, --repeat 2.
#
# The table: each one's runs and time, the grid's crossover, the finder's
# bracket and state, whether the bracket holds the grid's crossover, and
# the finder's runs over the grid's (the target: at most a third).  Both
# run with --no-profile.  METRIC is gbps, or a side's figure
# (cpu_ns_per_kib.sender).  Run it on a quiet machine: on a busy one both
# answers are noise, and the table says how busy it was.  At REPEAT 1,
# SECONDS 0.3 and BUDGET 30 it is a smoke test of the script.
set -eu
build=${1:-build}
repeat=${2:-5}
seconds=${3:-2}
budget=${4:-300}
pair=${5:-strategy=one-copy,sendfile}
metric=${6:-gbps}
read -ra options <<<"${7:-}"
nio_top=$(realpath "$build/nio-top")
. "$(dirname "$(realpath "$0")")/lib.sh"
command -v jq >/dev/null || { echo "bench/crossover.sh needs jq" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "bench/crossover.sh needs root" >&2; exit 1; }

dim=${pair%%=*}
values=${pair#*=}
a=${values%%,*}
b=${values#*,}

# A figure of a run, as jq reads it from the export.
case $metric in
gbps) figure='.gbps'; higher=true ;;
*.sender | *.receiver)
	figure=".${metric##*.}.derived.${metric%.*}"
	higher=false ;;
*) echo "bench/crossover.sh: METRIC is gbps or KEY.sender|.receiver" >&2; exit 1 ;;
esac

sizes=$(awk 'BEGIN { for (k = 0; k <= 32; k++) printf "%s%d", k ? "," : "", int(1024 * 2 ^ (k / 4) + 0.5) }')
load_before=$(cut -d' ' -f1 /proc/loadavg)

# grid RUNS_FILE ARGS...: the grid's sizes at ARGS, into RUNS_FILE's runs.
grid() {
	local out=$1
	shift
	"$nio_top" --batch "${options[@]}" "$@" -m "$sizes" -d "$seconds" \
		-w 0.5 --no-profile --min-measured 0 -o "$tmp/study.json" \
		>/dev/null 2>"$tmp/grid.err"
	jq '.runs' "$tmp/study.json" >>"$out"
}

start=$(date +%s)
if [ "$dim" = strategy ]; then
	grid "$tmp/grid.runs" -s "$a,$b" --repeat "$repeat"
	jq --arg a "$a" --arg b "$b" -s 'add | {
		a: map(select(.strategy == $a)), b: map(select(.strategy == $b))}' \
		"$tmp/grid.runs" >"$tmp/grid.json"
else
	for ((round = 1; round <= repeat; round++)); do
		grid "$tmp/a.runs" "--$dim" "$a"
		grid "$tmp/b.runs" "--$dim" "$b"
	done
	jq -n --slurpfile a "$tmp/a.runs" --slurpfile b "$tmp/b.runs" \
		'{a: ($a | add), b: ($b | add)}' >"$tmp/grid.json"
fi
grid_s=$(($(date +%s) - start))

start=$(date +%s)
"$nio_top" --batch "${options[@]}" --crossover "$pair" -m 1K..256K \
	--metric "$metric" --budget "$budget" --repeat 2 -d "$seconds" -w 0.5 \
	--no-profile --min-measured 0 -o "$tmp/finder.json" \
	>"$tmp/finder.out" 2>"$tmp/finder.err"
finder_s=$(($(date +%s) - start))
load_after=$(cut -d' ' -f1 /proc/loadavg)

# The grid's crossover: the middle of the size before the first from which
# B stays ahead and that size; null where B is never, or always, ahead.
jq -r --argjson higher "$higher" "
	def med: sort | if length == 0 then null
		elif length % 2 == 1 then .[length / 2 | floor]
		else (.[length / 2 - 1] + .[length / 2]) / 2 end;
	def at(\$size): map(select(.error == null and .msg_size == \$size) |
		$figure) | med;
	. as \$g | [\$g.a | map(.msg_size) | unique[] | . as \$size |
	 {size: \$size, a: (\$g.a | at(\$size)), b: (\$g.b | at(\$size))} |
	 select(.a != null and .b != null and .a > 0 and .b > 0) |
	 .ratio = (if \$higher then .b / .a else .a / .b end)] as \$s |
	[range(0; \$s | length) | select(. > 0 and
		([\$s[.:][] | .ratio > 1] | all) and \$s[. - 1].ratio <= 1)] |
	if length == 0 then \"null\"
	else .[0] as \$i | (\$s[\$i - 1].size * \$s[\$i].size | sqrt | floor)
		| tostring end" "$tmp/grid.json" >"$tmp/grid.cross"
grid_cross=$(cat "$tmp/grid.cross")
grid_runs=$(jq '.a + .b | length' "$tmp/grid.json")
finder_runs=$(jq '.crossover.run_count' "$tmp/finder.json")
state=$(jq -r '.crossover.state' "$tmp/finder.json")
bracket=$(jq -r '.crossover.brackets | if length == 0 then "none"
	else map("\(.below)..\(.above)") | join(", ") end' "$tmp/finder.json")
holds=$(jq -r --argjson g "$grid_cross" '.crossover.brackets |
	if $g == null then "n/a (the grid has no single crossover)"
	elif any(.below <= $g and $g <= .above) then "yes" else "no" end' \
	"$tmp/finder.json")
share=$(ratio "$finder_runs" "$grid_runs" 2)

printf '%-44s %s\n' \
	"pair, figure" "$pair, $metric${options[*]:+ (${options[*]})}" \
	"grid (33 sizes, repeat $repeat, $seconds s)" "$grid_runs runs, $grid_s s" \
	"finder (budget $budget s)" "$finder_runs runs, $finder_s s, $state" \
	"grid's crossover (bytes)" "$grid_cross" \
	"finder's bracket (bytes)" "$bracket" \
	"bracket holds the grid's crossover" "$holds" \
	"finder's runs / grid's (target <= 0.33)" "$share" \
	"load average before, after" "$load_before, $load_after"
echo
tail -1 "$tmp/finder.out"
