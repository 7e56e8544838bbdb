#!/bin/bash
# The command line as a user meets it: bad values exit 2 naming the option and
# the value, --help lists every option, and without a terminal plain nio-top
# runs headless.
. "$(dirname "$0")/lib.sh"

# bad OPTION VALUE EXPECTED-TEXT
bad() {
	local out rc
	out=$("$NIO_TOP" --batch "$1" "$2" 2>&1 >/dev/null)
	rc=$?
	[ $rc = 2 ] && [[ "$out" == *"$3"* ]]
	ok $? "$1 $2 exits 2 (got $rc) and names it: ${out%%$'\n'*}"
}

bad -m 12Q "'12Q'"
bad --refresh 5 "--refresh: '5'"
bad --theme ../etc/passwd "--theme: '../etc/passwd'"
bad -m 32 "--msg-size: '32'"
bad -m 8M "--msg-size: '8M'"
bad -t 0 "--threads: '0'"
bad -t 1,99 "--threads: '99'"
bad -s nope "--strategy: 'nope'"
bad -s one-copy,bad "--strategy: 'bad'"
bad -d -1 "--duration: '-1'"
bad -d abc "--duration: 'abc'"
bad -w -2 "--warmup: '-2'"
bad --slots 5000 "--slots: '5000'"
bad --uring-depth 0 "--uring-depth: '0'"
bad --uring-depth 257 "--uring-depth: '257'"
bad --events cycles,NOPE "--events: 'NOPE'"
bad --events LLC_MISSES "--events: 'LLC_MISSES'"
bad --topology nowhere "--topology: 'nowhere'"
bad --mtu 67 "--mtu: '67'"
bad --rate 2Q "--rate: '2Q'"
bad --rate 20G "--rate: '20G'"
bad --subnet 10.0.0.0/31 "--subnet: '10.0.0.0/31'"
bad --loss 101 "--loss: '101'"
bad --delay -5 "--delay: '-5'"
bad --keep-netns ../x "--keep-netns: '../x'"
out=$("$NIO_TOP" --batch --rate 1G --delay 5 2>&1)
[ $? = 2 ] && [[ "$out" == *"--rate cannot be combined"* ]]
ok $? "--rate with --delay is refused up front"
bad --no-such-option x "'--no-such-option'"

# Two hosts: options that belong to --serve or --connect, and bad values.
# misuse EXPECTED-TEXT OPTIONS...
misuse() {
	local want=$1 out rc
	shift
	out=$("$NIO_TOP" --batch "$@" 2>&1 >/dev/null)
	rc=$?
	[ $rc = 2 ] && [[ "$out" == *"$want"* ]]
	ok $? "$* exits 2 (got $rc): ${out%%$'\n'*}"
}
misuse "--listen needs --serve" --listen 127.0.0.1
misuse "--port needs --serve" --port 5310
misuse "--port: '0'" --serve --port 0
misuse "--port: '70000'" --serve --port 70000
misuse "exclude each other" --serve --connect 127.0.0.1
misuse "--reverse needs --connect" --reverse
misuse "--auth-file needs --serve or --connect" --auth-file /etc/hostname
misuse "--topology remote needs --connect" --topology remote
misuse "--connect runs over --topology remote (not veth)" \
	--connect 127.0.0.1 --topology veth
misuse "--keep-netns needs a namespace nio-top makes" \
	--connect 127.0.0.1 --keep-netns x
misuse "--mtu needs --topology veth (not remote)" --connect 127.0.0.1 --mtu 1500
# Bad targets are the session's errors (exit 1), named.
out=$("$NIO_TOP" --batch --connect 127.0.0.1:99999 2>&1)
[ $? = 1 ] && [[ "$out" == *"--connect: '99999' is not a port"* ]]
ok $? "--connect HOST:99999 names the port: $out"
out=$("$NIO_TOP" --batch --connect 127.0.0.1 --auth-file "$tmp/none" 2>&1)
[ $? = 1 ] && [[ "$out" == *"--auth-file: $tmp/none: No such file"* ]]
ok $? "--auth-file of a missing file names it: $out"
out=$("$NIO_TOP" --serve --listen 300.1.1.1 2>&1)
[ $? = 1 ] && [[ "$out" == *"--listen: '300.1.1.1' is not an IPv4 address"* ]]
ok $? "--serve --listen 300.1.1.1 names the address: $out"

help=$("$NIO_TOP" --help)
ok $? "--help exits 0"
for opt in batch strategy msg-size threads duration warmup verify output \
	topology subnet mtu rate delay loss keep-netns slots uring-depth \
	uring-fixed events no-counters refresh theme list-strategies \
	check help version serve listen port connect reverse auth-file pin \
	fields unsafe-reuse rx mode min-measured; do
	[[ "$help" == *"--$opt"* ]]
	ok $? "--help lists --$opt"
done

# The manual documents exactly the options --help lists.
man_page="$(dirname "$0")/../man/nio-top.1"
help_opts=$(grep -oE -- '--[a-z][a-z-]+' <<<"$help" | sort -u)
man_opts=$(grep -oE '^\.(It|Op) Fl .*' "$man_page" | grep -oE 'Fl -[a-z][a-z-]+' |
	sed 's/^Fl -/--/' | sort -u)
[ -n "$help_opts" ] && [ "$help_opts" = "$man_opts" ]
ok $? "--help and the man page list the same options"

"$NIO_TOP" --version | grep -Eq '^nio-top [0-9]+\.[0-9]+\.[0-9]+$'
ok $? "--version prints the version"

list=$("$NIO_TOP" --list-strategies)
for s in two-copy one-copy zero-copy uring uring-zc sendfile splice; do
	grep -Eq "^$s +(available|unavailable)" <<<"$list"
	ok $? "--list-strategies lists $s"
done
# The receive sides are --rx's values, apart: none is a strategy -s takes.
grep -Eq '^--rx copy +available' <<<"$list" &&
	grep -Eq '^--rx zerocopy +(available|unavailable)' <<<"$list" &&
	grep -Eq '^--rx trunc +available +recv\(\) with MSG_TRUNC' <<<"$list" &&
	grep -Eq '^--rx uring +(available|unavailable)' <<<"$list" &&
	! grep -q '^rx-' <<<"$list"
ok $? "--list-strategies lists the receive sides apart, as --rx values"

# --rx is a dimension of the grid: it multiplies the plan, and says so.
out=$("$NIO_TOP" --batch --mode stream,rr --rx copy,trunc -s two-copy,one-copy \
	-m 64,128,256,512,1K,2K,4K,8K,16K,32K,64K,128K,256K,512K,1M,2M \
	-t 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16 --repeat 50 2>&1)
rc=$?
[ $rc = 1 ] && [[ "$out" == *"the plan has 102400 runs (2 modes x 2 receive sides x 2 strategies x 16 sizes x 16 flow counts x repeat 50)"* ]]
ok $? "--rx multiplies the plan and the refusal counts it (rc $rc: $out)"

if [ "$(id -u)" = 0 ] && unshare -n true 2>/dev/null; then
	# No --batch, no terminal: the table still comes, headless.
	out=$("$NIO_TOP" -s one-copy -m 4K -d 0.2 -w 0 </dev/null 2>/dev/null)
	grep -Eq '^ +1 one-copy +4K +1 stream ' <<<"$out"
	ok $? "without a terminal nio-top runs headless and prints the table"
fi

done_testing
