#!/usr/bin/env bats
# readguard reset, forget and mark: steering what the session has read.

load helper
load cli_helper

setup() {
	common_setup
	cli_setup
}

@test "t2030.01 reset makes a file read before it unwritable until read again" {
	new_session
	mkfile a old
	in_session cat a >/dev/null
	run --separate-stderr "$RG" reset
	assert_success
	snapshot a
	run --separate-stderr in_session sh -c 'echo new >a'
	assert_failure
	assert_refused a unread
	assert_unchanged a
	in_session cat a >/dev/null
	in_session sh -c 'echo new >a'
	assert_content a new
}

@test "t2030.02 reset also forgets the session's own writes" {
	new_session
	in_session sh -c 'echo one >a'
	"$RG" reset
	run --separate-stderr in_session sh -c 'echo two >a'
	assert_failure
	assert_content a one
}

@test "t2030.03 forget forgets only the files it names" {
	new_session
	mkfile a old
	mkfile b old
	in_session cat a b >/dev/null
	run --separate-stderr "$RG" forget a
	assert_success
	run --separate-stderr in_session sh -c 'echo new >a'
	assert_refused a unread
	in_session sh -c 'echo new >b'
	assert_content b new
}

@test "t2030.04 forget follows a symlink to the file it names" {
	new_session
	mkfile a old
	ln -s a link
	in_session cat a >/dev/null
	"$RG" forget link
	run --separate-stderr in_session sh -c 'echo new >a'
	assert_refused a unread
}

@test "t2030.05 forget of a file never read succeeds and changes nothing" {
	new_session
	mkfile a old
	run --separate-stderr "$RG" forget a
	assert_success
	[ -z "$stderr" ] || fail "$stderr"
}

@test "t2030.06 forget of a missing path exits 2, names it, and still forgets the others" {
	new_session
	mkfile a old
	in_session cat a >/dev/null
	run --separate-stderr "$RG" forget nope a
	assert_equal "$status" 2
	[[ $stderr == *"forget: 'nope': No such file or directory"* ]] || fail "$stderr"
	run --separate-stderr in_session sh -c 'echo new >a'
	assert_refused a unread
}

@test "t2030.07 mark lets the session overwrite a file it never read" {
	new_session
	mkfile a old
	run --separate-stderr "$RG" mark a
	assert_success
	in_session sh -c 'echo new >a'
	assert_content a new
}

@test "t2030.08 mark records the file as it is now: a later outside change is still caught" {
	new_session
	mkfile a old
	"$RG" mark a
	external_write a changed
	run --separate-stderr in_session sh -c 'echo new >a'
	assert_refused a changed
	assert_content a changed
}

@test "t2030.09 mark is logged with decision mark" {
	new_session --log "$LOG"
	mkfile a old
	"$RG" mark a
	assert_log_json
	[ "$(log_count)" -eq 1 ] || fail "$(cat "$LOG")"
	[ "$(log_field 1 decision)" = '"mark"' ] || fail "$(cat "$LOG")"
	[ "$(log_field 1 reason)" = '"marked"' ] || fail "$(cat "$LOG")"
	[ "$(log_field 1 prog)" = '"readguard"' ] || fail "$(cat "$LOG")"
	[ "$(log_field 1 path)" = "\"$W/a\"" ] || fail "$(cat "$LOG")"
	[ "$(log_field 1 current_size)" = 4 ] || fail "$(cat "$LOG")"
}

@test "t2030.10 mark refuses a directory and a missing path with exit 2" {
	new_session
	mkdir d
	run --separate-stderr "$RG" mark d
	assert_equal "$status" 2
	[[ $stderr == *"mark: 'd': not a regular file"* ]] || fail "$stderr"
	run --separate-stderr "$RG" mark nope
	assert_equal "$status" 2
	[[ $stderr == *"mark: 'nope': No such file or directory"* ]] || fail "$stderr"
}

@test "t2030.11 mark on a full table exits 1 and says so" {
	new_session --capacity 16
	for i in $(seq 1 16); do printf 'x\n' >"f$i"; done
	in_session cat f* >/dev/null 2>&1
	mkfile last old
	run --separate-stderr "$RG" mark last
	assert_equal "$status" 1
	[[ $stderr == *"the session table is full (16 files)"* ]] || fail "$stderr"
}

@test "t2030.12 reset, forget and mark work on a kept session that has ended" {
	dead_session "$TABLES/kept"
	mkfile a old
	run --separate-stderr "$RG" mark --session "$TABLES/kept" a
	assert_success
	run --separate-stderr "$RG" run --session "$TABLES/kept" -- sh -c 'echo new >a'
	assert_success
	assert_content a new
}

@test "t2030.13 mark of a file outside every root says so, and exits 0" {
	new_session
	printf 'x\n' >"$OUT/o"
	run --separate-stderr "$RG" mark "$OUT/o"
	assert_success
	assert_equal "$stderr" "readguard: mark: '$OUT/o' is outside every root of the session: writes to it are not guarded, so the mark changes nothing"
}

@test "t2030.14 mark of a file under a root says nothing" {
	new_session
	mkfile a old
	run --separate-stderr "$RG" mark a
	assert_success
	assert_equal "$stderr" ""
}

@test "t2030.15 forget of a directory refuses it, exit 2, rather than succeed and forget nothing" {
	new_session
	mkdir d
	mkfile d/a old
	in_session cat d/a >/dev/null
	run --separate-stderr "$RG" forget d
	assert_failure 2
	assert_equal "$stderr" "readguard: forget: 'd' is a directory: forget takes files ('readguard reset' forgets every read)"
	in_session sh -c 'echo new >d/a'
	assert_content d/a new
}
