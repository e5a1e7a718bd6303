#!/usr/bin/env bats
# readguard env / end: a session for an existing shell.

load helper
load cli_helper

setup() {
	common_setup
	cli_setup
}

@test "t2060.01 eval of readguard env guards the shell's children" {
	mkfile a old
	run --separate-stderr bash -c '
		eval "$("$RG" env)" || exit 9
		echo new >a          # the shell itself is not preloaded: allowed
		cat a >/dev/null
		sh -c "echo x >b; echo y >b"
		# A preloaded env would put the session back (exec re-injects it):
		# only this unguarded shell can start a process outside it.
		external() ( unset LD_PRELOAD READGUARD_SESSION; exec sh -c "echo ext >a" )
		external
		sh -c "echo z >a"
	'
	assert_failure
	assert_refused a changed
}

@test "t2060.02 env prints export lines for LD_PRELOAD and READGUARD_SESSION" {
	run --separate-stderr "$RG" env --pid $$
	assert_success
	assert_line --index 0 "export LD_PRELOAD='$SHIM';"
	assert_line --index 1 --regexp "^export READGUARD_SESSION='$TABLES/readguard-[0-9]+-[0-9a-f]{16}';$"
}

@test "t2060.03 env keeps an LD_PRELOAD already set, after the shim" {
	LD_PRELOAD=libother.so run --separate-stderr "$RG" env --pid $$
	assert_success
	assert_line --index 0 "export LD_PRELOAD='$SHIM:libother.so';"
}

@test "t2060.04 env takes run's options: roots and mode are stored in the session" {
	mkdir r
	new_session --root r --mode warn
	run --separate-stderr "$RG" status --session "$S"
	assert_line "mode        warn"
	assert_line "roots       $W/r"
}

@test "t2060.05 the session of env lives as long as the shell that ran eval" {
	run --separate-stderr bash -c 'eval "$("$RG" env)"; "$RG" sessions'
	assert_success
	assert_output --partial " running  pid "
	run --separate-stderr "$RG" sessions
	assert_output --partial " ended  pid "
}

@test "t2060.06 env with a bad option exits 125 and creates no session" {
	run --separate-stderr "$RG" env --mode sideways
	assert_equal "$status" 125
	[ -z "$(ls "$TABLES")" ] || fail "left: $(ls "$TABLES")"
	run --separate-stderr "$RG" env --pid nope
	assert_equal "$status" 125
	run --separate-stderr "$RG" env stray
	assert_equal "$status" 125
	[[ $stderr == *"unexpected argument 'stray'"* ]] || fail "$stderr"
}

@test "t2060.07 eval of readguard end removes the session and unsets the variables env set" {
	run --separate-stderr bash -c '
		eval "$("$RG" env)"; s=$READGUARD_SESSION
		eval "$("$RG" end)" || exit 9
		[ -e "$s" ] && exit 8
		echo "[${LD_PRELOAD-unset}] [${READGUARD_SESSION-unset}] [${READGUARD_ROOTS-unset}]" \
			"[${READGUARD_SESSION_LOG-unset}] [${READGUARD_SESSION_ID-unset}]"'
	assert_success
	assert_output '[unset] [unset] [unset] [unset] [unset]'
}

@test "t2060.08 end keeps the other entries of LD_PRELOAD" {
	new_session
	LD_PRELOAD="/x/libother.so:$SHIM" READGUARD_SESSION=$S run --separate-stderr "$RG" end
	assert_success
	assert_line --index 0 "export LD_PRELOAD='/x/libother.so';"
	assert_line --index 1 "unset READGUARD_SESSION;"
}

@test "t2060.09 end without a session exits 2 and prints nothing to eval" {
	run --separate-stderr "$RG" end
	assert_equal "$status" 2
	assert_output ''
}

@test "t2060.10 env in a shell that already preloads the shim does not load it twice" {
	LD_PRELOAD="/old/libreadguard.so:libother.so" run --separate-stderr "$RG" env --pid $$
	assert_success
	assert_line --index 0 "export LD_PRELOAD='$SHIM:libother.so';"
}

