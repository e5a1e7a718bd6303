#!/usr/bin/env bats
# A symbolic link born since the session began (ln -sf's temporary, a
# test's fixture) was not there before it: undo --all does not make it
# again, yet its removal is kept, so `undo NAME` can, and a link another
# program made meanwhile is never lost.

load helper
load cli_helper

setup() {
	common_setup
	cli_setup
}

teardown() {
	common_teardown
}

@test "t1423.01 a symbolic link the session made, then removed, is not made again by undo --all" {
	mkfile a.txt original
	# Past a tick of the coarse clock a link's mtime is stamped by.
	rgsh 'sleep 0.1; ln -s a.txt mine && rm mine'
	run "$RG" undo --all
	assert_success
	assert_output --partial "1 symbolic link the session made, then removed, not made again"
	[ ! -L mine ] || fail "undo --all made the session's own link again"
}

@test "t1423.02 ln -sf refused over an unread file leaves no temporary link for undo --all to make" {
	mkfile a.txt original
	run rgsh 'sleep 0.1; ln -sf /etc/hostname a.txt'
	assert_failure
	run "$RG" undo --all
	assert_equal "$(find . -type l)" ""
	assert_equal "$(cat a.txt)" original
}

@test "t1423.03 a symbolic link born in the session and removed by it is kept: undo NAME makes it again" {
	mkfile a.txt original
	rgsh 'sleep 0.1; ln -s a.txt theirs; rm theirs'
	run "$RG" history
	assert_output --partial theirs
	run "$RG" undo theirs
	assert_success
	assert_equal "$(readlink theirs)" a.txt
}

@test "t1423.04 a symbolic link older than the session is made again by undo --all" {
	mkfile a.txt original
	ln -s a.txt old
	touch -h -d '2020-01-01' old
	rgsh 'rm old'
	run "$RG" undo --all
	assert_success
	assert_equal "$(readlink old)" a.txt
}

@test "t1423.05 a symbolic link dated in the future, older than the session, is made again by undo --all" {
	mkfile a.txt original
	ln -s a.txt ahead
	touch -h -d '+1 day' ahead
	rgsh 'rm ahead'
	run "$RG" undo --all
	assert_success
	assert_equal "$(readlink ahead)" a.txt
}
