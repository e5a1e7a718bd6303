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

# readguard(1), FILES: the table is a sparse file of about 80 MiB at the
# default capacity, of which only the pages of tracked files take memory.
@test "t3410.07 a table at the default capacity is a sparse file of about 80 MiB that takes under 1 MiB" {
	run "$RG" run -- sh -c 'cat f01 >/dev/null; stat -c "%s %b %B" "$READGUARD_SESSION"'
	assert_success
	local size blocks unit
	read -r size blocks unit <<<"$output"
	[ "$size" -ge $((80 << 20)) ] && [ "$size" -lt $((81 << 20)) ] || fail "size $size"
	[ $((blocks * unit)) -lt $((1 << 20)) ] || fail "takes $((blocks * unit)) bytes"
}
