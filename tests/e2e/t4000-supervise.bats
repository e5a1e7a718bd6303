#!/usr/bin/env bats
# Supervised mode (--supervise, --strict): a seccomp supervisor guards the
# programs the preload shim cannot see. rgstatic is a statically linked file
# tool (tests/helpers/static), so only the supervisor sees its calls.

load helper

# Skips the test, with the kernel's reason, where supervised mode cannot run.
require_supervisor() {
	local out
	out=$("$RG" run --supervise -- true 2>&1) && return 0
	case $out in
	*"lacks"*) skip "supervised mode unavailable: $out" ;;
	*) fail "readguard run --supervise -- true failed: $out" ;;
	esac
}

setup() {
	common_setup
	STATIC="$T/rgstatic"
	export STATIC
	require_supervisor
}

sv() { "$RG" run --supervise --log "$LOG" -- "$@"; }

# Bash, run by readguard: SIGKILL readguard and wait until it is dead (a
# zombie: its descriptors, the listener included, are closed) or /proc can
# no longer be opened (every trapped call fails).
KILL_SUPERVISOR='pp=$PPID; kill -9 $pp; while read -r l </proc/$pp/stat && [[ $l != *") Z "* ]]; do :; done 2>/dev/null'

strict() { "$RG" run --strict --log "$LOG" -- "$@"; }

@test "t4000.01 a static binary's blind write is refused, with the shim's message, file intact" {
	mkfile f 'original'
	snapshot f
	run --separate-stderr sv "$STATIC" write f new
	[ "$status" -eq 1 ] || fail "expected status 1, got $status: $output $stderr"
	assert_output 'err EACCES'
	assert_refused f unread
	assert_unchanged f
}

@test "t4000.02 a static binary's write after its own read is allowed" {
	mkfile f 'original'
	run --separate-stderr sv "$STATIC" read f write f new
	assert_success
	refute_refused
	assert_content f new
}

@test "t4000.03 a static binary's refusal is logged like the shim's, under its own pid and name" {
	mkfile f 'original'
	run sv "$STATIC" write f new
	assert_failure
	assert_log_json
	[ "$(log_count)" -eq 1 ] || fail "expected one log line, got $(cat "$LOG")"
	[ "$(log_field 1 prog)" = '"rgstatic"' ] || fail "prog: $(log_field 1 prog)"
	[ "$(log_field 1 reason)" = '"unread"' ] || fail "reason: $(log_field 1 reason)"
	[ "$(log_field 1 op)" = '"open"' ] || fail "op: $(log_field 1 op)"
	[ "$(log_field 1 path)" = "\"$W/f\"" ] || fail "path: $(log_field 1 path)"
}

@test "t4000.04 a static binary's rename onto an unread file is refused, and allowed after a read" {
	mkfile f 'original'
	mkfile g 'replacement'
	snapshot f
	run --separate-stderr sv "$STATIC" rename g f
	assert_output 'err EACCES'
	assert_refused f unread
	assert_unchanged f
	run --separate-stderr sv "$STATIC" read f rename g f
	assert_success
	assert_content f replacement
}

@test "t4000.05 a static binary's truncate of an unread file is refused, and allowed after a read" {
	mkfile f 'original'
	snapshot f
	run --separate-stderr sv "$STATIC" truncate f
	assert_output 'err EACCES'
	assert_unchanged f
	run --separate-stderr sv "$STATIC" read f truncate f
	assert_success
	[ ! -s f ] || fail "f was not truncated"
}

@test "t4000.06 a static binary creates new files with its own umask" {
	run sv bash -c "umask 027; '$STATIC' write new.txt hello"
	assert_success
	assert_content new.txt hello
	[ "$(stat -c %a new.txt)" = 640 ] || fail "mode $(stat -c %a new.txt), expected 640"
}

@test "t4000.07 a read by cat (preload) unlocks a write by a static binary" {
	mkfile f 'original'
	run --separate-stderr sv bash -c "cat f >/dev/null && '$STATIC' write f new"
	assert_success
	refute_refused
	assert_content f new
}

@test "t4000.08 a read by a static binary unlocks a write by the shell (preload)" {
	mkfile f 'original'
	run --separate-stderr sv bash -c "'$STATIC' read f && echo new > f"
	assert_success
	refute_refused
	assert_content f new
}

@test "t4000.09 a static binary's own write keeps the file writable by the shell" {
	mkfile f 'original'
	run --separate-stderr sv bash -c "'$STATIC' read f write f mid && echo new > f"
	assert_success
	refute_refused
	assert_content f new
}

@test "t4000.10 the shell is still refused a blind write under --supervise" {
	mkfile f 'original'
	snapshot f
	run --separate-stderr sv bash -c 'echo new > f'
	assert_failure
	assert_refused f unread
	assert_unchanged f
}

