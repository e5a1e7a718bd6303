#!/usr/bin/env bats
# READGUARD_SESSION naming something that is not a usable table. The shim
# fails closed: a write to an existing file under the root is refused with
# the reason, and everything else (reads, new files, writes outside the
# root) works. No crash, no hang, no change to the file.

load helper
load escape

# good_table PATH: a real, kept table (capacity 16, so it is small).
good_table() {
	"$RG" run --session "$1" --keep --capacity 16 -- true || fail "cannot make a table at $1"
}

# patch_table PATH OFFSET PYTHON-BYTES: overwrite bytes of a table in place.
patch_table() {
	"$PY3" -c '
import sys
with open(sys.argv[1], "r+b") as f:
    f.seek(int(sys.argv[2]))
    f.write(eval(sys.argv[3]))' "$1" "$2" "$3" || fail "cannot patch $1"
}

# fails_closed SESSION REASON: with READGUARD_SESSION=SESSION and the root
# $W in READGUARD_ROOTS (as every launcher exports it), a preloaded
# process can read f, create new.txt and overwrite the unread
# $OUT/outside.txt, while the write-open of the unread f is refused, once,
# with REASON in the message, and f keeps its bytes and mtime.
fails_closed() {
	local session=$1 reason=$2
	mkfile f original
	mkfile "$OUT/outside.txt" outside
	snapshot f
	run --separate-stderr timeout 20 env LD_PRELOAD="$SHIM" READGUARD_SESSION="$session" READGUARD_ROOTS="$W" \
		bash -c '"$T/rgprobe" read f; "$T/rgprobe" open f O_WRONLY
			"$T/rgprobe" write new.txt created; "$T/rgprobe" write "$OUT/outside.txt" replaced'
	[ "$status" -ne 124 ] || fail "the preloaded process hung"
	assert_equal "${lines[*]}" "ok err EACCES ok ok"
	assert_equal "$(count_rg_lines)" 1
	[[ $stderr == "readguard: refused to write 'f': the session table is unusable ($reason"* ]] ||
		fail "stderr lacks the reason '$reason': $stderr"
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "expected one stderr line: $stderr"
	assert_unchanged f
	assert_content new.txt created
	assert_content "$OUT/outside.txt" replaced
}

@test "t3300.01 a missing table: refused, 'it does not exist'" {
	fails_closed "$BATS_TEST_TMPDIR/no-such-table" "it does not exist; has the session ended?)"
}

@test "t3300.02 a directory as the table: refused, 'it is a directory'" {
	mkdir "$BATS_TEST_TMPDIR/dir"
	fails_closed "$BATS_TEST_TMPDIR/dir" "it is a directory"
}

@test "t3300.03 a FIFO as the table: no hang, refused, 'it is not a regular file'" {
	mkfifo "$BATS_TEST_TMPDIR/fifo"
	fails_closed "$BATS_TEST_TMPDIR/fifo" "it is not a regular file"
}

@test "t3300.04 a symlink to a good table is not followed (O_NOFOLLOW): refused" {
	good_table "$BATS_TEST_TMPDIR/tbl"
	ln -s "$BATS_TEST_TMPDIR/tbl" "$BATS_TEST_TMPDIR/link"
	fails_closed "$BATS_TEST_TMPDIR/link" "it is a symbolic link"
}

@test "t3300.05 a table with the wrong magic: refused, 'wrong magic'" {
	good_table "$BATS_TEST_TMPDIR/tbl"
	patch_table "$BATS_TEST_TMPDIR/tbl" 0 'b"NOTGUARD"'
	fails_closed "$BATS_TEST_TMPDIR/tbl" "it is not a readguard session table (wrong magic)"
}

@test "t3300.06 a table of another version: refused, 'another version'" {
	good_table "$BATS_TEST_TMPDIR/tbl"
	patch_table "$BATS_TEST_TMPDIR/tbl" 8 '(99).to_bytes(4, "little")'
	fails_closed "$BATS_TEST_TMPDIR/tbl" "it was made by another version of readguard"
}

@test "t3300.07 a truncated table: refused, 'truncated'" {
	good_table "$BATS_TEST_TMPDIR/tbl"
	truncate -s 40000 "$BATS_TEST_TMPDIR/tbl"
	fails_closed "$BATS_TEST_TMPDIR/tbl" "it is truncated or padded"
}

