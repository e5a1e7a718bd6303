#!/usr/bin/env bats
# The nine acceptance scenarios of seed 001 (read-before-write), played with
# real tools, plus the edge cases the seed lists (deletion, hard links,
# roots, a preloaded process without readguard run).

load helper

# --- seed scenario 1: prevent write without read -------------------------

@test "t0100.01 seed 1: writing an existing file that was not read is refused" {
	mkfile f original
	snapshot f
	run --separate-stderr rgsh 'echo new >f'
	assert_failure
	assert_refused f unread
	assert_unchanged f
}

# --- seed scenario 2: allow write after read -----------------------------

@test "t0100.02 seed 2: writing a file after reading it is allowed" {
	mkfile f original
	run --separate-stderr rgsh 'cat f >/dev/null && echo new >f'
	assert_success
	refute_refused
	assert_content f new
}

@test "t0100.03 seed 2: a read by one process unlocks the write for another process of the session" {
	mkfile f original
	run --separate-stderr rgsh 'sh -c "cat f >/dev/null" && sh -c "echo new >f"'
	assert_success
	refute_refused
	assert_content f new
}

# --- seed scenario 3: detect external modifications ----------------------

@test "t0100.04 seed 3: a file changed outside the session after the read is refused as changed" {
	mkfile f original
	bg_session 'cat f >/dev/null' 'echo new >f'
	external_write f 'changed outside the session'
	snapshot f
	bg_finish
	assert_failure
	assert_refused f changed
	assert_unchanged f
	assert_content f 'changed outside the session'
}

@test "t0100.05 seed 3: the changed-file message reports the old and new sizes" {
	mkfile f original # 9 bytes
	bg_session 'cat f >/dev/null' 'echo new >f'
	external_write f 'x' # 2 bytes
	bg_finish
	assert_failure
	assert_refused f changed
	[[ $stderr == *"size 9 -> 2). Read it again, then retry."* ]] ||
		fail "unexpected message: $stderr"
}

@test "t0100.06 seed 3: after an external change, reading again unlocks the write" {
	mkfile f original
	bg_session 'cat f >/dev/null' 'cat f >/dev/null; echo new >f'
	external_write f 'changed outside the session'
	bg_finish
	assert_success
	refute_refused
	assert_content f new
}

@test "t0100.07 seed 3: an external change that keeps the size but moves the mtime is detected" {
	mkfile f aaaa
	bg_session 'cat f >/dev/null' 'echo new >f'
	external_write f bbbb
	snapshot f
	bg_finish
	assert_failure
	assert_refused f changed
	assert_unchanged f
}

@test "t0100.08 seed 3: an external change that restores the mtime but changes the size is detected" {
	mkfile f original
	bg_session 'cat f >/dev/null' 'echo new >f'
	external_write f 'longer content here'
	make_old f
	snapshot f
	bg_finish
	assert_failure
	assert_refused f changed
	assert_unchanged f
}

# --- seed scenario 4: allow new file creation ----------------------------

@test "t0100.09 seed 4: creating a new file needs no read" {
	run --separate-stderr rgsh 'echo new >f'
	assert_success
	refute_refused
	assert_content f new
}

@test "t0100.10 seed 4: a file the session created may be written again by another process" {
	run --separate-stderr rgsh 'echo one >f; sh -c "echo two >f"; echo three >>f'
	assert_success
	refute_refused
	assert_content f $'two\nthree'
}

# --- seed scenario 5: path normalization ---------------------------------

@test "t0100.11 seed 5: read by relative path, write by absolute path is allowed" {
	mkdir d
	mkfile d/f original
	run --separate-stderr rgsh 'cat d/f >/dev/null && echo new >"$W/d/f"'
	assert_success
	refute_refused
	assert_content d/f new
}

@test "t0100.12 seed 5: read by absolute path, write by a dotted relative path is allowed" {
	mkdir d
	mkfile d/f original
	run --separate-stderr rgsh 'cat "$W/d/f" >/dev/null && echo new >./d/../d/./f'
	assert_success
	refute_refused
	assert_content d/f new
}

