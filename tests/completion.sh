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
got=$(NIO_TOP_PRESETS="$NIO_TOP_SOURCE/presets" complete_words -p la |
	sort | paste -sd' ')
[ "$got" = "latency latency-under-load" ]
ok $? "-p completes a preset's name from its folder ($got)"

# Every option --help lists, in each shell's script.
options=$("$NIO_TOP" --help | grep -oE -- '--[a-z][a-z0-9-]+' | sort -u)
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

for shell in bash zsh fish; do
	! "$NIO_TOP" --completion $shell | grep -q '(null)'
	ok $? "the $shell script names no option (null)"
done
[ "$(complete_words --completion '' | paste -sd' ')" = "bash zsh fish" ]
ok $? "--completion completes to the shells"

# In a build tree, -p offers the shipped presets (and no option).
shipped=$(cd "$NIO_TOP_SOURCE/presets" && ls *.json | sed 's/\.json$//' |
	grep -vx schema | sort | paste -sd' ')
mkdir -p "$tmp/empty"
got=$(cd "$tmp/empty" && HOME=$tmp/nohome complete_words -p '' | sort |
	paste -sd' ')
[ -n "$shipped" ] && [ "$got" = "$shipped" ]
ok $? "-p offers the shipped presets from a build tree ($got)"

# Preset and theme names are file names anyone may have chosen: a name that
# is a command, backticks, spaces, a quote, a newline.  Completing them runs
# nothing, and offers each name whole, as one word.
evil=$tmp/evil
mkdir -p "$evil/presets" "$evil/themes" "$evil/cwd"
evil_presets=('$(touch${IFS}PWNED1)' '`touch PWNED2`' 'two words' "it's"
	$'line\nbreak')
evil_themes=('$(touch${IFS}PWNED3)' '`touch PWNED4`' 'sp ace')
for n in "${evil_presets[@]}"; do : >"$evil/presets/$n.json"; done
for n in "${evil_themes[@]}"; do : >"$evil/themes/$n.theme"; done
evil_env=(HOME="$evil/nohome" NIO_TOP_PRESETS="$evil/presets"
	NIO_TOP_THEMES="$evil/themes")
nothing_run() {
	[ -z "$(find "$evil" "$tmp" -maxdepth 2 -name 'PWNED*')" ]
}

# The names bash offers after "$@", NUL-separated, sorted.
bash_offers() {
	(cd "$evil/cwd" && env "${evil_env[@]}" bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_nio_top
		printf "%s\0" "${COMPREPLY[@]}"' complete "$script" nio-top "$@") |
		sort -z
}
want_presets=$(printf '%s\0' "${evil_presets[@]}" $(cd "$NIO_TOP_SOURCE/presets" &&
	ls *.json | sed 's/\.json$//' | grep -vx schema) | sort -z | od -c)
want_themes=$(printf '%s\0' "${evil_themes[@]}" | sort -z | od -c)
[ "$(bash_offers -p '' | od -c)" = "$want_presets" ] && nothing_run
ok $? "bash: hostile preset names offered whole, nothing run"
[ "$(bash_offers --theme '' | od -c)" = "$want_themes" ] && nothing_run
ok $? "bash: hostile theme names offered whole, nothing run"
[ "$(bash_offers -p 'two' | tr '\0' '\n')" = "two words" ]
ok $? "bash: a name with a space completes from its start"

if command -v fish >/dev/null; then
	"$NIO_TOP" --completion fish >"$tmp/nio-top.fish"
	# fish escapes what it inserts: compare with its own escaping.
	fish_offers() {
		(cd "$evil/cwd" && env "${evil_env[@]}" fish -c '
			source $argv[1]
			complete --escape -C "nio-top $argv[2] "' \
			"$tmp/nio-top.fish" "$1") | cut -f1 | sort
	}
	fish_escaped() { fish -c 'string escape --no-quoted -- $argv' -- "$@" | sort; }
	got=$(fish_offers -p)
	missing=
	while IFS= read -r n; do
		grep -qxF -- "$n" <<<"$got" || missing="$missing $n"
	done < <(fish_escaped "${evil_presets[@]}" latency pa02)
	[ -z "$missing" ] && nothing_run
	ok $? "fish: hostile preset names offered whole, nothing run${missing:+; missing:$missing}"
	[ "$(fish_offers --theme)" = "$(fish_escaped "${evil_themes[@]}")" ] &&
		nothing_run
	ok $? "fish: hostile theme names offered whole, nothing run"
	[ "$(fish_offers --completion | paste -sd' ')" = "bash fish zsh" ]
	ok $? "fish: --completion completes to the shells"
else
	skip_one "fish completes hostile names" "needs fish"
fi

if command -v zsh >/dev/null && command -v tmux >/dev/null; then
	. "$(dirname "$0")/tmux.sh"
	mkdir -p "$tmp/zfunc"
	"$NIO_TOP" --completion zsh >"$tmp/zfunc/_nio-top"
	T -f /dev/null new-session -d -s ui -x 160 -y 30 \
		"cd $evil/cwd; env HOME=$evil/nohome NIO_TOP_PRESETS=$evil/presets NIO_TOP_THEMES=$evil/themes zsh -f"
	T send-keys -t ui "PS1='ready> '; fpath=($tmp/zfunc \$fpath); autoload -U compinit; compinit -u -D" Enter
	wait_screen '^ready>' 300
	# zsh_lists OPTION: Tab after it, and the list zsh draws.
	zsh_lists() {
		T send-keys -t ui C-u "nio-top $1 " Tab
		wait_screen "${2:-latency}" 300
		screen
	}
	zsh_quoted() { zsh -fc 'for n; print -r -- ${(q)n}' zsh "$@"; }
	got=$(zsh_lists -p)
	missing=
	while IFS= read -r n; do
		grep -qF -- "$n" <<<"$got" || missing="$missing $n"
	done < <(zsh_quoted "${evil_presets[@]}")
	[ -z "$missing" ] && nothing_run
	ok $? "zsh: hostile preset names offered whole, nothing run${missing:+; missing:$missing}" ||
		comment <<<"$got"
	got=$(zsh_lists --theme 'sp')
	missing=
	while IFS= read -r n; do
		grep -qF -- "$n" <<<"$got" || missing="$missing $n"
	done < <(zsh_quoted "${evil_themes[@]}")
	[ -z "$missing" ] && nothing_run
	ok $? "zsh: hostile theme names offered whole, nothing run${missing:+; missing:$missing}" ||
		comment <<<"$got"
	T kill-server
else
	skip_one "zsh completes hostile names" "needs zsh and tmux"
fi

# What meson installs: the build made each script from the same table.
built=$(dirname "$NIO_TOP")
for f in nio-top.bash:bash _nio-top:zsh nio-top.fish:fish; do
	cmp -s "$built/${f%%:*}" <("$NIO_TOP" --completion "${f##*:}")
	ok $? "the build made ${f%%:*}"
done

done_testing