@test "t4000.11 a thread flipping the path cannot get a write-open of an unread file through (20,000 tries)" {
	mkfile victim 'never read'
	mkfile allowd 'read first'
	snapshot victim
	run sv bash -c "cat allowd >/dev/null && '$T/rgrace' victim allowd 20000 2>/dev/null"
	assert_success
	assert_output --regexp '^opened [0-9]+ victim 0$'
	[[ $output != "opened 0 "* ]] || fail "no open went through at all: the test proves nothing"
	assert_unchanged victim
}

@test "t4000.12 /dev/stdout and /proc/self/fd name the static binary's own descriptors" {
	run sv bash -c "'$STATIC' append /dev/stdout one >/dev/null; '$STATIC' append /proc/self/fd/1 two 3>&1"
	assert_success
	assert_output --partial two
	run sv bash -c "'$STATIC' append /dev/stdout three | cat"
	assert_success
	assert_output --partial three
}

@test "t4000.13 files outside the roots are read and written freely" {
	printf 'x\n' >"$OUT/o"
	run --separate-stderr sv "$STATIC" read /etc/passwd write "$OUT/o" y
	assert_success
	refute_refused
	assert_content "$OUT/o" y
}

@test "t4000.14 --strict: env -i and unset LD_PRELOAD cannot write blindly" {
	mkfile f 'original'
	snapshot f
	run --separate-stderr strict env -i "$STATIC" write f new
	assert_output 'err EACCES'
	run --separate-stderr strict bash -c 'unset LD_PRELOAD; exec bash -c "echo new > f"'
	assert_failure
	run --separate-stderr strict env -u LD_PRELOAD sh -c 'echo new > f'
	assert_failure
	assert_unchanged f
}

@test "t4000.15 --strict: the shim's own calls go through the supervisor and still work" {
	mkfile f 'original'
	run --separate-stderr strict bash -c 'cat f >/dev/null && echo new > f && cat f'
	assert_success
	assert_output new
}

@test "t4000.16 --strict: killing the supervisor leaves the tree unable to write" {
	mkfile f 'original'
	snapshot f
	run strict bash -c "'$STATIC' read f >/dev/null; $KILL_SUPERVISOR; '$STATIC' write f new; echo static=\$?; echo new > f; echo shell=\$?"
	assert_output --partial 'err ENOSYS'
	assert_output --partial 'static=1'
	refute_output --partial 'shell=0'
	assert_unchanged f
}

@test "t4000.17 --supervise: killing the supervisor leaves a static binary unable to write" {
	mkfile f 'original'
	snapshot f
	run sv bash -c "'$STATIC' read f >/dev/null; $KILL_SUPERVISOR; '$STATIC' write f new; echo static=\$?"
	assert_output --partial 'err ENOSYS'
	assert_output --partial 'static=1'
	assert_unchanged f
}

@test "t4000.18 a kernel without WAIT_KILLABLE_RECV: refuses to start, says why, exits 125" {
	run --separate-stderr "$T/rg-oldkernel" "$RG" run --supervise -- touch started
	[ "$status" -eq 125 ] || fail "expected 125, got $status"
	[[ $stderr == *"lacks SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV"*"Linux 5.19"* ]] ||
		fail "unclear message: $stderr"
	[ ! -e started ] || fail "the command ran without its supervisor"
}

@test "t4000.19 run --help documents --supervise and --strict" {
	run "$RG" run --help
	assert_success
	assert_output --partial '--supervise'
	assert_output --partial '--strict'
}

@test "t4000.20 nested seccomp listeners are refused inside the tree" {
	run --separate-stderr strict "$RG" run --supervise -- true
	[ "$status" -eq 125 ] || fail "expected 125, got $status: $stderr"
	[[ $stderr == *"cannot install the seccomp filter: Operation not permitted"* ]] ||
		fail "unexpected: $stderr"
}

@test "t4000.21 a static binary's write-open of a FIFO waits for its reader, as without readguard" {
	mkfifo p
	run timeout 20 "$RG" run --supervise --log "$LOG" -- bash -c "(sleep 0.3; cat p > got) & '$STATIC' append p hello; wait"
	assert_success
	assert_output ok
	assert_content got hello
}

@test "t4000.22 a static binary's read-open of a FIFO waits for its writer" {
	mkfifo p
	run timeout 20 "$RG" run --supervise --log "$LOG" -- bash -c "(sleep 0.3; echo data > p) & '$STATIC' read p; wait"
	assert_success
	assert_output ok
}

@test "t4000.23 a write-open that hits EMFILE fails with EMFILE and leaves the file intact" {
	mkfile f 'original'
	snapshot f
	run sv bash -c "cat f >/dev/null; exec 3</dev/null; ulimit -n 4; '$STATIC' write f new"
	assert_failure
	assert_output 'err EMFILE'
	assert_unchanged f
}

@test "t4000.24 a symlink to /proc/self never reaches the supervisor's own files" {
	ln -s /proc/self/mem mem
	ln -s /proc/self/environ env
	run sv "$STATIC" write mem x
	assert_output 'err EACCES'
	run sv "$STATIC" read env
	assert_output 'err EACCES'
}

