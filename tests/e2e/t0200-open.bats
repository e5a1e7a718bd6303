#!/usr/bin/env bats
# Entry points one by one, through the rgprobe driver (one libc call per
# invocation): open flags, creat, fopen/freopen modes, fortified and 64-bit
# variants, openat, raw syscalls, rename family, truncate, non-regular files,
# errno preservation.

load helper

# probe OP ARGS...: one rgprobe call in a fresh session.
probe() {
	rg "$T/rgprobe" "$@"
}

# probe_with BINARY OP ARGS...: same with another build of rgprobe.
probe_with() {
	local bin=$1
	shift
	rg "$T/$bin" "$@"
}

# probe_after_read "FILE..." OP ARGS...: in one session, read each FILE with
# rgprobe, then make the call.
probe_after_read() {
	rg bash -c 'for f in $1; do "$T/rgprobe" read "$f" >/dev/null || exit 99; done; shift; exec "$T/rgprobe" "$@"' _ "$@"
}

# --- open(2) flags ---------------------------------------------------------

@test "t0200.01 open O_WRONLY|O_TRUNC of an unread file: EACCES, one stderr line, content and ns mtime intact" {
	mkfile f 'original content'
	snapshot f
	run --separate-stderr probe open f 'O_WRONLY|O_TRUNC'
	assert_probe_err EACCES
	assert_refused f unread
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "expected exactly one stderr line, got: $stderr"
	assert_unchanged f
	assert_content f 'original content'
}

@test "t0200.02 open O_WRONLY|O_TRUNC after a read is allowed and truncates" {
	mkfile f 'original content'
	run --separate-stderr probe_after_read f open f 'O_WRONLY|O_TRUNC'
	assert_probe_ok
	refute_refused
	assert_file_size_equals f 0
}

@test "t0200.03 open O_RDONLY|O_TRUNC of an unread file is refused and does not truncate" {
	mkfile f 'original content'
	snapshot f
	run --separate-stderr probe open f 'O_RDONLY|O_TRUNC'
	assert_probe_err EACCES
	assert_refused f unread
	assert_unchanged f
}

@test "t0200.04 open O_RDONLY|O_TRUNC after a read is allowed (and truncates)" {
	mkfile f 'original content'
	run --separate-stderr probe_after_read f open f 'O_RDONLY|O_TRUNC'
	assert_probe_ok
	refute_refused
	assert_file_size_equals f 0
}

@test "t0200.05 open O_WRONLY without O_TRUNC of an unread file is refused" {
	mkfile f original
	snapshot f
	run --separate-stderr probe open f O_WRONLY
	assert_probe_err EACCES
	assert_refused f unread
	assert_unchanged f
}

@test "t0200.06 open O_RDWR of an unread file is refused" {
	mkfile f original
	snapshot f
	run --separate-stderr probe open f O_RDWR
	assert_probe_err EACCES
	assert_refused f unread
	assert_unchanged f
}

@test "t0200.07 open O_WRONLY|O_APPEND of an unread file is refused" {
	mkfile f original
	snapshot f
	run --separate-stderr probe open f 'O_WRONLY|O_APPEND'
	assert_probe_err EACCES
	assert_refused f unread
	assert_unchanged f
}

@test "t0200.08 open O_WRONLY|O_CREAT of an existing unread file is refused" {
	mkfile f original
	snapshot f
	run --separate-stderr probe open f 'O_WRONLY|O_CREAT' 0644
	assert_probe_err EACCES
	assert_refused f unread
	assert_unchanged f
}

@test "t0200.09 open O_WRONLY|O_CREAT|O_TRUNC of a new file is allowed" {
	run --separate-stderr probe open f 'O_WRONLY|O_CREAT|O_TRUNC' 0600
	assert_probe_ok
	refute_refused
	assert_file_exist f
	[ "$(stat -c %a f)" = 600 ] || fail "mode argument not passed: $(stat -c %a f)"
}

@test "t0200.10 O_CREAT|O_EXCL on an existing unread file gives EEXIST, not EACCES" {
	mkfile f original
	snapshot f
	run --separate-stderr probe open f 'O_WRONLY|O_CREAT|O_EXCL'
	assert_probe_err EEXIST
	refute_refused
	assert_unchanged f
}

@test "t0200.11 O_CREAT|O_EXCL on a new file is allowed" {
	run --separate-stderr probe open f 'O_RDWR|O_CREAT|O_EXCL'
	assert_probe_ok
	refute_refused
	assert_file_exist f
}

@test "t0200.12 a write-open under a missing parent directory gives ENOENT" {
	run --separate-stderr probe open nodir/f 'O_WRONLY|O_CREAT|O_TRUNC'
	assert_probe_err ENOENT
	refute_refused
}

@test "t0200.13 a write-open through a regular file used as a directory gives ENOTDIR" {
	mkfile f original
	run --separate-stderr probe open f/g 'O_WRONLY|O_CREAT'
	assert_probe_err ENOTDIR
	refute_refused
}

@test "t0200.14 a write-open of a directory gives EISDIR, not EACCES" {
	mkdir d
	run --separate-stderr probe open d O_WRONLY
	assert_probe_err EISDIR
	refute_refused
}

@test "t0200.15 O_TMPFILE (an anonymous new file) in the root is allowed" {
	run --separate-stderr probe open . 'O_TMPFILE|O_WRONLY' 0600
	assert_probe_ok
	refute_refused
}

