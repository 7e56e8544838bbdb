#!/bin/bash
# Nothing is left behind, however nio-top ends: after kill -9 the namespaces
# it held are referenced by nothing, and the links and named namespaces
# nio-top makes and the namespaces this test's processes hold are as before
# (what other programs do meanwhile is not looked at); --keep-netns names
# vanish on SIGINT, SIGTERM and SIGKILL, also of the whole process group,
# and stale names an earlier nio-top left are cleared by the next; and 50
# starts and stops in a row never collide or grow anything.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq

before=$(net_snapshot)

# kill -9 in the middle of a run.
: >"$tmp/err" # emptied first: wait_for_line must not read the last run's lines
"$NIO_TOP" --batch -s one-copy -m 4K -d 30 >/dev/null 2>"$tmp/err" &
pid=$!
# holds_two: nio-top holds its two namespaces ($held).
holds_two() {
	held=$(held_netns $pid)
	[ "$(wc -w <<<"$held")" = 2 ]
}
# unreferenced: nothing references the namespaces it held.
unreferenced() {
	for ns in $held; do
		netns_referenced "$ns" && return 1
	done
	return 0
}
wait_for_line ' 1/1 ETA ' 300 "$tmp/err"
wait_until holds_two
ok $? "a veth run holds two namespaces ($(echo $held))"
kill -9 $pid
wait $pid 2>/dev/null
from=$SECONDS
wait_until unreferenced
ok $? "after kill -9 nothing references its namespaces (within $((SECONDS - from)) s)"
wait_until net_is "$before"
ok $? "links, named namespaces and the namespaces held are as before"

# --keep-netns: named while running, unnamed on SIGINT and SIGTERM.
flow_seen() {
	ip netns exec niotest$$-cli ss -tn | grep -q '198.18.0.2:.*198.18.0.1:'
}
for sig in INT TERM; do
	: >"$tmp/err"
	"$NIO_TOP" --batch -s one-copy -m 4K -d 30 --keep-netns niotest$$ \
		>/dev/null 2>"$tmp/err" &
	pid=$!
	wait_for_line ' 1/1 ETA ' 300 "$tmp/err"
	ip netns exec niotest$$-srv ip -o -4 addr show dev nio0 | grep -q 198.18.0.1/30
	ok $? "SIG$sig: 'ip netns exec niotest$$-srv' sees the server end"
	# The progress line comes as the run starts: its flow connects soon.
	wait_until flow_seen
	ok $? "SIG$sig: 'ip netns exec niotest$$-cli ss' sees the flow"
	kill -$sig $pid
	wait $pid
	ok $([ $? = $((128 + $(kill -l $sig))) ]; echo $?) "SIG$sig: exit status 128 + signal"
	[ ! -e /run/netns/niotest$$-srv ] && [ ! -e /run/netns/niotest$$-cli ]
	ok $? "SIG$sig: the names are gone"
done

# --keep-netns and kill -9: the names go too (a guard process removes them).
: >"$tmp/err"
"$NIO_TOP" --batch -s one-copy -m 4K -d 30 --keep-netns niotest$$ \
	>/dev/null 2>"$tmp/err" &
pid=$!
wait_for_line ' 1/1 ETA ' 300 "$tmp/err"
[ -e /run/netns/niotest$$-srv ] && [ -e /run/netns/niotest$$-cli ]
ok $? "SIGKILL: named while running"
# names_gone PREFIX: no name and no mount of PREFIX is left (the guard
# removes them after nio-top is gone, in its own time: waited for).
no_names() {
	[ ! -e /run/netns/$1-srv ] && [ ! -e /run/netns/$1-cli ] &&
		! grep -q "/run/netns/$1-" /proc/self/mountinfo
}
names_gone() {
	wait_until no_names "$1"
}

kill -9 $pid
wait $pid 2>/dev/null
names_gone niotest$$
ok $? "SIGKILL: the guard removes the names and their mounts"

