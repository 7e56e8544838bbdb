#!/bin/bash
# The agent (nio-top --serve) under bad input: garbage, a 10 MiB line, a
# wrong protocol version, messages that break the rules, a wrong secret, a
# second client, a client killed in the middle of a run.  Each time the agent
# answers with an error naming what was wrong (or drops that client), keeps
# running, and then serves a real client correctly.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq ip timeout python3 tmux
. "$(dirname "$0")/tmux.sh"
trap 'T kill-server 2>/dev/null; two_hosts_remove; rm -rf "$tmp"' EXIT

two_hosts
ok $? "two namespaces joined by a veth pair"

# say LINE...: sends the lines from $host_b on one connection and prints the
# agent's answers, one a line sent, or those before it closes (at most 60 s:
# a loaded machine may take seconds to greet).
say() {
	ip netns exec "$host_b" timeout 60 bash -c '
		exec 3<>/dev/tcp/198.18.99.1/5310 || exit 1
		for line in "$@"; do printf "%s\n" "$line" >&3; done
		for _ in "$@"; do
			IFS= read -r answer <&3 || break
			printf "%s\n" "$answer"
		done' say "$@"
}

# good_run: a real client's run is clean, bytes equal on both hosts.
good_run() {
	client --batch -s one-copy -m 4K -d 0.2 -w 0.1 -o "$tmp/good.json" \
		"$@" >/dev/null 2>"$tmp/good.err" &&
		jq_true "$tmp/good.json" '.runs[0].error == null and
			.runs[0].bytes_sent > 0 and
			.runs[0].bytes_sent == .runs[0].bytes_received'
}

log=$tmp/agent.log
start_agent "$log"
ok $? "the agent listens"
grep -q 'a run may use [0-9.]* GiB of buffers (a quarter of' "$log"
ok $? "the agent names its default memory budget"
! grep -q 'warning:' "$log"
ok $? "an agent on one address does not warn"

hello='{"type":"hello","version":9}'
# cfg STRATEGY SIZE THREADS SLOTS [DURATION]: a run's settings, as a client
# sends them (a continuous run, paced by the client, unless DURATION).
cfg() {
	printf '{"strategy":"%s","msg_size":%s,"threads":%s,"mode":"stream","duration_s":%s,"warmup_s":0.5,"verify":false,"fields":8,"slots":%s,"uring_depth":8,"uring_fixed":false,"unsafe_reuse":false,"rx":"copy","nodelay":"rr","sndbuf":0,"rcvbuf":0,"rcvlowat":0,"notsent_lowat":0,"busy_poll_us":0,"prefer_busy_poll":false,"congestion":"","pin":[],"load_rate_mbps":0,"probe":null,"probe_cpu":"same","profile_hz":0,"no_waits":true,"gso_ipv4_max_size":0,"gro_ipv4_max_size":0,"gro":"as-built","round":1,"events":[]}' \
		"$1" "$2" "$3" "${5:-0}" "$4"
}
say 'this is not json' | grep -q '"type":"error".*not valid JSON'
ok $? "garbage: the agent answers with an error"
good_run
ok $? "garbage: then a real client's run is clean"

ip netns exec "$host_b" timeout 10 bash -c '
	exec 3<>/dev/tcp/198.18.99.1/5310 || exit 1
	head -c 10485760 /dev/zero | tr "\0" x >&3 2>/dev/null
	cat <&3' >"$tmp/big"
grep -q 'a message longer than 65536 bytes' "$tmp/big" ||
	grep -q 'dropped: a message longer than 65536 bytes' "$log"
ok $? "a 10 MiB line: the agent drops the client, naming the limit"
kill -0 "$agent" && good_run
ok $? "a 10 MiB line: the agent lives on and serves the next client"

say '{"type":"hello","version":10}' | grep -q \
	'protocol version 10 is not supported: this nio-top speaks version 9'
ok $? "wrong version: refused, naming both versions"
say '{"type":"hello","version":9,"colour":"red"}' |
	grep -q 'hello.colour: not a key of hello'
ok $? "an unknown key: the error names it"
say '{"type":"hello"}' | grep -q 'hello.version: missing'
ok $? "a missing key: the error names it"
say '{"type":"hello","version":"one"}' | grep -q 'hello.version: must be an integer'
ok $? "a value of the wrong kind: the error names the key and the rule"
say '{"type":"run","run":1,"agent_side":"receivers","config":{}}' |
	grep -q 'the first message must be a hello'