@test "t0200.16 a write-open of an unread file outside the root is allowed" {
	mkfile "$OUT/f" original
	run --separate-stderr probe open "$OUT/f" 'O_WRONLY|O_TRUNC'
	assert_probe_ok
	refute_refused
	assert_file_size_equals "$OUT/f" 0
}

# --- creat -------------------------------------------------------------------

@test "t0200.17 creat of an existing unread file is refused" {
	mkfile f original
	snapshot f
	run --separate-stderr probe creat f
	assert_probe_err EACCES
	assert_refused f unread
	assert_unchanged f
}

@test "t0200.18 creat of a new file is allowed" {
	run --separate-stderr probe creat f
	assert_probe_ok
	refute_refused
	assert_file_exist f
}

@test "t0200.19 creat after a read is allowed (and truncates)" {
	mkfile f original
	run --separate-stderr probe_after_read f creat f
	assert_probe_ok
	refute_refused
	assert_file_size_equals f 0
}

# --- fopen / freopen ---------------------------------------------------------

@test "t0200.20 fopen modes w a r+ w+ a+ on an unread file are all refused" {
	mkfile f original
	snapshot f
	for m in w a r+ w+ a+; do
		run --separate-stderr probe fopen f "$m"
		assert_probe_err EACCES
		assert_refused f unread
		assert_unchanged f
	done
}

@test "t0200.21 fopen write modes with modifiers (b e m, any order) are refused" {
	mkfile f original
	snapshot f
	for m in wb we wbe ab ae r+b rb+ r+e w+b wb+ a+e ab+ wm; do
		run --separate-stderr probe fopen f "$m"
		[ "$status" -eq 1 ] || fail "fopen mode '$m' was not refused: $output"
		assert_probe_err EACCES
		assert_refused f unread
		assert_unchanged f
	done
}

@test "t0200.22 fopen wx on a new file is allowed" {
	run --separate-stderr probe fopen f wx
	assert_probe_ok
	refute_refused
	assert_file_exist f
}

@test "t0200.23 fopen wx on an existing unread file gives EEXIST, not EACCES" {
	mkfile f original
	snapshot f
	run --separate-stderr probe fopen f wx
	assert_probe_err EEXIST
	refute_refused
	assert_unchanged f
}

@test "t0200.24 fopen r, re, rb, rm are reads that unlock a later write" {
	for m in r re rb rm; do
		mkfile f original
		run --separate-stderr rg sh -c '"$T/rgprobe" fopen f "$1" >/dev/null || exit 99; "$T/rgprobe" write f "new-$1"' _ "$m"
		assert_success
		refute_refused
		assert_content f "new-$m"
	done
}

@test "t0200.25 fopen w after a read is allowed (and truncates)" {
	mkfile f original
	run --separate-stderr probe_after_read f fopen f w
	assert_probe_ok
	refute_refused
	assert_file_size_equals f 0
}

@test "t0200.26 fopen a+ after a read is allowed" {
	mkfile f original
	run --separate-stderr probe_after_read f fopen f a+
	assert_probe_ok
	refute_refused
	assert_content f original
}

@test "t0200.27 freopen w and r+ on an unread file are refused" {
	mkfile f original
	snapshot f
	for m in w r+ a; do
		run --separate-stderr probe freopen f "$m"
		assert_probe_err EACCES
		assert_refused f unread
		assert_unchanged f
	done
}

@test "t0200.28 freopen r is a read that unlocks a later write" {
	mkfile f original
	run --separate-stderr rgsh '"$T/rgprobe" freopen f r >/dev/null || exit 99; "$T/rgprobe" write f new'
	assert_success
	refute_refused
	assert_content f new
}

@test "t0200.29 freopen w after a read is allowed" {
	mkfile f original
	run --separate-stderr probe_after_read f freopen f w
	assert_probe_ok
	refute_refused
	assert_file_size_equals f 0
}

# --- fortified and 64-bit builds ----------------------------------------------

@test "t0200.30 the fortified probe really calls __open_2 and __openat_2" {
	run nm -D "$T/rgprobe-fortify"
	assert_success
	assert_output --partial ' U __open_2'
	assert_output --partial ' U __openat_2'
}

@test "t0200.31 fortified open (__open_2) of an unread file is refused" {
	mkfile f original
	snapshot f
	for fl in O_WRONLY 'O_WRONLY|O_TRUNC' 'O_RDONLY|O_TRUNC' O_RDWR; do
		run --separate-stderr probe_with rgprobe-fortify open f "$fl"
		assert_probe_err EACCES
		assert_refused f unread
		assert_unchanged f
	done
}

@test "t0200.32 fortified openat (__openat_2) of an unread file is refused" {
	mkdir d
	mkfile d/f original
	snapshot d/f
	run --separate-stderr probe_with rgprobe-fortify openat d f 'O_WRONLY|O_TRUNC'
	assert_probe_err EACCES
	assert_refused d/f unread
	assert_unchanged d/f
}

@test "t0200.33 fortified open O_RDONLY (__open_2) counts as a read" {
	mkfile f original
	run --separate-stderr rgsh '"$T/rgprobe-fortify" open f O_RDONLY >/dev/null || exit 99; "$T/rgprobe-fortify" open f "O_WRONLY|O_TRUNC"'
	assert_probe_ok
	refute_refused
	assert_file_size_equals f 0
}

