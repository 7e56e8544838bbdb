#!/bin/bash
# The receive ladder over veth (--rx as a grid dimension): copy, zerocopy,
# trunc and uring each receive every byte sent; trunc is marked as a bound
# and cannot be checked (--verify is refused, naming it); the uring receiver
# counts its requests, completions and the buffers it gives back, and reads
# every message intact (--verify), from 64-byte messages many to a buffer to
# 1 MiB ones across many buffers, and it finds the corrupt ones a sender
# made.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
"$NIO_TOP" --list-strategies | grep -Eq '^--rx uring +available' ||
	skip_all "io_uring multishot receive is unavailable here"
ladder=copy,trunc,uring
"$NIO_TOP" --list-strategies | grep -Eq '^--rx zerocopy +available' &&
	ladder=copy,trunc,zerocopy,uring
rungs=$(tr ',' '\n' <<<"$ladder" | wc -l)

out="$tmp/ladder.json"
"$NIO_TOP" --batch -s one-copy -m 4K,64K --rx "$ladder" -d 0.5 -w 0.1 \
	--min-measured 0 -o "$out" >"$tmp/ladder.txt" 2>"$tmp/ladder.err"
ok $? "-s one-copy -m 4K,64K --rx $ladder exits 0"
jq_true "$out" "(.runs | length) == 2 * $rungs and ([.runs[].rx] | unique | length) == $rungs"
ok $? "--rx is a grid dimension: $((2 * rungs)) runs, each receive side twice ($(jq -c '[.runs[].rx]' "$out"))"
jq_true "$out" '[.runs[] | .error == null and .bytes_sent > 0 and .bytes_received == .bytes_sent and .messages_received == .messages_sent] | all'
ok $? "every run: bytes and messages received == sent ($(jq -c '[.runs[] | "\(.rx) \(.bytes_received)"]' "$out"))"
grep -Eq '^ +[0-9]+ one-copy +4K +1 stream +trunc .* bound( |$)' "$tmp/ladder.txt" &&
	! grep -E '^ +[0-9]+ one-copy .* (copy|uring|zerocopy) .* bound( |$)' "$tmp/ladder.txt" >/dev/null
ok $? "the table marks the trunc runs, and only them, as a bound"
jq_true "$out" '[.runs[] | select(.rx == "uring") | .uring_rx.requests >= 1 and .uring_rx.completions >= 1 and .uring_rx.buffers_recycled > 0 and .uring.cq_overflow == 0] | all'
ok $? "uring: requests, completions and buffers given back counted ($(jq -c '[.runs[] | select(.rx == "uring") | .uring_rx]' "$out"))"
jq_true "$out" '[.runs[] | select(.rx != "uring") | .uring_rx == null] | all'
ok $? "the other receive sides have no uring_rx block"
jq_true "$out" '[.runs[] | has("uring_rx") and has("rx_zerocopy")] | all'
ok $? "every run has every receive side's block, null where it is another's (key for key as before the sides described themselves)"
# Every request but each flow's first was armed again for a reason the
# kernel gave by ending the one before: counted, each once.
rearms='def rearms: .uring_rx | if has("bundle_ended") and has("other_ended")
		then .ring_empty + .bundle_ended + .other_ended else -1 end;
	[.runs[] | select(.rx == "uring")]'
jq_true "$out" "$rearms"' | any(.uring_rx.requests > .threads) and all(.uring_rx.requests - .threads == rearms)'
ok $? "uring: requests - 1 == the re-arms counted by reason, in runs that re-arm ($(jq -c "$rearms"' | map(.uring_rx | [.requests, .ring_empty, .bundle_ended, .other_ended])' "$out"))"
grep -Eq '^    rx uring: [0-9]+ requests? armed, [0-9]+ completions, [0-9]+ buffers given back' "$tmp/ladder.txt" &&
	grep -Eq '^    rx uring: [0-9]+ requests armed, .*; armed again: the ring empty [0-9]+ times?, a bundle took all it peeked [0-9]+ times?' "$tmp/ladder.txt"
ok $? "the table says the uring receiver's counts under its runs, and why it armed again"
grep -Eq 'one-copy with MSG_TRUNC receive \(the bound\) vs one-copy with copy receive: .*receiver CPU per KiB 4K [0-9]+ vs [0-9]+ ns' "$tmp/ladder.txt" &&
	grep -Eq 'one-copy with io_uring receive vs one-copy with copy receive: .*receiver CPU per KiB' "$tmp/ladder.txt"
ok $? "the analysis pairs each receive side with copy, with the receiver's CPU per KiB"

# Every rung wakes alike: one low-water mark for all in a stream (the
# ladder above), lowered to what sendfile's 16 slots leave unread while
# their sender waits (15 of them) and to a millisecond of a 100 Mbit/s
# link; none in rr; a mark given is kept, zerocopy's too.  zerocopy's own
# comes down from it, to half of what is queued, when a wait ends twice on
# the same bytes (a sender that cannot have more unread): on a busy machine
# that may be before the measured window starts.
jq_true "$out" '([.runs[] | select(.rx != "zerocopy") | .socket_start.receiver.rcvlowat] | unique == [262144]) and
	([.runs[] | select(.rx == "zerocopy") | .socket_start.receiver.rcvlowat] | all(. > 0 and . <= 262144))'