@test "t0100.13 seed 5: read from another working directory, write from here is allowed" {
	mkdir d
	mkfile d/f original
	run --separate-stderr rgsh '(cd d && cat f >/dev/null) && echo new >d/f'
	assert_success
	refute_refused
	assert_content d/f new
}

# --- seed scenario 6: symlink handling -----------------------------------

@test "t0100.14 seed 6: read via a symlink, write via the real path is allowed" {
	mkfile f original
	ln -s f link
	run --separate-stderr rgsh 'cat link >/dev/null && echo new >f'
	assert_success
	refute_refused
	assert_content f new
}

@test "t0100.15 seed 6: read via the real path, write via a symlink is allowed" {
	mkfile f original
	ln -s f link
	run --separate-stderr rgsh 'cat f >/dev/null && echo new >link'
	assert_success
	refute_refused
	assert_content f new
	[ -L link ] || fail "link was replaced"
}

@test "t0100.16 seed 6: writing through a symlink to an unread file is refused" {
	mkfile f original
	ln -s f link
	snapshot f
	run --separate-stderr rgsh 'echo new >link'
	assert_failure
	assert_refused link unread
	assert_unchanged f
}

# --- seed scenario 7: edit enforcement -----------------------------------

@test "t0100.17 seed 7: an in-place edit (no truncation) of an unread file is refused" {
	mkfile f original
	snapshot f
	run --separate-stderr rgsh 'printf X | dd of=f conv=notrunc status=none'
	assert_failure
	assert_refused f unread
	assert_unchanged f
}

@test "t0100.18 seed 7: appending to an unread file is refused" {
	mkfile f original
	snapshot f
	run --separate-stderr rgsh 'echo more >>f'
	assert_failure
	assert_refused f unread
	assert_unchanged f
}

@test "t0100.19 seed 7: editing a file after writing it (no read in between) is allowed" {
	run --separate-stderr rgsh 'echo "hello world" >f && sed -i s/world/there/ f && echo more >>f'
	assert_success
	refute_refused
	assert_content f $'hello there\nmore'
}

# --- seed scenario 8: session isolation ----------------------------------

@test "t0100.20 seed 8: a read in an earlier session does not unlock a write in a later one" {
	mkfile f original
	run --separate-stderr rg cat f
	assert_success
	snapshot f
	run --separate-stderr rgsh 'echo new >f'
	assert_failure
	assert_refused f unread
	assert_unchanged f
}

@test "t0100.21 seed 8: a read in a concurrent session does not unlock a write in another" {
	mkfile f original
	bg_session 'cat f >/dev/null' 'echo A >f'
	snapshot f
	run --separate-stderr rgsh 'echo B >f'
	assert_failure
	assert_refused f unread
	assert_unchanged f
	bg_finish
	# Session A read it and nobody changed it: A may write.
	assert_success
	refute_refused
	assert_content f A
}

@test "t0100.22 seed 8: another session's write makes the file changed for this session" {
	mkfile f original
	bg_session 'cat f >/dev/null' 'echo A >f'
	run --separate-stderr rgsh 'cat f >/dev/null && echo "written by B" >f'
	assert_success
	assert_content f 'written by B'
	snapshot f
	bg_finish
	assert_failure
	assert_refused f changed
	assert_unchanged f
}

# --- seed scenario 9: timestamp updated after write ----------------------

@test "t0100.23 seed 9: read, write, write again is allowed" {
	mkfile f original
	run --separate-stderr rgsh 'cat f >/dev/null; echo one >f && echo two >f && echo three >f'
	assert_success
	refute_refused
	assert_content f three
}

@test "t0100.24 seed 9: read, write, then edit with sed -i twice is allowed" {
	mkfile f original
	run --separate-stderr rgsh 'cat f >/dev/null; echo "a b" >f && sed -i s/a/x/ f && sed -i s/b/y/ f'
	assert_success
	refute_refused
	assert_content f 'x y'
}

@test "t0100.25 seed 9: a temp file + rename save, then another write, is allowed" {
	mkfile f original
	run --separate-stderr rgsh 'cat f >/dev/null; echo v2 >f.tmp && mv f.tmp f && echo v3 >f && echo v4 >>f'
	assert_success
	refute_refused
	assert_content f $'v3\nv4'
}

