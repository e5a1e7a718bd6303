#!/usr/bin/env bats
# --allow-append and the journal: an unread file that a session's processes
# append to, each a process of its own, is kept once; and the mark that says
# so never counts as a read.

load helper

rgo() { # rgo OPTION... -- SCRIPT: a bash script in a session with options
	local opts=()
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	"$RG" run --log "$LOG" "${opts[@]}" -- bash -c "$2"
}

# versions FILE: how many versions of FILE the journal holds.
versions() {
	"$RG" history --json "$1" | grep -c '"op"'
}

# A log of 20,000 lines, never read by the session.
mklog() {
	seq 20000 >log.txt
	make_old log.txt
}

APPEND20='for i in $(seq 20); do /bin/echo "x$i" >> log.txt; done'

@test "t1101.01 twenty appends by twenty processes keep one version" {
	mklog
	run --separate-stderr rgo --allow-append -- "$APPEND20"
	assert_success
	refute_refused
	assert_equal "$(versions log.txt)" 1
	assert_equal "$(wc -l <log.txt)" 20020
}

@test "t1101.02 undo after twenty appends by twenty processes brings the original back" {
	mklog
	seq 20000 >want.txt
	rgo --allow-append -- "$APPEND20"
	run --separate-stderr "$RG" undo log.txt
	assert_success
	cmp log.txt want.txt
}

@test "t1101.03 appends by python processes keep one version" {
	mklog
	run --separate-stderr rgo --allow-append -- \
		'for i in 1 2 3; do python3 -c "open(\"log.txt\", \"a\").write(\"py\\n\")"; done'
	assert_success
	assert_equal "$(versions log.txt)" 1
	assert_equal "$(tail -n 3 log.txt | tr -d '\n')" pypypy
}

@test "t1101.04 a change by a program outside the session between appends keeps the file again" {
	mklog
	bg_session 'for i in 1 2 3; do /bin/echo a >> log.txt; done' \
		'for i in 1 2 3; do /bin/echo b >> log.txt; done' --allow-append
	external_write log.txt "rewritten outside"
	bg_finish
	assert_success
	assert_equal "$(versions log.txt)" 2
	# The second version is what the outside program left.
	run "$RG" history --json log.txt
	[[ ${lines[1]} == *'"size":18,'* ]] || fail "second version: ${lines[1]}"
}

@test "t1101.05 undo after an outside change between appends restores the content before the session's first change" {
	mklog
	seq 20000 >want.txt
	bg_session '/bin/echo a >> log.txt' '/bin/echo b >> log.txt' --allow-append
	external_write log.txt "rewritten outside"
	bg_finish
	assert_success
	run --separate-stderr "$RG" undo log.txt
	assert_success
	cmp log.txt want.txt
}

@test "t1101.06 an append after another process cut the file through its append descriptor keeps it again" {
	mklog
	run --separate-stderr rgo --allow-append -- '/bin/echo a >> log.txt
python3 -c "import os; os.ftruncate(os.open(\"log.txt\", os.O_WRONLY | os.O_APPEND), 3)"
/bin/echo b >> log.txt'
	assert_success
	assert_equal "$(versions log.txt)" 2
	assert_equal "$(head -c 5 log.txt | tr '\n' .)" 1.2b.
}

