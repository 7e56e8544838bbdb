#!/bin/bash
# The default network: two private namespaces joined by a veth pair built
# through libnl.  The wire carries at least what the application claims, the
# link options take effect, shaping holds the rate, and what the kernel lacks
# is said in words.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq

out="$tmp/veth.json"
"$NIO_TOP" --batch -s one-copy -m 16K -t 2 -d 1 -o "$out" >/dev/null 2>&1
ok $? "one-copy 16K x2 over the default topology exits 0"
jq_true "$out" '.runs[0].topology.kind == "veth" and .runs[0].topology.subnet == "198.18.0.0/30"'
ok $? "the default topology is veth on 198.18.0.0/30"
jq_true "$out" '.runs[0] | .link.tx_bytes >= .bytes_sent and .bytes_sent > 0'
ok $? "link.tx_bytes ($(jq .runs[0].link.tx_bytes "$out")) >= bytes_sent ($(jq .runs[0].bytes_sent "$out"))"
jq_true "$out" '.runs[0] | .link.tx_packets > 0 and .link.rx_packets > 0 and .bytes_received == .bytes_sent'
ok $? "packets both ways, every byte delivered"
jq_true "$out" '.runs[0].topology.setup_ms > 0 and .capabilities.veth.available'
ok $? "setup time and the veth capability are exported"

out="$tmp/mtu.json"
"$NIO_TOP" --batch -s zero-copy -m 64K -d 0.3 -w 0 --mtu 9000 \
	--subnet 198.18.7.0/29 --verify -o "$out" >/dev/null 2>&1
ok $? "--mtu 9000 --subnet 198.18.7.0/29 runs"
jq_true "$out" '.runs[0].topology.mtu == 9000 and .runs[0].topology.subnet == "198.18.7.0/29"'
ok $? "the kernel took the MTU and the subnet"
jq_true "$out" '.runs[0] | .integrity.corrupt == 0 and .zerocopy.completions == .zerocopy.sends and .zerocopy.copied == .zerocopy.completions'
ok $? "zero-copy over veth: all completed, all copied, none corrupt"

out="$tmp/rate.json"
"$NIO_TOP" --batch -s one-copy -m 64K -d 1 --rate 1G -o "$out" >/dev/null 2>&1
ok $? "--rate 1G runs"
gbps=$(jq .runs[0].gbps "$out")
jq_true "$out" '.runs[0].gbps <= 1.05 and .runs[0].topology.rate_bps == 1000000000'
ok $? "--rate 1G holds the throughput at or below 1.05 Gbit/s (got $gbps)"
# Near the rate: a loaded machine's sender may not reach it.
jq_true "$out" '.runs[0].gbps > 0.5'
noise_ok $? "$out" "and near it, over 0.5 Gbit/s (got $gbps)"

check=$("$NIO_TOP" --check)
ok $? "--check exits 0"
for line in '^namespaces +yes' '^veth +yes .*setup [0-9.]+ ms, teardown [0-9.]+ ms' \
	'^tbf +yes' '^netem +(yes|no )' '^two-copy +available' '^zero-copy +available'; do
	grep -Eq "$line" <<<"$check"
	ok $? "--check says: $line"
done

if grep -Eq '^netem +no' <<<"$check"; then
	err=$("$NIO_TOP" --batch -s one-copy -d 0.2 --delay 5 2>&1)
	rc=$?
	[ $rc = 1 ] && [[ "$err" == *"no sch_netem"* ]]
	ok $? "--delay without netem: exit 1 saying the kernel lacks it (got $rc)"
	jq_true "$tmp/veth.json" '.capabilities.netem.available == false and (.capabilities.netem.reason | test("sch_netem"))'
	ok $? "the export says netem is missing, and why"
fi

err=$("$NIO_TOP" --batch --topology loopback --rate 1G 2>&1)
[ $? = 2 ] && [[ "$err" == *"--rate needs --topology veth"* ]]
ok $? "shaping a topology without a veth is refused"
err=$("$NIO_TOP" --batch --subnet 198.18.0.1/30 2>&1)
[ $? = 2 ] && [[ "$err" == *"--subnet: '198.18.0.1/30'"* ]]
ok $? "a subnet with host bits set is refused naming it"

done_testing
