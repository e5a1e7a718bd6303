#!/usr/bin/env bats
# Signals: a handler that opens files while its thread is inside the shim
# neither deadlocks nor slips past the guard, and an open that waits (a
# FIFO) is still interrupted by signals as without the shim.

load helper

TH="$T/rgthreads"

@test "t3100.01 a SIGALRM handler opening files at a high rate: no deadlock, and its writes are guarded" {
	mkfile unread u
	snapshot unread
	run --separate-stderr timeout 300 "$RG" run --log "$LOG" -- "$TH" signals 1000 "$W"
	assert_success
	[[ $output =~ ^handler=([0-9]+)\ main=1000$ ]] || fail "unexpected output: $output"
	[ "${BASH_REMATCH[1]}" -gt 0 ] || fail "the handler never ran"
	assert_unchanged unread
}

# fifo_waiter: the pid of a process of this test (its cwd is $W) that waits
# in the open of a FIFO for the other end, or nothing.
fifo_waiter() {
	local d w
	for d in /proc/[0-9]*; do
		w= # wchan has no newline: read finds its end and fails, w is set
		read -r w <"$d/wchan" 2>/dev/null
		[ "$w" = wait_for_partner ] && [ "$(readlink "$d/cwd" 2>/dev/null)" = "$W" ] &&
			echo "${d#/proc/}" && return 0
	done
	return 0
}

