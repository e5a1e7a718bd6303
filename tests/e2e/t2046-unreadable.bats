#!/usr/bin/env bats
# A file the writer may not read (mode 0222, say) cannot be read first, so
# its refusal must not stop at that advice: it says why, and what to do.

load helper
load cli_helper
load escape

setup() {
	common_setup
	cli_setup
	D=
}

# nobody_tree: esc_nobody_tree's $D/proj, holding w (write-only, "old"):
# root reads any file, so the test needs another user.
nobody_tree() {
	esc_nobody_tree "act as uid 65534"
	printf 'old\n' >"$D/proj/w"
	chmod 0222 "$D/proj/w"
	chown 65534:65534 "$D/proj/w"
}

# as_nobody SCRIPT: `run --separate-stderr` of SCRIPT as uid 65534 in
# $D/proj, in a session of that user's.
as_nobody() {
	cd "$D/proj" || fail "no $D/proj"
	run --separate-stderr esc_drop env -u LD_PRELOAD -u READGUARD_SESSION \
		XDG_STATE_HOME="$D/state" READGUARD_DIR="$D/tables" XDG_RUNTIME_DIR= \
		"$RG" run -- bash -c "$1"
}

@test "t2046.01 a refused write to a file the writer may not read says so, and offers readguard mark" {
	nobody_tree
	as_nobody 'echo new >w'
	assert_failure
	assert_equal "$stderr" "readguard: refused to write 'w': it has not been read in this session, and this process may not read it (no read permission). If it may be overwritten, record it as read with 'readguard mark FILE', then retry.
bash: line 1: w: Permission denied"
	chmod 0644 "$D/proj/w"
	assert_equal "$(cat "$D/proj/w")" old
}

@test "t2046.02 after readguard mark, the write to a file the writer may not read goes ahead" {
	nobody_tree
	as_nobody "'$RG' mark w && echo new >w"
	assert_success
	chmod 0644 "$D/proj/w"
	assert_equal "$(cat "$D/proj/w")" new
}

@test "t2046.03 readguard check of a file the writer may not read gives the same advice" {
	nobody_tree
	as_nobody "'$RG' check w"
	assert_failure 1
	assert_output --partial "may not read it (no read permission)"
	assert_output --partial "readguard mark FILE"
}

@test "t2046.04 a readable unread file keeps the plain advice to read it first" {
	nobody_tree
	chmod 0644 "$D/proj/w"
	as_nobody 'echo new >w'
	assert_failure
	[[ $stderr == *"it has not been read in this session. Read it first, then retry."* ]] ||
		fail "stderr: $stderr"
	assert_equal "$(cat "$D/proj/w")" old
}
