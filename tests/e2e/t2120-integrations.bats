#!/usr/bin/env bats
# Integrations: the Claude Code hooks and an MCP filesystem server.

load helper
load cli_helper

HOOK="$TOP/scripts/share/integrations/claude-code/readguard-claude-hook"
MCP="$TOP/tests/e2e/fixtures/mcp-fs-server.py"

setup() {
	common_setup
	cli_setup
	export READGUARD="$RG" CLAUDE_ENV_FILE="$BATS_TEST_TMPDIR/claude.env"
	: >"$CLAUDE_ENV_FILE"
}

# hook EVENT [SOURCE]: run the Claude Code hook as Claude Code would.
hook() {
	printf '{"session_id":"abc-123","cwd":"%s","hook_event_name":"x","source":"%s"}' \
		"$W" "${2:-startup}" | "$HOOK" "$1"
}

# bash_tool SCRIPT: a Bash tool call, with the variables the hooks exported.
bash_tool() {
	bash -c "source '$CLAUDE_ENV_FILE'; $1"
}

@test "t2120.01 SessionStart exports a session that guards the Bash tool's commands" {
	mkfile a old
	run --separate-stderr hook session-start
	assert_success
	assert_output --partial "Shell commands run under readguard"
	run --separate-stderr bash_tool 'sh -c "echo new >a"'
	assert_failure
	assert_refused a unread
	bash_tool 'cat a >/dev/null; sh -c "echo new >a"'
	assert_content a new
}

@test "t2120.02 PreCompact makes the agent read again before it writes" {
	mkfile a old
	hook session-start >/dev/null
	bash_tool 'cat a >/dev/null'
	run --separate-stderr hook pre-compact
	assert_success
	run --separate-stderr bash_tool 'sh -c "echo new >a"'
	assert_refused a unread
}

@test "t2120.03 a resumed conversation joins its session and keeps its reads" {
	mkfile a old
	hook session-start >/dev/null
	bash_tool 'cat a >/dev/null'
	: >"$CLAUDE_ENV_FILE"
	hook session-start resume >/dev/null
	bash_tool 'sh -c "echo new >a"'
	assert_content a new
}

@test "t2120.04 SessionStart after /clear forgets the reads" {
	mkfile a old
	hook session-start >/dev/null
	bash_tool 'cat a >/dev/null'
	hook session-start clear >/dev/null
	run --separate-stderr bash_tool 'sh -c "echo new >a"'
	assert_refused a unread
}

@test "t2120.05 without CLAUDE_ENV_FILE the hook explains and does not block" {
	unset CLAUDE_ENV_FILE
	run --separate-stderr hook session-start
	assert_success
	[[ $stderr == *"CLAUDE_ENV_FILE is not set"* ]] || fail "$stderr"
}

@test "t2120.06 a hook input without a usable session id is reported, not fatal" {
	run --separate-stderr "$HOOK" session-start <<<'{"session_id":"../../etc"}'
	assert_success
	[[ $stderr == *"no usable session_id"* ]] || fail "$stderr"
	[ ! -s "$CLAUDE_ENV_FILE" ] || fail "exported: $(cat "$CLAUDE_ENV_FILE")"
}

@test "t2120.08 under readguard run the hooks use the session Claude Code runs in" {
	mkfile a old
	run --separate-stderr "$RG" run -- bash -c '
		printf "{\"session_id\":\"s1\",\"cwd\":\"%s\"}" "$PWD" |
			"$0" session-start >/dev/null
		grep -q "READGUARD_SESSION=.$READGUARD_SESSION.;" "$CLAUDE_ENV_FILE" || exit 7
		cat a >/dev/null
		printf "{\"session_id\":\"s1\"}" | "$0" pre-compact
		echo new >a' "$HOOK"
	assert_failure
	[ "$status" -ne 7 ] || fail "the hook exported another session: $(cat "$CLAUDE_ENV_FILE")"
	assert_refused a unread
}

@test "t2120.07 an MCP filesystem server under readguard run refuses a blind write, then allows it after a read" {
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
