#!/bin/bash
# Two hosts: nio-top --serve in one network namespace, nio-top --connect in
# another, over a veth pair the test made.  The grid runs split across the
# two: bytes the client's senders sent equal the bytes the agent's receivers
# report, both sides' counters, profiles and times are in the export, so are both
# hosts, zero-copy
# receive works on either host, and the
# explorer shows the agent's gauges and moves both hosts when a control moves.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq ip tmux
. "$(dirname "$0")/tmux.sh"
trap 'T kill-server 2>/dev/null; two_hosts_remove; rm -rf "$tmp"' EXIT

two_hosts
ok $? "two namespaces joined by a veth pair"
start_agent "$tmp/agent.log"
ok $? "the agent listens"

# The grid, headless.
client --batch -s one-copy,zero-copy -m 4K,64K -t 1,2 -d 0.3 -w 0.1 \
	-o "$tmp/r.json" >"$tmp/out" 2>"$tmp/err"
ok $? "a 2x2x2 grid over two hosts completes (exit 0)"
jq_true "$tmp/r.json" '(.runs | length) == 8'
ok $? "the export holds 8 runs"
jq_true "$tmp/r.json" 'all(.runs[]; .error == null and .bytes_sent > 0 and
	.bytes_sent == .bytes_received and .agent_side == "receivers" and
	.topology.kind == "remote" and .topology.agent == "198.18.99.1:5310")'
ok $? "every run is clean: bytes sent here equal bytes received there"
# The agent's own report, run by run, against the client's.
grep -o 'run [0-9]*: received [0-9]* bytes' "$tmp/agent.log" |
	awk '{print $4}' >"$tmp/agent-bytes"
jq -r '.runs[].bytes_sent' "$tmp/r.json" >"$tmp/client-bytes"
[ "$(wc -l <"$tmp/agent-bytes")" = 8 ] &&
	cmp -s "$tmp/agent-bytes" "$tmp/client-bytes"
ok $? "the agent's log reports for each run the bytes the client sent"
jq_true "$tmp/r.json" 'all(.runs[]; .sender.counters["task-clock"].status
	== "ok" and .receiver.counters["task-clock"].status == "ok" and
	.sender.counters["task-clock"].value > 0 and
	.receiver.counters["task-clock"].value > 0)'
ok $? "both sides' counters are present (task-clock counted on each host)"
jq_true "$tmp/r.json" 'all(.runs[]; .receiver.counters["cycles"].status as $s
	| ($s == "ok" or $s == "scaled" or
	   (.receiver.counters["cycles"].reason | startswith("on the agent: "))))'
ok $? "an event the agent could not count says so, as the agent's"
jq_true "$tmp/r.json" '(.agent.host.kernel | length) > 0 and
	(.agent.capabilities.pmu | type) == "object" and
	(.host.kernel | length) > 0 and (.agent.tool | startswith("nio-top"))'
ok $? "the export holds both hosts' host and capabilities"
jq -r '.analysis.zerocopy' "$tmp/r.json" | grep -q 'route to the agent'
ok $? "the zero-copy analysis does not blame veth for two hosts"
grep -q 'left after 8 runs' "$tmp/agent.log"
ok $? "the agent saw the client leave after 8 runs"

# The export reads back, agent's side included.
"$NIO_TOP" --load "$tmp/r.json" --batch >"$tmp/loaded" 2>&1
ok $? "the export loads (--load)"

# Each host samples its own threads; the agent's side comes with its report.
client --batch -s one-copy -m 64K -d 1 -w 0.1 --profile-hz 4000 \
	-o "$tmp/prof.json" >/dev/null 2>&1
jq_true "$tmp/prof.json" '.runs[0].profile.sender.samples > 0 and
	.runs[0].profile.receiver.samples > 0 and
	.runs[0].profile.receiver.roles.copy_receive.samples > 0'
ok $? "both hosts' profiles are in the export, the agent's receiver copying ($(jq -c '[.runs[0].profile[].samples]' "$tmp/prof.json") samples)"
jq_true "$tmp/prof.json" '.runs[0].time.sender.window_s > 0 and
	.runs[0].time.receiver.window_s > 0 and
	.runs[0].time.receiver.switches > 0'
ok $? "both hosts' time is in the export, the agent's receiver switching ($(jq -c '[.runs[0].time[].switches]' "$tmp/prof.json") switches)"

# Reversed, and request/response.
client --batch -s one-copy -m 16K -d 0.3 -w 0.1 --reverse -o "$tmp/rev.json" \
	>/dev/null 2>&1
ok $? "--reverse: the agent sends, this host receives"
jq_true "$tmp/rev.json" '.runs[0].agent_side == "senders" and
	.runs[0].error == null and .runs[0].bytes_sent == .runs[0].bytes_received'
ok $? "--reverse: the run is clean and says the agent ran the senders"
sent=$(grep -o 'run 1: sent [0-9]* bytes' "$tmp/agent.log" | awk '{print $4}')
[ -n "$sent" ] && [ "$sent" = "$(jq '.runs[0].bytes_received' "$tmp/rev.json")" ]
ok $? "--reverse: the agent's log reports the bytes this host received"
# Zero-copy receive on either host: the agent's receivers, then this host's.
for way in "" --reverse; do
	client --batch -s zero-copy,one-copy -m 64K -d 0.3 -w 0.1 --verify \
		--rx zerocopy $way -o "$tmp/rxzc.json" >/dev/null 2>&1 &&
		jq_true "$tmp/rxzc.json" 'all(.runs[]; .error == null and
		.bytes_sent == .bytes_received and .integrity.corrupt == 0 and
		.rx_zerocopy.mapped_bytes + .rx_zerocopy.copied_bytes ==
		.bytes_received) and .runs[0].rx_zerocopy.mapped_bytes > 0 and
		.runs[1].rx_zerocopy.mapped_bytes == 0'
	ok $? "--rx zerocopy ${way:-(the agent receives)}: clean, every byte mapped or copied, a zero-copy sender's mapped ($(jq -c '[.runs[].rx_zerocopy.mapped_bytes]' "$tmp/rxzc.json"))"