@test "t0200.34 the 64-bit-offset probe really calls the *64 entry points" {
	run nm -D "$T/rgprobe64"
	assert_success
	for s in open64 openat64 creat64 fopen64 freopen64 truncate64; do
		assert_output --partial " U $s@"
	done
}

@test "t0200.35 64-bit entry points (open64 openat64 creat64 fopen64 freopen64 truncate64) refuse an unread file" {
	mkdir d
	mkfile d/f original
	snapshot d/f
	for call in "open d/f O_WRONLY" "openat d f O_WRONLY|O_TRUNC" "creat d/f" \
		"fopen d/f w" "freopen d/f r+" "truncate d/f 0"; do
		# shellcheck disable=SC2086
		run --separate-stderr probe_with rgprobe64 $call
		[ "$status" -eq 1 ] || fail "'$call' was not refused: $output"
		assert_probe_err EACCES
		n=$(count_rg_lines)
		[ "$n" -eq 1 ] || fail "'$call': expected one refusal line, got: $stderr"
		[[ $stderr == *"$MSG_UNREAD"* ]] || fail "'$call': wrong reason: $stderr"
		assert_unchanged d/f
	done
}

@test "t0200.36 64-bit reads (open64, fopen64) count as reads" {
	mkfile f original
	mkfile g original
	run --separate-stderr rgsh '"$T/rgprobe64" open f O_RDONLY >/dev/null && "$T/rgprobe64" fopen g r >/dev/null || exit 99
		"$T/rgprobe64" truncate f 1 && "$T/rgprobe64" fopen g w'
	assert_success
	refute_refused
	assert_file_size_equals f 1
	assert_file_size_equals g 0
}

@test "t0200.37 fortified 64-bit opens (__open64_2, __openat64_2) refuse an unread file" {
	run nm -D "$T/rgprobe-f64"
	assert_output --partial ' U __open64_2'
	assert_output --partial ' U __openat64_2'
	mkdir d
	mkfile d/f original
	snapshot d/f
	run --separate-stderr probe_with rgprobe-f64 open d/f 'O_WRONLY|O_TRUNC'
	assert_probe_err EACCES
	assert_refused d/f unread
	run --separate-stderr probe_with rgprobe-f64 openat d f O_RDWR
	assert_probe_err EACCES
	assert_refused d/f unread
	assert_unchanged d/f
}

@test "t0200.38 fortified 64-bit open O_RDONLY (__open64_2) counts as a read" {
	mkfile f original
	run --separate-stderr rgsh '"$T/rgprobe-f64" open f O_RDONLY >/dev/null || exit 99; "$T/rgprobe-f64" open f "O_WRONLY|O_TRUNC"'
	assert_probe_ok
	refute_refused
	assert_file_size_equals f 0
}

# --- openat with a directory fd ---------------------------------------------

@test "t0200.39 openat(dirfd, name) of an unread file is refused, naming it from the working directory" {
	mkdir d
	mkfile d/f original
	snapshot d/f
	run --separate-stderr probe openat d f 'O_WRONLY|O_TRUNC'
	assert_probe_err EACCES
	assert_refused d/f unread
	assert_unchanged d/f
}

@test "t0200.40 openat(dirfd, name) is allowed after the file was read by another path" {
	mkdir d
	mkfile d/f original
	run --separate-stderr probe_after_read "$W/d/f" openat d f 'O_WRONLY|O_TRUNC'
	assert_probe_ok
	refute_refused
	assert_file_size_equals d/f 0
}

@test "t0200.41 openat(dirfd, name) O_RDONLY counts as a read" {
	mkdir d
	mkfile d/f original
	run --separate-stderr rgsh '"$T/rgprobe" openat d f O_RDONLY >/dev/null || exit 99; "$T/rgprobe" write d/f new'
	assert_success
	refute_refused
	assert_content d/f new
}

@test "t0200.42 openat(dirfd, name) resolves against the dirfd, not the cwd" {
	# ./f is unread and must stay untouched; d/f was read.
	mkdir d
	mkfile d/f original
	mkfile f other
	snapshot f
	run --separate-stderr probe_after_read d/f openat d f 'O_WRONLY|O_TRUNC'
	assert_probe_ok
	assert_file_size_equals d/f 0
	assert_unchanged f
	snapshot d/f
	run --separate-stderr probe_after_read f openat d f 'O_WRONLY|O_TRUNC'
	assert_probe_err EACCES
	assert_refused d/f unread
	assert_unchanged f d/f
}

@test "t0200.43 openat(dirfd) creating a new file is allowed" {
	mkdir d
	run --separate-stderr probe openat d new 'O_WRONLY|O_CREAT|O_EXCL'
	assert_probe_ok
	refute_refused
	assert_file_exist d/new
}

# --- raw syscalls through syscall(2) ------------------------------------------

@test "t0200.44 syscall(SYS_openat) write-open of an unread file is refused" {
	mkfile f original
	snapshot f
	run --separate-stderr probe sys_openat f 'O_WRONLY|O_TRUNC'
	assert_probe_err EACCES
	assert_refused f unread
	assert_unchanged f
}

