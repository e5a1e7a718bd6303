#!/usr/bin/env bats
# A symbolic link born since the session began (ln -sf's temporary, a
# test's fixture) was not there before it: its removal keeps nothing, so
# undo --all makes no name that never was.

load helper
load cli_helper

setup() {
	common_setup
	cli_setup
}

teardown() {
	common_teardown
}

@test "t1423.01 a symbolic link the session made, then removed, is not kept: undo --all makes no name" {
	mkfile a.txt original
	# Past a tick of the coarse clock a birth time is set by.
	rgsh 'sleep 0.1; ln -s a.txt mine && rm mine'
	run "$RG" history
	refute_output --partial mine
	run "$RG" undo --all
	[ ! -L mine ] || fail "undo made the session's own link again"
}

@test "t1423.02 ln -sf refused over an unread file leaves no temporary link for undo --all to make" {
	mkfile a.txt original
	run rgsh 'sleep 0.1; ln -sf /etc/hostname a.txt'
	assert_failure
	run "$RG" undo --all
	assert_equal "$(find . -type l)" ""
	assert_equal "$(cat a.txt)" original
}