ok $? "a run before the hello: refused"
say '{"type":"hello","version":9,"version":9}' | grep -q 'version: the key appears twice'
ok $? "a duplicate key: refused"
say "$hello" '{"type":"tick","run":1,"totals":{},"counting":true,"pmu":false,"counters":[],"open":[],"latency":null,"error":null}' |
	grep -q 'tick: not a message a client sends'
ok $? "a message only an agent sends: refused"

# A bad run config is refused; the connection stays for a good one.
say "$hello" \
	"{\"type\":\"run\",\"run\":1,\"agent_side\":\"receivers\",\"config\":$(cfg teleport 4096 1 16)}" \
	'{"type":"run","run":2,"agent_side":"sideways","config":{}}' >"$tmp/refused"
grep -q '"type":"welcome"' "$tmp/refused" &&
	grep -q '"type":"refused","run":1,"error":"run.config.strategy: .teleport. is not a strategy' "$tmp/refused" &&
	grep -q '"type":"refused","run":2,"error":"run.agent_side: must be senders or receivers"' "$tmp/refused"
ok $? "bad run settings: refused by key, the connection stays"
say "$hello" \
	"{\"type\":\"run\",\"run\":1,\"agent_side\":\"receivers\",\"config\":$(cfg one-copy 4096 1 16)}" \
	'{"type":"flows","run":1,"ports":["x"]}' >"$tmp/ports"
grep -q '"type":"ready","run":1,"port":[0-9]*' "$tmp/ports" &&
	grep -q 'flows.ports\[0\]: must be a port 1 .. 65535' "$tmp/ports"
ok $? "a bad flow port: the error names it"
good_run
ok $? "after every bad message the agent serves a real client"

# A client killed in the middle of a run.
# Started without the client function, so that $! is nio-top itself.
ip netns exec "$host_b" "$NIO_TOP" --connect 198.18.99.1 --batch \
	-s one-copy -m 16K -d 30 -w 0.1 >/dev/null 2>&1 &
victim=$!
wait_for_line 'run 1: one-copy 16K x1 stream' 300 "$log"
ok $? "a client's 30 s run starts" || diag "$log"
sleep 0.5
# A second client meanwhile: told the agent is busy.
client --batch -s one-copy -m 4K -d 0.2 >/dev/null 2>"$tmp/busy.err"
[ $? = 1 ] && grep -q 'busy: serving 198.18.99.2:[0-9]* for [0-9]* s; one client at a time' \
	"$tmp/busy.err"
ok $? "a second client is refused: the agent is busy with the first"
failed=$(grep -c '; error: ' "$log")
# The agent notices on its control connection ("went away mid-run", when it
# reads the close or a tick it sends is reset), or its flows see the
# connections close first and the run ends before it reads the end of the
# control connection ("left after"): the scheduler's choice.
gone="the client went away mid-run\|left after"
seen=$(grep -c "$gone" "$log")
kill -9 "$victim"
wait "$victim" 2>/dev/null
for _ in $(seq 300); do
	[ "$(grep -c "$gone" "$log")" -gt "$seen" ] && break
	sleep 0.1
done
[ "$(grep -c "$gone" "$log")" -gt "$seen" ]
ok $? "a client killed mid-run: the agent notices ($(grep "$gone" "$log" | tail -1 | sed 's/.*: //'))" || diag "$log"
# Its run ends as failed: with that error, or with the one its flows saw
# first when the connections closed (which comes first is the scheduler's).
for _ in $(seq 300); do
	[ "$(grep -c '; error: ' "$log")" -gt "$failed" ] && break
	sleep 0.1
done
[ "$(grep -c '; error: ' "$log")" -gt "$failed" ]
ok $? "its run ends with an error ($(grep '; error: ' "$log" | tail -1 | sed 's/.*; error: //'))"
good_run
ok $? "then the next client's run is clean"

# A secret.
kill -TERM "$agent"
wait "$agent"
printf 's3cret\n' >"$tmp/secret"
printf 'guess\n' >"$tmp/wrong"
chmod 600 "$tmp/secret" "$tmp/wrong"
start_agent "$log" --auth-file "$tmp/secret"
ok $? "an agent with a secret listens"
good_run
grep -q 'refused: this agent needs a secret' "$tmp/good.err"
ok $? "no secret: refused before any run"
good_run --auth-file "$tmp/wrong"
grep -q 'refused: wrong secret' "$tmp/good.err"
ok $? "a wrong secret: refused before any run"
! grep -q 'run 1:' "$log"
ok $? "no run started for a client without the secret"
good_run --auth-file "$tmp/secret"
ok $? "the right secret: the run is clean"

