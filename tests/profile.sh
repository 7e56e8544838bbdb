#!/bin/bash
# Where each side's CPU goes, sampled without a PMU: every run of one-copy,
# zero-copy and sendfile at 64K has both sides' profiles whose roles add up
# to their samples; one-copy's receiver copies and nothing copies at
# delivery; zero-copy's sender pins pages and the kernel copies them at
# delivery anyway (veth delivers locally); sendfile's sender does not copy
# on send.  The sampled intervals are out of the measured figures, and
# --no-profile samples nothing.
. "$(dirname "$0")/lib.sh"
need_root
need_cmd jq

# 4 kHz: a thread that sleeps half the time still gives hundreds, on a
# quiet machine; a loaded one gives each thread less CPU, and fewer.
"$NIO_TOP" --batch -s one-copy,zero-copy,sendfile -m 64K -d 2 -w 0.2 \
	--profile-hz 4000 -o "$tmp/p.json" >/dev/null 2>"$tmp/p.err"
ok $? "one-copy, zero-copy and sendfile at 64K, sampled" || diag "$tmp/p.err"
why=$(jq -r '.runs[0].profile.sender.why // empty' "$tmp/p.json")
if [ "$(jq '[.runs[].profile.sender.samples // 0] | add' "$tmp/p.json")" = 0 ]; then
	skip_all "no samples here: ${why:-no profile}"
fi

jq_true "$tmp/p.json" '[.runs[] | .profile.sender.samples > 0 and .profile.receiver.samples > 0] | all'
ok $? "every run: both sides sampled ($(jq -c '[.runs[] | [.profile.sender.samples, .profile.receiver.samples]]' "$tmp/p.json") samples)"
jq_true "$tmp/p.json" '[.runs[].profile[] | ([.roles[].samples] | add) == .samples] | all'
ok $? "every side's roles add up to its samples"
jq_true "$tmp/p.json" '[.runs[].profile[] | ([.roles[].share] | add) > 0.999 and ([.roles[].share] | add) < 1.001] | all'
ok $? "and their shares to 100%"

role() { # FILE STRATEGY SIDE ROLE: the role's share, in percent
	jq -r --arg s "$2" --arg side "$3" --arg r "$4" \
		'.runs[] | select(.strategy == $s) | .profile[$side].roles[$r].share * 100 | floor' "$1"
}
# has_role STRATEGY SIDE ROLE DESCRIPTION: the role takes 1% or more of the
# side's samples; with fewer than 100 (a loaded machine gave the threads
# little CPU) a role of a few percent may draw none: that cannot tell.  Nor
# can a run beside other work: a softirq that finds ksoftirqd already
# running leaves its work to it, so a copy at delivery the sender's thread
# does on a quiet machine may run in ksoftirqd, unsampled.
has_role() {
	local share samples busy
	share=$(role "$tmp/p.json" "$1" "$2" "$3")
	samples=$(jq --arg s "$1" --arg side "$2" \
		'.runs[] | select(.strategy == $s) | .profile[$side].samples' "$tmp/p.json")
	if [ "$share" -lt 1 ] && [ "$samples" -lt 100 ]; then
		skip_one "$4" "$samples samples: too few to see a role of a few percent"
	elif [ "$share" -lt 1 ] && busy=$(busy_host "$tmp/p.json"); then
		skip_one "$4" "$busy: its softirqs may have run elsewhere"
	else
		[ "$share" -ge 1 ]
		ok $? "$4 ($share% of $samples samples)"
	fi
}
has_role one-copy receiver copy_receive "one-copy's receiver copies on receive"
share=$(role "$tmp/p.json" one-copy sender copy_deferred)
[ "$share" = 0 ]
ok $? "one-copy's sender has no copy at delivery ($share%)"
has_role zero-copy sender copy_deferred "zero-copy's sender: the kernel copies at delivery"
has_role zero-copy sender pin "zero-copy's sender pins pages"
share=$(role "$tmp/p.json" sendfile sender copy_send)
[ "$share" = 0 ]
ok $? "sendfile's sender does not copy on send ($share%)"
# An interrupt's or a softirq's entry ends the walk: the copy it landed on
# is never charged with it.
irq='^(asm_sysvec_|sysvec_|__sysvec_|asm_common_interrupt|common_interrupt|__common_interrupt|irq_enter|irq_exit|__irq_exit|handle_softirqs|__do_softirq|do_softirq)'
jq_true "$tmp/p.json" "[.runs[] | select(.strategy == \"sendfile\" or .strategy == \"one-copy\") | .profile[].top_symbols[] | select(.role | startswith(\"copy_\")) | .symbol | test(\"$irq\")] | any | not"
ok $? "no interrupt or softirq function in a copy role (sendfile's and one-copy's top functions: $(jq -r --arg irq "$irq" '[.runs[] | .profile[].top_symbols[] | select(.symbol | test($irq)) | .symbol + " " + .role] | unique | join(", ")' "$tmp/p.json"))"
# What watching costs has its own role: with the counters on (the
# default), perf's work at every context switch is sampled there.
jq_true "$tmp/p.json" '[.runs[] | .profile.sender.roles.measure.samples + .profile.receiver.roles.measure.samples > 0] | all'
ok $? "every run: nio-top's measuring has samples of its own ($(jq -c '[.runs[] | [.profile.sender.roles.measure.samples, .profile.receiver.roles.measure.samples]]' "$tmp/p.json"))"
jq_true "$tmp/p.json" '[.runs[].profile.sender.top_symbols[0].symbol | type == "string"] | all'
ok $? "each side names its top functions ($(jq -r '[.runs[] | .strategy + ": " + .profile.sender.top_symbols[0].symbol] | join(", ")' "$tmp/p.json"))"

# One interval in five is sampled and left out: the window still measures
# its 2 s (or more: a loaded machine's loop may end it late, never early),
# with a fifth of that time more sampled beside it, and its intervals are
# the measured ones only, adding up to the window.
jq_true "$tmp/p.json" '[.runs[] | .measured_s > 1.99 and (([.intervals[] | select(.warmup | not) | .length_s] | add) - .measured_s | fabs) < 1e-6 and (.sampling_effect | type == "number")] | all'
ok $? "the sampled intervals are out of the 2 s measured ($(jq -c '[.runs[].measured_s]' "$tmp/p.json") s) and their effect is measured ($(jq -c '[.runs[].sampling_effect]' "$tmp/p.json"))"

"$NIO_TOP" --batch -s one-copy -m 64K -d 1 -w 0.2 --min-measured 0 \
	--no-profile -o "$tmp/n.json" >/dev/null 2>&1
jq_true "$tmp/n.json" '.runs[0].profile == null and .runs[0].profile_hz == 0 and .runs[0].measured_s > 0.95'
ok $? "--no-profile: no profile, and the whole window measured"

done_testing