@test "t0100.26 seed 9: a truncate by the session restamps the file" {
	mkfile f original
	run --separate-stderr rgsh 'cat f >/dev/null; truncate -s 2 f && echo x >>f'
	assert_success
	refute_refused
	assert_content f $'or'x
}

@test "t0100.27 seed 9: a write in a slow second step (after the mtime tick) is still allowed" {
	mkfile f original
	run --separate-stderr rgsh 'cat f >/dev/null; echo one >f; sleep 0.05; echo two >>f; sleep 0.05; echo three >f'
	assert_success
	refute_refused
	assert_content f three
}

# --- edge cases ----------------------------------------------------------

@test "t0100.28 a file deleted after its read may be written (it is a new file)" {
	mkfile f original
	run --separate-stderr rgsh 'cat f >/dev/null; rm f; echo new >f'
	assert_success
	refute_refused
	assert_content f new
}

@test "t0100.29 a file deleted and recreated outside the session must be read again" {
	mkfile f original
	bg_session 'cat f >/dev/null' 'echo new >f'
	rm f
	external_write f 'recreated outside'
	snapshot f
	bg_finish
	assert_failure
	# "unread" (new inode) or "changed" (the inode number was reused).
	assert_refused f any
	assert_unchanged f
}

@test "t0100.30 hard link: read via one name, write via the other is allowed" {
	mkfile f original
	ln f g
	run --separate-stderr rgsh 'cat g >/dev/null && echo new >f'
	assert_success
	refute_refused
	assert_content f new
	assert_content g new
}

@test "t0100.31 hard link: writing via a new hard link to an unread file is refused" {
	mkfile f original
	ln f g
	snapshot f
	run --separate-stderr rgsh 'echo new >g'
	assert_failure
	assert_refused g unread
	assert_unchanged f
}

@test "t0100.32 reading a different file with the same name elsewhere does not unlock" {
	mkdir a b
	mkfile a/f A
	mkfile b/f B
	snapshot b/f
	run --separate-stderr rgsh 'cat a/f >/dev/null && cd b && echo new >f'
	assert_failure
	assert_refused f unread
	assert_unchanged b/f
}

@test "t0100.33 writes outside the root (default root = cwd) are allowed" {
	mkfile "$OUT/f" original
	run --separate-stderr rgsh 'echo new >"$OUT/f"'
	assert_success
	refute_refused
	assert_content "$OUT/f" new
}

@test "t0100.34 with --root DIR, files outside DIR are allowed and files inside refused" {
	mkdir guarded free
	mkfile guarded/f G
	mkfile free/f F
	snapshot guarded/f
	run --separate-stderr "$RG" run --log "$LOG" --root "$W/guarded" -- bash -c 'echo new >free/f'
	assert_success
	refute_refused
	assert_content free/f new
	run --separate-stderr "$RG" run --log "$LOG" --root "$W/guarded" -- bash -c 'echo new >guarded/f'
	assert_failure
	assert_refused guarded/f unread
	assert_unchanged guarded/f
}

@test "t0100.35 --root covers subdirectories" {
	mkdir -p deep/er/est
	mkfile deep/er/est/f original
	snapshot deep/er/est/f
	run --separate-stderr "$RG" run --log "$LOG" --root "$W/deep" -- bash -c 'echo new >deep/er/est/f'
	assert_failure
	assert_refused deep/er/est/f unread
	assert_unchanged deep/er/est/f
}

@test "t0100.36 a root given by a relative path guards the same directory" {
	mkdir guarded
	mkfile guarded/f G
	snapshot guarded/f
	run --separate-stderr "$RG" run --log "$LOG" --root guarded -- bash -c 'cd / && echo new >"$W/guarded/f"'
	assert_failure
	assert_refused "$W/guarded/f" unread
	assert_unchanged guarded/f
}

@test "t0100.37 a preloaded process without a session is guarded (READGUARD_ROOTS)" {
	mkfile f original
	snapshot f
	run --separate-stderr env LD_PRELOAD="$SHIM" READGUARD_ROOTS="$W" bash -c 'echo new >f'
	assert_failure
	assert_refused f unread
	assert_unchanged f
}

