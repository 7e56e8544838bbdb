#!/bin/bash
# Shell completions made from the option table: bash's completes an option
# from its start and a value from the table's names (strategies, receive
# sides, the last item of a comma list), every option --help lists is in
# each shell's script, and the build made the three files meson installs.
. "$(dirname "$0")/lib.sh"

script="$tmp/nio-top.bash"
"$NIO_TOP" --completion bash >"$script"
ok $? "--completion bash exits 0"
bash -n "$script"
ok $? "the bash script parses"

# complete WORD...: what bash's completion offers for the last word.
complete_words() {
	bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_nio_top
		printf "%s\n" "${COMPREPLY[@]}"' complete "$script" nio-top "$@"
}

[ "$(complete_words --st)" = "--strategy" ]
ok $? "nio-top --st completes to --strategy"
got=$(complete_words -s '' | sort | paste -sd' ')
[ "$got" = "all one-copy sendfile splice two-copy uring uring-zc zero-copy" ]
ok $? "nio-top -s completes to the strategies and all ($got)"
[ "$(complete_words -s one-copy,ze)" = "one-copy,zero-copy" ]
ok $? "a list's last item completes after its comma"
got=$(complete_words --rx '' | sort | paste -sd' ')
[ "$got" = "copy trunc uring zerocopy" ]
ok $? "--rx completes to the receive sides ($got)"
got=$(NIO_TOP_PRESETS="$NIO_TOP_SOURCE/presets" complete_words -p la)
[[ "$got" == *latency* ]]
ok $? "-p completes a preset's name from its folder ($got)"

# Every option --help lists, in each shell's script.
options=$("$NIO_TOP" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u)
for shell in bash zsh fish; do
	out=$("$NIO_TOP" --completion $shell) || {
		ok 1 "--completion $shell"
		continue
	}
	missing=
	for o in $options; do
		case $shell in
		fish) grep -q -- "-l ${o#--}\( \|$\)" <<<"$out" ;;
		*) grep -q -- "$o\b" <<<"$out" ;;
		esac || missing="$missing $o"
	done
	ok $([ -z "$missing" ]; echo $?) "the $shell script completes every option ($(wc -w <<<"$options") of them)${missing:+; missing:$missing}"
done
err=$("$NIO_TOP" --completion tcsh 2>&1)
rc=$?
[ $rc = 2 ] && [[ "$err" == *"--completion: 'tcsh' is not bash, zsh or fish"* ]]
ok $? "--completion tcsh exits 2 naming the shells (rc $rc)"

# What meson installs: the build made each script from the same table.
built=$(dirname "$NIO_TOP")
for f in nio-top.bash:bash _nio-top:zsh nio-top.fish:fish; do
	cmp -s "$built/${f%%:*}" <("$NIO_TOP" --completion "${f##*:}")
	ok $? "the build made ${f%%:*}"
done

done_testing
