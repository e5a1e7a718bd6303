#!/usr/bin/env bats
# A symbolic link the session removes (rm, git clean, rsync --delete) or
# renames a file over is kept by a link to its inode (on another file system
# than the journal's, by a new link with its target), and undo makes it
# again: its target read from the journal's link, never followed.

load helper
load cli_helper

setup() {
	common_setup
	cli_setup
	J="$XDG_STATE_HOME/readguard/journal"
	SHM=
}

teardown() {
	[ -z "$SHM" ] || rm -rf "$SHM"
	common_teardown
}

# is_link NAME TARGET: NAME is a symbolic link to TARGET.
is_link() {
	[ -L "$1" ] || fail "'$1' is not a symbolic link"
	assert_equal "$(readlink "$1")" "$2"
}

@test "t1422.01 rm of a symbolic link: undo LINK makes it again, to the same target; history lists it" {
	mkfile a.txt original
	ln -s a.txt link
	rg rm link
	[ ! -L link ] || fail "rm left the link"
	run "$RG" history link
	assert_success
	assert_output --partial symlink
	run "$RG" undo link
	assert_success
	is_link link a.txt
	assert_equal "$(cat a.txt)" original
}

@test "t1422.02 git clean -fdx of an untracked symbolic link: undo --all brings it back" {
	git init -q .
	mkfile a.txt committed
	git add a.txt
	git commit -qm a
	ln -s a.txt untracked-link
	rg git clean -q -fdx
	[ ! -L untracked-link ] || fail "git clean left the link"
	run "$RG" undo --all
	assert_success
	is_link untracked-link a.txt
}

@test "t1422.03 mv of a file over a symbolic link: undo brings the link back" {
	mkfile b.txt other
	ln -s somewhere link
	rgsh 'cat b.txt >/dev/null; mv b.txt link'
	[ ! -L link ] || fail "mv left the link"
	run "$RG" undo link
	assert_success
	is_link link somewhere
}

@test "t1422.04 a dangling symbolic link removed comes back dangling" {
	ln -s no-such-file link
	rg rm link
	run "$RG" undo link
	assert_success
	is_link link no-such-file
	assert_file_not_exist no-such-file
}

@test "t1422.05 rm of a symbolic link to a directory: the link comes back, the directory untouched" {
	mkdir d
	mkfile d/f.txt inside
	ln -s d dlink
	rg rm dlink
	run "$RG" undo dlink
	assert_success
	is_link dlink d
	assert_equal "$(cat d/f.txt)" inside
	assert_equal "$(ls d)" f.txt
}

@test "t1422.06 undo of the undo that brought back a symbolic link puts the file back, and again the link" {
	mkfile b.txt other
	ln -s somewhere link
	rgsh 'cat b.txt >/dev/null; mv b.txt link'
	"$RG" undo link
	is_link link somewhere
	run "$RG" undo link
	assert_success
	[ ! -L link ] || fail "the undo of the undo left the link"
	assert_equal "$(cat link)" other
	run "$RG" undo link
	assert_success
	is_link link somewhere
}

@test "t1422.07 diff of a removed symbolic link names its target, and reads nothing through it" {
	printf 'SECRET\n' >"$OUT/secret"
	ln -s "$OUT/secret" link
	rg rm link
	run "$RG" diff link
	assert_failure 1
	assert_output --partial "-> '$OUT/secret', now removed"
	refute_output --partial SECRET
}

# The link points out of the roots: undo makes the link, and writes
# nothing where it points.
@test "t1422.08 undo of a symbolic link out of the roots makes the link, and writes nothing outside" {
	printf 'outside\n' >"$OUT/secret"
	make_old "$OUT/secret"
	local before
	before=$(stat -c '%i %Y' "$OUT/secret")
	ln -s "$OUT/secret" link
	ln -s "$OUT/nothing" dangling
	rg rm link dangling
	"$RG" undo link dangling
	is_link link "$OUT/secret"
	is_link dangling "$OUT/nothing"
	assert_equal "$(stat -c '%i %Y' "$OUT/secret")" "$before"
	assert_file_not_exist "$OUT/nothing"
	assert_equal "$(cat link)" outside
}

