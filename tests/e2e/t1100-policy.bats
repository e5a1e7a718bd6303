#!/usr/bin/env bats
# Policy knobs stored in the session (--allow-append, --guard-unlink,
# --read-ttl) and the touch case.

load helper

rgo() { # rgo OPTION... -- SCRIPT: a bash script in a session with options
	local opts=()
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	"$RG" run --log "$LOG" "${opts[@]}" -- bash -c "$2"
}

@test "t1100.01 without --allow-append, appending to an unread file is refused" {
	mkfile log.txt first
	snapshot log.txt
	run --separate-stderr rgsh 'echo more >> log.txt'
	assert_failure
	assert_refused log.txt unread
	assert_unchanged log.txt
}

@test "t1100.02 --allow-append lets an append through an unread file" {
	mkfile log.txt first
	run --separate-stderr rgo --allow-append -- 'echo more >> log.txt'
	assert_success
	refute_refused
	assert_content log.txt "first
more"
}

@test "t1100.03 --allow-append does not let a truncating write through" {
	mkfile log.txt first
	snapshot log.txt
	run --separate-stderr rgo --allow-append -- 'echo blind > log.txt'
	assert_failure
	assert_refused log.txt unread
	assert_unchanged log.txt
}

@test "t1100.04 an allowed append does not make the file writable afterwards" {
	mkfile log.txt first
	run --separate-stderr rgo --allow-append -- 'echo more >> log.txt; echo blind > log.txt'
	assert_failure
	assert_refused log.txt unread
	assert_content log.txt "first
more"
}

@test "t1100.05 --allow-append covers appends by a child process too (python)" {
	mkfile log.txt first
	run --separate-stderr rgo --allow-append -- \
		'python3 -c "open(\"log.txt\", \"a\").write(\"py\\n\")"'
	assert_success
	refute_refused
	assert_content log.txt "first
py"
}

@test "t1100.06 without --guard-unlink, rm of an unread file is allowed" {
	mkfile f original
	run --separate-stderr rgsh 'rm f'
	assert_success
	refute_refused
	assert_not_exist f
}

@test "t1100.07 --guard-unlink refuses rm of an unread file, saying 'remove'" {
	mkfile f original
	snapshot f
	run --separate-stderr rgo --guard-unlink -- 'rm f'
	assert_failure
	[[ $stderr == *"readguard: refused to remove 'f': $MSG_UNREAD"* ]] || fail "stderr: $stderr"
	assert_unchanged f
	[ "$(log_field 1 op)" = '"unlink"' ] || fail "log op: $(log_field 1 op)"
}

@test "t1100.08 --guard-unlink allows rm after a read" {
	mkfile f original
	run --separate-stderr rgo --guard-unlink -- 'cat f >/dev/null && rm f'
	assert_success
	refute_refused
	assert_not_exist f
}

@test "t1100.09 --guard-unlink refuses rm of a file changed since the read" {
	mkfile f original
	bg_session 'cat f >/dev/null' 'rm f' --guard-unlink
	external_write f changed
	bg_finish
	assert_failure
	[[ $stderr == *"readguard: refused to remove 'f': $MSG_CHANGED (read at "* ]] ||
		fail "stderr: $stderr"
	assert_content f changed
}

@test "t1100.10 --guard-unlink closes the unlink-then-create bypass of cp --remove-destination" {
	mkfile f original && mkfile src other
	snapshot f
	run --separate-stderr rgo --guard-unlink -- 'cp --remove-destination src f'
	assert_failure
	[[ $stderr == *"readguard: refused to remove 'f'"* ]] || fail "stderr: $stderr"
	assert_unchanged f
}

@test "t1100.11 --guard-unlink still lets the session remove files it created and directories" {
	run --separate-stderr rgo --guard-unlink -- \
		'echo a > new && rm new && mkdir d && rmdir d && python3 -c "import os; open(\"n2\",\"w\").close(); os.remove(\"n2\")"'
	assert_success
	refute_refused
	assert_not_exist new
	assert_not_exist d
}

@test "t1100.12 --guard-unlink does not guard files outside the roots or ignored" {
	mkfile "$OUT/f" original
	mkfile x.o object
	run --separate-stderr rgo --guard-unlink -- "rm '$OUT/f' x.o"
	assert_success
	refute_refused
	assert_not_exist "$OUT/f"
	assert_not_exist x.o
}

@test "t1100.13 --read-ttl: a read within the TTL counts" {
	mkfile f original
	run --separate-stderr rgo --read-ttl 3600 -- 'cat f >/dev/null && echo new > f'
	assert_success
	refute_refused
	assert_content f new
}

