#!/usr/bin/env bats
# Integrations: the Claude Code hooks and an MCP filesystem server.

load helper
load cli_helper

MCP="$TOP/tests/e2e/fixtures/mcp-fs-server.py"
SID=abc-123

setup() {
	common_setup
	cli_setup
	export CLAUDE_ENV_FILE="$BATS_TEST_TMPDIR/claude.env"
	: >"$CLAUDE_ENV_FILE"
	# Claude Code itself, as far as the hooks can tell: it outlives them.
	sleep 600 &
	CLAUDE_PID=$!
	export CLAUDE_PID
	TABLE="$TABLES/readguard-claude-$SID"
}

teardown() {
	kill "$CLAUDE_PID" 2>/dev/null || true
	common_teardown
}

# hook EVENT [JSON [OPTION]...]: run the hook as Claude Code does, in a
# short-lived /bin/sh, with the hook input on stdin (default: SessionStart's).
hook() {
	local ev=$1 json=${2:-"{\"session_id\":\"$SID\",\"cwd\":\"$W\",\"hook_event_name\":\"$1\",\"source\":\"startup\"}"}
	shift $(($# < 2 ? $# : 2))
	printf '%s' "$json" | /bin/sh -c '"$0" hook claude-code "$@"' "$RG" "$ev" "$@"
}

# tool EVENT TOOL PATH_JSON [EXTRA]: the input of a tool hook, with the file
# path given as a JSON string (escapes and all) and EXTRA members appended.
tool() {
	hook "$1" "{\"session_id\":\"$SID\",\"transcript_path\":\"/dev/null\",\"cwd\":\"$W\",\"permission_mode\":\"bypassPermissions\",\"hook_event_name\":\"$1\",\"tool_name\":\"$2\",\"tool_input\":{\"file_path\":$3,\"content\":\"x\\n\"}${4:-},\"tool_use_id\":\"toolu_1\"}"
}

# deny_json PATH REASON: the exact answer that denies a write.
deny_json() {
	printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"readguard: refused to write %s: %s"}}' \
		"$1" "$2"
}

