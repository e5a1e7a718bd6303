#!/usr/bin/env bats
# Settings that are garbage, empty or huge. The CLI stops with a clear
# message and exit 125 (run's "readguard itself failed"); a preloaded process
# that starts its own session from the environment fails closed: the write
# to an existing file under the root is refused, with the bad variable named
# in its one stderr line, and everything else works.

load helper

HUGE=$(printf 'x%.0s' $(seq 20000))

# preload_fails_closed REASON VAR=VALUE...: a preloaded process without a
# session, given these variables, reads f, creates new.txt and overwrites
# the unread $OUT/outside.txt, while the unread f is refused once with
# REASON in the message and keeps its bytes.
preload_fails_closed() {
	local reason=$1
	shift
	mkfile f original
	mkfile "$OUT/outside.txt" outside
	snapshot f
	run --separate-stderr timeout 20 env READGUARD_DIR="$BATS_TEST_TMPDIR" "$@" \
		LD_PRELOAD="$SHIM" bash -c '"$T/rgprobe" read f; "$T/rgprobe" open f O_WRONLY
			"$T/rgprobe" write new.txt created; "$T/rgprobe" write "$OUT/outside.txt" replaced'
	assert_equal "${lines[*]}" "ok err EACCES ok ok"
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "expected one stderr line: $stderr"
	[[ $stderr == "readguard: refused to write 'f': the session table is unusable ($reason"* ]] ||
		fail "stderr lacks '$reason': $stderr"
	assert_unchanged f
	assert_content new.txt created
	assert_content "$OUT/outside.txt" replaced
}

# run_rejects MESSAGE OPTION...: readguard run with OPTION... exits 125 with
# MESSAGE on stderr, and runs nothing.
run_rejects() {
	local msg=$1
	shift
	run --separate-stderr "$RG" run "$@" -- touch ran
	assert_equal "$status" 125
	[[ $stderr == *"$msg"* ]] || fail "for '$*': stderr lacks '$msg': $stderr"
	[ ! -e ran ] || fail "the command ran despite '$*'"
}

@test "t3350.01 READGUARD_MODE garbage: fails closed naming it" {
	preload_fails_closed "READGUARD_MODE is neither 'enforce' nor 'warn'" READGUARD_MODE=bogus
}

@test "t3350.02 READGUARD_MODE huge: fails closed naming it" {
	preload_fails_closed "READGUARD_MODE is neither" READGUARD_MODE="$HUGE"
}

@test "t3350.03 READGUARD_MODE empty means the default, enforce" {
	mkfile f original
	run --separate-stderr env READGUARD_DIR="$BATS_TEST_TMPDIR" READGUARD_MODE= \
		LD_PRELOAD="$SHIM" "$T/rgprobe" open f O_WRONLY
	assert_probe_err EACCES
	assert_refused f unread
}

@test "t3350.04 READGUARD_CAPACITY garbage, too small or huge: fails closed naming it" {
	for v in abc 15 99999999999999999999 "$HUGE" -1 1G; do
		preload_fails_closed "READGUARD_CAPACITY is not a number of files from 16 to 67108864 (k and M count thousands and millions)" \
			READGUARD_CAPACITY="$v"
		rm -f new.txt
	done
}

@test "t3350.05 READGUARD_ROOTS of only separators: fails closed, and then every file is guarded" {
	mkfile f original
	mkfile "$OUT/outside.txt" outside
	snapshot f "$OUT/outside.txt"
	run --separate-stderr env READGUARD_DIR="$BATS_TEST_TMPDIR" READGUARD_ROOTS=::: \
		LD_PRELOAD="$SHIM" bash -c '"$T/rgprobe" read f; "$T/rgprobe" open f O_WRONLY
			"$T/rgprobe" write new.txt created; "$T/rgprobe" open "$OUT/outside.txt" O_WRONLY'
	assert_equal "${lines[*]}" "ok err EACCES ok err EACCES"
	[[ $stderr == *"(READGUARD_ROOTS names no directory)"* ]] || fail "$stderr"
	assert_unchanged f "$OUT/outside.txt"
	assert_content new.txt created
}

@test "t3350.06 READGUARD_ROOTS too long to keep whole: fails closed rather than drop roots" {
	roots=$(printf "$W/%s:" $(seq 1000 1400))
	(cd "$W" && mkdir $(seq 1000 1400))
	mkfile "$OUT/outside.txt" outside
	snapshot "$OUT/outside.txt"
	run --separate-stderr env READGUARD_DIR="$BATS_TEST_TMPDIR" READGUARD_ROOTS="$roots" \
		LD_PRELOAD="$SHIM" "$T/rgprobe" open "$OUT/outside.txt" O_WRONLY
	assert_probe_err EACCES
	[[ $stderr == *"(READGUARD_ROOTS names more directories than fit"* ]] || fail "$stderr"
	assert_unchanged "$OUT/outside.txt"
}

