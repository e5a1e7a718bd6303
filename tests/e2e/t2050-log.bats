#!/usr/bin/env bats
# readguard log: reading the session log back.

load helper
load cli_helper

setup() {
	common_setup
	cli_setup
}

@test "t2050.01 log prints one human line per refusal: time, program, pid, path, reason" {
	new_session --log "$LOG"
	mkfile a old
	run in_session sh -c 'echo new >a'
	run --separate-stderr "$RG" log
	assert_success
	assert_output --regexp "^[0-9-]+T[0-9:.]+Z sh\[[0-9]+\] refused open '$W/a': not read in this session$"
}

@test "t2050.02 log explains a changed file with both mtimes and sizes" {
	new_session --log "$LOG"
	mkfile a old
	in_session cat a >/dev/null
	external_write a longer
	run in_session sh -c 'echo new >a'
	run --separate-stderr "$RG" log
	assert_success
	assert_output --partial "changed since it was read (mtime 2020-01-01T00:00:00.000000000Z -> "
	assert_output --partial ", size 4 -> 7)"
}

@test "t2050.03 log --json prints the log's lines unchanged" {
	new_session --log "$LOG"
	mkfile a old
	run in_session sh -c 'echo new >a'
	"$RG" mark a
	run --separate-stderr "$RG" log --json
	assert_success
	[ "$output" = "$(cat "$LOG")" ] || fail "$output"
}

@test "t2050.04 log of a session that refused nothing prints nothing and exits 0" {
	new_session --log "$LOG"
	run --separate-stderr "$RG" log
	assert_success
	assert_output ''
}

@test "t2050.05 log shows a line it cannot parse as it is" {
	new_session --log "$LOG"
	printf 'not json\n' >"$LOG"
	run --separate-stderr "$RG" log
	assert_success
	assert_output 'not json'
}

@test "t2050.06 log --follow prints new lines and stops when the session ends" {
	new_session --log "$LOG"
	mkfile a old
	"$RG" log --follow >"$BATS_TEST_TMPDIR/follow" 2>&1 &
	local pid=$! i=0
	run in_session sh -c 'echo new >a'
	until grep -q "refused open '$W/a'" "$BATS_TEST_TMPDIR/follow"; do
		i=$((i + 1))
		[ $i -lt 3000 ] || { kill $pid; fail "follow printed: $(cat "$BATS_TEST_TMPDIR/follow")"; }
		sleep 0.02
	done
	rm "$S"
	wait $pid || fail "log --follow exited with $?"
}

@test "t2050.07 log of an unreadable log file exits 2" {
	new_session --log "$BATS_TEST_TMPDIR/logdir"
	mkdir "$BATS_TEST_TMPDIR/logdir"
	run --separate-stderr "$RG" log
	assert_equal "$status" 2
	[[ $stderr == *"log: cannot read"* ]] || fail "$stderr"
}

# hid: the id of the session that kept FILE, as history prints it.
hid() {
	"$RG" history --json "$1" | sed -n 's/^{"session":"\([^"]*\)".*/\1/p' | tail -1
}

@test "t2050.08 log --session ID, as history prints it, shows an ended session's refusals" {
	mkfile a old
	mkfile b old
	"$RG" run -- sh -c 'cat b >/dev/null; echo x >b; echo new >a' 2>/dev/null || true
	run --separate-stderr "$RG" log --session "$(hid b)"
	assert_success
	assert_output --regexp "sh\[[0-9]+\] refused open '$W/a': not read in this session$"
}

@test "t2050.09 log --session ID shows only that session's lines of a shared log" {
	local shared="$XDG_STATE_HOME/readguard/shared.log"
	mkdir -p "$XDG_STATE_HOME/readguard"
	mkfile a old
	mkfile b old
	mkfile c old
	"$RG" run --log "$shared" -- sh -c 'cat b >/dev/null; echo x >b; echo new >a' 2>/dev/null || true
	"$RG" run --log "$shared" -- sh -c 'echo new >c' 2>/dev/null || true
	run --separate-stderr "$RG" log --session "$(hid b)"
	assert_success
	assert_output --partial "'$W/a'"
	refute_output --partial "'$W/c'"
}

@test "t2050.10 log --session with an id no session had exits 2, naming it" {
	run --separate-stderr "$RG" log --session 1795468256807933359-12987
	assert_failure 2
	assert_equal "$stderr" "readguard: log: no session '1795468256807933359-12987': it is neither a table nor an id in the journal or the logs in '$XDG_STATE_HOME/readguard'"
}

@test "t2050.11 log with no session running and nothing logged says so, not to ask for --session" {
	run --separate-stderr "$RG" log
	assert_failure 2
	assert_output ""
	[[ $stderr == *"readguard: log: no session has logged anything in '$XDG_STATE_HOME/readguard' yet (a session run with --log FILE logs to FILE)" ]] || fail "$stderr"
	[[ $stderr != *"log --session"* ]] || fail "$stderr"
}

@test "t2050.12 log --session ID of a session whose default log was pruned says it may have been" {
	mkfile a old
	mkfile b old
	"$RG" run -- sh -c 'cat b >/dev/null; echo x >b; echo new >a' 2>/dev/null || true
	local id
	id=$(hid b)
	touch -d '40 days ago' "$XDG_STATE_HOME"/readguard/readguard-*.log
	"$RG" sessions --prune 2>/dev/null
	run --separate-stderr "$RG" log --session "$id"
	assert_success
	assert_output ""
	[[ $stderr == *"has no line in the logs"*"its log was pruned (unchanged for READGUARD_JOURNAL_DAYS days)"* ]] || fail "$stderr"
}

@test "t2050.13 log shows the refusal of a process with another state directory" {
	local st=$BATS_TEST_TMPDIR/elsewhere
	new_session
	mkfile a old
	HOME=$st XDG_STATE_HOME=$st/state run --separate-stderr in_session sh -c 'echo new >a'
	assert_failure
	assert_output ""
	[[ $stderr != *"cannot write the log"* ]] || fail "$stderr"
	run --separate-stderr "$RG" log
	assert_success
	assert_output --regexp "^[0-9-]+T[0-9:.]+Z sh\[[0-9]+\] refused open '$W/a': not read in this session$"
}

@test "t2050.14 log shows the refusal of a process without HOME or XDG_STATE_HOME" {
	new_session
	mkfile a old
	run --separate-stderr in_session env -u HOME -u XDG_STATE_HOME sh -c 'echo new >a'
	assert_failure
	[[ $stderr != *"cannot write the log"* ]] || fail "$stderr"
	run --separate-stderr "$RG" log
	assert_success
	assert_output --regexp "^[0-9-]+T[0-9:.]+Z sh\[[0-9]+\] refused open '$W/a': not read in this session$"
}

@test "t2050.15 log after a run that only refused names that session's id" {
	mkfile a old
	"$RG" run -- sh -c 'echo new >a' 2>/dev/null || true
	run --separate-stderr "$RG" log
	assert_failure 2
	assert_output ""
	local id
	id=$(sed -n 's/.*"session":"\([^"]*\)".*/\1/p' "$XDG_STATE_HOME"/readguard/*.log | tail -1)
	[ -n "$id" ] || fail "no session id in the log"
	[[ $stderr == *"'readguard log --session $id'"* ]] || fail "$stderr"
	run --separate-stderr "$RG" log --session "$id"
	assert_success
	assert_output --regexp "sh\[[0-9]+\] refused open '$W/a': not read in this session$"
}
