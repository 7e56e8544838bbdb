#!/bin/bash
# The words of the screens, explained where a newcomer looks (tmux, 80x24):
# the profile rows say what they are ("Sampled share of each side's CPU"),
# and the help (F1) has, below the keys, a glossary of every label the
# screens use: each control, each figure of the metric table, each role of
# the profile rows, each wait of the time rows, each receive side's tag and
# the runs table's words.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd tmux

. "$(dirname "$0")/tmux.sh"
# The keys tmux sends (Home, End) are screen's.
utf8=(TERM=screen-256color LANG=C.UTF-8)
size=80x24

start "${utf8[@]}" -- -s zero-copy -m 64K -d 2 -w 0.2
wait_screen '││ tx (deliv copy|send copy|stack|pin|wakeup|syscall|other|compl)' 300
ok $? "80x24: the profile rows show"
screen | grep -B1 '││ tx ' | head -1 | grep -q "││ Sampled share of each side's CPU: "
ok $? "80x24: the line over them says what they are ($(screen | grep -B1 '││ tx ' | head -1))"

T send-keys -t ui F1
wait_screen 'Keys and words \(Up/Down/PgUp/PgDn/Home/End, Esc closes\)'
ok $? "F1 opens the keys and words"
: >"$tmp/help"
# page: the help's page so far kept; PgDn, unless it was the last.
page() {
	screen >>"$tmp/help"
	screen | grep -qE '▼ [0-9]+ more' || return 0
	T send-keys -t ui NPage
	return 1
}
for _ in $(seq 40); do
	page && break
	sleep 0.3
done
sed -i 's/^  │ //; s/ *│$//' "$tmp/help"
grep -q "^What the screens' words mean:" "$tmp/help"
ok $? "below the keys, what the screens' words mean"
missing=
# Every control, figure, role and tag, as the screens print them.
for word in Strategy Size Threads Mode Duration Rx Busypoll 'GSO IPv4' GRO \
	Throughput Messages CPU 'Ctx switches' 'L1d misses' 'LLC misses' IPC \
	'Cycles/byte' 'CPU per KiB' 'Syscalls/msg' \
	'send copy' 'deliv copy' 'recv copy' 'user copy' pin map compl pipe \
	stack wakeup syscall measure other \
	data sndbuf uring lock preempt 'Sender time, Receiver time' \
	rx-zc rx-uring 'rx-trunc (bound)' secs short stopped bound \
	'copy tx, copy rx' 'wait tx, wait rx' 'x1.23'; do
	grep -qF -- "$word" <(grep -E '^[^ ]' "$tmp/help" | sed 's/:.*//') ||
		missing="$missing, $word"
done
[ -z "$missing" ]
ok $? "the glossary explains every control, figure, role, wait and tag${missing:+ (missing: ${missing#, })}"
grep -q "^CPU per KiB (ns/KiB): CPU time per KiB moved" "$tmp/help" &&
	grep -q "^deliv copy: copy at delivery: " "$tmp/help" &&
	grep -q "^sndbuf: waiting for send-buffer space: " "$tmp/help"
ok $? "each with what it is"
T send-keys -t ui Escape
wait_gone 'Keys and words'
ok $? "Esc closes it"
T send-keys -t ui q q
wait_exit
T kill-server

done_testing
