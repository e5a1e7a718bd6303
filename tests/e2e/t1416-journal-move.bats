#!/usr/bin/env bats
# A file moved away from its name (sed -i~, mv -b, cp -b and install -b move
# the original to a backup name and make a new file under its own) is kept
# as its name's version, so `readguard undo FILE` restores FILE's bytes from
# before the session, whatever became of the backup since. An atomic save's
# temp file, the session's own, keeps nothing.

load helper
load cli_helper

setup() {
	common_setup
	cli_setup
	J="$XDG_STATE_HOME/readguard/journal"
}

# ops FILE: the operations of the versions kept of FILE, one a line.
ops() {
	"$RG" history --json "$1" | sed -n 's/.*"op":"\([a-z]*\)".*/\1/p'
}

# strict_undo_restores SCRIPT: a.txt holds "original"; after bash runs
# SCRIPT in a --strict session, `readguard undo a.txt` brings it back.
strict_undo_restores() {
	local out
	out=$("$RG" run --strict -- true 2>&1) || skip "strict mode unavailable: $out"
	mkfile a.txt original
	run "$RG" run --strict --log "$LOG" -- bash -c "$1"
	assert_success
	run "$RG" undo a.txt
	assert_success
	assert_content a.txt original
}

@test "t1416.01 sed -i~: undo restores the original, which the backup holds" {
	mkfile a.txt original
	rg sed -i~ s/original/new/ a.txt
	assert_content a.txt new
	run "$RG" undo a.txt
	assert_success
	assert_content a.txt original
}

@test "t1416.02 sed -i~ twice: undo restores the original, though the second replaced its backup" {
	mkfile a.txt original
	rgsh 'sed -i~ s/original/first/ a.txt && sed -i~ s/first/second/ a.txt'
	assert_content a.txt~ first
	run "$RG" undo a.txt
	assert_success
	assert_content a.txt original
}

@test "t1416.03 mv -b: undo restores the file the move replaced, kept as its backup moved" {
	mkfile a.txt original
	mkfile new.txt replacement
	rg mv -b new.txt a.txt
	assert_content a.txt~ original
	run "$RG" undo a.txt
	assert_success
	assert_content a.txt original
}

@test "t1416.04 cp -b: undo restores the original, though its backup was removed since" {
	mkfile a.txt original
	mkfile new.txt replacement
	rgsh 'cp -b new.txt a.txt && rm a.txt~'
	assert_content a.txt replacement
	run "$RG" undo a.txt
	assert_success
	assert_content a.txt original
}

@test "t1416.05 install -b: undo restores the original" {
	mkfile a.txt original
	mkfile new.txt replacement
	rg install -b -m 644 new.txt a.txt
	run "$RG" undo a.txt
	assert_success
	assert_content a.txt original
}

@test "t1416.06 a write through the backup's name keeps the original first: undo restores it" {
	mkfile a.txt original
	rgsh 'sed -i~ s/original/new/ a.txt && echo more >>a.txt~'
	run "$RG" undo a.txt
	assert_success
	assert_content a.txt original
}

@test "t1416.07 history lists the move of the file, and diff shows the change since it" {
	mkfile a.txt original
	rg sed -i~ s/original/new/ a.txt
	assert_equal "$(ops a.txt)" move
	run "$RG" diff a.txt
	assert_failure 1
	assert_line -- '-original'
	assert_line -- '+new'
}

@test "t1416.08 undo --all restores a file sed -i~ replaced" {
	mkfile a.txt original
	rg sed -i~ s/original/new/ a.txt
	run "$RG" undo --all
	assert_success
	assert_content a.txt original
}

@test "t1416.09 mv: undo recreates the file under its old name, and leaves the new one" {
	mkfile a.txt original
	rgsh 'cat a.txt >/dev/null && mv a.txt b.txt && echo changed >b.txt'
	run "$RG" undo a.txt
	assert_success
	assert_content a.txt original
	assert_content b.txt changed
}

@test "t1416.10 an atomic save's temp file keeps nothing as it moves" {
	mkfile a.txt original
	rgsh 'cat a.txt >/dev/null && echo one >a.tmp && mv a.tmp a.txt && echo two >a.tmp && mv a.tmp a.txt'
	assert_equal "$(ops a.txt)" rename
	run --separate-stderr "$RG" history a.tmp
	assert_output ''
}

