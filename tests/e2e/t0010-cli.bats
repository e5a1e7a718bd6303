#!/usr/bin/env bats
# readguard run: options, exit status, session table lifetime, environment.

load helper

@test "t0010.01 --help prints usage on stdout and exits 0" {
	run --separate-stderr "$RG" --help
	assert_success
	assert_output --regexp '[Uu]sage'
	assert_output --partial 'readguard run'
	[ -z "$stderr" ] || fail "unexpected stderr: $stderr"
}

@test "t0010.02 run --help lists the options of run on stdout and exits 0" {
	run --separate-stderr "$RG" run --help
	assert_success
	assert_output --regexp '[Uu]sage'
	assert_output --partial '--root'
	assert_output --partial '--mode'
	assert_output --partial '--log'
	[ -z "$stderr" ] || fail "unexpected stderr: $stderr"
}

@test "t0010.03 --version prints 'readguard X.Y.Z' and exits 0" {
	run --separate-stderr "$RG" --version
	assert_success
	assert_output --regexp '^readguard [0-9]+\.[0-9]+\.[0-9]+$'
}

@test "t0010.04 exit status 0 of the command is passed through" {
	run --separate-stderr rg true
	assert_success
	assert_output ''
}

@test "t0010.05 exit status 3 of the command is passed through" {
	run --separate-stderr rg sh -c 'exit 3'
	assert_equal "$status" 3
}

@test "t0010.06 exit status 42 of the command is passed through" {
	run --separate-stderr rg sh -c 'exit 42'
	assert_equal "$status" 42
}

@test "t0010.07 the command's stdout and arguments are passed through untouched" {
	run --separate-stderr rg printf '%s|' 'a b' '' "c'd" '--root'
	assert_success
	assert_output "a b||c'd|--root|"
}

@test "t0010.08 command not found exits 127" {
	run -127 --separate-stderr rg no-such-command-readguard-test
	assert_equal "$status" 127
	run -127 --separate-stderr rg ./no-such-file
	assert_equal "$status" 127
}

@test "t0010.26 a directory as the command says it is one and exits 126" {
	mkdir d
	run --separate-stderr rg ./d
	assert_equal "$status" 126
	assert_equal "$stderr" "readguard: './d': is a directory"
}

@test "t0010.09 command found but not executable exits 126" {
	printf '#!/bin/sh\necho hi\n' >noexec
	chmod 644 noexec
	run --separate-stderr rg ./noexec
	assert_equal "$status" 126
	refute_output 'hi'
}

@test "t0010.10 command killed by SIGTERM exits 143 (128+15)" {
	run --separate-stderr rg sh -c 'kill -TERM $$'
	assert_equal "$status" 143
}

@test "t0010.11 command killed by SIGKILL exits 137 (128+9)" {
	run --separate-stderr rg sh -c 'kill -KILL $$'
	assert_equal "$status" 137
}

@test "t0010.12 unknown option exits 125 and does not run the command" {
	run --separate-stderr "$RG" run --no-such-option -- sh -c ': >ran'
	assert_equal "$status" 125
	assert_not_exist ran
	[ -n "$stderr" ] || fail "expected an error message on stderr"
}

@test "t0010.13 --root naming a missing directory exits 125 and does not run the command" {
	run --separate-stderr "$RG" run --root "$W/does-not-exist" -- sh -c ': >ran'
	assert_equal "$status" 125
	assert_not_exist ran
}

@test "t0010.14 --root naming a regular file exits 125" {
	: >plainfile
	run --separate-stderr "$RG" run --root "$W/plainfile" -- sh -c ': >ran'
	assert_equal "$status" 125
	assert_not_exist ran
}

@test "t0010.15 --mode with a bad value exits 125" {
	run --separate-stderr "$RG" run --mode bogus -- sh -c ': >ran'
	assert_equal "$status" 125
	assert_not_exist ran
}

@test "t0010.16 the command may follow the options without --" {
	run --separate-stderr "$RG" run --log "$LOG" sh -c 'echo ran'
	assert_success
	assert_output 'ran'
}

@test "t0010.17 READGUARD_SESSION and LD_PRELOAD are exported to the command" {
	run --separate-stderr rg sh -c 'echo "$READGUARD_SESSION"; [ -e "$READGUARD_SESSION" ] && echo exists; echo "$LD_PRELOAD"'
	assert_success
	[ -n "${lines[0]}" ] || fail "READGUARD_SESSION is empty"
	assert_line --index 1 'exists'
	assert_line --index 2 --partial 'libreadguard.so'
}

@test "t0010.18 the session table is removed after the command exits" {
	run --separate-stderr rg sh -c 'echo "$READGUARD_SESSION" >sess'
	assert_success
	sess=$(cat sess)
	[ -n "$sess" ] || fail "READGUARD_SESSION was empty"
	assert_not_exist "$sess"
}

@test "t0010.19 the session table is removed after a failing command" {
	run --separate-stderr rg sh -c 'echo "$READGUARD_SESSION" >sess; exit 7'
	assert_equal "$status" 7
	assert_not_exist "$(cat sess)"
}

@test "t0010.20 the session table is removed after the command is killed by a signal" {
	run --separate-stderr rg sh -c 'echo "$READGUARD_SESSION" >sess; kill -KILL $$'
	assert_equal "$status" 137
	sess=$(cat sess)
	[ -n "$sess" ] || fail "READGUARD_SESSION was empty"
	assert_not_exist "$sess"
}

