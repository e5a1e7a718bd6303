#!/usr/bin/env bats
# The journaled tier outside git: an SQLite database (a regular file whose
# first 16 bytes are "SQLite format 3" and a NUL), and the files its library
# keeps beside it (NAME-wal, NAME-shm, NAME-journal, when NAME is one), are
# journaled, as a git-ignored path is (t1010): sqlite3_open opens the
# database for writing before it reads a byte. Each test is a second
# session in a project that is no git work tree.

load helper

setup() {
	outside_git_setup
	python3 -c 'import sqlite3' 2>/dev/null || skip "python3's sqlite3 module is not installed"
}

# db FILE [wal]: FILE becomes a database holding the row "first" (in WAL
# mode, left with its -wal and -shm as a program killed mid-run leaves
# them), made outside any session.
db() {
	python3 - "$@" <<-'PY'
		import os, sqlite3, sys
		c = sqlite3.connect(sys.argv[1])
		if sys.argv[2:] == ["wal"]:
		    c.execute("PRAGMA journal_mode=WAL")
		c.execute("CREATE TABLE notes(body TEXT)")
		c.execute("INSERT INTO notes VALUES ('first')")
		c.commit()
		if sys.argv[2:] == ["wal"]:
		    os._exit(0)  # no checkpoint: the -wal and -shm stay
	PY
}

# add FILE [OPTION...]: a session inserts the row "second" into FILE.
add() {
	local f=$1
	shift
	"$RG" run --log "$LOG" "$@" -- python3 -c '
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("INSERT INTO notes VALUES (\"second\")")
c.commit()
c.close()' "$f"
}

# rows FILE: the rows of FILE's table, one per line.
rows() {
	python3 -c '
import sqlite3, sys
for (b,) in sqlite3.connect(sys.argv[1]).execute("SELECT body FROM notes"):
    print(b)' "$1"
}

# blind PATH...: one session overwrites each PATH without reading it.
blind() {
	"$RG" run --log "$LOG" "${RG_OPTS[@]}" -- bash -c '
		for p in "$@"; do printf "new\n" >"$p"; done' bash "$@"
}

@test "t1013.01 python3's sqlite3 writes an existing database in a second session; undo brings the old one back" {
	db app.db
	run --separate-stderr add app.db
	assert_success
	refute_refused
	assert_equal "$(rows app.db)" "first
second"
	run "$RG" undo app.db
	assert_success
	assert_equal "$(rows app.db)" first
}

@test "t1013.02 a database in WAL mode, its -wal and -shm left behind, is written; undo brings all three back" {
	db app.db wal
	assert_file_exist app.db-wal app.db-shm
	run --separate-stderr add app.db
	assert_success
	refute_refused
	assert_equal "$(rows app.db)" "first
second"
	run "$RG" undo app.db app.db-wal app.db-shm
	assert_success
	assert_equal "$(rows app.db)" first
}

@test "t1013.03 a rollback journal kept beside its database is rewritten" {
	db app.db
	mkfile app.db-journal 'left by journal_mode=PERSIST'
	run --separate-stderr blind app.db-journal
	assert_success
	refute_refused
	run "$RG" undo app.db-journal
	assert_success
	assert_content app.db-journal 'left by journal_mode=PERSIST'
}

@test "t1013.04 a file that does not begin with SQLite's header stays guarded" {
	db real.db
	printf 'SQLite format 2\0 and more\n' >app.db
	snapshot app.db
	run --separate-stderr blind app.db real.db
	assert_refused app.db unread
	assert_unchanged app.db
}

@test "t1013.05 a file named x-wal beside a file that is no database stays guarded" {
	db real.db
	mkfile x 'plain text'
	mkfile x-wal old
	mkfile real.db-wal old
	snapshot x-wal
	run --separate-stderr blind x-wal real.db-wal
	assert_refused x-wal unread
	assert_unchanged x-wal
	assert_content real.db-wal new
}

@test "t1013.06 a file named x-wal beside a symbolic link to a database stays guarded" {
	db real.db
	ln -s real.db x
	mkfile x-wal old
	snapshot x-wal
	run --separate-stderr blind x-wal real.db
	assert_refused x-wal unread
	assert_unchanged x-wal
}

@test "t1013.07 without a journal, a database is guarded" {
	db app.db
	snapshot app.db
	RG_OPTS=(--no-journal)
	run --separate-stderr blind app.db
	assert_refused app.db unread
	assert_unchanged app.db
}

@test "t1013.08 a database larger than the per-file cap is refused, saying why" {
	db app.db
	snapshot app.db
	RG_OPTS=(--journal-max-file 4K)
	run --separate-stderr blind app.db
	assert_refused app.db unkept
	assert_unchanged app.db
}

@test "t1013.09 a static program under --supervise writes a database; undo brings it back" {
	out=$("$RG" run --supervise -- true 2>&1) || skip "supervised mode unavailable: $out"
	db app.db
	run --separate-stderr "$RG" run --supervise --log "$LOG" -- "$T/rgstatic" write app.db static
	assert_success
	refute_refused
	assert_content app.db static
	run "$RG" undo app.db
	assert_success
	assert_equal "$(rows app.db)" first
}

@test "t1013.10 --strict: SQLite's header written into a new file only journals the file beside it" {
	out=$("$RG" run --strict -- true 2>&1) || skip "strict mode unavailable: $out"
	mkfile notes-journal old
	run --separate-stderr "$RG" run --strict --log "$LOG" -- bash -c '
		printf "SQLite format 3\0" >notes && "$1" write notes-journal gone' bash "$T/rgstatic"
	assert_success
	assert_content notes-journal gone
	run "$RG" undo notes-journal
	assert_success
	assert_content notes-journal old
}

@test "t1013.11 --strict: a file named x-wal beside a symbolic link to a database stays guarded" {
	out=$("$RG" run --strict -- true 2>&1) || skip "strict mode unavailable: $out"
	db real.db
	ln -s real.db x
	mkfile x-wal old
	mkfile real.db-wal old
	snapshot x-wal
	run --separate-stderr "$RG" run --strict --log "$LOG" -- bash -c '
		"$1" write x-wal gone; "$1" write real.db-wal new' bash "$T/rgstatic"
	assert_refused x-wal unread
	assert_unchanged x-wal
	assert_content real.db-wal new
}
