#!/usr/bin/env bats
# ctime counts (issue 14, item 7): a change whose mtime was put back with the
# size kept (touch -d, cp -p, rsync -t, os.utime) is a change, in every mode,
# as uid 65534. Alongside: what moves only ctime stays out of the way, the
# session's own chmod, chown, link and utime, and another program's chmod of
# a file whose bytes the session hashed.

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

# written MODE SIZE CHANGE: the session reads f (SIZE bytes), another program
# runs CHANGE, the session writes f; passes if the write went through.
written() {
	[ "$1" = preload ] || "$RG" run "$(esc_flags "$1")" -- true 2>/dev/null ||
		skip "supervised mode unavailable here"
	esc_setup
	esc_mtime_restore "$1" "$2" "$3"
	grep -q PWN "$ESC/root/f" || fail "the write after '$3' did not go through:
$(cat "$ESC/out")"
}

# own MODE SCRIPT: the session reads a large f (no hash can vouch for it),
# runs SCRIPT on it, then writes it.
own() {
	ESC_SIZE=200000
	allowed "$1" "cat f >/dev/null && $2 && echo OK >f" f OK
}

# --- a change with its mtime put back ----------------------------------------

@test "t6030.01 touch -d after a same-size change: the write is refused (preload)" {
	refused preload mtime-restore
}

@test "t6030.02 touch -d after a same-size change: the write is refused (--supervise)" {
	refused supervise mtime-restore
}

@test "t6030.03 touch -d after a same-size change: the write is refused (--strict)" {
	refused strict mtime-restore
}

@test "t6030.04 touch -d after a same-size change of a file past 64 KiB: refused (preload)" {
	refused preload mtime-restore-large
}

@test "t6030.05 touch -d after a same-size change of a file past 64 KiB: refused (--supervise)" {
	refused supervise mtime-restore-large
}

@test "t6030.06 touch -d after a same-size change of a file past 64 KiB: refused (--strict)" {
	refused strict mtime-restore-large
}

@test "t6030.07 cp -p of a same-size file with the old mtime over f: refused (preload)" {
	refused preload cp-p-restore
}

@test "t6030.08 cp -p of a same-size file with the old mtime over f: refused (--supervise)" {
	refused supervise cp-p-restore
}

@test "t6030.09 cp -p of a same-size file with the old mtime over f: refused (--strict)" {
	refused strict cp-p-restore
}

@test "t6030.10 os.utime putting the mtime back after a change: refused (preload)" {
	refused preload utime-restore
}

@test "t6030.11 os.utime putting the mtime back after a change: refused (--supervise)" {
	refused supervise utime-restore
}

@test "t6030.12 os.utime putting the mtime back after a change: refused (--strict)" {
	refused strict utime-restore
}

@test "t6030.13 rsync --inplace -t -I of a same-size file with the old mtime: refused (preload)" {
	command -v rsync >/dev/null || skip "rsync is not installed"
	refused preload rsync-restore
}

@test "t6030.14 rsync --inplace -t -I of a same-size file with the old mtime: refused (--supervise)" {
	command -v rsync >/dev/null || skip "rsync is not installed"
	refused supervise rsync-restore
}

@test "t6030.15 rsync --inplace -t -I of a same-size file with the old mtime: refused (--strict)" {
	command -v rsync >/dev/null || skip "rsync is not installed"
	refused strict rsync-restore
}

@test "t6030.16 the refusal says the file changed with the same mtime and size" {
	esc_setup
	esc_attack preload mtime-restore || true
	grep -q "refused to write 'f': it changed since this session read it (read at .*, changed .* with the same mtime and size)" "$ESC/out" ||
		fail "$(cat "$ESC/out")"
	grep -q '"reason":"changed"' "$ESC/log" || fail "$(cat "$ESC/log")"
}

# --- only the metadata moved -------------------------------------------------

@test "t6030.20 another program's chmod of a read file, bytes the same: the write is allowed (preload)" {
	written preload 9 'chmod 600 f'
}

@test "t6030.21 another program's chmod of a read file, bytes the same: the write is allowed (--supervise)" {
	written supervise 9 'chmod 600 f'
}

@test "t6030.22 another program's chmod of a read file, bytes the same: the write is allowed (--strict)" {
	written strict 9 'chmod 600 f'
}

@test "t6030.23 another program's chmod of a read file past 64 KiB is a change: refused (documented)" {
	esc_setup
	esc_mtime_restore preload 200000 'chmod 600 f' || true
	[ "$(esc_verdict)" = refused ] || fail "$(cat "$ESC/out")"
}

# --- the session's own metadata changes, on a file too large to hash -----------

