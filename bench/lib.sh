# Shared by the benchmarks: a temporary folder removed on exit (plus any
# cleanup the script names in bench_cleanup), medians and ratios.

bench_cleanup=:
tmp=$(mktemp -d)
# Under set -e a failing cleanup step would end the trap early: it may fail.
# bash skips the EXIT trap when a signal kills it, so signals exit through it.
trap 'eval "$bench_cleanup" || true; rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# The median of the numbers on standard input, one per line.
median() {
	sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'
}

# ratio A B [DIGITS]: A / B.
ratio() {
	echo "$1 $2" | awk -v d="${3:-3}" '{printf "%.*f", d, $1 / $2}'
}
