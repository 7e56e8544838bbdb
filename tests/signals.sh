#!/bin/bash
# Interrupted, or crashed: SIGINT, SIGTERM, SIGHUP, SIGQUIT and a real
# SIGSEGV (nio-top-segv, a test build with a fault that fires on cue), during
# a batch and during the explorer.  The current run ends at once; the runs
# already finished are in the -o export (written after each run, so even the
# crash keeps them); the exit status says which signal; the terminal is sane;
# and nothing -- namespace, name, link, process -- is left behind.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq
. "$(dirname "$0")/tmux.sh"
: "${NIO_TOP_SEGV:?NIO_TOP_SEGV must name the nio-top-segv binary}"

# Under AddressSanitizer the fault must reach nio-top, not ASan's report.
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:handle_segv=0"
ulimit -c 0
before=$(net_snapshot)
sigs="INT TERM HUP QUIT SEGV"

# The finished run (4K) is exported, the cut one is not.
one_finished_run() {
	jq_true "$1" '(.runs | length) == 1 and .runs[0].msg_size == 4096 and
		.runs[0].error == null and
		.runs[0].bytes_sent == .runs[0].bytes_received'
}

# names_gone: the --keep-netns names are gone (waited for: after a crash
# the guard removes them in its own time).
no_names() { [ ! -e /run/netns/niosig-srv ] && [ ! -e /run/netns/niosig-cli ]; }
names_gone() { wait_until no_names; }

for sig in $sigs; do
	out="$tmp/batch-$sig.json"
	rm -f "$tmp/segv-now"
	binary=$NIO_TOP
	[ $sig = SEGV ] && binary=$NIO_TOP_SEGV
	: >"$tmp/err" # emptied first: wait_for_line must not read the last run's lines
	NIO_TOP_TEST_SEGV="$tmp/segv-now" "$binary" --batch -s one-copy \
		-m 4K,16K,64K -d 0.5 -w 0 --keep-netns niosig -o "$out" \
		>"$tmp/table" 2>"$tmp/err" &
	pid=$!
	# Wait for the second run to start, then interrupt it.  A busy shared
	# machine has held a 0.5 s run up for over 10 s: wait up to 30.
	wait_for_line ' 2/3 ETA ' 300 "$tmp/err"
	sleep 0.2
	if [ $sig = SEGV ]; then touch "$tmp/segv-now"; else kill -$sig $pid; fi
	wait $pid
	rc=$?
	want=$((128 + $(kill -l $sig)))
	ok $([ $rc = $want ]; echo $?) "batch SIG$sig: exit status $want (got $rc)"
	one_finished_run "$out"
	rc=$?
	ok $rc "batch SIG$sig: the finished run is exported, the cut one is not"
	# Why not: what nio-top said, and what the export holds.
	if [ $rc != 0 ]; then
		tr '\r' '\n' <"$tmp/err" | comment
		sed 's/^/# table: /' "$tmp/table"
		jq -c '[.runs[] | [.msg_size, .error]]' "$out" 2>&1 |
			sed 's/^/# export: /'
	fi
	if [ $sig != SEGV ]; then
		grep -q "wrote 1 run" "$tmp/err"
		ok $? "batch SIG$sig: stderr says what was written"
	fi
	kill -0 $pid 2>/dev/null
	ok $([ $? != 0 ]; echo $?) "batch SIG$sig: the process is gone"
	names_gone
	ok $? "batch SIG$sig: the --keep-netns names are gone"
done

for sig in $sigs; do
	out="$tmp/tui-$sig.json"
	rm -f "$tmp/segv-now"
	ui_binary=$NIO_TOP
	[ $sig = SEGV ] && ui_binary=$NIO_TOP_SEGV
	start "${utf8[@]}" NIO_TOP_TEST_SEGV="$tmp/segv-now" \
		"ASAN_OPTIONS=$ASAN_OPTIONS" -- -s one-copy -m 4K,16K,64K -d 1 \
		-w 0.2 --keep-netns niosig -o "$out"
	wait_screen ': 2 of 3, run 2' 100
	ok $? "TUI SIG$sig: the sweep reaches its second run"
	case $sig in
	INT) T send-keys -t ui C-c ;;
	QUIT) T send-keys -t ui 'C-\' ;;
	SEGV) touch "$tmp/segv-now" ;;
	*) kill -$sig "$(ui_pid)" ;;
	esac
	wait_exit
	want=$((128 + $(kill -l $sig)))
	[ "$(cat "$tmp/exit" 2>/dev/null)" = $want ]
	ok $? "TUI SIG$sig: exit status $want (got $(cat "$tmp/exit" 2>/dev/null))"
	stty_sane
	ok $? "TUI SIG$sig: the terminal is sane (stty -a)"
	one_finished_run "$out"
	ok $? "TUI SIG$sig: the finished run is exported, the cut one is not"
	names_gone
	ok $? "TUI SIG$sig: the --keep-netns names are gone"
	T kill-server
done

# SIGSTOP from elsewhere, mid-window: the window ends at the tick before the
# stop, the run is marked and left out of the analysis.
"$NIO_TOP" --batch -s one-copy -m 16K -d 3 -w 0.5 -o "$tmp/stopped.json" \
	>"$tmp/stopped" 2>&1 &
batch=$!
wait_for_line 'one-copy 16K x1 stream' 300 "$tmp/stopped"
sleep 1.5
kill -STOP $batch
sleep 2
kill -CONT $batch
wait $batch
ok $? "a batch stopped for 2 s and continued exits 0"
jq_true "$tmp/stopped.json" '.runs[0] | .stopped_s >= 1.5 and .measured_s < 2.5 and (.intervals | all(.length_s < 0.5)) and .error == null'
ok $? "its run: measured $(jq .runs[0].measured_s "$tmp/stopped.json") s, stopped $(jq .runs[0].stopped_s "$tmp/stopped.json") s, no interval spans the stop"
grep -Eq '^ +1 one-copy .* stopped$' "$tmp/stopped" &&
	grep -q '1 stopped run left out' "$tmp/stopped" &&
	jq_true "$tmp/stopped.json" '.analysis.stopped_runs == 1 and .analysis.runs == 0'
ok $? "the table marks it stopped, the analysis leaves it out"

wait_until net_is "$before"
ok $? "no namespace or link left behind"
# Orphans are reaped by init, in its own time: wait for that (zombies aside).
none_left() { [ -z "$(ours nio-top nio-top-segv)" ]; }
wait_until none_left
ok $? "no nio-top or nio-top-segv process of this test left ($(ours nio-top nio-top-segv))"

done_testing
