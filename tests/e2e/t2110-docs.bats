#!/usr/bin/env bats
# The man page and the bash completion.

load helper

MAN="$TOP/shim/cli/readguard.1"

@test "t2110.01 groff -ww renders the man page without a single warning" {
	command -v groff >/dev/null || skip "groff is not installed (groff-base)"
	run --separate-stderr groff -ww -man -Tutf8 "$MAN"
	assert_success
	[ -z "$stderr" ] || fail "groff warned: $stderr"
}

@test "t2110.02 man -l renders the man page without warnings" {
	command -v man >/dev/null || skip "man is not installed (man-db)"
	run --separate-stderr env MANWIDTH=80 man --warnings -l "$MAN"
	assert_success
	[ -z "$stderr" ] || fail "man warned: $stderr"
	assert_output --partial "READGUARD(1)"
}

@test "t2110.03 the man page covers every verb, every option of --help, and every variable" {
	local text verb opt
	text=$(MANWIDTH=200 man -l "$MAN" 2>/dev/null)
	for verb in run env end status reset forget mark check log sessions doctor; do
		[[ $text == *"readguard $verb"* ]] || fail "no section for $verb"
		for opt in $("$RG" "$verb" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
			[[ $text == *"$opt"* ]] || fail "$verb: $opt is not in the man page"
		done
	done
	for var in READGUARD_SESSION READGUARD_ROOTS READGUARD_MODE READGUARD_LOG \
		READGUARD_CAPACITY READGUARD_DIR XDG_STATE_HOME LD_PRELOAD; do
		[[ $text == *"$var"* ]] || fail "$var is not in the man page"
	done
	for section in "EXIT STATUS" "LOG FORMAT" "EXAMPLES" "ENVIRONMENT"; do
		[[ $text == *"$section"* ]] || fail "no $section section"
	done
}

# complete WORDS...: what the completion offers for the last word.
complete_words() {
	[ -r /usr/share/bash-completion/bash_completion ] ||
		skip "bash-completion is not installed"
	bash -c '
		source /usr/share/bash-completion/bash_completion
		source "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_readguard readguard "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}"' _ "$TOP/scripts/share/readguard.bash-completion" "$@"
}

@test "t2110.04 bash completion offers the verbs" {
	run complete_words readguard s
	assert_success
	assert_line status
	assert_line sessions
	refute_line run
}

@test "t2110.05 bash completion offers a verb's options" {
	run complete_words readguard status --
	assert_line -- --json
	assert_line -- --files
	assert_line -- --session
}

@test "t2110.06 bash completion offers the modes after --mode" {
	run complete_words readguard run --mode ''
	assert_line enforce
	assert_line warn
}
