#!/usr/bin/env bats
# Backup files a tool rotates: sed -i.bak, perl -pi.orig and patch -b rename
# the file they just read onto last time's backup. That backup is the tool's
# to replace: the rename is journaled, not refused, and undo brings the old
# backup back; so is patch's copy of a file it read onto its backup name.
# Any other rename or write onto an unread file is still refused.

load helper

setup() {
	common_setup
	mkfile f 'a'
	mkfile f.bak 'last time'
}

@test "t1015.01 sed -i.bak replaces last time's backup" {
	run --separate-stderr rg sed -i.bak s/a/b/ f
	assert_success
	refute_refused
	assert_content f b
	assert_content f.bak a
}

@test "t1015.02 sed -i~ replaces last time's ~ backup" {
	mkfile f~ 'last time'
	run --separate-stderr rg sed -i~ s/a/b/ f
	assert_success
	refute_refused
	assert_content f~ a
}

@test "t1015.03 perl -pi.orig replaces last time's backup" {
	command -v perl >/dev/null || skip "perl is not installed"
	mkfile f.orig 'last time'
	run --separate-stderr rg perl -pi.orig -e s/a/b/ f
	assert_success
	refute_refused
	assert_content f b
	assert_content f.orig a
}

@test "t1015.04 patch -b replaces last time's .orig" {
	command -v patch >/dev/null || skip "patch is not installed"
	mkfile f.orig 'last time'
	printf -- '--- f\n+++ f\n@@ -1 +1 @@\n-a\n+b\n' >fix.patch
	run --separate-stderr rg patch -b f fix.patch
	assert_success
	refute_refused
	assert_content f b
	assert_content f.orig a
}

@test "t1015.05 the replaced backup is journaled: undo brings it back" {
	rg sed -i.bak s/a/b/ f
	assert_content f.bak a
	run "$RG" undo f.bak
	assert_success
	assert_content f.bak 'last time'
}

@test "t1015.06 renaming an unread file onto its backup name is still refused" {
	snapshot f f.bak
	run --separate-stderr rg mv f f.bak
	assert_refused f.bak unread
	assert_unchanged f f.bak
}

@test "t1015.07 renaming a read file onto another file's backup name is still refused" {
	mkfile g 'g'
	snapshot f.bak
	run --separate-stderr rgsh 'cat g >/dev/null && mv g f.bak'
	assert_refused f.bak unread
	assert_unchanged f.bak
}

@test "t1015.08 renaming a read file onto a name that is no backup name is still refused" {
	mkfile f.keep 'keep'
	snapshot f.keep
	run --separate-stderr rgsh 'cat f >/dev/null && mv f f.keep'
	assert_refused f.keep unread
	assert_unchanged f.keep
}

@test "t1015.09 without a journal, sed -i.bak over an unread backup is refused" {
	snapshot f f.bak
	run --separate-stderr "$RG" run --no-journal --log "$LOG" -- sed -i.bak s/a/b/ f
	assert_failure
	assert_refused f.bak unread
	assert_unchanged f.bak
}

@test "t1015.10 sed -i.bak in a subdirectory replaces last time's backup" {
	mkdir sub
	mkfile sub/f 'a'
	mkfile sub/f.bak 'last time'
	run --separate-stderr rg sed -i.bak s/a/b/ sub/f
	assert_success
	refute_refused
	assert_content sub/f b
	assert_content sub/f.bak a
}

@test "t1015.11 a renameat of a read file onto its backup through two descriptors on one directory is journaled" {
	mkfile g 'g'
	mkfile g.bak 'last time'
	run --separate-stderr rg python3 -c "
import os
open('g').read()
a = os.open('.', os.O_RDONLY | os.O_DIRECTORY)
b = os.open('.', os.O_RDONLY | os.O_DIRECTORY)
os.rename('g', 'g.bak', src_dir_fd=a, dst_dir_fd=b)"
	assert_success
	refute_refused
	assert_content g.bak g
	run "$RG" undo g.bak
	assert_success
	assert_content g.bak 'last time'
}

# future FILE: an mtime an hour ahead, so the session's read of FILE is
# racy (its mtime is not a tick older than the read), as a read is of a
# file written a moment before: only the bytes can confirm what was read.
future() {
	touch -d "@$(($(date +%s) + 3600))" -- "$1"
}

@test "t1015.12 sed -i.bak of a file written just before its read replaces last time's backup" {
	future f
	run --separate-stderr rg sed -i.bak s/a/b/ f
	assert_success
	refute_refused
	assert_content f b
	assert_content f.bak a
	run "$RG" undo f.bak
	assert_success
	assert_content f.bak 'last time'
}

@test "t1015.13 patch -b of a file written just before its read replaces last time's .orig" {
	command -v patch >/dev/null || skip "patch is not installed"
	mkfile f.orig 'last time'
	printf -- '--- f\n+++ f\n@@ -1 +1 @@\n-a\n+b\n' >fix.patch
	future f
	run --separate-stderr rg patch -b f fix.patch
	assert_success
	refute_refused
	assert_content f b
	assert_content f.orig a
}

@test "t1015.14 a racy read, then a change that keeps mtime and size: moving the file onto its backup is refused" {
	future f
	m=$(mtime_ns f)
	snapshot f.bak
	bg_session 'cat f >/dev/null' 'mv f f.bak'
	env -u LD_PRELOAD -u READGUARD_SESSION sh -c 'printf "b\n" 1<>f; touch -d "@$1" f' sh "$m"
	bg_finish
	assert_failure
	assert_refused f.bak unread
	assert_unchanged f.bak
	assert_content f b
}

# GNU patch backs a file up by copying it when no hunk of a patch applies:
# a first session's patch left f.orig, and f is as it was again.
failed_patch_project() {
	command -v patch >/dev/null || skip "patch is not installed"
	mkfile f 'x'
	printf -- '--- f\n+++ f\n@@ -1 +1 @@\n-a\n+b\n' >fix.patch
	run "$RG" run --log "$LOG" -- patch f fix.patch
	assert_failure 1
	assert_file_exist f.orig f.rej
	make_old f.orig
}

@test "t1015.15 patch whose hunk fails again in a second session copies the file over last time's .orig" {
	failed_patch_project
	mkfile f 'y'
	run --separate-stderr rg patch f fix.patch
	refute_refused
	assert_failure 1 # the hunk failed, as it did in the first
	assert_content f.orig y
	run "$RG" undo f.orig
	assert_success
	assert_content f.orig x
}

@test "t1015.16 a copy onto the backup name of a file the session never read is still refused" {
	mkfile g 'g'
	snapshot f.bak
	run --separate-stderr rgsh 'cat g >/dev/null && cp g f.bak'
	assert_refused f.bak unread
	assert_unchanged f.bak
}

@test "t1015.17 a write onto the backup name of a file changed since the session read it is still refused" {
	snapshot f.bak
	bg_session 'cat f >/dev/null' 'echo blind >f.bak'
	external_write f 'changed'
	bg_finish
	assert_failure
	assert_refused f.bak unread
	assert_unchanged f.bak
}
