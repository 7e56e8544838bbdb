#!/bin/bash
# The engine end to end, over the default veth topology: every strategy x size x
# thread count with --verify delivers every byte and message it sent, finds no
# corrupt message, and accounts every zero-copy send (all copied: veth delivers locally).
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq

before=$(net_snapshot)
strategies=$("$NIO_TOP" --list-strategies | grep -v '^--rx ' | grep -c ' available ')
want=$((strategies * 6))
out="$tmp/r.json"
"$NIO_TOP" --batch -s all -m 256,4K,64K -t 1,2 -d 0.3 -w 0.1 --verify \
	-o "$out" >"$tmp/table" 2>"$tmp/err"
ok $? "the $strategies x 3 x 2 grid runs and exits 0"

jq_true "$out" '.format == "nio-top-run" and .version == 1'
ok $? "the export says what it is"
runs=$(jq '.runs | length' "$out")
ok $([ "$runs" = $want ]; echo $?) "$want runs exported (got $runs)"
jq_true "$out" '[.runs[] | .bytes_received == .bytes_sent] | all'
ok $? "every run: bytes_received == bytes_sent"
jq_true "$out" '[.runs[] | .messages_received == .messages_sent and .messages_sent > 0] | all'
ok $? "every run: messages_received == messages_sent > 0"
jq_true "$out" '[.runs[] | .bytes_sent == .messages_sent * .msg_size] | all'
ok $? "every run: bytes are whole messages"
jq_true "$out" '[.runs[] | .integrity.corrupt == 0 and .integrity.checked == .messages_received] | all'
ok $? "every run: every message checked, none corrupt"
# MSG_ZEROCOPY sends at least once per message; uring-zc once per batch
# of at most --uring-depth (8) messages.
jq_true "$out" '[.runs[] | select(.zerocopy != null) | .zerocopy.completions == .zerocopy.sends and .zerocopy.sends * (if .strategy == "uring-zc" then 8 else 1 end) >= .messages_sent and .zerocopy.unmatched == 0] | all'
ok $? "zero-copy and uring-zc: completions == sends, none unmatched"
jq_true "$out" '[.runs[] | select(.zerocopy != null) | .zerocopy.copied == .zerocopy.completions] | all'
ok $? "zero-copy over veth: the kernel copied every completion"
jq_true "$out" '[.runs[] | select(.strategy | test("zero-copy|uring-zc") | not) | .zerocopy == null] | all'
ok $? "other strategies carry no zero-copy block"
# A busy machine may wake the loop late, so a window can end late (never
# early); it is exactly its measured intervals, the warm-up's not among them.
jq_true "$out" '[.runs[] | .error == null and .gbps > 0 and .measured_s > 0.299 and
	(.measured_s - ([.intervals[] | select(.warmup | not) | .length_s] | add) | fabs) < 1e-6] | all'
ok $? "every run: no error, a rate over a measured window of at least 0.3 s, warm-up excluded"
jq_true "$out" '[.runs[] | (.intervals | length) >= 3 and ([.intervals[] | select(.warmup)] | length) >= 1 and
	([.intervals[].length_s] | sort | .[length / 2 | floor]) < 0.15] | all'
ok $? "every run: 100 ms intervals (the median), the warm-up ones marked"
jq_true "$out" '[.runs[] | .intervals | all(.length_s > 0) and
	(([.[].length_s] | add) - .[-1].t_s | fabs) < 1e-6] | all'
ok $? "every run: each interval says its length, end to end from the start"
jq_true "$out" '[.runs[] | .topology.kind == "veth" and .link.tx_bytes >= .bytes_sent] | all'
ok $? "the runs crossed the veth, which carried at least every byte"
rows=$(grep -cE '^ +[0-9]+ (two-copy|one-copy|zero-copy|uring|uring-zc|sendfile|splice) ' "$tmp/table")
ok $([ "$rows" = $want ]; echo $?) "the table has $want rows (got $rows)"
grep -q " $want/$want ETA " "$tmp/err"
ok $? "progress went to stderr"

# The clock starts only when every flow is ready: zero-copy slot pools far
# bigger than a short run once filled during the measured window and left
# it with no message.  Such a run now moves messages from its first
# interval on, or fails saying why; never a clean run of nothing.
# big_run NAME ARGS...: the run, checked.
big_run() {
	local name=$1
	shift
	"$NIO_TOP" --batch -s zero-copy -m 4M -w 0 "$@" -o "$tmp/$name.json" \
		>/dev/null 2>&1
	rc=$?
	jq_true "$tmp/$name.json" '.runs[0] | (.error == null and
		.messages_received > 0 and .gbps > 0 and
		.intervals[0].gbps > 0) or (.error | type) == "string"' &&
		{ [ $rc = 0 ] || [ "$(jq '.runs[0].error != null' "$tmp/$name.json")" = true ]; }
	ok $? "zero-copy 4M $*: moves messages from the first interval, or fails with a reason ($(jq -c '.runs[0] | {messages_received, error}' "$tmp/$name.json"))"
}
big_run small -t 2 --slots 64 -d 0.3
available_kib=$(awk '/^MemAvailable/ { print $2 }' /proc/meminfo)
if [ "$available_kib" -gt $((8 * 1024 * 1024)) ]; then
	big_run full -t 8 --slots 128 -d 1
else
	ok 0 "# SKIP zero-copy 4M x8 x128 slots: needs 8 GiB available"
fi

# Runs of 10 ms: none may be a clean run that delivered nothing.
"$NIO_TOP" --batch -s one-copy,uring -m 4K --repeat 25 -d 0.01 -w 0 \
	-o "$tmp/short.json" >/dev/null 2>&1
jq_true "$tmp/short.json" '(.runs | length) == 50 and
	all(.runs[]; (.error == null and .msgs_per_s > 0 and
	.messages_received > 0) or ((.error | type) == "string" and (.error | length) > 0))'
ok $? "50 runs of 10 ms: each delivered messages or says why not ($(jq '[.runs[] | select(.error != null)] | length' "$tmp/short.json") failed)"

# A local run over --max-memory is refused before it allocates, both
# figures named; the batch goes on with the next.
err=$("$NIO_TOP" --batch -s one-copy -m 4M,4K -d 0.2 -w 0 --max-memory 64K \
	-o "$tmp/budget.json" 2>&1 >/dev/null)
rc=$?
[ $rc = 1 ] && [[ "$err" == *'one-copy 4M x1: 1 flow of one-copy 4M needs 8.0 MiB of buffers; a run may use 64.0 KiB here (--max-memory)'* ]] &&
	jq_true "$tmp/budget.json" '(.runs | length) == 1 and .runs[0].msg_size == 4096'
ok $? "a run over --max-memory is refused naming both figures, the next runs (rc $rc)" ||
	printf '# %s\n' "$err"

wait_until net_is "$before"
ok $? "no namespace or link left behind"

done_testing