@test "t1422.09 a symbolic link under node_modules is not kept, as files there are not" {
	mkdir -p node_modules/p
	ln -s ../../x node_modules/p/link
	rg rm node_modules/p/link
	run "$RG" undo node_modules/p/link
	assert_failure
	[ ! -L node_modules/p/link ] || fail "undo made the link"
}

# is_old_link NAME TARGET: NAME is a symbolic link to TARGET with the
# mtime old_link gave it.
is_old_link() {
	is_link "$1" "$2"
	assert_equal "$(stat -c %Y "$1")" 946684800
}

# old_link TARGET NAME: a symbolic link with an old mtime of its own.
old_link() {
	ln -s "$1" "$2"
	touch -h -d @946684800 "$2"
}

# journal_elsewhere: the journal on another file system than the tree's
# (a tmpfs), which no link of the tree's files reaches.
journal_elsewhere() {
	SHM=$(mktemp -d /dev/shm/rg-t1422.XXXXXX 2>/dev/null) ||
		skip "no /dev/shm: no second file system for the journal"
	[ "$(stat -c %d "$SHM")" != "$(stat -c %d "$W")" ] ||
		skip "/dev/shm is on the tree's file system: no second file system for the journal"
	export XDG_STATE_HOME="$SHM"
}

# No removal was let through unkept.
refute_unsaved() {
	run grep unsaved "$LOG"
	assert_failure
}

# rm of a symbolic link in a session of MODE (--supervise, --strict), then
# undo: the supervisor keeps it as the preload does.
rm_link_then_undo() {
	out=$("$RG" run "$1" -- true 2>&1) || skip "$1 unavailable: $out"
	old_link a.txt link
	run "$RG" run --log "$LOG" "$1" -- rm link
	assert_success
	[ ! -L link ] || fail "rm left the link"
	refute_unsaved
	run "$RG" undo link
	assert_success
	is_old_link link a.txt
}

@test "t1422.10 under --supervise, rm of a symbolic link: undo brings it back" {
	rm_link_then_undo --supervise
}

@test "t1422.11 under --strict, rm of a symbolic link: undo brings it back" {
	rm_link_then_undo --strict
}

@test "t1422.12 git checkout replacing a tracked symbolic link: undo brings back the old target" {
	git init -q .
	mkfile a.txt a
	mkfile b.txt b
	ln -s a.txt link
	git add a.txt b.txt link
	git commit -qm one
	git checkout -qb other
	ln -sfn b.txt link
	git commit -qam two
	git checkout -q -
	is_link link a.txt
	rg git checkout -q other
	is_link link b.txt
	run "$RG" undo link
	assert_success
	is_link link a.txt
}

@test "t1422.13 under --strict, mv of a file over a symbolic link: undo brings the link back" {
	out=$("$RG" run --strict -- true 2>&1) || skip "strict mode unavailable: $out"
	mkfile b.txt other
	ln -s somewhere link
	run "$RG" run --strict -- sh -c 'cat b.txt >/dev/null && mv b.txt link'
	assert_success
	[ ! -L link ] || fail "mv left the link"
	run "$RG" undo link
	assert_success
	is_link link somewhere
}

# Undo keeps a symbolic link it replaces by a new link to its target where
# the journal is on another file system: the link undo makes again from it
# has the mtime recorded, not that new link's.
@test "t1422.14 a symbolic link undo kept on another file system comes back with its mtime" {
	journal_elsewhere
	mkfile f.txt original
	rgsh 'cat f.txt >/dev/null; echo changed >f.txt'
	rm f.txt
	ln -s elsewhere f.txt
	touch -h -d @946684800 f.txt
	run "$RG" undo --force f.txt
	assert_success
	assert_equal "$(cat f.txt)" original
	run "$RG" undo f.txt
	assert_success
	is_link f.txt elsewhere
	assert_equal "$(stat -c %Y f.txt)" 946684800
}

# A time before 1970 is negative: its nanoseconds, split from the seconds,
# must still be 0..999999999 for utimensat to take it.
@test "t1422.15 a symbolic link last changed before 1970 comes back with its mtime" {
	ln -s somewhere link
	touch -h -d @-1.5 link
	rg rm link
	run "$RG" undo link
	assert_success
	is_link link somewhere
	assert_equal "$("$PY3" -c 'import os; print(os.lstat("link").st_mtime_ns)')" -1500000000
}