@test "t2060.11 env with an unknown option points to env's --help, not run's" {
	run --separate-stderr "$RG" env --no-such-option
	assert_equal "$status" 125
	[[ $stderr == *"Try 'readguard env --help'."* ]] || fail "$stderr"
	[[ $stderr != *"readguard run --help"* ]] || fail "$stderr"
}

@test "t2060.12 env with a stray argument names env and points to its --help" {
	run --separate-stderr "$RG" env stray
	assert_equal "$status" 125
	assert_equal "$stderr" "readguard: env: unexpected argument 'stray'
Try 'readguard env --help'."
}

@test "t2060.13 end outside a session does not end another running session" {
	new_session
	run --separate-stderr env -u READGUARD_SESSION "$RG" end
	assert_equal "$status" 2
	assert_output ''
	[ -f "$S" ] || fail "end removed the running session's table $S"
	[[ $stderr == *"--session"* ]] || fail "$stderr"
}

@test "t2060.14 a child of an env shell that finds the table removed still guards the session's roots" {
	mkdir sub other
	mkfile other/unread.txt original
	snapshot "$W/other/unread.txt"
	run --separate-stderr bash -c '
		eval "$("$RG" env --root "$W")" || exit 9
		cd sub && rm -- "$READGUARD_SESSION" && sh -c "echo x >\"\$W/other/unread.txt\""'
	assert_failure
	assert_equal "$(count_rg_lines)" 1
	[[ $stderr == "readguard: refused to write '$W/other/unread.txt': the session table is unusable (it does not exist"* ]] ||
		fail "stderr lacks the refusal with its reason: $stderr"
	assert_unchanged "$W/other/unread.txt"
}

@test "t2060.15 a child of an env shell that finds the table removed logs its refusal in the session's log, under its id" {
	mkdir sub other
	mkfile other/unread.txt original
	run --separate-stderr bash -c '
		eval "$("$RG" env --root "$W" --log "$LOG")" || exit 9
		"$RG" status --json >"$OUT/status.json" || exit 8
		cd sub && rm -- "$READGUARD_SESSION" && sh -c "echo x >\"\$W/other/unread.txt\""'
	assert_failure
	assert_equal "$(count_rg_lines)" 1
	assert_lost_refusal "$LOG" "$W/other/unread.txt" "$(status_id "$OUT/status.json")"
}

# running_sessions: how many sessions of this test's table directory run.
running_sessions() {
	"$RG" sessions | grep -c ' running ' || true
}

@test "t2060.16 env twice in one shell keeps one session" {
	run --separate-stderr bash -c '
		eval "$("$RG" env)" || exit 9; first=$READGUARD_SESSION
		eval "$("$RG" env)" || exit 8
		[ "$READGUARD_SESSION" = "$first" ] || exit 7
		"$RG" sessions'
	assert_success
	assert_equal "$(grep -c ' running ' <<<"$output")" 1
}

@test "t2060.17 env in a shell in a running session names it and how to end it" {
	new_session
	id=$("$RG" status --session "$S" | sed -n 's/^id  *//p')
	READGUARD_SESSION=$S run --separate-stderr "$RG" env --pid $$
	assert_success
	assert_equal "$stderr" "readguard: env: this shell is in session $id already ('readguard end' ends it first)"
	assert_line --index 1 "export READGUARD_SESSION='$S';"
	assert_equal "$(running_sessions)" 1
}

@test "t2060.18 env whose READGUARD_SESSION table was removed says so and starts a new one" {
	new_session
	old=$S
	rm -- "$old"
	READGUARD_SESSION=$old run --separate-stderr "$RG" env --pid $$
	assert_success
	[[ $stderr == "readguard: env: READGUARD_SESSION names '$old', which is not a usable session ("*"): starting a new one" ]] ||
		fail "$stderr"
	refute_line --index 1 "export READGUARD_SESSION='$old';"
	assert_equal "$(running_sessions)" 1
}

