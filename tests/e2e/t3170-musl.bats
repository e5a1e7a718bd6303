#!/usr/bin/env bats
# The musl build of the shim (make musl: build/musl/libreadguard.so): musl
# programs are guarded like glibc ones, in the same table, through chains of
# musl and glibc processes, with scrubbed environments, and under
# --supervise. The musl programs are built with musl-gcc here; every test
# skips without it (make test installs Debian's musl-tools).

load helper

MUSL_SHIM="$TOP/build/musl/libreadguard.so"

setup_file() {
	if command -v musl-gcc >/dev/null && [ -f "$TOP/build/musl/libreadguard.so" ]; then
		musl-gcc -O2 -o "$BATS_FILE_TMPDIR/rgm" "$TOP/tests/helpers/musl/rgm.c"
	fi
}

setup() {
	[ -x "$BATS_FILE_TMPDIR/rgm" ] ||
		skip "no musl-gcc, or no musl build of the shim (make musl)"
	common_setup
	M="$BATS_FILE_TMPDIR/rgm"
	export M
}

@test "t3170.01 a musl program's blind write is refused" {
	mkfile f old
	snapshot f
	run --separate-stderr rg "$M" write f new
	assert_failure
	assert_output "err EACCES"
	assert_refused f unread
	assert_unchanged f
}

@test "t3170.02 a musl program may write a file after it read it" {
	mkfile f old
	run --separate-stderr rg "$M" read f write f new
	assert_success
	assert_content f new
}

@test "t3170.03 open(O_TRUNC) and rename over an unread file are refused in a musl program" {
	mkfile f old
	echo x >new
	snapshot f
	run --separate-stderr rg "$M" open-write f new
	assert_output "err EACCES"
	run --separate-stderr rg "$M" rename new f
	assert_output "err EACCES"
	assert_unchanged f
}

@test "t3170.04 a musl program is not named unguarded when the musl shim is there" {
	mkfile f old
	run --separate-stderr rg "$M" read f
	assert_success
	[[ $stderr != *"runs unguarded"* ]] || fail "$stderr"
}

@test "t3170.05 from a glibc shell, a read by cat unlocks a musl program's write, and not before" {
	mkfile f old
	run --separate-stderr rg bash -c '"$0" write f blind; cat f >/dev/null; "$0" write f new' "$M"
	assert_output $'err EACCES\nok'
	assert_content f new
}

@test "t3170.06 a glibc program run by a musl program is guarded, and sees the musl program's read" {
	mkfile f old
	snapshot f
	run --separate-stderr rg "$M" exec /bin/sh -c 'echo new >f'
	assert_failure
	assert_refused f unread
	assert_unchanged f
	run --separate-stderr rg "$M" read f exec /bin/sh -c 'echo new >f'
	assert_success
	assert_content f new
}

@test "t3170.07 a musl program run by a glibc program run by a musl program is guarded" {
	mkfile f old
	snapshot f
	run --separate-stderr rg "$M" exec /bin/sh -c '"$0" write f new' "$M"
	assert_output "err EACCES"
	assert_unchanged f
}

@test "t3170.08 a musl program that empties its environment does not take its children out of the session" {
	mkfile f old
	snapshot f
	run --separate-stderr rg "$M" scrub-exec /bin/sh -c 'echo new >f'
	assert_failure
	assert_refused f unread
	run --separate-stderr rg "$M" scrub-exec "$M" write f new
	assert_output "err EACCES"
	assert_unchanged f
}

@test "t3170.08a a process preloading only the glibc shim hands a musl child the musl shim it built the name of" {
	# A preloaded agent's LD_PRELOAD names one build: the exec hook works the
	# musl entry out for a musl child, and the child must get it whole.
	"$RG" run --session "$W/s" --keep -- true
	mkfile f old
	snapshot f
	run --separate-stderr env LD_PRELOAD="$SHIM" READGUARD_SESSION="$W/s" \
		bash -c '"$M" write f new; "$M" read f write f new2; printenv LD_PRELOAD' 2>"$W/err"
	assert_line --index 0 "err EACCES"
	assert_equal "$(cat f)" new2
	[[ $(<"$W/err") != *"runs unguarded"* ]] || fail "$(<"$W/err")"
}

@test "t3170.09 under --supervise a musl program starts, is refused a blind write, and is allowed after a read" {
	local out
	out=$("$RG" run --supervise -- true 2>&1) || skip "supervised mode unavailable: $out"
	mkfile f old
	snapshot f
	run --separate-stderr "$RG" run --supervise -- bash -c '"$0" write f new' "$M"
	assert_output "err EACCES"
	[[ $stderr != *"Error relocating"* ]] || fail "$stderr"
	assert_unchanged f
	run --separate-stderr "$RG" run --supervise -- "$M" read f exec /bin/sh -c 'echo new >f'
	assert_success
	assert_content f new
}

@test "t3170.10 the musl build of readguard runs a guarded session" {
	[ -x "$TOP/build/musl/readguard" ] || skip "no musl build of readguard"
	mkfile f old
	snapshot f
	run --separate-stderr "$TOP/build/musl/readguard" run -- "$M" write f new
	assert_output "err EACCES"
	run --separate-stderr "$TOP/build/musl/readguard" run -- "$M" exec /bin/sh -c 'echo new >f'
	assert_failure
	assert_unchanged f
	run --separate-stderr "$TOP/build/musl/readguard" run -- sh -c 'cat f >/dev/null; "$0" write f new' "$M"
	assert_success
	assert_content f new
}

@test "t3170.11 make install puts the musl shim beside the glibc one, and the install guards musl programs" {
	local D="$BATS_TEST_TMPDIR/dest" P=/usr/local MA
	MA=$(cc -print-multiarch)
	make -s -C "$TOP" install DESTDIR="$D" PREFIX="$P" >/dev/null || fail "make install failed"
	assert_exist "$D$P/lib/$MA/readguard/musl/libreadguard.so"
	mkfile f old
	snapshot f
	run --separate-stderr "$D$P/bin/readguard" run -- "$M" exec /bin/sh -c '"$0" write f new' "$M"
	assert_output "err EACCES"
	assert_unchanged f
	run --separate-stderr "$D$P/bin/readguard" run -- "$M" read f exec /bin/sh -c 'echo new >f'
	assert_success
	assert_content f new
}