@test "t4000.25 io_uring_setup and open_by_handle_at fail inside the tree, even from the trampoline" {
	run sv python3 -c '
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
for name, nr, args in (("io_uring_setup", 425, (1, ctypes.create_string_buffer(120))),
                       ("open_by_handle_at", 304, (-100, ctypes.create_string_buffer(16), 0))):
    r = libc.syscall(nr, *args)
    print(name, r, os.strerror(ctypes.get_errno()))
'
	assert_success
	assert_line 'io_uring_setup -1 Function not implemented'
	assert_line 'open_by_handle_at -1 Operation not permitted'
}

@test "t4000.26 a process that dropped its privileges acts with its own rights through the supervisor" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to drop privileges"
	command -v setpriv >/dev/null || skip "setpriv (util-linux) is not installed"
	chmod 0777 "$W"
	printf 'secret\n' >secret
	chmod 0600 secret
	drop="setpriv --reuid=65534 --regid=65534 --clear-groups"
	run sv $drop "$STATIC" read secret
	assert_output 'err EACCES'
	run sv $drop "$STATIC" write made-by-nobody x
	assert_success
	[ "$(stat -c %u:%g made-by-nobody)" = 65534:65534 ] ||
		fail "owner $(stat -c %u:%g made-by-nobody), expected 65534:65534"
	run sv "$STATIC" read secret
	assert_success
}

@test "t4000.27 a thread swapping symlinks cannot get a write-open of an unread file through (20,000 tries)" {
	mkfile victim 'never read'
	mkfile allowd 'read first'
	snapshot victim
	run sv bash -c "cat allowd >/dev/null && '$T/rgrace' --link lnk victim allowd 20000 2>/dev/null"
	assert_success
	assert_output --regexp '^opened [0-9]+ victim 0$'
	[[ $output != "opened 0 "* ]] || fail "no open went through at all: the test proves nothing"
	assert_unchanged victim
}

@test "t4000.28 doctor's advice for a static binary, --supervise, does guard it" {
	run "$RG" doctor "$STATIC"
	assert_output --partial "readguard run --supervise"
	mkfile f 'original'
	run --separate-stderr sv "$STATIC" write f new
	assert_output 'err EACCES'
}

@test "t4000.29 readguard env refuses --supervise: only run can install the filter" {
	run --separate-stderr "$RG" env --supervise
	assert_failure
	[[ $stderr == *"needs a command"* ]] || fail "unclear message: $stderr"
	assert_output ''
}

# raw NAME ARGS...: python3 without the preload makes one raw system call
# (x86_64 numbers) and prints "ok RESULT" or "err ENAME".
raw() {
	env -u LD_PRELOAD "$PY3" - "$@" <<'PY'
import ctypes, errno, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
NR = {"creat": 85, "openat2": 437, "renameat2": 316, "truncate": 76, "rename": 82}
name, args = sys.argv[1], sys.argv[2:]
AT_FDCWD = -100
if name == "openat2":
    path, flags, size = args[0].encode(), int(args[1], 0), int(args[2])
    how = ctypes.create_string_buffer(struct.pack("QQQ", flags, 0o644, 0) + b"\0" * 8)
    r = libc.syscall(NR[name], AT_FDCWD, path, how, size)
elif name == "creat":
    r = libc.syscall(NR[name], args[0].encode(), 0o644)
elif name == "renameat2":
    r = libc.syscall(NR[name], AT_FDCWD, args[0].encode(), AT_FDCWD, args[1].encode(), int(args[2]))
elif name == "rename":
    r = libc.syscall(NR[name], args[0].encode(), args[1].encode())
else:
    r = libc.syscall(NR[name], args[0].encode(), ctypes.c_long(int(args[1])))
print("ok %d" % r if r >= 0 else "err " + errno.errorcode[ctypes.get_errno()])
PY
}
export -f raw

@test "t4000.30 --strict: raw openat2 fails with ENOSYS before its struct is read: a write-open, a bad size, the file intact" {
	mkfile f 'original'
	snapshot f
	run --separate-stderr strict bash -c 'raw openat2 f 0o1001 24'
	assert_output 'err ENOSYS'
	run --separate-stderr strict bash -c 'raw openat2 f 0 16'
	assert_output 'err ENOSYS'
	refute_refused
	assert_unchanged f
}

@test "t4000.31 raw creat, rename and truncate of an unread file are refused" {
	mkfile f 'original'
	mkfile g 'other'
	snapshot f g
	run --separate-stderr strict bash -c 'raw creat f; raw rename g f; raw truncate f 0'
	assert_output $'err EACCES\nerr EACCES\nerr EACCES'
	assert_unchanged f g
}

@test "t4000.32 raw renameat2 RENAME_EXCHANGE writes both paths: an unread source is refused too" {
	mkfile f 'original'
	mkfile g 'other'
	snapshot f g
	run --separate-stderr strict bash -c 'cat f >/dev/null; raw renameat2 g f 2'
	assert_output 'err EACCES'
	assert_unchanged f g
	run --separate-stderr strict bash -c 'cat f g >/dev/null; raw renameat2 g f 2'
	assert_output 'ok 0'
	assert_content f other
}

