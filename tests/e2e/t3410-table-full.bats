#!/usr/bin/env bats
# A full session table: reads still work, files it could not record cannot
# be written (the reason says why and what to do), files it recorded can,
# and the session is told once, not once per read.

load helper

WARNING="readguard: warning: the session table is full (16 files)"

# helper.bash's setup, then 20 unread files.
setup() {
	common_setup
	for i in $(seq -w 1 20); do mkfile "f$i" "content $i"; done
}

# read_all: each of f01..f20 read by its own process, in order.
READ_ALL='for i in $(seq -w 1 20); do "$T/rgprobe" read "f$i" || exit 9; done'

@test "t3410.01 every read of a full table still works" {
	run --separate-stderr "$RG" run --capacity 16 --log "$LOG" -- bash -c "$READ_ALL"
	assert_success
	[ "${#lines[@]}" -eq 20 ] || fail "expected 20 reads: $output"
	refute_output --partial err
}

@test "t3410.02 the session is warned once, by the first process that found no room" {
	run --separate-stderr "$RG" run --capacity 16 --log "$LOG" -- bash -c "$READ_ALL; $READ_ALL"
	assert_success
	assert_equal "$(grep -c "^$WARNING" <<<"$stderr")" 1
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "expected only the warning: $stderr"
	[[ $stderr == *"Start the session with a larger --capacity."* ]] || fail "$stderr"
}

@test "t3410.03 a file read before the table filled up may be written" {
	run --separate-stderr "$RG" run --capacity 16 --log "$LOG" -- \
		bash -c "$READ_ALL; \"\$T/rgprobe\" write f01 new"
	assert_success
	assert_content f01 new
}

@test "t3410.04 a file read after the table filled up is refused as table-full, intact" {
	snapshot f20
	run --separate-stderr "$RG" run --capacity 16 --log "$LOG" -- \
		bash -c "$READ_ALL; \"\$T/rgprobe\" open f20 O_WRONLY"
	assert_failure
	assert_line "err EACCES"
	assert_equal "$(count_rg_lines)" 1
	[[ $stderr == *"refused to write 'f20': the session table is full (16 files), so this session cannot record reading it. Start the session with a larger --capacity."* ]] ||
		fail "$stderr"
	assert_unchanged f20
	assert_log_json
	[ "$(log_field 1 reason)" = '"table-full"' ] || fail "log: $(cat "$LOG")"
}

@test "t3410.05 new files can still be created in a full table" {
	run --separate-stderr "$RG" run --capacity 16 --log "$LOG" -- \
		bash -c "$READ_ALL; \"\$T/rgprobe\" write brand-new hello"
	assert_success
	assert_content brand-new hello
}

@test "t3410.06 warn mode adds no warning to what the workload prints" {
	run --separate-stderr "$RG" run --mode warn --capacity 16 --log "$LOG" -- bash -c "$READ_ALL"
	assert_success
	assert_equal "$stderr" ""
}

# readguard(1), FILES: the table is a file of about 80 MiB at the default
# capacity, of which a session takes only the pages it has touched: its
# header, the page map, 64 KiB of entries and a page of index and of names
# per file it records. Before, it took its index and names, 16 MiB, at once.
@test "t3410.07 a table at the default capacity is a file of about 80 MiB of which one read takes under 256 KiB" {
	run "$RG" run -- sh -c 'cat f01 >/dev/null; stat -c "%s %b %B" "$READGUARD_SESSION"'
	assert_success
	local size blocks unit
	read -r size blocks unit <<<"$output"
	[ "$size" -ge $((80 << 20)) ] && [ "$size" -lt $((81 << 20)) ] || fail "size $size"
	[ $((blocks * unit)) -lt $((256 << 10)) ] || fail "takes $((blocks * unit)) bytes"
}

