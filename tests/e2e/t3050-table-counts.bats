#!/usr/bin/env bats
# No completed read is lost under concurrency: N processes reading M files
# each leave exactly N x M entries, or M when they all read the same files.

load helper

N=8
M=250

# json_int NAME: the integer member NAME of $output (readguard status --json).
json_int() {
	"$PY3" -c 'import json, sys; print(json.loads(sys.stdin.read())[sys.argv[1]])' "$1" <<<"$output"
}

# make_files [DIRS]: d0 .. d(DIRS-1) (N by default), M files in each. In a
# shell of its own: bats traces every command of the test's shell.
make_files() {
	bash -c 'for p in $(seq 0 $(($1 - 1))); do
		mkdir -p "d$p" || exit 1
		for i in $(seq 1 "$2"); do echo "$p $i" >"d$p/f$i" || exit 1; done
	done' bash "${1:-$N}" "$M" || fail "cannot make the files"
}

@test "t3050.01 $N processes reading $M distinct files each in parallel leave exactly $((N * M)) entries" {
	make_files
	run --separate-stderr rg bash -c '
		for p in $(seq 0 $(($1 - 1))); do
			( for f in d$p/*; do : <"$f"; done ) &
		done
		wait
		"$RG" status --json' bash "$N"
	assert_success
	[ "$(json_int tracked)" -eq $((N * M)) ] || fail "tracked $(json_int tracked), want $((N * M))"
	[ "$(json_int used)" -eq $((N * M)) ] || fail "used $(json_int used), want $((N * M))"
	[ "$(json_int reads)" -eq $((N * M)) ] || fail "reads $(json_int reads), want $((N * M))"
}

@test "t3050.02 $N processes reading the same $M files in parallel leave exactly $M entries" {
	make_files 1
	run --separate-stderr rg bash -c '
		for p in $(seq 0 $(($1 - 1))); do
			( for f in d0/*; do : <"$f"; done ) &
		done
		wait
		"$RG" status --json' bash "$N"
	assert_success
	[ "$(json_int tracked)" -eq "$M" ] || fail "tracked $(json_int tracked), want $M"
}

@test "t3050.03 every read made by $N parallel processes unlocks its file's write" {
	make_files
	# Each reader scans (t1500); with scan detection off, each read counts
	# for the whole session, which is what is counted here.
	run --separate-stderr "$RG" run --scan-files 0 --log "$LOG" -- bash -c '
		for p in $(seq 0 $(($1 - 1))); do
			( for f in d$p/*; do : <"$f"; done ) &
		done
		wait
		"$RG" check -q d*/f*' bash "$N"
	assert_success
}