# greet_ms HELLO: connects from $host_b, sends HELLO and prints the first
# line the agent answers and how many ms that took (at most 60 s: a loaded
# machine may take seconds to greet).
greet_ms() {
	ip netns exec "$host_b" timeout 60 bash -c '
		start=$(date +%s%N)
		exec 3<>/dev/tcp/198.18.99.1/5310 || exit 1
		printf "%s\n" "$1" >&3
		IFS= read -r line <&3
		echo "$(( ($(date +%s%N) - start) / 1000000 )) $line"' greet "$@"
}
good_hello='{"type":"hello","version":9,"secret":"s3cret","tool":"test"}'

# Strangers who connect and say nothing hold a handshake each, never the
# client slot: the real client is greeted at once, even with every handshake
# taken (the oldest makes room).
strangers=
for i in 1 2 3 4 5; do
	ip netns exec "$host_b" timeout 4 bash -c \
		'exec 3<>/dev/tcp/198.18.99.1/5310 && sleep 3' &
	strangers="$strangers $!"
done
sleep 0.5
out=$(greet_ms "$good_hello")
[ "${out%% *}" -lt 1000 ] && [[ "$out" == *'"type":"welcome"'* ]]
ok $? "five silent strangers do not delay a client with the secret (${out%% *} ms)"
good_run --auth-file "$tmp/secret"
ok $? "and its run is clean meanwhile"
# shellcheck disable=SC2086
wait $strangers
wait_for_line 'dropped: no hello within 2 s' 300 "$log"
ok $? "a silent stranger is dropped after 2 s"
grep -q 'dropped: busy: too many connections waiting to be greeted' "$log"
ok $? "the oldest silent stranger made room for the newest"

# Guessing is slow: after a wrong secret the next one is checked a second
# later, whoever sends it.
start=$(date +%s%N)
for guess in one two three; do
	greet_ms "{\"type\":\"hello\",\"version\":9,\"secret\":\"$guess\"}" \
		>>"$tmp/guesses"
done
ms=$((($(date +%s%N) - start) / 1000000))
[ "$(grep -c 'wrong secret' "$tmp/guesses")" = 3 ] && [ $ms -ge 2000 ]
ok $? "three wrong secrets take two seconds or more ($ms ms)"

# A guesser that sends a wrong secret again as soon as it is answered, from
# another address (the agent's own host) and then from the client's own:
# the client with the secret is served all the same, and quickly.
for from in "$host_a" "$host_b"; do
	ip netns exec "$from" timeout 60 bash -c '
		while :; do
			exec 3<>/dev/tcp/198.18.99.1/5310 || { sleep 0.1; continue; }
			printf "%s\n" "{\"type\":\"hello\",\"version\":9,\"secret\":\"guess\"}" >&3
			IFS= read -r line <&3
			exec 3<&-
		done' 2>/dev/null &
	guesser=$!
	before=$(grep -c 'dropped: wrong secret' "$log")
	for _ in $(seq 300); do
		[ "$(grep -c 'dropped: wrong secret' "$log")" -ge $((before + 2)) ] && break
		sleep 0.1
	done
	start=$(date +%s%N)
	good_run --auth-file "$tmp/secret"
	rc=$?
	ms=$((($(date +%s%N) - start) / 1000000))
	kill "$guesser"
	wait "$guesser" 2>/dev/null
	[ $rc = 0 ] && [ $ms -lt 8000 ]
	ok $? "a guesser on $([ "$from" = "$host_a" ] && echo another address || echo the client\'s address) does not starve a client with the secret ($ms ms)" ||
		diag "$tmp/good.err"
done

# A busy agent tells only a greeted peer whom it serves.  The run is long,
# so that it is still going on a slow machine when both have asked.
# Started without the client function, so that $! is nio-top itself (a
# background subshell would take the SIGINT below and leave the run going).
ip netns exec "$host_b" "$NIO_TOP" --connect 198.18.99.1 --batch -s one-copy \
	-m 16K -d 60 -w 0 --auth-file "$tmp/secret" \
	>/dev/null 2>"$tmp/busy-client.err" &
busy_client=$!
wait_for_line 'run [0-9]*: one-copy 16K x1 stream' 300 "$log"
ok $? "a client's 60 s run starts"
sleep 1.1
out=$(greet_ms '{"type":"hello","version":9,"secret":"nope"}')
[[ "$out" == *'wrong secret'* && "$out" != *198.18.99* && "$out" != *serving* ]]
ok $? "busy, to a stranger: only \"wrong secret\" (${out#* })"
out=$(greet_ms "$good_hello")
[[ "$out" == *'busy: serving 198.18.99.2:'*' one client at a time'* ]]
ok $? "busy, to a peer with the secret: who is served and for how long (${out#* })"
kill -0 "$busy_client" 2>/dev/null &&
	! grep -q 'error' "$tmp/busy-client.err"
