#!/bin/bash
# The gate measured on this machine: how often it cries wolf, how often it
# catches a regression, and how far each figure drifts between two
# studies.  Each of PAIRS rounds runs a small study (-s one-copy,zero-copy
# -m 4K,64K --repeat REPEAT -d SECONDS) as the baseline A, the same study
# again as A' (an A/A pair: nothing changed), and the study with each
# point's Gbit/s capped by --rate (tbf on the senders' link: a regression
# paid in the kernel) to cost 10% and 25% of what A measured there -- a
# point a study of its own, their runs one export -- then compares A with
# each by --diff --gate:
#
#   false alarms   the A/A pairs in which a rule broke at any point, per
#                  rule (goal for gbps<-5%: at most 1 of 20)
#   detection      the capped pairs in which gbps<-5% broke, at -10% and
#                  at -25% (goal at -25%: at least 80%), and what the caps
#                  really cost: the median over pairs and points of the
#                  capped Gbit/s over A's
#   rows called    the share of A/A rows called changed, per figure: a
#                  calibrated 90% interval, called only beyond 1%, calls at
#                  most about 10% (a row is not a gate)
#   drift          per figure, what two studies differ by beyond their
#                  runs' spread (nio-top(1), DIFF AND GATE): from the odd
#                  pairs, the least --drift, in half per cents, with which
#                  at most a tenth of their A/A rows is called changed;
#                  and the share of the even pairs' rows called with it
#                  (nio-top's defaults are these; the rows called and the
#                  false alarms above are judged with the defaults built
#                  in)
#
# TCP through tbf delivers less than the rate it is given, so the caps are
# measured first: one study, then each point capped at 90% and 75% of it,
# gives each point and level the rate that costs that much (the rate
# times what was wanted over what it cost, 1 to 2 times), used in every
# round.  The studies are measured first, then judged: with GATE_KEEP=DIR
# their exports are kept in DIR (round-N-a.json, -again, -cap90, -cap75),
# and --judge DIR judges exports kept before, measuring nothing (a new
# estimator on the same studies).  Per-round figures go to stderr, the
# table to stdout.  Needs root (to measure) and jq.
#
#   bench/gate.sh [BUILD_DIR] [PAIRS] [SECONDS] [REPEAT]   (default build 20 1 5)
#   bench/gate.sh --judge DIR [BUILD_DIR]
set -eu
strategies=one-copy,zero-copy
sizes=4K,64K
judge_only=
if [ "${1:-}" = --judge ]; then
	judge_only=$(realpath "${2:?bench/gate.sh --judge DIR [BUILD_DIR]}")
	shift 2
fi
build=${1:-build}
pairs=${2:-20}
seconds=${3:-1}
repeat=${4:-5}
nio_top=$(realpath "$build/nio-top")
. "$(dirname "$(realpath "$0")")/lib.sh"
command -v jq >/dev/null || { echo "bench/gate.sh needs jq" >&2; exit 1; }
if [ "$judge_only" ]; then
	keep=$judge_only
	pairs=$(find "$keep" -name 'round-*-a.json' | wc -l)
	[ "$pairs" -gt 0 ] || { echo "bench/gate.sh: no round-N-a.json in $keep" >&2; exit 1; }
	study_args=$(jq -r '"-s \([.runs[].strategy] | unique | join(",")) -m \([.runs[].msg_size] | unique | map(tostring) | join(",")) --repeat \([.runs[].round] | max) -d \(.runs[0].duration_s)"' "$keep/round-1-a.json")
else
	[ "$(id -u)" = 0 ] || { echo "bench/gate.sh needs root" >&2; exit 1; }
	keep=${GATE_KEEP:-$tmp/kept}
	mkdir -p "$keep"
	study_args="-s $strategies -m $sizes --repeat $repeat -d $seconds"
fi

rules='gbps<-5%,msgs_per_s<-5%,cpu_ns_per_kib>+5%'
rate_max=$((8 * 2147483647))