@test "t0100.38 a preloaded process without a session: its children join its session" {
	mkfile f original
	run --separate-stderr env LD_PRELOAD="$SHIM" READGUARD_ROOTS="$W" bash -c 'cat f >/dev/null && echo new >f && sh -c "echo newer >f"'
	assert_success
	refute_refused
	assert_content f newer
}

@test "t0100.39 a preloaded process without a session defaults its root to the cwd" {
	mkfile f original
	mkfile "$OUT/g" original
	snapshot f
	run --separate-stderr env LD_PRELOAD="$SHIM" bash -c 'echo new >"$OUT/g"; echo new >f'
	assert_failure
	assert_refused f unread
	assert_unchanged f
	assert_content "$OUT/g" new
}

@test "t0100.40 READGUARD_ROOTS takes a colon-separated list" {
	mkdir a b c
	mkfile a/f A
	mkfile b/f B
	mkfile c/f C
	snapshot a/f b/f
	run --separate-stderr env LD_PRELOAD="$SHIM" READGUARD_ROOTS="$W/a:$W/b" bash -c 'echo x >c/f; echo x >a/f'
	assert_failure
	assert_refused a/f unread
	run --separate-stderr env LD_PRELOAD="$SHIM" READGUARD_ROOTS="$W/a:$W/b" bash -c 'echo x >b/f'
	assert_failure
	assert_refused b/f unread
	assert_unchanged a/f b/f
	assert_content c/f x
}

@test "t0100.41 two preloaded processes without a session do not share reads" {
	mkfile f original
	env LD_PRELOAD="$SHIM" READGUARD_ROOTS="$W" cat f >/dev/null
	snapshot f
	run --separate-stderr env LD_PRELOAD="$SHIM" READGUARD_ROOTS="$W" bash -c 'echo new >f'
	assert_failure
	assert_refused f unread
	assert_unchanged f
}

@test "t0100.42 a preloaded session is removed when its creator exits, even after exec" {
	# bash execs its last command, so the creating process ends as another image.
	run env LD_PRELOAD="$SHIM" READGUARD_ROOTS="$W" bash -c 'echo "$READGUARD_SESSION" >sess; exec bash -c :'
	assert_success
	[ -s sess ] || fail "no session was exported"
	[ ! -e "$(cat sess)" ] || fail "session table $(cat sess) was left behind"
}

@test "t0100.43 a table left by a creator that used _exit is removed by the next new session" {
	mkdir tables
	# dash leaves through _exit(), so no destructor can remove its table.
	run env LD_PRELOAD="$SHIM" READGUARD_DIR="$W/tables" dash -c 'echo "$READGUARD_SESSION" >sess'
	assert_success
	[ -e "$(cat sess)" ] || fail "expected dash to leave its table behind"
	run env LD_PRELOAD="$SHIM" READGUARD_DIR="$W/tables" bash -c 'echo "$READGUARD_SESSION" >sess2'
	assert_success
	[ ! -e "$(cat sess)" ] || fail "dead session $(cat sess) was not pruned"
}

@test "t0100.44 a session whose creator still runs is never pruned" {
	mkdir tables
	run --separate-stderr rg env READGUARD_DIR="$W/tables" bash -c 'env -u READGUARD_SESSION LD_PRELOAD="$SHIM" READGUARD_DIR="$W/tables" true; [ -e "$READGUARD_SESSION" ] && echo alive'
	assert_success
	assert_output alive
}

@test "t0100.45 children of a preloaded dash join its session (dash exports its own variables)" {
	mkfile f original
	# cat is a child of dash: its read only counts if it joined dash's session.
	run --separate-stderr env LD_PRELOAD="$SHIM" READGUARD_ROOTS="$W" dash -c 'cat f >/dev/null; echo new >f'
	assert_success
	refute_refused
	assert_content f new
}

# assert_left_running_wrote: what the creator left running, let go, read
# f and wrote it: its status 0 in rc, nothing on its stderr.
assert_left_running_wrote() {
	await_file rc
	assert_content rc 0
	assert_content f new
	[ ! -s err ] || fail "stderr of the write: $(cat err)"
}