ok $? "the client being served is not disturbed" || diag "$tmp/busy-client.err"
lines=$(grep -c 'left after' "$log")
kill -INT "$busy_client"
wait "$busy_client"
[ $? = 130 ]
ok $? "the client ends at once on SIGINT (exit 130)"
for _ in $(seq 300); do
	[ "$(grep -c 'left after' "$log")" -gt "$lines" ] && break
	sleep 0.1
done
[ "$(grep -c 'left after' "$log")" -gt "$lines" ]
ok $? "and the agent sees it leave" || diag "$log"

# Twenty clients one after another, each closing cleanly: every one is
# greeted, none is told the agent is busy with the one before.
ip netns exec "$host_b" timeout 60 bash -c '
	for i in $(seq 20); do
		exec 3<>/dev/tcp/198.18.99.1/5310 || exit 1
		printf "%s\n" "$1" >&3
		IFS= read -r line <&3
		echo "$line"
		exec 3<&-
	done' again "$good_hello" >"$tmp/again"
[ "$(grep -c '"type":"welcome"' "$tmp/again")" = 20 ]
ok $? "20 immediate reconnects after clean closes: $(grep -c '"type":"welcome"' "$tmp/again") greeted"

# Nothing a stranger sends reaches the log raw: a forged line and a screen
# clear arrive escaped, before any authentication.
say '{"type":"hello\nnio-top agent: 10.9.8.7:1 greeted (forged)\u001b[2J","version":9}' >/dev/null
wait_for_line 'is not a message' 300 "$log"
grep -qF 'hello\x0anio-top agent: 10.9.8.7:1 greeted (forged)\x1b[2J' "$log" &&
	! grep -q $'\e' "$log" && ! grep -q '^nio-top agent: 10.9.8.7' "$log"
ok $? "an escape sequence sent before authentication is escaped in the log"

# A connect flood from the clients' own address, silent connections and
# ones closed at once: real clients with the secret get through, and the log
# holds a few lines a window and a sum, not two lines a connection.
lines=$(wc -l <"$log")
ip netns exec "$host_b" timeout 8 bash -c '
	while :; do
		{ exec 3<>/dev/tcp/198.18.99.1/5310 && exec 3>&-; } 2>/dev/null
		( exec 4<>/dev/tcp/198.18.99.1/5310 && sleep 1 ) 2>/dev/null &
		sleep 0.01
	done' &
flood=$!
sleep 1
clean=0
for _ in $(seq 6); do
	good_run --auth-file "$tmp/secret" && clean=$((clean + 1))
done
ok $([ $clean = 6 ]; echo $?) "a connect flood: $clean of 6 real clients' runs are clean" ||
	diag "$tmp/good.err"
wait "$flood" 2>/dev/null
wait_for_line 'more connections from 198.18.99.2 in the last 10 s, not logged one by one' 150 "$log"
ok $? "the flood is summed up in the log" || diag "$log"
grown=$(($(wc -l <"$log") - lines))
flooded=$(grep -o 'more connections from 198.18.99.2 in the last 10 s' -c "$log")
[ "$grown" -lt 250 ]
ok $? "and the log grew by $grown lines in all ($flooded sums)"

# A flood from 20 addresses (198.19.20.1-20, on the clients' host), each
# connection closed at once, for 12 s: an address the agent's table of 16
# drops starts again, but all of them together are logged 100 connections
# a window (two lines each, a sum counting as one), and the rest are
# summed.  Before, every connection was logged, two lines each.
for i in $(seq 20); do
	ip -n "$host_b" addr add "198.19.20.$i/32" dev ntb || break
done
ip -n "$host_a" route add 198.19.20.0/27 via 198.18.99.2
ok $? "20 more addresses on the clients' host"
cat >"$tmp/flood.py" <<'PY'
import socket, threading, time
made, end = [0] * 20, time.time() + 12
def flood(i):
    while time.time() < end:
        s = socket.socket()
        s.settimeout(2)
        try:
            s.bind(("198.19.20.%d" % (i + 1), 0))
            s.connect(("198.18.99.1", 5310))
            made[i] += 1
        except OSError:
            pass
        s.close()