# bash_tool COMMAND: run COMMAND as Claude Code's Bash tool does (2.1.x):
# one bash -c whose line pastes in $CLAUDE_ENV_FILE, evals the command and
# saves the cwd.
bash_tool() {
	local q=${1//\'/\'\\\'\'}
	bash -c "source /dev/null 2>/dev/null || true && $(cat "$CLAUDE_ENV_FILE")
: && eval '$q' < /dev/null && pwd -P >| '$BATS_TEST_TMPDIR/cwd'"
}

@test "t2120.01 SessionStart writes an env file that guards the Bash tool's own shell" {
	mkfile a old
	hook SessionStart >/dev/null
	run --separate-stderr bash_tool 'echo new >a'
	assert_failure
	assert_refused a unread
	assert_content a old
}

@test "t2120.02 SessionStart's env file guards the Bash tool command's children too" {
	mkfile a old
	hook SessionStart >/dev/null
	run --separate-stderr bash_tool 'sh -c "echo new >a"'
	assert_failure
	assert_refused a unread
	bash_tool 'cat a >/dev/null; sh -c "echo new >a"'
	assert_content a new
}

@test "t2120.03 the guarded Bash tool shell keeps output, exit status, arguments and the saved cwd" {
	hook SessionStart >/dev/null
	mkdir sub
	run --separate-stderr bash_tool 'echo "out $0"; echo err >&2; cd sub; exit 3'
	[ "$status" -eq 3 ] || fail "status $status"
	assert_output "out bash"
	[ "$stderr" = err ] || fail "stderr: $stderr"
	run --separate-stderr bash_tool 'cd sub && echo "$READGUARD_SESSION" && grep -c libreadguard /proc/$$/maps'
	assert_success
	[ "${lines[0]}" = "$TABLE" ] || fail "$output"
	[ "${lines[1]}" -gt 0 ] || fail "the shell has no shim: $output"
	[ "$(cat "$BATS_TEST_TMPDIR/cwd")" = "$W/sub" ] || fail "cwd: $(cat "$BATS_TEST_TMPDIR/cwd")"
}

@test "t2120.04 the Bash tool shell is replaced once, not again by its children" {
	hook SessionStart >/dev/null
	run --separate-stderr bash_tool 'echo $$ $READGUARD_SHELL; bash -c "echo \$\$ \$READGUARD_SHELL"'
	assert_success
	read -r pid shell <<<"${lines[0]}"
	[ "$pid" = "$shell" ] || fail "$output"
	[ "${#lines[@]}" -eq 2 ] || fail "$output"
}

@test "t2120.05 SessionStart ties the session to Claude Code (CLAUDE_PID), not to the hook's shell" {
	hook SessionStart >/dev/null
	run "$RG" status --json --session "$TABLE"
	assert_success
	assert_output --partial "\"running\":true,\"pid\":$CLAUDE_PID,"
	kill "$CLAUDE_PID"
	wait "$CLAUDE_PID" 2>/dev/null || true
	run "$RG" status --json --session "$TABLE"
	assert_output --partial '"running":false'
}

@test "t2120.06 SessionStart tells the model what readguard refuses" {
	run --separate-stderr hook SessionStart
	assert_success
	assert_output --partial "Files under $W are guarded by readguard."
	[ -z "$stderr" ] || fail "$stderr"
}

@test "t2120.07 PreToolUse denies a Write of an unread file with the exact JSON and reason" {
	mkfile a old
	hook SessionStart >/dev/null
	run --separate-stderr tool PreToolUse Write "\"$W/a\""
	assert_success
	assert_output "$(deny_json "'$W/a'" "$MSG_UNREAD")"
	assert_content a old
}

@test "t2120.08 PreToolUse asks the same decision for Edit, MultiEdit and NotebookEdit" {
	mkfile a old
	hook SessionStart >/dev/null
	for t in Edit MultiEdit; do
		run --separate-stderr tool PreToolUse $t "\"$W/a\""
		assert_output "$(deny_json "'$W/a'" "$MSG_UNREAD")"
	done
	run --separate-stderr hook PreToolUse "{\"session_id\":\"$SID\",\"tool_name\":\"NotebookEdit\",\"tool_input\":{\"notebook_path\":\"$W/a\",\"new_source\":\"x\"}}"
	assert_output "$(deny_json "'$W/a'" "$MSG_UNREAD")"
}

@test "t2120.09 PreToolUse allows, silently, a new file and the tools it does not guard" {
	mkfile a old
	hook SessionStart >/dev/null
	run --separate-stderr tool PreToolUse Write "\"$W/new\""
	assert_success
	assert_output ""
	run --separate-stderr tool PreToolUse Bash "\"$W/a\""
	assert_success
	assert_output ""
	[ -z "$stderr" ] || fail "$stderr"
}

@test "t2120.10 a Read (PostToolUse) unlocks a Write" {
	mkfile a old
	hook SessionStart >/dev/null
	tool PostToolUse Read "\"$W/a\"" ',"tool_response":{"type":"text","file":{"filePath":"'"$W"'/a","content":"old","numLines":1,"startLine":1,"totalLines":1}}'
	run --separate-stderr tool PreToolUse Write "\"$W/a\""
	assert_success
	assert_output ""
}

@test "t2120.11 a partial Read (offset, limit) counts as a read, as head does in the shell" {
	mkfile a "$(seq 100)"
	hook SessionStart >/dev/null
	hook PostToolUse "{\"session_id\":\"$SID\",\"tool_name\":\"Read\",\"tool_input\":{\"file_path\":\"$W/a\",\"offset\":50,\"limit\":2}}"
	run --separate-stderr tool PreToolUse Edit "\"$W/a\""
	assert_output ""
}

@test "t2120.12 a Read (PostToolUse) unlocks a > in the Bash tool" {
	mkfile a old
	hook SessionStart >/dev/null
	tool PostToolUse Read "\"$W/a\""
	run --separate-stderr bash_tool 'echo new >a'
	assert_success
	assert_content a new
}

@test "t2120.13 a cat in the Bash tool unlocks a Write" {
	mkfile a old
	hook SessionStart >/dev/null
	bash_tool 'cat a >/dev/null'
	run --separate-stderr tool PreToolUse Write "\"$W/a\""
	assert_output ""
}

@test "t2120.14 a file changed since the Read is denied again, saying so" {
	mkfile a old
	hook SessionStart >/dev/null
	tool PostToolUse Read "\"$W/a\""
	external_write a other
	run --separate-stderr tool PreToolUse Write "\"$W/a\""
	assert_output --partial "\"permissionDecisionReason\":\"readguard: refused to write '$W/a': $MSG_CHANGED (read at "
}

@test "t2120.15 the tool's own write (PostToolUse Write) keeps the file writable" {
	mkfile a old
	hook SessionStart >/dev/null
	tool PostToolUse Read "\"$W/a\""
	printf 'by the Write tool\n' >a
	tool PostToolUse Write "\"$W/a\""
	run --separate-stderr tool PreToolUse Edit "\"$W/a\""
	assert_output ""
	run --separate-stderr bash_tool 'echo again >a'
	assert_success
}

@test "t2120.16 paths with quotes, newlines and non-ASCII are decoded and answered in exact JSON" {
	hook SessionStart >/dev/null
	local name=$'it\'s "q"\nnew été'
	mkfile "$name" old
	run --separate-stderr tool PreToolUse Write "\"$W/it's \\\"q\\\"\\nnew \\u00e9t\\u00e9\""
	assert_success
	assert_output "$(deny_json "'$W/it's \\\"q\\\"\\nnew été'" "$MSG_UNREAD")"
	python3 -c 'import json,sys; json.loads(sys.argv[1])' "$output" || fail "not JSON: $output"
	tool PostToolUse Read "\"$W/it's \\\"q\\\"\\nnew été\""
	run --separate-stderr tool PreToolUse Write "\"$W/it's \\\"q\\\"\\nnew \\u00e9t\\u00e9\""
	assert_output ""
}