# hammer's rule for a file it saved: one whole "worker W iteration I" line.
# A torn or empty file would be a write let through half-way.
assert_whole_lines() {
	local f
	for f in "$@"; do
		grep -qxE 'content [0-9]+|worker [0-9]+ iteration [0-9]+' "$f" ||
			fail "$f is not one whole line: $(od -c "$f" | head -3)"
	done
}

# Each worker reads f01..f20 in order before its first temp file, so the
# 16 slots go to f01..f16 and f17..f20 are never recorded: every write to
# them is refused, whichever thread or process tries, and nothing else fails.
assert_full_table_held() {
	[ "$status" -eq 1 ] || fail "hammer exit $status (1 = some EACCES, nothing else): $stderr"
	assert_equal "$(grep -c "^$WARNING" <<<"$stderr")" 1
	local other
	other=$(grep '^hammer:' <<<"$stderr" | grep -v ': EACCES$' | head -3) || true
	[ -z "$other" ] || fail "a call failed other than by refusal: $other"
	assert_unchanged f17 f18 f19 f20
	assert_whole_lines f??
}

@test "t3410.08 eight threads filling the table at once are refused only where it is full" {
	snapshot f17 f18 f19 f20
	run --separate-stderr timeout 120 "$RG" run --keep --session "$BATS_TEST_TMPDIR/tab" \
		--capacity 16 --log "$LOG" -- "$T/hammer" threads 8 10 f??
	assert_full_table_held
	run "$RG" status --session "$BATS_TEST_TMPDIR/tab"
	assert_line --regexp '^capacity +16 files, 16 used'
}

@test "t3410.09 eight processes filling the table at once are refused only where it is full" {
	snapshot f17 f18 f19 f20
	run --separate-stderr timeout 120 "$RG" run --capacity 16 --log "$LOG" -- \
		"$T/hammer" procs 8 10 f??
	assert_full_table_held
}

# A table's file system filled up by a process outside the session, once the
# session has begun: its processes go on, answering as a full table, where
# they died of SIGBUS (exit 135) at their first new record.

# on_tiny_fs SCRIPT [ARGS]: SCRIPT (sh) as root in a mount namespace of the
# test's own, $1 a 256 KiB tmpfs there. Skips where that cannot be had.
on_tiny_fs() {
	[ "$(id -u)" = 0 ] || skip "needs root to mount a small file system"
	unshare -m true 2>/dev/null || skip "no mount namespaces here"
	mkdir -p "$BATS_TEST_TMPDIR/tables"
	run --separate-stderr unshare -m sh -c 'mount -t tmpfs -o size=256k tmpfs "$1" || exit 77
'"$1" sh "$BATS_TEST_TMPDIR/tables" "${@:2}"
	[ "$status" != 77 ] || skip "cannot mount a tmpfs here"
}

# session_on_filled_fs COMMAND: COMMAND (sh) in a session of capacity 4096
# whose table is on a tiny tmpfs, run once a process outside the session
# has filled that file system up.
session_on_filled_fs() {
	on_tiny_fs 'go=$1/../go
READGUARD_DIR=$1 "$2" run --capacity 4096 --log "$3" -- sh -c "
	while [ ! -e $go ]; do sleep 0.05; done
	$4" &
while ! ls "$1"/readguard-* >/dev/null 2>&1; do sleep 0.05; done
dd if=/dev/zero of="$1/fill" bs=4k 2>/dev/null
touch "$go" && wait $!' "$RG" "$LOG" "$1"
}

# Each of f01..f20 read by a process of its own; a read that fails (or a
# process killed, 135 for SIGBUS) stops there with its status.
READ_EACH='for i in $(seq -w 1 20); do "$T/rgprobe" read "f$i" || exit $?; done'

@test "t3410.10 reads go on when the table's file system fills up after the session began" {
	session_on_filled_fs "$READ_EACH"
	assert_success
	[ "${#lines[@]}" -eq 20 ] || fail "expected 20 reads: $output"
	refute_output --partial err
}

