#!/bin/bash
# Where each side's time goes, watched at every context switch without a
# PMU: one-copy, uring and sendfile at 64K for 3 s, each run's sender and
# receiver have their time, on the CPU and off it adding up to the window
# (and the threads' own CPU clocks agreeing); one-copy's receiver waits for
# data above all else it waits for, its sender for buffer space, uring's
# both in io_uring; the batch's analysis says what limits each pair, the
# SVG draws the time, the CSV and the JSON stream carry it, --load reads it
# back, and --no-waits watches nothing.  The explorer shows the time rows
# at 80x24 and 120x40.  Shares are the machine's: only structure is
# asserted, and where the window's waits are too few to tell it says so.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq tmux
. "$(dirname "$0")/tmux.sh"

cd "$tmp" || exit 1
"$NIO_TOP" --batch -s one-copy,uring,sendfile -m 64K -d 3 -w 0.2 \
	-o t.json --csv t.csv --svg t.svg --json-stream t.jsonl \
	>t.out 2>t.err
ok $? "one-copy, uring and sendfile at 64K for 3 s, watched" || diag t.err
why=$(jq -r '.runs[0].time.sender.why // empty' t.json)
if [ "$(jq '[.runs[].time.sender.switches // 0] | add' t.json)" = 0 ]; then
	skip_all "no context switch watched here: ${why:-no time}"
fi

jq_true t.json '[.runs[] | .time.sender.window_s > 0 and .time.receiver.window_s > 0] | all'
ok $? "every run: both sides watched ($(jq -c '[.runs[] | [.time.sender.window_s, .time.receiver.window_s]]' t.json) s)"
# No sampled interval is a sliver: none begins at a boundary just before
# the window's end, where a millisecond as the flows stop would stand for
# the whole run's time, profile and sampling's effect (0 messages in it:
# "-100%").  A window of 0.4 s ends just after the boundary where its turn
# to sample comes; one of 0.3 s did when the warm-up's end was counted as
# a measured interval.
for d in 0.3 0.4; do
	"$NIO_TOP" --batch -s one-copy -m 4K -d $d -w 0.1 --repeat 4 \
		--min-measured 0 -o short$d.json >/dev/null 2>short.err
	ok $? "four $d s runs" || diag short.err
	jq_true short$d.json '([.runs[].time[] | .window_s == 0 or .window_s >= 0.02] | all) and (.runs | length == 4)'
	ok $? "none sampled a sliver of its window: $(jq -c '[.runs[].time.sender.window_s]' short$d.json) s"
done

# The records tile each thread's window: on and off the CPU add up to it,
# but for records a full ring lost.
jq_true t.json '[.runs[].time[] | ((.on_cpu_s + .off_cpu_s) / .window_s - 1 | fabs) < 0.03] | all'
ok $? "every side's time on and off the CPU adds up to its window within 3% ($(jq -c '[.runs[].time[] | (.on_cpu_s + .off_cpu_s) / .window_s * 1000 | round / 1000]' t.json); lost $(jq -c '[.runs[].time[].lost]' t.json))"
jq_true t.json '[.runs[].time[] | (([.reasons[].seconds] | add) - .off_cpu_s | fabs) < 1e-6] | all'
ok $? "and its reasons add up to its time off the CPU"
# The threads' own CPU clocks, read apart from any event, agree with the
# records' time on the CPU, within what the kernel's two clocks may differ
# by on a VM: the CPU clock leaves out what the hypervisor took while the
# thread was switched in (steal: the run's share over the machine's CPUs,
# twice it where it fell on one of two), and charges a thread from the
# moment the scheduler picks it, before its switch-in record (10-20 us a
# switch on these VMs; 50 allowed).  A side's on and off swapped, or an
# interval dropped, is far beyond this.
clock_agrees='[.runs[] | .host_load.steal_pct as $steal | .time[] |
	(.cpu_clock_s - .on_cpu_s | fabs) <
		.window_s * (0.05 + 2 * $steal / 100) + .switches * 50e-6] | all'
jq_true t.json "$clock_agrees"
ok $? "the threads' CPU clocks agree with their time on the CPU (clock/on $(jq -c '[.runs[].time[] | .cpu_clock_s / .on_cpu_s * 1000 | round / 1000]' t.json); steal $(jq -c '[.runs[].host_load.steal_pct | . * 10 | round / 10]' t.json)%; switches $(jq -c '[.runs[].time[].switches]' t.json))"

# largest_wait STRATEGY SIDE: the reason the side waits for most, the CPU
# being taken from it (preempted) and what names none (other) aside: on a
# busy machine a thread may wait for a CPU more than for its peer.
largest_wait() {
	jq -r --arg s "$1" --arg side "$2" '.runs[] | select(.strategy == $s) |
		.time[$side].reasons | to_entries |
		map(select(.key != "preempted" and .key != "other")) |
		max_by(.value.seconds) | "\(.key) \(.value.count)"' t.json
}
# waits_for STRATEGY SIDE REASON...: the side's largest wait is one of the
# reasons; with fewer than 20 waits in its window it cannot tell.
waits_for() {
	local strategy=$1 side=$2 got count want
	shift 2
	want="$*"
	read -r got count <<<"$(largest_wait "$strategy" "$side")"
	if [ "${count:-0}" -lt 20 ]; then
		skip_one "$strategy's $side waits for ${want// / or }" \
			"${count:-0} waits of its largest reason: too few to tell"
		return
	fi
	[[ " $want " == *" $got "* ]]
	ok $? "$strategy's $side waits for ${want// / or } more than for anything but a CPU ($got, $count waits; $(jq -r --arg s "$strategy" --arg side "$side" '.runs[] | select(.strategy == $s) | .time[$side] | [.reasons | to_entries[] | select(.value.count > 0) | "\(.key) \(.value.seconds / $t.window_s * 100 | round)%"] | join(", ")' --argjson t "$(jq --arg s "$strategy" --arg side "$side" '.runs[] | select(.strategy == $s) | .time[$side]' t.json)" t.json))"
}
waits_for one-copy receiver data
waits_for one-copy sender buffer
waits_for uring receiver uring
waits_for uring sender uring buffer
waits_for sendfile sender buffer completion
jq_true t.json '[.runs[] | select(.strategy == "one-copy") | .time.receiver.reasons.data.function] | .[0] == "sk_wait_data"'
ok $? "one-copy's receiver's wait for data is named by sk_wait_data"