@test "t1101.07 an appender killed by SIGKILL leaves the next append keeping the file again" {
	mklog
	run --separate-stderr rgo --allow-append -- '/bin/echo a >> log.txt
python3 -c "
import os, signal
os.write(os.open(\"log.txt\", os.O_WRONLY | os.O_APPEND), b\"k\\n\")
os.kill(os.getpid(), signal.SIGKILL)"
/bin/echo b >> log.txt'
	assert_equal "$(versions log.txt)" 2
	assert_equal "$(tail -n 3 log.txt | tr -d '\n')" akb
}

@test "t1101.08 after appends by other processes, a truncating write of the unread file is still refused" {
	mklog
	run --separate-stderr rgo --allow-append -- "$APPEND20; echo y > log.txt"
	assert_failure
	assert_refused log.txt unread
	assert_equal "$(wc -l <log.txt)" 20020
}

@test "t1101.09 after appends by other processes, truncate -s0 of the unread file is still refused" {
	mklog
	run --separate-stderr rgo --allow-append -- "$APPEND20; truncate -s0 log.txt"
	assert_failure
	assert_refused log.txt unread
	assert_equal "$(wc -l <log.txt)" 20020
}

@test "t1101.10 after appends by other processes, a python r+ write of the unread file is still refused" {
	mklog
	run --separate-stderr rgo --allow-append -- "$APPEND20"'
python3 -c "
f = open(\"log.txt\", \"r+\")
f.write(\"OVERWRITE\")"'
	assert_failure
	assert_refused log.txt unread
	assert_equal "$(head -n 1 log.txt)" 1
}

@test "t1101.11 after appends, chmod and touch of the unread file do not make a blind write possible" {
	mklog
	run --separate-stderr rgo --allow-append -- "$APPEND20"'
chmod 600 log.txt; touch log.txt; /bin/echo c >> log.txt
echo y > log.txt'
	assert_failure
	assert_refused log.txt unread
	assert_equal "$(tail -n 1 log.txt)" c
}

@test "t1101.12 after appends by other processes, a blind write in a later process of the same session is refused" {
	mklog
	run --separate-stderr rgo --allow-append -- "$APPEND20"'
python3 -c "open(\"log.txt\", \"w\").write(\"blind\")"'
	assert_failure
	assert_refused log.txt unread
	assert_equal "$(wc -l <log.txt)" 20020
}

@test "t1101.13 two processes appending at once lose no line and undo brings the original back" {
	mklog
	seq 20000 >want.txt
	run --separate-stderr rgo --allow-append -- '
(for i in $(seq 30); do /bin/echo p >> log.txt; done) &
(for i in $(seq 30); do /bin/echo q >> log.txt; done) &
wait'
	assert_success
	assert_equal "$(grep -c '^[pq]$' log.txt)" 60
	run --separate-stderr "$RG" undo log.txt
	assert_success
	cmp log.txt want.txt
}

@test "t1101.14 an append by a child, then by the shell itself, keeps one version" {
	mklog
	run --separate-stderr rgo --allow-append -- '/bin/echo a >> log.txt; echo b >> log.txt; echo c >> log.txt'
	assert_success
	assert_equal "$(versions log.txt)" 1
	assert_equal "$(tail -n 3 log.txt | tr -d '\n')" abc
}

@test "t1101.15 --no-journal: appends by other processes keep nothing and a blind write is refused" {
	mklog
	run --separate-stderr rgo --allow-append --no-journal -- "$APPEND20; echo y > log.txt"
	assert_failure
	assert_refused log.txt unread
	run --separate-stderr "$RG" history --json log.txt
	assert_output ""
}

# Skips the test, with the kernel's reason, where supervised mode cannot run.
require_supervisor() {
	local out
	out=$("$RG" run --supervise -- true 2>&1) && return 0
	case $out in
	*"lacks"*) skip "supervised mode unavailable: $out" ;;
	*) fail "readguard run --supervise -- true failed: $out" ;;
	esac
}

@test "t1101.16 --supervise: appends by five static processes keep one version" {
	require_supervisor
	mklog
	run --separate-stderr rgo --supervise --allow-append -- \
		'for i in 1 2 3 4 5; do "$T/rgstatic" append log.txt "s$i"; done'
	assert_success
	refute_refused
	assert_equal "$(versions log.txt)" 1
	assert_equal "$(tail -c 10 log.txt)" s1s2s3s4s5
}

@test "t1101.17 --supervise: after a static program's appends, its blind write is still refused" {
	require_supervisor
	mklog
	run --separate-stderr rgo --supervise --allow-append -- \
		'for i in 1 2 3; do "$T/rgstatic" append log.txt "s$i"; done; "$T/rgstatic" write log.txt blind'
	assert_failure
	assert_refused log.txt unread
	assert_equal "$(tail -c 6 log.txt)" s1s2s3
}

@test "t1101.18 --supervise: a change outside the session between static appends keeps the file again" {
	require_supervisor
	mklog
	bg_session '"$T/rgstatic" append log.txt a' '"$T/rgstatic" append log.txt b' --supervise --allow-append
	external_write log.txt "rewritten outside"
	bg_finish
	assert_success
	assert_equal "$(versions log.txt)" 2
	assert_content log.txt "rewritten outside
b"
}

@test "t1101.19 --strict: a change outside the session between appends keeps the file again" {
	require_supervisor
	mklog
	bg_session 'for i in 1 2; do /bin/echo a >> log.txt; done' \
		'for i in 1 2; do /bin/echo b >> log.txt; done; echo y > log.txt' --strict --allow-append
	external_write log.txt "rewritten outside"
	bg_finish
	assert_failure
	assert_refused log.txt unread
	assert_equal "$(versions log.txt)" 2
	assert_content log.txt "rewritten outside
b
b"
}

# Python that opens log.txt for appending, takes O_APPEND off and overwrites
# its first bytes in place: a destructive write through an append descriptor.
OVERWRITE='python3 -c "
import fcntl, os
fd = os.open(\"log.txt\", os.O_WRONLY | os.O_APPEND)
fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_APPEND)
os.pwrite(fd, b\"XXXXXXXX\", 0)
os.close(fd)"'

@test "t1101.20 undo after a later appender took O_APPEND off and overwrote the start brings the original back" {
	mklog
	seq 20000 >want.txt
	run --separate-stderr rgo --allow-append -- "/bin/echo a >> log.txt; $OVERWRITE; /bin/echo b >> log.txt"
	assert_success
	assert_equal "$(head -c 8 log.txt)" XXXXXXXX
	run --separate-stderr "$RG" undo log.txt
	assert_success
	cmp log.txt want.txt
}

@test "t1101.21 after a later appender took O_APPEND off and overwrote the start, a blind write is still refused" {
	mklog
	run --separate-stderr rgo --allow-append -- "/bin/echo a >> log.txt; $OVERWRITE; echo y > log.txt"
	assert_failure
	assert_refused log.txt unread
	assert_equal "$(head -c 8 log.txt)" XXXXXXXX
}

@test "t1101.22 appends through a shell's exec 3>> descriptor, by the shell and its children, keep one version" {
	mklog
	run --separate-stderr rgo --allow-append -- 'exec 3>>log.txt
echo s >&3; /bin/echo c >&3; python3 -c "import os; os.write(3, b\"p\\n\")"; exec 3>&-
/bin/echo d >> log.txt'
	assert_success
	assert_equal "$(versions log.txt)" 1
	assert_equal "$(tail -n 4 log.txt | tr -d '\n')" scpd
}

@test "t1101.23 after appends through a shell's exec 3>> descriptor, a truncating write is refused" {
	mklog
	run --separate-stderr rgo --allow-append -- 'exec 3>>log.txt
echo s >&3; /bin/echo c >&3; exec 3>&-
echo y > log.txt'
	assert_failure
	assert_refused log.txt unread
	assert_equal "$(tail -n 1 log.txt)" c
}

@test "t1101.24 a forked child's append through its parent's descriptor does not unlock a blind write" {
	mklog
	run --separate-stderr rgo --allow-append -- 'python3 -c "
import os
fd = os.open(\"log.txt\", os.O_WRONLY | os.O_APPEND)
pid = os.fork()
if pid == 0:
    os.write(fd, b\"child\\n\"); os.close(fd); os._exit(0)
os.waitpid(pid, 0); os.write(fd, b\"parent\\n\"); os.close(fd)"
echo y > log.txt'
	assert_failure
	assert_refused log.txt unread
	assert_equal "$(tail -n 2 log.txt | tr -d '\n')" childparent
}

@test "t1101.25 a write-open of an append descriptor's /proc/self/fd link is refused as not read" {
	mklog
	run --separate-stderr rgo --allow-append -- '/bin/echo a >> log.txt; python3 -c "
import os
fd = os.open(\"log.txt\", os.O_WRONLY | os.O_APPEND)
os.open(\"/proc/self/fd/%d\" % fd, os.O_WRONLY | os.O_TRUNC)"'
	assert_failure
	[[ $stderr == *"refused to write '/proc/self/fd/"*"has not been read in this session"* ]] ||
		fail "no refusal: $stderr"
	assert_equal "$(wc -l <log.txt)" 20001
}

# freopen(NULL, MODE) of a stream fopen'ed "a": the C library reopens the
# same file with MODE through /proc/self/fd, unseen by the hooks.
freopen_py() { # freopen_py MODE
	printf '%s' "python3 -c \"
import ctypes
libc = ctypes.CDLL(None)
libc.fopen.restype = libc.freopen.restype = ctypes.c_void_p
libc.freopen.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_void_p]
libc.fputs.argtypes = libc.fclose.argtypes = None
fp = libc.fopen(b'log.txt', b'a')
fp = libc.freopen(None, b'$1', ctypes.c_void_p(fp))
if not fp: raise SystemExit(ctypes.get_errno() or 13)
libc.fputs(b'R\\\\n', ctypes.c_void_p(fp))
libc.fclose(ctypes.c_void_p(fp))\""
}

@test "t1101.26 freopen(NULL, \"a\") of an appended stream does not make the unread file writable" {
	mklog
	run --separate-stderr rgo --allow-append -- "$(freopen_py a); echo y > log.txt"
	assert_failure
	assert_refused log.txt unread
	assert_equal "$(tail -n 1 log.txt)" R
}

@test "t1101.27 freopen(NULL, \"w\") of an appended stream of an unread file is refused" {
	mklog
	run --separate-stderr rgo --allow-append -- "$(freopen_py w)"
	assert_failure
	[[ $stderr == *"refused to write '/proc/self/fd/"*"has not been read in this session"* ]] ||
		fail "no refusal: $stderr"
	assert_equal "$(wc -l <log.txt)" 20000
}

@test "t1101.28 a change outside the session between the shell's own append and its child's keeps the file again" {
	mklog
	bg_session 'echo a >> log.txt' '/bin/echo b >> log.txt' --allow-append
	external_write log.txt "rewritten outside"
	bg_finish
	assert_success
	assert_equal "$(versions log.txt)" 2
	assert_content log.txt "rewritten outside
b"
}

@test "t1101.29 after appends through a hard link, a blind write by the first name is refused" {
	mklog
	run --separate-stderr rgo --allow-append -- "ln log.txt alias.txt; /bin/echo a >> log.txt
/bin/echo b >> alias.txt; /bin/echo c >> alias.txt; echo y > log.txt"
	assert_failure
	assert_refused log.txt unread
	assert_equal "$(tail -n 3 log.txt | tr -d '\n')" abc
}

@test "t1101.30 after appends, the log renamed by the session is still unread under its new name" {
	mklog
	run --separate-stderr rgo --allow-append -- "$APPEND20; mv log.txt moved.txt; /bin/echo m >> moved.txt
echo y > moved.txt"
	assert_failure
	assert_refused moved.txt unread
	assert_equal "$(tail -n 1 moved.txt)" m
}

@test "t1101.31 after appends, a rename of another file over the unread log is refused" {
	mklog
	run --separate-stderr rgo --allow-append -- "$APPEND20; echo new > other.txt; mv -f other.txt log.txt"
	assert_failure
	assert_refused log.txt unread
	assert_equal "$(wc -l <log.txt)" 20020
}

@test "t1101.32 after appends and a readguard reset, a blind write is still refused" {
	mklog
	run --separate-stderr rgo --allow-append -- "/bin/echo a >> log.txt; \"$RG\" reset
/bin/echo b >> log.txt; echo y > log.txt"
	assert_failure
	assert_refused log.txt unread
	assert_equal "$(tail -n 2 log.txt | tr -d '\n')" ab
}

@test "t1101.33 another session's appends between this session's keep the file again" {
	mklog
	bg_session '/bin/echo a >> log.txt' '/bin/echo b >> log.txt' --allow-append
	rgo --allow-append -- '/bin/echo o >> log.txt'
	bg_finish
	assert_success
	assert_equal "$(versions log.txt)" 3
	assert_equal "$(tail -n 3 log.txt | tr -d '\n')" aob
}

@test "t1101.34 appends by threads of one process lose no line and undo brings the original back" {
	mklog
	seq 20000 >want.txt
	run --separate-stderr rgo --allow-append -- 'python3 -c "
import os, threading
def go(n):
    for i in range(20):
        fd = os.open(\"log.txt\", os.O_WRONLY | os.O_APPEND)
        os.write(fd, b\"t%d\\n\" % n)
        os.close(fd)
ts = [threading.Thread(target=go, args=(n,)) for n in range(4)]
[t.start() for t in ts]; [t.join() for t in ts]"'
	assert_success
	assert_equal "$(grep -c '^t[0-3]$' log.txt)" 80
	run --separate-stderr "$RG" undo log.txt
	assert_success
	cmp log.txt want.txt
}

@test "t1101.35 --strict: undo after an appender took O_APPEND off and overwrote the start brings the original back" {
	require_supervisor
	mklog
	seq 20000 >want.txt
	run --separate-stderr rgo --strict --allow-append -- "/bin/echo a >> log.txt; $OVERWRITE; /bin/echo b >> log.txt"
	assert_success
	assert_equal "$(head -c 8 log.txt)" XXXXXXXX
	run --separate-stderr "$RG" undo log.txt
	assert_success
	cmp log.txt want.txt
}

@test "t1101.36 undo after a later appender cut the log and grew it past its old size brings the original back" {
	mklog
	seq 20000 >want.txt
	run --separate-stderr rgo --allow-append -- '/bin/echo a >> log.txt; python3 -c "
import os
fd = os.open(\"log.txt\", os.O_WRONLY | os.O_APPEND)
os.ftruncate(fd, 0)
os.write(fd, b\"regrown\\n\" * 20000)
os.close(fd)"; /bin/echo b >> log.txt'
	assert_success
	assert_equal "$(head -n 1 log.txt)" regrown
	run --separate-stderr "$RG" undo log.txt
	assert_success
	cmp log.txt want.txt
}

@test "t1101.37 a program that takes O_APPEND off its inherited stdout leaves the next append keeping the file again" {
	mklog
	run --separate-stderr rgo --allow-append -- '/bin/echo a >> log.txt; python3 -c "
import fcntl, os
fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) & ~os.O_APPEND)
os.pwrite(1, b\"XX\", 0)" >> log.txt; /bin/echo b >> log.txt'
	assert_success
	assert_equal "$(versions log.txt)" 2
	assert_equal "$(head -c 3 log.txt)" XX2
}

@test "t1101.38 an append by a program outside the session between appends keeps the file again" {
	mklog
	bg_session '/bin/echo a >> log.txt' '/bin/echo b >> log.txt' --allow-append
	env -u LD_PRELOAD -u READGUARD_SESSION -u READGUARD_ROOTS -u READGUARD_MODE -u READGUARD_LOG \
		sh -c 'echo outside >>log.txt'
	bg_finish
	assert_success
	assert_equal "$(versions log.txt)" 2
	assert_equal "$(tail -n 3 log.txt | tr -d '\n')" aoutsideb
}

@test "t1101.39 a change outside the session between one process's appends, then cut through its append descriptor, is kept" {
	mklog
	# The shell appends, an outside program rewrites the log, the same
	# shell appends again and a child cuts the file through that descriptor:
	# the outside bytes were never kept unless the second append kept them.
	bg_session 'echo a >> log.txt' 'exec 3>>log.txt; python3 -c "import os; os.ftruncate(3, 0)"' \
		--allow-append
	external_write log.txt "rewritten outside"
	bg_finish
	assert_success
	assert_equal "$(stat -c %s log.txt)" 0
	assert_equal "$(versions log.txt)" 2
	"$RG" history --json log.txt | grep -q "\"size\":18," || fail "the outside bytes were not kept"
}
