#!/usr/bin/env bats
# Wrongful results (issue 14): what a session refuses or fails must be only
# what the rule refuses. Each runs a whole session as uid 65534, like the
# hostile set (tests/e2e/escape.bash), in the modes it applies to.

load helper
load escape

setup() {
	esc_require
	ESC=
	ESC_SIZE=
}

teardown() {
	esc_teardown
}

# unshare_ok: can uid 65534 make a user namespace here?
unshare_ok() {
	esc_drop unshare -Ur true 2>/dev/null || skip "unprivileged user namespaces are off here"
}

# OPEN_OWN_FD: Python opening its own descriptor by /proc/PID/fd/N.
OPEN_OWN_FD='/usr/bin/python3 -c "
import os
fd = os.open(\"f\", os.O_RDONLY)
os.write(1, os.read(os.open(\"/proc/%d/fd/%d\" % (os.getpid(), fd), os.O_RDONLY), 64))" >copy'

# --- another process's /proc entries, under the supervisor ----------------------

@test "t6040.01 a static program reads /proc/\$\$/cwd/f (--supervise)" {
	allowed supervise '"$T/rgstatic" read /proc/$$/cwd/f >copy' copy ok
}

@test "t6040.02 cat /proc/\$\$/cwd/f reads f (--strict)" {
	allowed strict 'cat /proc/$$/cwd/f >copy' copy ORIGINAL
}

@test "t6040.03 a static program writes a read file through /proc/\$\$/cwd (--supervise)" {
	allowed supervise 'cat f >/dev/null && "$T/rgstatic" write /proc/$$/cwd/f OK >/dev/null' f OK
}

@test "t6040.04 open(\"/proc/<own pid>/fd/N\") reopens the file (--strict)" {
	allowed strict "$OPEN_OWN_FD" copy ORIGINAL
}

@test "t6040.05 a read through /proc/\$\$/cwd unlocks the write (--strict)" {
	allowed strict 'cat /proc/$$/cwd/f >/dev/null && echo OK >f' f OK
}

@test "t6040.06 a write through /proc/\$\$/cwd to an unread file is still refused (--strict)" {
	esc_setup
	esc_session strict 'echo PWN >/proc/$$/cwd/f' || true
	[ "$(esc_verdict)" = refused ] || fail "$(cat "$ESC/out")"
	grep -q "readguard: refused to write '/proc/[0-9]*/cwd/f'" "$ESC/out" || fail "$(cat "$ESC/out")"
}

@test "t6040.07 /proc/1/cwd, outside the tree, is still not crossed by the supervisor (--strict)" {
	esc_setup
	esc_session strict 'cat /proc/1/cwd/etc/hostname' && fail "read pid 1's files: $(cat "$ESC/out")"
	true
}

# --- a user namespace (unshare -Ur) is still the session's user -----------------

@test "t6040.10 inside unshare -Ur a write after a read is allowed (preload)" {
	unshare_ok
	allowed preload 'unshare -Ur bash -c "cat f >/dev/null && echo OK >f"' f OK
}

@test "t6040.11 inside unshare -Ur a write after a read is allowed (--supervise)" {
	unshare_ok
	allowed supervise 'unshare -Ur bash -c "cat f >/dev/null && echo OK >f"' f OK
}

@test "t6040.12 inside unshare -Ur an unread file is still refused (preload)" {
	unshare_ok
	esc_setup
	esc_session preload 'unshare -Ur bash -c "echo PWN >f"' || true
	[ "$(esc_verdict)" = refused ] || fail "$(cat "$ESC/out")"
	grep -q "it has not been read in this session" "$ESC/out" || fail "$(cat "$ESC/out")"
}
