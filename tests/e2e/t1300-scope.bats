#!/usr/bin/env bats
# Scope on the resolved path, and reads outside every root: skipped without
# an fstat when their directory resolves outside the roots.

load helper

@test "t1300.01 a read through a directory symlink outside the root that leads inside counts" {
	mkfile f original
	ln -s "$W" "$OUT/link"
	run --separate-stderr rgsh "cat '$OUT/link/f' >/dev/null && echo new > f"
	assert_success
	refute_refused
	assert_content f new
}

@test "t1300.02 a read by a relative path from outside the root counts" {
	mkfile f original
	run --separate-stderr rgsh "cd '$OUT' && cat ../w/f >/dev/null && cd '$W' && echo new > f"
	assert_success
	refute_refused
	assert_content f new
}

@test "t1300.03 a read through a hard link outside the roots is not recorded (documented)" {
	mkfile f original
	ln f "$OUT/hard"
	snapshot f
	run --separate-stderr rgsh "cat '$OUT/hard' >/dev/null && echo new > f"
	assert_failure
	assert_refused f unread
	assert_unchanged f
}

@test "t1300.04 a write through a symlink inside the root that points outside is free" {
	mkfile "$OUT/data" original
	ln -s "$OUT/data" link
	run --separate-stderr rgsh 'echo new > link'
	assert_success
	refute_refused
	assert_content "$OUT/data" new
}

@test "t1300.05 a read then a write outside the root go through" {
	mkfile "$OUT/g" original
	run --separate-stderr rgsh "cat '$OUT/g' >/dev/null && echo new > '$OUT/g'"
	assert_success
	refute_refused
	assert_content "$OUT/g" new
}

# The roots are compared by another way after a read outside them
# (guard/dircache.c): the same answers.
@test "t1300.06 a read by its absolute path right after one outside the root counts" {
	mkfile f original
	mkfile "$OUT/g" other
	run --separate-stderr rgsh "cat '$OUT/g' '$W/f' >/dev/null && echo new > f"
	assert_success
	refute_refused
	assert_content f new
}

@test "t1300.07 a read through a directory symlink right after one outside the root counts" {
	mkfile f original
	mkfile "$OUT/g" other
	ln -s "$W" "$OUT/link"
	run --separate-stderr rgsh "cat '$OUT/g' '$OUT/link/f' >/dev/null && echo new > f"
	assert_success
	refute_refused
	assert_content f new
}