@test "t0200.45 syscall(SYS_openat) is allowed after a read, and its O_RDONLY counts as a read" {
	mkfile f original
	run --separate-stderr rgsh '"$T/rgprobe" sys_openat f O_RDONLY >/dev/null || exit 99; "$T/rgprobe" sys_openat f "O_WRONLY|O_TRUNC"'
	assert_probe_ok
	refute_refused
	assert_file_size_equals f 0
}

@test "t0200.46 syscall(SYS_openat2) write-open of an unread file is refused" {
	mkfile "$OUT/probe" x
	run "$T/rgprobe" sys_openat2 "$OUT/probe" O_RDONLY
	[ "$output" != "err ENOSYS" ] || skip "kernel has no openat2"
	mkfile f original
	snapshot f
	run --separate-stderr probe sys_openat2 f 'O_WRONLY|O_TRUNC'
	assert_probe_err EACCES
	assert_refused f unread
	assert_unchanged f
}

@test "t0200.47 syscall(SYS_openat2) O_RDONLY counts as a read" {
	mkfile "$OUT/probe" x
	run "$T/rgprobe" sys_openat2 "$OUT/probe" O_RDONLY
	[ "$output" != "err ENOSYS" ] || skip "kernel has no openat2"
	mkfile f original
	run --separate-stderr rgsh '"$T/rgprobe" sys_openat2 f O_RDONLY >/dev/null || exit 99; "$T/rgprobe" sys_openat2 f "O_WRONLY|O_TRUNC"'
	assert_probe_ok
	refute_refused
	assert_file_size_equals f 0
}

@test "t0200.48 syscall(SYS_open) write-open of an unread file is refused" {
	mkfile f original
	snapshot f
	run --separate-stderr probe sys_open f 'O_WRONLY|O_TRUNC'
	assert_probe_err EACCES
	assert_refused f unread
	assert_unchanged f
}

@test "t0200.49 syscall(SYS_rename) onto an unread file is refused, both files intact" {
	mkfile f original
	mkfile src replacement
	snapshot f src
	run --separate-stderr probe sys_rename src f
	assert_probe_err EACCES
	assert_refused f unread
	assert_unchanged f src
}

@test "t0200.50 syscall(SYS_renameat2) onto an unread file is refused" {
	mkfile f original
	mkfile src replacement
	snapshot f src
	run --separate-stderr probe sys_renameat2 src f 0
	assert_probe_err EACCES
	assert_refused f unread
	assert_unchanged f src
}

@test "t0200.51 syscall(SYS_truncate) of an unread file is refused" {
	mkfile f original
	snapshot f
	run --separate-stderr probe sys_truncate f 0
	assert_probe_err EACCES
	assert_refused f unread
	assert_unchanged f
}

@test "t0200.52 syscall(SYS_truncate) after a read is allowed" {
	mkfile f original
	run --separate-stderr probe_after_read f sys_truncate f 3
	assert_probe_ok
	refute_refused
	assert_content f ori
}

@test "t0200.52a a file written and closed by syscall(SYS_close) stays writable to the session" {
	run --separate-stderr rgsh '"$T/rgprobe" sys_close_write f one >/dev/null || exit 99; "$T/rgprobe" append f two'
	assert_probe_ok
	refute_refused
	assert_content f onetwo
}

# --- rename family -------------------------------------------------------

@test "t0200.53 rename onto an unread file is refused and both files are intact" {
	mkfile f original
	mkfile src replacement
	snapshot f src
	run --separate-stderr probe rename src f
	assert_probe_err EACCES
	assert_refused f unread
	assert_unchanged f src
}

@test "t0200.54 rename onto a new name is allowed (the source need not be read)" {
	mkfile src content
	run --separate-stderr probe rename src dst
	assert_probe_ok
	refute_refused
	assert_not_exist src
	assert_content dst content
}

@test "t0200.55 rename onto a file that was read is allowed" {
	mkfile f original
	mkfile src replacement
	run --separate-stderr probe_after_read f rename src f
	assert_probe_ok
	refute_refused
	assert_not_exist src
	assert_content f replacement
}

@test "t0200.56 renameat onto an unread file is refused" {
	mkfile f original
	mkfile src replacement
	snapshot f src
	run --separate-stderr probe renameat src f
	assert_probe_err EACCES
	assert_refused f unread
	assert_unchanged f src
}

@test "t0200.57 renameat2 (flags 0) onto an unread file is refused" {
	mkfile f original
	mkfile src replacement
	snapshot f src
	run --separate-stderr probe renameat2 src f 0
	assert_probe_err EACCES
	assert_refused f unread
	assert_unchanged f src
}

@test "t0200.58 renameat2 RENAME_EXCHANGE is refused when the destination is unread" {
	mkfile a AAA
	mkfile b BBB
	snapshot a b
	run --separate-stderr probe_after_read a renameat2 a b RENAME_EXCHANGE
	assert_probe_err EACCES
	assert_refused b unread
	assert_unchanged a b
}

@test "t0200.59 renameat2 RENAME_EXCHANGE is refused when the source is unread" {
	mkfile a AAA
	mkfile b BBB
	snapshot a b
	run --separate-stderr probe_after_read b renameat2 a b RENAME_EXCHANGE
	assert_probe_err EACCES
	assert_refused a unread
	assert_unchanged a b
}