@test "t1100.14 --read-ttl: a read older than the TTL no longer counts" {
	mkfile f original
	snapshot f
	run --separate-stderr rgo --read-ttl 0.2 -- 'cat f >/dev/null && sleep 0.3 && echo new > f'
	assert_failure
	[[ $stderr == *"readguard: refused to write 'f': this session read it at "*"longer ago than its read TTL of 0.2 s. Read it again, then retry."* ]] ||
		fail "stderr: $stderr"
	assert_unchanged f
	[ "$(log_field 1 reason)" = '"expired"' ] || fail "log reason: $(log_field 1 reason)"
}

@test "t1100.15 --read-ttl: reading again renews the read" {
	mkfile f original
	# The second read and the write are both the shell's own (no process
	# starts between them), so no load can put the TTL between them.
	run --separate-stderr rgo --read-ttl 0.2 -- \
		'read -r _ <f && sleep 0.3 && read -r _ <f && echo new > f'
	assert_success
	refute_refused
	assert_content f new
}

@test "t1100.16 --read-ttl rejects a value that is not a positive number" {
	for v in 0 -1 abc 1x ''; do
		run --separate-stderr "$RG" run --read-ttl "$v" -- true
		assert_failure 125
		[[ $stderr == *"--read-ttl"* ]] || fail "for '$v', stderr: $stderr"
	done
}

@test "t1100.25 --read-ttl's error says what it takes in words" {
	run --separate-stderr "$RG" run --read-ttl 0 -- true
	assert_failure 125
	assert_equal "$stderr" "readguard: --read-ttl '0': expected a positive number of seconds, at most 10 years (315360000)"
}

@test "t1100.17 touch of an unread file sets its time, keeps its bytes, prints nothing" {
	mkfile f original
	local before
	before=$(mtime_ns f)
	run --separate-stderr rgsh 'touch f'
	assert_success
	refute_refused
	[ -z "$stderr" ] || fail "stderr: $stderr"
	assert_content f original
	[ "$(mtime_ns f)" != "$before" ] || fail "touch did not change the mtime"
}

@test "t1100.18 touch does not make an unread file writable" {
	mkfile f original
	run --separate-stderr rgsh 'touch f && echo blind > f'
	assert_failure
	assert_refused f unread
	assert_content f original
}

@test "t1100.19 touch -d of an unread file sets the given time" {
	mkfile f original
	run --separate-stderr rgsh 'touch -d "2021-06-01 00:00:00" f'
	assert_success
	refute_refused
	[ "$(stat -c %Y f)" = "$(date -d '2021-06-01 00:00:00' +%s)" ] || fail "mtime: $(stat -c %y f)"
}

@test "t1100.20 touch of a read file keeps it writable" {
	mkfile f original
	run --separate-stderr rgsh 'cat f >/dev/null && touch f && echo new > f'
	assert_success
	refute_refused
	assert_content f new
}

@test "t1100.21 touch creates a missing file" {
	run --separate-stderr rgsh 'touch new'
	assert_success
	assert_file_exist new
}

@test "t1100.22 dd conv=notrunc onto an unread file is still refused" {
	mkfile f original
	snapshot f
	run --separate-stderr rgsh 'printf X | dd of=f conv=notrunc status=none'
	assert_failure
	assert_refused f unread
	assert_unchanged f
}

@test "t1100.23 readguard status shows the knobs, the read TTL and the ignore rules" {
	run --separate-stderr "$RG" run --log "$LOG" --guard-unlink --read-ttl 30 -i '*.dat' \
		-- "$RG" status
	assert_success
	assert_line "knobs       guard-unlink"
	assert_line "read-ttl    30.000 s"
	assert_line --regexp '^ +\*\.dat +every root$'
	assert_line --regexp '^ +\.git/ +every root$'
}

@test "t1100.24 readguard status --json has the policy members" {
	run --separate-stderr "$RG" run --log "$LOG" --allow-append --no-default-ignores \
		-i 'x/' -- "$RG" status --json
	assert_success
	"$PY3" -c '
import json, sys
s = json.loads(sys.argv[1])
assert s["allow_append"] is True and s["guard_unlink"] is False, s
assert s["read_ttl_ns"] == 0 and s["default_ignores"] is False, s
assert s["ignores"] == [{"rule": "x/", "applies": "every root"}], s["ignores"]' "$output"
}

