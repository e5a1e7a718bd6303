#!/usr/bin/env bats
# The PATH search of execvp, execvpe and execlp: the shim does it itself
# (libc's was reached through a dlsym, which can wait forever in a forked
# child), so each test runs the same search bare and in a session and
# wants the same answer: the program that ran, or the errno it failed with
# (rgexecvp prints its name and exits 120).

load helper

SEARCH="$T/rgexecvp"
VIAS="execvp execvpe execlp"

# searched PATH VIA FILE [ARG]...: rgexecvp with PATH set to PATH (- for
# unset), bare and then in a session; fails unless both exit alike and
# print the same. The session's run is left in $status and $output.
searched() {
	local env=(env "PATH=$1")
	[ "$1" = - ] && env=(env -u PATH)
	shift
	run --separate-stderr "${env[@]}" "$SEARCH" "$@"
	local bare_status=$status bare_output=$output
	run --separate-stderr "${env[@]}" "$RG" run --log "$LOG" -- "$SEARCH" "$@"
	[ "$status" -eq "$bare_status" ] || fail "$2 via $1: status $status in a session, $bare_status bare"
	[ "$output" = "$bare_output" ] || fail "$2 via $1: '$output' in a session, '$bare_output' bare"
}

# prog DIR WORD [MODE]: DIR/prog, a script that prints WORD.
prog() {
	mkdir -p "$1"
	printf '#!/bin/sh\necho %s\n' "$2" >"$1/prog"
	chmod "${3:-755}" "$1/prog"
}

@test "t3155.01 a name on no PATH element fails with ENOENT" {
	mkdir a b
	for via in $VIAS; do
		searched "$W/a:$W/b" "$via" prog
		assert_equal "$status" 120
		assert_output ENOENT
	done
}

@test "t3155.02 a name found only without execute permission fails with EACCES" {
	prog "$W/a" a 644
	mkdir b
	for via in $VIAS; do
		searched "$W/a:$W/b" "$via" prog
		assert_equal "$status" 120
		assert_output EACCES
	done
}

@test "t3155.03 the search goes on past a file it may not execute" {
	prog "$W/a" a 644
	prog "$W/b" b
	for via in $VIAS; do
		searched "$W/a:$W/b" "$via" prog
		assert_success
		assert_output b
	done
}

@test "t3155.04 a file with no #! line found on PATH runs in /bin/sh with its arguments" {
	mkdir a
	printf 'echo "script $0 $1 $2"\n' >a/prog
	chmod 755 a/prog
	for via in $VIAS; do
		searched "$W/a" "$via" prog x y
		assert_success
		assert_output "script $W/a/prog x y"
	done
}

@test "t3155.05 a file with no #! line named with a slash runs in /bin/sh" {
	printf 'echo "script $0 $1"\n' >prog
	chmod 755 prog
	for via in $VIAS; do
		searched "$W/nowhere" "$via" ./prog x
		assert_success
		assert_output "script ./prog x"
	done
}

@test "t3155.06 an empty PATH element is the working directory, in its place" {
	prog "$W" cwd
	prog "$W/b" b
	for via in $VIAS; do
		searched "$W/a::$W/b" "$via" prog
		assert_success
		assert_output cwd
		searched "$W/a:$W/b:" "$via" prog
		assert_output b
	done
}

@test "t3155.07 with PATH unset the search is /bin:/usr/bin, without the working directory" {
	prog "$W" cwd
	for via in $VIAS; do
		searched - "$via" true
		assert_success
		searched - "$via" prog
		assert_equal "$status" 120
		assert_output ENOENT
	done
}

@test "t3155.08 a name with a slash is not searched for" {
	prog "$W/b/sub" b
	for via in $VIAS; do
		searched "$W/b" "$via" sub/prog
		assert_equal "$status" 120
		assert_output ENOENT
	done
}

@test "t3155.09 a name longer than NAME_MAX fails with ENAMETOOLONG" {
	local long
	long=$(printf 'x%.0s' {1..256})
	for via in $VIAS; do
		searched "$W" "$via" "$long"
		assert_equal "$status" 120
		assert_output ENAMETOOLONG
	done
}

@test "t3155.10 an empty name fails with ENOENT" {
	for via in $VIAS; do
		searched "$W" "$via" ""
		assert_equal "$status" 120
		assert_output ENOENT
	done
}

@test "t3155.11 an error other than a missing or forbidden file ends the search" {
	mkdir a
	ln -s loop a/loop
	ln -s loop a/prog
	prog "$W/b" b
	for via in $VIAS; do
		searched "$W/a:$W/b" "$via" prog
		assert_equal "$status" 120
		assert_output ELOOP
	done
}

@test "t3155.12 a file with no #! line found on PATH runs in the session" {
	mkfile f original
	snapshot f
	mkdir a
	echo 'echo new >f' >a/prog
	chmod 755 a/prog
	for via in $VIAS; do
		run --separate-stderr env PATH="$W/a" "$RG" run --log "$LOG" -- "$SEARCH" "$via" prog
		assert_failure
		assert_refused f unread
	done
}
