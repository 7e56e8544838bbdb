# Shared helpers for the shell tests: TAP output, skipping (exit 77), a
# private temporary folder removed on exit, and checks that nio-top left no
# network namespace, link or process behind.

set -u

: "${NIO_TOP:?NIO_TOP must name the nio-top binary}"
tap_count=0
tap_failed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nio-top-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# ok STATUS DESCRIPTION: one test line; returns STATUS, so a caller can add
# what it saw: ok $? "..." || diag FILE.
ok() {
	tap_count=$((tap_count + 1))
	if [ "$1" = 0 ]; then
		echo "ok $tap_count - $2"
	else
		echo "not ok $tap_count - $2"
		tap_failed=$((tap_failed + 1))
	fi
	return "$1"
}

# comment: its input as TAP comments, after a failed test; a copy goes to
# stderr, which a test runner shows for a failed test where it keeps stdout
# to itself.
comment() {
	sed 's/^/# /' | tee /dev/stderr
}

# diag FILE: the last lines of FILE as TAP comments, after a failed test.
diag() {
	tail -n 20 "$1" 2>/dev/null | comment
}

# check DESCRIPTION COMMAND...: one test line, ok when COMMAND succeeds.
check() {
	local desc=$1
	shift
	"$@" >/dev/null 2>&1
	ok $? "$desc"
}

# skip_one DESCRIPTION REASON: a test line that could not run here.
skip_one() {
	tap_count=$((tap_count + 1))
	echo "ok $tap_count - $1 # SKIP $2"
}

skip_all() {
	echo "1..0 # SKIP $1"
	exit 77
}

# Where a sanitizer build's nio-top writes its reports, where the test
# cannot read its stderr (a terminal's): PREFIX.PID.  done_testing fails on
# any, showing them.
sanitizer_log="$tmp/sanitizer"

done_testing() {
	local reports
	reports=$(cat "$sanitizer_log".* 2>/dev/null)
	if [ -n "$reports" ]; then
		ok 1 "nio-top ran without a sanitizer report"
		comment <<<"$reports"
	fi
	echo "1..$tap_count"
	[ "$tap_failed" = 0 ]
}

need_root() {
	[ "$(id -u)" = 0 ] || skip_all "needs root"
	unshare -n true 2>/dev/null || skip_all "cannot create network namespaces"
}

need_cmd() {
	for c in "$@"; do
		command -v "$c" >/dev/null || skip_all "needs $c"
	done
}

# jq_true FILE FILTER: the filter yields true on the file.
jq_true() {
	[ "$(jq -r "$2" "$1" 2>/dev/null)" = true ]
}

# Every process the test starts carries this mark in its environment,
# orphans and tmux panes too; the checks below look only at those, so that
# a nio-top a user runs beside the tests (or any other program) is none of
# their business.
NIO_TOP_TEST_MARK="$$.$RANDOM.$RANDOM"
export NIO_TOP_TEST_MARK

