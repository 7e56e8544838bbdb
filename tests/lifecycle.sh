#!/bin/bash
# Nothing is left behind, however nio-top ends: after kill -9 the namespaces
# it held are referenced by nothing and the machine's links, named namespaces
# and lsns look as before; --keep-netns names vanish on SIGINT, SIGTERM and
# SIGKILL;
# and 50 starts and stops in a row never collide or grow anything.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq

before=$(net_snapshot)

# kill -9 in the middle of a run.
"$NIO_TOP" --batch -s one-copy -m 4K -d 30 >/dev/null 2>"$tmp/err" &
pid=$!
wait_for_line ' 1/1 ETA ' 50 "$tmp/err"
sleep 0.3
held=$(held_netns $pid)
ok $([ "$(wc -w <<<"$held")" = 2 ]; echo $?) "a veth run holds two namespaces ($(echo $held))"
kill -9 $pid
wait $pid 2>/dev/null
gone=1
for _ in $(seq 20); do
	gone=0
	for ns in $held; do
		netns_referenced "$ns" && gone=1
	done
	[ $gone = 0 ] && [ "$(net_snapshot)" = "$before" ] && break
	sleep 0.1
done
ok $gone "within 2 s of kill -9 nothing references its namespaces"
[ "$(net_snapshot)" = "$before" ]
ok $? "ip -o link, /run/netns and lsns -t net are as before"

# --keep-netns: named while running, unnamed on SIGINT and SIGTERM.
for sig in INT TERM; do
	"$NIO_TOP" --batch -s one-copy -m 4K -d 30 --keep-netns niotest \
		>/dev/null 2>"$tmp/err" &
	pid=$!
	wait_for_line ' 1/1 ETA ' 50 "$tmp/err"
	ip netns exec niotest-srv ip -o -4 addr show dev nio0 | grep -q 198.18.0.1/30
	ok $? "SIG$sig: 'ip netns exec niotest-srv' sees the server end"
	ip netns exec niotest-cli ss -tn | grep -q '198.18.0.2:.*198.18.0.1:'
	ok $? "SIG$sig: 'ip netns exec niotest-cli ss' sees the flow"
	kill -$sig $pid
	wait $pid
	ok $([ $? = $((128 + $(kill -l $sig))) ]; echo $?) "SIG$sig: exit status 128 + signal"
	[ ! -e /run/netns/niotest-srv ] && [ ! -e /run/netns/niotest-cli ]
	ok $? "SIG$sig: the names are gone"
done

# --keep-netns and kill -9: the names go too (a guard process removes them).
"$NIO_TOP" --batch -s one-copy -m 4K -d 30 --keep-netns niotest \
	>/dev/null 2>"$tmp/err" &
pid=$!
wait_for_line ' 1/1 ETA ' 50 "$tmp/err"
[ -e /run/netns/niotest-srv ] && [ -e /run/netns/niotest-cli ]
ok $? "SIGKILL: named while running"
kill -9 $pid
wait $pid 2>/dev/null
for _ in $(seq 20); do
	[ ! -e /run/netns/niotest-srv ] && [ ! -e /run/netns/niotest-cli ] && break
	sleep 0.1
done
[ ! -e /run/netns/niotest-srv ] && [ ! -e /run/netns/niotest-cli ] &&
	! grep -q niotest /proc/self/mountinfo
ok $? "SIGKILL: within 2 s the names and their mounts are gone"

# 50 cycles, each building and removing the topology (named, so a leftover
# would be an EEXIST on the next one).
fails=0
for i in $(seq 50); do
	"$NIO_TOP" --batch -s one-copy -m 64 -d 0.01 -w 0 --keep-netns niocycle \
		>/dev/null 2>>"$tmp/cycles" || fails=$((fails + 1))
done
ok $fails "50 start/stop cycles all exit 0 ($fails failed)"
! grep -q 'exists' "$tmp/cycles"
ok $? "no cycle met a leftover (EEXIST)"
sleep 0.2
[ "$(net_snapshot)" = "$before" ]
ok $? "no growth in namespaces or links"

done_testing