# An agent's shell started preloaded leaves a server running with &: the
# server and what it starts later stay in the session, not shut out of it.
@test "t0100.54 a background child that outlives its preloaded creator can still write a file it read" {
	mkfile f original
	run --separate-stderr env LD_PRELOAD="$SHIM" READGUARD_ROOTS="$W" bash -c \
		'echo "$READGUARD_SESSION" >sess
		( for i in $(seq 1000); do [ -e go ] && break; sleep 0.02; done
		  sh -c "cat f >/dev/null; echo new >f" 2>err; echo $? >rc.tmp; mv rc.tmp rc ) </dev/null >/dev/null 2>&1 &'
	assert_success
	touch go
	assert_left_running_wrote
}

@test "t0100.55 the table a background child kept is pruned once it is gone" {
	run --separate-stderr env LD_PRELOAD="$SHIM" bash -c \
		'echo "$READGUARD_SESSION" >sess
		( for i in $(seq 1000); do [ -e go ] && break; sleep 0.02; done; : >done ) </dev/null >/dev/null 2>&1 &'
	assert_success
	[ -e "$(cat sess)" ] || fail "the table went while its child still ran"
	touch go
	await_file done
	await_prune "$(cat sess)"
}

# A daemon forks twice, or its parent exits right away: the creator has
# no child left at exit, and the daemon is no longer its child.
daemon_script() {
	cat >daemon.sh <<-'EOF'
		for i in $(seq 1000); do [ -e go ] && break; sleep 0.02; done
		sh -c 'cat f >/dev/null; echo new >f' 2>err; echo $? >rc.tmp; mv rc.tmp rc
	EOF
}

@test "t0100.56 a daemon a preloaded shell's subshell left running can still write a file it read" {
	mkfile f original
	daemon_script
	run --separate-stderr env LD_PRELOAD="$SHIM" READGUARD_ROOTS="$W" bash -c \
		'echo "$READGUARD_SESSION" >sess; (setsid sh daemon.sh </dev/null >/dev/null 2>&1 &); :'
	assert_success
	[ -e "$(cat sess)" ] || fail "the table went while the daemon still ran"
	touch go
	assert_left_running_wrote
}

# The creator's look at /proc can catch its daemon inside execve, its new
# environment not yet laid out: a chain of execs widens that window, and
# the launch is tried many times.
@test "t0100.67 a daemon caught in the middle of its exec at its creator's exit keeps the table" {
	printf 'while [ ! -e go ]; do sleep 0.02; done\n' >wait.sh
	for try in $(seq 40); do
		rm -f sess
		env LD_PRELOAD="$SHIM" READGUARD_ROOTS="$W" bash -c \
			'echo "$READGUARD_SESSION" >sess; (setsid env env env env env env env env sh wait.sh </dev/null >/dev/null 2>&1 &); :'
		[ -e "$(cat sess)" ] || { touch go; fail "try $try: the table went while the daemon still ran"; }
	done
	touch go
}

@test "t0100.57 a daemon a preloaded python left through a reaped child can still write a file it read" {
	mkfile f original
	daemon_script
	run --separate-stderr env LD_PRELOAD="$SHIM" READGUARD_ROOTS="$W" python3 -c \
		'import os, subprocess
open("sess", "w").write(os.environ["READGUARD_SESSION"])
subprocess.run(["sh", "-c", "sh daemon.sh </dev/null >/dev/null 2>&1 &"], check=True)'
	assert_success
	touch go
	assert_left_running_wrote
}

@test "t0100.58 the table a daemon kept is pruned once it is gone" {
	daemon_script
	run --separate-stderr env LD_PRELOAD="$SHIM" READGUARD_ROOTS="$W" bash -c \
		'echo "$READGUARD_SESSION" >sess; (setsid sh daemon.sh </dev/null >/dev/null 2>&1 &); :'
	assert_success
	touch go
	await_file rc
	await_prune "$(cat sess)"
}

