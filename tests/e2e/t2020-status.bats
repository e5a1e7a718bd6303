#!/usr/bin/env bats
# readguard status: settings, counters, tracked files.

load helper
load cli_helper

setup() {
	common_setup
	cli_setup
}

@test "t2020.01 status shows the session's roots, mode, log and capacity" {
	mkdir -p r2
	new_session --root . --root r2 --mode warn --log "$LOG" --capacity 1000
	run --separate-stderr "$RG" status
	assert_success
	assert_line "session     $S"
	assert_line --regexp '^state +running \(pid [0-9]+\)$'
	assert_line "mode        warn"
	assert_line "roots       $W"
	assert_line "            $W/r2"
	assert_line "log         $LOG"
	assert_line --regexp '^capacity +1000 files, 0 used'
}

@test "t2020.02 status counts reads, allowed writes and refusals" {
	new_session
	mkfile a old
	mkfile b old
	in_session cat a >/dev/null
	in_session sh -c 'echo new >a'
	run in_session sh -c 'echo new >b'
	run --separate-stderr "$RG" status
	assert_success
	assert_line "tracked     1 files read or written in this generation"
	assert_line "writes      1 allowed"
	assert_line "refusals    1"
}

@test "t2020.03 status --json is one JSON object with the counters" {
	new_session --log "$LOG"
	mkfile a old
	in_session cat a >/dev/null
	run --separate-stderr "$RG" status --json
	assert_success
	"$PY3" -c '
import json, sys
o = json.loads(sys.argv[1])
assert o["session"] == sys.argv[2], o
assert o["running"] is True and o["mode"] == "enforce", o
assert o["roots"] == [sys.argv[3]], o
assert o["log"] == sys.argv[4], o
assert o["tracked"] == 1 and o["refusals"] == 0 and o["generation"] == 1, o
assert "files" not in o
' "$output" "$S" "$W" "$LOG" || fail "bad JSON: $output"
}

@test "t2020.04 status --files lists state, dev:ino, size and the path under the roots" {
	new_session
	mkfile a hello
	in_session cat a >/dev/null
	run --separate-stderr "$RG" status --files
	assert_success
	local id
	id=$(stat -c '%d:%i' a)
	assert_line --regexp "^read +$id +2020-01-01T00:00:00\.000000000Z +6  $W/a$"
}

@test "t2020.05 status --files marks files the session wrote, and forgotten ones" {
	new_session
	in_session sh -c 'echo x >new'
	mkfile old text
	in_session cat old >/dev/null
	"$RG" forget old
	run --separate-stderr "$RG" status --files
	assert_success
	assert_line --regexp "^written +$(stat -c '%d:%i' new) .* $W/new$"
	assert_line --regexp "^forgotten +$(stat -c '%d:%i' old) .* $W/old$"
}

@test "t2020.06 status --json --files gives each file's path, or null outside the roots" {
	new_session
	mkfile a hello
	printf 'out\n' >"$OUT/o"
	# "/./": reads whose directory lies outside the roots are only recorded
	# when the path is not plain (see README, Reads outside the roots).
	in_session cat a "$OUT/./o" >/dev/null
	run --separate-stderr "$RG" status --json --files
	assert_success
	"$PY3" -c '
import json, sys
o = json.loads(sys.argv[1])
paths = sorted((f["path"] or "-") for f in o["files"])
assert sys.argv[2] in paths and "-" in paths, paths
f = [f for f in o["files"] if f["path"] == sys.argv[2]][0]
assert f["state"] == "read" and f["size"] == 6, f
' "$output" "$W/a" || fail "bad JSON: $output"
}

@test "t2020.06b status --files says a file read outside the roots has no name under them, not a bare -" {
	new_session
	printf 'out\n' >"$OUT/o"
	in_session cat "$OUT/./o" >/dev/null
	run --separate-stderr "$RG" status --files
	assert_success
	assert_line --regexp "^read +$(stat -c '%d:%i' "$OUT/o") .* \\(no name under the roots\\)$"
}

@test "t2020.07 status --json gives the session's id, as history prints it" {
	new_session
	mkfile a old
	in_session sh -c 'cat a >/dev/null; echo x >a'
	run --separate-stderr "$RG" status --json
	assert_success
	local id
	id=$("$RG" history --json a | sed -n 's/^{"session":"\([^"]*\)".*/\1/p')
	"$PY3" -c '
import json, sys
o = json.loads(sys.argv[1])
assert o["id"] == sys.argv[2], o
' "$output" "$id" || fail "$output (history: $id)"
}