threads = [threading.Thread(target=flood, args=(i,)) for i in range(20)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(sum(made))
PY
lines=$(wc -l <"$log")
start=$(date +%s)
made=$(ip netns exec "$host_b" python3 "$tmp/flood.py")
took=$(($(date +%s) - start))
summed='more connections in the last 10 s, not logged one by one (100 a window are, from all addresses together)'
# Past 100 in the first 10 s needs some 15 connections a second.
if [ "$((${made:-0} * 10))" -lt "$((took * 150))" ]; then
	skip_one "the flood from 20 addresses is summed up in the log" \
		"this machine made $made connections in $took s, too few to pass 100 a window"
else
	wait_for_line "$summed" 300 "$log"
	ok $? "the flood from 20 addresses is summed up in the log ($made connections in $took s)" ||
		diag "$log"
fi
grown=$(($(wc -l <"$log") - lines))
# Each window the flood touched: 100 connections of two lines and a sum.
most=$(((took / 10 + 2) * 201))
[ "$grown" -le "$most" ]
ok $? "and the log grew by $grown lines, at most $most for $took s" ||
	tail -5 "$log" | comment
good_run --auth-file "$tmp/secret"
ok $? "then a real client's run is clean" || diag "$tmp/good.err"

# Silent connections flooding from one address (the agent's own) leave room
# for a client on another that takes half a second to say hello.
ip netns exec "$host_a" timeout 6 bash -c '
	while :; do
		( exec 4<>/dev/tcp/198.18.99.1/5310 && sleep 1 ) 2>/dev/null &
		sleep 0.01
	done' &
flood=$!
sleep 1
out=$(ip netns exec "$host_b" timeout 5 bash -c '
	exec 3<>/dev/tcp/198.18.99.1/5310 || exit 1
	sleep 0.5
	printf "%s\n" "$1" >&3
	IFS= read -r line <&3
	echo "$line"' slow "$good_hello")
kill "$flood" 2>/dev/null
wait "$flood" 2>/dev/null
[[ "$out" == *'"type":"welcome"'* ]]
ok $? "a slow client on another address is greeted during a silent flood (${out:0:40})"

kill -TERM "$agent"
wait "$agent"

# The secret file: private, one line, one limit on both ends.
printf 's3cret\n' >"$tmp/open-secret"
chmod 644 "$tmp/open-secret"
err=$(ip netns exec "$host_a" timeout 20 "$NIO_TOP" --serve --listen 198.18.99.1 \
	--auth-file "$tmp/open-secret" 2>&1)
[ $? = 1 ] && [[ "$err" == *"open-secret: other users may read it (mode 0644): chmod 600 $tmp/open-secret"* ]]
ok $? "a world-readable secret: the agent refuses to start, naming the fix"
err=$(client --batch -d 0.1 --auth-file "$tmp/open-secret" 2>&1)
[ $? = 1 ] && [[ "$err" == *"chmod 600"* ]]
ok $? "and so does a client"
ln -s "$tmp/secret" "$tmp/link-secret"
printf 'ab\0cd\n' >"$tmp/nul-secret"
printf 'one\ntwo\n' >"$tmp/two-secret"
head -c 257 /dev/zero | tr '\0' k >"$tmp/long-secret"
head -c 256 /dev/zero | tr '\0' k >"$tmp/max-secret"
chmod 600 "$tmp"/*-secret
for bad in "link:a symbolic link" "nul:holds a NUL byte" \
	"two:more than one line" "long:longer than 256 bytes"; do
	err=$(client --batch -d 0.1 --auth-file "$tmp/${bad%%:*}-secret" 2>&1)
	[ $? = 1 ] && [[ "$err" == *"${bad#*:}"* ]]
	ok $? "a bad secret file is refused: ${bad#*:}"
done
start_agent "$log" --auth-file "$tmp/max-secret"
good_run --auth-file "$tmp/max-secret"
ok $? "a 256-byte secret: the agent and the client both take it"
kill -TERM "$agent"
wait "$agent"

# A greeted client that says nothing with no run is dropped (--max-idle),
# and nio-top --connect greets the agent again for its next run.
start_agent "$log" --max-idle 1
out=$(ip netns exec "$host_b" timeout 60 bash -c '
	exec 3<>/dev/tcp/198.18.99.1/5310 || exit 1
	printf "%s\n" "{\"type\":\"hello\",\"version\":9}" >&3
	cat <&3')
[[ "$out" == *'"type":"welcome"'* && "$out" == *'idle for 1 s with no run'* ]]
ok $? "a greeted client silent for --max-idle is dropped, told why"

kill -TERM "$agent"
wait "$agent"

# What one client's run may ask of an agent, checked before anything is
# allocated: one message must not make the agent allocate without bound.
# run_msg ID SIDE STRATEGY SIZE THREADS SLOTS [DURATION]
run_msg() {
	printf '{"type":"run","run":%s,"agent_side":"%s","config":%s}' \
		"$1" "$2" "$(cfg "$3" "$4" "$5" "$6" "${7:-}")"
}
start_agent "$log"
say "$hello" "$(run_msg 1 senders zero-copy 4194304 64 4096)" >"$tmp/huge"
grep -q '"type":"refused","run":1,"error":"run.config: 64 flows of zero-copy 4M need 1.0 TiB of buffers here; this agent allows [0-9.]* GiB a run (--max-memory)"' "$tmp/huge"
ok $? "64 flows x 4096 slots x 4 MiB: refused by the default budget, named"
kill -TERM "$agent"
wait "$agent"

# A client's congestion control is one the kernel lists as loaded (as
# root the kernel would load any module tcp_NAME for it, tcp_diag among
# them), refused by name before any socket is given it; one it has is
# set, and logged.  strace, where there is one, watches every setsockopt.
congested='"type":"refused","run":1,"error":"run.config.congestion: .diag. is not a congestion control this kernel has loaded (it has: '
if command -v strace >/dev/null; then
	ip netns exec "$host_a" strace -f -qq --seccomp-bpf -e trace=setsockopt \
		-o "$tmp/strace" "$NIO_TOP" --serve --listen 198.18.99.1 \
		2>"$log" &
	agent=$!
	wait_for_line 'listening on' 300 "$log"
else
	start_agent "$log"
fi
say "$hello" "$(run_msg 1 receivers one-copy 4096 1 16 | jq -c '.config.congestion = "diag"')" \
	>"$tmp/congestion"
# The agent logs a refusal after sending it.
grep -q "$congested" "$tmp/congestion" &&
	wait_for_line 'run 1 refused: run.config.congestion: .diag. is not' 300 "$log"
ok $? "a congestion control of diag: refused by name, and logged" ||
	{ diag "$tmp/congestion"; diag "$log"; }
cc=$(cat /proc/sys/net/ipv4/tcp_congestion_control)
good_run --congestion "$cc"
ok $? "one the kernel has ($cc, its default): the run is clean" || diag "$tmp/good.err"
grep -q "run [0-9]*: one-copy 4K x1 stream, this host runs the receivers, congestion $cc\$" "$log"
ok $? "and the agent logs its name" || diag "$log"
if [ -s "$tmp/strace" ]; then
	# strace shows a 4-byte name as the integer it would be.
	as_int=$(python3 -c 'import sys; b = sys.argv[1].encode(); print(int.from_bytes(b, "little") if len(b) == 4 else "none")' "$cc")
	set=$(grep -c 'TCP_CONGESTION' "$tmp/strace")
	other=$(grep 'TCP_CONGESTION' "$tmp/strace" | grep -vc -e "\"$cc\"" -e "\[$as_int\]")
	[ "$set" -ge 1 ] && [ "$other" = 0 ]
	ok $? "strace: the agent set $cc $set times, and no other name (diag never tried)" ||
		grep TCP_CONGESTION "$tmp/strace" | head -5 | comment
	kill -TERM $(pgrep -P "$agent" -x nio-top) 2>/dev/null
else
	skip_one "strace: the agent never tried diag" "needs strace"
	kill -TERM "$agent"
fi
wait "$agent"

start_agent "$log" --max-memory 1G --max-threads 8 --max-duration 2
grep -q 'a run may use 1.0 GiB of buffers (--max-memory), 8 flows, 4096 slots, 2 s' "$log"
ok $? "the agent logs the limits its owner set"
say "$hello" "$(run_msg 1 senders zero-copy 4194304 8 64)" \
	"$(run_msg 2 senders one-copy 4096 9 16)" \
	"$(run_msg 3 receivers one-copy 4096 1 16 5)" >"$tmp/limits"
grep -q '"type":"refused","run":1,"error":"run.config: 8 flows of zero-copy 4M need 2.0 GiB of buffers here; this agent allows 1.0 GiB a run (--max-memory)"' "$tmp/limits"
ok $? "zero-copy 4M x 8 flows x 64 slots: refused, the budget named"
rss=$(awk '/^VmRSS/ { print $2 }' /proc/"$agent"/status)
[ "$rss" -lt 65536 ]
ok $? "and the agent's memory stays small (VmRSS $rss KiB)"
grep -q '"type":"refused","run":2,"error":"run.config.threads: 9 flows; this agent allows 8 (--max-threads)"' "$tmp/limits"
ok $? "more flows than --max-threads: refused"
grep -q '"type":"refused","run":3,"error":"run.config.duration_s: the run would last 5.5 s with its warm-up; this agent allows 2 s (--max-duration)"' "$tmp/limits"
ok $? "a run longer than --max-duration: refused"
good_run
ok $? "a run within the limits is clean"
kill -TERM "$agent"
wait "$agent"

# An agent that greets and then, asked for a run, only ever ticks: the
# client's wait for the answer has one deadline, which the ticks do not
# extend, and a signal ends it at once.  A proxy in front of a real agent
# passes the greeting on and keeps the run to itself.
cat >"$tmp/ticker.py" <<'PY'
import json, socket, sys, time
up, port, seen = sys.argv[1], int(sys.argv[2]), sys.argv[3]
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("198.18.99.1", port))
s.listen(2)
open(up, "w").write("listening on %d\n" % port)
c, _ = s.accept()
if sys.argv[4:] == ["busy-first"]:  # the first hello dropped to make room
    c.makefile("rb").readline()
    c.sendall(b'{"type":"error","error":"busy: too many connections waiting '
              b'to be greeted; try again","version":9}\n')
    c.close()
    c, _ = s.accept()
a = socket.create_connection(("198.18.99.1", 5310))
cf, af = c.makefile("rb"), a.makefile("rb")
a.sendall(cf.readline())            # hello
welcome = af.readline()
if sys.argv[4:] == ["bad-welcome"]:  # a host no codec takes
    w = json.loads(welcome)
    w["host"]["cpus"] = 1e300
    c.sendall(json.dumps(w).encode() + b"\n")
    cf.readline()
    sys.exit(0)
c.sendall(welcome)
cf.readline()                       # the run, kept
open(seen, "w").write("run asked\n")
tick = b'{"type":"tick","run":1,"totals":{},"counting":true,"pmu":false,' \
       b'"counters":[],"open":[],"latency":null,"error":null}\n'
try:
    for _ in range(300):
        c.sendall(tick)
        time.sleep(0.1)
except OSError:
    pass
PY
start_agent "$log"
ticker() {
	rm -f "$tmp/ticker.up" "$tmp/ticker.seen"
	ip netns exec "$host_a" timeout 40 python3 "$tmp/ticker.py" \
		"$tmp/ticker.up" "$1" "$tmp/ticker.seen" ${2:+"$2"} &
	ticker_pid=$!
	wait_for_line 'listening on' 300 "$tmp/ticker.up"
}
ticker 5313
start=$(date +%s%N)
err=$(ip netns exec "$host_b" "$NIO_TOP" --connect 198.18.99.1:5313 --batch \
	-s one-copy -m 4K -d 0.2 2>&1 >/dev/null)
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
kill "$ticker_pid" 2>/dev/null
wait "$ticker_pid" 2>/dev/null
[ $rc = 1 ] && [[ "$err" == *'no answer within 10 s'* ]] && [ $ms -lt 20000 ]
ok $? "an agent that only ticks: the client gives up after its 10 s, not never ($ms ms)" ||
	printf '# %s\n' "$err"

ticker 5314
ip netns exec "$host_b" "$NIO_TOP" --connect 198.18.99.1:5314 --batch \
	-s one-copy -m 4K -d 0.2 >/dev/null 2>"$tmp/ticked.err" &
client_pid=$!
wait_for_line 'run asked' 300 "$tmp/ticker.seen"
start=$(date +%s%N)
kill -INT "$client_pid"
wait "$client_pid"
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
kill "$ticker_pid" 2>/dev/null
wait "$ticker_pid" 2>/dev/null
[ $rc = 130 ] && [ $ms -lt 2000 ]
ok $? "and SIGINT while it waits ends the client at once (exit $rc, $ms ms)" ||
	diag "$tmp/ticked.err"

# An agent that drops the client's first connection to make room ("busy:
# too many connections waiting to be greeted; try again", as under a flood
# from the client's own address): the client says hello again, is greeted,
# and asks for its run.
ticker 5319 busy-first
ip netns exec "$host_b" "$NIO_TOP" --connect 198.18.99.1:5319 --batch \
	-s one-copy -m 4K -d 0.2 >/dev/null 2>"$tmp/busy.err" &
client_pid=$!
wait_for_line 'run asked' 300 "$tmp/ticker.seen" &&
	! grep -q 'too many connections' "$tmp/busy.err"
ok $? "told \"busy ... try again\", the client says hello again and is greeted" ||
	diag "$tmp/busy.err"
kill "$ticker_pid" "$client_pid" 2>/dev/null
wait "$ticker_pid" "$client_pid" 2>/dev/null

# A welcome whose host the codec refuses (a proxy rewrites host.cpus to
# 1e300): the client says which field, and under AddressSanitizer reads no
# freed memory on the way.
ticker 5320 bad-welcome
err=$(ip netns exec "$host_b" "$NIO_TOP" --connect 198.18.99.1:5320 --batch \
	-s one-copy -m 4K -d 0.2 2>&1 >/dev/null)
rc=$?
kill "$ticker_pid" 2>/dev/null
wait "$ticker_pid" 2>/dev/null
[ $rc = 1 ] && [[ "$err" == *'sent a bad welcome.host.cpus'* ]] &&
	[[ "$err" != *AddressSanitizer* ]]
ok $? "a welcome with a host no codec takes: refused, naming the field (exit $rc)" ||
	printf '# %s\n' "$err"

# quit_timed PID: q to the explorer; $ms until it has exited and $rc its
# status; then PID (the fake agent it waited for) is stopped.
quit_timed() {
	local from
	from=$(date +%s%N)
	T send-keys -t ui q
	wait_exit
	ms=$((($(date +%s%N) - from) / 1000000))
	rc=$(cat "$tmp/exit" 2>/dev/null)
	kill "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

# The explorer waiting so for its first run's answer: a key that does not
# quit is kept for later and the wait goes on; q ends it and nio-top at once.
ticker 5315
ui_binary="ip netns exec $host_b $NIO_TOP"
start -- --connect 198.18.99.1:5315 -s one-copy -m 4K
wait_for_line 'run asked' 300 "$tmp/ticker.seen"
T send-keys -t ui 2
never_shows 'interrupted|cannot start' 10 && [ ! -s "$tmp/exit" ]
ok $? "a key that does not quit leaves the explorer waiting for the agent"
quit_timed "$ticker_pid"
[ "$rc" = 0 ] && [ $ms -lt 3000 ]
ok $? "q in the explorer while it waits for the agent quits at once (exit $rc, $ms ms)" ||
	screen | comment
T kill-server

# An agent that never greets: the explorer says what it waits for, and q
# ends that wait too.
rm -f "$tmp/silent.up"
ip netns exec "$host_a" timeout 40 python3 -c '
import socket, sys
s = socket.socket()
s.bind(("198.18.99.1", 5316))
s.listen(1)
open(sys.argv[1], "w").write("listening\n")
c, _ = s.accept()
c.recv(100)
open(sys.argv[1], "a").write("hello kept\n")
c.recv(100)' "$tmp/silent.up" &
silent_pid=$!
wait_for_line 'listening' 300 "$tmp/silent.up"
start -- --connect 198.18.99.1:5316 -s one-copy -m 4K
wait_for_line 'hello kept' 300 "$tmp/silent.up" &&
	wait_screen 'Reaching the agent 198\.18\.99\.1:5316 \.\.\.' 50 &&
	screen | grep -q 'q quits'
ok $? "while the agent is reached the explorer says so, and that q quits" ||
	screen | comment
quit_timed "$silent_pid"
[ "$rc" = 0 ] && [ $ms -lt 3000 ]
ok $? "q while the agent is reached quits at once (exit $rc, $ms ms)"
T kill-server
kill -TERM "$agent"
wait "$agent"

ip netns exec "$host_a" "$NIO_TOP" --serve --port 5311 2>"$tmp/open.log" &
open_agent=$!
wait_for_line 'warning: listening on every address with no secret' 300 "$tmp/open.log"
ok $? "every address and no secret: the agent warns"
kill -TERM "$open_agent"
wait "$open_agent"

# A hostile agent's words reach the client's terminal escaped.
cat >"$tmp/hostile.py" <<'PY'
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("198.18.99.1", 5312))
s.listen(1)
open(sys.argv[1], "w").write("listening on 5312\n")
c, _ = s.accept()
c.recv(4096)
c.sendall(b'{"type":"error","error":"evil\\u001b[2J\\nforged","version":9}\n')
c.close()
PY
ip netns exec "$host_a" timeout 30 python3 "$tmp/hostile.py" "$tmp/hostile.up" &
hostile=$!
wait_for_line 'listening on' 300 "$tmp/hostile.up"
err=$(ip netns exec "$host_b" "$NIO_TOP" --connect 198.18.99.1:5312 --batch \
	-d 0.1 2>&1)
wait "$hostile"
[[ "$err" == *'refused: evil\x1b[2J\x0aforged'* ]] && [[ "$err" != *$'\e'* ]]
ok $? "a hostile agent's error text is printed escaped" ||
	printf '# %s\n' "$err"

[ -z "$(ip netns pids "$host_a")$(ip netns pids "$host_b")" ]
ok $? "no process is left in either namespace"
done_testing
