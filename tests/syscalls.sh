#!/bin/bash
# System calls per message, counted by the kernel (the raw_syscalls:sys_enter
# tracepoint, nio-top's "syscalls" event) for every strategy at 4K and 16K
# with eight fields, in a stream and in rr: each must stay what the
# strategy's design says.  A strategy that starts making more calls than it
# should (splice once made 16 a message at 4K and 4 at 16K, one vmsplice and
# one splice per field) fails here.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq

"$NIO_TOP" --batch -s all -m 4K,16K -d 0.5 -w 0.2 --min-measured 0 \
	-o "$tmp/stream.json" >/dev/null 2>"$tmp/stream.err"
ok $? "every strategy streams at 4K and 16K" || diag "$tmp/stream.err"
if [ "$(jq '[.runs[].sender.derived.syscalls_per_msg | select(. != null)] | length' \
	"$tmp/stream.json")" = 0 ]; then
	reason=$(jq -r '.runs[0].sender.counters[] | select(.event == "syscalls") | .reason' \
		"$tmp/stream.json" 2>/dev/null)
	skip_all "no system call counts here: ${reason:-unknown}"
fi
"$NIO_TOP" --batch --mode rr -s all -m 4K -d 0.5 -w 0.2 --min-measured 0 \
	-o "$tmp/rr.json" >/dev/null 2>"$tmp/rr.err"
ok $? "every strategy answers requests at 4K" || diag "$tmp/rr.err"

# expect FILE MODE STRATEGY SIDE CALLS MORE: each run of the strategy in the
# file makes CALLS system calls per message on SIDE, up to MORE.  A window's
# edges cut a call from its message: 3% below is the same count.
expect() {
	local got
	got=$(jq -r --arg s "$3" --arg side "$4" \
		'[.runs[] | select(.strategy == $s) | .[$side].derived.syscalls_per_msg] | map(tostring) | join(" ")' \
		"$1")
	awk -v lo="$5" -v hi="$6" -v got="$got" 'BEGIN {
		lo *= 0.97
		n = split(got, v, " ")
		if (n == 0) exit 1
		for (i = 1; i <= n; i++)
			if (v[i] == "null" || v[i] + 0 < lo || v[i] + 0 > hi) exit 1
	}'
	ok $? "$2 $3 $4: $5 .. $6 system calls a message (measured: $got)"
}

# A copying send is one call; zero-copy also reaps its completions every
# few sends; io_uring submits eight messages a call (--uring-depth 8).
while read -r strategy tx_lo tx_hi rx_lo rx_hi; do
	expect "$tmp/stream.json" stream "$strategy" sender "$tx_lo" "$tx_hi"
	expect "$tmp/stream.json" stream "$strategy" receiver "$rx_lo" "$rx_hi"
done <<'EOF'
two-copy 1 1.05 1 1.05
one-copy 1 1.05 1 1.05
zero-copy 1 1.3 1 1.05
uring 0.12 0.2 0.12 0.2
uring-zc 0.12 0.2 0.12 0.2
sendfile 1 1.05 1 1.05
splice 2 2.1 1 1.05
EOF
# A round trip adds the request: one call to read it, one to send it.
while read -r strategy tx_lo tx_hi rx_lo rx_hi; do
	expect "$tmp/rr.json" rr "$strategy" sender "$tx_lo" "$tx_hi"
	expect "$tmp/rr.json" rr "$strategy" receiver "$rx_lo" "$rx_hi"
done <<'EOF'
two-copy 2 2.05 2 2.05
one-copy 2 2.05 2 2.05
zero-copy 2 2.3 2 2.05
uring 2 2.2 2 2.2
uring-zc 2 2.3 2 2.2
sendfile 2 2.05 2 2.05
splice 3 3.1 2 2.05
EOF

done_testing