# signal_fifo_waiter SIG group|process: in the background, once a process of
# this test waits in a FIFO's open, send it SIG (to its whole process group,
# as timeout does, or to it alone). Where the kernel hides wchan it never
# finds one and the test's own timeout sends the signal instead.
signal_fifo_waiter() {
	(
		local pid i pgid stat
		for ((i = 0; i < 1000; i++)); do
			pid=$(fifo_waiter)
			[ -n "$pid" ] && break
			sleep 0.02
		done
		[ -n "$pid" ] || exit 0
		if [ "$2" = process ]; then
			kill -s "$1" "$pid"
			exit
		fi
		read -r stat <"/proc/$pid/stat" || exit 0
		stat=${stat##*) } # past "pid (comm) ": state ppid pgrp ...
		read -r _ _ pgid _ <<<"$stat"
		# timeout runs the command in a group of its own, never bats's.
		[ "$pgid" != "$(ps -o pgid= $$ | tr -d ' ')" ] && kill -s "$1" -- "-$pgid"
	) >/dev/null 2>&1 3>&- &
	FIFO_PID=$!
}

# The waiting open gets SIGINT from signal_fifo_waiter (status 130), or from
# timeout after 10 s where the waiter cannot be seen (124); timeout's SIGKILL
# 20 s later (137) says SIGINT did not end the open.
assert_ended_by_sigint() {
	[ "$status" -eq 130 ] || [ "$status" -eq 124 ] ||
		fail "status $status (137: SIGINT did not end the open)"
}

@test "t3100.02 SIGINT ends a read-open of a FIFO that waits for a writer" {
	mkfifo p
	signal_fifo_waiter INT group
	run timeout -k 20 -s INT 10 "$RG" run --log "$LOG" -- cat p
	assert_ended_by_sigint
}

@test "t3100.03 SIGINT ends a write-open of a FIFO that waits for a reader" {
	mkfifo p
	signal_fifo_waiter INT group
	run timeout -k 20 -s INT 10 "$RG" run --log "$LOG" -- sh -c 'echo x >p'
	assert_ended_by_sigint
}

@test "t3100.04 SIGINT ends an fopen of a FIFO that waits for a writer" {
	mkfifo p
	signal_fifo_waiter INT group
	run timeout -k 20 -s INT 10 "$RG" run --log "$LOG" -- sed -n p p
	assert_ended_by_sigint
}

@test "t3100.06 SIGINT ends a write-mode fopen of a FIFO that waits for a reader" {
	# The shim carries a write-mode fopen out as its own open plus fdopen,
	# made before it blocks signals to judge the file.
	mkfifo p
	signal_fifo_waiter INT group
	run timeout -k 20 -s INT 10 "$RG" run --log "$LOG" -- "$T/rgprobe" fopen p w
	assert_ended_by_sigint
}

@test "t3100.05 a signal handler's open interrupts nothing: EINTR from a waiting open still reaches the program" {
	mkfifo p
	# SIGALRM comes once the open waits (or from the alarm, 10 s on, where
	# the wait cannot be seen): the handler's exception ends the open.
	signal_fifo_waiter ALRM process
	run timeout 20 "$RG" run --log "$LOG" -- python3 -c '
import os, signal, errno
def on_alarm(sig, frame):
    raise TimeoutError
signal.signal(signal.SIGALRM, on_alarm)
signal.alarm(10)
try:
    os.open("p", os.O_RDONLY)
    print("opened")
except TimeoutError:
    print("interrupted")'
	assert_success
	assert_output interrupted
}

# masks_for N PROGRAM: the rt_sigprocmask calls of a python3 run of
# PROGRAM with n = N in a session, counted by strace.
masks_for() {
	strace -f -e trace=rt_sigprocmask -o "$W/masks.tr" \
		"$RG" run --log "$LOG" -- python3 -c "n = $1
$2" >/dev/null
	grep -c 'rt_sigprocmask(' "$W/masks.tr"
}

@test "t3100.07 a file the open creates, written and closed, costs no signal-mask call" {
	need_strace
	local prog='
import os
for i in range(n):
    with open("new.%d.%d" % (n, i), "x") as f:
        f.write("x")'
	local one ten
	one=$(masks_for 1 "$prog") ten=$(masks_for 11 "$prog")
	assert_equal "$(cat new.11.10)" x
	# Ten more creates and closes, no more masks: counting the new file's
	# writer and restamping it at close are lock-free, done outside.
	assert_equal "$ten" "$one"
}

@test "t3100.08 a rewrite of a file read costs one signal-mask pair, for its judgement, none at its close" {
	need_strace
	for i in $(seq 0 10); do mkfile "old.$i" old; done
	local prog='
for i in range(n):
    open("old.%d" % i).read()
    with open("old.%d" % i, "w") as f:
        f.write("new")'
	local one ten
	one=$(masks_for 1 "$prog") ten=$(masks_for 11 "$prog")
	assert_equal "$(cat old.10)" new
	assert_equal "$((ten - one))" 20
}

@test "t3100.09 a SIGALRM handler creating and rewriting files while the main thread does: each keeps its own writes writable" {
	mkfile unread u
	snapshot unread
	run --separate-stderr timeout 300 "$RG" run --log "$LOG" -- "$TH" signals-create 5000 "$W"
	assert_success
	[[ $output =~ ^handler=([0-9]+)\ main=5000$ ]] || fail "unexpected output: $output"
	[ "${BASH_REMATCH[1]}" -gt 0 ] || fail "the handler never ran"
	assert_unchanged unread
}

@test "t3100.10 an fopen for writing and its fclose block signals once, for the open's judgement" {
	need_strace
	mkfile old old
	# Each run's first hooked call enters once; a read's fopen no more.
	strace -f -e trace=rt_sigprocmask -o "$W/r.tr" "$RG" run --log "$LOG" -- "$T/rgprobe" fopen old r
	strace -f -e trace=rt_sigprocmask -o "$W/w.tr" "$RG" run --log "$LOG" -- "$T/rgprobe" fopen new w
	[ -f new ]
	# The write's judgement is in that one entry; its fclose restamps
	# outside, as close() does.
	assert_equal "$(grep -c 'rt_sigprocmask(' "$W/w.tr")" "$(grep -c 'rt_sigprocmask(' "$W/r.tr")"
}

@test "t3100.11 a SIGALRM handler appending to the file the main thread appends to: the session's own file stays writable" {
	mkfile shared s
	# The handler's restamp lands in the middle of the main thread's, on
	# the same entry: the older of the two must not be what stays.
	run --separate-stderr timeout 300 "$RG" run --log "$LOG" -- "$TH" signals-append 30000 "$W"
	assert_success
	[[ $output =~ ^handler=([0-9]+)\ main=30000$ ]] || fail "unexpected output: $output"
	[ "${BASH_REMATCH[1]}" -gt 0 ] || fail "the handler never ran"
	assert_equal "$(stat -c %s shared)" "$((2 + 30000 + BASH_REMATCH[1]))"
}

@test "t3100.12 a file the session wrote, written again and closed, costs no signal-mask call" {
	need_strace
	for i in $(seq 0 10); do mkfile "old.$i" old; done
	local prog='
for i in range(n):
    open("old.%d" % i).read()
    for text in ("new", "again", "and again"):
        with open("old.%d" % i, "w") as f:
            f.write(text)'
	local one ten
	one=$(masks_for 1 "$prog") ten=$(masks_for 11 "$prog")
	assert_equal "$(cat old.10)" "and again"
	# Only each file's first rewrite, whose old bytes the journal keeps, is
	# judged inside; the session's own bytes are allowed at once, outside.
	assert_equal "$((ten - one))" 20
}
