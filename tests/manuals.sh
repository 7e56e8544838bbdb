#!/bin/bash
# The manual pages as a reader sees them (mandoc -T utf8): no mdoc macro left
# as a word, no sentence said twice in a row, no number in e-notation, and
# no line mandoc's lint warns of.
. "$(dirname "$0")/lib.sh"
need_cmd mandoc col
man=${NIO_TOP_SOURCE:?}/man

for page in "$man"/*.[0-9]; do
	name=$(basename "$page")
	text=$(mandoc -T utf8 "$page" | col -b)
	! grep -nE '(^|[[:space:]])\.?(Qq|Pq|Li|Cm|Fl|No|Ar|Sx|Xr|Op|Dq)[[:space:]]' <<<"$text" |
		grep -vE '^[0-9]+:[[:space:]]+(-|--)' | grep -q .
	ok $? "$name: no macro left as a word"
	! grep -qE '[0-9]e[+-][0-9]' <<<"$text"
	ok $? "$name: no number in e-notation"
	# Sentences as one stream, each on a line: a sentence twice in a row
	# (the first may follow a list's tag on its line).
	dups=$(tr '\n' ' ' <<<"$text" | tr -s ' ' | sed 's/\([.!?]\) /\1\n/g' |
		awk 'length > 8 && length(last) >= length &&
			substr(last, length(last) - length + 1) == $0 { print }
			{ last = $0 }')
	[ -z "$dups" ]
	ok $? "$name: no sentence said twice in a row${dups:+: $dups}"
	mandoc -Tlint -Wwarning "$page" >/dev/null 2>&1
	ok $? "$name: mandoc -Tlint finds nothing"
done
done_testing