# A root that is no existing directory is most often a typo: taken as
# written, it would guard nothing the user meant.
@test "t3350.07 READGUARD_ROOTS naming a directory that does not exist: fails closed, naming it, and every file is guarded" {
	mkfile f original
	mkfile "$OUT/outside.txt" outside
	snapshot f "$OUT/outside.txt"
	run --separate-stderr env READGUARD_DIR="$BATS_TEST_TMPDIR" READGUARD_ROOTS="$W/typo" \
		LD_PRELOAD="$SHIM" bash -c '"$T/rgprobe" read f; "$T/rgprobe" open f O_WRONLY
			"$T/rgprobe" write new.txt created; "$T/rgprobe" open "$OUT/outside.txt" O_WRONLY'
	assert_equal "${lines[*]}" "ok err EACCES ok err EACCES"
	[[ $stderr == *"(READGUARD_ROOTS names '$W/typo', which is no existing directory)"* ]] ||
		fail "$stderr"
	assert_unchanged f "$OUT/outside.txt"
	assert_content new.txt created
}

@test "t3350.08 a relative READGUARD_LOG is the same file for every process of the session" {
	mkdir sub
	mkfile sub/f original
	run --separate-stderr env READGUARD_DIR="$BATS_TEST_TMPDIR" READGUARD_LOG=rel.log \
		LD_PRELOAD="$SHIM" bash -c 'cd sub && "$T/rgprobe" open f O_WRONLY'
	assert_probe_err EACCES
	[ -s "$W/rel.log" ] || fail "no log at $W/rel.log; sub/: $(ls sub)"
	[ ! -e sub/rel.log ] || fail "the log followed the working directory"
}

@test "t3350.09 READGUARD_LOG longer than a path can be: fails closed naming it" {
	preload_fails_closed "READGUARD_LOG is not a usable path" READGUARD_LOG="/$HUGE"
}

@test "t3350.10 READGUARD_DIR that does not exist: fails closed with the reason" {
	mkfile f original
	run --separate-stderr env READGUARD_DIR="$BATS_TEST_TMPDIR/none" LD_PRELOAD="$SHIM" \
		"$T/rgprobe" open f O_WRONLY
	assert_probe_err EACCES
	[[ $stderr == *"(no session table could be created: cannot create a session table in READGUARD_DIR '$BATS_TEST_TMPDIR/none': No such file or directory)"* ]] ||
		fail "$stderr"
}

@test "t3350.11 READGUARD_SESSION empty means none: the process starts a session" {
	mkfile f original
	run --separate-stderr env READGUARD_DIR="$BATS_TEST_TMPDIR" READGUARD_SESSION= \
		LD_PRELOAD="$SHIM" bash -c '"$T/rgprobe" open f O_WRONLY; cat f >/dev/null
			"$T/rgprobe" open f O_WRONLY'
	assert_equal "${lines[0]}" "err EACCES"
	[[ ${lines[1]} == "ok "* ]] || fail "the write after the read failed: $output"
	assert_refused f unread
	assert_equal "$(ls "$BATS_TEST_TMPDIR" | grep -c '^readguard-')" 0
}

@test "t3350.12 run: a bad --mode exits 125" {
	for v in '' bogus "$HUGE"; do
		run_rejects "--mode '$v': expected 'enforce' or 'warn'" --mode "$v"
	done
}

@test "t3350.13 run: a bad --read-ttl exits 125, including one that would round to 0 (never expire)" {
	for v in '' abc -1 0 nan inf 1e-12 1e999 0x 5s "$HUGE"; do
		run_rejects "--read-ttl '$v': expected a positive number of seconds, at most 10 years" --read-ttl "$v"
	done
}

@test "t3350.14 run: a bad --capacity exits 125" {
	for v in '' abc 15 -5 99999999999 1G "$HUGE"; do
		run_rejects "--capacity '$v': expected a number of files" --capacity "$v"
	done
}

@test "t3350.15 run: a bad --root exits 125" {
	touch file
	run_rejects "--root '': No such file or directory" --root ''
	run_rejects "--root 'missing': No such file or directory" --root missing
	run_rejects "--root 'file': Not a directory" --root file
	run_rejects "File name too long" --root "$HUGE"
	args=()
	for i in $(seq 65); do args+=(--root .); done
	run_rejects "too many --root options (at most 64)" "${args[@]}"
}

@test "t3350.16 run: roots too long for the table exit 125" {
	args=()
	for i in $(seq 40); do
		d=$(printf '%03d%0240d' "$i" 0)
		mkdir "$d"
		args+=(--root "$d")
	done
	run_rejects "the roots or the log path are too long" --capacity 16 "${args[@]}"
}

