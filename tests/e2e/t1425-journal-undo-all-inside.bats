#!/usr/bin/env bats
# undo --all without --session guesses the session that last changed a file
# here. Run inside a session (an agent's shell), a guess landing on another
# session still running (a second agent in the same tree) would take that
# session's work away under it: undo asks for --session instead.

load helper
load cli_helper

setup() {
	common_setup
	cli_setup
	X_PID=
}

teardown() {
	touch "$W/go"
	[ -z "$X_PID" ] || wait "$X_PID" 2>/dev/null || true
	common_teardown
}

@test "t1425.01 undo --all inside a session leaves another session still running alone, and asks for --session" {
	mkfile a.txt original-a
	mkfile b.txt original-b
	# The other session: changes b.txt after this one changed a.txt, then
	# runs on.
	rgsh 'until [ -e y-changed ]; do sleep 0.05; done
		cat b.txt >/dev/null; echo B >b.txt; touch x-changed
		until [ -e go ]; do sleep 0.05; done' &
	X_PID=$!
	run --separate-stderr rgsh "cat a.txt >/dev/null; echo A >a.txt; touch y-changed
		until [ -e x-changed ]; do sleep 0.05; done
		'$RG' undo --all"
	assert_failure 1
	[[ $stderr == *"still running, not this one"*"--session"* ]] || fail "$stderr"
	assert_equal "$(cat b.txt)" B
	assert_equal "$(cat a.txt)" A
}
