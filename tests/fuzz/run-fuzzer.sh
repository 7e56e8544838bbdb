#!/bin/bash
# Runs one libFuzzer target for a bounded time from its seed corpus.  New
# inputs go to a temporary folder, never into the source tree; a crash, leak
# or timeout is copied to the build folder and printed (base64), to be added
# to tests/fuzz/corpus/NAME/ as a regression input.
#
#   run-fuzzer.sh FUZZER SEED_DIR SECONDS [libFuzzer flags...]
set -u
fuzzer=$1 seeds=$2 seconds=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/corpus" "$tmp/found"

"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
	-error_exitcode=1 -timeout_exitcode=1 \
	-artifact_prefix="$tmp/found/" -print_final_stats=1 "$@" \
	"$tmp/corpus" "$seeds" 2>"$tmp/log"
rc=$?
grep -E '^(#[0-9]+ *DONE|stat::number_of_executed_units|stat::new_units_added)' "$tmp/log"
if [ $rc != 0 ]; then
	tail -n 60 "$tmp/log"
	keep=$(dirname "$fuzzer")/fuzz-found
	mkdir -p "$keep"
	for f in "$tmp"/found/*; do
		[ -e "$f" ] || continue
		cp "$f" "$keep/"
		echo "found: $keep/$(basename "$f") (base64 below)"
		base64 "$f" | head -n 40
	done
fi
exit $rc