@test "t0200.60 renameat2 RENAME_EXCHANGE is allowed when both sides were read" {
	mkfile a AAA
	mkfile b BBB
	run --separate-stderr probe_after_read "a b" renameat2 a b RENAME_EXCHANGE
	assert_probe_ok
	refute_refused
	assert_content a BBB
	assert_content b AAA
}

@test "t0200.61 renameat2 RENAME_NOREPLACE onto an existing file gives EEXIST, not EACCES" {
	mkfile f original
	mkfile src replacement
	snapshot f src
	run --separate-stderr probe renameat2 src f RENAME_NOREPLACE
	assert_probe_err EEXIST
	refute_refused
	assert_unchanged f src
}

@test "t0200.62 renameat2 RENAME_NOREPLACE onto a new name is allowed" {
	mkfile src content
	run --separate-stderr probe renameat2 src dst RENAME_NOREPLACE
	assert_probe_ok
	refute_refused
	assert_content dst content
	assert_not_exist src
}

@test "t0200.63 a file renamed into place by the session stays writable" {
	mkfile f original
	run --separate-stderr rgsh '"$T/rgprobe" read f >/dev/null && "$T/rgprobe" write tmp v2 >/dev/null && "$T/rgprobe" rename tmp f >/dev/null && "$T/rgprobe" write f v3'
	assert_success
	refute_refused
	assert_content f v3
}

# --- truncate --------------------------------------------------------------

@test "t0200.64 truncate of an unread file is refused and the size is kept" {
	mkfile f original
	snapshot f
	run --separate-stderr probe truncate f 0
	assert_probe_err EACCES
	assert_refused f unread
	assert_unchanged f
	assert_file_size_equals f 9
}

@test "t0200.65 truncate after a read is allowed" {
	mkfile f original
	run --separate-stderr probe_after_read f truncate f 3
	assert_probe_ok
	refute_refused
	assert_content f ori
}

@test "t0200.66 truncate of a missing file gives ENOENT" {
	run --separate-stderr probe truncate missing 0
	assert_probe_err ENOENT
	refute_refused
}

# --- what is not a read; what is not a regular file --------------------------

@test "t0200.67 an O_PATH open is not a read: a later write is refused" {
	mkfile f original
	snapshot f
	run --separate-stderr rgsh '"$T/rgprobe" opath f >/dev/null || exit 99; "$T/rgprobe" open f "O_WRONLY|O_TRUNC"'
	assert_probe_err EACCES
	assert_refused f unread
	assert_unchanged f
}

@test "t0200.67b an O_PATH open with write bits is neither refused nor a write" {
	mkfile f original
	snapshot f
	run --separate-stderr rg "$T/rgprobe" open f "O_PATH|O_WRONLY|O_TRUNC"
	assert_probe_ok
	refute_refused
	assert_unchanged f
}

@test "t0200.68 opening the directory is not a read of the files in it" {
	mkdir d
	mkfile d/f original
	snapshot d/f
	run --separate-stderr rgsh '"$T/rgprobe" open d "O_RDONLY|O_DIRECTORY" >/dev/null || exit 99; ls d >/dev/null; "$T/rgprobe" open d/f O_WRONLY'
	assert_probe_err EACCES
	assert_refused d/f unread
	assert_unchanged d/f
}

@test "t0200.69 a failed read-open (ENOENT) does not unlock a file created later outside the session" {
	bg_session '"$T/rgprobe" read f' '"$T/rgprobe" open f O_WRONLY'
	mkfile f 'created outside'
	snapshot f
	bg_finish
	assert_line --index 0 'err ENOENT'
	assert_probe_err EACCES
	assert_refused f unread
	assert_unchanged f
}

@test "t0200.70 writes to /dev/null are untouched even with /dev as a root" {
	run --separate-stderr "$RG" run --log "$LOG" --root /dev --root "$W" -- \
		sh -c '"$T/rgprobe" open /dev/null "O_WRONLY|O_TRUNC" && "$T/rgprobe" fopen /dev/null w && "$T/rgprobe" creat /dev/null'
	assert_success
	refute_refused
	assert_output --regexp '^ok'
}

@test "t0200.71 writes to a FIFO in the root are untouched" {
	mkfifo p
	make_old p
	cat p >fifo-out 3>&- &
	FIFO_PID=$!
	run --separate-stderr rgsh '"$T/rgprobe" write p "through the fifo"'
	assert_success
	refute_refused
	wait "$FIFO_PID"
	FIFO_PID=
	assert_content fifo-out 'through the fifo'
}

# --- errno preservation --------------------------------------------------------

@test "t0200.72 errno is preserved by successful calls inside the root" {
	mkfile f original
	mkfile g original
	mkfile h original
	run --separate-stderr rgsh '
		set -e
		P="$T/rgprobe"
		$P read f; $P open f O_RDONLY; $P open f "O_WRONLY|O_TRUNC"
		$P open new1 "O_WRONLY|O_CREAT|O_EXCL"; $P creat new2; $P creat f
		$P fopen g r; $P fopen g w; $P fopen new3 wx; $P freopen g a
		$P openat . f O_RDWR; $P sys_openat f O_RDWR; $P sys_openat2 f O_RDONLY
		$P write new4 x; $P rename new4 new5; $P renameat new5 new6
		$P read h; $P rename new6 h; $P renameat2 new2 new7 RENAME_NOREPLACE
		$P truncate f 0; $P sys_truncate f 0; $P opath f; $P open . "O_RDONLY|O_DIRECTORY"
		"$T/rgprobe-fortify" open g O_RDWR; "$T/rgprobe64" open g O_RDWR
		"$T/rgprobe-f64" open g O_RDWR; "$T/rgprobe64" fopen g a
		echo all-ok'
	[ "$status" -ne 3 ] || fail "errno was clobbered: $output"
	assert_success
	refute_output --partial errno-clobbered
	assert_line all-ok
	refute_refused
}