# study OUT [ARGS]: the study, its export at OUT (a failed run is kept:
# the gate reports it).
study() {
	local out=$1
	shift
	"$nio_top" --batch -s "$strategies" -m "$sizes" --repeat "$repeat" \
		-d "$seconds" -o "$out" "$@" >/dev/null 2>"$tmp/study.err" || true
	[ -s "$out" ] || { echo "bench/gate.sh: the study wrote no export: $(tail -1 "$tmp/study.err")" >&2; exit 1; }
}

# median_of EXPORT STRATEGY SIZE: the point's median Gbit/s (0: none).
median_of() {
	jq --arg s "$2" --argjson z "$(numfmt --from=iec "$3")" \
		'[.runs[] | select(.strategy == $s and .msg_size == $z and .error == null) | .gbps] | sort | if length == 0 then 0 elif length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end' \
		"$1"
}

# capped BASE LEVEL OUT: each point of BASE run again with its Gbit/s capped
# to cost 1 - LEVEL of BASE's median there (by the factor measured first,
# if any); the runs of all of them in OUT.
capped() {
	local base=$1 level=$2 out=$3 parts=() s m median factor rate
	for s in ${strategies//,/ }; do
		for m in ${sizes//,/ }; do
			median=$(median_of "$base" "$s" "$m")
			factor=$(cat "$tmp/factor-$level-$s-$m" 2>/dev/null || echo 1)
			rate=$(awk -v g="$median" -v l="$level" -v f="$factor" -v max="$rate_max" \
				'BEGIN { r = g * l * f * 1e9; if (r > max) r = max; if (r < 8000) r = 8000; printf "%.0f", r }')
			"$nio_top" --batch -s "$s" -m "$m" --repeat "$repeat" \
				-d "$seconds" --rate "$rate" -o "$tmp/part-$s-$m.json" \
				>/dev/null 2>"$tmp/study.err" || true
			parts+=("$tmp/part-$s-$m.json")
		done
	done
	jq -s '.[0] + {runs: [.[].runs[]]}' "${parts[@]}" >"$out"
}

# calibrate: the caps measured first, a factor per level and point.
calibrate() {
	local s m q
	study "$tmp/first.json"
	for level in 0.90 0.75; do
		capped "$tmp/first.json" "$level" "$tmp/first-$level.json"
		for s in ${strategies//,/ }; do
			for m in ${sizes//,/ }; do
				q=$(awk -v b="$(median_of "$tmp/first-$level.json" "$s" "$m")" \
					-v a="$(median_of "$tmp/first.json" "$s" "$m")" \
					'BEGIN { print (a > 0 ? b / a : 0) }')
				awk -v l="$level" -v q="$q" 'BEGIN { f = q > 0 ? l / q : 1;
					if (f < 1) f = 1; if (f > 2) f = 2; printf "%.3f", f }' \
					>"$tmp/factor-$level-$s-$m"
				printf 'caps: %s %s capped at %s of its Gbit/s cost %.3f: the rate times %s\n' \
					"$s" "$m" "$level" "$q" "$(cat "$tmp/factor-$level-$s-$m")" >&2
			done
		done
	done
}

# judge OLD NEW NAME [ARGS]: --diff --gate, its JSON kept as NAME.json.
judge() {
	local old=$1 new=$2 name=$3
	shift 3
	rm -f "$tmp/$name.json"
	"$nio_top" --diff "$old" "$new" --gate "$rules" --change topology.rate \
		-o "$tmp/$name.json" "$@" >/dev/null 2>"$tmp/$name.err" || true
	jq -e '.gate' "$tmp/$name.json" >/dev/null 2>&1 ||
		{ echo "bench/gate.sh: --diff $name failed: $(tail -1 "$tmp/$name.err")" >&2; exit 1; }
}

# broke NAME RULE: 1 if RULE broke at some point of NAME's comparison.
broke() {
	jq --arg r "$2" '[.gate.broken[] | select(.rule == $r)] | if length > 0 then 1 else 0 end' "$tmp/$1.json"
}

record() { echo "$2" >>"$tmp/$1"; }
count() { awk '{ s += $1 } END { print s + 0 }' "$tmp/$1"; }
# row WHAT FIGURE GOAL MET
row() { printf '| %-54s | %-26s | %-11s | %-7s |\n' "$1" "$2" "$3" "$4"; }
met() { awk -v v="$1" -v op="$2" -v t="$3" 'BEGIN { print (((op == "<=" && v <= t) || (op == ">=" && v >= t)) ? "met" : "NOT met") }'; }
# called FILE: each figure of FILE's rows "figure called all", a line each.
called() {
	awk '{ n[$1]++; c[$1] += $2 } END { for (k in n) printf "%s %d %d\n", k, c[k], n[k] }' "$1" | sort
}
share() { awk -v c="$1" -v a="$2" 'BEGIN { if (a == 0) printf "-"; else printf "%d of %d (%.0f%%)", c, a, 100 * c / a }'; }

# figures NAME FILTER: each row of NAME's comparison as "figure[.side]
# REST", REST what the jq FILTER makes of the row.
figures() {
	jq -r ".rows[] | \"\(.metric)\(if .side then \".\" + .side else \"\" end) \($2)\"" "$tmp/$1.json"
}

if [ -z "$judge_only" ]; then
	calibrate
	for round in $(seq "$pairs"); do
		study "$tmp/a.json"
		study "$tmp/again.json"
		capped "$tmp/a.json" 0.90 "$tmp/cap90.json"
		capped "$tmp/a.json" 0.75 "$tmp/cap75.json"
		for f in a again cap90 cap75; do
			mv "$tmp/$f.json" "$keep/round-$round-$f.json"
		done
		echo "round $round measured" >&2
	done
fi

for round in $(seq "$pairs"); do
	at=$keep/round-$round
	judge "$at-a.json" "$at-again.json" aa
	judge "$at-a.json" "$at-cap90.json" c90
	judge "$at-a.json" "$at-cap75.json" c75
	judge "$at-a.json" "$at-again.json" aa0 --drift 0
	judge "$at-a.json" "$at-cap90.json" c90-0 --drift 0
	record alarm0 "$(broke aa0 'gbps<-5%')"
	record detect90-0 "$(broke c90-0 'gbps<-5%')"
	figures aa0 'if .significant then 1 else 0 end' >>"$tmp/rows0"
	for rule in ${rules//,/ }; do
		record "alarm-$rule" "$(broke aa "$rule")"
	done
	record detect90 "$(broke c90 'gbps<-5%')"
	record detect75 "$(broke c75 'gbps<-5%')"
	for level in 90 75; do
		jq -r '.rows[] | select(.metric == "gbps") | .ratio' "$tmp/c$level.json" >>"$tmp/real$level"
	done
	# Each A/A row: its figure and side, and whether it was called.
	figures aa 'if .significant then 1 else 0 end' >>"$tmp/rows"
	printf 'round %s: A/A gate %s (%s); capped -10%%: %s, Gbit/s %s; -25%%: %s, Gbit/s %s\n' \
		"$round" "$(jq -r '.gate.status' "$tmp/aa.json")" \
		"$(jq -r '[.gate.broken[] | "\(.rule) at \(.point)"] | join("; ")' "$tmp/aa.json")" \
		"$(jq -r '.gate.status' "$tmp/c90.json")" \
		"$(jq -r '[.rows[] | select(.metric == "gbps") | .ratio * 1000 | round / 1000] | map(tostring) | join(" ")' "$tmp/c90.json")" \
		"$(jq -r '.gate.status' "$tmp/c75.json")" \
		"$(jq -r '[.rows[] | select(.metric == "gbps") | .ratio * 1000 | round / 1000] | map(tostring) | join(" ")' "$tmp/c75.json")" >&2
done

# The drift of each figure from the odd pairs: the least, in half per
# cents up to 25, with which at most a tenth of their A/A rows is called
# changed (at every figure's drift alike, each figure's own count); then
# the even pairs judged with it.
: >"$tmp/drift"
for d in $(awk 'BEGIN { for (d = 0; d <= 25; d += 0.5) print d }'); do
	: >"$tmp/rows-odd"
	for round in $(seq 1 2 "$pairs"); do
		at=$keep/round-$round
		judge "$at-a.json" "$at-again.json" aa-odd --drift "$d"
		figures aa-odd 'if .significant then 1 else 0 end' >>"$tmp/rows-odd"
	done
	called "$tmp/rows-odd" | while read -r figure c all; do
		if ! grep -q "^$figure " "$tmp/drift" && [ $((c * 10)) -le "$all" ]; then
			echo "$figure $d" >>"$tmp/drift"
		fi
	done
	[ "$(wc -l <"$tmp/drift")" -lt "$(called "$tmp/rows-odd" | wc -l)" ] || break
done
sort -o "$tmp/drift" "$tmp/drift"
drift=$(awk '{ printf "%s%s=%s", (NR > 1 ? "," : ""), $1, $2 }' "$tmp/drift")
echo "drift from the odd pairs: --drift $drift" >&2
for round in $(seq 2 2 "$pairs"); do
	at=$keep/round-$round
	judge "$at-a.json" "$at-again.json" aa-even --drift "$drift"
	figures aa-even 'if .significant then 1 else 0 end' >>"$tmp/rows-even"
done


. /etc/os-release
echo
echo "nio-top bench/gate.sh on $(date +%F): $PRETTY_NAME, Linux $(uname -r)," \
	"$(nproc) CPUs ($(sed -n 's/^model name\t*: //p' /proc/cpuinfo | head -1));" \
	"$pairs pairs of $study_args${judge_only:+ (kept, judged again)}"
echo
row measure figure goal verdict
echo "|--------------------------------------------------------|----------------------------|-------------|---------|"
for rule in ${rules//,/ }; do
	n=$(count "alarm-$rule")
	goal=""; verdict="-"
	if [ "$rule" = 'gbps<-5%' ]; then
		goal="<= 1 of 20"
		verdict=$(met "$(awk -v n="$n" -v p="$pairs" 'BEGIN { print n * 20 / p }')" "<=" 1)
	fi
	row "false alarms, A/A, $rule" "$n of $pairs" "$goal" "$verdict"
done
row "  gbps<-5% with --drift 0" "$(count alarm0) of $pairs" "" "-"
for level in 90 75; do
	n=$(count "detect$level")
	goal=""; verdict="-"
	if [ "$level" = 75 ]; then
		goal=">= 80%"
		verdict=$(met "$(awk -v n="$n" -v p="$pairs" 'BEGIN { print 100 * n / p }')" ">=" 80)
	fi
	row "detected, Gbit/s capped to cost $((100 - level))%, gbps<-5%" "$n of $pairs" "$goal" "$verdict"
	[ "$level" = 75 ] || row "  with --drift 0" "$(count "detect$level-0") of $pairs" "" "-"
	row "  the cap's Gbit/s / A's, median" \
		"$(median <"$tmp/real$level" | awk '{ printf "%.3f", $1 }')" "" "-"
done
echo
echo "| figure                        | drift, odd pairs | even pairs' rows called with it | rows called, defaults | rows called, no drift |"
echo "|-------------------------------|------------------|---------------------------------|-----------------------|-----------------------|"
called "$tmp/rows" | while read -r figure c all; do
	even=$(called "$tmp/rows-even" | awk -v f="$figure" '$1 == f { print $2, $3 }')
	none=$(called "$tmp/rows0" | awk -v f="$figure" '$1 == f { print $2, $3 }')
	printf '| %-29s | %-16s | %-31s | %-21s | %-21s |\n' "$figure" \
		"$(awk -v f="$figure" '$1 == f { print $2 "%" }' "$tmp/drift")" \
		"$(share ${even:-0 0})" "$(share "$c" "$all")" "$(share ${none:-0 0})"
done
echo
echo "(rows called: a calibrated 90% interval, called only beyond 1%, calls at most about 10%)"