@test "t4000.33 warn mode under --supervise: a static binary's blind write goes through and is logged" {
	mkfile f 'original'
	run --separate-stderr "$RG" run --supervise --mode warn --log "$LOG" -- "$STATIC" write f new
	assert_success
	refute_refused
	assert_content f new
	[ "$(log_field 1 decision)" = '"warn"' ] || fail "decision: $(log_field 1 decision)"
}

@test "t4000.34 --strict: a FIFO's late reader and its waiting static writer meet, data intact" {
	mkfifo p
	run timeout 20 "$RG" run --strict --log "$LOG" -- bash -c "(sleep 0.3; cat p > got) & '$STATIC' append p hello; wait"
	assert_success
	assert_output ok
	assert_content got hello
}

@test "t4000.35 --strict: a reader already waiting on a FIFO gets a static writer's data" {
	mkfifo p
	run timeout 20 "$RG" run --strict --log "$LOG" -- bash -c "cat p > got & sleep 0.3; '$STATIC' append p hello; wait"
	assert_success
	assert_output ok
	assert_content got hello
}

# The writer is let in as soon as a reader exists; readguard must not stand
# in for the late reader with one of its own, or the writer can come and go
# before the real reader opens, which then waits forever (16 in 40 before).
@test "t4000.36 --strict: a static writer that is quicker than its late reader never strands it" {
	for i in 1 2 3 4 5 6 7 8 9 10; do
		rm -f p got
		mkfifo p
		run timeout 10 "$RG" run --strict --log "$LOG" -- \
			bash -c "(sleep 0.05; cat p > got) & '$STATIC' append p hello; wait"
		assert_success
		assert_content got hello
	done
}

@test "t4000.37 --strict: raw renameat2 with RENAME_EXCHANGE|RENAME_NOREPLACE gives EINVAL before the names" {
	mkfile f 'original'
	mkfile g 'other'
	snapshot f g
	run --separate-stderr strict bash -c 'raw renameat2 g nodir/f 3; raw renameat2 g f 3'
	assert_output $'err EINVAL\nerr EINVAL'
	refute_refused
	assert_unchanged f g
}

@test "t4000.38 --supervise: a static binary's read-open outside the roots, left to the kernel, still reads" {
	printf 'outside\n' >"$OUT/o"
	run --separate-stderr sv "$STATIC" read "$OUT/o" read /etc/hostname
	assert_success
	assert_output $'ok\nok'
	refute_refused
}

@test "t4000.39 --supervise: a static binary's read-open of a FIFO outside the roots waits for its writer" {
	mkfifo "$OUT/p"
	run timeout 20 "$RG" run --supervise --log "$LOG" -- bash -c "(sleep 0.3; echo data > '$OUT/p') & '$STATIC' read '$OUT/p'; wait"
	assert_success
	assert_output ok
}

@test "t4000.40 a thread re-pointing a read outside the roots at an unread file under one gets no write through (5,000 tries)" {
	mkfile victim 'never read'
	snapshot victim
	printf 'outside\n' >"$OUT/o"
	ln -s "$W/victim" "$OUT/l"
	run sv bash -c "'$T/rgrace' --read '$OUT/o' '$OUT/l' victim 5000 2>/dev/null"
	assert_success
	assert_output --regexp '^read victim [0-9]+ wrote 0$'
	[[ $output != "read victim 0 "* ]] || fail "no read reached the victim: the test proves nothing"
	assert_unchanged victim
}

@test "t4000.41 --strict: a read through a symlink outside the roots still counts for the file it reaches" {
	mkfile f 'original'
	ln -s "$W/f" "$OUT/l"
	run --separate-stderr strict "$STATIC" read "$OUT/l" write f new
	assert_success
	assert_content f new
}

@test "t4000.42 --supervise: a static binary's read-open in a directory that does not exist fails with ENOENT" {
	run --separate-stderr sv "$STATIC" read "$OUT/none/f"
	assert_failure
	assert_output 'err ENOENT'
}

@test "t4000.43 a static binary's openat2 with O_PATH fails with ENOSYS, as on a kernel without openat2" {
	mkfile f 'original'
	run --separate-stderr sv "$STATIC" openat2 f path
	assert_failure
	assert_output 'err ENOSYS'
	run --separate-stderr strict "$STATIC" openat2 f path
	assert_failure
	assert_output 'err ENOSYS'
}

@test "t4000.44 a static binary's openat2 fails with ENOSYS for a read-open too: the tree sees no openat2 at all" {
	mkfile f 'original'
	run --separate-stderr sv "$STATIC" openat2 f read
	assert_output 'err ENOSYS'
	run --separate-stderr strict "$STATIC" openat2 f read
	assert_output 'err ENOSYS'
}