@test "t3350.17 run: a bad --ignore or --log exits 125" {
	run_rejects "--ignore: the pattern is empty" --ignore ''
	run_rejects "the ignore rules do not fit in 12288 bytes" --ignore "$HUGE"
	run_rejects "--log '': not a usable path" --log ''
	run_rejects "not a usable path" --log "/$HUGE"
}

@test "t3350.18 READGUARD_ROOTS naming a regular file beside a good root: fails closed, naming it" {
	mkdir a
	mkfile g original
	mkfile notadir x
	snapshot g
	run --separate-stderr env READGUARD_DIR="$BATS_TEST_TMPDIR" READGUARD_ROOTS="$W/a:notadir" \
		LD_PRELOAD="$SHIM" "$T/rgprobe" open g O_WRONLY
	assert_probe_err EACCES
	[[ $stderr == *"(READGUARD_ROOTS names 'notadir', which is no existing directory)"* ]] ||
		fail "$stderr"
	assert_unchanged g
}

@test "t3350.19 run: a --capacity with an unknown suffix is refused naming the suffixes it takes" {
	run_rejects "--capacity '10G': expected a number of files from 16 to 67108864 (k and M count thousands and millions)" --capacity 10G
}

@test "t3350.20 run with a READGUARD_DIR that does not exist names the variable and the directory" {
	run --separate-stderr env READGUARD_DIR="$BATS_TEST_TMPDIR/none" "$RG" run -- true
	assert_failure 125
	assert_equal "$stderr" "readguard: cannot create a session table in READGUARD_DIR '$BATS_TEST_TMPDIR/none': No such file or directory"
}

# The table's path is handed to every process of the session: one taken
# from a relative READGUARD_DIR names nothing from another directory.
@test "t3350.21 a relative READGUARD_DIR: a process in a subdirectory stays in the session, and its blind write is refused" {
	mkdir tables sub
	mkfile f original
	snapshot f
	run --separate-stderr env READGUARD_DIR=tables "$RG" run -- bash -c 'cd sub && "$T/rgprobe" open ../f O_WRONLY'
	assert_output 'err EACCES'
	[[ $stderr == *"refused to write '../f': it has not been read in this session"* ]] || fail "$stderr"
	assert_unchanged f
}

@test "t3350.22 run: a bad READGUARD_JOURNAL_MAX_FILE exits 125 as the option does, naming it" {
	for v in abc 100MB 0 -5 "$HUGE"; do
		run --separate-stderr env READGUARD_JOURNAL_MAX_FILE="$v" "$RG" run -- touch ran
		assert_equal "$status" 125
		[[ $stderr == *"READGUARD_JOURNAL_MAX_FILE '"*"': expected a positive size in bytes"* ]] ||
			fail "for '$v': $stderr"
		[ ! -e ran ] || fail "the command ran despite READGUARD_JOURNAL_MAX_FILE=$v"
	done
	run --separate-stderr env READGUARD_JOURNAL_MAX_FILE=abc "$RG" run --journal-max-file 1M -- true
	assert_success
}

@test "t3350.23 READGUARD_JOURNAL_MAX_FILE garbage: a preloaded process fails closed naming it" {
	for v in abc 100MB 0; do
		preload_fails_closed "READGUARD_JOURNAL_MAX_FILE is not a positive size" \
			READGUARD_JOURNAL_MAX_FILE="$v"
		rm -f new.txt
	done
}

@test "t3350.24 run from a removed working directory names the default root, not an option never given" {
	mkdir gone
	cd gone
	rmdir ../gone
	run --separate-stderr "$RG" run -- true
	assert_equal "$status" 125
	[[ $stderr == *"the current directory, the default root, cannot be used"*"give --root DIR"* ]] ||
		fail "$stderr"
	[[ $stderr != *"--root '.'"* ]] || fail "$stderr"
}

# The file's size (80 MiB, sparse) was named, though the directory was
# missing: a new user read it as room to free. Said only when room lacked.
@test "t3350.25 a READGUARD_DIR that does not exist is named without the table's size" {
	run --separate-stderr env READGUARD_DIR="$BATS_TEST_TMPDIR/none" "$RG" run -- true
	assert_failure 125
	[[ $stderr != *"MiB"* ]] || fail "$stderr"
}

# The advice was to start a new session with 'readguard run', which reads
# the same bad variable: the fix is the variable itself.
@test "t3350.26 a bad READGUARD_* variable's refusal advises fixing it, not a new session" {
	mkfile f original
	run --separate-stderr env READGUARD_DIR="$BATS_TEST_TMPDIR" READGUARD_MODE=bogus \
		LD_PRELOAD="$SHIM" "$T/rgprobe" open f O_WRONLY
	assert_probe_err EACCES
	[[ $stderr == *"Fix or unset the variable it names, then retry."* ]] || fail "$stderr"
	[[ $stderr != *"readguard run"* ]] || fail "$stderr"
}
