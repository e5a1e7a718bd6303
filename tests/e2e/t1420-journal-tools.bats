#!/usr/bin/env bats
# The journal under more real tools and a journal that cannot take more:
# rsync's replace-by-rename and its in-place writes, an MCP filesystem
# server's write_file, and a full file system under the journal.

load helper
load cli_helper

setup() {
	common_setup
	cli_setup
	J="$XDG_STATE_HOME/readguard/journal"
	MCP="$TOP/tests/e2e/fixtures/mcp-fs-server.py"
}

# src FILE TEXT: a source tree in $OUT/src with FILE holding TEXT, newer
# than the work tree's copy (rsync's quick check then sends it).
src() {
	mkdir -p "$OUT/src"
	printf '%s\n' "$2" >"$OUT/src/$1"
}

# rsync opens the file it replaces read-only (the basis of its delta), and
# that open counts as a read; what makes replacing it safe is the journal.
@test "t1420.01 rsync -a src/ ./ over a file the session never read: kept, and undo brings it back" {
	command -v rsync >/dev/null || skip "rsync is not installed"
	mkfile a.txt original
	src a.txt from-src
	rg rsync -a "$OUT/src/" ./
	assert_equal "$(cat a.txt)" from-src
	run "$RG" history a.txt
	assert_output --partial "rsync["
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" original
}

@test "t1420.02 rsync --inplace over a file: kept before it is rewritten, undo brings it back" {
	command -v rsync >/dev/null || skip "rsync is not installed"
	mkfile a.txt 'original, and longer than the new one'
	src a.txt short
	rg rsync -a --inplace --no-whole-file "$OUT/src/" ./
	assert_equal "$(cat a.txt)" short
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" 'original, and longer than the new one'
}

@test "t1420.03 rsync --delete removes a file: undo recreates it" {
	command -v rsync >/dev/null || skip "rsync is not installed"
	mkfile gone.txt 'only here'
	src a.txt from-src
	rg rsync -a --delete "$OUT/src/" ./
	assert_file_not_exist gone.txt
	"$RG" undo gone.txt
	assert_equal "$(cat gone.txt)" 'only here'
}

@test "t1420.04 an MCP server's write_file after read_file: kept, and undo brings the old text back" {
	mkfile notes.txt original
	local req='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"bats","version":"0"}}}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"notes.txt"}}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"notes.txt","content":"written by the agent\n"}}}'
	run --separate-stderr "$RG" run --log "$LOG" -- python3 "$MCP" <<<"$req"
	assert_success
	[[ ${lines[2]} != *isError* ]] || fail "write_file failed: $output"
	assert_equal "$(cat notes.txt)" "written by the agent"
	run "$RG" history notes.txt
	assert_output --partial "truncate"
	"$RG" undo notes.txt
	assert_equal "$(cat notes.txt)" original
}

# A full journal: a file system with no room left under it. The change goes
# ahead (readguard never fails a write for its own bookkeeping), with one
# warning naming ENOSPC, and the log says what was not kept.
@test "t1420.05 a full journal: the writes go ahead, one warning, each logged as unsaved" {
	[ "$(id -u)" = 0 ] || skip "needs root to mount a small file system"
	unshare -m true 2>/dev/null || skip "no mount namespaces here"
	head -c 300000 /dev/urandom >big1
	head -c 300000 /dev/urandom >big2
	mkdir -p "$J"
	local script='cat big1 big2 >/dev/null; echo new1 >big1; echo new2 >big2'
	run --separate-stderr unshare -m sh -c 'mount -t tmpfs -o size=256k tmpfs "$1" &&
		exec "$2" run --log "$3" -- sh -c "$4"' sh "$J" "$RG" "$LOG" "$script"
	assert_success
	assert_equal "$(cat big1)" new1
	assert_equal "$(cat big2)" new2
	assert_equal "$(grep -c 'were not kept in the journal' <<<"$stderr")" 1
	[[ $stderr == *ENOSPC* ]] || fail "the warning does not say the journal is full: $stderr"
	assert_equal "$(grep -c '"decision":"unsaved","reason":"journal-unwritable"' "$LOG")" 2
}

# The journal's own cap (READGUARD_JOURNAL_MAX) is kept when a run ends, by
# pruning; a session never fails or skips a save for it meanwhile.
@test "t1420.06 a journal over its cap still keeps the running session's files, and prunes to the cap after" {
	mkfile old.txt old
	rg rm old.txt
	rm -f "$J/.pruned"
	mkfile a.txt 'a content'
	mkfile b.txt 'b content'
	READGUARD_JOURNAL_MAX=1 rg rm a.txt b.txt
	run "$RG" history --json
	assert_equal "${#lines[@]}" 2
	"$RG" undo a.txt b.txt
	assert_equal "$(cat a.txt b.txt)" "$(printf 'a content\nb content')"
	run "$RG" undo old.txt
	assert_failure 1
}

# The journal keeps a file by FICLONE where its file system shares extents:
# on XFS with reflink (made on a loop device, in a mount namespace of the
# test's own), the kept version of an 8 MiB file takes no blocks of its own.
@test "t1420.07 on a file system that shares extents the kept version shares the file's blocks (reflink)" {
	[ "$(id -u)" = 0 ] || skip "needs root to mount a file system"
	command -v mkfs.xfs >/dev/null && command -v xfs_io >/dev/null || skip "xfsprogs is not installed"
	unshare -m true 2>/dev/null || skip "no mount namespaces here"
	truncate -s 320M "$OUT/xfs.img"
	mkfs.xfs -q -m reflink=1 "$OUT/xfs.img" || skip "mkfs.xfs cannot make a reflink file system"
	mkdir "$OUT/mnt"
	local script='mount -o loop "$1/xfs.img" "$1/mnt" 2>/dev/null || exit 77
cd "$1/mnt" && head -c 8388608 /dev/urandom >big && cp big want
XDG_STATE_HOME=$PWD/state "$2" run -- python3 -c "
open(\"big\", \"rb\").read()
with open(\"big\", \"r+b\") as f: f.write(b\"x\")" || exit 1
xfs_io -r -c "fiemap -v" state/readguard/journal/objects/* >"$1/fiemap"
XDG_STATE_HOME=$PWD/state "$2" undo big && cmp big want'
	run --separate-stderr unshare -m sh -c "$script" sh "$OUT" "$RG"
	[ "$status" != 77 ] || skip "cannot mount a loop device here"
	assert_success
	# FIEMAP_EXTENT_SHARED (0x2000) on every extent of the kept version.
	local ext flags n=0
	while read -r ext _ _ _ flags; do
		[[ $ext == [0-9]*: ]] || continue
		n=$((n + 1))
		((flags & 0x2000)) || fail "an extent of the kept version is its own: $(cat "$OUT/fiemap")"
	done <"$OUT/fiemap"
	((n > 0)) || fail "no extents listed: $(cat "$OUT/fiemap")"
}

# The journal keeps a symbolic link rsync removes by a link to it, as it
# keeps the regular file beside it: undo --all brings back both.
@test "t1420.08 rsync --delete removes a symbolic link: undo --all brings it back, and the file beside it" {
	command -v rsync >/dev/null || skip "rsync is not installed"
	mkfile gone.txt 'only here'
	ln -s gone.txt link
	src a.txt from-src
	rg rsync -a --delete "$OUT/src/" ./
	[ ! -L link ] || fail "rsync left the link"
	run "$RG" undo --all
	assert_equal "$(cat gone.txt)" 'only here'
	[ -L link ] || fail "undo did not bring the link back"
	assert_equal "$(readlink link)" gone.txt
}