@test "t3300.08 a table file owned by another user (mode 0600, root can open it): refused by the uid check" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to chown the table to nobody"
	good_table "$BATS_TEST_TMPDIR/tbl"
	chown nobody "$BATS_TEST_TMPDIR/tbl"
	assert_equal "$(stat -c %a "$BATS_TEST_TMPDIR/tbl")" 600
	fails_closed "$BATS_TEST_TMPDIR/tbl" "it belongs to another user"
}

@test "t3300.09 a table whose header names another user: refused by the header's uid check" {
	good_table "$BATS_TEST_TMPDIR/tbl"
	# struct rg_header: magic 8, version 4, header_size 4, file_size 8,
	# entry_size 4, capacity 4, index_slots 4, then uid at offset 36.
	patch_table "$BATS_TEST_TMPDIR/tbl" 36 "($(id -u) + 1).to_bytes(4, 'little')"
	fails_closed "$BATS_TEST_TMPDIR/tbl" "it belongs to another user"
}

@test "t3300.10 random bytes: refused, 'wrong magic'" {
	head -c 200000 /dev/urandom >"$BATS_TEST_TMPDIR/rand"
	fails_closed "$BATS_TEST_TMPDIR/rand" "it is not a readguard session table (wrong magic)"
}

@test "t3300.11 an empty file: refused, 'too small'" {
	: >"$BATS_TEST_TMPDIR/empty"
	fails_closed "$BATS_TEST_TMPDIR/empty" "it is too small to be a session table"
}

@test "t3300.12 a huge sparse file is refused before it is mapped: 'too large'" {
	truncate -s 1T "$BATS_TEST_TMPDIR/huge" || skip "the file system cannot hold a 1 TiB sparse file"
	fails_closed "$BATS_TEST_TMPDIR/huge" "it is too large to be a session table"
}

@test "t3300.13 a good header over random index and entries: no crash, unread writes refused" {
	good_table "$BATS_TEST_TMPDIR/tbl"
	size=$(stat -c %s "$BATS_TEST_TMPDIR/tbl")
	patch_table "$BATS_TEST_TMPDIR/tbl" 32768 "open('/dev/urandom','rb').read($size - 32768)"
	mkfile f original
	mkfile g other
	snapshot f
	# Reading g may or may not find room; a write to the unread f is refused
	# whatever the garbage says, and nothing crashes.
	run --separate-stderr timeout 20 env LD_PRELOAD="$SHIM" \
		READGUARD_SESSION="$BATS_TEST_TMPDIR/tbl" \
		bash -c '"$T/rgprobe" read g; "$T/rgprobe" open f O_WRONLY; "$T/rgprobe" write new.txt x'
	assert_equal "${lines[*]}" "ok err EACCES ok"
	assert_equal "$(count_rg_lines)" 1
	assert_unchanged f
}

@test "t3300.14 readguard run --session on a FIFO fails at once with exit 125" {
	mkfifo "$BATS_TEST_TMPDIR/fifo"
	run --separate-stderr timeout 20 "$RG" run --session "$BATS_TEST_TMPDIR/fifo" -- true
	assert_equal "$status" 125
	[[ $stderr == *"it is not a regular file"* ]] || fail "$stderr"
}

# replaced_then_write VICTIM ACT REASON LAUNCHER...: a session that
# LAUNCHER starts in $W, whose tree goes to $W/sub, does ACT to its own
# table, and then has a new process overwrite the unread VICTIM, under a
# root but not under $W/sub: refused, the table unusable for REASON. The
# session's status, from before ACT, is in $OUT/status.json.
replaced_then_write() {
	local victim=$1 act=$2 reason=$3
	shift 3
	mkdir -p "$W/sub" "${victim%/*}"
	mkfile "$victim" original
	snapshot "$victim"
	run --separate-stderr timeout 20 env VICTIM="$victim" "$@" bash -c "
		cd sub && \"\$RG\" status --json >\"\$OUT/status.json\" && $act"' &&
		bash -c "echo x >\"\$VICTIM\""'
	[ "$status" -ne 124 ] || fail "the session hung"
	assert_equal "$(count_rg_lines)" 1
	[[ $stderr == "readguard: refused to write '$victim': the session table is unusable ($reason"* ]] ||
		fail "stderr lacks the refusal with its reason: $stderr"
	assert_unchanged "$victim"
}