# A kill of nio-top's whole process group misses the guard, which has a
# session of its own: timeout -s KILL, and kill -9 -PGID.  (A busy shared
# machine has taken over 3 s to build the network, and a load of 7-12
# longer: 20 s to start.)
: >"$tmp/err"
timeout -s KILL 20 "$NIO_TOP" --batch -s one-copy -m 4K -d 30 \
	--keep-netns niogrp >/dev/null 2>"$tmp/err" &
killer=$!
wait_for_line ' 1/1 ETA ' 300 "$tmp/err" && [ -e /run/netns/niogrp-srv ]
ok $? "timeout -s KILL 20: named while running"
wait $killer
rc=$?
names_gone niogrp
ok $? "timeout -s KILL 20 (exit $rc): the guard removes the names and their mounts"
: >"$tmp/err"
setsid "$NIO_TOP" --batch -s one-copy -m 4K -d 30 --keep-netns niogrp \
	>/dev/null 2>"$tmp/err" &
leader=$!
wait_for_line ' 1/1 ETA ' 300 "$tmp/err"
[ "$(ps -o pgid= -p $leader | tr -d ' ')" = $leader ] && [ -e /run/netns/niogrp-cli ]
ok $? "kill -9 -PGID: nio-top leads its group, named while running"
kill -9 -- -$leader
wait $leader 2>/dev/null
names_gone niogrp
ok $? "kill -9 -PGID: the guard removes the names and their mounts"

# What kills the guard too (a kill of the whole cgroup) leaves the names;
# the next nio-top with the prefix knows them for its own and clears them.
: >"$tmp/err"
"$NIO_TOP" --batch -s one-copy -m 4K -d 30 --keep-netns niostale \
	>/dev/null 2>"$tmp/err" &
pid=$!
wait_for_line ' 1/1 ETA ' 300 "$tmp/err"
guard=$(pgrep -P $pid -x nio-top)
[ -n "$guard" ] && kill -9 "$guard" && kill -9 $pid
wait $pid 2>/dev/null
sleep 0.3
[ -e /run/netns/niostale-srv ] && [ -e /run/netns/niostale-cli ]
ok $? "guard and nio-top killed together: the names are left"
"$NIO_TOP" --batch -s one-copy -m 4K -d 0.2 -w 0 --keep-netns niostale \
	>/dev/null 2>"$tmp/err"
ok $? "the next start with the prefix clears them instead of 'File exists' ($(tail -1 "$tmp/err"))"
names_gone niostale
ok $? "and leaves no name behind"
# A namespace someone else named so is never taken for a stale one.
ip netns add niostale-srv
err=$("$NIO_TOP" --batch -s one-copy -m 4K -d 0.2 -w 0 --keep-netns niostale \
	2>&1 >/dev/null)
rc=$?
[ $rc = 1 ] && [[ "$err" == *"niostale-srv: File exists"* ]] &&
	[ -e /run/netns/niostale-srv ] && [ ! -e /run/netns/niostale-cli ]
ok $? "a name made by 'ip netns add' is left alone: File exists (rc $rc)"
ip netns del niostale-srv

# 50 cycles, each building and removing the topology (named, so a leftover
# would be an EEXIST on the next one); 100 ms windows.  A busy machine may
# not run the flow in one (exit 1, "no message arrived in the measured
# window"): the cycle built and removed its network all the same, so only
# any other failure fails it.
fails=0 missed=0
for i in $(seq 50); do
	"$NIO_TOP" --batch -s one-copy -m 64 -d 0.1 -w 0 --keep-netns niocycle \
		>"$tmp/cycle" 2>>"$tmp/cycles" && continue
	if grep -q 'no message arrived in the measured window' "$tmp/cycle"; then
		missed=$((missed + 1))
	else
		fails=$((fails + 1))
		cat "$tmp/cycle" >>"$tmp/cycles"
	fi
done
ok $fails "50 start/stop cycles all end cleanly ($fails failed, $missed measured no message)"
[ $fails = 0 ] || grep -v '^\[' "$tmp/cycles" | comment
! grep -q 'exists' "$tmp/cycles"
ok $? "no cycle met a leftover (EEXIST)"
wait_until net_is "$before"
ok $? "no growth in namespaces or links"

done_testing
