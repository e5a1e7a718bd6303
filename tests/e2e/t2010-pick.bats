#!/usr/bin/env bats
# How a verb chooses its session, and every way that can fail.

load helper
load cli_helper

setup() {
	common_setup
	cli_setup
}


# Every verb that acts on one session, with an argument it accepts.
SESSION_VERBS=("status" "reset" "forget f" "mark f" "check f" "log" "end")
# Those that pick the one running session when none is named: end does not,
# as ending another tree's session is not undone (t2060.13).
PICKING_VERBS=("${SESSION_VERBS[@]:0:6}")

@test "t2010.01 with no session at all every verb that picks a session exits 2 and says how to start one" {
	printf 'x\n' >f
	for v in "${PICKING_VERBS[@]}"; do
		run --separate-stderr "$RG" $v
		assert_equal "$status" 2
		[[ $stderr == *"no session: start one with 'readguard run -- CMD'"* ]] ||
			fail "$v: $stderr"
		assert_output ''
	done
}

@test "t2010.02 the one running session of the user is chosen without --session" {
	new_session
	run --separate-stderr "$RG" status --json
	assert_success
	[[ $output == *"\"session\":\"$S\""* ]] || fail "$output"
}

@test "t2010.03 with two running sessions every verb that picks a session exits 2 and lists both" {
	new_session
	local first=$S
	new_session
	printf 'x\n' >f
	for v in "${PICKING_VERBS[@]}"; do
		run --separate-stderr "$RG" $v
		assert_equal "$status" 2
		[[ $stderr == *"2 sessions are running; choose one with --session PATH"* ]] ||
			fail "$v: $stderr"
		[[ $stderr == *"$first (running"* ]] || fail "$v: $stderr"
		[[ $stderr == *"$S (running"* ]] || fail "$v: $stderr"
	done
	assert_exist "$first"
	assert_exist "$S"
}

@test "t2010.04 a dead session is not chosen: the error lists it and suggests --prune" {
	dead_session "$TABLES/kept"
	# The kept table is not named like a generated one, so make one that is.
	mv "$TABLES/kept" "$TABLES/readguard-$(id -u)-0123456789abcdef"
	run --separate-stderr "$RG" status
	assert_equal "$status" 2
	[[ $stderr == *"no session is running"* ]] || fail "$stderr"
	[[ $stderr == *"readguard-$(id -u)-0123456789abcdef (ended"* ]] || fail "$stderr"
	[[ $stderr == *"readguard sessions --prune"* ]] || fail "$stderr"
}

@test "t2010.12 with only a dead session every verb that picks a session exits 2 and changes nothing" {
	ended_session
	printf 'x\n' >f
	for v in "${PICKING_VERBS[@]}"; do
		run --separate-stderr "$RG" $v
		assert_equal "$status" 2
		[[ $stderr == *"no session is running"* ]] || fail "$v: $stderr"
	done
	assert_exist "$S"
}

@test "t2010.05 a dead session named with --session can still be inspected" {
	dead_session "$TABLES/kept"
	run --separate-stderr "$RG" status --session "$TABLES/kept"
	assert_success
	assert_line --regexp '^state +ended \(pid [0-9]+\)$'
}

@test "t2010.06 READGUARD_SESSION is used before looking for running sessions" {
	new_session
	local first=$S
	new_session
	READGUARD_SESSION=$first run --separate-stderr "$RG" status --json
	assert_success
	[[ $output == *"\"session\":\"$first\""* ]] || fail "$output"
}

@test "t2010.07 --session wins over READGUARD_SESSION" {
	new_session
	local first=$S
	new_session
	READGUARD_SESSION=$first run --separate-stderr "$RG" status --json --session "$S"
	assert_success
	[[ $output == *"\"session\":\"$S\""* ]] || fail "$output"
}

@test "t2010.08 --session naming a missing file exits 2 and says so" {
	run --separate-stderr "$RG" status --session "$TABLES/nope"
	assert_equal "$status" 2
	[[ $stderr == *"session '$TABLES/nope': it does not exist"* ]] || fail "$stderr"
}

@test "t2010.09 a file that is not a table is refused by every session verb" {
	head -c 40000 /dev/zero >"$TABLES/junk"
	printf 'x\n' >f
	for v in "${SESSION_VERBS[@]}"; do
		run --separate-stderr "$RG" $v --session "$TABLES/junk"
		assert_equal "$status" 2
		[[ $stderr == *"it is not a readguard session table (wrong magic)"* ]] ||
			fail "$v: $stderr"
	done
	[ -f "$TABLES/junk" ] || fail "end removed a file that is not a table"
}

@test "t2010.10 a too-small file and a directory are refused with their reason" {
	printf 'short' >"$TABLES/small"
	run --separate-stderr "$RG" status --session "$TABLES/small"
	assert_equal "$status" 2
	[[ $stderr == *"too small to be a session table"* ]] || fail "$stderr"
	run --separate-stderr "$RG" status --session "$TABLES"
	assert_equal "$status" 2
	[[ $stderr == *"it is a directory"* ]] || fail "$stderr"
}

@test "t2010.11 READGUARD_SESSION naming a missing file is reported as coming from it" {
	READGUARD_SESSION=$TABLES/gone run --separate-stderr "$RG" status
	assert_equal "$status" 2
	[[ $stderr == *"(from READGUARD_SESSION)"* ]] || fail "$stderr"
}

# sid PATH: the id of the session whose table is PATH, as status prints it.
sid() {
	"$RG" status --json --session "$1" | "$PY3" -c 'import json, sys; print(json.load(sys.stdin)["id"])'
}

@test "t2010.13 every session verb takes a running session's id as --session, as it takes its path" {
	mkfile f x
	new_session
	local first=$S id
	new_session
	id=$(sid "$first")
	[ -n "$id" ] || fail "no id"
	local v out
	for v in "${SESSION_VERBS[@]}"; do
		[ "$v" = end ] && continue # it removes the table: below, once
		run --separate-stderr "$RG" $v --session "$first"
		out="$status:$output"
		run --separate-stderr "$RG" $v --session "$id"
		assert_equal "$status:$output" "$out"
	done
	run --separate-stderr "$RG" end --session "$id"
	assert_success
	[ ! -e "$first" ] || fail "end --session ID left $first"
	[ -e "$S" ] || fail "end --session ID removed the other session"
}

@test "t2010.14 an id that no table has is said to be an ended or a named session, exit 2" {
	run --separate-stderr "$RG" status --session 1795468256807933359-12987
	assert_failure 2
	assert_equal "$stderr" "readguard: no table of this user's has session id '1795468256807933359-12987': the session has ended (history, diff, undo and log still take its id: 'readguard history --session 1795468256807933359-12987'), or it is a named session (give its table's path)"
}

@test "t2010.15 a file named like an id is taken as the table it is" {
	new_session
	local id
	id=$(sid "$S")
	cp "$S" "$W/$id"
	run --separate-stderr "$RG" status --json --session "$id"
	assert_success
	assert_output --partial "\"session\":\"$id\""
}

@test "t2010.16 history --session ID of a running session reads that session's own journal" {
	mkfile a old
	local st=$BATS_TEST_TMPDIR/elsewhere
	XDG_STATE_HOME=$st new_session
	XDG_STATE_HOME=$st in_session sh -c 'cat a >/dev/null; echo new >a'
	[ -n "$(ls "$st/readguard/journal/sessions")" ] || fail "nothing kept in $st"
	run --separate-stderr "$RG" history --session "$(sid "$S")"
	assert_success
	assert_output --partial " $W/a"
}
