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

# is_link NAME TARGET: NAME is a symbolic link to TARGET.
is_link() {
	[ -L "$1" ] || fail "'$1' is not a symbolic link"
	assert_equal "$(readlink "$1")" "$2"
}

# swapped_link_kept [ENV...]: the tree puts a symbolic link where f.txt
# was, after undo kept f.txt and before it puts the kept version there.
# The link is the tree's, but never lose data: it is kept, as a write
# caught there is, and a second undo brings it back.
swapped_link_kept() {
	mkfile f.txt original
	rgsh 'cat f.txt >/dev/null; echo changed >f.txt'
	run env "$@" LD_PRELOAD="$RACE" RG_T_RACE=swap=elsewhere "$RG" undo f.txt
	assert_failure 1
	assert_output --partial "a symbolic link took its place as undo restored it: restored, and that link is kept"
	assert_equal "$(cat f.txt)" original
	assert_equal "$(ls -A)" f.txt
	run "$RG" undo f.txt
	assert_success
	is_link f.txt elsewhere
}

@test "t1424.02 a symbolic link put in a file's place as undo restores it is kept; undo brings it back" {
	swapped_link_kept
}

@test "t1424.03 the same where the file system cannot exchange two files (undo's rename)" {
	swapped_link_kept RG_T_NOEXCHANGE=1
}

@test "t1424.04 a symbolic link put where undo recreates a removed file is kept; undo brings it back" {
	mkfile f.txt original
	rg rm f.txt
	race swap=elsewhere undo f.txt
	assert_failure 1
	assert_output --partial "that link is kept"
	assert_equal "$(cat f.txt)" original
	run "$RG" undo f.txt
	assert_success
	is_link f.txt elsewhere
}

# The same by a symbolic link of root's own, made earlier elsewhere in a
# directory the tree may write, to the very target, and renamed in: one
# name, root's, the target undo made: only its birth time, from before
# undo's, tells it is not the link undo made.
@test "t1424.05 root's older symbolic link renamed in for undo's staged one is not given the link's owner" {
	[ "$(id -u)" = 0 ] || skip "only root's undo gives another user's owner"
	mkdir spare
	ln -s somewhere spare/roots
	[ "$(stat -c %W spare/roots)" -gt 0 ] 2>/dev/null || skip "no birth times on this file system"
	ln -s somewhere link
	chown -h 65534:65534 link
	rg rm link
	sleep 1.1 # the check is by the second
	race move="$W/spare/roots" undo link
	assert_failure
	assert_output --partial "was replaced by another file"
	[ ! -e link ] && [ ! -L link ] || fail "undo put something at link: $(ls -l link)"
	assert_equal "$(find . -name '*.rg-undo-*' -printf '%U:%G\n')" 0:0
}
