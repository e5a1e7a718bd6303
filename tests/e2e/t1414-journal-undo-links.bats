#!/usr/bin/env bats
# undo in a tree that turns hostile: it restores a file in the directory the
# journal names, reached without following a symbolic link, and opened once
# for every step, so a directory swapped for a link, before undo or while it
# runs, never leads a restore into another directory (root's undo of a
# user's tree would write where that user points).

load helper
load cli_helper

setup() {
	common_setup
	cli_setup
	J="$XDG_STATE_HOME/readguard/journal"
}

@test "t1414.01 undo --all does not recreate a removed file's directories through a symbolic link" {
	mkdir -p sub/deep elsewhere
	mkfile sub/deep/f old
	rg rm -r sub/deep
	mv sub sub.away
	ln -s elsewhere sub
	run --separate-stderr "$RG" undo --all
	assert_failure 1
	assert_equal "$(ls -A elsewhere)" ''
	assert_equal "$(ls -A sub.away)" ''
	assert_regex "$stderr" "readguard: undo: '$W/sub/deep/f': '$W/sub' on its way is a symbolic link now, not the directory the session changed it in: undo does not follow it$"
}

@test "t1414.02 a directory swapped for a symbolic link while undo restores leads no step of it elsewhere" {
	need_strace
	mkdir sub elsewhere
	mkfile sub/f old
	rgsh 'cat sub/f >/dev/null && echo current >sub/f'
	# The restore is held as it enters, by the file's path or its directory's.
	strace -f -o "$BATS_TEST_TMPDIR/strace" -P "$W/sub/f" -P "$W/sub" -e trace=rename,renameat,renameat2 \
		-e inject=rename,renameat,renameat2:delay_enter=3000000:when=1 \
		"$RG" undo sub/f 2>"$BATS_TEST_TMPDIR/undo.err" &
	local undoer=$! staged
	await_trace "$BATS_TEST_TMPDIR/strace" 'rename|renameat|renameat2'
	staged=$(cd sub && compgen -G '.f.rg-undo-*') || fail "nothing staged: $(cat "$BATS_TEST_TMPDIR/undo.err")"
	# The hostile tree: sub is now a link to a directory with a file of
	# its choosing at the staged name, beside a victim.
	printf 'victim\n' >elsewhere/f
	printf 'planted\n' >"elsewhere/$staged"
	mv sub sub.away
	ln -s elsewhere sub
	kill -0 "$undoer" || fail "undo was done before the tree changed: its restore was not held"
	local status=0
	wait "$undoer" || status=$?
	grep -q 'RENAME_EXCHANGE) = 0 (DELAYED)$' "$BATS_TEST_TMPDIR/strace" || fail "no held exchange"
	assert_equal "$(cat elsewhere/f)" victim
	assert_equal "$(cat "elsewhere/$staged")" planted
	assert_equal "$(cat sub.away/f)" old
	assert_equal "$status" 0
}

# readguard(1), undo: the restore is a new inode at the name; the journal
# kept a version under the name written through, not under its aliases.
@test "t1414.03 undo of a hard-linked name restores that name; the other link keeps the present bytes until ln -f" {
	mkfile one old
	ln one two
	rg sh -c 'cat two >/dev/null && echo new >two'
	assert_content one new
	run --separate-stderr "$RG" undo two
	assert_success
	assert_content two old
	assert_content one new
	run --separate-stderr "$RG" undo one
	assert_failure 1
	ln -f two one
	assert_content one old
}

# undo_over_planted LN_OPT: the session removes f and plants a link (ln
# LN_OPT) to a file outside at its name; undo replaces the name, never
# writes through it, so the file the link leads to keeps its bytes.
undo_over_planted() {
	local out="$BATS_TEST_TMPDIR/elsewhere"
	mkdir "$out"
	printf 'victim\n' >"$out/v"
	mkfile f old
	rgsh "cat f >/dev/null && echo new >f && rm f && ln $1 '$out/v' f"
	run --separate-stderr "$RG" undo f
	assert_success
	assert_equal "$(cat "$out/v")" victim
	[ ! -L f ] || fail "f is still a link"
	assert_equal "$(cat f)" old
}

@test "t1414.04 undo of a file the session replaced by a symbolic link leaves the link's target as it was" {
	undo_over_planted -s
}

@test "t1414.05 undo of a file the session replaced by a hard link to another file leaves that file as it was" {
	undo_over_planted ''
}