@test "t4000.45 a static binary falling back from openat2 to openat gets an O_PATH descriptor on the file named" {
	mkfile f 'original'
	run --separate-stderr sv "$STATIC" opath f
	assert_success
	assert_output 'ok'
	run --separate-stderr strict "$STATIC" opath f
	assert_success
	assert_output 'ok'
}

@test "t4000.46 the O_PATH fallback of a missing file fails with ENOENT, as the kernel's" {
	run --separate-stderr sv "$STATIC" opath missing
	assert_failure
	assert_output 'err ENOENT'
	run --separate-stderr strict "$STATIC" opath missing
	assert_failure
	assert_output 'err ENOENT'
}

@test "t4000.47 a thread flipping openat2's flags from O_PATH to O_WRONLY|O_TRUNC truncates nothing (20,000 tries)" {
	mkfile victim 'never read'
	snapshot victim
	run sv "$T/rgrace" --how victim 20000
	assert_success
	assert_output 'wrote 0 enosys 20000'
	run strict "$T/rgrace" --how victim 20000
	assert_success
	assert_output 'wrote 0 enosys 20000'
	assert_unchanged victim
}

@test "t4000.48 --supervise: a dynamic program's openat2 O_PATH, checked by the library, still succeeds" {
	mkfile f 'original'
	run --separate-stderr sv "$T/rgprobe" sys_openat2 f O_PATH
	assert_success
	assert_output --regexp '^ok [0-9]+$'
}

@test "t4000.49 --supervise: openat2 flags beyond 32 bits flipped to O_WRONLY|O_TRUNC get no write through the library (20,000 tries)" {
	mkfile victim 'never read'
	snapshot victim
	run sv bash -c "'$T/rgrace-dyn' --how-high victim 20000 2>/dev/null"
	assert_success
	assert_output 'wrote 0 enosys 0'
	assert_unchanged victim
}

@test "t4000.50 once the tree has exited, each handler thread stops waiting on the listener after one failed wait" {
	need_strace
	# readguard's clean-up after the tree (a scan of 20,000 journal session
	# entries) leaves time for a handler that kept asking to show.
	mkdir -p "$XDG_STATE_HOME/readguard/journal/sessions"
	(cd "$XDG_STATE_HOME/readguard/journal/sessions" && seq 20000 | xargs touch)
	run strace -f -e trace=ioctl -o "$W/trace" "$RG" run --supervise --log "$LOG" -- true
	assert_success
	# At most 16 handler threads, each told ENOENT once; it kept asking
	# hundreds of times before.
	local n
	n=$(grep -c ENOENT "$W/trace")
	[ "$n" -le 16 ] || fail "the listener was asked $n times after the tree had exited"
}

@test "t4000.51 readguard env --strict names --strict in its refusal" {
	run --separate-stderr "$RG" env --strict
	assert_failure 125
	assert_equal "$stderr" "readguard: --strict needs a command: use 'readguard run --strict -- CMD'"
}

@test "t4000.52 --strict: a read-open of a missing file fails with ENOENT, and creat still makes it" {
	run --separate-stderr strict "$STATIC" read none
	assert_output 'err ENOENT'
	run --separate-stderr strict "$STATIC" write none new
	assert_success
	assert_content none new
}

@test "t4000.53 --strict: a missing file behind a directory the caller may not search is EACCES, as without readguard" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to drop privileges"
	command -v setpriv >/dev/null || skip "setpriv (util-linux) is not installed"
	chmod 0777 "$W"
	mkdir private
	chmod 0700 private
	run --separate-stderr strict setpriv --reuid=65534 --regid=65534 --clear-groups "$STATIC" read private/none
	assert_output 'err EACCES'
}

@test "t4000.54 --strict: a write descriptor the shell moved (exec 4>>f) counts as held until it is closed" {
	mkfile f 'original'
	# bash opens f, moves the descriptor to 4 and closes the first: the
	# supervisor's copy must still count as held while bash writes through
	# 4, or its restamp comes before the write and the append is refused.
	run --separate-stderr strict bash -c 'cat f >/dev/null; exec 4>>f; sleep 0.2; echo x >&4; exec 4>&-; sleep 0.1; echo y >>f'
	assert_success
	refute_refused
	assert_content f "$(printf 'original\nx\ny')"
}

# rguffd opens DIR/f by a path in a page the kernel must wait for
# (userfaultfd), so the supervisor's copy of the path waits, and meanwhile
# opens DIR/other: the supervisor must answer that one all the same.
stuck_call() { # MODE DIR
	mkdir -p "$2"
	printf 'in f' >"$2/f"
	printf 'in other' >"$2/other"
	run --separate-stderr timeout 20 "$RG" run "$1" --root "$W" --log "$LOG" -- "$T/rguffd" "$2/f" "$2/other"
	[ "$status" -ne 77 ] || skip "userfaultfd cannot trap the kernel's copies here: $stderr"
	assert_success
	assert_output "$(printf 'other ok\nfile ok')"
}

