#!/usr/bin/env bats
# A --strict tree reaching into a process of its user outside the tree (the
# agent that started it, an editor, a shell), which writes files unseen:
# ptrace, /proc/PID/mem, process_vm_writev, pidfd_getfd. Each runs as uid
# 65534 (tests/e2e/escape.bash) against a process of that user started
# outside the session; beside each, the same reach into the tree's own
# processes, which debuggers need, keeps working.

load helper
load escape

setup() {
	esc_require
	"$RG" run --strict -- true 2>/dev/null || skip "supervised mode unavailable here"
	ESC=
	BYSTANDER=
}

teardown() {
	[ -z "${BYSTANDER:-}" ] || kill -9 "$BYSTANDER" 2>/dev/null || true
	esc_teardown
}

PY3=$(command -v /usr/bin/python3 || command -v python3)

# bystander [SCRIPT]: a process of uid 65534 outside the session, in the
# root: python running SCRIPT then sleeping (default: only sleeping). Its
# pid goes in $ESC/outside/pid, for the tree, once SCRIPT has run.
bystander() {
	(cd "$ESC/root" && exec setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$PY3" -c "${1:-}
open('../outside/ready', 'w').close()
import time; time.sleep(60)") 3>&- &
	BYSTANDER=$!
	esc_wait_for_file "$ESC/outside/ready" || fail "the bystander never started"
	echo "$BYSTANDER" >"$ESC/outside/pid"
}

# reach SCRIPT: python SCRIPT in a --strict tree, with sc(nr, args...) for
# a raw system call (it prints its result and errno) and PID, the
# bystander's.
reach() {
	esc_py strict <<PY
import sys
PID = int(open(OUT + "/pid").read())
def sc(*a):
    r = libc.syscall(*[ctypes.c_long(x) for x in a])
    print("%d=%d:%s" % (a[0], r, os.strerror(ctypes.get_errno()) if r < 0 else ""), flush=True)
    return r
$1
PY
}

@test "t6050.01 ptrace attach to a process outside the tree is refused with the reason (--strict)" {
	esc_setup
	bystander
	reach 'sc(101, 16, PID, 0, 0)' || true
	grep -q '^101=-1:Operation not permitted' "$ESC/out" || fail "attached: $(cat "$ESC/out")"
	grep -q 'readguard: refused ptrace(PTRACE_ATTACH): under --strict no process may reach into a process outside the tree' "$ESC/out" ||
		fail "no reason given: $(cat "$ESC/out")"
}

@test "t6050.02 gdb -p of a process outside the tree cannot make it write an unread file (--strict)" {
	command -v gdb >/dev/null || skip "gdb is not installed"
	esc_setup
	bystander
	esc_session strict 'timeout 60 gdb -q -p "$(cat "$OUT/pid")" -batch \
		-ex "call (int)system(\"echo PWN >f\")"' || true
	[ "$(esc_verdict)" = refused ] || fail "the bystander wrote f: $(cat "$ESC/out")"
}

@test "t6050.03 ptrace attach to a process of the tree still works (--strict)" {
	esc_setup
	bystander
	reach '
child = os.fork()
if child == 0:
    import time; time.sleep(5); os._exit(0)
sc(101, 0x4206, child, 0, 0)
os.kill(child, 9)' || true
	grep -q '^101=0:' "$ESC/out" || fail "seize of the tree's own child failed: $(cat "$ESC/out")"
}

@test "t6050.04 /proc/PID/mem of a process outside the tree cannot be opened for writing (--strict)" {
	esc_setup
	bystander
	reach '
try:
    os.open("/proc/%d/mem" % PID, os.O_RDWR); print("opened")
except OSError as e:
    print("refused", e.errno)' || true
	grep -qx 'refused 13' "$ESC/out" || fail "opened: $(cat "$ESC/out")"
	grep -q "readguard: refused a write-open of another process's /proc file" "$ESC/out" ||
		fail "no reason given: $(cat "$ESC/out")"
}

@test "t6050.05 a process of the tree still writes its own /proc/self/mem (--strict)" {
	esc_setup
	bystander
	reach '
buf = ctypes.create_string_buffer(b"abc")
fd = os.open("/proc/self/mem", os.O_RDWR)
os.pwrite(fd, b"xyz", ctypes.addressof(buf))
print("mem", buf.value.decode())' || true
	grep -qx 'mem xyz' "$ESC/out" || fail "its own memory: $(cat "$ESC/out")"
}

@test "t6050.06 process_vm_writev into a process outside the tree is refused (--strict)" {
	esc_setup
	bystander
	reach 'sc(311, PID, 0, 0, 0, 0, 0)' || true
	grep -q '^311=-1:Operation not permitted' "$ESC/out" || fail "let through: $(cat "$ESC/out")"
}

@test "t6050.07 pidfd_getfd of an outside process's write descriptor cannot write an unread file (--strict)" {
	esc_setup
	bystander 'import os; print(os.open("f", os.O_RDWR), file=open("../outside/fd", "w"))'
	reach '
fd = sc(438, os.pidfd_open(PID), int(open(OUT + "/fd").read()), 0)
if fd >= 0:
    os.pwrite(fd, b"PWN\n", 0)' || true
	[ "$(esc_verdict)" = refused ] || fail "f was written through the bystander's descriptor: $(cat "$ESC/out")"
}
