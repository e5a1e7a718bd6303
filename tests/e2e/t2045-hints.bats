#!/usr/bin/env bats
# A long-lived process finds the files it used before by a per-process
# hint, not a probe of the shared index: forget and reset from outside it
# must still count, on its very next write.

load helper
load cli_helper

setup() {
	common_setup
	cli_setup
}

# hinted_write VERB: one python process reads and writes a, lets VERB run
# against a from another process, then writes a again; prints what the
# second write got.
hinted_write() {
	in_session "$PY3" -c '
import subprocess, sys
open("a").read()
with open("a", "w") as f:
    f.write("mine\n")
with open("a", "w") as f:
    f.write("again\n")
subprocess.run(sys.argv[1:], check=True)
try:
    with open("a", "w") as f:
        f.write("after\n")
    print("allowed")
except PermissionError:
    print("refused")
' "$@"
}

@test "t2045.01 a file forgotten from outside is refused on the process's next write" {
	new_session
	mkfile a old
	run --separate-stderr hinted_write "$RG" forget a
	assert_success
	assert_output refused
	assert_equal "$(cat a)" again
}

@test "t2045.02 a reset from outside makes the process's next write refused" {
	new_session
	mkfile a old
	run --separate-stderr hinted_write "$RG" reset
	assert_success
	assert_output refused
	assert_equal "$(cat a)" again
}

@test "t2045.03 a file forgotten from outside and read again by the process may be written" {
	new_session
	mkfile a old
	run --separate-stderr in_session "$PY3" -c '
import subprocess, sys
open("a").read()
subprocess.run(sys.argv[1:], check=True)
open("a").read()
with open("a", "w") as f:
    f.write("new\n")
print("allowed")
' "$RG" forget a
	assert_success
	assert_output allowed
	assert_equal "$(cat a)" new
}
