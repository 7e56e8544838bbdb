# Shared by the tests that drive the explorer in a real terminal: a private
# tmux server (killed on exit), nio-top started in a 120x40 session (or
# $size) with its exit status and `stty -a` kept when it ends, and waits on
# the screen.
# Source after lib.sh.  $ui_binary is the nio-top to start ($NIO_TOP).

themes="$(dirname "$(realpath "$0")")/../themes"
sock="$tmp/tmux.sock"
trap 'T kill-server 2>/dev/null; rm -rf "$tmp"' EXIT

# T ARGS...: tmux on the private server.  kill-server returns once the
# server is gone, so that the next new-session starts a fresh one instead of
# reaching the one still exiting (whose session would vanish with it), and
# once what its panes ran is gone too: nio-top, hung up, saves its unsaved
# runs in $tmp, which would outlive the test were it removed first.
T() {
	local panes rc
	[ "$1" = kill-server ] && panes=$(pane_processes)
	tmux -S "$sock" "$@"
	rc=$?
	if [ "$1" = kill-server ]; then
		wait_until server_gone
		wait_until processes_gone $panes
		rm -f "$sock"
	fi
	return $rc
}

# The processes the panes run: each pane's shell and its children.
pane_processes() {
	local p
	for p in $(tmux -S "$sock" list-panes -a -F '#{pane_pid}' 2>/dev/null); do
		echo "$p" $(pgrep -P "$p")
	done
}

processes_gone() {
	local p
	for p; do
		! kill -0 "$p" 2>/dev/null || return 1
	done
}

# The terminal's size for start (COLSxROWS).
size=120x40

# start ENV... -- ARGS...: nio-top in a fresh $size session; when it ends
# the pane keeps its exit status and `stty -a` in $tmp, and a sanitizer
# build's reports go to $sanitizer_log.  Its settings and
# saved presets go to $config, or a fresh folder of its own: never the
# user's, and never what an earlier start left.
start() {
	local envs=() args=() cfg=${config:-$(mktemp -d "$tmp/config.XXXXXX")}
	while [ "$1" != -- ]; do
		envs+=("$1")
		shift
	done
	shift
	args=("$@")
	rm -f "$tmp/exit" "$tmp/stty"
	T -f /dev/null new-session -d -s ui -x "${size%x*}" -y "${size#*x}" \
		"cd $tmp; ulimit -c 0; env NIO_TOP_THEMES=$themes XDG_CONFIG_HOME=$cfg ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$sanitizer_log UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}log_path=$sanitizer_log ${envs[*]} ${ui_binary:-$NIO_TOP} ${args[*]};
		 echo \$? >$tmp/exit; stty -a >$tmp/stty; sleep 600"
}

server_gone() { ! tmux -S "$sock" ls >/dev/null 2>&1; }

screen() { T capture-pane -p -t ui; }

# shows PATTERN: the screen shows PATTERN (grep -E) now; lacks: it does not.
shows() { screen | grep -qE -- "$1"; }
lacks() { ! shows "$1"; }

# The waits on the screen (wait_until in lib.sh): TENTHS, where a caller
# names it, is raised to the deadline every wait for a state has.
# wait_screen PATTERN [TENTHS]: the screen shows PATTERN.
wait_screen() {
	wait_until -t "${2:-0}" shows "$1"
}

# wait_gone PATTERN [TENTHS]: the screen no longer shows PATTERN.
wait_gone() {
	wait_until -t "${2:-0}" lacks "$1"
}

exited() { [ -s "$tmp/exit" ]; }

# wait_exit: the explorer has ended (its status is in $tmp/exit).
wait_exit() {
	wait_until exited
}

# never_shows PATTERN TENTHS: the screen does not show PATTERN at any time
# within TENTHS tenths of a second: a check that something does not happen,
# whose window stays short.
never_shows() {
	for _ in $(seq "$2"); do
		shows "$1" && return 1
		sleep 0.1
	done
	return 0
}

# exited_or_shows PATTERN: the explorer has ended, or asks with PATTERN.
exited_or_shows() {
	exited || shows "$1"
}

# quit_asks PROMPT ASKED GOES_ON: q shows PROMPT (grep -E) on the status
# line (the check named ASKED), and another key takes it away without
# quitting (GOES_ON).
quit_asks() {
	T send-keys -t ui q
	wait_screen "$1"
	ok $? "$2"
	T send-keys -t ui a
	wait_gone "$1" && ! exited
	ok $? "$3"
}

stty_sane() {
	[ -s "$tmp/stty" ] && ! grep -qE -- '(^| )-(icanon|echo|icrnl|opost)( |$)' "$tmp/stty"
}

utf8=(TERM=xterm-256color LANG=C.UTF-8)

# The nio-top running in the session.
ui_pid() {
	pgrep -P "$(T display -p -t ui '#{pane_pid}')" -x "$(basename "${ui_binary:-$NIO_TOP}")"
}