done
# The other receive sides and a socket's knobs, on whichever host receives;
# the links' knobs are neither host's to set, and are refused.
for way in "" --reverse; do
	client --batch -s one-copy -m 64K -d 0.3 -w 0.1 --verify \
		--rx copy,uring --sndbuf 1M --rcvbuf 1M --congestion reno \
		$way -o "$tmp/rxu.json" >/dev/null 2>&1 &&
		jq_true "$tmp/rxu.json" 'all(.runs[]; .error == null and
		.bytes_sent == .bytes_received and .integrity.corrupt == 0 and
		.congestion == "reno") and .runs[1].uring_rx.requests > 0 and
		([.runs[].socket | .sender, .receiver | select(. != null)] |
		length == 2 and all(.congestion == "reno"))'
	ok $? "--rx copy,uring --sndbuf --rcvbuf --congestion ${way:-(the agent receives)}: clean, this host's end read back ($(jq -c '[.runs[].uring_rx.requests]' "$tmp/rxu.json"))"
done
err=$(client --batch -s one-copy -m 64K -d 0.3 -w 0.1 --gso-ipv4-max-size 185000 \
	2>&1 >/dev/null)
[[ "$err" == *"over two hosts the links are the hosts' own"* ]]
ok $? "--gso-ipv4-max-size over two hosts: refused, with the reason"
client --batch -s one-copy -m 4K -d 0.3 -w 0.1 --mode rr -o "$tmp/rr.json" \
	>/dev/null 2>&1
ok $? "rr over two hosts completes"
jq_true "$tmp/rr.json" '.runs[0].latency_us.round_trips > 0 and
	.runs[0].latency_us.p50 > 0 and .runs[0].error == null'
ok $? "rr: the round trips the agent timed are in the client's export"

# The explorer: the agent's gauges, and a control moves both hosts.
ui_binary="ip netns exec $host_b $NIO_TOP"
start -- --connect 198.18.99.1 -s one-copy -m 16K
wait_screen 'Receiver \(agent 198\.18\.99\.1:5310\)' 50
ok $? "the explorer labels the receivers' gauges with the agent"
wait_screen 'remote: agent 198\.18\.99\.1:5310'
ok $? "the header names the agent"
wait_for_line 'run 1: one-copy 16K x1 stream' 300 "$tmp/agent.log"
ok $? "the agent runs the explorer's first run"
# agent_gbps: the gauge shows a rate above 0 ($gbps): it comes with the
# agent's ticks, a loaded machine's later.
agent_gbps() {
	gbps=$(screen | grep 'Throughput' | grep -o '[0-9][0-9.]* Gbit/s' | tail -1)
	[ -n "$gbps" ] && [ "${gbps%% *}" != "0.00" ]
}
wait_until agent_gbps
ok $? "the agent's throughput gauge shows a value ($gbps)"
T send-keys Down
sleep 0.3
T send-keys Right
wait_for_line 'run 2: one-copy 32K x1 stream' 300 "$tmp/agent.log"
ok $? "a size change in the explorer starts the next run on the agent too"
# A preset's sweep runs over both hosts too.
T send-keys p
wait_screen 'Presets \(Enter loads' 20
# latency, latency-under-load, pa02, quick: the fourth.
T send-keys Down Down Down Enter
wait_for_line 'run 3: two-copy 16K x1 stream, this host runs the receivers' 300 \
	"$tmp/agent.log"
ok $? "a preset loaded in the explorer sweeps over both hosts"
wait_for_line 'run 3: received [0-9]* bytes' 300 "$tmp/agent.log" &&
	! grep -q 'error:' "$tmp/agent.log"
ok $? "its first run ends cleanly on the agent"
T send-keys q q
wait_for_line 'left after [0-9]* runs' 300 "$tmp/agent.log"
ok $? "quitting the explorer leaves the agent cleanly"
wait_exit
[ "$(cat "$tmp/exit" 2>/dev/null)" = 0 ]
ok $? "the explorer exits 0"
T kill-server

# An agent drops a client that idles past --max-idle; the explorer greets
# it again for its next run.
kill -TERM "$agent"
wait "$agent"
start_agent "$tmp/idle.log" --max-idle 1
start -- --connect 198.18.99.1 -s one-copy -m 16K -d 0.5
wait_for_line 'run 1: received [0-9]* bytes' 300 "$tmp/idle.log" &&
	wait_for_line 'dropped: idle for 1 s with no run' 300 "$tmp/idle.log"
ok $? "a fixed run over, the idle explorer is dropped after --max-idle"
T send-keys Enter
wait_for_line 'run 2: received [0-9]* bytes' 300 "$tmp/idle.log" &&
	[ "$(grep -c 'greeted' "$tmp/idle.log")" = 2 ] &&
	! grep -q 'error' "$tmp/idle.log"
ok $? "its next run greets the agent again and is clean"
T send-keys q q
wait_exit
T kill-server

kill -TERM "$agent"
wait "$agent"
[ $? = 143 ]
ok $? "the agent ends on SIGTERM (exit 143)"
[ -z "$(ip netns pids "$host_a")$(ip netns pids "$host_b")" ]
ok $? "no process is left in either namespace"
done_testing
