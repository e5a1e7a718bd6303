#!/usr/bin/env bats
# Exec and environment: a program that scrubs its children's environment
# (env -i, subprocess env={}, os.execve with {}, Rust's env_clear) does not
# take them out of the session, through any exec or spawn entry point.

load helper

EXEC="$T/rgexec"

# The forms that search PATH get a bare name; the others a full path.
prog_for() {
	case $1 in
	execvp | execlp | posix_spawnp | system | popen | io_popen) echo "$2" ;;
	*) command -v "$2" ;;
	esac
}

VIAS="execve execv execvp execvpe execl execlp execle execveat fexecve posix_spawn posix_spawnp system popen io_popen vfork-execve"

@test "t3150.01 every exec and spawn entry point hands an emptied environment the session" {
	for via in $VIAS; do
		run --separate-stderr rg bash -c 'echo "session=$READGUARD_SESSION"; "$0" "$1" "$2"' \
			"$EXEC" "$via" "$(prog_for "$via" env)"
		assert_success
		local session=${lines[0]#session=}
		[ -n "$session" ] || fail "$via: no session in the parent"
		assert_has_line "LD_PRELOAD=$SHIM" || fail "$via: no LD_PRELOAD"
		assert_has_line "READGUARD_SESSION=$session" || fail "$via: not the same session"
		assert_has_line "UV_USE_IO_URING=0" || fail "$via: io_uring not off"
	done
}

@test "t3150.02 a blind write through every exec and spawn entry point with an empty environment is refused" {
	mkfile f original
	snapshot f
	for via in $VIAS; do
		run --separate-stderr rg "$EXEC" "$via" "$(prog_for "$via" sh)" -c 'echo new >f'
		assert_failure
		assert_refused f unread
	done
	assert_unchanged f
}

@test "t3150.15 the forms without an envp pass the environment as the program left it, not as it started" {
	for via in execv execvp execl execlp system popen; do
		run --separate-stderr rg bash -c 'export RG_AT_START=1; exec "$@"' - \
			"$EXEC" "$via" "$(prog_for "$via" env)"
		assert_success
		assert_has_line "LD_PRELOAD=$SHIM" || fail "$via: no LD_PRELOAD"
		! grep -qx 'RG_AT_START=1' <<<"$output" || fail "$via: the cleared environment came back"
	done
}

@test "t3150.03 env -i does not leave the session" {
	mkfile f original
	snapshot f
	run --separate-stderr rg env -i sh -c 'echo new >f'
	assert_failure
	assert_refused f unread
	assert_unchanged f
}

@test "t3150.04 env -u LD_PRELOAD -u READGUARD_SESSION does not leave the session" {
	mkfile f original
	snapshot f
	run --separate-stderr rg env -u LD_PRELOAD -u READGUARD_SESSION sh -c 'echo new >f'
	assert_failure
	assert_refused f unread
	assert_unchanged f
}

@test "t3150.05 python subprocess with env={} does not leave the session" {
	mkfile f original
	snapshot f
	run --separate-stderr rg python3 -c '
import subprocess, sys
sys.exit(subprocess.run(["/bin/sh", "-c", "echo new >f"], env={}).returncode)'
	assert_failure
	assert_refused f unread
	assert_unchanged f
}

@test "t3150.06 python os.execve with an empty environment does not leave the session" {
	mkfile f original
	snapshot f
	run --separate-stderr rg python3 -c '
import os
os.execve("/bin/sh", ["sh", "-c", "echo new >f"], {})'
	assert_failure
	assert_refused f unread
	assert_unchanged f
}

@test "t3150.07 a session the preload created itself survives env -i" {
	mkfile f original
	snapshot f
	run --separate-stderr env LD_PRELOAD="$SHIM" bash -c '
		echo "session=$READGUARD_SESSION"
		env -i /usr/bin/env
		env -i sh -c "echo new >f"'
	assert_failure
	assert_refused f unread
	assert_unchanged f
	local session=${lines[0]#session=}
	[ -n "$session" ] || fail "the preload made no session"
	assert_line "READGUARD_SESSION=$session"
}

@test "t3150.08 the shim is prepended to an LD_PRELOAD that lost it" {
	local other
	other=$(find /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu -maxdepth 1 -name 'libm.so.6' | head -1)
	[ -n "$other" ] || skip "no libm.so.6 to preload"
	run --separate-stderr rg env LD_PRELOAD="$other" /usr/bin/env
	assert_success
	assert_line "LD_PRELOAD=$SHIM:$other"
}

@test "t3150.09 an LD_PRELOAD that still names the shim is left as it is" {
	run --separate-stderr rg bash -c 'LD_PRELOAD="$LD_PRELOAD " exec /usr/bin/env'
	assert_success
	assert_line "LD_PRELOAD=$SHIM "
}

@test "t3150.10 UV_USE_IO_URING is 0 in the whole tree, whatever a program sets" {
	run --separate-stderr rg sh -c 'echo "first=$UV_USE_IO_URING"; UV_USE_IO_URING=1 /usr/bin/env'
	assert_success
	assert_line "first=0"
	assert_line "UV_USE_IO_URING=0"
	refute_line "UV_USE_IO_URING=1"
}

@test "t3150.11 a nested readguard run keeps the session it made" {
	run --separate-stderr rg bash -c 'echo "outer=$READGUARD_SESSION"; "$RG" run -- printenv READGUARD_SESSION'
	assert_success
	[ "${lines[0]#outer=}" != "${lines[1]}" ] || fail "the inner run got the outer session: $output"
}

@test "t3150.12 a session whose table is gone is not rejoined" {
	run --separate-stderr rg bash -c 'rm -f "$READGUARD_SESSION"; env -i /usr/bin/env'
	assert_success
	refute_line --partial "LD_PRELOAD="
	refute_line --partial "READGUARD_SESSION="
}

@test "t3150.13 an environment too large for the stack copy still gets the session" {
	run --separate-stderr rg python3 -c '
import os
env = {"V%d" % i: "x" * 64 for i in range(2000)}
os.execve("/usr/bin/env", ["env"], env)'
	assert_success
	assert_has_line "LD_PRELOAD=$SHIM"
	assert_has_line "UV_USE_IO_URING=0"
	assert_has_line "V1999=$(printf 'x%.0s' {1..64})"
}

@test "t3150.14 a Rust program's Command::env_clear does not leave the session" {
	local rustc
	rustc=$(command -v rustc || echo "$HOME/.cargo/bin/rustc")
	[ -x "$rustc" ] || skip "no rustc (rgexec execve/posix_spawn with an empty envp covers the same calls)"
	cat >"$BATS_TEST_TMPDIR/clear.rs" <<'RS'
use std::process::Command;
fn main() {
    let st = Command::new("/bin/sh").env_clear().arg("-c").arg("echo new >f").status().unwrap();
    std::process::exit(st.code().unwrap_or(1));
}
RS
	"$rustc" -O -o "$BATS_TEST_TMPDIR/clear" "$BATS_TEST_TMPDIR/clear.rs" || fail "rustc failed"
	mkfile f original
	snapshot f
	run --separate-stderr rg "$BATS_TEST_TMPDIR/clear"
	assert_failure
	assert_refused f unread
	assert_unchanged f
}

@test "t3150.16 a vfork child's environment too large for the stack copy is not left mapped in its parent" {
	run --separate-stderr rg "$EXEC" vfork-bigenv 100 /bin/true
	assert_success
	# Mapped per exec, 100 children would leave some 4.8 MiB behind.
	[ "$output" -lt 512 ] || fail "the parent's address space grew by $output KiB"
}

@test "t3150.17 an emptied environment gets the shim's entry and the session as the program started with them, whatever their length" {
	local other
	other=$(find /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu -maxdepth 1 -name 'libm.so.6' | head -1)
	[ -n "$other" ] || skip "no libm.so.6 to preload"
	# Runs of slashes move where each entry starts and ends within the
	# words the start-up copy reads them by.
	run --separate-stderr rg bash -c '
		shim=$1 other=$2
		for k in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do
			pads=$(printf "%*s" "$k" "" | tr " " /)
			own="${shim%/*}$pads/${shim##*/}"
			s="${READGUARD_SESSION%/*}$pads/${READGUARD_SESSION##*/}"
			got=$(LD_PRELOAD="$pads$other:$own $other" READGUARD_SESSION=$s env -i /usr/bin/env |
				grep -e ^LD_PRELOAD= -e ^READGUARD_SESSION= | sort | tr "\n" " ")
			want="LD_PRELOAD=$own READGUARD_SESSION=$s "
			[ "$got" = "$want" ] && echo "ok $k" || echo "bad $k: got [$got] want [$want]"
		done' _ "$SHIM" "$other"
	assert_success
	refute_output --partial bad
	assert_line "ok 17"
}

# Lookups of the session's table that a guarded bash makes for N runs of
# COMMAND (default /bin/true) with an environment that already carries the
# session, and for one `test -e` of the table, which shows that the trace
# sees such a lookup.
table_looks() {
	rg bash -c 'strace -f -qq -s 4096 -e trace=stat,lstat,newfstatat,statx -o "$2" \
		bash -c "test -e \"\$READGUARD_SESSION\"; for i in \$(seq $1); do $3; done" &&
		grep -c -F "\"$READGUARD_SESSION\"" "$2"' _ "$1" "$W/looks.$1.tr" "${2:-/bin/true}"
}

@test "t3150.18 a command whose environment carries the session is exec'd without a look at its table" {
	need_strace
	local one ten
	one=$(table_looks 1) ten=$(table_looks 10)
	assert_equal "$one" 1
	# Whether the table is still there changes nothing for an envp that
	# lacks nothing: it goes on as it is either way (t3150.12 has the other).
	assert_equal "$ten" "$one"
}

@test "t3150.19 a program found on PATH by execvp, its environment carrying the session, is exec'd without a look at its table" {
	need_strace
	local one ten
	# env runs its program by execvp.
	one=$(table_looks 1 "env true") ten=$(table_looks 10 "env true")
	assert_equal "$one" 1
	assert_equal "$ten" "$one"
}

@test "t3150.20 a READGUARD_SESSION naming no table does not leave the session: a blind write is refused" {
	mkfile f original
	snapshot f
	run --separate-stderr rg env READGUARD_SESSION=garbage sh -c 'echo new >f'
	assert_failure
	assert_unchanged f
}

@test "t3150.21 an LD_PRELOAD naming a missing library does not leave the session" {
	mkfile f original
	snapshot f
	run --separate-stderr rg env LD_PRELOAD=/nonexistent/lib.so sh -c 'echo new >f'
	assert_failure
	assert_refused f unread
	assert_unchanged f
}