@test "t0200.73 errno is preserved by successful calls outside the root" {
	mkfile "$OUT/f" original
	run --separate-stderr rgsh '
		set -e
		P="$T/rgprobe"
		$P open "$OUT/f" "O_WRONLY|O_TRUNC"; $P fopen "$OUT/f" w; $P truncate "$OUT/f" 0
		$P write "$OUT/g" x; $P rename "$OUT/g" "$OUT/f"; $P open /dev/null O_WRONLY
		echo all-ok'
	[ "$status" -ne 3 ] || fail "errno was clobbered: $output"
	assert_success
	assert_line all-ok
}

@test "t0200.74 a refused call sets errno to EACCES for every entry point" {
	mkfile f original
	mkfile src x
	snapshot f src
	for call in "open f O_WRONLY" "openat . f O_RDWR" "creat f" "fopen f w" "freopen f a" \
		"rename src f" "renameat src f" "renameat2 src f 0" "truncate f 1" \
		"sys_openat f O_WRONLY" "sys_rename src f" "sys_truncate f 1"; do
		# shellcheck disable=SC2086
		run --separate-stderr probe $call
		[ "$output" = "err EACCES" ] || fail "'$call': expected err EACCES, got '$output' (status $status)"
		assert_equal "$status" 1
		[ "$(count_rg_lines)" -eq 1 ] || fail "'$call': expected one refusal line, got: $stderr"
		[[ $stderr == *"$MSG_UNREAD"* ]] || fail "'$call': wrong reason: $stderr"
		assert_unchanged f src
	done
}

@test "t0200.75 renameat2 with RENAME_EXCHANGE|RENAME_NOREPLACE gives EINVAL before looking at the names" {
	mkfile src x
	snapshot src
	run --separate-stderr probe renameat2 src nodir/f "RENAME_EXCHANGE|RENAME_NOREPLACE"
	assert_probe_err EINVAL
	refute_refused
	assert_unchanged src
}

@test "t0200.76 renameat2 with a flag the kernel does not know gives EINVAL, not a refusal, onto an unread file" {
	mkfile f original
	mkfile src x
	snapshot f src
	run --separate-stderr probe renameat2 src f 64
	assert_probe_err EINVAL
	refute_refused
	assert_unchanged f src
}

# With stderr closed, the descriptor the shim opens the file on to judge it
# is 2: the refusal line must not be written into the file it protects.
@test "t0200.77 a refused write-open by a process with stderr closed leaves the file byte-identical" {
	mkfile f original
	snapshot f
	run rgsh 'exec 2>&-; "$T/rgprobe" open f O_WRONLY'
	assert_output 'err EACCES'
	assert_unchanged f
	assert_equal "$(log_count)" 1
}

