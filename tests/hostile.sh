#!/bin/bash
# Files from other people: an export or a preset whose text holds terminal
# escapes, raw control characters or impossible figures.  What nio-top prints
# of them is escaped, the SVG stays well-formed XML, raw controls, negative
# figures and figures that do not fit each other are refused naming the key.
. "$(dirname "$0")/lib.sh"
need_cmd jq python3

base=${NIO_TOP_SOURCE:?}/tests/fuzz/corpus/export/stream.json
esc=$'\e'

# A run's error holding an escape sequence (as JSON allows, \u001b): the
# table prints it escaped.
jq '.runs[0].error = "evil\u001b]52;c;aGk=\u0007\u001b[2J"' "$base" >"$tmp/error.json"
out=$("$NIO_TOP" --batch --load "$tmp/error.json" 2>&1)
[[ "$out" == *'error: evil\x1b]52;c;aGk=\x07\x1b[2J'* ]] && [[ "$out" != *"$esc"* ]]
ok $? "a loaded run's error is printed escaped, no ESC reaches the terminal" ||
	printf '# %q\n' "$out"

# The same bytes raw inside a string: not JSON, refused where they are.
jq -c ".runs[0].strategy = \"one@@copy\"" "$base" | sed "s/@@/${esc}[2J/" >"$tmp/raw.json"
grep -q "$esc" "$tmp/raw.json"
ok $? "a raw ESC is planted in the file"
err=$("$NIO_TOP" --batch --load "$tmp/raw.json" 2>&1 >/dev/null)
rc=$?
[ $rc = 1 ] && [[ "$err" == *'runs[0].strategy: a control character (0x1b) inside a string; JSON wants it escaped'* ]] &&
	[[ "$err" != *"$esc"* ]]
ok $? "a raw control character in a string is refused, naming the key (rc $rc)" ||
	printf '# %q\n' "$err"

# Between values JSON allows spaces, tabs and line ends only: any other
# control character is refused where it is (cJSON would skip it as blank,
# and the runs read one at a time would not).
jq -c . "$base" | sed 's/"runs":\[/&\x1f/' >"$tmp/blank.json"
err=$("$NIO_TOP" --batch --load "$tmp/blank.json" 2>&1 >/dev/null)
rc=$?
[ $rc = 1 ] && [[ "$err" == *'blank.json:1:'*': runs[0]: a control character (0x1f) between values, where JSON allows spaces, tabs and line ends only'* ]]
ok $? "a raw control character between values is refused, naming where (rc $rc)" ||
	printf '# %q\n' "$err"

# A value that fails validation is echoed escaped.
jq '.runs[0].strategy = "\u001b]52;c;aGk=\u0007"' "$base" >"$tmp/bad.json"
err=$("$NIO_TOP" --batch --load "$tmp/bad.json" 2>&1 >/dev/null)
[ $? = 1 ] && [[ "$err" == *'\x1b]52;c;aGk=\x07'* ]] && [[ "$err" != *"$esc"* ]]
ok $? "a bad value is named escaped in the error" || printf '# %q\n' "$err"

# Figures that cannot be.
for key in gbps measured_s; do
	jq ".runs[0].$key = -1" "$base" >"$tmp/neg.json"
	err=$("$NIO_TOP" --batch --load "$tmp/neg.json" 2>&1 >/dev/null)
	[ $? = 1 ] && [[ "$err" == *"runs[0].$key: must be a number >= 0"* ]]
	ok $? "a negative $key is refused, naming the key (${err#nio-top: })"
done

# Figures that do not hold together: a rate beyond what the run's totals
# hold, round-trip percentiles out of order or longer than the run.
rr=${NIO_TOP_SOURCE:?}/tests/fuzz/corpus/export/rr.json
refused() { # FILE JQ EXPECTED WHAT
	jq "$2" "$1" >"$tmp/implausible.json"
	err=$("$NIO_TOP" --batch --load "$tmp/implausible.json" 2>&1 >/dev/null)
	[ $? = 1 ] && [[ "$err" == *"$3"* ]]
	ok $? "$4 is refused, naming the key (${err#nio-top: })"
}
refused "$base" '.runs[0].gbps = 1e300' 'runs[0].gbps 1e+300 over' \
	"a Gbit/s beyond the run's bytes"
refused "$base" '.runs[0].msgs_per_s = 1e12' 'runs[0].msgs_per_s 1e+12 over' \
	"more messages than the run counted"
refused "$base" '.runs[0].gbps = 1e-300' 'runs[0].gbps 1e-300 is under a tenth of its totals' \
	"a Gbit/s far below the run's bytes"
refused "$base" '.runs[0].msgs_per_s = 1e-3' 'runs[0].msgs_per_s 0.001 is under a tenth of its totals' \
	"messages per second far below the run's count"
jq '.runs[0].gbps = 0 | .runs[0].msgs_per_s = 0 | .runs[0].error = "no message arrived in the measured window (1 s)"' \
	"$base" >"$tmp/failed.json"