@test "t0010.21 the table outlives the command while a background child still runs, then a prune removes it" {
	# The grandchild outlives sh: once sh is gone (reaped: kill -0 fails),
	# the table must still exist (the grandchild is still part of the
	# tree); once the grandchild is gone too, the session has ended.
	run --separate-stderr rg sh -c '
		echo "$READGUARD_SESSION" >sess
		sh=$$
		( while kill -0 "$sh" 2>/dev/null; do sleep 0.01; done
		  if [ -e "$READGUARD_SESSION" ]; then echo alive; else echo gone; fi >grandchild.tmp
		  mv grandchild.tmp grandchild ) >/dev/null 2>&1 &
		exit 0'
	assert_success
	await_file grandchild
	assert_content grandchild alive
	await_prune "$(cat sess)"
}

# A tool call wrapped in readguard run ends when its command does, as it
# would bare: a server started with &, or a daemon a tool starts (gpg-agent
# for git commit -S, git gc --auto --detach), must not hold it.
@test "t0010.27 run returns when the command exits, not when a daemon it left does" {
	local start=$SECONDS
	run --separate-stderr timeout 20 "$RG" run --log "$LOG" -- sh -c \
		'setsid sleep 30 </dev/null >/dev/null 2>&1 & echo $! >daemon; exit 3'
	kill "$(cat daemon)" 2>/dev/null || true
	assert_equal "$status" 3
	((SECONDS - start < 15)) || fail "run waited for the daemon"
}

@test "t0010.28 a process the command left running still has its blind writes refused" {
	mkfile f original
	snapshot f
	run --separate-stderr timeout 20 "$RG" run --log "$LOG" -- sh -c \
		'( for i in $(seq 1000); do [ -e go ] && break; sleep 0.02; done; echo new 2>err >f; echo $? >rc.tmp; mv rc.tmp rc ) </dev/null >/dev/null 2>&1 &'
	assert_success
	touch go
	await_file rc
	[ "$(cat rc)" != 0 ] || fail "the write went through"
	assert_unchanged f
	grep -qF "readguard: refused to write 'f': $MSG_UNREAD" err || fail "no refusal: $(cat err)"
}

@test "t0010.22 an existing LD_PRELOAD is kept, with the shim put first" {
	run --separate-stderr env LD_PRELOAD=libm.so.6 "$RG" run --log "$LOG" -- sh -c 'echo "$LD_PRELOAD"'
	assert_success
	first=${output%%[: ]*}
	[[ $first == */libreadguard.so ]] || fail "shim is not first in LD_PRELOAD: '$output'"
	[[ $output == *libm.so.6* ]] || fail "previous LD_PRELOAD entry lost: '$output'"
}

@test "t0010.23 enforcement still works when LD_PRELOAD already had an entry" {
	mkfile f original
	snapshot f
	run --separate-stderr env LD_PRELOAD=libm.so.6 "$RG" run --log "$LOG" -- bash -c 'echo new >f'
	assert_failure
	assert_refused f unread
	assert_unchanged f
}

@test "t0010.24 an inherited READGUARD_SESSION does not leak into a new readguard run" {
	# readguard run always starts a fresh session of its own.
	run --separate-stderr rg sh -c 'echo "$READGUARD_SESSION" >outer; "$RG" run -- sh -c '\''echo "$READGUARD_SESSION" >inner'\'
	assert_success
	[ -n "$(cat inner)" ] || fail "inner READGUARD_SESSION empty"
	[ "$(cat outer)" != "$(cat inner)" ] || fail "nested readguard run reused the outer session"
}

@test "t0010.25 --root is repeatable and each root is guarded" {
	mkdir a b c
	mkfile a/f A
	mkfile b/f B
	mkfile c/f C
	snapshot a/f b/f
	run --separate-stderr "$RG" run --log "$LOG" --root "$W/a" --root "$W/b" -- bash -c 'echo x >a/f'
	assert_failure
	assert_refused a/f unread
	run --separate-stderr "$RG" run --log "$LOG" --root "$W/a" --root "$W/b" -- bash -c 'echo x >b/f'
	assert_failure
	assert_refused b/f unread
	assert_unchanged a/f b/f
	run --separate-stderr "$RG" run --log "$LOG" --root "$W/a" --root "$W/b" -- bash -c 'echo x >c/f'
	assert_success
	refute_refused
	assert_content c/f x
}

@test "t0010.29 a script whose #! interpreter is missing is said to be so, not to be missing itself" {
	printf '#!/no/such/interpreter\necho hi\n' >script
	chmod +x script
	run -127 --separate-stderr rg ./script
	assert_equal "$stderr" "readguard: './script': cannot execute: its interpreter (the #! line's, or the ELF loader) was not found; 'readguard doctor ./script' names it"
}

@test "t0010.30 a command found on PATH whose #! interpreter is missing is said to be so" {
	mkdir bin
	printf '#!/no/such/interpreter\necho hi\n' >bin/rg-bad-interp
	chmod +x bin/rg-bad-interp
	PATH="$W/bin:$PATH" run -127 --separate-stderr rg rg-bad-interp
	assert_equal "$stderr" "readguard: 'rg-bad-interp': cannot execute: its interpreter (the #! line's, or the ELF loader) was not found; 'readguard doctor rg-bad-interp' names it"
}

@test "t0010.31 --version with a stray operand is bad usage, 2, not ignored" {
	run --separate-stderr "$RG" --version extra
	assert_equal "$status" 2
	[[ -z $output ]] || fail "printed: $output"
	[[ $stderr == *"unexpected argument 'extra'"*"Try 'readguard --help'."* ]] || fail "$stderr"
}
