#!/bin/bash
# The gauges at 80x24 (tmux): where rows are too few for every gauge, those
# that give way follow what the runs vary -- a sweep of receive sides
# keeps the CPU per KiB, the figure it is for, beside a zero-copy sender's
# and a zero-copy receiver's words -- and the gauges left out are counted
# on a row of their own.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd tmux

. "$(dirname "$0")/tmux.sh"
size=80x24

rx=copy,uring
"$NIO_TOP" --list-strategies | grep -Eq '^--rx zerocopy +available' &&
	rx=copy,zerocopy
start "${utf8[@]}" -- -s zero-copy,one-copy -m 64K --rx "$rx" -d 1.5 -w 0.2
: >"$tmp/seen"
# Every screen of the sweep: the gauges box, and the CPU per KiB in it --
# its figure, its name on a line of n/a, or its sides in words where their
# reasons differ ("CPU per KiB: sender n/a: ...; receiver ...", wrapped).
# Not counted: a run's first window, where nothing moved yet and the
# figures per byte are n/a together (said so, or, on a busy host whose
# threads had not run yet, no message either side and the counters
# "opened but never ran").
look() {
	local s
	s=$(screen)
	if grep -q '─ Gauges, over the last' <<<"$s" &&
		! grep -qE 'nothing moved in the window|Messages +0\.00 msg/s +0\.00 msg/s' <<<"$s"; then
		if grep -qE '││ (CPU per KiB( +(-|n/a|[0-9.]+k? +ns)|: sender )|.*CPU per KiB,)' <<<"$s"; then
			echo kept >>"$tmp/seen"
		else
			echo lost >>"$tmp/seen"
			grep -v '^ *$' <<<"$s" >"$tmp/lost"
		fi
		grep -qE 'more gauges? needs? a taller terminal|a taller terminal shows (it|them)' \
			<<<"$s" && echo tight >>"$tmp/seen"
	fi
	grep -q 'sweep done' <<<"$s"
}
wait_until -t 1200 look
ok $? "the sweep of four runs ends"
! grep -q lost "$tmp/seen" && grep -q kept "$tmp/seen"
ok $? "the CPU per KiB gauge shows on every screen of the sweep ($(sort "$tmp/seen" | uniq -c | paste -sd' '))" ||
	diag "$tmp/lost"
grep -q tight "$tmp/seen"
ok $? "the rows were too few for every gauge, and those left out were counted"
T send-keys -t ui q
wait_exit
T kill-server

done_testing