@test "t3410.11 the session is warned once that its table's file system has no room left" {
	session_on_filled_fs "$READ_EACH; $READ_EACH"
	assert_success
	assert_equal "$(grep -c "^readguard: warning: the session table is full (0 files): its file system has no room left" <<<"$stderr")" 1
	[[ $stderr == *"Free room there, or point READGUARD_DIR at a file system with room for new sessions."* ]] ||
		fail "$stderr"
}

@test "t3410.12 a file read once the table's file system filled up is refused as table-full" {
	snapshot f01
	session_on_filled_fs "$READ_EACH; \"\$T/rgprobe\" open f01 O_WRONLY"
	assert_failure
	assert_line "err EACCES"
	assert_unchanged f01
	[[ $stderr == *"refused to write 'f01': the session table is full: its file system has no room left, so this session cannot record reading it. Free room there, or point READGUARD_DIR at a file system with room for new sessions."* ]] ||
		fail "$stderr"
	[ "$(log_field 1 reason)" = '"table-full"' ] || fail "log: $(cat "$LOG")"
}

@test "t3410.13 a session is not begun on a file system without room for its table" {
	on_tiny_fs 'dd if=/dev/zero of="$1/fill" bs=4k 2>/dev/null
READGUARD_DIR=$1 "$2" run --capacity 4096 -- true' "$RG"
	assert_failure
	[ "$status" -lt 128 ] || fail "killed by signal $((status - 128)): $stderr"
	[[ $stderr == *"cannot create a session table in READGUARD_DIR '$BATS_TEST_TMPDIR/tables': No space left on device (a table takes "*" KiB to begin)"* ]] ||
		fail "$stderr"
}

# A table whose index and names (1 MiB at this capacity) would not fit in
# its file system: it begins all the same, and takes pages as it records.
@test "t3410.14 a session begins where its table's index and names would not fit" {
	on_tiny_fs 'READGUARD_DIR=$1 "$2" run --capacity 65536 --log "$3" -- sh -c "$4"' \
		"$RG" "$LOG" "$READ_EACH"
	assert_success
	[ "${#lines[@]}" -eq 20 ] || fail "expected 20 reads: $output"
	assert_equal "$stderr" ""
}

# The file system filled up between two reads: the files read before are
# the session's, and new files' index pages (128 of them here, a few taken;
# inodes in runs of 16 share a line, so six runs apart) find no room: no
# SIGBUS, but the full-table answer.
@test "t3410.15 a file system filled up between reads answers as a full table at a new index page" {
	for i in $(seq 1 96); do mkfile "g$i" "late $i"; done
	on_tiny_fs 'go=$1/../go ready=$1/../ready
READGUARD_DIR=$1 "$2" run --capacity 65536 --log "$3" -- sh -c "
	for f in f01 f02 f03 f04 f05; do \"\$T/rgprobe\" read \$f || exit \$?; done
	touch $ready
	while [ ! -e $go ]; do sleep 0.05; done
	for f in g16 g32 g48 g64 g80 g96; do \"\$T/rgprobe\" read \$f || exit \$?; done
	\"\$T/rgprobe\" write f01 new" &
while [ ! -e "$ready" ] && kill -0 $! 2>/dev/null; do sleep 0.05; done
dd if=/dev/zero of="$1/fill" bs=4k 2>/dev/null
touch "$go" && wait $!' "$RG" "$LOG" "$1"
	assert_success
	assert_equal "$(grep -c "^readguard: warning: the session table is full ([0-9]* files): its file system has no room left" <<<"$stderr")" 1
	assert_content f01 new
}

# readguard check words it as the refusal does (t3410.12): no larger
# --capacity would cure a table its file system stopped short.
@test "t3410.16 check of a file read once the table's file system filled up words it as the refusal does" {
	session_on_filled_fs "\"\$T/rgprobe\" read f01 && \"\$RG\" check f01"
	assert_equal "$status" 1
	assert_line "refused to write 'f01': the session table is full: its file system has no room left, so this session cannot record reading it. Free room there, or point READGUARD_DIR at a file system with room for new sessions."
}