"$NIO_TOP" --batch --load "$tmp/failed.json" >/dev/null 2>"$tmp/err"
[ $? = 1 ] && ! grep -q 'under a tenth' "$tmp/err"
ok $? "a failed run that delivered nothing in its window loads (exit 1 for the failure)" ||
	diag "$tmp/err"
refused "$rr" '.runs[0].latency_us.p90 = 1' 'runs[0].latency_us.p90: 1 below p50' \
	"a p90 below the p50"
refused "$rr" '.runs[0].latency_us.max = 172e6' \
	'runs[0].latency_us.max: a round trip of 172 s in a run of' \
	"a round trip of 172 s in a 0.2 s run"
refused "$rr" '.runs[0].latency_us.mean = 2000 | .runs[0].latency_us.max = 3000' \
	'runs[0].latency_us.mean: 3446 round trips of 2000 us add up to more than' \
	"round trips that add up to more than the run"
"$NIO_TOP" --batch --load "$rr" >/dev/null
ok $? "the same export as it was loads"

# --load OLD NEW where NEW is refused: OLD, read whole by then, is freed
# too (LeakSanitizer in a sanitizer build, else valgrind, saw none left).
"$NIO_TOP" --batch --load "$base" "$tmp/bad.json" >/dev/null 2>"$tmp/leak.err"
rc=$?
if ldd "$NIO_TOP" 2>/dev/null | grep -q libasan; then
	[ $rc = 1 ] && ! grep -q 'LeakSanitizer' "$tmp/leak.err"
	ok $? "--load OLD NEW with NEW refused: exit 1, nothing leaked (ASan)" ||
		diag "$tmp/leak.err"
elif command -v valgrind >/dev/null; then
	valgrind -q --leak-check=full --errors-for-leak-kinds=definite \
		--error-exitcode=99 "$NIO_TOP" --batch --load "$base" \
		"$tmp/bad.json" >/dev/null 2>"$tmp/leak.err"
	rc=$?
	[ $rc = 1 ] && ! grep -q 'definitely lost' "$tmp/leak.err"
	ok $? "--load OLD NEW with NEW refused: exit 1, nothing leaked (valgrind, rc $rc)" ||
		diag "$tmp/leak.err"
else
	skip_one "--load OLD NEW with NEW refused leaks nothing" \
		"needs a sanitizer build or valgrind"
fi

# The host's words in an SVG: control characters do not make it ill-formed;
# a run of 0 Gbit/s on the figures' log scale draws no infinite coordinate.
jq '.host.cpu_model = "cpu\u001b[31m\u0001 <&>\"" | .host.kernel = "6.18\u0007"
	| .runs += [.runs[0] | .run = 2 | .msg_size = 16384 | .gbps = 0
		| .bytes_received = 0 | .messages_received = 0]' \
	"$base" >"$tmp/svg.json"
"$NIO_TOP" --batch --load "$tmp/svg.json" --svg "$tmp/f.svg" >/dev/null 2>"$tmp/svg.err"
ok $? "an export with control characters in its host makes an SVG" || diag "$tmp/svg.err"
python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' \
	"$tmp/f.svg" 2>"$tmp/xml.err"
ok $? "the SVG is well-formed XML" || diag "$tmp/xml.err"
! grep -Eqi '="-?(inf|nan)' "$tmp/f.svg"
ok $? "no coordinate in it is infinite or not a number"
grep -q 'cpu\\x1b\[31m\\x01 &lt;&amp;&gt;&quot;' "$tmp/f.svg"
ok $? "the CPU model is shown, escaped"

# The date and the host name with controls, the CPU model with the two
# characters XML forbids though UTF-8 has them, the host name with bytes
# that are not UTF-8 (a surrogate, an overlong slash) raw in the file.
jq -c '.date = "2026\u0001\u001b[2J" | .host.hostname = "h\u0007@@"
	| .host.cpu_model = "cpu\ufffe\uffff"' "$base" |
	sed 's/@@/\xed\xa0\x80\xc0\xaf\xe0\x80\xaf/' >"$tmp/xml.json"
"$NIO_TOP" --batch --load "$tmp/xml.json" --svg "$tmp/x.svg" >/dev/null 2>"$tmp/x.err" &&
	python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' \
		"$tmp/x.svg" 2>"$tmp/x.xml"
ok $? "controls in the date and host name, U+FFFE, a surrogate: well-formed XML" ||
	{ diag "$tmp/x.err"; diag "$tmp/x.xml"; }
grep -qF '2026\x01\x1b[2J' "$tmp/x.svg" &&
	grep -qF 'host h\x07\xed\xa0\x80\xc0\xaf\xe0\x80\xaf,' "$tmp/x.svg" &&
	grep -qF 'cpu\xef\xbf\xbe\xef\xbf\xbf,' "$tmp/x.svg"
ok $? "the date, the host name and the CPU model are shown, escaped"

done_testing
