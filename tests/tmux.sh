# Shared by the tests that drive the explorer in a real terminal: a private
# tmux server (killed on exit), nio-top started in a 120x40 session (or
# $size) with its exit status and `stty -a` kept when it ends, and waits on
# the screen.
# Source after lib.sh.  $ui_binary is the nio-top to start ($NIO_TOP).

themes="$(dirname "$(realpath "$0")")/../themes"
sock="$tmp/tmux.sock"
trap 'tmux -S "$sock" kill-server 2>/dev/null; rm -rf "$tmp"' EXIT

# T ARGS...: tmux on the private server.  kill-server returns once the
# server is gone, so that the next new-session starts a fresh one instead of
# reaching the one still exiting (whose session would vanish with it).
T() {
	tmux -S "$sock" "$@"
	local rc=$?
	if [ "$1" = kill-server ]; then
		for _ in $(seq 50); do
			tmux -S "$sock" ls >/dev/null 2>&1 || break
			sleep 0.1
		done
		rm -f "$sock"
	fi
	return $rc
}

# The terminal's size for start (COLSxROWS).
size=120x40

# start ENV... -- ARGS...: nio-top in a fresh $size session; when it ends
# the pane keeps its exit status and `stty -a` in $tmp.  Its settings and
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
		"cd $tmp; ulimit -c 0; env NIO_TOP_THEMES=$themes XDG_CONFIG_HOME=$cfg ${envs[*]} ${ui_binary:-$NIO_TOP} ${args[*]};
		 echo \$? >$tmp/exit; stty -a >$tmp/stty; sleep 600"
}

screen() { T capture-pane -p -t ui; }

# wait_screen PATTERN [TENTHS]: the screen shows PATTERN (grep -E) in time.
wait_screen() {
	for _ in $(seq "${2:-50}"); do
		screen | grep -qE -- "$1" && return 0
		sleep 0.1
	done
	return 1
}

wait_gone() {
	for _ in $(seq "${2:-50}"); do
		screen | grep -qE -- "$1" || return 0
		sleep 0.1
	done
	return 1
}

wait_exit() {
	for _ in $(seq 100); do
		[ -s "$tmp/exit" ] && return 0
		sleep 0.1
	done
	return 1
}

# quit_asks PROMPT ASKED GOES_ON: q shows PROMPT (grep -E) on the status
# line (the check named ASKED), and another key takes it away without
# quitting (GOES_ON).
quit_asks() {
	T send-keys -t ui q
	wait_screen "$1" 50
	ok $? "$2"
	T send-keys -t ui a
	wait_gone "$1" 50 && ! [ -s "$tmp/exit" ]
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
