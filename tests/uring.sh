#!/bin/bash
# The io_uring strategies over veth: every byte and message delivered in
# order (--verify), and uring-zc accounts a notification for every zero-copy
# request, each reporting the copy the kernel made at veth delivery.  With
# two slots a slot is rewritten as soon as its notification arrives: --verify
# proves none is rewritten early.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
"$NIO_TOP" --list-strategies | grep -Eq '^uring-zc +available' ||
	skip_all "io_uring zero-copy is unavailable here"

out="$tmp/grid.json"
"$NIO_TOP" --batch -s uring,uring-zc -m 4K,64K -t 1,2 -d 0.5 -w 0.1 --verify \
	-o "$out" >/dev/null 2>"$tmp/grid.err"
rc=$?
ok $rc "uring and uring-zc x 4K,64K x 1,2 exit 0"
[ $rc = 0 ] || grep -v '^\[' "$tmp/grid.err" | comment
jq -r '.runs[] | select(.error) | "# run \(.run): \(.error)"' "$out"
runs=$(jq '.runs | length' "$out")
ok $([ "$runs" = 8 ]; echo $?) "8 runs exported (got $runs)"
jq_true "$out" '[.runs[] | .bytes_received == .bytes_sent and .messages_received == .messages_sent and .messages_sent > 0] | all'
ok $? "every run: bytes and messages received == sent"
jq_true "$out" '[.runs[] | .integrity.corrupt == 0 and .integrity.checked == .messages_received] | all'
ok $? "every run: every message checked, none corrupt"
jq_true "$out" '[.runs[] | select(.strategy == "uring-zc") | .zerocopy.sends > 0 and .zerocopy.completions == .zerocopy.sends] | all'
ok $? "uring-zc: notifications == zero-copy requests"
jq_true "$out" '[.runs[] | select(.strategy == "uring-zc") | .zerocopy.copied == .zerocopy.completions] | all'
ok $? "uring-zc over veth: the usage report says copied for every one"
jq_true "$out" '[.runs[] | select(.strategy == "uring") | .zerocopy == null] | all'
ok $? "uring carries no zero-copy block"

# run NAME ARGS...: one checked run; every invariant must hold.
run() {
	local name=$1
	shift
	"$NIO_TOP" --batch -d 0.5 -w 0 --verify -o "$tmp/one.json" "$@" \
		>/dev/null 2>&1
	ok $? "$name: exits 0"
	jq_true "$tmp/one.json" '[.runs[] | .bytes_received == .bytes_sent and .messages_sent > 0 and .integrity.corrupt == 0 and .error == null and (.zerocopy == null or .zerocopy.completions == .zerocopy.sends)] | all'
	ok $? "$name: all bytes, 0 corrupt, all notifications"
}

run "uring-zc with 2 slots" -s uring-zc --slots 2 -m 4K,64K -t 2
run "uring-zc with 1 slot" -s uring-zc --slots 1 -m 16K
run "uring-zc --uring-fixed" -s uring-zc --uring-fixed -m 1001,64K -t 2
run "uring-zc --uring-fixed with 2 slots" -s uring-zc --uring-fixed --slots 2 -m 4K
# The completion queue is sized for everything that can be owed at once:
# with registered buffers (where sends are fastest) it never overflows.
out="$tmp/fixed.json"
"$NIO_TOP" --batch -s uring-zc --uring-fixed -m 4K,16K,64K -d 0.5 -w 0.1 \
	--verify -o "$out" >/dev/null 2>&1
ok $? "uring-zc --uring-fixed at 4K, 16K and 64K exits 0"
jq_true "$out" '([.runs[] | .uring.cq_overflow == 0 and .error == null and .integrity.corrupt == 0] | all) and (.runs | length) == 3'
ok $? "--uring-fixed: uring.cq_overflow is 0 in every run ($(jq -c '[.runs[].uring.cq_overflow]' "$out"))"
if "$NIO_TOP" --check | grep -Eq '^uring-fixed +yes'; then
	jq_true "$out" '[.runs[] | .uring.fixed_sends > 0 and .uring.fixed_sends == .zerocopy.sends] | all'
	ok $? "--uring-fixed: every zero-copy request went from the registered buffers"
else
	jq_true "$out" '[.runs[] | .uring.fixed_sends == 0] | all'
	ok $? "--uring-fixed without kernel support: none claims registered buffers"
fi
jq_true "$tmp/grid.json" '[.runs[] | .uring.cq_overflow == 0 and .uring.fixed_sends == 0] | all'
ok $? "uring and uring-zc without --uring-fixed: no overflow, no registered sends"
jq_true "$tmp/grid.json" '[.runs[] | select(.strategy == "uring-zc") | .zerocopy.copied_min == .zerocopy.copied and .zerocopy.copied_max == .zerocopy.copied and .zerocopy.unmatched == 0] | all'
ok $? "uring-zc: one notification per request, so the copied count is exact"
run "--fields 1 and 64" -s uring,uring-zc --fields 1 -m 4K,64K
run "--fields 64 at 100 bytes" -s uring,uring-zc --fields 64 -m 100

run "depth 1" -s uring,uring-zc --uring-depth 1 -m 4K
run "depth 256" -s uring,uring-zc --uring-depth 256 -m 1K
run "4 MiB messages" -s uring,uring-zc -m 4M
jq_true "$tmp/one.json" '.config.uring_depth == 8 and .config.uring_fixed == false'
ok $? "the export records the io_uring settings"

done_testing