@test "t2120.17 a denied Write is logged and counted like a refusal of the shim" {
	mkfile a old
	hook SessionStart "{\"session_id\":\"$SID\",\"cwd\":\"$W\"}" --log "$BATS_TEST_TMPDIR/r.log" >/dev/null
	tool PreToolUse Write "\"$W/a\"" >/dev/null
	grep -q '"prog":"claude","op":"open","call":"Write","path":"'"$W"'/a","decision":"refuse","reason":"unread"' \
		"$BATS_TEST_TMPDIR/r.log" || fail "$(cat "$BATS_TEST_TMPDIR/r.log")"
	run "$RG" status --json --session "$TABLE"
	assert_output --partial '"refusals":1'
}

@test "t2120.18 SessionStart takes run's options: in warn mode PreToolUse counts and allows" {
	mkfile a old
	hook SessionStart "{\"session_id\":\"$SID\",\"cwd\":\"$W\"}" --mode warn >/dev/null
	run --separate-stderr tool PreToolUse Write "\"$W/a\""
	assert_success
	assert_output ""
	run "$RG" status --json --session "$TABLE"
	assert_output --partial '"warnings":1'
}

@test "t2120.19 PreCompact makes the model read again before it writes" {
	mkfile a old
	hook SessionStart >/dev/null
	tool PostToolUse Read "\"$W/a\""
	bash_tool 'cat a >/dev/null'
	run --separate-stderr hook PreCompact
	assert_success
	run --separate-stderr tool PreToolUse Write "\"$W/a\""
	assert_output "$(deny_json "'$W/a'" "$MSG_UNREAD")"
	run --separate-stderr bash_tool 'echo new >a'
	assert_refused a unread
}

@test "t2120.20 a resumed conversation joins its session and keeps its reads" {
	mkfile a old
	hook SessionStart >/dev/null
	bash_tool 'cat a >/dev/null'
	: >"$CLAUDE_ENV_FILE"
	hook SessionStart "{\"session_id\":\"$SID\",\"cwd\":\"$W\",\"source\":\"resume\"}" >/dev/null
	bash_tool 'echo new >a'
	assert_content a new
}

@test "t2120.21 SessionStart after /clear forgets the reads" {
	mkfile a old
	hook SessionStart >/dev/null
	bash_tool 'cat a >/dev/null'
	hook SessionStart "{\"session_id\":\"$SID\",\"cwd\":\"$W\",\"source\":\"clear\"}" >/dev/null
	run --separate-stderr bash_tool 'echo new >a'
	assert_refused a unread
}

@test "t2120.22 without CLAUDE_ENV_FILE SessionStart explains and does not block" {
	unset CLAUDE_ENV_FILE
	run --separate-stderr hook SessionStart
	assert_success
	assert_output ""
	[[ $stderr == *"CLAUDE_ENV_FILE is not set"* ]] || fail "$stderr"
}

@test "t2120.62 an unwritable CLAUDE_ENV_FILE is reported, and the model is not told files are guarded" {
	export CLAUDE_ENV_FILE="$BATS_TEST_TMPDIR/no-such-dir/claude.env"
	run --separate-stderr hook SessionStart
	assert_success
	assert_output ""
	[[ $stderr == *"cannot write \$CLAUDE_ENV_FILE"* ]] || fail "$stderr"
}

@test "t2120.23 a hook input without a usable session id is reported, not fatal" {
	run --separate-stderr hook SessionStart '{"session_id":"../../etc","cwd":"/"}'
	assert_success
	[[ $stderr == *"no usable session_id"* ]] || fail "$stderr"
	[ ! -s "$CLAUDE_ENV_FILE" ] || fail "exported: $(cat "$CLAUDE_ENV_FILE")"
}

@test "t2120.24 malformed input or a missing session lets the tool call go on" {
	mkfile a old
	run --separate-stderr hook PreToolUse '{"session_id":"abc-123","tool_name":"Write","tool_input":{"file_path":'
	assert_success
	assert_output ""
	[[ $stderr == *"readguard: hook: "* ]] || fail "$stderr"
	run --separate-stderr tool PreToolUse Write "\"$W/a\""
	assert_success
	assert_output ""
	[[ $stderr == *"did the SessionStart hook run?"* ]] || fail "$stderr"
	run --separate-stderr tool PreToolUse Write '"relative/a"'
	assert_success
	assert_output ""
}

@test "t2120.25 under readguard run the hooks use the session Claude Code runs in" {
	mkfile a old
	run --separate-stderr "$RG" run -- bash -c '
		printf "{\"session_id\":\"s1\",\"cwd\":\"%s\"}" "$PWD" |
			"$0" hook claude-code SessionStart >/dev/null
		grep -q "READGUARD_SESSION=.$READGUARD_SESSION.\$" "$CLAUDE_ENV_FILE" || exit 7
		cat a >/dev/null
		printf "{\"session_id\":\"s1\"}" | "$0" hook claude-code PreCompact
		echo new >a' "$RG"
	assert_failure
	[ "$status" -ne 7 ] || fail "the hook exported another session: $(cat "$CLAUDE_ENV_FILE")"
	assert_refused a unread
}

