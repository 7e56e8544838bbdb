#!/bin/bash
# The links' own knobs: BIG TCP's IPv4 GSO and GRO sizes and GRO on the
# veth are set for a run on nio-top's own links (the kernel shows them in
# the namespaces during the run), read back and recorded, and put back when
# the run ends, so the next run finds the veth as built.  A network nio-top
# did not make is refused with the reason.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq python3

before=$(net_snapshot)
ns=nio-test-$$-stack
attrs() { ip netns exec "$ns-$1" python3 "$NIO_TOP_SOURCE/tests/linkattr.py" "$2"; }
[ "$(unshare -n python3 "$NIO_TOP_SOURCE/tests/linkattr.py" lo)" != "none none" ] ||
	skip_all "the kernel has no IPv4 GSO and GRO sizes (BIG TCP, Linux 6.3)"

: >"$tmp/err"
"$NIO_TOP" --batch -s one-copy -m 64K -d 2 -w 0.2 --repeat 2 \
	--gso-max-size 185000 --gro-max-size 185000 --gro on --keep-netns "$ns" \
	-o "$tmp/big.json" >/dev/null 2>"$tmp/err" &
pid=$!
# The sizes are set as a run starts, just after its progress line: looked
# for while the runs last (each look starts python twice: on a loaded
# machine that takes a while).
big_or_done() {
	srv=$(attrs srv nio0 2>/dev/null)
	cli=$(attrs cli nio1 2>/dev/null)
	[ "$srv $cli" = "185000 185000 185000 185000" ] || ! kill -0 $pid 2>/dev/null
}
wait_for_line ' 1/2 ETA ' 300 "$tmp/err"
wait_until big_or_done
wait $pid
ok $? "--gso-max-size 185000 --gro-max-size 185000 --gro on: 2 runs, exit 0"
[ "$srv" = "185000 185000" ] && [ "$cli" = "185000 185000" ]
ok $? "during the run the kernel reports both sizes on both ends (nio0: $srv, nio1: $cli)"
jq_true "$tmp/big.json" '[.runs[] | .gso_max_size == 185000 and .gro_max_size == 185000 and .gro == "on"] | all'
ok $? "every run records the knobs asked for"
jq_true "$tmp/big.json" '[.runs[].stack[] | .gso_max_size == 185000 and .gro_max_size == 185000 and .gro == true] | all'
ok $? "and the links as the kernel made them, read back ($(jq -c .runs[0].stack.receiver "$tmp/big.json"))"
jq_true "$tmp/big.json" '[.runs[].stack_before[] | .gso_max_size == 65536 and .gro_max_size == 65536 and .gro == false] | all'
ok $? "each run found the veth as built: run 1 put it back for run 2 ($(jq -c .runs[1].stack_before.sender "$tmp/big.json"))"
jq_true "$tmp/big.json" '[.runs[] | .error == null and .bytes_sent > 0 and .bytes_received == .bytes_sent] | all'
ok $? "every byte delivered with BIG TCP and GRO on"

# The default: nothing asked, the links recorded as built.
"$NIO_TOP" --batch -s one-copy -m 64K -d 0.5 -w 0.1 -o "$tmp/plain.json" \
	>/dev/null 2>&1
jq_true "$tmp/plain.json" '.runs[0] | .gso_max_size == 0 and .gro == "as-built" and .stack.sender.gso_max_size == 65536 and .stack == .stack_before'
ok $? "a run without them records the veth as built, untouched"

# The knobs as dimensions of the grid: each combination a run, each knob
# raised alone compared with the same strategy without it.
"$NIO_TOP" --batch -s one-copy -m 64K -d 0.5 -w 0.1 --min-measured 0 \
	--gso-max-size 0,185000 --gro-max-size 185000 --gro off,on \
	--busy-poll 0,50 -o "$tmp/grid.json" >"$tmp/grid.txt" 2>&1
ok $? "--gso-max-size 0,185000 --gro off,on --busy-poll 0,50: exit 0"
jq_true "$tmp/grid.json" '([.runs[] | [.gso_max_size, .gro, .busy_poll_us]] | unique | length) == 8 and (.runs | length) == 8'
ok $? "8 runs, each combination once ($(jq -c '[.runs[] | "\(.gso_max_size)/\(.gro)/\(.busy_poll_us)"]' "$tmp/grid.json"))"
jq_true "$tmp/grid.json" '[.runs[] | (.stack.sender.gso_max_size == (if .gso_max_size == 0 then 65536 else .gso_max_size end)) and (.stack.receiver.gro == (.gro == "on")) and (.socket.sender.busy_poll_us == .busy_poll_us)] | all'
ok $? "each run's links and sockets read back as its point asked"
jq_true "$tmp/grid.json" '[.analysis.crossovers[] | select(.strategy == "one-copy" and .versus == "one-copy" and .rx == "copy" and .stack.gso_max_size == 185000 and .versus_stack.gso_max_size == 0 and .stack.gro == .versus_stack.gro and .stack.busy_poll_us == .versus_stack.busy_poll_us)] | length == 4'
ok $? "the analysis compares BIG TCP on against off at each of the other knobs' 4 settings"
grep -q 'one-copy with GRO on vs one-copy with GRO off' "$tmp/grid.txt" &&
	grep -q 'one-copy with busy-poll 50us vs one-copy with no busy-poll' "$tmp/grid.txt" &&
	grep -Eq '^ +[0-9]+ one-copy +64K .* gso 185000 gro-size 185000 GRO on busy-poll 50us$' "$tmp/grid.txt"
ok $? "its verdicts name the knob; the table's rows name the knobs"

err=$("$NIO_TOP" --batch -s one-copy -m 64K -d 0.5 --topology current \
	--gso-max-size 185000 2>&1)
[[ "$err" == *"BIG TCP and GRO are set on links nio-top makes"* ]]
ok $? "--topology current: refused, with the reason"
err=$("$NIO_TOP" --batch -s one-copy -m 64K -d 0.5 --topology loopback \
	--gro on 2>&1)
[[ "$err" == *"--gro is the veth's"* ]]
ok $? "--gro on lo: refused, with the reason"

wait_until net_is "$before"
ok $? "no namespace or link left behind"

done_testing