@test "t4000.55 --strict: a call the supervisor is stuck on does not hold up the tree's next call" {
	stuck_call --strict "$W"
}

@test "t4000.56 --supervise: a read outside the roots whose path cannot be copied yet does not hold up the next call" {
	stuck_call --supervise "$OUT"
}

@test "t4000.57 --strict started by an unprivileged user: the tree has that user's rights, and the guard holds" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to set up another user's session"
	command -v setpriv >/dev/null || skip "setpriv (util-linux) is not installed"
	load escape
	esc_reachable_rg || fail "uid 65534 cannot run readguard, even copied to a public directory"
	[ -z "$ESC_BIN" ] || STATIC="$ESC_BIN/t/rgstatic"
	local d
	d=$(mktemp -d /tmp/rg-t4000.XXXXXX)
	chmod 0755 "$d"
	mkdir -p "$d/state" "$d/tables" "$d/w"
	printf 'root only\n' >"$d/w/secret"
	chmod 0600 "$d/w/secret"
	printf 'mine\n' >"$d/w/mine"
	printf 'unread\n' >"$d/w/unread"
	chown -R 65534:65534 "$d/state" "$d/tables" "$d/w/mine" "$d/w/unread"
	chmod 0777 "$d/w"
	run --separate-stderr bash -c 'cd "$1/w" && setpriv --reuid=65534 --regid=65534 --clear-groups \
		env XDG_STATE_HOME="$1/state" READGUARD_DIR="$1/tables" XDG_RUNTIME_DIR= \
		"$2" run --strict --root "$1/w" --log "$1/state/log" -- sh -c "$3 read secret; $3 read mine; $3 write unread x"' \
		sh "$d" "$RG" "$STATIC"
	local left
	left=$(cat "$d/w/unread")
	rm -rf "$d"
	esc_drop_rg_copy
	assert_output "$(printf 'err EACCES\nok\nerr EACCES')"
	assert_equal "$stderr" "readguard: refused to write 'unread': it has not been read in this session. Read it first, then retry."
	assert_equal "$left" unread
}

# The table is the session's bookkeeping wherever READGUARD_DIR puts it: the
# library of each program of the tree opens it for writing to attach it.
@test "t4000.58 --supervise with the tables under the root: a program's library attaches the table, and its write of a file read goes through" {
	export READGUARD_DIR="$W/tables"
	mkdir "$READGUARD_DIR"
	mkfile f original
	run --separate-stderr sv bash -c 'cat f >/dev/null && cp /dev/null f'
	assert_success
	refute_refused
	assert_content f ''
}

@test "t4000.59 --strict: a root process that dropped its capabilities cannot read or write through the supervisor what it could not itself" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to drop capabilities"
	command -v setpriv >/dev/null || skip "setpriv (util-linux) is not installed"
	printf 'secret\n' >secret
	chown 65534:65534 secret
	chmod 0600 secret
	snapshot secret
	drop="setpriv --bounding-set=-all --inh-caps=-all"
	run $drop "$STATIC" read secret
	assert_output 'err EACCES'
	run --separate-stderr strict $drop "$STATIC" read secret
	assert_output 'err EACCES'
	run --separate-stderr strict $drop "$STATIC" write secret x
	assert_output 'err EACCES'
	assert_unchanged secret
	run --separate-stderr strict "$STATIC" read secret
	assert_success
}

# The supervisor restamps a file a static program wrote once the program
# has let go of it (held.c), and a handler holds the copy to do it with
# only after it has answered the open: the tree's exit must not end the run
# before both, or the kept session's table keeps the stamp of the read, and
# the session's next write of the file is refused as a change since. A race
# on every run: ten runs, of which one in two or so lost it.
@test "t4000.60 a named, kept session: a file a static program wrote stays the session's to write in its next run" {
	local S=$BATS_TEST_TMPDIR/named i
	for i in 1 2 3 4 5 6 7 8 9 10; do
		rm -f "$S"
		mkfile f old
		"$RG" run --supervise --keep --session "$S" -- "$STATIC" read f write f static >/dev/null ||
			fail "run $i: the static program failed"
		run --separate-stderr "$RG" run --session "$S" -- sh -c 'echo more >f'
		[ "$status" -eq 0 ] || fail "run $i: the session's next write was refused: $stderr"
		assert_content f more
	done
}

# A refusal names the file as the caller would read it: from the caller's
# working directory, which is not readguard's. cp and mv of coreutils 9
# write `cp f d/` as openat(fd of d, "f"), and a line naming 'f' sends the
# reader to the source, which reading cannot unlock (t0400.27 for the
# library).
@test "t4000.61 --strict: cp into a directory over an unread file names the file in that directory, not the source" {
	mkdir d
	mkfile f source
	mkfile d/f original
	snapshot d/f
	run --separate-stderr strict cp f d/
	assert_failure
	assert_refused d/f unread
	assert_unchanged d/f
	[ "$(log_field 1 path)" = "\"$W/d/f\"" ] || fail "path: $(log_field 1 path)"
}