@test "t2120.26 the shipped settings.json registers every hook with its matcher" {
	local f="$TOP/scripts/share/integrations/claude-code/settings.json"
	run python3 -c '
import json, sys
h = json.load(open(sys.argv[1]))["hooks"]
for ev, m in [("SessionStart", None), ("SessionEnd", None), ("PreCompact", None),
              ("PreToolUse", "Write|Edit|MultiEdit|NotebookEdit"),
              ("PostToolUse", "Read|Write|Edit|MultiEdit|NotebookEdit")]:
    (g,) = h[ev]
    assert g.get("matcher") == m, (ev, g)
    assert g["hooks"] == [{"type": "command", "command": "readguard hook claude-code " + ev}], g
print(sorted(h))' "$f"
	assert_success
	assert_output "['PostToolUse', 'PreCompact', 'PreToolUse', 'SessionEnd', 'SessionStart']"
}

@test "t2120.27 an MCP filesystem server under readguard run refuses a blind write, then allows it after a read" {
	mkfile notes.txt original
	local req='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"bats","version":"0"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"notes.txt","content":"blind"}}}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"notes.txt"}}}
{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"notes.txt","content":"informed"}}}'
	run --separate-stderr "$RG" run --log "$LOG" -- python3 "$MCP" <<<"$req"
	assert_success
	[ "${#lines[@]}" -eq 4 ] || fail "expected 4 responses: $output"
	"$PY3" -c '
import json, sys
r = {o["id"]: o for o in map(json.loads, sys.argv[1].splitlines())}
assert r[1]["result"]["serverInfo"]["name"] == "fixture-fs", r[1]
assert r[2]["result"].get("isError") is True, r[2]
assert "Permission denied" in r[2]["result"]["content"][0]["text"], r[2]
assert r[3]["result"]["content"][0]["text"] == "original\n", r[3]
assert not r[4]["result"].get("isError"), r[4]
' "$output" || fail "unexpected responses: $output"
	assert_content notes.txt informed
	assert_refused notes.txt unread
	[ "$(log_field 1 prog)" = '"python3"' ] || fail "$(cat "$LOG")"
}

@test "t2120.28 a Bash tool command cannot switch the guard off for its own redirections" {
	mkfile a old
	hook SessionStart >/dev/null
	run --separate-stderr bash_tool 'unset LD_PRELOAD READGUARD_SESSION; export READGUARD_SHELL=1; echo new >a'
	assert_failure
	assert_refused a unread
	run --separate-stderr bash_tool 'env -u LD_PRELOAD bash -c "echo new >a"'
	assert_failure
	assert_refused a unread
	assert_content a old
}

@test "t2120.29 hook without claude-code and an event is a usage error; --help is not" {
	run --separate-stderr "$RG" hook
	[ "$status" -eq 2 ] || fail "status $status"
	[[ $stderr == *"Usage: readguard hook claude-code EVENT"* ]] || fail "$stderr"
	run --separate-stderr "$RG" hook codex SessionStart
	[ "$status" -eq 2 ] || fail "status $status"
	run --separate-stderr "$RG" hook --help
	assert_success
	assert_output --partial "Usage: readguard hook claude-code EVENT"
}

@test "t2120.30 an unknown event is reported and lets Claude Code go on" {
	run --separate-stderr hook Notification "{\"session_id\":\"$SID\"}"
	assert_success
	assert_output ""
	[[ $stderr == *"unknown event 'Notification'"* ]] || fail "$stderr"
}

@test "t2120.37 an unknown event is named, with the known ones, whatever the input lacks" {
	run --separate-stderr hook Bogus '{}'
	assert_success
	assert_equal "$stderr" "readguard: hook: claude-code: unknown event 'Bogus': readguard's hooks are SessionStart, SessionEnd, PreToolUse, PostToolUse or PreCompact; it does nothing"
}

@test "t2120.38 hook with an unknown integration names it, without the whole usage text" {
	run --separate-stderr "$RG" hook codex SessionStart
	assert_failure 2
	assert_equal "$stderr" "readguard: hook: unknown integration 'codex' (readguard has one: claude-code)
Try 'readguard hook --help'."
}

# read_then_write_a: a session in which Claude Code reads a ("old"), and
# its Write tool, let through, writes it.
read_then_write_a() {
	mkfile a old
	hook SessionStart >/dev/null
	tool PostToolUse Read "\"$W/a\""
	tool PreToolUse Write "\"$W/a\"" >/dev/null
	printf 'by the Write tool\n' >a
	tool PostToolUse Write "\"$W/a\""
}

@test "t2120.31 an allowed Write keeps the old bytes, and readguard undo brings them back" {
	read_then_write_a
	run --separate-stderr "$RG" undo --session "$TABLE" a
	assert_success
	assert_content a old
}