@test "t2060.19 env whose READGUARD_SESSION has ended says so and starts a new one" {
	dead_session "$TABLES/kept"
	READGUARD_SESSION=$TABLES/kept run --separate-stderr "$RG" env --pid $$
	assert_success
	[[ $stderr == "readguard: env: READGUARD_SESSION names session "*", which has ended: starting a new one" ]] ||
		fail "$stderr"
	refute_line --index 1 "export READGUARD_SESSION='$TABLES/kept';"
	assert_equal "$(running_sessions)" 1
}

@test "t2060.20 env with other options in a running session says they are not applied and prints nothing" {
	mkdir r
	new_session
	READGUARD_SESSION=$S run --separate-stderr "$RG" env --pid $$ --root r --mode warn
	assert_equal "$status" 125
	assert_output ''
	[[ $stderr == *"this shell is in session "*" already, which keeps its own settings: --root, --mode not applied"*"'readguard end' ends it first"* ]] ||
		fail "$stderr"
	assert_equal "$(running_sessions)" 1
}

@test "t2060.21 env with another --pid in a running session says it is not applied" {
	new_session
	sleep 60 &
	other=$!
	READGUARD_SESSION=$S run --separate-stderr "$RG" env --pid $other
	kill $other
	assert_equal "$status" 125
	assert_output ''
	[[ $stderr == *"already, which keeps its own settings: --pid not applied"* ]] || fail "$stderr"
}

@test "t2060.22 env with --session naming the shell's own session prints it again" {
	new_session
	id=$("$RG" status --session "$S" | sed -n 's/^id  *//p')
	READGUARD_SESSION=$S run --separate-stderr "$RG" env --session "$id"
	assert_success
	assert_line --index 1 "export READGUARD_SESSION='$S';"
	[[ $stderr == "readguard: env: this shell is in session $id already ('readguard end' ends it first)" ]] ||
		fail "$stderr"
}

@test "t2060.23 env with --session naming another session says it is not applied" {
	new_session
	mine=$S
	new_session
	READGUARD_SESSION=$mine run --separate-stderr "$RG" env --session "$S"
	assert_equal "$status" 125
	assert_output ''
	[[ $stderr == *"already, which keeps its own settings: --session not applied"* ]] || fail "$stderr"
}

@test "t2060.24 env after end in the same shell starts a new session" {
	run --separate-stderr bash -c '
		eval "$("$RG" env)" || exit 9; first=$READGUARD_SESSION
		eval "$("$RG" end)" || exit 8
		eval "$("$RG" env)" || exit 7
		[ -f "$READGUARD_SESSION" ] && [ "$READGUARD_SESSION" != "$first" ] || exit 6
		"$RG" sessions'
	assert_success
	assert_equal "$stderr" ''
	assert_equal "$(grep -c ' running ' <<<"$output")" 1
}

@test "t2060.25 eval of readguard env binds the shell to its table's file, and end unbinds it" {
	run --separate-stderr bash -c '
		eval "$("$RG" env)" || exit 9
		echo "${READGUARD_SESSION_FILE-unset}"
		eval "$("$RG" end)" || exit 8
		echo "${READGUARD_SESSION_FILE-unset}"'
	assert_success
	assert_line --index 0 --regexp '^[0-9a-f]{16}:[0-9a-f]{16}:[0-9a-f]{16}$'
	assert_line --index 1 unset
}

# A table put where the shell's session table was, its directory moved away:
# one of the user's programs could do that, the table saying f was read.
@test "t2060.26 a child of an env shell does not join a table put in place of its session's" {
	mkfile f original
	snapshot f
	mkdir "$OUT/agent"
	(unset LD_PRELOAD READGUARD_SESSION && "$RG" run --session "$OUT/forged" --keep -- "$RG" mark f) ||
		fail "cannot make the planted table"
	run --separate-stderr bash -c '
		eval "$("$RG" env --session "$OUT/agent/t")" || exit 9
		mv "$OUT/agent" "$OUT/gone" && mkdir "$OUT/agent" && mv "$OUT/forged" "$OUT/agent/t" || exit 8
		sh -c "echo new >f"'
	assert_failure
	[[ $stderr == *"readguard: refused to write 'f': the session table is unusable (another file than the session's is at its path"* ]] ||
		fail "stderr lacks the refusal with its reason: $stderr"
	assert_unchanged f
}

