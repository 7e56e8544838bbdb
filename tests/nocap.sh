#!/bin/bash
# Without the privilege to create namespaces nio-top says so in one line and
# measures over the loopback of the namespace it was started in.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq capsh

out="$tmp/r.json"
unshare -n sh -c '
	ip link set lo up &&
	exec capsh --drop=cap_sys_admin,cap_net_admin -- -c \
		"exec \"$0\" --batch -s one-copy -m 4K -d 0.2 -w 0 -o \"$1\"" \
		"$0" "$1"' "$NIO_TOP" "$out" >"$tmp/table" 2>"$tmp/err"
ok $? "the run exits 0 without CAP_SYS_ADMIN and CAP_NET_ADMIN"
notice=$(grep -c 'running over loopback in the current namespace' "$tmp/err")
ok $([ "$notice" = 1 ]; echo $?) "one line says why and what it does instead"
jq_true "$out" '.runs[0].topology.kind == "current" and .runs[0].bytes_received == .runs[0].bytes_sent and .runs[0].messages_sent > 0'
ok $? "the run happened over the current namespace's loopback"
jq_true "$out" '.capabilities.netns.available == false and (.capabilities.netns.reason | length) > 0'
ok $? "the export says namespaces are unavailable, and why"

# Without CAP_PERFMON (and CAP_SYS_ADMIN), perf_event_paranoid 2 allows only
# user-space samples: the profile says so and why, the run goes on.  The
# run is long enough to be sampled on a busy machine (late ticks merge
# intervals, and one in five is sampled).
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
out="$tmp/u.json"
unshare -n sh -c '
	ip link set lo up &&
	exec capsh --drop=cap_sys_admin,cap_net_admin,cap_perfmon -- -c \
		"exec \"$0\" --batch -s one-copy -m 4K -d 2 -w 0 --profile-hz 4000 -o \"$1\"" \
		"$0" "$1"' "$NIO_TOP" "$out" >/dev/null 2>"$tmp/err"
ok $? "without CAP_PERFMON the run goes on" || diag "$tmp/err"
if [ "$paranoid" -ge 2 ]; then
	jq_true "$out" '.runs[0].profile.sender | .user_only == true and (.why | test("user space only.*perf_event_paranoid")) and .samples >= 0'
	ok $? "perf_event_paranoid $paranoid: the profile is labelled user space only, with why and the fix ($(jq -r '.runs[0].profile.sender.why' "$out"))"
	jq_true "$out" '.capabilities.profile.available == false and (.capabilities.profile.reason | test("perf_event_paranoid"))'
	ok $? "and the export's capabilities say what could not be sampled"
	said=$(grep -c '^nio-top: profile: user space only' "$tmp/err")
	ok $([ "$said" = 1 ]; echo $?) "the batch says it once, on standard error"
else
	echo "ok $((tap_count += 1)) # SKIP perf_event_paranoid is $paranoid here: kernel samples are allowed"
	echo "ok $((tap_count += 1)) # SKIP perf_event_paranoid is $paranoid here"
	echo "ok $((tap_count += 1)) # SKIP perf_event_paranoid is $paranoid here"
fi

err=$(unshare -n capsh --drop=cap_sys_admin,cap_net_admin -- -c \
	'exec "$0" --batch -s one-copy -d 0.2 --rate 1G' "$NIO_TOP" 2>&1)
rc=$?
[ $rc = 1 ] && [[ "$err" == *"cannot create a network namespace"* ]]
ok $? "asked to shape a link without the privilege: exit 1 and why (got $rc)"

done_testing