@test "t2120.32 the tool's own earlier write is not kept again, and a denied Write keeps nothing" {
	mkfile a old
	mkfile b other
	hook SessionStart >/dev/null
	tool PreToolUse Write "\"$W/b\"" >/dev/null
	tool PostToolUse Read "\"$W/a\""
	for t in Write Edit MultiEdit; do
		tool PreToolUse $t "\"$W/a\"" >/dev/null
		printf '%s\n' "$t" >a
		tool PostToolUse $t "\"$W/a\""
	done
	run --separate-stderr "$RG" history --json --session "$TABLE"
	assert_success
	[ "${#lines[@]}" -eq 1 ] || fail "expected one kept version: $output"
	[[ $output == *"\"path\":\"$W/a\""*"\"size\":4,"* ]] || fail "$output"
}

# tiers_project: a git work tree holding unread files of each tier: a
# tracked source (guarded), git-ignored databases (journaled) and build
# outputs (free by the built-in rules). Two of each allowed tier, since a
# write the session allowed makes the file its own: the hook and the shim
# are each asked about a file of their own.
tiers_project() {
	export HOME="$BATS_TEST_TMPDIR/home" GIT_CONFIG_NOSYSTEM=1
	unset GIT_CONFIG_GLOBAL XDG_CONFIG_HOME
	mkdir -p "$HOME" build
	git init -q .
	printf '*.db\n' >.gitignore
	mkfile main.c 'int main;'
	mkfile app.db rows
	mkfile other.db rows
	mkfile build/a.o object
	mkfile build/b.o object
}

@test "t2120.33 guarded tier: PreToolUse denies a blind Write to a git-tracked file, as the shim refuses a >" {
	tiers_project
	hook SessionStart >/dev/null
	run --separate-stderr tool PreToolUse Write "\"$W/main.c\""
	assert_output "$(deny_json "'$W/main.c'" "$MSG_UNREAD")"
	run --separate-stderr bash_tool 'echo new >main.c'
	assert_failure
	assert_refused main.c unread
	assert_content main.c 'int main;'
}

@test "t2120.34 journaled tier: PreToolUse allows a blind Write to a git-ignored file and keeps its bytes, as the shim does" {
	tiers_project
	hook SessionStart >/dev/null
	run --separate-stderr tool PreToolUse Write "\"$W/app.db\""
	assert_success
	assert_output ""
	printf 'by the Write tool\n' >app.db
	tool PostToolUse Write "\"$W/app.db\""
	run --separate-stderr bash_tool 'echo new >other.db'
	assert_success
	refute_refused
	assert_content other.db new
	run --separate-stderr "$RG" undo --session "$TABLE" app.db other.db
	assert_success
	assert_content app.db rows
	assert_content other.db rows
}

@test "t2120.35 free tier: PreToolUse allows a blind Write to a build output and keeps nothing, as the shim does" {
	tiers_project
	hook SessionStart >/dev/null
	run --separate-stderr tool PreToolUse Write "\"$W/build/a.o\""
	assert_success
	assert_output ""
	run --separate-stderr bash_tool 'echo new >build/b.o'
	assert_success
	refute_refused
	assert_content build/b.o new
	run --separate-stderr "$RG" history --session "$TABLE"
	[ -z "$output" ] || fail "nothing should be kept: $output"
}

@test "t2120.36 a Write to a file replaced since its Read is denied as replaced, and logged so" {
	mkfile a old
	hook SessionStart "{\"session_id\":\"$SID\",\"cwd\":\"$W\"}" --log "$BATS_TEST_TMPDIR/r.log" >/dev/null
	tool PostToolUse Read "\"$W/a\""
	printf 'saved by another program\n' >a.new
	mv a.new a
	run --separate-stderr tool PreToolUse Write "\"$W/a\""
	assert_output --partial "\"permissionDecision\":\"deny\""
	assert_output --partial "readguard: refused to write '$W/a': it was replaced by another file since this session read it (read at "
	grep -q '"path":"'"$W"'/a","decision":"refuse","reason":"replaced"' "$BATS_TEST_TMPDIR/r.log" ||
		fail "$(cat "$BATS_TEST_TMPDIR/r.log")"
}

@test "t2120.65 journaled tier: PreToolUse denies a blind Write to a git-ignored file too large to keep, as the shim refuses a >" {
	tiers_project
	head -c 300K /dev/urandom >big.db
	cp big.db other-big.db
	hook SessionStart "{\"session_id\":\"$SID\",\"cwd\":\"$W\"}" --journal-max-file 100K >/dev/null
	run --separate-stderr tool PreToolUse Write "\"$W/big.db\""
	assert_output "$(deny_json "'$W/big.db'" "${MSG_UNKEPT}it is too large (307200 bytes; --journal-max-file is 102400); a journaled file (one git ignores or a tool owns) is written without a read only once they are. Read it first, then retry.")"
	run --separate-stderr bash_tool 'echo new >other-big.db'
	assert_failure
	assert_refused other-big.db unkept
	cmp big.db other-big.db
}