# The shell's binding is to its old table (kept, so that its inode number
# is not the new one's): a launcher making a table anew at that path binds
# its own command to the new one.
@test "t2060.27 run --session makes a table anew where an env shell's was moved away, and its command writes" {
	mkfile f original
	run --separate-stderr bash -c '
		eval "$("$RG" env --session "$OUT/t")" || exit 9
		(unset LD_PRELOAD && mv -- "$OUT/t" "$OUT/old") || exit 8
		"$RG" run --session "$OUT/t" -- sh -c "cat f >/dev/null && echo new >f"'
	assert_success
	assert_content f new
}

# Typed at a prompt to try it, env's output runs nowhere; the session made
# for it would run beside the one a later eval starts, unsaid.
@test "t2060.28 env on a terminal says its commands are not run, and how to end the session it made" {
	command -v script >/dev/null || skip "script (util-linux) is not installed"
	run script -qec "\"$RG\" env" /dev/null
	assert_success
	assert_output --regexp "readguard: env: a terminal shows these commands, it does not run them: eval \"\\\$\(readguard env\)\" does\. Session [0-9]+-[0-9]+, started for them, runs until its shell exits \('readguard end --session [0-9]+-[0-9]+' ends it now\)"
}

# A shell whose session ended under it (its table removed: an end run
# without eval, a prune) keeps LD_PRELOAD and a binding to a table that is
# gone, so every command it starts fails closed: end must still unset them.
@test "t2060.29 end whose READGUARD_SESSION table is gone still prints the commands that unset it" {
	run --separate-stderr bash -c '
		eval "$("$RG" env)" || exit 9
		"$RG" end >/dev/null || exit 8       # run without eval: the table goes
		eval "$("$RG" end)" || exit 7
		echo "[${LD_PRELOAD-unset}] [${READGUARD_SESSION-unset}] [${READGUARD_SESSION_FILE-unset}]"'
	assert_success
	assert_output '[unset] [unset] [unset]'
	[[ $stderr == *"readguard: end: session '"*"' (from READGUARD_SESSION) has ended already: only unsetting it"* ]] ||
		fail "$stderr"
}

# The shell of `readguard run -- bash` has READGUARD_SESSION too; end there
# would remove the table under the running tree, whose next commands then
# fail closed: every write refused, reads counting for nothing.
@test "t2060.30 end in the shell of a running readguard run leaves its session running" {
	mkfile a old
	run --separate-stderr "$RG" run -- bash -c '
		"$RG" end; echo "end=$?"
		[ -f "$READGUARD_SESSION" ] || echo "table gone"
		cat a >/dev/null; echo new >a'
	assert_success
	assert_output 'end=2'
	[[ $stderr == "readguard: end: this shell is in the session of 'readguard run', pid "*", which ends when its command exits"* ]] ||
		fail "$stderr"
	[ "$(cat a)" = new ] || fail "a: $(cat a)"
}

@test "t2060.31 env in the shell of a running readguard run says the session ends with its command" {
	run --separate-stderr "$RG" run -- "$RG" env
	assert_success
	[[ $stderr == "readguard: env: this shell is in session "*" already (that of 'readguard run', pid "*", which ends when its command exits)" ]] ||
		fail "$stderr"
}

@test "t2060.32 end on a terminal says its commands are not run, and how to run them" {
	command -v script >/dev/null || skip "script (util-linux) is not installed"
	new_session
	READGUARD_SESSION=$S run script -qec "\"$RG\" end" /dev/null
	assert_success
	assert_output --partial "readguard: end: a terminal shows these commands, it does not run them: eval \"\$(readguard end)\" does, now that the session has ended"
}

@test "t2060.33 env's and end's --help name every variable they set and unset" {
	run "$RG" env --help
	assert_output --partial "export READGUARD_SESSION_FILE="
	run "$RG" end --help
	assert_output --partial "READGUARD_SESSION_ID and READGUARD_SESSION_FILE"
}