@test "t2020.08 status --session on a table that is gone points to history --session ID" {
	run --separate-stderr "$RG" status --session "$TABLES/gone"
	assert_failure 2
	assert_equal "$stderr" "readguard: session '$TABLES/gone': it does not exist; has the session ended?
readguard: ended sessions: see 'readguard history --session ID' (and diff, undo, log), with the id that 'readguard history' prints"
}

@test "t2020.09 status --session given a running session's id shows that session" {
	new_session
	local id
	id=$("$RG" status --json | "$PY3" -c 'import json, sys; print(json.load(sys.stdin)["id"])')
	run --separate-stderr "$RG" status --session "$id"
	assert_success
	assert_line "session     $S"
}

# The facts both verbs print, which a program may join on.
same_facts() {
	"$PY3" -c '
import json, sys
st = json.loads(sys.argv[1])
ss = [json.loads(l) for l in sys.argv[2].splitlines()]
ss = [o for o in ss if o["session"] == st["session"]][0]
for k in ("session", "id", "state", "pid", "created", "roots"):
    assert st[k] == ss[k], (k, st, ss)
assert st["state"] == sys.argv[3], st
' "$1" "$2" "$3"
}

@test "t2020.10 status --json and sessions --json name a running session's facts with the same keys and values" {
	new_session
	run --separate-stderr "$RG" status --json
	assert_success
	local st=$output
	run --separate-stderr "$RG" sessions --json
	assert_success
	same_facts "$st" "$output" running || fail "status: $st sessions: $output"
}

@test "t2020.11 status --json and sessions --json both call an ended session's state 'ended'" {
	ended_session
	run --separate-stderr "$RG" status --json --session "$S"
	assert_success
	local st=$output
	run --separate-stderr "$RG" sessions --json
	assert_success
	same_facts "$st" "$output" ended || fail "status: $st sessions: $output"
}

@test "t2020.12 status --json keeps 'running' for older programs, false once the session ended" {
	ended_session
	run --separate-stderr "$RG" status --json --session "$S"
	assert_success
	assert_output --partial '"state":"ended","running":false,'
}

@test "t2020.13 history --json names the session's id 'id', as status --json does" {
	new_session
	mkfile a old
	in_session sh -c 'cat a >/dev/null; echo x >a'
	run --separate-stderr "$RG" status --json
	assert_success
	local st=$output
	run --separate-stderr "$RG" history --json a
	assert_success
	"$PY3" -c '
import json, sys
st = json.loads(sys.argv[1])
h = json.loads(sys.argv[2].splitlines()[0])
assert h["id"] == st["id"] == h["session"], (st, h)
' "$st" "$output" || fail "status: $st history: $output"
}

@test "t2020.14 status --files calls a file appended to unread 'appended', with no stamp time" {
	mkfile log.txt old
	run --separate-stderr "$RG" run --allow-append -- sh -c 'echo a >>log.txt
"$1" status --files; "$1" status --json --files' sh "$RG"
	assert_success
	assert_line --regexp "^appended +$(stat -c '%d:%i' log.txt) .* $W/log.txt$"
	assert_output --partial '"state":"appended",'
	assert_output --partial '"stamped":null,'
}

@test "t2020.15 status --session on another user's table it cannot open says so in one sentence" {
	[ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null || skip "needs root and setpriv"
	local d
	d=$(mktemp -d /tmp/rg-t2020.XXXXXX)
	chmod 755 "$d"
	printf x >"$d/tbl"
	chmod 600 "$d/tbl"
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups "$RG" status --session "$d/tbl"
	rm -rf "$d"
	assert_failure 2
	assert_equal "${stderr_lines[0]}" "readguard: session '$d/tbl': it belongs to another user"
}

@test "t2020.16 status writes a root with a newline in its name as \\n, keeping one line per setting" {
	local root="$W/a
b"
	mkdir "$root"
	new_session --root "$root"
	run --separate-stderr "$RG" status
	assert_success
	assert_line "roots       $W/a\\nb"
}

# A .readguardignore is a file a session's tree may create (a new file),
# and the next session shows its lines: an ESC in one must reach no
# terminal as a control sequence.
@test "t2020.17 status shows an ignore rule's control characters escaped" {
	printf 'free a\033[31mRED*\n' >.readguardignore
	run --separate-stderr rg "$RG" status
	assert_success
	assert_output --partial 'free a\x1b[31mRED*'
	[[ $output != *$'\033'* ]] || fail "an ESC reached the output: $output"
}