# A child forked with no exec, reading in-process: removed at its creator's
# exit, the table would lose what the child read, and a program the child
# starts later could not write.
@test "t0100.60 a forked child that outlives its preloaded creator keeps what it read for the programs it starts" {
	mkfile f original
	run --separate-stderr env LD_PRELOAD="$SHIM" READGUARD_ROOTS="$W" python3 -c '
import os, time
open("sess", "w").write(os.environ["READGUARD_SESSION"])
if os.fork() == 0:
    os.setsid()
    null = os.open("/dev/null", os.O_RDWR)
    for fd in 0, 1, 2:
        os.dup2(null, fd)
    open("f").read()
    while not os.path.exists("go"):
        time.sleep(0.02)
    os._exit(os.system("sh -c \"echo new >f\" 2>err; echo $? >rc.tmp; mv rc.tmp rc"))'
	assert_success
	[ -e "$(cat sess)" ] || fail "the table went while the child still ran"
	touch go
	assert_left_running_wrote
}

# A sandbox sharing /dev/shm (bwrap --unshare-pid, unshare -p) sees none
# of the processes outside it: a running session's creator looks gone.
# sandbox_spares_table COMMAND...: COMMAND run in a new PID namespace while
# a preloaded session runs outside must leave that session's table.
sandbox_spares_table() {
	unshare -pf --mount-proc true 2>/dev/null || skip "no PID namespace can be made here"
	mkfifo go
	env LD_PRELOAD="$SHIM" READGUARD_ROOTS="$W" bash -c \
		'echo "$READGUARD_SESSION" >sess; cat sess >/dev/null; read -r _ <go' &
	# The redirection makes sess before echo writes it: wait for its line.
	await test -s sess
	await_file "$(cat sess)"
	table_left_by unshare -pf --mount-proc "$@"
}

# table_left_by COMMAND...: COMMAND, run while the session started in the
# background (its table's path in sess) waits on the fifo go, must succeed
# and leave that table; the session then ends.
table_left_by() {
	run "$@"
	local kept=no
	[ -e "$(cat sess)" ] && kept=yes
	echo >go
	wait
	assert_success
	[ "$kept" = yes ] || fail "'$*' removed the table of a session still running"
}

@test "t0100.61 a session started in another PID namespace leaves a running session's table alone" {
	sandbox_spares_table "$RG" run -- true
}

@test "t0100.62 sessions --prune in another PID namespace leaves a running session's table alone" {
	sandbox_spares_table "$RG" sessions --prune
}

# The other way round: the initial PID namespace sees every process, so it
# can tell a sandbox's session has ended by finding none left in its
# namespace, though the creator's pid means nothing here.
in_initial_pidns() {
	[ "$(stat -Lc %i /proc/self/ns/pid)" = 4026531836 ] || skip "not in the initial PID namespace"
	unshare -pf --mount-proc true 2>/dev/null || skip "no PID namespace can be made here"
}

# sandboxed_table_pruned COMMAND...: COMMAND run here after a session
# kept by --keep in a sandbox has ended must remove its table.
sandboxed_table_pruned() {
	in_initial_pidns
	run unshare -pf --mount-proc "$RG" run --keep -- sh -c 'echo "$READGUARD_SESSION" >sess'
	assert_success
	[ -e "$(cat sess)" ] || fail "--keep kept no table"
	run "$@"
	assert_success
	[ ! -e "$(cat sess)" ] || fail "'$*' kept the table of a session whose namespace has no process left"
}

# sandboxed_table_spared COMMAND...: COMMAND run here while a session runs
# in a sandbox must leave its table.
sandboxed_table_spared() {
	in_initial_pidns
	mkfifo go
	unshare -pf --mount-proc "$RG" run -- sh -c 'echo "$READGUARD_SESSION" >sess; read -r _ <go' &
	await test -s sess
	table_left_by "$@"
}

@test "t0100.63 a session started after a sandbox's session ended removes its table" {
	sandboxed_table_pruned "$RG" run -- true
}

@test "t0100.64 sessions --prune removes the table of a sandbox's session that ended" {
	sandboxed_table_pruned "$RG" sessions --prune
}

@test "t0100.65 a session started beside a sandbox's running session leaves its table alone" {
	sandboxed_table_spared "$RG" run -- true
}

@test "t0100.66 sessions --prune leaves the table of a sandbox's running session alone" {
	sandboxed_table_spared "$RG" sessions --prune
}