# ours [NAME...]: the processes the test started (zombies aside, whose
# environment is gone), or only those whose command is one of NAME.
ours() {
	local p comm
	for p in /proc/[0-9]*; do
		grep -qzx "NIO_TOP_TEST_MARK=$NIO_TOP_TEST_MARK" "$p/environ" \
			2>/dev/null || continue
		comm=$(cat "$p/comm" 2>/dev/null) || continue
		[ $# = 0 ] || [[ " $* " == *" $comm "* ]] && echo "${p#/proc/}"
	done
}

# What nio-top must leave as it found it: the links and named namespaces it
# or the test could make (nio*, the test's own nt* and nio-test-$$-*, not
# another test's), and the network namespaces the test's processes hold, as
# an inode number each.
net_snapshot() {
	local p
	{
		ip -o link show | cut -d: -f2 | sed 's/@.*//' | grep -E '^ (nio|nt)'
		# Names this test gave (--keep-netns niotest$$, nio-test-$$-a):
		# another test's, running beside it, come and go on their own.
		ls /run/netns 2>/dev/null | grep -E "^nio[a-z]*$$-"
		ls /run/netns 2>/dev/null | grep "^nio-test-$$-"
		for p in $(ours); do
			readlink "/proc/$p/ns/net" 2>/dev/null |
				sed -n 's/^net:\[\([0-9]*\)\]$/\1/p'
			held_netns "$p"
		done
	} | sort -u
}

# The network namespaces (inode numbers) a process holds through descriptors.
held_netns() {
	for fd in /proc/"$1"/fd/*; do
		readlink "$fd" 2>/dev/null
	done | sed -n 's/^net:\[\([0-9]*\)\]$/\1/p' | sort -u
}

# Whether any process or mount still references namespace inode $1.
netns_referenced() {
	grep -qs "net:\[$1\]" /proc/self/mountinfo && return 0
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/ns/net" 2>/dev/null)" = "net:[$1]" ] && return 0
		ls -l "$p"/fd 2>/dev/null | grep -q "net:\[$1\]" && return 0
	done
	return 1
}

# A wait for a state gives up only after $wait_s seconds (or the tenths its
# caller names, if more): its deadline bounds a failure, not the time the
# state takes, which on a loaded machine may be many times the usual.  A
# check that something does NOT happen names its own short window instead.
wait_s=30

# wait_until [-t TENTHS] COMMAND...: COMMAND, every tenth of a second until
# it succeeds; fails once TENTHS tenths of a second (at least $wait_s
# seconds) have gone by without.
wait_until() {
	local tenths=0 deadline
	if [ "$1" = -t ]; then
		tenths=$2
		shift 2
	fi
	[ "$tenths" -ge $((wait_s * 10)) ] || tenths=$((wait_s * 10))
	deadline=$((SECONDS + (tenths + 9) / 10))
	until "$@"; do
		[ "$SECONDS" -lt "$deadline" ] || return 1
		sleep 0.1
	done
}

# wait_for_line PATTERN TENTHS FILE: a line matching PATTERN in FILE.
wait_for_line() {
	wait_until -t "$2" grep -q "$1" "$3" 2>/dev/null
}

# net_is SNAPSHOT: net_snapshot is SNAPSHOT again (wait_until net_is "$before":
# the kernel and nio-top's guard take their time to tear a network down).
net_is() {
	[ "$(net_snapshot)" = "$1" ]
}

# busy_host FILE [CPUS]: the export's runs were measured beside other work:
# one of them saw CPUS or more (0.5, the analysis' "busy host") of other
# processes' CPU, or 5% steal.  Prints what it saw, for a skip's reason.  A
# figure that depends on the noise cannot be told from it on such a host.
busy_host() {
	jq -er --argjson cpus "${2:-0.5}" '[.runs[].host_load | select(. != null)] |
		(map(.outside_cpus) | max) as $out | (map(.steal_pct) | max) as $steal |
		select($out >= $cpus or $steal >= 5) |
		"measured beside other work: \($out * 100 | round / 100) CPUs of other processes, \($steal | round)% steal"' \
		"$1" 2>/dev/null
}

# noise_ok STATUS FILE DESCRIPTION [CPUS]: ok, for a check of a figure that
# depends on the machine's noise (a ratio of measured figures, a verdict):
# failed on a host that FILE's runs saw busy (busy_host, CPUS), it cannot
# tell, and skips saying so.
noise_ok() {
	local why
	if [ "$1" != 0 ] && why=$(busy_host "$2" "${4:-0.5}"); then
		skip_one "$3" "$why: cannot tell"
		return 0
	fi
	ok "$1" "$3"
}

# $at_gbps: a jq function for fixtures, at_gbps(G; SPREAD), that makes a
# measured run's delivered figure G Gbit/s, with the totals and message rate
# that go with it (a loaded run whose rates its totals cannot hold is
# refused), and its measured intervals G times 1 + SPREAD and 1 - SPREAD in
# turn.  Figures a test asserts come from such a fixture, not from the noise
# of the machine that ran it.
at_gbps='def at_gbps($g; $spread):
	.msg_size as $size | .measured_s as $s |
	.messages_sent = ($g * 1e9 / 8 * $s / $size | floor) |
	.messages_received = .messages_sent |
	.bytes_sent = .messages_sent * $size | .bytes_received = .bytes_sent |
	.gbps = $g | .msgs_per_s = $g * 1e9 / 8 / $size |
	.intervals |= (to_entries | map(.key as $k | .value |
		if .warmup then . else
			(if $k % 2 == 0 then 1 + $spread else 1 - $spread end) as $f |
			.gbps = $g * $f | .msgs_per_s = $g * $f * 1e9 / 8 / $size
		end));'

# Two "hosts" for --serve/--connect: network namespaces $host_a and $host_b
# made by the test, joined by a veth pair, 198.18.99.1 (a) and .2 (b).  The
# caller's EXIT trap must call two_hosts_remove.
two_hosts() {
	host_a=nio-test-$$-a
	host_b=nio-test-$$-b
	ip netns add "$host_a" && ip netns add "$host_b" &&
		ip -n "$host_a" link add nta type veth peer name ntb netns "$host_b" &&
		ip -n "$host_a" addr add 198.18.99.1/30 dev nta &&
		ip -n "$host_b" addr add 198.18.99.2/30 dev ntb &&
		ip -n "$host_a" link set nta up && ip -n "$host_b" link set ntb up &&
		ip -n "$host_a" link set lo up && ip -n "$host_b" link set lo up
}

# Stops every process in the two namespaces and removes them (and the pair).
two_hosts_remove() {
	for ns in "$host_a" "$host_b"; do
		pids=$(ip netns pids "$ns" 2>/dev/null)
		[ -n "$pids" ] && kill -9 $pids 2>/dev/null
		ip netns del "$ns" 2>/dev/null
	done
	return 0
}

# start_agent LOG [OPTIONS...]: nio-top --serve in $host_a, its pid in
# $agent; waits until it listens and has logged its limits (the line after
# "listening on", the last it writes as it starts on one address).
start_agent() {
	local log=$1
	shift
	ip netns exec "$host_a" "$NIO_TOP" --serve --listen 198.18.99.1 "$@" \
		2>"$log" &
	agent=$!
	wait_for_line 'listening on' 300 "$log" &&
		wait_for_line 'an idle client is dropped after' 300 "$log"
}

# client [OPTIONS...]: nio-top --connect to the agent, from $host_b.
client() {
	ip netns exec "$host_b" "$NIO_TOP" --connect 198.18.99.1 "$@"
}
