#!/bin/bash
# Every theme in themes/ draws the screen in its own colours: a capture of the
# main screen per theme (tmux, 256 colours) has a set of colour sequences no
# other theme has, and the monochrome theme uses greys only.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd tmux

themes="$(dirname "$(realpath "$0")")/../themes"
sock="$tmp/tmux.sock"
trap 'tmux -S "$sock" kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
T() { tmux -S "$sock" "$@"; }
# drawn: the main screen is up, its gauges and its controls.
drawn() {
	T capture-pane -p -t ui >"$tmp/plain" &&
		grep -q 'Throughput .*Gbit/s' "$tmp/plain" && grep -q 'Controls' "$tmp/plain"
}
gone() { ! pgrep -P "$shell" -x nio-top >/dev/null; }
# The server is gone before the next theme's starts: a new session must not
# reach one still exiting.
server_gone() { ! T ls >/dev/null 2>&1; }

names=$(cd "$themes" && ls *.theme | sed 's/\.theme$//')
[ "$(wc -w <<<"$names")" -ge 4 ]
ok $? "at least four themes: $(echo $names)"

for name in $names; do
	T -f /dev/null new-session -d -s ui -x 120 -y 40 \
		"env TERM=xterm-256color LANG=C.UTF-8 NIO_TOP_THEMES=$themes $NIO_TOP --theme $name; sleep 600"
	wait_until drawn
	# The colours in use: 256-colour foreground and background sequences.
	T capture-pane -e -p -t ui >"$tmp/$name.screen"
	grep -oE $'\e\\[[34]8;5;[0-9]+m' "$tmp/$name.screen" | sort -u >"$tmp/$name.colours"
	# Quit and wait, so that no nio-top outlives the test.
	shell=$(T display -p -t ui '#{pane_pid}')
	T send-keys -t ui q
	wait_until gone
	T kill-server
	wait_until server_gone
	[ "$(wc -l <"$tmp/$name.colours")" -ge 4 ]
	ok $? "$name: the screen uses $(wc -l <"$tmp/$name.colours") colours"
	grep -q 'Controls' "$tmp/$name.screen"
	ok $? "$name: the main screen was drawn"
done

for a in $names; do
	for b in $names; do
		[[ "$a" < "$b" ]] || continue
		! cmp -s "$tmp/$a.colours" "$tmp/$b.colours"
		ok $? "$a and $b draw with different colour pairs"
	done
done

# A remembered theme that is not a theme's name ("../..", as a settings
# file someone else wrote may hold): the explorer starts in the default
# theme and says why, on its status line and on stderr once it ends.
mkdir -p "$tmp/config/nio-top"
echo '{"format": "nio-top-settings", "version": 1, "theme": "../.."}' \
	>"$tmp/config/nio-top/settings.json"
T -f /dev/null new-session -d -s ui -x 120 -y 40 \
	"env TERM=xterm-256color LANG=C.UTF-8 NIO_TOP_THEMES=$themes XDG_CONFIG_HOME=$tmp/config $NIO_TOP -d 1; echo \$? >$tmp/exit; sleep 600"
said="settings: theme '\.\./\.\.': not a theme's name .*; the default theme instead"
for _ in $(seq 300); do
	T capture-pane -p -t ui | grep -q 'Throughput .*Gbit/s' && break
	sleep 0.1
done
T capture-pane -p -t ui | grep -Eq "^ ?$said"
ok $? "a settings theme of ../.. is said on the status line" ||
	T capture-pane -p -t ui | tail -3 | comment
T send-keys -t ui q
for _ in $(seq 300); do
	[ -s "$tmp/exit" ] && break
	T send-keys -t ui q
	sleep 0.1
done
T capture-pane -p -t ui | grep -Eq "^nio-top: $said"
ok $? "and on stderr once the terminal is back" ||
	T capture-pane -p -t ui | grep -v '^$' | comment
T kill-server

# xterm's greys: the cube's diagonal and the grey ramp.
grey='^(16|59|102|145|188|231|23[2-9]|24[0-9]|25[0-5])$'
! sed 's/.*;5;\([0-9]*\)m/\1/' "$tmp/monochrome.colours" | grep -qvE "$grey"
ok $? "monochrome draws with greys only"

done_testing