# removed_then_write VICTIM LAUNCHER...: the same, the table removed.
removed_then_write() {
	local victim=$1
	shift
	replaced_then_write "$victim" 'rm -- "$READGUARD_SESSION"' "it does not exist" "$@"
}

@test "t3300.15 a table removed mid-session: a process started after guards the session's roots, not only its directory" {
	removed_then_write "$W/other/unread.txt" "$RG" run --root "$W" --
}

# Split at its colon, "$D/r:$D/r" would name $D/r twice, which exists.
@test "t3300.16 a table removed mid-session whose root has a colon in its name: every file is guarded" {
	local D=$BATS_TEST_TMPDIR
	mkdir -p "$D/r" "$D/r:$D/r"
	removed_then_write "$D/r:$D/r/unread.txt" "$RG" run --root "$W" --root "$D/r:$D/r" --
}

@test "t3300.17 a table removed mid-session that a preloaded process started: its root stays guarded" {
	removed_then_write "$W/other/unread.txt" env LD_PRELOAD="$SHIM"
}

@test "t3300.18 a table replaced mid-session by random bytes: the session's roots stay guarded, 'wrong magic'" {
	replaced_then_write "$W/other/unread.txt" \
		'rm -- "$READGUARD_SESSION" && head -c 200000 /dev/urandom >"$READGUARD_SESSION"' \
		"it is not a readguard session table (wrong magic)" "$RG" run --root "$W" --
}

# A shared mapping past the end of its file raises SIGBUS: a table cut
# short in place would kill every process of the session that touches it.
@test "t3300.19 the session's own processes cannot truncate its table: refused, and none of them crashes" {
	mkfile f original
	run --separate-stderr timeout 20 "$RG" run -- bash -c 'cat f >/dev/null
		truncate -s 0 "$READGUARD_SESSION"; echo "truncate=$?"
		: >"$READGUARD_SESSION"; echo "redirect=$?"
		cat f >/dev/null; echo "cat=$?"; echo new >f; echo "write=$?"'
	assert_success
	assert_equal "${lines[*]}" "truncate=1 redirect=1 cat=0 write=0"
	[[ $stderr == *"readguard: refused to write '$READGUARD_DIR/readguard-"*"': it is this session's own table"* ]] ||
		fail "stderr lacks the refusal with its reason: $stderr"
	assert_content f new
}

# The environment passed on in part (a program that copies some variables,
# an exec that put only the session back): its own directory may be far
# less than the session guarded.
@test "t3300.20 an unusable table and no READGUARD_ROOTS: every existing file is guarded, not only the directory" {
	mkfile "$OUT/outside.txt" outside
	snapshot "$OUT/outside.txt"
	run --separate-stderr timeout 20 env LD_PRELOAD="$SHIM" READGUARD_SESSION="$BATS_TEST_TMPDIR/gone" \
		bash -c '"$T/rgprobe" write "$OUT/outside.txt" replaced; "$T/rgprobe" write "$OUT/new.txt" created'
	assert_equal "${lines[*]}" "err EACCES ok"
	[[ $stderr == "readguard: refused to write '$OUT/outside.txt': the session table is unusable (it does not exist"* ]] ||
		fail "stderr lacks the refusal with its reason: $stderr"
	assert_unchanged "$OUT/outside.txt"
}

# The log's name and the session's id are in the table's header: a process
# that finds no table takes them from READGUARD_SESSION_LOG and
# READGUARD_SESSION_ID, which every launcher sets.
@test "t3300.21 an unusable table: the refusal is logged where READGUARD_SESSION_LOG names, naming no session" {
	mkfile f original
	run --separate-stderr timeout 20 env LD_PRELOAD="$SHIM" READGUARD_SESSION="$BATS_TEST_TMPDIR/gone" \
		READGUARD_ROOTS="$W" READGUARD_SESSION_LOG="$LOG" bash -c 'echo new >f'
	assert_failure
	assert_equal "$(count_rg_lines)" 1
	assert_lost_refusal "$LOG" "$W/f"
}

