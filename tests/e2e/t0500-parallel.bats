#!/usr/bin/env bats
# Many processes and threads of one session reading and writing the same
# files at once must never refuse each other.

load helper

setup_files() {
	local f
	for f in f1 f2 f3; do
		mkfile "$f" "initial $f"
	done
}

@test "t0500.01 8 processes of one session read and write the same files in parallel without refusals" {
	setup_files
	run --separate-stderr rg "$T/hammer" procs 8 40 f1 f2 f3
	[ "$status" -ne 1 ] || fail "a worker got EACCES: $stderr"
	refute_refused
	assert_success
	[[ $(cat f1) == "worker "* ]] || fail "f1 was never written: $(cat f1)"
}

@test "t0500.02 8 threads of one process read and write the same files in parallel without refusals" {
	setup_files
	run --separate-stderr rg "$T/hammer" threads 8 40 f1 f2 f3
	[ "$status" -ne 1 ] || fail "a worker got EACCES: $stderr"
	refute_refused
	assert_success
	[[ $(cat f2) == "worker "* ]] || fail "f2 was never written: $(cat f2)"
}

@test "t0500.03 8 separately started processes (fork+exec) of one session hammer the same files" {
	setup_files
	run --separate-stderr rg bash -c '
		for i in 1 2 3 4 5 6 7 8; do "$T/hammer" procs 1 25 f1 f2 f3 & pids="$pids $!"; done
		rc=0; for p in $pids; do wait $p || rc=1; done; exit $rc'
	refute_refused
	assert_success
}

@test "t0500.04 parallel sed -i loops on the same file never refuse each other" {
	mkfile f 'counter'
	run --separate-stderr rg bash -c '
		cat f >/dev/null
		for i in 1 2 3 4 5 6 7 8; do
			( for j in 1 2 3 4 5 6; do sed -i "s/\$/ $i/" f || exit 1; done ) &
			pids="$pids $!"
		done
		rc=0; for p in $pids; do wait $p || rc=1; done; exit $rc'
	refute_refused
	assert_success
	[[ $(cat f) == counter* ]] || fail "unexpected content: $(cat f)"
}

@test "t0500.05 parallel shell read-then-append loops never refuse each other" {
	mkfile f 'start'
	run --separate-stderr rg bash -c '
		for i in 1 2 3 4 5 6 7 8; do
			( for j in 1 2 3 4 5 6 7 8 9 10; do cat f >/dev/null; echo "$i.$j" >>f || exit 1; done ) &
			pids="$pids $!"
		done
		rc=0; for p in $pids; do wait $p || rc=1; done; exit $rc'
	refute_refused
	assert_success
	assert_equal "$(wc -l <f)" 81
}

@test "t0500.06 parallel writers still refuse an unread file in the same session" {
	setup_files
	mkfile unread 'never read'
	snapshot unread
	# (hammer's own verdict is t0500.01's business; here it is only load.)
	run --separate-stderr rg bash -c '
		"$T/hammer" procs 4 20 f1 f2 2>"$OUT/hammer.err" & h=$!
		for i in 1 2 3 4; do echo x >unread 2>/dev/null && echo WROTE; done
		wait $h || true'
	assert_success
	refute_output --partial WROTE
	[ "$(count_rg_lines)" -eq 4 ] || fail "expected 4 refusals: $stderr"
	assert_unchanged unread
}

@test "t0500.07 two concurrent sessions, one writer each on its own files, do not interfere" {
	mkdir a b
	mkfile a/f A
	mkfile b/f B
	"$RG" run --log "$LOG" --root "$W/a" -- "$T/hammer" procs 1 150 a/f >"$BATS_TEST_TMPDIR/a.out" 2>&1 3>&- &
	pa=$!
	run --separate-stderr "$RG" run --log "$LOG" --root "$W/b" -- "$T/hammer" procs 1 150 b/f
	refute_refused
	assert_success
	rc=0
	wait $pa || rc=$?
	[ $rc -eq 0 ] || fail "session a failed: $(cat "$BATS_TEST_TMPDIR/a.out")"
}

@test "t0500.08 an external writer during a parallel session makes the next blind write refused" {
	mkfile f original
	bg_session '"$T/hammer" procs 4 10 f 2>"$OUT/hammer.err" || true' '"$T/rgprobe" open f O_WRONLY'
	external_write f 'changed outside while the session was paused'
	snapshot f
	bg_finish
	assert_probe_err EACCES
	assert_refused f changed
	assert_unchanged f
}

@test "t0500.09 after parallel writers, an external same-size change that puts the mtime back is refused" {
	mkfile f original
	bg_session '"$T/hammer" procs 4 10 f 2>"$OUT/hammer.err" || true' '"$T/rgprobe" open f O_WRONLY'
	# The session's last word on f is its own write, a stamp with no hash:
	# only ctime can tell this change from the session's own acts.
	local m n
	m=$(stat -c %.9Y f)
	n=$(stat -c %s f)
	env -u LD_PRELOAD -u READGUARD_SESSION sh -c \
		'head -c "$2" /dev/zero | tr "\0" X 1<>"$1"; touch -d "@$3" -- "$1"' sh f "$n" "$m"
	snapshot f
	bg_finish
	assert_probe_err EACCES
	assert_refused f changed
	assert_unchanged f
}

# The file is the session's own from its first save. Each save replaces the
# last before the others can look at it twice: a would-be refusal must keep
# looking while the file keeps being replaced.
@test "t0500.10 eight threads saving one new file by temp file and rename never refuse each other" {
	run --separate-stderr rgsh '"$T/rgsaves" 8 3000 dst'
	refute_refused
	assert_success
	[[ $output =~ ^saves=[1-9][0-9]*$ ]] || fail "output: $output"
}
