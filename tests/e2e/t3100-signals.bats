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

# timeout sends SIGINT after 1 s and SIGKILL 20 s later: status 124 says
# SIGINT ended the waiting open, 137 that it had to be killed.
@test "t3100.02 SIGINT ends a read-open of a FIFO that waits for a writer" {
	mkfifo p
	run timeout -k 20 -s INT 1 "$RG" run --log "$LOG" -- cat p
	[ "$status" -eq 124 ] || fail "status $status (137: SIGINT did not end the open)"
}

@test "t3100.03 SIGINT ends a write-open of a FIFO that waits for a reader" {
	mkfifo p
	run timeout -k 20 -s INT 1 "$RG" run --log "$LOG" -- sh -c 'echo x >p'
	[ "$status" -eq 124 ] || fail "status $status (137: SIGINT did not end the open)"
}

@test "t3100.04 SIGINT ends an fopen of a FIFO that waits for a writer" {
	mkfifo p
	run timeout -k 20 -s INT 1 "$RG" run --log "$LOG" -- sed -n p p
	[ "$status" -eq 124 ] || fail "status $status (137: SIGINT did not end the open)"
}

@test "t3100.05 a signal handler's open interrupts nothing: EINTR from a waiting open still reaches the program" {
	mkfifo p
	run timeout 20 "$RG" run --log "$LOG" -- python3 -c '
import os, signal, errno
def on_alarm(sig, frame):
    raise TimeoutError
signal.signal(signal.SIGALRM, on_alarm)
signal.alarm(1)
try:
    os.open("p", os.O_RDONLY)
    print("opened")
except TimeoutError:
    print("interrupted")'
	assert_success
	assert_output interrupted
}