@test "t0100.59 a preloaded creator whose children have all ended removes its table at exit" {
	run env LD_PRELOAD="$SHIM" READGUARD_ROOTS="$W" bash -c \
		'echo "$READGUARD_SESSION" >sess; /bin/true; (sh -c :); :'
	assert_success
	[ -s sess ] || fail "no session was exported"
	[ ! -e "$(cat sess)" ] || fail "session table $(cat sess) was left behind"
}

# --- a file replaced since it was read ---------------------------------------

MSG_REPLACED="it was replaced by another file since this session read it (read at "

# replace_outside PATH: another program's atomic save over PATH: a new file
# written beside it, then renamed onto it.
replace_outside() {
	printf 'saved by another program\n' >"$1.new"
	mv "$1.new" "$1"
}

@test "t0100.46 a file replaced by an external mv after the session read it is refused as replaced" {
	mkfile f original
	bg_session 'cat f >/dev/null' 'echo new >f'
	replace_outside f
	snapshot f
	bg_finish
	assert_failure
	assert_refused f any
	[[ $stderr == *"readguard: refused to write 'f': $MSG_REPLACED"*"). Read it again, then retry."* ]] ||
		fail "stderr: $stderr"
	assert_unchanged f
}

@test "t0100.47 the log line of a refusal of a replaced file gives reason replaced" {
	mkfile f original
	bg_session 'cat f >/dev/null' 'echo new >f'
	replace_outside f
	bg_finish
	assert_failure
	[ "$(log_field 1 reason)" = '"replaced"' ] || fail "reason: $(log_field 1 reason)"
	[ "$(log_field 1 path)" = "\"$W/f\"" ] || fail "path: $(log_field 1 path)"
}

@test "t0100.48 a file never read, replaced by an external mv, is refused as not read" {
	mkfile f original
	mkfile g other
	bg_session 'cat g >/dev/null' 'echo new >f'
	replace_outside f
	bg_finish
	assert_failure
	assert_refused f unread
	[ "$(log_field 1 reason)" = '"unread"' ] || fail "reason: $(log_field 1 reason)"
}

@test "t0100.49 a file of the same name read in another directory is not what was replaced" {
	mkdir a b
	mkfile a/f original
	mkfile b/f other
	bg_session 'cat a/f >/dev/null' 'echo new >b/f'
	replace_outside b/f
	bg_finish
	assert_failure
	assert_refused b/f unread
}

@test "t0100.50 after readguard reset a replaced file is refused as not read: the read is forgotten" {
	mkfile f original
	bg_session 'cat f >/dev/null' '"$RG" reset && echo new >f'
	replace_outside f
	bg_finish
	assert_failure
	assert_refused f unread
}

@test "t0100.51 the same relative name read from another directory does not call an older file replaced" {
	mkdir a b
	mkfile a/f original
	mkfile b/f other
	[ "$(stat -c %W b/f)" != 0 ] || skip "this file system keeps no birth time"
	# Born well before the read, beyond the tick of slack a birth time gets.
	sleep 0.2
	bg_session 'cd a && cat f >/dev/null && cd ../b' 'echo new >f'
	# b/f changes (its ctime moves) but stays the file it was.
	printf 'edited\n' >>b/f
	bg_finish
	assert_failure
	assert_refused f unread
}

@test "t0100.52 a preloaded process in a directory with a colon in its name guards it, whole" {
	mkdir 'a:b'
	mkfile 'a:b/f' original
	cd 'a:b'
	run --separate-stderr env -u READGUARD_ROOTS LD_PRELOAD="$SHIM" bash -c 'echo new >g; echo new >f'
	assert_failure
	assert_refused f unread
	[[ $stderr != *READGUARD_ROOTS* ]] || fail "blamed a variable never set: $stderr"
	assert_content g new
	assert_content f original
}

# README: in a running shell, `export LD_PRELOAD` makes each command its own
# session, so one command's read does not count for the next.
@test "t0100.53 with LD_PRELOAD exported in a shell, a read by one command does not unlock a write by the next" {
	mkfile f original
	mkfile g other
	snapshot f
	run --separate-stderr bash -c "export LD_PRELOAD='$SHIM'; cat f >/dev/null; cp g f"
	assert_failure
	assert_refused f unread
	assert_unchanged f
}
