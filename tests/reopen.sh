#!/bin/bash
# Every file nio-top writes is one it reads, in a session after the first:
# the second start restores the explorer's Duration "continuous" from
# settings.json, and what it then exports (F7) and saves (S) opens again
# with --load and replays with -p, in the batch (its default duration, or
# -d) and in the explorer (continuous again); so do the batch's exports,
# and an export written before "continuous" was a word (duration_s 0).
. "$(dirname "$0")/lib.sh"
need_root
need_cmd tmux jq

. "$(dirname "$0")/tmux.sh"
config=$tmp/config
mkdir -p "$config"

# quit: q until the explorer has exited (a second q where it asks first).
quit() {
	T send-keys -t ui q
	wait_until exited_or_shows 'q quits|q again quits' && exited ||
		T send-keys -t ui q
	wait_exit
}

start "${utf8[@]}" -- -s one-copy -m 4K
wait_screen 'Duration ◀ continuous' 300
quit
jq_true "$config/nio-top/settings.json" '.controls.duration_s == 0'
ok $? "the first session keeps its continuous Duration in settings.json"
T kill-server

start "${utf8[@]}" -- -o "$tmp/explorer.json"
wait_screen 'run 1: one-copy 4 KiB x1' 300 &&
	screen | grep -q 'Duration ◀ continuous'
ok $? "the second session restores one-copy 4 KiB and Duration continuous"
T send-keys -t ui Right
wait_screen 'run 2: zero-copy 4 KiB x1' 300
T send-keys -t ui F7
wait_screen "wrote [0-9]+ runs? to $tmp/explorer.json" 300
ok $? "F7 exports the session's runs"
T send-keys -t ui S
wait_screen 'Save the controls as preset: ' 300 && T send-keys -t ui Enter
wait_screen 'saved the controls as preset ' 300
saved=$(ls "$config"/nio-top/presets/*.json 2>/dev/null | head -1)
[ -n "$saved" ]
ok $? "S saves the controls as a preset ($(basename "$saved"))"
quit
T kill-server

jq_true "$tmp/explorer.json" '.preset.duration_s == "continuous"' &&
	jq_true "$saved" '.duration_s == "continuous"'
ok $? "the export and the preset say Duration continuous as a word"

# load_ok FILE: --load opens it (exit 0, its runs in the table).
load_ok() {
	"$NIO_TOP" --load "$1" --batch --min-measured 0 >"$tmp/load.out" \
		2>"$tmp/load.err" &&
		grep -Eq '^ +[0-9]+ (one|zero)-copy +4K ' "$tmp/load.out"
}
load_ok "$tmp/explorer.json"
ok $? "--load opens the explorer's export" || { diag "$tmp/load.err"; diag "$tmp/load.out"; }

# replay FILE OUT OPTIONS...: -p FILE in the batch, written to OUT.
replay() {
	local file=$1 out=$2
	shift 2
	"$NIO_TOP" --batch -p "$file" -w 0 -o "$out" "$@" >/dev/null \
		2>"$tmp/replay.err"
}
replay "$tmp/explorer.json" "$tmp/replayed.json" -d 0.3 &&
	jq_true "$tmp/replayed.json" '[.runs[].duration_s] | all(. == 0.3)'
ok $? "-p replays the explorer's export with -d" || diag "$tmp/replay.err"
replay "$saved" "$tmp/from-preset.json" -d 0.3 &&
	jq_true "$tmp/from-preset.json" '.runs | length > 0'
ok $? "-p replays the preset S saved" || diag "$tmp/replay.err"
replay "$saved" "$tmp/default.json" -s one-copy &&
	jq_true "$tmp/default.json" '[.runs[].duration_s] == [5]'
ok $? "without -d, a continuous file replays with the batch's default 5 s" ||
	diag "$tmp/replay.err"

start "${utf8[@]}" -- -p "$tmp/explorer.json"
wait_screen 'run 1: ' 300 && screen | grep -q 'Duration ◀ continuous'
ok $? "the explorer replays the export continuous, as it was"
quit
T kill-server

# The batch's own files, and an export from before the word (duration_s 0).
"$NIO_TOP" --batch -s one-copy -m 4K -d 0.2 -w 0 -o "$tmp/batch.json" \
	>/dev/null 2>&1 && load_ok "$tmp/batch.json" &&
	replay "$tmp/batch.json" "$tmp/batch-again.json"
ok $? "the batch's export loads and replays"
jq '.preset.duration_s = 0' "$tmp/explorer.json" >"$tmp/old.json"
load_ok "$tmp/old.json" && replay "$tmp/old.json" "$tmp/old-again.json" -d 0.2
ok $? "an export that says duration_s 0 (as before) loads and replays" ||
	diag "$tmp/replay.err"

done_testing