@test "t4000.62 --strict: mv into a directory over an unread file names the file in that directory, not the source" {
	mkdir d
	mkfile f source
	mkfile d/f original
	snapshot f d/f
	run --separate-stderr strict mv f d/
	assert_failure
	assert_refused d/f unread
	assert_unchanged f d/f
}

@test "t4000.63 --strict: cp into a directory names the file from the caller's working directory, not readguard's" {
	mkdir -p sub/d
	mkfile sub/f source
	mkfile sub/d/f original
	snapshot sub/d/f
	run --separate-stderr strict sh -c 'cd sub && cp f d/'
	assert_failure
	assert_refused d/f unread
	assert_unchanged sub/d/f
}

@test "t4000.64 a static binary's write relative to a directory descriptor names the file in that directory" {
	mkdir d
	mkfile f source
	mkfile d/f original
	snapshot d/f
	run --separate-stderr sv "$STATIC" at d write f new
	assert_output - <<-'OUT'
		ok
		err EACCES
	OUT
	assert_refused d/f unread
	assert_unchanged d/f
}

@test "t4000.65 a static binary that changed directory is named the file from its own working directory, not readguard's" {
	mkdir -p sub/d
	mkfile sub/d/f original
	snapshot sub/d/f
	run --separate-stderr sv "$STATIC" cd sub at d write f new
	assert_output - <<-'OUT'
		ok
		ok
		err EACCES
	OUT
	assert_refused d/f unread
	assert_unchanged sub/d/f
}

@test "t4000.66 a static binary's write by a name outside its working directory is named by its absolute path" {
	mkdir -p sub d
	mkfile d/f original
	snapshot d/f
	run --separate-stderr sv "$STATIC" cd sub at ../d write f new
	assert_refused "$W/d/f" unread
	assert_unchanged d/f
}

@test "t4000.67 a path going on from the tree's /proc root link to readguard's /proc/PID/fd does not reach its descriptors" {
	run --separate-stderr strict bash -c "'$STATIC' read /proc/self/root/proc/\$PPID/fd/0"
	assert_failure
	assert_output 'err ELOOP'
}

@test "t4000.68 a symlink to /proc/self/fd/N reached through /proc/self/cwd names no descriptor of readguard's" {
	ln -s /proc/self/fd/1 ln
	run --separate-stderr sv "$STATIC" append /proc/self/cwd/ln text
	assert_failure
	assert_output 'err ELOOP'
}

@test "t4000.69 the tree's own /proc links still resolve: /proc/self/root and a file under /proc/self/cwd" {
	mkfile f 'original'
	run --separate-stderr strict "$STATIC" read /proc/self/root/etc/passwd read /proc/self/cwd/f write /proc/self/cwd/f new
	assert_success
	assert_content f new
}

@test "t4000.70 the tree cannot open /proc/TID/mem of readguard's other threads" {
	[ "$(id -u)" -eq 0 ] || skip "as another user the kernel refuses it anyway"
	run --separate-stderr sv bash -c "for t in \$(ls /proc/\$PPID/task); do '$STATIC' read /proc/\$t/mem; done"
	[ "${#lines[@]}" -ge 2 ] || fail "readguard has no other thread: $output"
	local l
	for l in "${lines[@]}"; do
		[ "$l" = "err EACCES" ] || fail "a thread's mem was opened: $output"
	done
}

# A root tree mounts in readguard's own mount namespace, no new one needed:
# a bind mount of the root outside the roots is a second name for its files,
# and a detached one (open_tree) a directory no name under a root reaches.
# acct(2) has the kernel append to a file by name. --strict refuses them all.
require_root_mounts() {
	[ "$(id -u)" -eq 0 ] || skip "needs root to mount"
	mkdir "$OUT/m"
	mount --bind "$OUT/m" "$OUT/m" 2>/dev/null || skip "cannot mount here"
	umount "$OUT/m"
}

@test "t4000.71 a root tree's bind mount of the root outside it is refused with the reason (--strict)" {
	require_root_mounts
	mkfile f original
	snapshot f
	run --separate-stderr strict sh -c 'mount --bind . "$1" && echo PWN >"$1/f"; umount "$1"' sh "$OUT/m"
	umount "$OUT/m" 2>/dev/null || true
	assert_unchanged f
	[[ $stderr == *"readguard: refused mount: under --strict no process may mount"* ]] ||
		fail "no reason given: $stderr"
}

@test "t4000.72 a root tree's detached copy of the root's mount cannot write f (--strict)" {
	require_root_mounts
	mkfile f original
	snapshot f
	run --separate-stderr strict python3 -c '
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
fd = libc.syscall(428, -100, b".", 1 | os.O_CLOEXEC)  # open_tree(OPEN_TREE_CLONE)
print("open_tree", fd, os.strerror(ctypes.get_errno()))
if fd >= 0:
    w = os.open("f", os.O_WRONLY | os.O_TRUNC, dir_fd=fd)
    os.write(w, b"PWN\n")
'
	assert_unchanged f
	[[ $output == "open_tree -1 Operation not permitted" ]] || fail "$output $stderr"
}

