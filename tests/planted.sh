#!/bin/bash
# What another user plants where nio-top writes: a link in a sticky folder
# that every user may write (as /tmp) is followed only if it is the user's
# own or the folder owner's, another user's file there is not replaced, a
# name nio-top picks itself (e in the explorer) is a new file made
# exclusively and never in such a folder, and settings.json is never
# written through a link.  The victims, files of the user's own, stay as
# they were, whatever fs.protected_symlinks is set to.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq setpriv tmux
id nobody >/dev/null 2>&1 || skip_all "needs the user nobody"

. "$(dirname "$0")/tmux.sh"

as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}
write() {
	"$NIO_TOP" --batch --load "$tmp/r.json" "$@" >/dev/null
}

"$NIO_TOP" --batch -s one-copy -m 4K -d 0.2 -w 0 -o "$tmp/r.json" \
	>/dev/null 2>&1
ok $? "a run to write out"

# A folder like /tmp inside the test's own: nobody may reach it and plant.
chmod 711 "$tmp"
mkdir -m 1777 "$tmp/s"
mkdir "$tmp/victims"
chmod 711 "$tmp/victims"
for v in file dir/kept mine; do
	mkdir -p "$(dirname "$tmp/victims/$v")"
	echo "the user's own $v" >"$tmp/victims/$v"
	chmod 600 "$tmp/victims/$v"
done
unchanged() {
	[ "$(cat "$tmp/victims/$1")" = "the user's own $1" ] &&
		[ "$(stat -c %a "$tmp/victims/$1")" = 600 ]
}
sysctl_note="fs.protected_symlinks=$(cat /proc/sys/fs/protected_symlinks)"

as_nobody ln -s "$tmp/victims/file" "$tmp/s/r.json"
err=$(write -o "$tmp/s/r.json" 2>&1)
[ $? = 1 ] &&
	[[ "$err" == *"r.json: a symbolic link of nobody's in a folder that every user may write"* ]] &&
	unchanged file && [ -L "$tmp/s/r.json" ]
ok $? "-o onto a link nobody planted in a sticky folder: refused, its target untouched ($sysctl_note)" ||
	echo "# $err"
as_nobody ln -s "$tmp/victims/dir" "$tmp/s/d"
err=$(write --csv "$tmp/s/d/r.csv" 2>&1)
[ $? = 1 ] && [[ "$err" == *"a symbolic link of nobody's"* ]] &&
	[ ! -e "$tmp/victims/dir/r.csv" ] && unchanged dir/kept
ok $? "--csv through a folder link nobody planted: refused, nothing made there" ||
	echo "# $err"
as_nobody sh -c "echo planted >'$tmp/s/theirs.json'"
err=$(write -o "$tmp/s/theirs.json" 2>&1)
[ $? = 1 ] && [[ "$err" == *"theirs.json: a file of nobody's in a folder that every user may write"* ]] &&
	[ "$(cat "$tmp/s/theirs.json")" = planted ]
ok $? "-o onto another user's file in a sticky folder: refused, left as it was" ||
	echo "# $err"
ln -s "$tmp/victims/mine" "$tmp/s/mine.json"
write -o "$tmp/s/mine.json" 2>/dev/null && [ -L "$tmp/s/mine.json" ] &&
	jq_true "$tmp/victims/mine" '.format == "nio-top-run"'
ok $? "the user's own link in that folder is followed: its target is the export"
mkdir "$tmp/theirs"
chown nobody "$tmp/theirs"
echo old >"$tmp/theirs/target.json"
as_nobody ln -s target.json "$tmp/theirs/link.json"
write -o "$tmp/theirs/link.json" 2>/dev/null &&
	jq_true "$tmp/theirs/target.json" '.format == "nio-top-run"'
ok $? "a link of the folder owner's, in a folder only they write, is followed"

# e in the explorer, over loaded runs: names planted for the next minute
# (a loaded machine may take many seconds to start the explorer and take
# the key) in the current folder are never followed; the export gets a new
# name.
for s in $(seq 0 60); do
	stamp=$(date -d "+$s seconds" +%Y%m%d-%H%M%S)
	ln -sf "$tmp/victims/file" "$tmp/nio-top-$stamp.json"
done
start "${utf8[@]}" -- --load "$tmp/r.json"
wait_screen 'loaded export, 1 run' 30
ok $? "the explorer opens the export"
T send-keys -t ui e
wait_screen "wrote 1 run to nio-top-[0-9]{8}-[0-9]{6}-2\.json" 30
ok $? "e: the name by the time is taken, the export is -2 beside it"
written=$(ls "$tmp"/nio-top-*-2.json 2>/dev/null | head -1)
unchanged file && [ -n "$written" ] && [ ! -L "$written" ] &&
	jq_true "$written" '.runs | length == 1'
ok $? "the planted links' target is untouched; the new file holds the run"
T send-keys -t ui q
wait_exit
T kill-server

# e with the current folder one that every user may write: the export goes
# to the user's data folder, and the status line says why.
T -f /dev/null new-session -d -s ui -x 120 -y 40 \
	"cd $tmp/s; env ${utf8[*]} XDG_CONFIG_HOME=$tmp/cfg XDG_DATA_HOME=$tmp/data $NIO_TOP --load $tmp/r.json; sleep 600"
wait_screen 'loaded export, 1 run' 30
T send-keys -t ui e
wait_screen "the current folder is writable by every user: wrote 1 run" 30
ok $? "e in a folder every user writes: the status line says where it went instead"
ls "$tmp"/data/nio-top/nio-top-*.json >/dev/null 2>&1 &&
	[ -z "$(find "$tmp/s" -name 'nio-top-*')" ] &&
	[ "$(stat -c %a "$tmp/data/nio-top")" = 700 ]
ok $? "the export is in \$XDG_DATA_HOME/nio-top (made private), none in the shared folder"
T kill-server

# settings.json as a link: refused when read, and not followed when the
# explorer saves its settings at the end.
mkdir -p "$tmp/cfg2/nio-top"
ln -s "$tmp/victims/file" "$tmp/cfg2/nio-top/settings.json"
config=$tmp/cfg2 start "${utf8[@]}" -- --load "$tmp/r.json"
wait_screen 'loaded export, 1 run' 30
T send-keys -t ui F2
sleep 0.3
T send-keys -t ui q
wait_exit
unchanged file && [ -L "$tmp/cfg2/nio-top/settings.json" ]
ok $? "settings.json as a link: its target is not written on quit"
T kill-server

done_testing