@test "t1416.11 mv onto a taken name keeps the move once, not for its RENAME_NOREPLACE try" {
	mkfile a.txt original
	mkfile b.txt other
	rgsh 'cat b.txt >/dev/null && strace -f -o "$OUT/st" -e trace=renameat2,rename,renameat mv a.txt b.txt'
	grep -q RENAME_NOREPLACE "$OUT/st" || skip "this mv does not try RENAME_NOREPLACE first"
	assert_equal "$(ops a.txt)" move
}

@test "t1416.12 a rename the kernel refuses (onto a directory) keeps no move" {
	mkfile a.txt original
	mkdir d
	rg python3 -c 'import os
try:
    os.rename("a.txt", "d")
except OSError:
    pass'
	assert_content a.txt original
	run --separate-stderr "$RG" history a.txt
	assert_output ''
}

@test "t1416.13 a static program's move under --supervise is kept by the supervisor" {
	out=$("$RG" run --supervise -- true 2>&1) || skip "supervised mode unavailable: $out"
	mkfile a.txt original
	run "$RG" run --supervise --log "$LOG" -- "$T/rgstatic" rename a.txt a.txt~ write a.txt new
	assert_success
	assert_content a.txt new
	run "$RG" undo a.txt
	assert_success
	assert_content a.txt original
}

@test "t1416.14 --strict: mv -b, then the backup replaced by a second one: undo restores the original" {
	out=$("$RG" run --strict -- true 2>&1) || skip "strict mode unavailable: $out"
	mkfile a.txt original
	mkfile n1 first
	mkfile n2 second
	run "$RG" run --strict --log "$LOG" -- bash -c 'cat n1 >/dev/null && mv -b n1 a.txt && mv -b n2 a.txt'
	assert_success
	assert_content a.txt~ first
	run "$RG" undo a.txt
	assert_success
	assert_content a.txt original
}

@test "t1416.15 --strict: sed -i~ twice, undo restores the original" {
	strict_undo_restores 'sed -i~ s/original/first/ a.txt && sed -i~ s/first/second/ a.txt'
}

@test "t1416.16 the move is kept by a link to the inode, no copy, and named by content when the run ends" {
	mkdir -p "$J/objects"
	mkfile a.txt original
	local ino
	ino=$(stat -c %i a.txt)
	rgsh "sed -i~ s/original/new/ a.txt; ls '$J/objects' >'$OUT/during'"
	assert_equal "$(grep -c "^ino-[0-9]*-$ino-[0-9]*\$" "$OUT/during")" 1
	assert_equal "$(grep -c . "$OUT/during")" 1
	assert_equal "$(stat -c %h a.txt~)" 1
	assert_equal "$(cat "$J/objects/$(sha256sum <<<original | cut -d' ' -f1)")" original
}

@test "t1416.17 a backup written from outside the session before undo is refused, not restored" {
	mkfile a.txt original
	new_session
	in_session sed -i~ s/original/new/ a.txt
	external_write a.txt~ tampered
	run --separate-stderr "$RG" undo a.txt
	assert_failure 2
	assert_content a.txt new
}

@test "t1416.18 touch of the moved file in the session: undo restores the original" {
	mkfile a.txt original
	rgsh 'mv a.txt b.txt && touch b.txt'
	run "$RG" undo a.txt
	assert_success
	assert_content a.txt original
	assert_content b.txt original
}

@test "t1416.19 times set by name on sed -i~'s backup in the session: undo restores the original" {
	mkfile a.txt original
	rgsh 'sed -i~ s/original/new/ a.txt && python3 -c "import os; os.utime(\"a.txt~\", (0, 0))"'
	run "$RG" undo a.txt
	assert_success
	assert_content a.txt original
}

@test "t1416.20 --strict: touch of the moved file, kept by the supervisor: undo restores the original" {
	strict_undo_restores 'mv a.txt b.txt && touch -d 2001-01-01 b.txt'
}

@test "t1416.21 the moved file changed after the session: undo refuses, and --force restores it" {
	mkfile a.txt original
	rgsh 'mv a.txt b.txt && touch -d 2001-01-01 b.txt'
	mkfile a.txt other
	run --separate-stderr "$RG" undo a.txt
	assert_failure
	assert_content a.txt other
	run "$RG" undo --force a.txt
	assert_success
	assert_content a.txt original
}

@test "t1416.22 undo --all leaves the backup a second sed -i~ replaced, a name the session made" {
	mkfile a.txt original
	rgsh 'sed -i~ s/original/first/ a.txt && sed -i~ s/first/second/ a.txt'
	run "$RG" undo --all
	assert_success
	assert_content a.txt original
	assert_content a.txt~ first
}

