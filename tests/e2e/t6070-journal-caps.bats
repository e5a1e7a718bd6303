#!/usr/bin/env bats
# A tree against the journal's caps: READGUARD_JOURNAL_MAX_FILE, the most a
# file's copy may take, and the room the journal has.

load helper
load cli_helper

setup() {
	common_setup
	cli_setup
	SHM_STATE=
}

teardown() {
	[ -z "${SHM_STATE:-}" ] || rm -rf "$SHM_STATE"
	common_teardown
}

# Across file systems (a journal on tmpfs, the file on another), neither a
# reflink nor copy_file_range copies: the journal reads and writes. A file
# grown meanwhile (truncate -s takes no room, from any process) had that
# copy read on to its new end, writing zeros past the per-file cap until
# the disk was full.
@test "t6070.01 a file grown while the session copies it to a journal on another file system is kept at the size it had" {
	need_strace
	[ "$(stat -f -c %T "$W")" != tmpfs ] || skip "the test directory is on tmpfs, as the journal would be"
	SHM_STATE=$(mktemp -d /dev/shm/rg-caps.XXXXXX)
	export XDG_STATE_HOME="$SHM_STATE" READGUARD_JOURNAL_MAX_FILE=1M
	head -c 200000 /dev/urandom >f
	touch -d "1 minute ago" f # past the tick: the read hashes nothing
	cp f "$BATS_TEST_TMPDIR/f.orig"
	# The journal's first read of f is held, as f grows to 64 MiB.
	strace -f -o "$BATS_TEST_TMPDIR/tr" -P "$W/f" -e trace=pread64 -e inject=pread64:delay_enter=1500000:when=1 \
		"$RG" run --log "$LOG" -- sh -c 'cat f >/dev/null; echo x >f' &
	local pid=$!
	await_trace "$BATS_TEST_TMPDIR/tr" pread64
	truncate -s 64M f
	wait "$pid" || fail "the session failed: $(cat "$LOG")"
	run find "$SHM_STATE/readguard/journal" -type f -size +1M
	assert_output ""
	"$RG" undo f
	cmp f "$BATS_TEST_TMPDIR/f.orig" || fail "undo did not bring back f's bytes"
}