# The batch's analysis says what limits each pair.
grep -q 'where the time goes' t.out &&
	[ "$(grep -cE '^    (one-copy|uring|sendfile) 64K x1: (neither side busy|the (sender|receiver) is busy)' t.out)" = 3 ]
ok $? "the batch says what limits each of the three pairs" || diag t.out
jq_true t.json '(.analysis.waits.points | length) == 3 and ([.analysis.waits.points[].limit] | all(. == "cpu" or . == "wakeups" or . == "shared_cpu" or . == "unclear"))'
ok $? "and so does the export ($(jq -c '[.analysis.waits.points[].limit]' t.json))"

# The SVG's seventh figure stacks each side's time.
grep -q 'id="figure-time"' t.svg && [ "$(grep -c 'class="reason"' t.svg)" -ge 6 ] &&
	grep -q 'waiting for data' t.svg
ok $? "the SVG draws where each side's time goes ($(grep -c 'class="reason"' t.svg) parts)"

# The CSV's columns hold each side's time, the JSON stream's runs too.
python3 - t.csv t.json <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
runs = json.load(open(sys.argv[2]))["runs"]
for r, j in zip(rows, runs):
    t = j["time"]["receiver"]
    assert abs(float(r["receiver_window_s"]) - t["window_s"]) < 1e-5, r["receiver_window_s"]
    assert abs(float(r["receiver_wait_data_s"]) - t["reasons"]["data"]["seconds"]) < 1e-5
    assert int(r["sender_switches"]) == j["time"]["sender"]["switches"]
PY
ok $? "the CSV holds each side's window, switches and waits"
[ "$(jq -c 'select(.event == "run") | .data.time.receiver.window_s' t.jsonl | wc -l)" = 3 ] &&
	[ "$(jq -c 'select(.event == "run") | .data.time.receiver.reasons.data.seconds' t.jsonl | paste -sd,)" = \
		"$(jq -c '.runs[].time.receiver.reasons.data.seconds' t.json | paste -sd,)" ]
ok $? "the JSON stream's runs carry their time"
"$NIO_TOP" --batch --load t.json -o again.json >/dev/null 2>&1 &&
	[ "$(jq -cS '[.runs[].time]' t.json)" = "$(jq -cS '[.runs[].time]' again.json)" ]
ok $? "--load reads each side's time back as it was written"

"$NIO_TOP" --batch -s one-copy -m 64K -d 1 -w 0.2 --no-waits -o n.json \
	--csv n.csv >/dev/null 2>&1
jq_true n.json '.runs[0].time == null and .runs[0].no_waits == true and .runs[0].profile.sender.samples > 0'
ok $? "--no-waits: no time watched, the profile still sampled"
[ -z "$(python3 -c 'import csv,sys; print(next(csv.DictReader(open(sys.argv[1])))["sender_window_s"])' n.csv)" ]
ok $? "and the CSV's time cells are empty"

# The explorer: each side's time under where its CPU goes, live and after.
for size in 120x40 80x24; do
	start -- -s one-copy -m 64K -d 3 -w 0.2
	if [ "$size" = 120x40 ]; then
		wait_screen 'Receiver time +CPU [0-9]+%  ' 300
		ok $? "$size: the gauges show where the receiver's time goes, live"
		wait_screen 'Sender time +CPU [0-9]+%'
		ok $? "$size: and the sender's"
	else
		wait_screen 'rx time CPU [0-9]+%' 300
		ok $? "$size: the gauges show where the receiver's time goes, live"
		wait_screen 'tx time CPU [0-9]+%'
		ok $? "$size: and the sender's"
	fi
	wait_screen 'run 1 finished' 300
	# Each time row names its shares or sums the rest: it adds up.
	screen | grep -oE '(Sender|Receiver|tx|rx) time +CPU [^│]*' >"$tmp/rows"
	awk '{ s = 0; for (i = 1; i <= NF; i++) if ($i ~ /%$/) s += $i + 0
		if (s < 95 || s > 105) bad = 1 } END { exit bad || NR != 2 }' "$tmp/rows"
	ok $? "$size: each side's time row adds up to its time ($(paste -sd'|' "$tmp/rows"))"
	T send-keys -t ui 2
	# Narrow, the table shows the column it is sorted by.
	for _ in $(seq 15); do
		shows 'by wait tx' && break
		T send-keys -t ui '>'
		sleep 0.2
	done
	wait_screen 'wait tx' 300 &&
		wait_screen '(data|sndbuf|uring|preempt|other) [0-9.]+%' 300
	ok $? "$size: the runs table has each side's largest wait"
	T send-keys -t ui x
	wait_screen 'the sender is on the CPU [0-9]+% of its time' 300
	ok $? "$size: the data path says where the sender waits"
	T send-keys -t ui Escape q
	wait_exit
	T kill-server
done

done_testing
