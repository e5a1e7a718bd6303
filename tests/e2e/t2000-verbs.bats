#!/usr/bin/env bats
# readguard --help and each verb's --help and usage errors.

load helper
load cli_helper

setup() {
	common_setup
	cli_setup
}

VERBS="run env end status reset forget mark check log sessions doctor"

@test "t2000.01 readguard --help names every verb" {
	run --separate-stderr "$RG" --help
	assert_success
	for v in $VERBS; do
		assert_line --regexp "^  $v( |$)"
	done
}

@test "t2000.02 every verb's --help prints its usage on stdout and exits 0" {
	for v in $VERBS; do
		run --separate-stderr "$RG" "$v" --help
		assert_success
		assert_output --partial "Usage: "
		assert_output --partial "$v"
		[ -z "$stderr" ] || fail "$v --help wrote to stderr: $stderr"
	done
}

@test "t2000.03 an unknown option of a session verb exits 2 and points to --help" {
	for v in status reset forget mark check log sessions end doctor; do
		run --separate-stderr "$RG" "$v" --no-such-option
		assert_equal "$status" 2
		[[ $stderr == *"Try 'readguard $v --help'."* ]] || fail "$v: $stderr"
	done
}

@test "t2000.04 forget, mark and check without a file exit 2" {
	cli_setup
	new_session
	for v in forget mark check; do
		run --separate-stderr "$RG" "$v" --session "$S"
		assert_equal "$status" 2
		[[ $stderr == *"no file given"* ]] || fail "$v: $stderr"
	done
}

@test "t2000.05 status, reset and log reject a stray argument with exit 2" {
	cli_setup
	new_session
	for v in status reset log end; do
		run --separate-stderr "$RG" "$v" --session "$S" stray
		assert_equal "$status" 2
		[[ $stderr == *"unexpected argument 'stray'"* ]] || fail "$v: $stderr"
	done
}

@test "t2000.30 readguard with no arguments prints its usage on stderr and exits 2" {
	run --separate-stderr "$RG"
	assert_failure 2
	assert_output ''
	[[ $stderr == "Usage: readguard run "* ]] || fail "$stderr"
}

@test "t2000.31 an unknown command exits 2, naming it" {
	run --separate-stderr "$RG" rnu
	assert_failure 2
	assert_equal "$stderr" "readguard: unknown command 'rnu'
Try 'readguard --help'."
}

@test "t2000.32 an unknown option before the command exits 2, naming it as an option" {
	run --separate-stderr "$RG" --verbose
	assert_failure 2
	assert_equal "$stderr" "readguard: unknown option '--verbose'
Try 'readguard --help'."
}

@test "t2000.33 readguard --help names hook, undo --all, check -q and sessions --json" {
	run --separate-stderr "$RG" --help
	assert_success
	assert_line --regexp '^  hook claude-code EVENT'
	assert_line --regexp '^  undo .*--all'
	assert_line --regexp '^  check \[-q\] FILE'
	assert_line --regexp '^  sessions .*\[--json\]'
}

@test "t2000.34 a verb's unknown option is named after readguard and the verb, as its other errors are" {
	for v in run env status check sessions doctor history undo; do
		run --separate-stderr "$RG" "$v" --no-such-option
		[[ ${stderr_lines[0]} == "readguard: $v: unrecognized option '--no-such-option'" ]] ||
			fail "$v: $stderr"
	done
}

@test "t2000.38 sessions, which lists every session, rejects --session and -s as unknown options, exit 2" {
	run --separate-stderr "$RG" sessions --session x
	assert_failure 2
	assert_equal "${stderr_lines[0]}" "readguard: sessions: unrecognized option '--session'"
	run --separate-stderr "$RG" sessions -s x
	assert_failure 2
	assert_equal "${stderr_lines[0]}" "readguard: sessions: invalid option -- 's'"
}

@test "t2000.35 a verb's option missing its value is named after readguard and the verb" {
	run --separate-stderr "$RG" history --session
	assert_failure 2
	assert_equal "${stderr_lines[0]}" "readguard: history: option '--session' requires an argument"
}

@test "t2000.36 run --session -- CMD is refused as a missing value, and runs nothing" {
	cli_setup
	run --separate-stderr "$RG" run --session -- touch made
	assert_failure 125
	assert_equal "${stderr_lines[0]}" "readguard: run: option '--session' requires an argument, not the '--' that ends the options"
	assert_file_not_exist made
	assert_file_not_exist --
}

@test "t2000.37 a session verb's short option given '--' as its value exits 2, naming it" {
	run --separate-stderr "$RG" history -s -- a
	assert_failure 2
	assert_equal "${stderr_lines[0]}" "readguard: history: option '-s' requires an argument, not the '--' that ends the options"
}

@test "t2000.39 undo with neither a file nor --all exits 2, pointing to both" {
	run --separate-stderr "$RG" undo
	assert_failure 2
	assert_equal "${stderr_lines[0]}" "readguard: undo: no file given: name the files to restore, or give --all for every file the last session changed under this directory"
	assert_equal "${stderr_lines[1]}" "Try 'readguard undo --help'."
}

@test "t2000.40 help VERB prints that verb's --help on stdout and exits 0" {
	run --separate-stderr "$RG" undo --help
	local want=$output
	run --separate-stderr "$RG" help undo
	assert_success
	assert_equal "$output" "$want"
	assert_equal "$stderr" ""
}

@test "t2000.41 help with an unknown command exits 2, naming it, with nothing on stdout" {
	run --separate-stderr "$RG" help frob
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "$(printf "readguard: help: unknown command 'frob'\nTry 'readguard --help'.")"
}

@test "t2000.42 help --help and help help print the summary, as help alone does, and exit 0" {
	run --separate-stderr "$RG" help
	local want=$output
	for arg in --help -h help; do
		run --separate-stderr "$RG" help "$arg"
		assert_success
		assert_equal "$output" "$want"
		assert_equal "$stderr" ""
	done
}