@test "t6030.30 the session's own chmod of a read file keeps it writable (preload)" {
	own preload 'chmod 600 f'
}

@test "t6030.31 the session's own chmod of a read file keeps it writable (--supervise)" {
	own supervise 'chmod 600 f'
}

@test "t6030.32 the session's own chmod of a read file keeps it writable (--strict)" {
	own strict 'chmod 600 f'
}

@test "t6030.33 the session's own fchmod of a read file keeps it writable (preload)" {
	own preload '/usr/bin/python3 -c "import os; fd = os.open(\"f\", os.O_RDONLY); os.fchmod(fd, 0o600)"'
}

@test "t6030.34 the session's own fchmod of a read file keeps it writable (--strict)" {
	own strict '/usr/bin/python3 -c "import os; fd = os.open(\"f\", os.O_RDONLY); os.fchmod(fd, 0o600)"'
}

@test "t6030.35 the session's own chown of a read file keeps it writable (preload)" {
	own preload 'chown 65534:65534 f'
}

@test "t6030.36 the session's own chown of a read file keeps it writable (--supervise)" {
	own supervise 'chown 65534:65534 f'
}

@test "t6030.37 the session's own chown of a read file keeps it writable (--strict)" {
	own strict 'chown 65534:65534 f'
}

@test "t6030.38 the session's own hard link to a read file keeps it writable (preload)" {
	own preload 'ln f g'
}

@test "t6030.39 the session's own hard link to a read file keeps it writable (--supervise)" {
	own supervise 'ln f g'
}

@test "t6030.40 the session's own hard link to a read file keeps it writable (--strict)" {
	own strict 'ln f g'
}

@test "t6030.41 the session's own touch -d of a read file keeps it writable (preload)" {
	own preload 'touch -d 2001-01-01 f'
}

@test "t6030.42 the session's own touch -d of a read file keeps it writable (--strict)" {
	own strict 'touch -d 2001-01-01 f'
}

@test "t6030.43 the session's own mv of a read file keeps it writable under its new name (--strict)" {
	ESC_SIZE=200000
	allowed strict 'cat f >/dev/null && mv f g && echo OK >g' g OK
}

@test "t6030.44 the session's own chmod does not make an unread file known (preload)" {
	esc_setup
	esc_session preload 'chmod 600 f && echo PWN >f' || true
	[ "$(esc_verdict)" = refused ] || fail "$(cat "$ESC/out")"
}

@test "t6030.45 the session's own chmod after another's mtime-restoring change does not hide it (preload)" {
	esc_setup
	esc_mtime_restore preload 9 "$ESC_UTIME" 'chmod 600 f' || true
	[ "$(esc_verdict)" = refused ] || fail "$(cat "$ESC/out")"
}

# --- the same, by programs the library does not see: the supervisor's ----------

@test "t6030.50 a static program's own chmod of a read file keeps it writable (--supervise)" {
	own supervise '"$T/rgstatic" chmod f'
}

@test "t6030.51 a static program's own fchmod of a read file keeps it writable (--supervise)" {
	own supervise '"$T/rgstatic" fchmod f'
}

@test "t6030.52 a static program's own chown of a read file keeps it writable (--supervise)" {
	own supervise '"$T/rgstatic" chown f'
}

@test "t6030.53 a static program's own fchown of a read file keeps it writable (--supervise)" {
	own supervise '"$T/rgstatic" fchown f'
}

@test "t6030.54 a static program's own utimensat of a read file keeps it writable (--supervise)" {
	own supervise '"$T/rgstatic" utimens f'
}

@test "t6030.55 a static program's own futimens of a read file keeps it writable (--supervise)" {
	own supervise '"$T/rgstatic" futimens f'
}

@test "t6030.56 a static program's own chmod of a read file keeps it writable (--strict)" {
	own strict '"$T/rgstatic" chmod f'
}

@test "t6030.57 a static program's own fchown and futimens keep a read file writable (--strict)" {
	own strict '"$T/rgstatic" fchown f futimens f'
}

@test "t6030.58 a static program's chmod does not make an unread file known (--supervise)" {
	esc_setup
	esc_session supervise '"$T/rgstatic" chmod f write f PWN' || true
	[ "$(esc_verdict)" = refused ] || fail "$(cat "$ESC/out")"
}

@test "t6030.59 syscall(SYS_fchmodat) of the session's own keeps a read file writable (preload)" {
	own preload '/usr/bin/python3 -c "import ctypes, os; ctypes.CDLL(None, use_errno=True).syscall(268, -100, b\"f\", 0o600) == 0 or os._exit(1)"'
}
