#!/usr/bin/env bats
# errno through every hooked entry point (rgerrno drives each one): kept on
# success, exactly EACCES on a refusal, ENOENT under a missing directory.

load helper

@test "t3250.01 every hooked entry point keeps errno when it succeeds" {
	run --separate-stderr rg "$T/rgerrno" success
	assert_success
	refute_output --partial FAIL
	[ "$(grep -c ' ok$' <<<"$output")" -eq 46 ] || fail "expected 46 calls: $output"
	refute_refused
}

@test "t3250.02 every hooked write refused fails with exactly EACCES" {
	mkfile unread original
	snapshot unread
	run --separate-stderr rg "$T/rgerrno" refused
	assert_success
	refute_output --partial FAIL
	[ "$(grep -c ' ok$' <<<"$output")" -eq 31 ] || fail "expected 31 calls: $output"
	assert_unchanged unread
}

@test "t3250.03 a write under a directory that does not exist fails with ENOENT, not a refusal" {
	run --separate-stderr rg "$T/rgerrno" enoent
	assert_success
	refute_output --partial FAIL
	[ "$(grep -c ' ok$' <<<"$output")" -eq 21 ] || fail "expected 21 calls: $output"
	refute_refused
}

@test "t3250.04 errno is kept by successful calls in a process that created its session itself" {
	run --separate-stderr env LD_PRELOAD="$SHIM" "$T/rgerrno" success
	assert_success
	refute_output --partial FAIL
}
