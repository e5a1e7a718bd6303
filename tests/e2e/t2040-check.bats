#!/usr/bin/env bats
# readguard check: would a write be allowed now?

load helper
load cli_helper

setup() {
	common_setup
	cli_setup
}

@test "t2040.01 check of an unread file exits 1 with the shim's refusal text" {
	new_session
	mkfile a old
	run --separate-stderr "$RG" check a
	assert_equal "$status" 1
	assert_output "refused to write 'a': $MSG_UNREAD"
}

@test "t2040.02 check of a read file exits 0" {
	new_session
	mkfile a old
	in_session cat a >/dev/null
	run --separate-stderr "$RG" check a
	assert_success
	assert_output "allowed to write 'a': it was read in this session and has not changed since."
}

@test "t2040.03 check of a changed file words it exactly as the shim's refusal does" {
	new_session
	mkfile a old
	in_session cat a >/dev/null
	external_write a changed
	run --separate-stderr "$RG" check a
	assert_equal "$status" 1
	local said=$output
	run --separate-stderr in_session sh -c 'echo new >a'
	assert_refused a changed
	[ "readguard: $said" = "${stderr_lines[0]}" ] ||
		fail "check said: $said
shim said:  ${stderr_lines[0]}"
}

@test "t2040.04 check of a new file in an existing directory exits 0" {
	new_session
	run --separate-stderr "$RG" check brand-new
	assert_success
	assert_output --partial "does not exist: writing it creates a new file"
}

@test "t2040.05 check of a file outside the roots exits 0" {
	new_session
	printf 'x\n' >"$OUT/o"
	run --separate-stderr "$RG" check "$OUT/o"
	assert_success
	assert_output --partial "outside the session's roots"
}

@test "t2040.06 check of a path whose directory does not exist exits 2, naming the directory" {
	new_session
	run --separate-stderr "$RG" check no/such/dir/f
	assert_equal "$status" 2
	assert_output ''
	assert_equal "$stderr" "readguard: check: 'no/such/dir/f': the directory 'no/such/dir' does not exist: an open there fails (ENOENT), which readguard does not refuse"
}

@test "t2040.07 check of several files exits 1 when any would be refused" {
	new_session
	mkfile a old
	mkfile b old
	in_session cat a >/dev/null
	run --separate-stderr "$RG" check a b
	assert_equal "$status" 1
	assert_line --index 0 --partial "allowed to write 'a'"
	assert_line --index 1 --partial "refused to write 'b'"
}

@test "t2040.08 check --quiet prints nothing and answers with its status" {
	new_session
	mkfile a old
	run --separate-stderr "$RG" check --quiet a
	assert_equal "$status" 1
	assert_output ''
}

@test "t2040.09 in warn mode check exits 0 and still gives the reason" {
	new_session --mode warn
	mkfile a old
	run --separate-stderr "$RG" check a
	assert_success
	assert_output "allowed to write 'a' (warn mode logs it): $MSG_UNREAD"
}

@test "t2040.10 check writes nothing: no log line, the file unchanged" {
	new_session --log "$LOG"
	mkfile a old
	snapshot a
	run --separate-stderr "$RG" check a
	assert_unchanged a
	[ "$(log_count)" -eq 0 ] || fail "$(cat "$LOG")"
}

# tiers_project: a git work tree holding one unread file per tier: a
# tracked source (guarded), a git-ignored database (journaled) and a build
# output (free by the built-in rules).
tiers_project() {
	export HOME="$BATS_TEST_TMPDIR/home" GIT_CONFIG_NOSYSTEM=1
	unset GIT_CONFIG_GLOBAL XDG_CONFIG_HOME
	mkdir -p "$HOME" build
	git init -q .
	printf '*.db\n' >.gitignore
	mkfile main.c 'int main;'
	mkfile app.db rows
	mkfile build/out.o object
}

@test "t2040.11 guarded tier: check refuses a blind write to a git-tracked file, as the shim does" {
	tiers_project
	new_session
	run --separate-stderr "$RG" check main.c
	assert_equal "$status" 1
	local said=$output
	snapshot main.c
	run --separate-stderr in_session sh -c 'echo new >main.c'
	assert_failure
	assert_refused main.c unread
	assert_unchanged main.c
	[ "readguard: $said" = "${stderr_lines[0]}" ] || fail "check said: $said
shim said:  ${stderr_lines[0]}"
}

@test "t2040.12 journaled tier: check allows a blind write to a git-ignored file, as the shim does" {
	tiers_project
	new_session
	run --separate-stderr "$RG" check app.db
	assert_success
	assert_output "allowed to write 'app.db': it is in the journaled tier (git ignores it, a 'journal' rule names it, or a tool owns it): a write is allowed, and its old bytes are kept first."
	run --separate-stderr in_session sh -c 'echo new >app.db'
	assert_success
	refute_refused
	assert_content app.db new
}

