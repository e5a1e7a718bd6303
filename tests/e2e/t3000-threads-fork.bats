#!/usr/bin/env bats
# Threads and fork: no hang, no wrong decision, whatever the threads of a
# process do while others fork, vfork or _Fork. rgthreads exits 1 on any
# wrong decision or failed call; a hang is caught by timeout (status 124).

load helper

TH="$T/rgthreads"

setup_file() {
	export BATS_TEST_TIMEOUT=600
}

@test "t3000.01 threads hammering opens while others fork: no hang, every decision right" {
	mkfile unread u
	run --separate-stderr timeout 300 "$RG" run --log "$LOG" -- "$TH" fork 4 2 300 "$W"
	assert_success
	assert_output "forks=600"
}

@test "t3000.02 vfork children exec while threads open: no hang, every decision right" {
	mkfile unread u
	run --separate-stderr timeout 300 "$RG" run --log "$LOG" -- "$TH" vfork 4 300 "$W"
	assert_success
	assert_output "vforks=300"
}

@test "t3000.03 a fork while another thread starts the shim never leaves the child hanging" {
	mkfile unread u
	# The loop runs in a shell of its own: bats traces every command of the
	# test's shell, some 3000 of them here.
	run bash -c 'hangs=0 fails=0
		for i in $(seq 100); do
			timeout 30 "$RG" run --log "$LOG" -- "$1" init-race "$W" >/dev/null 2>&1
			case $? in
			0) ;;
			124) hangs=$((hangs + 1)) ;;
			*) fails=$((fails + 1)) ;;
			esac
		done
		echo "of 100 starts: $hangs hung, $fails failed"' bash "$TH"
	assert_success
	assert_output "of 100 starts: 0 hung, 0 failed"
}

@test "t3000.04 a child made by _Fork is guarded like any other" {
	mkfile unread u
	snapshot unread
	run --separate-stderr timeout 60 "$RG" run --log "$LOG" -- "$TH" _Fork "$W"
	assert_success
	assert_unchanged unread
}

@test "t3000.05 a program that loads the shim itself and unloads it forks on" {
	run --separate-stderr timeout 60 "$T/rgdlclose" "$SHIM"
	assert_success
}

@test "t3000.06 a child made by _Fork while another thread holds the loader's lock execs without an envp" {
	run --separate-stderr timeout 30 "$RG" run --log "$LOG" -- "$T/rgforkload" "$T/librgloadwait.so"
	assert_success
}

@test "t3000.07 a child made by _Fork while another thread holds the loader's lock execs a static program" {
	# A program the shim cannot follow (statically linked) gets a notice
	# that names the exec'ing program: that name must not need the lock.
	run --separate-stderr timeout 30 "$RG" run --log "$LOG" -- "$T/rgforkload" "$T/librgloadwait.so" "$T/rgstatic"
	assert_success
}

@test "t3000.08 a child made by _Fork while another thread holds the loader's lock execvp's a name on PATH" {
	run --separate-stderr timeout 30 "$RG" run --log "$LOG" -- "$T/rgforkload" "$T/librgloadwait.so" true execvp
	assert_success
}

@test "t3000.09 a child made by _Fork while another thread holds the loader's lock execvpe's a name on PATH" {
	run --separate-stderr timeout 30 "$RG" run --log "$LOG" -- "$T/rgforkload" "$T/librgloadwait.so" true execvpe
	assert_success
}

@test "t3000.10 a child made by _Fork while another thread holds the loader's lock execlp's a name on PATH" {
	run --separate-stderr timeout 30 "$RG" run --log "$LOG" -- "$T/rgforkload" "$T/librgloadwait.so" true execlp
	assert_success
}

@test "t3000.11 a child made by _Fork while another thread holds the loader's lock calls posix_spawn" {
	run --separate-stderr timeout 30 "$RG" run --log "$LOG" -- "$T/rgforkload" "$T/librgloadwait.so" /bin/true posix_spawn
	assert_success
}

@test "t3000.12 a child made by _Fork while another thread holds the loader's lock calls posix_spawnp" {
	run --separate-stderr timeout 30 "$RG" run --log "$LOG" -- "$T/rgforkload" "$T/librgloadwait.so" true posix_spawnp
	assert_success
}

@test "t3000.13 a child made by _Fork while another thread holds the loader's lock calls system" {
	run --separate-stderr timeout 30 "$RG" run --log "$LOG" -- "$T/rgforkload" "$T/librgloadwait.so" true system
	assert_success
}

@test "t3000.14 a child made by _Fork while another thread holds the loader's lock calls popen" {
	run --separate-stderr timeout 30 "$RG" run --log "$LOG" -- "$T/rgforkload" "$T/librgloadwait.so" true popen
	assert_success
}

@test "t3000.15 a child made by _Fork while another thread holds the loader's lock calls posix_spawn after the program unset a variable" {
	# glibc's unsetenv shifts the start-up environment down in place,
	# leaving NULLs before the auxiliary vector that finds libc's
	# posix_spawn without the lock.
	RGFORKLOAD_UNSET=1 run --separate-stderr timeout 30 "$RG" run --log "$LOG" -- "$T/rgforkload" "$T/librgloadwait.so" /bin/true posix_spawn
	assert_success
}

@test "t3000.16 a vfork child closing its copy of a written file's descriptor leaves the file the session's own" {
	# The child shares its parent's memory, the shim's map of written
	# descriptors included, while the parent keeps the descriptor open
	# and writes on.
	run --separate-stderr "$RG" run --log "$LOG" -- sh -c "'$TH' vfork-close '$W' && echo three >>vf"
	assert_success
	assert_equal "$(cat vf)" "$(printf 'one\ntwo\nthree')"
}
