#!/usr/bin/env bats
# What undo puts back besides the bytes: a file's owner and group, as the
# journal kept them, where the user who undoes may set them (root undoing
# another user's file); where it may not, the file is restored as before,
# owned by whoever undoes it, with nothing said.

load helper
load cli_helper
load escape

setup() {
	common_setup
	cli_setup
	D=
}

nobody_tree() { esc_nobody_tree "undo another user's file"; }

# as_nobody SCRIPT: SCRIPT as uid 65534, in $D/proj, in a session of that
# user's unless SCRIPT is run with NOSESSION=1.
as_nobody() {
	local session=("$RG" run --)
	[ -z "${NOSESSION:-}" ] || session=()
	(cd "$D/proj" && esc_drop env -u LD_PRELOAD -u READGUARD_SESSION XDG_STATE_HOME="$D/state" \
		READGUARD_DIR="$D/tables" XDG_RUNTIME_DIR= "${session[@]}" bash -c "$1") ||
		fail "as uid 65534: $1"
}

# undo_as ROOT|NOBODY FILE: `run --separate-stderr readguard undo FILE`, by
# root or uid 65534, with uid 65534's journal, in $D/proj.
undo_as() {
	local drop=()
	[ "$1" = root ] || drop=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	cd "$D/proj" || fail "no $D/proj"
	run --separate-stderr "${drop[@]}" env XDG_STATE_HOME="$D/state" READGUARD_DIR="$D/tables" \
		"$RG" undo "$2"
}

@test "t1412.01 root undoes another user's overwritten file: its owner, group and mode come back" {
	nobody_tree
	NOSESSION=1 as_nobody 'printf "old\n" >f && chmod 0640 f && touch -d "2 hours ago" f'
	as_nobody 'cat f >/dev/null && printf "new\n" >f'
	undo_as root f
	assert_success
	assert_equal "$(cat "$D/proj/f")" old
	assert_equal "$(stat -c '%u:%g %a' "$D/proj/f")" '65534:65534 640'
}

@test "t1412.02 root undoes another user's removed file: it is recreated with its owner and group" {
	nobody_tree
	NOSESSION=1 as_nobody 'printf "old\n" >f && chmod 0600 f'
	as_nobody 'rm f'
	undo_as root f
	assert_success
	assert_equal "$(cat "$D/proj/f")" old
	assert_equal "$(stat -c '%u:%g %a' "$D/proj/f")" '65534:65534 600'
}

@test "t1412.03 a user undoing a file of a group it is not in restores it as its own, saying nothing more" {
	nobody_tree
	NOSESSION=1 as_nobody 'printf "old\n" >f && chmod 0664 f'
	chgrp 0 "$D/proj/f"
	as_nobody 'cat f >/dev/null && printf "new\n" >f'
	undo_as nobody f
	assert_success
	assert_regex "$stderr" "^readguard: restored 'f' as it was before session [0-9]+-[0-9]+ changed it$"
	assert_equal "$(cat "$D/proj/f")" old
	assert_equal "$(stat -c '%u:%g %a' "$D/proj/f")" '65534:65534 664'
}

@test "t1412.04 root undoes another user's file removed with its directories: they are recreated with its owner and group" {
	nobody_tree
	NOSESSION=1 as_nobody 'mkdir -p sub/deep && printf "old\n" >sub/deep/f'
	as_nobody 'rm -r sub'
	undo_as root sub/deep/f
	assert_success
	assert_equal "$(cat "$D/proj/sub/deep/f")" old
	assert_equal "$(stat -c '%u:%g' "$D/proj/sub" "$D/proj/sub/deep")" "$(printf '65534:65534\n65534:65534')"
}

@test "t1412.05 root's undo gives the file's owner only the directories it recreates: one still there keeps its own" {
	nobody_tree
	mkdir -m 0777 "$D/proj/sub"
	NOSESSION=1 as_nobody 'mkdir sub/deep && printf "old\n" >sub/deep/f'
	as_nobody 'rm -r sub/deep'
	undo_as root sub/deep/f
	assert_success
	assert_equal "$(stat -c '%u:%g' "$D/proj/sub" "$D/proj/sub/deep")" "$(printf '0:0\n65534:65534')"
}