# The journal on another file system than the tree: a removed symbolic
# link cannot be linked there, and is made again in it, with its target.
@test "t1422.16 rm of a symbolic link, the journal on another file system: undo makes it again, with its mtime" {
	journal_elsewhere
	mkfile a.txt original
	old_link a.txt link
	rg rm link
	[ ! -L link ] || fail "rm left the link"
	refute_unsaved
	run "$RG" undo link
	assert_success
	is_old_link link a.txt
	assert_equal "$(cat a.txt)" original
}

@test "t1422.17 git clean -fdx of an untracked symbolic link, the journal on another file system: undo --all" {
	journal_elsewhere
	git init -q .
	mkfile a.txt committed
	git add a.txt
	git commit -qm a
	old_link a.txt untracked-link
	rg git clean -q -fdx
	[ ! -L untracked-link ] || fail "git clean left the link"
	run "$RG" undo --all
	assert_success
	is_old_link untracked-link a.txt
}

@test "t1422.18 a dangling symbolic link removed, the journal on another file system, comes back dangling" {
	journal_elsewhere
	old_link no-such-file link
	rg rm link
	run "$RG" undo link
	assert_success
	is_old_link link no-such-file
	assert_file_not_exist no-such-file
}

@test "t1422.19 under --supervise, the journal on another file system: rm of a symbolic link, undo" {
	journal_elsewhere
	rm_link_then_undo --supervise
}

@test "t1422.20 under --strict, the journal on another file system: rm of a symbolic link, undo" {
	journal_elsewhere
	rm_link_then_undo --strict
}

# mv_over_link_then_undo [MODE]: mv of a read file over a symbolic link
# with an old mtime, in a session (of MODE, if given), then undo.
mv_over_link_then_undo() {
	if [ -n "${1:-}" ]; then
		out=$("$RG" run "$1" -- true 2>&1) || skip "$1 unavailable: $out"
	fi
	mkfile b.txt other
	old_link somewhere link
	run "$RG" run --log "$LOG" ${1:+"$1"} -- sh -c 'cat b.txt >/dev/null && mv b.txt link'
	assert_success
	[ ! -L link ] || fail "mv left the link"
	refute_unsaved
	run "$RG" undo link
	assert_success
	is_old_link link somewhere
}

@test "t1422.21 mv of a file over a symbolic link, the journal on another file system: undo brings the link back" {
	journal_elsewhere
	mv_over_link_then_undo
}

@test "t1422.22 under --strict, the journal on another file system: mv of a file over a symbolic link, undo" {
	journal_elsewhere
	mv_over_link_then_undo --strict
}

# readlink(2) of the journal's link to the kept inode moves its atime
# (relatime: the link made in the journal moved its ctime past it), and
# diff and undo both read it: the atime restored is the one recorded.
# (the atime is stat'ed before anything reads the restored link.)
@test "t1422.23 a symbolic link comes back with its recorded atime, whatever read the journal's link" {
	ln -s somewhere link
	touch -h -a -d @1000000000 link
	rg rm link
	sleep 1
	"$RG" diff link >/dev/null || true
	run "$RG" undo link
	assert_success
	assert_equal "$(stat -c %X link)" 1000000000 # before is_link's readlink moves it
	is_link link somewhere
}

# A file the session changed, which is now a symbolic link: diff(1) given
# its name would follow the link and show what it points at as the file.
@test "t1422.24 diff of a kept file whose name is now a symbolic link names its target, and reads nothing through it" {
	printf 'SECRET\n' >"$OUT/secret"
	mkfile f.txt original
	rgsh 'cat f.txt >/dev/null; echo changed >f.txt'
	rm f.txt
	ln -s "$OUT/secret" f.txt
	run "$RG" diff f.txt
	assert_failure 1
	assert_output --partial "now a symbolic link to '$OUT/secret'"
	refute_output --partial SECRET
}

# Root's undo gives the link it makes the owner recorded, through the
# link's own descriptor (t1424.01 is the race that is for).
@test "t1422.25 root's undo of another user's symbolic link gives it back its owner and group" {
	[ "$(id -u)" = 0 ] || skip "only root's undo gives another user's owner"
	ln -s somewhere link
	chown -h 65534:65534 link
	touch -h -d @946684800 link
	rg rm link
	run "$RG" undo link
	assert_success
	assert_equal "$(stat -c '%u:%g %Y' link)" '65534:65534 946684800'
	is_link link somewhere
}
