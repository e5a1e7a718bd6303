#!/usr/bin/env bats
# A log that cannot be written (a full disk, a read-only file system): the
# decisions are the same, each refusal still gets its stderr line, and each
# process warns about the log once, however many refusals it makes.

load helper

LOGWARN="readguard: warning: cannot write the log"

# THREE: one python3 process making three refused write-opens of f.
THREE='
import errno, os
for _ in range(3):
    try:
        os.open("f", os.O_WRONLY)
        print("ok")
    except OSError as e:
        print(errno.errorcode[e.errno])'

# assert_three_refusals_one_warning: the outcome of THREE.
assert_three_refusals_one_warning() {
	assert_equal "${lines[*]}" "EACCES EACCES EACCES"
	assert_equal "$(count_rg_lines)" 3
	assert_equal "$(grep -c "^$LOGWARN" <<<"$stderr")" 1
	[[ $stderr == *"decisions are unaffected."* ]] || fail "$stderr"
	[ "${#stderr_lines[@]}" -eq 4 ] || fail "expected 3 refusals and 1 warning: $stderr"
	assert_unchanged f
}

# in_private_mount SCRIPT: run SCRIPT as root in a mount namespace of its
# own, so the small file systems it mounts vanish with it.
in_private_mount() {
	[ "$(id -u)" -eq 0 ] || skip "needs root to mount a small file system"
	unshare -m true 2>/dev/null || skip "cannot make a mount namespace here"
	run --separate-stderr unshare -m --propagation private bash -c "$1"
	[ "$status" -ne 99 ] || skip "cannot mount tmpfs here: $stderr"
}

@test "t3420.01 a log on /dev/full: three refusals, three stderr lines, one warning" {
	mkfile f original
	snapshot f
	run --separate-stderr "$RG" run --log /dev/full -- python3 -c "$THREE"
	assert_three_refusals_one_warning
}

@test "t3420.02 a log on /dev/full: each process warns once" {
	mkfile f original
	run --separate-stderr "$RG" run --log /dev/full -- bash -c '
		"$T/rgprobe" open f O_WRONLY; "$T/rgprobe" open f O_WRONLY'
	assert_equal "${lines[*]}" "err EACCES err EACCES"
	assert_equal "$(count_rg_lines)" 2
	assert_equal "$(grep -c "^$LOGWARN" <<<"$stderr")" 2
}

@test "t3420.03 a log on /dev/full does not stop a write after a read" {
	mkfile f original
	run --separate-stderr "$RG" run --log /dev/full -- bash -c 'cat f >/dev/null && echo new >f'
	assert_success
	assert_equal "$stderr" ""
	assert_content f new
}

@test "t3420.04 a log on a full file system: three refusals, one warning" {
	mkfile f original
	snapshot f
	D="$BATS_TEST_TMPDIR/small"
	mkdir "$D"
	in_private_mount "mount -t tmpfs -o size=64k tmpfs '$D' || exit 99
		head -c 1M /dev/zero >'$D/fill' 2>/dev/null
		exec '$RG' run --log '$D/log' -- python3 -c '$THREE'"
	assert_three_refusals_one_warning
}

@test "t3420.05 a log on a read-only file system: three refusals, one warning" {
	mkfile f original
	snapshot f
	D="$BATS_TEST_TMPDIR/ro"
	mkdir "$D"
	in_private_mount "mount -t tmpfs -o ro tmpfs '$D' || exit 99
		exec '$RG' run --log '$D/log' -- python3 -c '$THREE'"
	assert_three_refusals_one_warning
}

@test "t3420.06 a read-only state directory: the session starts, a process with another one gets three refusals, one warning" {
	mkfile f original
	snapshot f
	local st=$BATS_TEST_TMPDIR/elsewhere
	run_in_readonly "$XDG_STATE_HOME" "$RG" run -- env HOME="$st" XDG_STATE_HOME="$st/state" python3 -c "$THREE"
	assert_three_refusals_one_warning
	assert_not_exist "$st"
}

@test "t3420.07 the log warning names the error and what to do" {
	mkfile f original
	run --separate-stderr "$RG" run --log /dev/full -- "$T/rgprobe" open f O_WRONLY
	[[ $stderr == *"$LOGWARN '/dev/full' (ENOSPC); decisions are unaffected. "*"--log"* ]] || fail "$stderr"
}

@test "t3420.08 a log whose directory cannot be made names why (EROFS), not the open's ENOENT" {
	mkfile f original
	D="$BATS_TEST_TMPDIR/ro"
	mkdir "$D"
	in_private_mount "mount -t tmpfs -o ro tmpfs '$D' || exit 99
		exec env XDG_STATE_HOME='$D/state' '$RG' run --no-journal -- '$T/rgprobe' open f O_WRONLY"
	[[ $stderr == *"$LOGWARN '$D/state/readguard/"*"' (EROFS); "* ]] || fail "$stderr"
}
