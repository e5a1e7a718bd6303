#!/usr/bin/env bats
# The descriptor each process keeps open on the session's index
# (guard/journal/indexfd.h) is the program's to close or reuse: between two
# kept files a program closes every descriptor number from 3 up, or puts a
# file of its own on each, and the second record must still reach the
# index, not that file, so that undo brings both files back.

load helper
load cli_helper

setup() {
	common_setup
	cli_setup
	need python3
	mkfile a.txt 'first'
	mkfile b.txt 'second'
}

# take_fds HOW: in one process, remove a.txt, then take every descriptor
# number from 3 up to the limit on descriptors (at most 4096) from the
# library (HOW: "close", closing them all; "dup2", dup2ing an open of
# mine.txt, a file it makes, over each), then remove b.txt.
take_fds() {
	rg python3 - "$1" <<'PY'
import os, resource, sys
top = min(resource.getrlimit(resource.RLIMIT_NOFILE)[0], 4096)
os.unlink("a.txt")
if sys.argv[1] == "close":
    os.closerange(3, top)
else:
    fd = os.open("mine.txt", os.O_WRONLY | os.O_CREAT, 0o644)
    for n in range(3, top):
        if n != fd:
            os.dup2(fd, n)
os.unlink("b.txt")
PY
}

assert_both_undone() {
	[ ! -e mine.txt ] || assert_equal "$(wc -c <mine.txt)" 0
	"$RG" undo a.txt b.txt
	assert_equal "$(cat a.txt)" first
	assert_equal "$(cat b.txt)" second
}

@test "t1422.01 a program that closes the index's descriptor between two removals: both are undone" {
	take_fds close
	assert_both_undone
}

@test "t1422.02 a program that dup2s a file over the index's descriptor: both removals are undone, the file gets no record" {
	take_fds dup2
	assert_both_undone
}

@test "t1422.03 the index's descriptor never takes a standard one: a program with stdout and stderr closed gets them back at its next opens" {
	rg python3 -c '
import os
os.close(1)
os.close(2)
os.unlink("a.txt")
assert os.open("out.txt", os.O_WRONLY | os.O_CREAT, 0o644) == 1
assert os.open("err.txt", os.O_WRONLY | os.O_CREAT, 0o644) == 2
os.unlink("b.txt")'
	"$RG" undo a.txt b.txt
	assert_equal "$(cat a.txt)" first
	assert_equal "$(cat b.txt)" second
}

@test "t1422.04 an index removed while a process that keeps it open runs: its next record starts a new one, and undo finds it" {
	J="$XDG_STATE_HOME/readguard/journal"
	rg python3 - "$J/sessions" <<'PY'
import os, sys
os.unlink("a.txt")
for name in os.listdir(sys.argv[1]):
    os.unlink(os.path.join(sys.argv[1], name))
os.unlink("b.txt")
PY
	"$RG" undo b.txt
	assert_equal "$(cat b.txt)" second
}
