#!/bin/bash
# What -o, --csv and --svg do to what a path already is, in a private mount
# namespace with its own /dev: a device node stays a device node, a FIFO is
# written through, a symbolic link stays a link (its target is replaced), an
# existing file keeps its owner and mode, and what cannot be written is
# refused with the reason and left alone.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq unshare mknod stat
unshare -m true 2>/dev/null || skip_all "cannot make a mount namespace"

# One real run to write out again: every case below re-writes it (--load),
# so each takes milliseconds.
"$NIO_TOP" --batch -s one-copy -m 4K -d 0.2 -w 0 -o "$tmp/r.json" \
	>/dev/null 2>&1
ok $? "a run to write out"
export tmp NIO_TOP
# inside SCRIPT: runs SCRIPT with a tmpfs /dev of its own.
inside() {
	unshare -m --propagation private bash -c '
		set -u
		mount -t tmpfs nio-top-dev /dev || exit 99
		mknod -m 666 /dev/null c 1 3 && mknod -m 666 /dev/full c 1 7 &&
			mknod -m 660 /dev/blk b 7 0 || exit 99
		'"$1"
}
write() {
	"$NIO_TOP" --batch --load "$tmp/r.json" "$@" >/dev/null
}
export -f write

inside 'write -o /dev/null --csv /dev/null --svg /dev/null 2>/dev/null &&
	[ -c /dev/null ] && [ "$(stat -c %t:%T /dev/null)" = 1:3 ]'
ok $? "-o, --csv and --svg onto /dev/null: written, and it stays a device"
out=$(inside 'write --csv /dev/full 2>&1; echo "rc=$?";
	[ -c /dev/full ] && echo still-a-device')
[[ "$out" == *"/dev/full: cannot write: No space left on device"* &&
	"$out" == *"rc=1"* && "$out" == *still-a-device* ]]
ok $? "--csv onto /dev/full: exit 1 naming the error, and it stays a device"
out=$(inside 'write -o /dev/blk 2>&1; echo "rc=$?"; [ -b /dev/blk ] && echo kept')
[[ "$out" == *"/dev/blk: a block device"* && "$out" == *"rc=1"* &&
	"$out" == *kept* ]]
ok $? "-o onto a block device: refused, and it stays one"
inside 'ln -s /dev/null /dev/stdout-like && write -o /dev/stdout-like 2>/dev/null &&
	[ -L /dev/stdout-like ] && [ -c /dev/null ]'
ok $? "a symbolic link to a device: written through, both stay"

# Links, FIFOs and files in a folder of the test's own.
mkdir "$tmp/out"
echo old >"$tmp/out/target.json"
ln -s target.json "$tmp/out/link.json"
write -o "$tmp/out/link.json" 2>/dev/null &&
	[ -L "$tmp/out/link.json" ] &&
	jq_true "$tmp/out/target.json" '.format == "nio-top-run"'
ok $? "-o onto a symbolic link: the link stays, its target is the export"
ln -s nowhere.json "$tmp/out/dangling.json"
err=$(write -o "$tmp/out/dangling.json" 2>&1)
[ $? = 1 ] && [[ "$err" == *"dangling.json: a symbolic link to nothing"* ]] &&
	[ -L "$tmp/out/dangling.json" ] && [ ! -e "$tmp/out/nowhere.json" ]
ok $? "a link to nothing: refused, and nothing is created"

# Refused at once, or waited on until timeout ends it (30 s: a loaded
# machine may take seconds to load the export).
mkfifo "$tmp/out/fifo"
err=$(timeout 30 bash -c "write --csv '$tmp/out/fifo'" 2>&1)
[ $? = 1 ] && [[ "$err" == *"fifo: a FIFO that no process reads"* ]] &&
	[ -p "$tmp/out/fifo" ]
ok $? "a FIFO nobody reads: refused at once, not waited on"
cat "$tmp/out/fifo" >"$tmp/out/from-fifo" &
reader=$!
timeout 30 bash -c "write --csv '$tmp/out/fifo'" 2>/dev/null
rc=$?
wait "$reader"
[ $rc = 0 ] && [ -p "$tmp/out/fifo" ] &&
	head -1 "$tmp/out/from-fifo" | grep -q '^run,strategy,mode,msg_size'
ok $? "a FIFO with a reader: the CSV goes through it, and it stays a FIFO"

echo old >"$tmp/out/kept.csv"
chown nobody:nogroup "$tmp/out/kept.csv" 2>/dev/null ||
	chown nobody "$tmp/out/kept.csv"
chmod 600 "$tmp/out/kept.csv"
before=$(stat -c %U:%a "$tmp/out/kept.csv")
write --csv "$tmp/out/kept.csv" 2>/dev/null &&
	[ "$(stat -c %U:%a "$tmp/out/kept.csv")" = "$before" ] &&
	head -1 "$tmp/out/kept.csv" | grep -q '^run,strategy,'
ok $? "an existing file is replaced, keeping its owner and mode ($before)"
(umask 027 && write --svg "$tmp/out/new.svg" 2>/dev/null) &&
	[ "$(stat -c %a "$tmp/out/new.svg")" = 640 ]
ok $? "a new file gets 0666 less the umask"
[ -z "$(ls -A "$tmp/out" | grep '^\.')" ]
ok $? "no temporary file is left in the folder"

done_testing