# stderr_lands PLACE: a python that puts "data" on descriptor 2 (PLACE
# "open": closes stderr and opens it, which lands on 2; "dup": opens it on
# 3 and dup2s it onto 2, as `exec 2>data` redirects stderr), writes a line
# to it, then write-opens the unread f.
stderr_lands() {
	rgsh "exec \"\$PY3\" -c '
import os
if \"$1\" == \"open\":
    os.close(2)
fd = os.open(\"data\", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
if \"$1\" == \"dup\":
    os.dup2(fd, 2)
    os.close(fd)
    fd = 2
assert fd == 2, fd
os.write(fd, b\"mine\\n\")
try:
    os.open(\"f\", os.O_WRONLY)
    print(\"ok\")
except PermissionError:
    print(\"err EACCES\")
'"
}

# A process that closed stderr and opened a data file, which got
# descriptor 2: that file is data, and the refusal line would corrupt it.
@test "t0200.78 a refusal line is not written into a data file the process opened onto descriptor 2" {
	mkfile f original
	snapshot f
	run stderr_lands open
	assert_output 'err EACCES'
	assert_equal "$(cat data)" mine
	assert_unchanged f
	assert_equal "$(log_count)" 1
}

# The same file dup2'd onto 2 is a stderr redirected, as a shell does it.
@test "t0200.79 a refusal line still goes to a file the process redirected its stderr to" {
	mkfile f original
	snapshot f
	run stderr_lands dup
	assert_output 'err EACCES'
	assert_equal "$(head -n1 data)" mine
	grep -q "^readguard: refused to write 'f': $MSG_UNREAD" data || fail "no refusal line in data: $(cat data)"
	assert_unchanged f
}

# The parent's `2>err` opens err for the child: a stderr given, not data.
@test "t0200.80 a refusal line still goes to a stderr the parent redirected to a file" {
	mkfile f original
	snapshot f
	run rgsh '"$T/rgprobe" open f O_WRONLY 2>err'
	assert_output 'err EACCES'
	grep -q "^readguard: refused to write 'f': $MSG_UNREAD" err || fail "no refusal line in err: $(cat err)"
	assert_unchanged f
}

# The notice about an unguarded program comes from the process that execs
# it, with descriptor 2 still its data file.
@test "t0200.81 the unguarded-program notice is not written into a data file opened onto descriptor 2" {
	run rgsh "exec \"\$PY3\" -c '
import os
os.close(2)
assert os.open(\"data\", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644) == 2
os.write(2, b\"mine\\n\")
os.execv(\"$T/rgstatic\", [\"rgstatic\", \"read\", \"data\"])
'"
	assert_output ok
	assert_equal "$(cat data)" mine
	assert_equal "$(log_field 1 decision)" '"unguarded"'
}

# freopen(path, "w", stderr) opens onto 2 itself, and is a redirect all
# the same: the refusal line goes to the new stderr.
@test "t0200.82 a refusal line still goes to a file freopen made stderr" {
	mkfile f original
	snapshot f
	run rgsh "exec \"\$PY3\" -c '
import ctypes, os
libc = ctypes.CDLL(None)
libc.freopen.restype = ctypes.c_void_p
libc.freopen.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p]
assert libc.freopen(b\"err\", b\"w\", ctypes.c_void_p.in_dll(libc, \"stderr\"))
try:
    os.open(\"f\", os.O_WRONLY)
    print(\"ok\")
except PermissionError:
    print(\"err EACCES\")
'"
	assert_output 'err EACCES'
	grep -q "^readguard: refused to write 'f': $MSG_UNREAD" err || fail "no refusal line in err: $(cat err)"
	assert_unchanged f
}

# spawn_after_chdir HOW DIR FILE: python3 queues a chdir to DIR (HOW:
# addchdir_np, addfchdir_np, or reset: addchdir_np, then the object
# destroyed and initialised again), then an open of FILE (relative) onto the
# child's stdout, O_WRONLY|O_TRUNC, and spawns echo. Prints the error of the
# queueing, or the child's status.
spawn_after_chdir() {
	python3 - "$@" <<'PY'
import ctypes, os, sys
how, where, name = sys.argv[1], sys.argv[2].encode(), sys.argv[3].encode()
libc = ctypes.CDLL(None, use_errno=True)
fa = ctypes.create_string_buffer(256)
libc.posix_spawn_file_actions_init(fa)
if how == "addfchdir_np":
    r = libc.posix_spawn_file_actions_addfchdir_np(fa, os.open(where, os.O_RDONLY | os.O_DIRECTORY))
else:
    r = libc.posix_spawn_file_actions_addchdir_np(fa, where)
if how == "reset":
    libc.posix_spawn_file_actions_destroy(fa)
    libc.posix_spawn_file_actions_init(fa)
assert r == 0, r
r = libc.posix_spawn_file_actions_addopen(fa, 1, name, os.O_WRONLY | os.O_TRUNC, 0o644)
if r:
    print("addopen", os.strerror(r)); sys.exit(1)
pid = ctypes.c_int()
argv = (ctypes.c_char_p * 3)(b"echo", b"SPAWNED", None)
r = libc.posix_spawn(ctypes.byref(pid), b"/bin/echo", fa, None, argv, None)
assert r == 0, r
print("status", os.waitpid(pid.value, 0)[1])
PY
}

@test "t0200.83 an open queued after a queued chdir is judged where the spawned child makes it" {
	mkfile f original
	mkdir -p "$OUT"
	snapshot f
	run --separate-stderr rgsh "cd '$OUT' && $(declare -f spawn_after_chdir); spawn_after_chdir addchdir_np '$W' f"
	assert_failure
	assert_output "addopen Permission denied"
	assert_unchanged f
}

@test "t0200.84 an open queued after a queued fchdir is judged where the spawned child makes it" {
	mkfile f original
	mkdir -p "$OUT"
	snapshot f
	run --separate-stderr rgsh "cd '$OUT' && $(declare -f spawn_after_chdir); spawn_after_chdir addfchdir_np '$W' f"
	assert_failure
	assert_output "addopen Permission denied"
	assert_unchanged f
}

@test "t0200.85 file actions destroyed and initialised again forget their queued chdir" {
	mkfile f original
	mkdir -p sub
	snapshot f
	run --separate-stderr rgsh "$(declare -f spawn_after_chdir); spawn_after_chdir reset sub f"
	assert_failure
	assert_output "addopen Permission denied"
	assert_unchanged f
}

# README, Limits: descriptors opened before the session began are not seen.
@test "t0200.86 a write through a descriptor opened before the session goes through unseen (documented)" {
	mkfile f 'original content'
	exec 7>>f
	run --separate-stderr "$RG" run --log "$LOG" -- sh -c 'echo PWN >&7'
	exec 7>&-
	assert_success
	refute_refused
	assert_file_contains f PWN
}

# --- open_by_handle_at: an inode named by a handle, not a path -------------

# by_handle_or_skip: open_by_handle_at needs CAP_DAC_READ_SEARCH and a file
# system that makes handles.
by_handle_or_skip() {
	mkfile "$OUT/probe" x
	run "$T/rgprobe" by_handle "$OUT/probe" O_RDONLY
	[[ $output == ok* ]] || skip "no open_by_handle_at here ($output): needs root and handles"
}

@test "t0200.87 open_by_handle_at write-open of an unread file is refused, naming it" {
	by_handle_or_skip
	mkfile f original
	snapshot f
	run --separate-stderr probe by_handle f 'O_WRONLY|O_TRUNC'
	assert_probe_err EACCES
	assert_refused "$W/f" unread
	assert_unchanged f
}

@test "t0200.88 syscall(SYS_open_by_handle_at) write-open of an unread file is refused" {
	by_handle_or_skip
	mkfile f original
	snapshot f
	run --separate-stderr probe sys_by_handle f 'O_RDWR'
	assert_probe_err EACCES
	assert_unchanged f
}

@test "t0200.89 open_by_handle_at write-open after a read is allowed (and truncates)" {
	by_handle_or_skip
	mkfile f original
	run --separate-stderr probe_after_read f by_handle f 'O_WRONLY|O_TRUNC'
	assert_probe_ok
	refute_refused
	assert_file_size_equals f 0
}

# --- glibc's other exported names of open and fopen -------------------------

@test "t0200.90 glibc's __open_nocancel (found by dlsym) write-open of an unread file is refused" {
	mkfile f original
	snapshot f
	run --separate-stderr probe nocancel f 'O_WRONLY|O_TRUNC'
	assert_probe_err EACCES
	assert_refused f unread
	assert_unchanged f
}

@test "t0200.91 glibc's _IO_fopen (found by dlsym) mode w of an unread file is refused" {
	mkfile f original
	snapshot f
	run --separate-stderr probe io_fopen f w
	assert_probe_err EACCES
	assert_refused f unread
	assert_unchanged f
}

@test "t0200.92 glibc's _IO_fopen mode r is a read that unlocks a later write" {
	mkfile f original
	run --separate-stderr rgsh '"$T/rgprobe" io_fopen f r >/dev/null || exit 99; "$T/rgprobe" fopen f w'
	assert_probe_ok
	refute_refused
	assert_file_size_equals f 0
}

# libio_open HOW PATH: opens PATH for writing with glibc's exported libio
# entry point HOW (file_fopen: _IO_file_fopen "w"; file_open:
# _IO_file_open O_WRONLY|O_TRUNC) on a FILE of its own, through ctypes:
# prints "ok" or "err ERRNO-NAME".
libio_open() {
	"$PY3" - "$@" <<'PY'
import ctypes, errno, os, sys
libc = ctypes.CDLL(None, use_errno=True)
P = ctypes.c_void_p
libc.fopen.restype = P
libc._IO_file_close_it.argtypes = [P]
fp = libc.fopen(b"/dev/null", b"r")
libc._IO_file_close_it(P(fp))
how, path = sys.argv[1], sys.argv[2].encode()
if how == "file_fopen":
    f = libc._IO_file_fopen
    f.restype, f.argtypes = P, [P, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int]
    r = f(P(fp), path, b"w", 1)
else:
    f = libc._IO_file_open
    f.restype = P
    f.argtypes = [P, ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int]
    r = f(P(fp), path, os.O_WRONLY | os.O_TRUNC, 0o666, 4, 1)  # 4: _IO_NO_READS
print("ok" if r else "err " + errno.errorcode[ctypes.get_errno()])
PY
}

@test "t0200.93 glibc's _IO_file_fopen (libio's open of a FILE it is given) mode w of an unread file is refused" {
	mkfile f original
	snapshot f
	run --separate-stderr rg bash -c "$(declare -f libio_open); libio_open file_fopen f"
	assert_output "err EACCES"
	assert_refused f unread
	assert_unchanged f
}

@test "t0200.94 glibc's _IO_file_open O_WRONLY|O_TRUNC of an unread file is refused" {
	mkfile f original
	snapshot f
	run --separate-stderr rg bash -c "$(declare -f libio_open); libio_open file_open f"
	assert_output "err EACCES"
	assert_refused f unread
	assert_unchanged f
}

@test "t0200.95 glibc's _IO_file_fopen of a file the session read is allowed (and truncates)" {
	mkfile f original
	run --separate-stderr rg bash -c "$(declare -f libio_open); cat f >/dev/null; libio_open file_fopen f"
	assert_output ok
	refute_refused
	assert_file_size_equals f 0
}

@test "t0200.96 open_by_handle_at write-open with O_NOFOLLOW, which the kernel ignores there, is allowed after a read" {
	by_handle_or_skip
	mkfile f original
	run --separate-stderr probe_after_read f by_handle f 'O_WRONLY|O_NOFOLLOW|O_TRUNC'
	assert_probe_ok
	refute_refused
	assert_file_size_equals f 0
}

@test "t0200.97 open_by_handle_at with O_CREAT|O_EXCL fails EEXIST, as the kernel's own does, and changes nothing" {
	by_handle_or_skip
	mkfile f original
	snapshot f
	run --separate-stderr probe_after_read f by_handle f 'O_WRONLY|O_CREAT|O_EXCL|O_TRUNC'
	assert_probe_err EEXIST
	assert_unchanged f
}

@test "t0200.98 open_by_handle_at write-open with no /proc to reopen by fails EPERM, as the supervisor's refusal, and changes nothing" {
	by_handle_or_skip
	unshare -m true 2>/dev/null || skip "no mount namespace here"
	mkfile f original
	snapshot f
	run --separate-stderr rg unshare -m bash -c '"$T/rgprobe" read f >/dev/null && umount -l /proc &&
		exec "$T/rgprobe" by_handle f "O_WRONLY|O_TRUNC"'
	assert_probe_err EPERM
	assert_unchanged f
}