@test "t1416.23 undo --all restores a backup there before the session, which sed -i~ replaced" {
	mkfile a.txt original
	mkfile a.txt~ older
	rgsh 'sed -i~ s/original/first/ a.txt && sed -i~ s/first/second/ a.txt'
	run "$RG" undo --all
	assert_success
	assert_content a.txt original
	assert_content a.txt~ older
}

@test "t1416.24 undo --all leaves a name a file was moved to and then moved away from" {
	mkfile a.txt original
	rgsh 'mv a.txt b.txt && cat b.txt >/dev/null && echo new >c.txt && mv c.txt b.txt'
	run "$RG" undo --all
	assert_success
	assert_content a.txt original
	assert_content b.txt new
}

@test "t1416.25 undo --all does not recreate a name a file passed through: mv a b, mv b a" {
	mkfile a.txt original
	rgsh 'mv a.txt b.txt && mv b.txt a.txt'
	run "$RG" undo --all
	assert_success
	assert_content a.txt original
	[ ! -e b.txt ]
}

@test "t1416.26 sed -i~ twice on a file over the size cap: nothing logged as not kept, and undo restores it" {
	yes original | head -c 8192 >a.txt
	cp a.txt "$OUT/orig"
	run --separate-stderr "$RG" run --journal-max-file 4K --log "$LOG" -- \
		bash -c 'sed -i~ s/original/first/ a.txt && sed -i~ s/first/second/ a.txt'
	assert_success
	assert_equal "$stderr" ""
	run grep -qs '"decision":"unsaved"' "$LOG"
	assert_failure
	run "$RG" undo a.txt
	assert_success
	cmp a.txt "$OUT/orig"
}

@test "t1416.27 a file over the size cap with a hard link of its own, renamed over: logged as not kept" {
	yes original | head -c 8192 >a.txt
	ln a.txt other.txt
	run --separate-stderr "$RG" run --journal-max-file 4K --log "$LOG" -- \
		bash -c 'cat a.txt >/dev/null && echo new >c.txt && mv c.txt a.txt'
	assert_success
	grep -q '"decision":"unsaved","reason":"too-large"' "$LOG"
}

# Under its new name out of the roots a file is written unseen: a link to
# it in the journal took those writes, and undo then found the file "as it
# was before the session".
@test "t1416.28 mv of a read file out of the roots, written there and moved back: undo restores the original" {
	mkfile a.txt original
	rgsh 'cat a.txt >/dev/null && mv a.txt "$OUT/a.txt" && echo changed >"$OUT/a.txt" && mv "$OUT/a.txt" a.txt'
	assert_content a.txt changed
	run "$RG" undo a.txt
	assert_success
	assert_content a.txt original
}

@test "t1416.29 --strict: mv of a read file to a free name (a.o), written there and moved back: undo restores the original" {
	strict_undo_restores 'cat a.txt >/dev/null && mv a.txt a.o && echo changed >a.o && mv a.o a.txt'
}

# A link is a name too: writes through one out of the roots change the file
# in place, unseen, so its bytes are kept as the link is made.
@test "t1416.30 ln of a read file out of the roots, written through that name: undo restores the original" {
	mkfile a.txt original
	rgsh 'cat a.txt >/dev/null && ln a.txt "$OUT/a.txt" && echo changed >"$OUT/a.txt"'
	assert_content a.txt changed
	run "$RG" undo a.txt
	assert_success
	assert_content a.txt original
}

@test "t1416.31 --strict: ln of a read file to a free name (a.o), written through it: undo restores the original" {
	strict_undo_restores 'cat a.txt >/dev/null && ln a.txt a.o && echo changed >a.o'
}

# A directory moved out takes its files out of scope together.
@test "t1416.32 mv of a directory out of the roots, a read file in it written there, moved back: undo restores the original" {
	mkdir -p sub/deep
	mkfile sub/deep/a.txt original
	rgsh 'cat sub/deep/a.txt >/dev/null && mv sub "$OUT/sub" && echo changed >"$OUT/sub/deep/a.txt" && mv "$OUT/sub" sub'
	assert_content sub/deep/a.txt changed
	run "$RG" undo sub/deep/a.txt
	assert_success
	assert_content sub/deep/a.txt original
}

@test "t1416.33 --strict: mv of a directory to a free name (build), a read file in it written there, moved back: undo restores the original" {
	strict_undo_restores 'mkdir sub && cat a.txt >/dev/null && mv a.txt sub/ && mv sub build && echo changed >build/a.txt && mv build/a.txt a.txt'
}
