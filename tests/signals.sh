#!/bin/bash
# Interrupting a batch: SIGINT or SIGTERM ends the current run at once, the
# runs already finished are still exported, the exit status says which signal,
# and nothing -- namespace, link, thread -- is left behind.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq

before=$(net_snapshot)

for sig in INT TERM; do
	out="$tmp/$sig.json"
	"$NIO_TOP" --batch -s one-copy -m 4K,16K,64K -d 0.5 -w 0 -o "$out" \
		>"$tmp/table" 2>"$tmp/err" &
	pid=$!
	# Wait for the second run to start, then interrupt it.
	for _ in $(seq 100); do
		grep -q ' 2/3 ETA ' "$tmp/err" 2>/dev/null && break
		sleep 0.05
	done
	sleep 0.2
	kill -$sig $pid
	wait $pid
	rc=$?
	want=$((128 + $(kill -l $sig)))
	ok $([ $rc = $want ]; echo $?) "SIG$sig: exit status $want (got $rc)"
	jq_true "$out" '(.runs | length) == 1 and .runs[0].msg_size == 4096 and .runs[0].error == null'
	ok $? "SIG$sig: the finished run is exported, the cut one is not"
	grep -q "wrote 1 run" "$tmp/err"
	ok $? "SIG$sig: stderr says what was written"
	kill -0 $pid 2>/dev/null
	ok $([ $? != 0 ]; echo $?) "SIG$sig: the process is gone"
done

sleep 0.2
[ "$(net_snapshot)" = "$before" ]
ok $? "no namespace or link left behind"

done_testing
