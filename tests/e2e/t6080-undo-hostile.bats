#!/usr/bin/env bats
# A tree that prepares the journal for the undo its user runs later, from
# outside the session: what undo writes must be the kept version's bytes.
# Each session runs as uid 65534 (tests/e2e/escape.bash), in preload mode,
# where the journal is a directory the tree may write (LIMITATIONS).

load helper
load escape

setup() {
	esc_require
	esc_setup
	J="$ESC/.local/state/readguard/journal"
}

teardown() {
	esc_teardown
}

# The tree reads f and overwrites it (kept), then writes its own bytes
# into the version the journal kept of it.
@test "t6080.01 a kept version the tree rewrote in the journal is not what undo restores" {
	esc_session preload 'cat f >/dev/null; echo PWN >f
		for o in "$HOME"/.local/state/readguard/journal/objects/*; do
			[ -f "$o" ] && printf "EVIL!!!!!\n" >"$o"
		done'
	grep -rlq 'EVIL' "$J/objects" || fail "the tree could not rewrite the version: $(cat "$ESC/out")"
	: >"$ESC/out"
	esc_drop "$RG" undo --force "$ESC/root/f" >>"$ESC/out" 2>&1 && fail "undo succeeded: $(cat "$ESC/out")"
	run cat "$ESC/root/f"
	assert_output PWN # as the session left it: nothing restored
	grep -q "undo" "$ESC/out" || fail "undo said nothing: $(cat "$ESC/out")"
}

# The tree removes sub/f (kept), then puts a symbolic link to a directory
# outside the root where sub was: undo walks down from / and follows no
# link, so the removed file is not recreated through it.
@test "t6080.02 undo of a removed file whose directory the tree swapped for a link out writes nothing outside" {
	esc_session preload 'rm sub/f; mv sub sub.moved; ln -s "$OUT" sub'
	[ -L "$ESC/root/sub" ] || fail "the tree could not plant the link: $(cat "$ESC/out")"
	: >"$ESC/out"
	esc_drop "$RG" undo --force "$ESC/root/sub/f" >>"$ESC/out" 2>&1 || true
	assert_file_not_exist "$ESC/outside/f"
	(cd "$ESC/root" && esc_drop "$RG" undo --all --force) >>"$ESC/out" 2>&1 || true
	assert_file_not_exist "$ESC/outside/f"
	[ -L "$ESC/root/sub" ] || fail "undo replaced the link"
}

# The same under --strict, where the removal is the supervisor's, and the
# link a call the filter lets through.
@test "t6080.03 undo of a file removed under --strict whose directory the tree swapped for a link out writes nothing outside" {
	"$RG" run --strict -- true 2>/dev/null || skip "supervised mode unavailable here"
	esc_session strict 'rm sub/f; mv sub sub.moved; ln -s "$OUT" sub'
	[ -L "$ESC/root/sub" ] || fail "the tree could not plant the link: $(cat "$ESC/out")"
	: >"$ESC/out"
	esc_drop "$RG" undo --force "$ESC/root/sub/f" >>"$ESC/out" 2>&1 || true
	(cd "$ESC/root" && esc_drop "$RG" undo --all --force) >>"$ESC/out" 2>&1 || true
	assert_file_not_exist "$ESC/outside/f"
}