# An O_APPEND descriptor is append-only only while its holder wants it so:
# fcntl(F_SETFL) takes O_APPEND off, ftruncate cuts the file. What
# --allow-append lets through keeps the old bytes first.
@test "t1100.26 bytes overwritten through an --allow-append descriptor after F_SETFL come back by undo" {
	mkfile log.txt "first line of the log"
	run --separate-stderr rgo --allow-append -- 'python3 -c "
import fcntl, os
fd = os.open(\"log.txt\", os.O_WRONLY | os.O_APPEND)
fcntl.fcntl(fd, fcntl.F_SETFL, 0)
os.pwrite(fd, b\"OVERWRITTEN\", 0)"'
	assert_success
	assert_content log.txt "OVERWRITTENof the log"
	run "$RG" undo log.txt
	assert_success
	assert_content log.txt "first line of the log"
}

@test "t1100.27 bytes cut by ftruncate through an --allow-append descriptor come back by undo" {
	mkfile log.txt "first line of the log"
	run --separate-stderr rgo --allow-append -- \
		'python3 -c "import os; os.ftruncate(os.open(\"log.txt\", os.O_WRONLY | os.O_APPEND), 0)"'
	assert_success
	assert_content log.txt ""
	run "$RG" undo log.txt
	assert_success
	assert_content log.txt "first line of the log"
}

@test "t1100.28 a process appending again under --allow-append keeps the file once" {
	mkfile log.txt first
	run --separate-stderr rgo --allow-append -- 'for i in 1 2 3 4; do echo "line $i" >> log.txt; done'
	assert_success
	run find "$XDG_STATE_HOME/readguard/journal/objects" -type f
	assert_equal "${#lines[@]}" 1
	run "$RG" undo log.txt
	assert_success
	assert_content log.txt first
}

# freopen and fopen ",ccs=" are opened by the C library itself, after a
# check by path: what --allow-append lets through there is no write of the
# session's either.
@test "t1100.29 a freopen append let through by --allow-append does not make the file writable" {
	mkfile log.txt first
	run --separate-stderr rgo --allow-append -- '"$T/rgprobe" freopen log.txt a; echo blind > log.txt'
	assert_failure
	assert_refused log.txt unread
	assert_content log.txt first
}

@test "t1100.30 an fopen ccs append let through by --allow-append does not make the file writable" {
	mkfile log.txt first
	run --separate-stderr rgo --allow-append -- '"$T/rgprobe" fopen log.txt "a,ccs=UTF-8"; echo blind > log.txt'
	assert_failure
	assert_refused log.txt unread
	assert_content log.txt first
}

@test "t1100.31 readguard status says whether, where and up to what size the journal keeps files" {
	run --separate-stderr "$RG" run --log "$LOG" --journal-max-file 2M -- "$RG" status
	assert_success
	assert_line "journal     $XDG_STATE_HOME/readguard/journal (files up to 2 MiB)"
	run --separate-stderr "$RG" run --log "$LOG" --no-journal -- "$RG" status
	assert_success
	assert_line "journal     (off: --no-journal, nothing is kept for undo)"
	run --separate-stderr "$RG" run --log "$LOG" --journal-max-file 1000 -- "$RG" status --json
	assert_success
	"$PY3" -c '
import json, sys
s = json.loads(sys.argv[1])
assert s["journal"] == sys.argv[2] + "/readguard/journal", s["journal"]
assert s["journal_max_file"] == 1000, s' "$output" "$XDG_STATE_HOME"
	run --separate-stderr "$RG" run --log "$LOG" --no-journal -- "$RG" status --json
	assert_success
	"$PY3" -c '
import json, sys
s = json.loads(sys.argv[1])
assert s["journal"] is None, s' "$output"
}

# README: --guard-unlink breaks `git switch`, which removes files it never
# reads (that is why the journal, not a refusal, covers removals by default).
@test "t1100.32 --guard-unlink breaks git switch: a file the other branch lacks is left behind, refused" {
	export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
	export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
	git init -q -b main .
	echo readguard.log >>.git/info/exclude
	mkfile a.txt a
	git add a.txt && git commit -qm a
	git switch -q -c other
	mkfile b.txt b
	git add b.txt && git commit -qm b
	git switch -q main
	git switch -q other
	# Old stamps in a fresh index: git trusts them and reads nothing.
	touch -d '1 hour ago' a.txt b.txt
	git update-index -q --refresh
	run --separate-stderr rgo --guard-unlink -- 'git switch -q main'
	[[ $stderr == *"readguard: refused to remove 'b.txt': $MSG_UNREAD"* ]] || fail "stderr: $stderr"
	assert_file_exist b.txt
}
