#!/bin/bash
# sendfile and splice over veth: every byte and message delivered, none
# corrupt, with one and two flows, although neither path has a completion
# (a slot is reused only once the receiver has read it).  --unsafe-reuse
# breaks that rule on purpose: the corrupt count rises and the run says so.
# --rx zerocopy maps pages into the receiver and counts mapped and copied
# bytes, which add up to the bytes received.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq python3

out="$tmp/grid.json"
"$NIO_TOP" --batch -s sendfile,splice -m 4K,64K -t 1,2 -d 0.5 -w 0.1 \
	--verify -o "$out" >/dev/null 2>&1
ok $? "sendfile and splice x 4K,64K x 1,2 --verify exit 0"
ok $([ "$(jq '.runs | length' "$out")" = 8 ]; echo $?) "8 runs exported"
jq_true "$out" '[.runs[] | .bytes_received == .bytes_sent and .messages_received == .messages_sent and .messages_sent > 0 and .error == null] | all'
ok $? "every run: bytes and messages received == sent"
jq_true "$out" '[.runs[] | .integrity.checked == .messages_received and .integrity.corrupt == 0] | all'
ok $? "every run: every message checked, 0 corrupt"
jq_true "$out" '[.runs[] | .unsafe_reuse == false and .zerocopy == null and .rx == "copy" and .rx_zerocopy == null] | all'
ok $? "every run: the rule kept (unsafe_reuse false), copying receiver"

out="$tmp/unsafe.json"
"$NIO_TOP" --batch -s sendfile,splice -m 64K -d 0.5 -w 0 --verify \
	--unsafe-reuse -o "$out" >"$tmp/unsafe.txt" 2>&1
jq_true "$out" '[.runs[] | .unsafe_reuse == true and .integrity.corrupt > 0 and .bytes_received == .bytes_sent] | all'
ok $? "--unsafe-reuse: corrupt messages in both runs ($(jq -c '[.runs[].integrity.corrupt]' "$out")), every byte still delivered"
grep -q 'UNSAFE REUSE' "$tmp/unsafe.txt"
ok $? "--unsafe-reuse: the batch table says so"

if "$NIO_TOP" --check | grep -Eq '^zc-receive +yes'; then
	out="$tmp/rx.json"
	"$NIO_TOP" --batch -s one-copy,zero-copy,sendfile -m 64K -d 0.5 -w 0 \
		--verify --rx zerocopy -o "$out" >"$tmp/rx.txt" 2>&1
	ok $? "--rx zerocopy with one-copy, zero-copy and sendfile exits 0"
	jq_true "$out" '[.runs[] | .rx == "zerocopy" and .error == null and .bytes_received == .bytes_sent and .integrity.corrupt == 0] | all'
	ok $? "--rx zerocopy: every byte, 0 corrupt"
	jq_true "$out" '[.runs[] | .rx_zerocopy.mapped_bytes + .rx_zerocopy.copied_bytes == .bytes_received] | all'
	ok $? "--rx zerocopy: mapped + copied == received in every run"
	# Only pages the kernel copied at delivery are its own to map: those
	# of zero-copy senders over veth (see nio-top(1)).
	# A message cut between two mappings is read in its pieces, so most of
	# a zero-copy sender's bytes are read in place (the kernel leaves a
	# part page at each segment's end).
	jq_true "$out" '[.runs[] | select(.strategy == "zero-copy") | .rx_zerocopy.mapped_bytes > .bytes_received / 2] | all'
	ok $? "--rx zerocopy: most of a zero-copy sender's bytes read in mapped pages ($(jq -c '[.runs[] | .rx_zerocopy.mapped_bytes]' "$out") of $(jq -c '[.runs[] | .bytes_received]' "$out") bytes)"
	grep -q 'rx zerocopy: 0% of the bytes read in mapped pages, 100% copied: the kernel maps only whole pages that are its own alone.*compound page fragments' "$tmp/rx.txt"
	ok $? "--rx zerocopy: a copying sender's 0% says why"
	jq_true "$out" '.config.topology.mtu == 1500 and all(.runs[]; .topology.mtu == 1500)'
	ok $? "--rx zerocopy changes the receive side only: the veth keeps its default MTU"
	# A sender with four slots never has the receiver's first low-water
	# mark unread: the mark comes down, and no fetch waits on it (6 msg/s
	# against 11,605 with a copying receiver, before).  Two runs minutes
	# apart on a loaded machine differ by more than 2x (0.87 to 3.69
	# beside six busy loops): within 10x still tells a fetch that waits.
	for rx in copy zerocopy; do
		"$NIO_TOP" --batch -s sendfile,splice -m 100,64K --slots 4 \
			--rx $rx -d 0.5 -w 0.2 --min-measured 0 \
			-o "$tmp/slots-$rx.json" >/dev/null 2>&1
	done
	ratios=$(jq -cn --slurpfile c "$tmp/slots-copy.json" \
		--slurpfile z "$tmp/slots-zerocopy.json" \
		'[range(0; 4) | $z[0].runs[.].msgs_per_s / $c[0].runs[.].msgs_per_s * 100 | round / 100]')
	jq -e 'length == 4 and all(. > 0.1)' <<<"$ratios" >/dev/null
	ok $? "--rx zerocopy behind four slots: within 10x of --rx copy in msg/s (sendfile, splice x 100, 64K: $ratios)"
	# One export of runs with both receive sides: its CSV tells them apart.
	jq '.runs += $rx' --argjson rx "$(jq .runs "$out")" "$tmp/grid.json" \
		>"$tmp/both-rx.json"
	"$NIO_TOP" --batch --load "$tmp/both-rx.json" --csv "$tmp/both-rx.csv" \
		>/dev/null 2>&1
	python3 - "$tmp/both-rx.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
copy = [r for r in rows if r["rx"] == "copy"]
zc = [r for r in rows if r["rx"] == "zerocopy"]
assert len(copy) == 8 and len(zc) == 3, (len(copy), len(zc))
assert all(r["rx_zerocopy_mapped_bytes"] == r["rx_zerocopy_copied_bytes"] == "" for r in copy)
assert all(int(r["rx_zerocopy_mapped_bytes"]) + int(r["rx_zerocopy_copied_bytes"]) ==
           int(r["bytes_received"]) for r in zc)
assert all(r["fields"] == "8" and r["unsafe_reuse"] == "false" for r in rows)
PY
	ok $? "the CSV of both receive sides: rx, rx_zerocopy_mapped_bytes and rx_zerocopy_copied_bytes tell them apart"
else
	for _ in 1 2 3 4 5 6 7 8; do ok 0 "# SKIP TCP_ZEROCOPY_RECEIVE is unavailable here"; done
fi

# splice with one slot: its only message in flight is never corked (4
# msg/s before, SPLICE_F_MORE on the message's last piece): over 50 msg/s
# on any machine, thousands on a quiet one.
"$NIO_TOP" --batch -s splice -m 64K --slots 1 -d 0.5 -w 0.2 --min-measured 0 \
	-o "$tmp/one-slot.json" >/dev/null 2>&1
jq_true "$tmp/one-slot.json" '.runs[0].msgs_per_s > 50 and .runs[0].error == null'
ok $? "splice with one slot streams ($(jq '.runs[0].msgs_per_s | round' "$tmp/one-slot.json") msg/s)"

"$NIO_TOP" --batch -s sendfile --topology remote --connect 127.0.0.1:1 \
	-d 0.5 >/dev/null 2>"$tmp/remote.err"
[ $? != 0 ]
ok $? "sendfile over two hosts is refused"

done_testing