@test "t4000.73 a root tree's process accounting into an unread file is refused (--strict)" {
	require_root_mounts
	mkfile f original
	snapshot f
	run --separate-stderr strict python3 -c '
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
r = libc.acct(b"f")
print("acct", r, os.strerror(ctypes.get_errno()))
if r == 0:
    if os.fork() == 0:
        os._exit(0)
    os.wait()
    libc.acct(None)
'
	assert_unchanged f
	[[ $output == "acct -1 Operation not permitted" ]] || fail "$output $stderr"
}

# Under --supervise the tree is trusted not to (README, supervise/): pinned.
@test "t4000.74 a root tree's bind mount of the root outside it writes f unseen (--supervise, documented)" {
	require_root_mounts
	mkfile f original
	sv sh -c 'mount --bind . "$1" && echo PWN >"$1/f"; umount "$1"' sh "$OUT/m" || true
	umount "$OUT/m" 2>/dev/null || true
	assert_equal "$(cat f)" PWN
}

# TIOCSTI pushes bytes into a terminal's input: a tree typing a command into
# the terminal it was started from has the shell there run it once readguard
# is gone, outside the session. tiocsti_in_a_terminal MODE: readguard run
# MODE, from an interactive bash in a new terminal, runs a Python program
# that types "echo PWN >f"; the terminal's output is in $output.
tiocsti_in_a_terminal() {
	[ "$(cat /proc/sys/dev/tty/legacy_tiocsti 2>/dev/null || echo 1)" = 1 ] ||
		skip "this kernel refuses TIOCSTI to everyone (dev.tty.legacy_tiocsti)"
	mkfile f original
	cat >"$OUT/type.py" <<'PY'
import fcntl, termios
try:
    for c in b"echo PWN >f\n":
        fcntl.ioctl(0, termios.TIOCSTI, bytes([c]))
    print("typed")
except OSError as e:
    print("TIOCSTI:", e.strerror)
PY
	cat >"$OUT/term.py" <<'PY'
import os, pty, select, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execvp("bash", ["bash", "--norc", "--noprofile", "-i"])
def drain(seconds):
    end, out = time.time() + seconds, b""
    while time.time() < end:
        if select.select([fd], [], [], 0.1)[0]:
            try:
                out += os.read(fd, 4096)
            except OSError:
                break
    return out
os.write(fd, sys.argv[1].encode() + b"\n")
out = drain(5)
os.write(fd, b"exit\n")
out += drain(1)
os.waitpid(pid, 0)
sys.stdout.write(out.decode(errors="replace"))
PY
	run python3 "$OUT/term.py" "'$RG' run $1 -- python3 '$OUT/type.py'"
}

@test "t4000.75 a --strict tree cannot type a command into the terminal it was started from (TIOCSTI)" {
	tiocsti_in_a_terminal --strict
	assert_equal "$(cat f)" original
	[[ $output == *"TIOCSTI: Operation not permitted"* ]] || fail "$output"
}

# Under --supervise the tree is trusted not to (README, man page): pinned.
@test "t4000.76 a --supervise tree's TIOCSTI types into its terminal, run there after it (documented)" {
	tiocsti_in_a_terminal --supervise
	[[ $output == *typed* ]] || fail "$output"
	assert_equal "$(cat f)" PWN
}

# prlimit(2) sets the limits of another process of the user: readguard's own
# (a file size limit of 1 byte and the journal keeps nothing, the log takes
# no line), or an editor's outside the tree (its next save cut short). A
# --strict tree may change only its own processes' limits, as it may only
# ptrace them.
@test "t4000.77 a --strict tree cannot set readguard's limits to keep the journal from keeping a file (prlimit)" {
	command -v prlimit >/dev/null || skip "prlimit (util-linux) is not installed"
	mkfile f original
	run --separate-stderr strict bash -c 'cat f >/dev/null; prlimit --pid $PPID --fsize=1:1
		echo "prlimit=$?"; echo PWN >f'
	assert_equal "$(cat f)" PWN
	[[ $output == *prlimit=1* ]] || fail "$output $stderr"
	[[ $stderr == *"readguard: refused prlimit: under --strict no process may reach into a process outside the tree"* ]] ||
		fail "no reason given: $stderr"
	[[ $stderr != *"were not kept"* ]] || fail "the journal kept nothing: $stderr"
}

@test "t4000.78 a --strict tree still sets and reads its own processes' limits" {
	command -v prlimit >/dev/null || skip "prlimit (util-linux) is not installed"
	run --separate-stderr strict bash -c 'sleep 5 & p=$!; prlimit --pid $p --nofile=64:64 &&
		prlimit --pid $p --nofile --output SOFT --noheadings | tr -d " "; prlimit --pid $PPID --nofile --noheadings --output SOFT >/dev/null && echo looked; kill $p'
	assert_output $'64\nlooked'
}
