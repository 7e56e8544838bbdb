#!/bin/bash
# With io_uring switched off by kernel.io_uring_disabled=2, both io_uring
# strategies are listed as unavailable with the reason, asking for one by
# name exits 2 with that reason, and the other strategies still run.  The
# setting is global: this test restores it on every exit and runs alone.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
knob=/proc/sys/kernel/io_uring_disabled
[ -w $knob ] || skip_all "no writable $knob"
saved=$(cat $knob)
trap 'echo "$saved" >'$knob'; rm -rf "$tmp"' EXIT
echo 2 >$knob || skip_all "cannot set $knob"

list=$("$NIO_TOP" --list-strategies)
for s in uring uring-zc; do
	grep -Eq "^$s +unavailable +io_uring is disabled \(kernel.io_uring_disabled=2\)" <<<"$list"
	ok $? "--list-strategies: $s unavailable, saying why"
done
grep -Eq '^one-copy +available' <<<"$list"
ok $? "--list-strategies: one-copy still available"

err=$("$NIO_TOP" --batch -s uring -d 0.2 2>&1)
rc=$?
[ $rc = 2 ] && [[ "$err" == *"--strategy: 'uring' is unavailable here: io_uring is disabled (kernel.io_uring_disabled=2)"* ]]
ok $? "-s uring exits 2 with the reason (got $rc)"

"$NIO_TOP" --batch -s all -m 4K -d 0.2 -w 0 -o "$tmp/r.json" >/dev/null 2>&1
ok $? "-s all still runs"
jq_true "$tmp/r.json" '[.runs[].strategy] == ["two-copy", "one-copy", "zero-copy", "sendfile", "splice"] and ([.runs[] | .bytes_received == .bytes_sent] | all)'
ok $? "-s all ran the five strategies io_uring does not need"
jq_true "$tmp/r.json" '.capabilities.strategies.uring.available == false and (.capabilities.strategies["uring-zc"].reason | test("io_uring_disabled=2"))'
ok $? "the export's capabilities say why"

echo "$saved" >$knob
ok $([ "$(cat $knob)" = "$saved" ]; echo $?) "io_uring_disabled restored to $saved"

done_testing
