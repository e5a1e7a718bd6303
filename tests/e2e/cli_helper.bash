# Helpers for the session verbs' tests (t2xxx). Each test gets its own table
# directory (helper.bash's common_setup), so sessions of other tests or other
# users of the machine are never seen: with READGUARD_DIR set, only that
# directory is searched.

# cli_setup: $TABLES names the test's own table directory (common_setup
# made it READGUARD_DIR), which the verbs' tests look into.
cli_setup() {
	TABLES="$READGUARD_DIR"
}

# new_session [env-options...]: a running session owned by this test's
# shell (it lives as long as the test does); its path goes to $S.
new_session() {
	local out
	out=$("$RG" env --pid $$ "$@") || fail "readguard env failed: $out"
	S=$(sed -n "s/^export READGUARD_SESSION='\(.*\)';$/\1/p" <<<"$out")
	[ -f "$S" ] || fail "no session table in: $out"
}

# dead_session PATH: a kept session whose launcher has exited.
dead_session() {
	"$RG" run --session "$1" --keep -- true || fail "cannot make a kept session at $1"
}

# in_session CMD...: run CMD preloaded in session $S.
in_session() {
	env LD_PRELOAD="$SHIM" READGUARD_SESSION="$S" "$@"
}

# ended_session: a session (path in $S) whose owner has exited.
ended_session() {
	sleep 60 &
	local p=$! out
	out=$("$RG" env --pid $p) || fail "readguard env failed: $out"
	kill $p
	wait $p 2>/dev/null || true
	S=$(sed -n "s/^export READGUARD_SESSION='\(.*\)';$/\1/p" <<<"$out")
}
