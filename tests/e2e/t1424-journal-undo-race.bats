#!/usr/bin/env bats
# Undo racing a hostile tree, between two of its own steps on one file.
# tests/helpers/lib/rgundorace.c, preloaded into undo, makes the tree's
# move at the very instant a race needs (RG_T_RACE), so each race is run
# every time.

load helper
load cli_helper

setup() {
	common_setup
	cli_setup
	RACE="$T/librgundorace.so"
	[ -f "$RACE" ] || fail "$RACE not built (run make check-build)"
}

teardown() {
	common_teardown
}

# race WHAT=ARG undo ARGS...: undo, with the tree's move WHAT made in it.
race() {
	local what=$1
	shift
	run env LD_PRELOAD="$RACE" RG_T_RACE="$what" "$RG" "$@"
}

# Root's undo gives the link it makes the owner the journal kept. A hard
# link the tree puts in its place between its making and that chown must
# not be given it: by name, root's chown would hand the record's owner a
# file the tree can reach.
@test "t1424.01 a file swapped in for undo's staged symbolic link is not given the link's owner" {
	[ "$(id -u)" = 0 ] || skip "only root's undo gives another user's owner"
	mkfile victim mine
	ln -s somewhere link
	chown -h 65534:65534 link
	rg rm link
	race stage="$W/victim" undo link
	assert_failure
	assert_output --partial "was replaced by another file"
	assert_equal "$(stat -c %u:%g victim)" 0:0
	assert_equal "$(cat victim)" mine
	[ ! -e link ] && [ ! -L link ] || fail "undo put something at link: $(ls -l link)"
}
