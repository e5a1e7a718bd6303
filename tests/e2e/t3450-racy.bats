#!/usr/bin/env bats
# Racy timestamps and the content-hash fallback. A change within the
# timestamp tick of the session's read keeps mtime and size; it is
# simulated without timing: the file's mtime is set ahead of the clock
# (a record is racy when its mtime is not at least a tick older than the
# read), and the change restores the mtime afterwards (utimensat), as a
# change in the same tick would leave it.

load helper

# outside CMD...: run CMD in no session.
outside() {
	env -u LD_PRELOAD -u READGUARD_SESSION "$@"
}

# future FILE...: give files an mtime an hour ahead, so a read of them is racy.
future() {
	outside touch -d "@$(($(date +%s) + 3600))" -- "$@"
}

# same_stamp_change FILE TEXT: from outside the session, replace FILE's
# bytes in place with TEXT (same length) and put its mtime back.
same_stamp_change() {
	local m
	m=$(stat -c %.9Y -- "$1")
	[ "${#2}" -eq "$(stat -c %s -- "$1")" ] || fail "same_stamp_change: '$2' is not the same size"
	outside sh -c 'printf %s "$2" 1<>"$1"; touch -d "@$3" -- "$1"' sh "$1" "$2" "$m"
}

# In a session: read f, let the test change it from outside (PHASE1 ends),
# then write f with rgprobe (PHASE2); bg_finish collects the outcome.
read_then_write() {
	bg_session '"$T/rgprobe" read f >/dev/null' "\"\$T/rgprobe\" ${1:-open f O_WRONLY}"
}

@test "t3450.01 racy read, then a same-size change that keeps the mtime: refused as changed" {
	printf 'aaaa' >f
	future f
	read_then_write
	same_stamp_change f bbbb
	snapshot f
	bg_finish
	assert_probe_err EACCES
	assert_refused f changed
	assert_unchanged f
	assert_content f bbbb
}

@test "t3450.02 racy read, file untouched: the write is allowed" {
	printf 'aaaa' >f
	future f
	read_then_write
	bg_finish
	assert_probe_ok
	refute_refused
}

@test "t3450.03 racy read, rewritten with the same bytes and mtime: allowed" {
	printf 'aaaa' >f
	future f
	read_then_write
	same_stamp_change f aaaa
	bg_finish
	assert_probe_ok
	refute_refused
}

@test "t3450.04 racy read, changed, then read again: the new bytes are what the session knows" {
	printf 'aaaa' >f
	future f
	bg_session '"$T/rgprobe" read f >/dev/null' '"$T/rgprobe" read f >/dev/null; "$T/rgprobe" write f cccc'
	same_stamp_change f bbbb
	bg_finish
	assert_success
	refute_refused
	assert_content f cccc
}

@test "t3450.05 racy read, a same-stamp change: rename onto it and truncate are refused too" {
	printf 'aaaa' >f
	printf 'new' >src
	future f
	bg_session '"$T/rgprobe" read f >/dev/null' \
		'"$T/rgprobe" rename src f; "$T/rgprobe" truncate f 0'
	same_stamp_change f bbbb
	snapshot f
	bg_finish
	assert_equal "${lines[*]}" "err EACCES err EACCES"
	assert_unchanged f
}

@test "t3450.06 racy read and a same-stamp change: readguard check says changed" {
	printf 'aaaa' >f
	future f
	S="$BATS_TEST_TMPDIR/tbl"
	"$RG" run --session "$S" --keep -- cat f >/dev/null
	same_stamp_change f bbbb
	run "$RG" check --session "$S" f
	assert_equal "$status" 1
	assert_output --partial "refused to write 'f': it changed since this session read it"
	# The old bytes back, under yet another mtime: the same bytes, allowed.
	printf 'aaaa' | outside dd of=f conv=notrunc status=none
	future f
	run "$RG" check --session "$S" f
	rm -f "$S"
	assert_success
	assert_output --partial "its bytes are the same"
}

@test "t3450.07 calm read (old mtime), a same-size change that restores the mtime: its ctime tells, refused as changed" {
	mkfile f aaaa
	read_then_write
	same_stamp_change f bbbbb
	bg_finish
	assert_probe_err EACCES
	assert_refused f changed
	assert_content f bbbbb
}

@test "t3450.08 touch after a read: the mtime moved, the bytes did not: allowed" {
	mkfile f original
	read_then_write
	outside touch f
	bg_finish
	assert_probe_ok
	refute_refused
}

@test "t3450.09 a re-checkout of identical bytes (a new mtime, same inode): allowed" {
	mkfile f original
	cp f "$OUT/copy"
	read_then_write "write f edited"
	outside cp "$OUT/copy" f
	bg_finish
	assert_probe_ok
	refute_refused
	assert_content f edited
}

@test "t3450.10 touch, then a same-size change: the bytes differ, refused as changed" {
	mkfile f original
	read_then_write
	outside sh -c 'printf "ORIGINAL\n" 1<>f'
	snapshot f
	bg_finish
	assert_probe_err EACCES
	assert_refused f changed
	assert_unchanged f
}

@test "t3450.11 a file larger than 64 KiB is not hashed: touch after a read is a change" {
	head -c 70000 /dev/zero >f
	make_old f
	read_then_write
	outside touch f
	bg_finish
	assert_probe_err EACCES
	assert_refused f changed
}

@test "t3450.12 a racy file larger than 64 KiB: a change in its first 64 KiB is caught" {
	head -c 70000 /dev/zero >f
	future f
	read_then_write
	m=$(stat -c %.9Y f)
	outside sh -c 'printf X | dd of=f bs=1 seek=100 conv=notrunc status=none; touch -d "@$1" f' sh "$m"
	bg_finish
	assert_probe_err EACCES
	assert_refused f changed
}

@test "t3450.13 a racy file larger than 64 KiB: a change past 64 KiB that restores the mtime is caught by its ctime" {
	head -c 70000 /dev/zero >f
	future f
	read_then_write
	m=$(stat -c %.9Y f)
	outside sh -c 'printf X | dd of=f bs=1 seek=69000 conv=notrunc status=none; touch -d "@$1" f' sh "$m"
	bg_finish
	assert_probe_err EACCES
	assert_refused f changed
}

@test "t3450.14 a racy file larger than 64 KiB, read and renamed by the session: it stays known under its new name" {
	head -c 70000 /dev/zero >f
	future f
	run --separate-stderr rgsh 'cat f >/dev/null && mv f g && "$T/rgprobe" open g O_WRONLY'
	assert_success
	refute_refused
	assert_probe_ok
}

@test "t3450.15 racy read, a same-stamp change, then the session renames it: a write under the new name is refused as changed" {
	printf 'aaaa' >f
	future f
	bg_session '"$T/rgprobe" read f >/dev/null' 'mv f g && "$T/rgprobe" open g O_WRONLY'
	same_stamp_change f bbbb
	bg_finish
	assert_probe_err EACCES
	assert_refused g changed
	assert_content g bbbb
}
