#!/usr/bin/env bats
# The journaled tier outside git: a directory its tools tagged as a cache
# (a CACHEDIR.TAG that begins with the Cache Directory Tagging
# Specification's signature, https://bford.info/cachedir/) is journaled,
# from the tagged directory down, as what git ignores is (t1010). Each test
# is a second session in a project that is no git work tree.

load helper

SIG='Signature: 8a477f597d28d172789f06886806bc55'

setup() {
	outside_git_setup
}

# tag DIR [CONTENT]: DIR (made) holds a CACHEDIR.TAG with CONTENT, by
# default the signature and the comment tools write after it.
tag() {
	mkdir -p "$1"
	printf '%s\n' "${2-$SIG
# This file is a cache directory tag.}" >"$1/CACHEDIR.TAG"
}

# blind PATH...: one session overwrites each PATH without reading it.
blind() {
	"$RG" run --log "$LOG" "${RG_OPTS[@]}" -- bash -c '
		for p in "$@"; do printf "new\n" >"$p"; done' bash "$@"
}

@test "t1011.01 journaled: an unread file in a tagged cache directory is written, and undo brings it back" {
	tag .cache-of-tool
	mkfile .cache-of-tool/stepwise old
	run --separate-stderr blind .cache-of-tool/stepwise
	assert_success
	refute_refused
	assert_content .cache-of-tool/stepwise new
	run "$RG" undo .cache-of-tool/stepwise
	assert_success
	assert_content .cache-of-tool/stepwise old
}

@test "t1011.02 a CACHEDIR.TAG without the signature unlocks nothing" {
	tag c 'Signature: 8a477f597d28d172789f06886806bc5X'
	mkfile c/data old
	snapshot c/data
	run --separate-stderr blind c/data
	assert_refused c/data unread
	assert_unchanged c/data
}

@test "t1011.03 a symbolic link named CACHEDIR.TAG to a real tag unlocks nothing" {
	tag "$OUT/real"
	mkdir c
	ln -s "$OUT/real/CACHEDIR.TAG" c/CACHEDIR.TAG
	mkfile c/data old
	snapshot c/data
	run --separate-stderr blind c/data
	assert_refused c/data unread
	assert_unchanged c/data
}

@test "t1011.04 a tag in a parent directory counts for the files below it" {
	tag .pytest_cache
	mkdir -p .pytest_cache/v/cache
	mkfile .pytest_cache/v/cache/stepwise '[]'
	run --separate-stderr blind .pytest_cache/v/cache/stepwise
	assert_success
	refute_refused
	run "$RG" undo .pytest_cache/v/cache/stepwise
	assert_success
	assert_content .pytest_cache/v/cache/stepwise '[]'
}

@test "t1011.05 a tag above the root does not count" {
	tag .
	mkdir sub
	mkfile sub/data old
	snapshot sub/data
	cd sub
	run --separate-stderr blind data
	assert_refused data unread
	cd "$W"
	assert_unchanged sub/data
}

@test "t1011.06 without a journal, a file in a tagged cache is guarded" {
	tag c
	mkfile c/data old
	snapshot c/data
	RG_OPTS=(--no-journal)
	run --separate-stderr blind c/data
	assert_refused c/data unread
	assert_unchanged c/data
}

@test "t1011.07 a static program under --supervise writes a file in a tagged cache; undo brings it back" {
	out=$("$RG" run --supervise -- true 2>&1) || skip "supervised mode unavailable: $out"
	tag c
	mkfile c/data old
	run --separate-stderr "$RG" run --supervise --log "$LOG" -- "$T/rgstatic" write c/data static
	assert_success
	refute_refused
	assert_content c/data static
	run "$RG" undo c/data
	assert_success
	assert_content c/data old
}

@test "t1011.08 pytest run again in a second session, outside git, writes its cache without a warning" {
	export PATH="/usr/bin:/bin:$PATH"
	unset PYTEST_ADDOPTS PYTHONDONTWRITEBYTECODE
	python3 -m pytest --version >/dev/null 2>&1 || skip "pytest is not installed"
	mkdir tests
	printf 'def test_one():\n    assert True\n' >tests/test_one.py
	# Every run rewrites .pytest_cache/v/cache/stepwise, which it never reads.
	python3 -m pytest -q >/dev/null
	assert_file_exist .pytest_cache/CACHEDIR.TAG .pytest_cache/v/cache/stepwise
	run --separate-stderr "$RG" run --log "$LOG" -- python3 -m pytest -q
	assert_success
	refute_refused
	refute_output --partial PytestCacheWarning
	[[ $stderr != *PytestCacheWarning* ]] || fail "pytest warned: $stderr"
}

@test "t1011.09 with nested roots a tag between them does not count under the inner root" {
	tag mid
	mkdir -p mid/sub
	mkfile mid/sub/data old
	snapshot mid/sub/data
	RG_OPTS=(--root "$W" --root "$W/mid/sub")
	run --separate-stderr blind mid/sub/data
	assert_refused mid/sub/data unread
	assert_unchanged mid/sub/data
}
