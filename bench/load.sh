#!/bin/bash
# --load of a long export: peak resident memory against the file's size,
# and the load's time against that of a quarter of the runs.  The runs are
# read one at a time (jsonlist.h), so memory holds the file's text and the
# runs as nio-top keeps them, about twice the file, not cJSON's tree of it
# (six or seven times); time and memory both grow as the file does, so the
# quarter takes a quarter.  One real run (one-copy 4K, 1 s) repeated RUNS
# times makes the file, pretty-printed as jq writes it.  Needs root, jq and
# GNU time (/usr/bin/time, Debian's package "time").
#
#   bench/load.sh [BUILD_DIR] [RUNS] [ROUNDS]   (default build 4600 3:
#                                                a 160 MB export)
set -eu
build=${1:-build}
runs=${2:-4600}
rounds=${3:-3}
nio_top=$(realpath "$build/nio-top")
. "$(dirname "$(realpath "$0")")/lib.sh"
for c in jq /usr/bin/time; do
	command -v $c >/dev/null || { echo "bench/load.sh needs $c" >&2; exit 1; }
done
[ "$(id -u)" = 0 ] || { echo "bench/load.sh needs root" >&2; exit 1; }

"$nio_top" --batch -s one-copy -m 4K -d 1 -o "$tmp/one.json" >/dev/null 2>&1
jq --argjson n "$runs" '.runs = [range($n) as $i | .runs[0]]' \
	"$tmp/one.json" >"$tmp/all.json"
jq --argjson n $((runs / 4)) '.runs = [range($n) as $i | .runs[0]]' \
	"$tmp/one.json" >"$tmp/quarter.json"

# load FILE: "SECONDS KIB" of one --load --batch.
load() {
	/usr/bin/time -f '%e %M' -o "$tmp/time" \
		"$nio_top" --load "$1" --batch >/dev/null
	cat "$tmp/time"
}

size=$(stat -c %s "$tmp/all.json")
for _ in $(seq "$rounds"); do
	read -r s_all kib <<<"$(load "$tmp/all.json")"
	read -r s_quarter _ <<<"$(load "$tmp/quarter.json")"
	echo "$s_all $s_quarter $kib" | tee -a "$tmp/rounds" >&2
done
rss=$(awk '{print $3 * 1024}' "$tmp/rounds" | median)
t_all=$(awk '{print $1}' "$tmp/rounds" | median)
t_quarter=$(awk '{print $2}' "$tmp/rounds" | median)
printf '%-26s %10s %8s  %s\n' "load of $runs runs" figure target met
printf '%-26s %10s %8s  %s\n' "file, MB" "$(ratio "$size" 1000000 1)" "" ""
printf '%-26s %10s %8s  %s\n' "peak RSS / file size" \
	"$(ratio "$rss" "$size" 2)" "<= 2.5" \
	"$(awk -v r="$(ratio "$rss" "$size" 2)" 'BEGIN {print r <= 2.5 ? "yes" : "NO"}')"
printf '%-26s %10s %8s  %s\n' "time / time of a quarter" \
	"$(ratio "$t_all" "$t_quarter" 2)" "<= 5" \
	"$(awk -v r="$(ratio "$t_all" "$t_quarter" 2)" 'BEGIN {print r <= 5 ? "yes" : "NO"}')"
printf '%-26s %10s\n' "load time, s" "$t_all"
