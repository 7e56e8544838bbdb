#!/bin/bash
# The sockets' own knobs: each is set on the end it belongs to, read back
# as the kernel made it (doubled, capped), recorded with the run, and gone
# with the run's sockets: the next run without them has the kernel's own.
# A congestion control the kernel lacks is refused up front, named.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq

wmem_max=$(cat /proc/sys/net/core/wmem_max)
rmem_max=$(cat /proc/sys/net/core/rmem_max)
# The kernel doubles what it is given and caps it at the sysctl (doubled).
expect() { local v=$(($1 < $2 ? $1 : $2)); echo $((2 * v)); }
snd=$(expect 1048576 "$wmem_max")
rcv=$(expect 2097152 "$rmem_max")
other=$(grep -ow reno /proc/sys/net/ipv4/tcp_available_congestion_control ||
	echo cubic)

out="$tmp/knobs.json"
"$NIO_TOP" --batch -s one-copy -m 64K -d 0.5 -w 0.1 --sndbuf 1M \
	--rcvbuf 2M --rcvlowat 64K --notsent-lowat 128K --busy-poll 50 \
	--prefer-busy-poll --congestion "$other" -o "$out" >/dev/null 2>&1
ok $? "one-copy with every socket knob set exits 0"
jq_true "$out" '.runs[0] | .sndbuf == 1048576 and .rcvbuf == 2097152 and .rcvlowat == 65536 and .notsent_lowat == 131072 and .busy_poll_us == 50 and .prefer_busy_poll == true and .congestion == "'"$other"'"'
ok $? "the run records the knobs asked for"
jq_true "$out" '.runs[0].socket.sender | .sndbuf == '"$snd"' and .notsent_lowat == 131072 and .busy_poll_us == 50 and .prefer_busy_poll and .congestion == "'"$other"'"'
ok $? "the sender's socket read back: SO_SNDBUF doubled ($snd), TCP_NOTSENT_LOWAT, busy polling, $other ($(jq -c .runs[0].socket.sender "$out"))"
jq_true "$out" '.runs[0].socket.receiver | .rcvbuf == '"$rcv"' and .rcvlowat == 65536 and .busy_poll_us == 50 and .congestion == "'"$other"'"'
ok $? "the receiver's socket read back: SO_RCVBUF doubled ($rcv), SO_RCVLOWAT ($(jq -c .runs[0].socket.receiver "$out"))"
jq_true "$out" '.runs[0] | .error == null and .bytes_received == .bytes_sent and .bytes_sent > 0'
ok $? "every byte delivered with the knobs set"

# Nothing outlives the run: the next one has the kernel's own.
default_cc=$(cat /proc/sys/net/ipv4/tcp_congestion_control)
out="$tmp/plain.json"
"$NIO_TOP" --batch -s one-copy -m 64K -d 0.5 -w 0.1 -o "$out" >/dev/null 2>&1
jq_true "$out" '.runs[0] | .sndbuf == 0 and .congestion == "" and .socket.sender.sndbuf != '"$snd"' and .socket.sender.busy_poll_us == 0 and .socket.sender.notsent_lowat != 131072 and .socket.receiver.rcvlowat == 262144'
ok $? "a run without them has the kernel's own sockets, and the receivers' own mark ($(jq -c .runs[0].socket "$out"))"
# A new namespace starts from the kernel's default congestion control.
jq_true "$out" '.runs[0].socket.sender.congestion == .runs[0].socket.receiver.congestion and .runs[0].socket.sender.congestion != ""'
ok $? "and the namespace's own congestion control ($(jq -r .runs[0].socket.sender.congestion "$out"); the host's is $default_cc)"

# Buffers autotune as the run goes: what a run records is what the kernel
# had at the end of its measured window (ss -tm says it mid-run), and at
# its start; not the 69120 of a socket just connected.
out="$tmp/tuned.json"
"$NIO_TOP" --batch -s one-copy -m 64K -d 4 -w 0.5 --no-profile -o "$out" \
	>/dev/null 2>&1 &
batch=$!
tb=
for _ in $(seq 300); do
	for fd in /proc/$batch/fd/*; do
		[[ $(readlink "$fd" 2>/dev/null) == net:* ]] || continue
		tb=$(nsenter --net="$fd" ss -tmH state established 2>/dev/null |
			grep -o 'tb[0-9]*' | sort -u | grep -v '^tb69120$' |
			head -1)
		[ -n "$tb" ] && break
	done
	# Mid-run: the sender's buffer has grown to the most it may.
	[ "${tb#tb}" = "$(awk '{print $3}' /proc/sys/net/ipv4/tcp_wmem)" ] &&
		break
	sleep 0.1
done
wait $batch
jq_true "$out" '.runs[0] | .socket.sender.sndbuf == '"${tb#tb}"' and .socket_start.sender.sndbuf > 0 and .socket.receiver.rcvbuf >= .socket_start.receiver.rcvbuf'
ok $? "the sender's SO_SNDBUF recorded is what ss -tm showed mid-run (${tb:-nothing}; $(jq -c '[.runs[0].socket_start.sender.sndbuf, .runs[0].socket.sender.sndbuf]' "$out"))"

# --rx zerocopy keeps a mark the user set, as tcp_mmap does.
if "$NIO_TOP" --list-strategies | grep -Eq '^--rx zerocopy +available'; then
	out="$tmp/zc.json"
	"$NIO_TOP" --batch -s zero-copy -m 64K --rx zerocopy --rcvlowat 256K \
		-d 0.5 -w 0.1 -o "$out" >/dev/null 2>&1
	jq_true "$out" '.runs[0] | .error == null and .socket.receiver.rcvlowat == 262144 and .bytes_received == .bytes_sent'
	ok $? "--rx zerocopy --rcvlowat 256K: the receiver keeps the mark asked for ($(jq .runs[0].socket.receiver.rcvlowat "$out"))"
fi

err=$("$NIO_TOP" --batch --congestion nosuch -d 0.5 2>&1)
rc=$?
[ $rc = 2 ] && [[ "$err" == *"--congestion: 'nosuch' is not a congestion control this kernel has (it has: "* ]]
ok $? "--congestion nosuch exits 2 naming it and those the kernel has (rc $rc)"
err=$("$NIO_TOP" --batch --sndbuf 2G -d 0.5 2>&1)
rc=$?
[ $rc = 2 ] && [[ "$err" == *"--sndbuf: '2G' is not a size"*"at most 1.0 GiB"* ]]
ok $? "--sndbuf 2G exits 2 naming the limit (rc $rc: ${err%%$'\n'*})"

done_testing
