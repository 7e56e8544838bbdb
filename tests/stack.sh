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
	--gso-ipv4-max-size 185000 --gro-ipv4-max-size 185000 --gro on --keep-netns "$ns" \
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
ok $? "--gso-ipv4-max-size 185000 --gro-ipv4-max-size 185000 --gro on: 2 runs, exit 0"
[ "$srv" = "185000 185000" ] && [ "$cli" = "185000 185000" ]
ok $? "during the run the kernel reports both sizes on both ends (nio0: $srv, nio1: $cli)"
jq_true "$tmp/big.json" '[.runs[] | .gso_ipv4_max_size == 185000 and .gro_ipv4_max_size == 185000 and .gro == "on"] | all'
ok $? "every run records the knobs asked for"
jq_true "$tmp/big.json" '[.runs[].stack[] | .gso_ipv4_max_size == 185000 and .gro_ipv4_max_size == 185000 and .gro == true] | all'
ok $? "and the links as the kernel made them, read back ($(jq -c .runs[0].stack.receiver "$tmp/big.json"))"
jq_true "$tmp/big.json" '[.runs[].stack_before[] | .gso_ipv4_max_size == 65536 and .gro_ipv4_max_size == 65536 and .gro == false] | all'
ok $? "each run found the veth as built: run 1 put it back for run 2 ($(jq -c .runs[1].stack_before.sender "$tmp/big.json"))"
jq_true "$tmp/big.json" '[.runs[] | .error == null and .bytes_sent > 0 and .bytes_received == .bytes_sent] | all'
ok $? "every byte delivered with BIG TCP and GRO on"

# The keys are the kernel's names (IFLA_GSO_IPV4_MAX_SIZE: gso_ipv4_max_size);
# what an older nio-top wrote under gso_max_size and gro_max_size (its
# runs, their links, the preset it embeds) opens, and is written again
# under the new names; the former options still run.
jq '[.. | objects | keys[] | select(test("^g[sr]o_max_size$"))] | length == 0' \
	"$tmp/big.json" | grep -q true &&
	[ "$(jq '[.. | objects | keys[] | select(test("^g[sr]o_ipv4_max_size$"))] | length' "$tmp/big.json")" -ge 10 ]
ok $? "the export names the sizes gso_ipv4_max_size and gro_ipv4_max_size only"
jq 'walk(if type == "object" then with_entries(.key |= sub("^(?<k>g[sr]o)_ipv4_max_size$"; "\(.k)_max_size")) else . end)' \
	"$tmp/big.json" >"$tmp/old.json"
"$NIO_TOP" --load "$tmp/old.json" --batch -o "$tmp/again.json" >/dev/null 2>&1 &&
	jq_true "$tmp/again.json" '([.runs[] | .gso_ipv4_max_size == 185000 and .gro_ipv4_max_size == 185000 and ([.stack[], .stack_before[] | .gso_ipv4_max_size, .gro_ipv4_max_size] | all(. > 0))] | all) and .environment.links.senders.gso_ipv4_max_size > 0'
ok $? "an export with the former keys loads, its sizes written again under the new ones"
"$NIO_TOP" --batch -p "$tmp/old.json" -d 0.3 -w 0.1 --repeat 1 \
	--min-measured 0 -o "$tmp/replay.json" >/dev/null 2>&1 &&
	jq_true "$tmp/replay.json" '.runs[0] | .gso_ipv4_max_size == 185000 and .stack.sender.gso_ipv4_max_size == 185000'
ok $? "-p replays it with its GSO size ($(jq -c '.runs[0].stack.sender' "$tmp/replay.json" 2>/dev/null))"
"$NIO_TOP" --batch -s one-copy -m 64K -d 0.3 -w 0.1 --min-measured 0 \
	--gso-max-size 131072 --gro-max-size 131072 -o "$tmp/former.json" \
	>/dev/null 2>&1 &&
	jq_true "$tmp/former.json" '.runs[0] | .gso_ipv4_max_size == 131072 and .gro_ipv4_max_size == 131072 and .stack.receiver.gro_ipv4_max_size == 131072'
ok $? "--gso-max-size and --gro-max-size, the former options, still set them"

# The default: nothing asked, the links recorded as built.
"$NIO_TOP" --batch -s one-copy -m 64K -d 0.5 -w 0.1 -o "$tmp/plain.json" \
	>/dev/null 2>&1
jq_true "$tmp/plain.json" '.runs[0] | .gso_ipv4_max_size == 0 and .gro == "as-built" and .stack.sender.gso_ipv4_max_size == 65536 and .stack == .stack_before'
ok $? "a run without them records the veth as built, untouched"

# The knobs as dimensions of the grid: each combination a run, each knob
# raised alone compared with the same strategy without it.
"$NIO_TOP" --batch -s one-copy -m 64K -d 0.5 -w 0.1 --min-measured 0 \
	--gso-ipv4-max-size 0,185000 --gro-ipv4-max-size 185000 --gro off,on \
	--busy-poll 0,50 -o "$tmp/grid.json" >"$tmp/grid.txt" 2>&1
ok $? "--gso-ipv4-max-size 0,185000 --gro off,on --busy-poll 0,50: exit 0"
jq_true "$tmp/grid.json" '([.runs[] | [.gso_ipv4_max_size, .gro, .busy_poll_us]] | unique | length) == 8 and (.runs | length) == 8'
ok $? "8 runs, each combination once ($(jq -c '[.runs[] | "\(.gso_ipv4_max_size)/\(.gro)/\(.busy_poll_us)"]' "$tmp/grid.json"))"
jq_true "$tmp/grid.json" '[.runs[] | (.stack.sender.gso_ipv4_max_size == (if .gso_ipv4_max_size == 0 then 65536 else .gso_ipv4_max_size end)) and (.stack.receiver.gro == (.gro == "on")) and (.socket.sender.busy_poll_us == .busy_poll_us)] | all'
ok $? "each run's links and sockets read back as its point asked"
jq_true "$tmp/grid.json" '[.analysis.crossovers[] | select(.strategy == "one-copy" and .versus == "one-copy" and .rx == "copy" and .stack.gso_ipv4_max_size == 185000 and .versus_stack.gso_ipv4_max_size == 0 and .stack.gro == .versus_stack.gro and .stack.busy_poll_us == .versus_stack.busy_poll_us)] | length == 4'
ok $? "the analysis compares BIG TCP on against off at each of the other knobs' 4 settings"
grep -q 'one-copy with GRO on vs one-copy with GRO off' "$tmp/grid.txt" &&
	grep -q 'one-copy with busy-poll 50us vs one-copy with no busy-poll' "$tmp/grid.txt" &&
	grep -Eq '^ +[0-9]+ one-copy +64K .* gso-ipv4 185000 gro-ipv4 185000 GRO on busy-poll 50us$' "$tmp/grid.txt"
ok $? "its verdicts name the knob; the table's rows name the knobs"

err=$("$NIO_TOP" --batch -s one-copy -m 64K -d 0.5 --topology current \
	--gso-ipv4-max-size 185000 2>&1)
[[ "$err" == *"BIG TCP and GRO are set on links nio-top makes"* ]]
ok $? "--topology current: refused, with the reason"
err=$("$NIO_TOP" --batch -s one-copy -m 64K -d 0.5 --topology loopback \
	--gro on 2>&1)
[[ "$err" == *"--gro is the veth's"* ]]
ok $? "--gro on lo: refused, with the reason"

wait_until net_is "$before"
ok $? "no namespace or link left behind"

done_testing
