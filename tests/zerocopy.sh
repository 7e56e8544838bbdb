#!/bin/bash
# MSG_ZEROCOPY under pressure.  With only two message slots per sender, every
# slot is rewritten as soon as its completion arrives: --verify proves none is
# rewritten early.  With optmem_max lowered (in this test's own namespace
# only), sendmsg fails with ENOBUFS: every byte must still arrive once.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq

out="$tmp/slots.json"
"$NIO_TOP" --batch -s zero-copy --slots 2 -m 4K,64K -t 2 -d 0.5 -w 0 \
	--verify -o "$out" >/dev/null 2>&1
ok $? "two slots per sender: the runs exit 0"
jq_true "$out" '[.runs[] | .integrity.checked > 0 and .integrity.checked == .messages_received and .integrity.corrupt == 0] | all'
ok $? "two slots: every message checked, 0 corrupt"
jq_true "$out" '[.runs[] | .bytes_received == .bytes_sent and .zerocopy.completions == .zerocopy.sends] | all'
ok $? "two slots: all bytes delivered, all sends completed"

# The default pool fills a send buffer; every completion matches a send, and
# the copied count is within its bounds (over veth: every range copied).
for fields in 1 8; do
	out="$tmp/pool-$fields.json"
	"$NIO_TOP" --batch -s zero-copy -m 4K,64K --fields $fields -d 0.5 \
		-w 0 --verify -o "$out" >/dev/null 2>&1
	ok $? "the default pool, $fields field(s): the runs exit 0"
	jq_true "$out" '[.runs[] | .error == null and .zerocopy.unmatched == 0 and .zerocopy.completions == .zerocopy.sends and .zerocopy.copied_min <= .zerocopy.copied and .zerocopy.copied <= .zerocopy.copied_max and .zerocopy.copied_max <= .zerocopy.completions] | all'
	ok $? "$fields field(s): no completion unmatched; copied_min <= copied <= copied_max"
	jq_true "$out" "[.runs[] | .fields == $fields] | all"
	ok $? "$fields field(s): each run records its field count"
done

# optmem_max is per namespace from 6.8 on; before that it is global and this
# test must not touch it.
read -r major minor _ <<<"$(uname -r | tr '.-' '  ')"
if [ "$major" -gt 6 ] || { [ "$major" = 6 ] && [ "$minor" -ge 8 ]; }; then
	host_optmem=$(sysctl -n net.core.optmem_max)
	out="$tmp/enobufs.json"
	unshare -n sh -c '
		ip link set lo up &&
		sysctl -qw net.core.optmem_max=1024 &&
		exec "$0" --batch --topology current -s zero-copy -m 64K -t 1 \
			-d 0.5 -w 0 --verify -o "$1"' "$NIO_TOP" "$out" \
		>/dev/null 2>&1
	ok $? "optmem_max 1024: the run exits 0"
	jq_true "$out" '.runs[0].zerocopy.enobufs > 0'
	ok $? "optmem_max 1024: ENOBUFS happened ($(jq .runs[0].zerocopy.enobufs "$out"))"
	jq_true "$out" '.runs[0] | .bytes_received == .bytes_sent and .messages_sent > 0 and .integrity.corrupt == 0'
	ok $? "optmem_max 1024: every byte delivered once, none corrupt"
	jq_true "$out" '.runs[0].zerocopy | .completions == .sends'
	ok $? "optmem_max 1024: every send completed"
	[ "$(sysctl -n net.core.optmem_max)" = "$host_optmem" ]
	ok $? "the host's optmem_max is untouched ($host_optmem)"
else
	echo "# optmem_max is global before 6.8: ENOBUFS part skipped"
fi

done_testing