# Relative, it would name another file in each directory a process runs in.
@test "t3300.22 an unusable table and a relative READGUARD_SESSION_LOG: refused, and nothing is logged" {
	mkfile f original
	run --separate-stderr timeout 20 env LD_PRELOAD="$SHIM" READGUARD_SESSION="$BATS_TEST_TMPDIR/gone" \
		READGUARD_ROOTS="$W" READGUARD_SESSION_LOG=rel.log bash -c 'echo new >f'
	assert_failure
	assert_equal "$(count_rg_lines)" 1
	assert_not_exists rel.log
	assert_content f original
}

@test "t3300.23 a table removed mid-session: the refusal is logged in run's --log, under the session's id" {
	removed_then_write "$W/other/unread.txt" "$RG" run --log "$LOG" --root "$W" --
	assert_lost_refusal "$LOG" "$W/other/unread.txt" "$(status_id "$OUT/status.json")"
}

@test "t3300.24 a table removed mid-session: the refusal is logged in the session's default log, under its id" {
	removed_then_write "$W/other/unread.txt" "$RG" run --root "$W" --
	local logs=("$XDG_STATE_HOME"/readguard/*.log)
	[ "${#logs[@]}" -eq 1 ] && [ -e "${logs[0]}" ] || fail "not one default log: ${logs[*]}"
	assert_lost_refusal "${logs[0]}" "$W/other/unread.txt" "$(status_id "$OUT/status.json")"
}

@test "t3300.25 a table replaced mid-session by random bytes: the refusal is logged in the session's log, under its id" {
	replaced_then_write "$W/other/unread.txt" \
		'rm -- "$READGUARD_SESSION" && head -c 200000 /dev/urandom >"$READGUARD_SESSION"' \
		"it is not a readguard session table (wrong magic)" "$RG" run --log "$LOG" --root "$W" --
	assert_lost_refusal "$LOG" "$W/other/unread.txt" "$(status_id "$OUT/status.json")"
}

@test "t3300.26 readguard log reads the line of a process that found its table removed" {
	removed_then_write "$W/other/unread.txt" "$RG" run --log "$LOG" --root "$W" --
	run --separate-stderr "$RG" run --log "$LOG" -- "$RG" log
	assert_success
	[[ $output == *" refused open '$W/other/unread.txt': the session table was unusable"* ]] ||
		fail "readguard log does not show the refusal: $output"
}

@test "t3300.27 a table removed mid-session that a preloaded process started: the refusal is logged in its READGUARD_LOG, under its id" {
	removed_then_write "$W/other/unread.txt" env LD_PRELOAD="$SHIM" READGUARD_LOG="$LOG"
	assert_lost_refusal "$LOG" "$W/other/unread.txt" "$(status_id "$OUT/status.json")"
}

# Its children join its session: an outer session's log, inherited, is not
# theirs.
@test "t3300.28 a preloaded process that starts a session passes its own log on, not an outer session's" {
	removed_then_write "$W/other/unread.txt" env LD_PRELOAD="$SHIM" READGUARD_LOG="$LOG" \
		READGUARD_SESSION_LOG="$OUT/outer.log" READGUARD_SESSION_ID=1-2
	assert_lost_refusal "$LOG" "$W/other/unread.txt" "$(status_id "$OUT/status.json")"
	assert_not_exists "$OUT/outer.log"
}

# Its id is how 'readguard log --session' finds an ended session's lines in
# the default logs, where every session of the user logs.
@test "t3300.29 readguard log --session ID shows the refusal of a process that found its table removed, after the session ended" {
	removed_then_write "$W/other/unread.txt" "$RG" run --root "$W" --
	run --separate-stderr "$RG" log --session "$(status_id "$OUT/status.json")"
	assert_success
	[[ $output == *" refused open '$W/other/unread.txt': the session table was unusable" ]] ||
		fail "readguard log does not show the refusal: $output / $stderr"
}

# Anyone may set it: only an id labels the line, and nothing else can
# forge a member of it (the quote) or pass for another session's.
@test "t3300.30 an unusable table: only a READGUARD_SESSION_ID in the id format names the session" {
	mkfile f original
	local id
	for id in 1795468256807933359-12987 '1-2","reason":"forged' 12987 abc-1 1- -1 \
		"$(printf '%060d-1' 0)"; do
		rm -f "$LOG"
		env LD_PRELOAD="$SHIM" READGUARD_SESSION="$BATS_TEST_TMPDIR/gone" READGUARD_ROOTS="$W" \
			READGUARD_SESSION_LOG="$LOG" READGUARD_SESSION_ID="$id" bash -c 'echo new >f' 2>/dev/null &&
			fail "the write was let through with READGUARD_SESSION_ID=$id"
		if [ "$id" = 1795468256807933359-12987 ]; then
			assert_lost_refusal "$LOG" "$W/f" "$id"
		else
			assert_lost_refusal "$LOG" "$W/f"
		fi
	done
	assert_content f original
}

# Its children are bound to the table's file, as a launcher's are: one put
# at its path later is not theirs to join.
@test "t3300.31 a preloaded process that starts a session binds its children to its table's file" {
	run --separate-stderr env -u READGUARD_SESSION LD_PRELOAD="$SHIM" sh -c \
		'cat /dev/null; printenv READGUARD_SESSION READGUARD_SESSION_FILE'
	assert_success
	local dev ino
	read -r dev ino < <(stat -c '%d %i' "${lines[0]}") || fail "no table: $output"
	[[ ${lines[1]} == "$(printf '%016x:%016x:' "$dev" "$ino")"* ]] ||
		fail "the binding '${lines[1]}' is not the table's file ($dev, $ino)"
}

@test "t3300.32 a table's capacity rewritten while a process has it mapped: that process neither crashes nor writes an unread file" {
	local table="$BATS_TEST_TMPDIR/t"
	good_table "$table"
	mkfile f original
	mkfile g unread
	snapshot g
	mkfifo "$BATS_TEST_TMPDIR/go" "$BATS_TEST_TMPDIR/ready"
	env LD_PRELOAD="$SHIM" READGUARD_SESSION="$table" READGUARD_ROOTS="$W" \
		sh -c ': <f; echo >"$1"; read -r _ <"$0"; echo new >g' "$BATS_TEST_TMPDIR/go" \
		"$BATS_TEST_TMPDIR/ready" >"$BATS_TEST_TMPDIR/out" 2>&1 &
	local sh=$!
	read -r _ <"$BATS_TEST_TMPDIR/ready"
	# Outside the session, as any program of the user may, once sh has it mapped.
	patch_table "$table" 28 'b"\xff\xff\xff\xff\x00\x00\x00\x80"'
	echo >"$BATS_TEST_TMPDIR/go"
	local status=0
	wait "$sh" || status=$?
	[ "$status" -lt 128 ] || fail "sh died of signal $((status - 128)): $(cat "$BATS_TEST_TMPDIR/out")"
	assert_unchanged g
}

# changed_user_refused DIR WHY: root's session, its table in $D/DIR (uid
# 65534's, or made root's and 0700), runs a command as uid 65534 that
# overwrites that user's unread file: refused, unchanged, told WHY and that
# the user needs a session of its own.
changed_user_refused() {
	esc_nobody_tree "change user inside a root's session"
	[ -d "$D/$1" ] || mkdir -m 0700 "$D/$1"
	printf 'old\n' >"$D/proj/f"
	chown 65534:65534 "$D/proj/f"
	snapshot "$D/proj/f"
	cd "$D/proj" || fail "no $D/proj"
	run --separate-stderr env READGUARD_DIR="$D/$1" "$RG" run --root "$D/proj" --log "$D/rg.log" -- \
		setpriv --reuid=65534 --regid=65534 --clear-groups sh -c 'echo new >f'
	assert_failure
	[[ $stderr == *"the session table is unusable ($2), so no read can be proven. A session is one user's: a command run as another user (su, setpriv) needs a session of its own, started as that user with 'readguard run'."* ]] ||
		fail "stderr: $stderr"
	assert_unchanged "$D/proj/f"
}

@test "t3300.33 a command that changed user inside a session is refused as another user's, told to start its own" {
	# A table directory other users may look into, as /dev/shm, the default.
	changed_user_refused tables "it belongs to another user"
}

@test "t3300.34 a command that changed user, with the table in a directory closed to it, is told to start its own" {
	# As a per-user runtime directory (/run/user/0) is: 0700, root's.
	changed_user_refused roots-tables "it is in another user's directory, closed to this one"
}