ok $? "every receive side of a stream waits for the same 256 KiB mark, zerocopy's at most that ($(jq -c '[.runs[] | [.rx, .socket_start.receiver.rcvlowat]] | unique' "$out"))"
# mark ARGS...: the marks the runs' receivers started with, every byte
# received (zerocopy's only where a mark was given: its own may come down).
mark() {
	"$NIO_TOP" --batch --min-measured 0 -d 0.3 -w 0 --no-profile \
		-o "$tmp/mark.json" "$@" >/dev/null 2>&1 &&
		jq -c '[.runs[] | select(.bytes_received == .bytes_sent and
			(.rx != "zerocopy" or .rcvlowat > 0)) |
			.socket_start.receiver.rcvlowat] | unique' "$tmp/mark.json"
}
got=$(mark -s sendfile,splice -m 4K --slots 16 --rx "$ladder")
[ "$got" = "[61440]" ]
ok $? "sendfile and splice with 16 slots of 4 KiB: every rung's mark 60 KiB, every byte received ($got)"
got=$(mark -s sendfile,splice -m 64K --slots 1 --rx copy,trunc)
[ "$got" = "[1]" ]
ok $? "one slot: no mark, since the rest of a message part read may be all a waiting sender left ($got)"
got=$(mark -s one-copy -m 4K --rate 100M --rx copy,trunc)
[ "$got" = "[12500]" ]
ok $? "on a 100 Mbit/s link: a millisecond of it, 12500 bytes ($got)"
got=$(mark -s one-copy -m 4K --mode rr --rx copy,trunc)
[ "$got" = "[1]" ]
ok $? "request-response: no mark, the kernel's 1 ($got)"
got=$(mark -s one-copy -m 64K --rcvlowat 100K --rx "$ladder")
[ "$got" = "[102400]" ]
ok $? "--rcvlowat 100K: every rung's mark as given ($got)"

# Checked: every message read where it landed is the one sent.
for sizes in 64,4K 1M; do
	out="$tmp/verify-$sizes.json"
	"$NIO_TOP" --batch -s one-copy,zero-copy -m "$sizes" --rx uring -t 1,2 \
		--verify -d 0.5 -w 0.1 -o "$out" >/dev/null 2>&1
	ok $? "--rx uring --verify -m $sizes -t 1,2 exits 0"
	jq_true "$out" '[.runs[] | .rx == "uring" and .error == null and .messages_received > 0 and .integrity.checked == .messages_received and .integrity.corrupt == 0 and .bytes_received == .bytes_sent] | all'
	ok $? "--rx uring -m $sizes: every message checked, 0 corrupt ($(jq -c '[.runs[] | .integrity.checked]' "$out"))"
	jq_true "$out" "$rearms"' | all(.uring_rx.requests - .threads == rearms)'
	ok $? "--rx uring -m $sizes -t 1,2: requests - flows == the re-arms by reason ($(jq -c "$rearms"' | map(.uring_rx | [.requests, .ring_empty, .bundle_ended, .other_ended])' "$out"))"
done

# A corrupt message is found: sendfile told to rewrite pages unread.
out="$tmp/unsafe.json"
"$NIO_TOP" --batch -s sendfile -m 64K --rx uring --unsafe-reuse --verify \
	-d 0.5 -w 0 -o "$out" >/dev/null 2>&1
jq_true "$out" '.runs[0].integrity.corrupt > 0 and .runs[0].bytes_received == .runs[0].bytes_sent'
ok $? "--rx uring finds the corrupt messages of --unsafe-reuse ($(jq '.runs[0].integrity.corrupt' "$out"))"

# One request, one answer: each receive side answers and times it.
out="$tmp/rr.json"
"$NIO_TOP" --batch --mode rr -s one-copy -m 4K --rx copy,trunc,uring -d 0.5 \
	-w 0.1 -o "$out" >/dev/null 2>&1
ok $? "--mode rr --rx copy,trunc,uring exits 0"
jq_true "$out" '[.runs[] | .error == null and .latency_us.round_trips > 0 and .latency_us.p50 > 0 and .bytes_received == .bytes_sent] | all'
ok $? "rr: every receive side times its round trips ($(jq -c '[.runs[] | "\(.rx) \(.latency_us.p50)"]' "$out"))"

# trunc reads nothing, so nothing can be checked: refused, named.
err=$("$NIO_TOP" --batch -s one-copy --rx copy,trunc --verify -d 0.5 2>&1)
rc=$?
[ $rc = 2 ] && [[ "$err" == *"--rx trunc cannot --verify"* ]]
ok $? "--rx trunc with --verify exits 2 naming trunc (got $rc)"
err=$("$NIO_TOP" --batch --rx copy,bogus 2>&1)
rc=$?
[ $rc = 2 ] && [[ "$err" == *"'bogus' is not a rx"* ]]
ok $? "--rx bogus exits 2 naming the value (got $rc: ${err%%$'\n'*})"

done_testing
