#!/usr/bin/env bats
# kill -9: processes killed at random while they record reads never leave
# the session unable to record or decide. scripts/dev/kill-stress.sh does the
# killing and the checks; the long run (10,000 kills and more) is by hand.

load helper

@test "t3200.01 300 random kill -9 of eight processes recording reads leave the session recording and deciding" {
	run --separate-stderr timeout 600 "$TOP/scripts/dev/kill-stress.sh" 300
	assert_success
	[[ $output =~ ^kills=300\ worker-failures=0\ tracked=[0-9]+\ full=false\ checks=ok$ ]] ||
		fail "unexpected summary: $output; stderr: $stderr"
}

@test "t3200.02 kill-stress.sh leaves no table, directory or process behind" {
	run --separate-stderr timeout 600 "$TOP/scripts/dev/kill-stress.sh" 20
	assert_success
	run ls -A "$TMPDIR"
	assert_output ''
	run pgrep -f "rgthreads spin w[0-9] $BATS_TEST_TMPDIR/"
	assert_failure
}

@test "t3200.03 writers of a file killed while they held it do not stop the journal keeping a version another program wrote" {
	mkfile f original
	# Two writers killed with the file open leave their counts in the
	# session; another program writes it; the session reads and overwrites.
	local s="$W/agent.rgs"
	"$RG" run --session "$s" --keep --log "$LOG" -- bash -c \
		'cat f >/dev/null; for i in 1 2; do (exec 3>>f && kill -9 $BASHPID); done; true' 2>/dev/null
	external_write f external
	"$RG" run --session "$s" --keep -- bash -c 'cat f >/dev/null && echo mine >f'
	assert_equal "$(cat f)" mine
	assert_file_exist "$XDG_STATE_HOME/readguard/journal/objects/$(sha256sum <<<external | cut -d' ' -f1)"
}

@test "t3200.04 a writer killed with a file open, and the last writer holding it only to read, do not let the session overwrite another program's change unread" {
	mkfile f original
	# Bounded: a test that fails before the go leaves no session behind.
	"$RG" run --log "$LOG" -- bash -c 'cat f >/dev/null
		(exec 4>>f && kill -9 $BASHPID)
		exec 3>>f 5<f 3>&-
		: >started
		for i in $(seq 600); do [ -e go ] && break; sleep 0.05; done
		echo mine >f' 2>"$W/err" &
	local running=$!
	await_file started
	external_write f external
	: >go
	wait "$running" || true
	assert_equal "$(cat f)" external
}

@test "t3200.05 the named writer setting a file's times through a descriptor it only reads from does not make another program's change known" {
	mkfile f original
	# A writer killed with f open leaves its count; the last writer keeps
	# f open only to read, and sets its times through that descriptor
	# after another program changed it. Bounded.
	"$RG" run --log "$LOG" -- bash -c 'cat f >/dev/null
		(exec 4>>f && kill -9 $BASHPID)
		exec python3 -c "
import os, time
w = open(\"f\", \"a\"); r = open(\"f\"); w.close()
open(\"started\", \"w\").close()
for i in range(600):
    if os.path.exists(\"go\"):
        break
    time.sleep(0.05)
os.utime(r.fileno())
try:
    open(\"f\", \"w\").write(\"mine\")
except PermissionError:
    pass
"' 2>"$W/err" &
	local running=$!
	await_file started
	external_write f external
	: >go
	wait "$running" || true
	assert_equal "$(cat f)" external
}