@test "t2040.13 free tier: check allows a blind write to a build output, as the shim does" {
	tiers_project
	new_session
	run --separate-stderr "$RG" check build/out.o
	assert_success
	assert_output "allowed to write 'build/out.o': it is in the free tier (readguard's ignore rules leave it to the tools)."
	run --separate-stderr in_session sh -c 'echo new >build/out.o'
	assert_success
	refute_refused
	assert_content build/out.o new
}

@test "t2040.14 without a journal, check refuses a git-ignored file, as the shim does" {
	tiers_project
	new_session --no-journal
	run --separate-stderr "$RG" check app.db
	assert_equal "$status" 1
	local said=$output
	run --separate-stderr in_session sh -c 'echo new >app.db'
	assert_refused app.db unread
	[ "readguard: $said" = "${stderr_lines[0]}" ] || fail "check said: $said
shim said:  ${stderr_lines[0]}"
}

@test "t2040.15 check of a file replaced since it was read says so, as the shim does" {
	new_session
	mkfile a old
	in_session cat a >/dev/null
	printf 'saved by another program\n' >a.new
	mv a.new a
	run --separate-stderr "$RG" check a
	assert_equal "$status" 1
	local said=$output
	[[ $said == "refused to write 'a': it was replaced by another file since this session read it (read at "* ]] ||
		fail "check said: $said"
	run --separate-stderr in_session sh -c 'echo new >a'
	assert_refused a any
	[ "readguard: $said" = "${stderr_lines[0]}" ] || fail "check said: $said
shim said:  ${stderr_lines[0]}"
}

@test "t2040.16 check refuses a git-ignored file too large for the journal, worded as the shim words it" {
	tiers_project
	head -c 300K /dev/urandom >big.db
	new_session --journal-max-file 100K
	run --separate-stderr "$RG" check big.db
	assert_equal "$status" 1
	local said=$output
	[[ $said == "refused to write 'big.db': ${MSG_UNKEPT}it is too large (307200 bytes; --journal-max-file is 102400);"* ]] ||
		fail "check said: $said"
	snapshot big.db
	run --separate-stderr in_session sh -c 'echo new >big.db'
	assert_refused big.db unkept
	assert_unchanged big.db
	[ "readguard: $said" = "${stderr_lines[0]}" ] || fail "check said: $said
shim said:  ${stderr_lines[0]}"
}

@test "t2040.17 check refuses a git-ignored file when the journal cannot be written, as the shim does" {
	tiers_project
	new_session
	# A file where the journal's directory should be: no user can write there.
	mkdir -p "$XDG_STATE_HOME/readguard"
	rm -rf "$XDG_STATE_HOME/readguard/journal"
	: >"$XDG_STATE_HOME/readguard/journal"
	run --separate-stderr "$RG" check app.db
	assert_equal "$status" 1
	local said=$output
	[[ $said == "refused to write 'app.db': ${MSG_UNKEPT}the journal cannot be written (ENOTDIR);"* ]] ||
		fail "check said: $said"
	run --separate-stderr in_session sh -c 'echo new >app.db'
	assert_refused app.db unkept
	assert_content app.db rows
	[ "readguard: $said" = "${stderr_lines[0]}" ] || fail "check said: $said
shim said:  ${stderr_lines[0]}"
}

@test "t2040.18 check of a file the session created, never read, says the session wrote it" {
	new_session
	in_session sh -c 'echo mine >made'
	run --separate-stderr "$RG" check made
	assert_success
	assert_output "allowed to write 'made': this session wrote it last, and it has not changed since."
}

@test "t2040.19 check of an empty name exits 2: no open of it can write anything" {
	new_session
	run --separate-stderr "$RG" check ''
	assert_equal "$status" 2
	assert_output ''
	assert_equal "$stderr" "readguard: check: '': an empty name names no file (an open of it fails with ENOENT)"
}

@test "t2040.20 check of a file in a tool's directory outside git says a tool owns it" {
	export HOME="$BATS_TEST_TMPDIR/home"
	mkdir -p "$HOME" .venv
	printf 'home = /usr/bin\n' >.venv/pyvenv.cfg
	mkfile .venv/data old
	new_session
	run --separate-stderr "$RG" check .venv/data
	assert_success
	assert_output "allowed to write '.venv/data': it is in the journaled tier (git ignores it, a 'journal' rule names it, or a tool owns it): a write is allowed, and its old bytes are kept first."
}

# It said "allowed to write 'sub': it is not a regular file", exit 0, where
# an open of a directory for writing fails (EISDIR) before readguard is asked.
@test "t2040.21 check of a directory exits 2, saying a write to it fails with EISDIR" {
	new_session
	mkdir sub
	run --separate-stderr "$RG" check sub
	assert_equal "$status" 2
	assert_output ''
	assert_equal "$stderr" "readguard: check: 'sub' is a directory: an open of it for writing fails (EISDIR), which readguard does not refuse"
}