@test "t2120.60 hook --help says bad usage exits 2, as hook with no event does" {
	run --separate-stderr "$RG" hook --help
	assert_success
	[[ $output == *"Without 'claude-code' and an EVENT, hook exits 2 (bad usage)."* ]] || fail "$output"
	run --separate-stderr "$RG" hook claude-code
	assert_failure 2
}

@test "t2120.61 a Bash tool command that removes the table still guards the whole root, not its directory" {
	mkdir sub other
	mkfile other/unread.txt old
	snapshot "$W/other/unread.txt"
	hook SessionStart >/dev/null
	run --separate-stderr bash_tool 'cd sub && rm -- "$READGUARD_SESSION" && sh -c "echo x >../other/unread.txt"'
	assert_failure
	assert_equal "$(count_rg_lines)" 1
	[[ $stderr == *"refused to write '../other/unread.txt': the session table is unusable (it does not exist"* ]] ||
		fail "stderr lacks the refusal with its reason: $stderr"
	assert_unchanged "$W/other/unread.txt"
}

@test "t2120.63 a Bash tool command that removes the table logs its refusal in the session's log, under its id" {
	mkdir sub other
	mkfile other/unread.txt old
	hook SessionStart >/dev/null
	run --separate-stderr bash_tool '"$RG" status --json >"$OUT/status.json" && cd sub &&
		rm -- "$READGUARD_SESSION" && sh -c "echo x >../other/unread.txt"'
	assert_failure
	assert_equal "$(count_rg_lines)" 1
	local logs=("$XDG_STATE_HOME"/readguard/*.log)
	[ "${#logs[@]}" -eq 1 ] && [ -e "${logs[0]}" ] || fail "not one default log: ${logs[*]}"
	assert_lost_refusal "${logs[0]}" "$W/other/unread.txt" "$(status_id "$OUT/status.json")"
}

@test "t2120.64 hook input that is not JSON is said to be so, and the tool call goes on" {
	mkfile a old
	local ev
	for ev in SessionStart PreToolUse PostToolUse PreCompact; do
		run --separate-stderr hook "$ev" 'session_id=abc-123 file_path=a'
		assert_success
		assert_output ""
		assert_equal "$stderr" "readguard: hook: the hook input on stdin is not a JSON object: nothing done"
	done
	[ ! -s "$CLAUDE_ENV_FILE" ] || fail "exported: $(cat "$CLAUDE_ENV_FILE")"
}

# The table's directory moved away and a table that says a was read put in
# its place, by any program of the user: the Bash tool does not join it.
@test "t2120.66 a Bash tool command does not join a table put in place of the session's" {
	mkfile a old
	mkdir "$OUT/agent"
	READGUARD_DIR="$OUT/agent" hook SessionStart >/dev/null
	(unset LD_PRELOAD READGUARD_SESSION && "$RG" run --session "$OUT/forged" --keep -- "$RG" mark a) ||
		fail "cannot make the planted table"
	mv "$OUT/agent" "$OUT/gone" && mkdir "$OUT/agent" && mv "$OUT/forged" "$OUT/agent/readguard-claude-$SID"
	run --separate-stderr bash_tool 'sh -c "echo new >a"'
	assert_failure
	[[ $stderr == *"the session table is unusable (another file than the session's is at its path"* ]] ||
		fail "stderr lacks the reason: $stderr"
	assert_content a old
}

@test "t2120.67 SessionStart in a subdirectory of a git work tree guards the tree's top" {
	mkdir -p "$W/repo/sub"
	git -C "$W/repo" init -q .
	run --separate-stderr hook SessionStart "{\"session_id\":\"$SID\",\"cwd\":\"$W/repo/sub\",\"source\":\"startup\"}"
	assert_success
	assert_output --partial "Files under $W/repo are guarded by readguard."
	run "$RG" status --session "$TABLE"
	assert_line --regexp "^roots +$W/repo\$"
}

@test "t2120.68 undo with no --session restores a Write of the Claude Code session still running" {
	read_then_write_a
	run --separate-stderr "$RG" undo a
	assert_success
	assert_content a old
}

@test "t2120.69 hook claude-code --help prints the usage on stdout and exits 0, as every verb's --help does" {
	run --separate-stderr "$RG" hook claude-code --help
	assert_success
	assert_output --partial "Usage: readguard hook claude-code EVENT"
	assert_equal "$stderr" ""
}

@test "t2120.70 hook with an unknown option names it as an option, not as an integration" {
	run --separate-stderr "$RG" hook --bogus
	assert_failure 2
	assert_equal "$stderr" "readguard: hook: unrecognized option '--bogus'
Try 'readguard hook --help'."
}

# claude_exits: Claude Code (CLAUDE_PID) is gone, as after /exit.
claude_exits() {
	kill "$CLAUDE_PID"
	wait "$CLAUDE_PID" 2>/dev/null || true
}

@test "t2120.71 sessions lists a running Claude Code hook session, marked as the hook's" {
	hook SessionStart >/dev/null
	run --separate-stderr "$RG" sessions
	assert_success
	assert_output --regexp "^$TABLE  running  pid $CLAUDE_PID  since [0-9-]+T[0-9:.]+Z  root $W  claude-code hook$"
	run --separate-stderr "$RG" sessions --json
	assert_output --partial "{\"session\":\"$TABLE\",\"state\":\"running\",\"hook\":\"claude-code\","
}

@test "t2120.72 sessions --prune keeps a hook session's table while Claude Code runs, and removes it once it is gone" {
	hook SessionStart >/dev/null
	run --separate-stderr "$RG" sessions --prune
	assert_success
	assert_exist "$TABLE"
	claude_exits
	run --separate-stderr "$RG" sessions --prune
	assert_success
	assert_line "removed $TABLE"
	assert_not_exist "$TABLE"
}

@test "t2120.73 sessions --prune keeps a hook session's table while a Bash tool command of it runs after Claude Code is gone" {
	hook SessionStart >/dev/null
	bash_tool "sleep 600 >/dev/null 2>&1 </dev/null & echo \$! >'$BATS_TEST_TMPDIR/bg'"
	claude_exits
	run --separate-stderr "$RG" sessions
	assert_output --partial "$TABLE  running  pid $CLAUDE_PID"
	"$RG" sessions --prune
	assert_exist "$TABLE"
	kill "$(cat "$BATS_TEST_TMPDIR/bg")"
}

@test "t2120.74 the next conversation's SessionStart removes the table of one whose Claude Code is gone" {
	hook SessionStart >/dev/null
	claude_exits
	sleep 600 &
	CLAUDE_PID=$!
	hook SessionStart "{\"session_id\":\"other\",\"cwd\":\"$W\",\"source\":\"startup\"}" >/dev/null
	assert_not_exist "$TABLE"
	assert_exist "$TABLES/readguard-claude-other"
}

@test "t2120.75 a new readguard session's start removes the table of a conversation whose Claude Code is gone" {
	hook SessionStart >/dev/null
	claude_exits
	"$RG" run -- true
	assert_not_exist "$TABLE"
}

@test "t2120.76 a resumed conversation whose Claude Code was gone keeps its table and its reads" {
	mkfile a old
	hook SessionStart >/dev/null
	bash_tool 'cat a >/dev/null'
	claude_exits
	sleep 600 &
	CLAUDE_PID=$!
	: >"$CLAUDE_ENV_FILE"
	hook SessionStart "{\"session_id\":\"$SID\",\"cwd\":\"$W\",\"source\":\"resume\"}" >/dev/null
	run --separate-stderr "$RG" sessions
	assert_output --partial "$TABLE  running  pid $CLAUDE_PID "
	bash_tool 'echo new >a'
	assert_content a new
}

@test "t2120.77 status with no --session finds the running Claude Code hook session" {
	hook SessionStart >/dev/null
	run --separate-stderr env -u READGUARD_SESSION "$RG" status --json
	assert_success
	assert_output --partial "\"session\":\"$TABLE\""
}

@test "t2120.78 a second Claude Code on the same conversation owns its table once the first is gone" {
	hook SessionStart >/dev/null
	local first=$CLAUDE_PID
	sleep 600 &
	CLAUDE_PID=$!
	kill "$first"
	wait "$first" 2>/dev/null || true
	mkfile a old
	tool PostToolUse Read "\"$W/a\"" >/dev/null
	run --separate-stderr "$RG" status --json --session "$TABLE"
	assert_output --partial "\"running\":true,\"pid\":$CLAUDE_PID,"
	"$RG" sessions --prune
	assert_exist "$TABLE"
}

@test "t2120.79 once a hook session's table is pruned, undo by its id asks for --force, which restores the Write" {
	read_then_write_a
	local id
	id=$("$RG" sessions --json | sed -n 's/.*"id":"\([^"]*\)".*/\1/p')
	[ -n "$id" ] || fail "no id listed"
	claude_exits
	"$RG" sessions --prune >/dev/null
	assert_not_exist "$TABLE"
	run --separate-stderr "$RG" undo --session "$id" a
	assert_failure 1
	[[ $stderr == *"its table is gone: undo cannot tell"*"--force"* ]] || fail "$stderr"
	assert_content a "by the Write tool"
	run --separate-stderr "$RG" undo --force --session "$id" a
	assert_success
	assert_content a old
}

# SessionEnd: what Claude Code leaves, recorded as a run's end records it.
end_then_prune() {
	hook SessionEnd "{\"session_id\":\"$SID\",\"cwd\":\"$W\",\"hook_event_name\":\"SessionEnd\",\"reason\":\"prompt_input_exit\"}"
	claude_exits
	"$RG" sessions --prune >/dev/null
	assert_not_exist "$TABLE"
}

@test "t2120.80 after SessionEnd, undo of a pruned hook session restores the Write without --force" {
	read_then_write_a
	local id
	id=$("$RG" sessions --json | sed -n 's/.*"id":"\([^"]*\)".*/\1/p')
	end_then_prune
	run --separate-stderr "$RG" undo --session "$id" a
	assert_success
	assert_content a old
}

@test "t2120.81 after SessionEnd, an edit made once Claude Code is gone is not undone without --force" {
	read_then_write_a
	local id
	id=$("$RG" sessions --json | sed -n 's/.*"id":"\([^"]*\)".*/\1/p')
	end_then_prune
	printf 'by hand, later\n' >a
	run --separate-stderr "$RG" undo --session "$id" a
	assert_failure 1
	[[ $stderr == *"changed after"* ]] || fail "$stderr"
	assert_content a "by hand, later"
}

@test "t2120.82 SessionEnd keeps the table, and its reads, for claude --resume" {
	read_then_write_a
	hook SessionEnd "{\"session_id\":\"$SID\",\"cwd\":\"$W\",\"hook_event_name\":\"SessionEnd\",\"reason\":\"other\"}"
	assert_exist "$TABLE"
	run --separate-stderr tool PreToolUse Write "\"$W/a\""
	assert_success
	assert_output ""
}

@test "t2120.83 SessionEnd of a conversation whose session was never started does nothing" {
	run --separate-stderr hook SessionEnd
	assert_success
	assert_output ""
	[ -z "$stderr" ] || fail "stderr: $stderr"
	assert_not_exist "$TABLE"
}

@test "t2120.84 a Write of the session's own table is denied as sealed, as the shim refuses it to a shell" {
	hook SessionStart >/dev/null
	run --separate-stderr tool PreToolUse Write "\"$TABLE\""
	assert_success
	assert_output --partial '"permissionDecision":"deny"'
	assert_output --partial "this session's own table"
}

@test "t2120.85 a Write after a Bash command removed the session's table goes on, and says so (documented)" {
	mkfile a old
	hook SessionStart >/dev/null
	bash_tool "rm -f '$TABLE'"
	run --separate-stderr tool PreToolUse Write "\"$W/a\""
	assert_success
	assert_output ""
	[[ $stderr == *"did the SessionStart hook run?"* ]] || fail "$stderr"
	run --separate-stderr bash_tool 'echo new >a'
	assert_failure
	assert_content a old
}

# hook_log DAYS: the hook session's default log, as status names it, made
# DAYS days old; its path in $L.
hook_log() {
	L=$("$RG" status --session "$TABLE" | sed -n 's/^log  *//p')
	assert_equal "$L" "$XDG_STATE_HOME/readguard/readguard-claude-$SID.log"
	printf '{"decision":"refuse"}\n' >>"$L"
	touch -d "$1 days ago" "$L"
}

@test "t2120.86 sessions --prune removes a hook session's old default log once Claude Code is gone, as a run's" {
	hook SessionStart >/dev/null
	hook_log 40
	claude_exits
	run --separate-stderr "$RG" sessions --prune
	assert_success
	assert_line "removed $L"
	assert_not_exist "$L"
}

@test "t2120.87 sessions --prune keeps a hook session's old default log while Claude Code runs" {
	hook SessionStart >/dev/null
	hook_log 400
	run --separate-stderr "$RG" sessions --prune
	assert_success
	assert_exist "$L"
}

@test "t2120.88 sessions --prune keeps a hook session's default log changed within READGUARD_JOURNAL_DAYS" {
	hook SessionStart >/dev/null
	hook_log 10
	claude_exits
	run --separate-stderr "$RG" sessions --prune
	assert_success
	assert_exist "$L"
}

@test "t2120.89 a Write after a Bash command put a FIFO in the session's table's place goes on, says so, and does not hang (documented)" {
	mkfile a old
	hook SessionStart >/dev/null
	bash_tool "rm -f '$TABLE' && mkfifo '$TABLE'"
	run --separate-stderr timeout 20 bash -c "$(declare -f hook tool); SID=$SID W=$W RG=$RG tool PreToolUse Write '\"$W/a\"'"
	assert_success
	assert_output ""
	[[ $stderr == *"did the SessionStart hook run?): it is not a regular file"* ]] || fail "$stderr"
	run --separate-stderr timeout 20 bash -c "$(declare -f bash_tool); CLAUDE_ENV_FILE=$CLAUDE_ENV_FILE BATS_TEST_TMPDIR=$BATS_TEST_TMPDIR bash_tool 'echo new >a'"
	assert_failure
	assert_content a old
}

# The Bash tool's shell has READGUARD_SESSION too: an `end` the model runs
# there removed the conversation's table, and every later Bash command then
# failed closed, its reads counting for nothing.
@test "t2120.90 end in the Bash tool's shell leaves the conversation's session running" {
	mkfile a old
	hook SessionStart >/dev/null
	run --separate-stderr bash_tool '"$RG" end; echo "end=$?"'
	assert_output 'end=2'
	[[ $stderr == "readguard: end: this shell is in the session of Claude Code's hooks, pid $CLAUDE_PID, which ends when Claude Code exits"* ]] ||
		fail "$stderr"
	assert_file_exist "$TABLE"
	bash_tool 'cat a >/dev/null; echo new >a'
	assert_content a new
}
