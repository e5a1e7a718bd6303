#!/usr/bin/env bats
# The real Claude Code (npm @anthropic-ai/claude-code, its native Linux
# build) under the recommended setup: the shipped hooks, `claude` started
# normally. `claude -p` talks to a scripted fake Messages API on loopback
# (fixtures/fake-messages-api.py), which plays the model's tool calls and
# records what the model was sent back.

load helper
load cli_helper

CACHE="$TOP/build/cache"
# The version whose behaviour readguard's hooks were written against.
CLAUDE_VERSION=2.1.328
API="$TOP/tests/e2e/fixtures/fake-messages-api.py"

setup() {
	common_setup
	local arch
	case $(uname -m) in
	x86_64) arch=x64 ;;
	aarch64) arch=arm64 ;;
	*) skip "Claude Code has no Linux build for $(uname -m)" ;;
	esac
	CLAUDE=$("$TOP/scripts/dev/fetch-npm-binary.sh" \
		"@anthropic-ai/claude-code-linux-$arch@$CLAUDE_VERSION" claude "$CACHE" 2>&1) ||
		skip "Claude Code unavailable: the npm registry cannot be reached ($CLAUDE)"
	export HOME="$BATS_TEST_TMPDIR/home" TMPDIR="$BATS_TEST_TMPDIR/tmp"
	export READGUARD_DIR="$BATS_TEST_TMPDIR/tables"
	mkdir -p "$HOME/.claude" "$TMPDIR" "$READGUARD_DIR"
	cp "$TOP/scripts/share/integrations/claude-code/settings.json" "$HOME/.claude/settings.json"
	API_PID=
}

teardown() {
	if [ -n "$API_PID" ]; then
		kill "$API_PID" 2>/dev/null || true
		wait "$API_PID" 2>/dev/null || true
	fi
	common_teardown
}

# play SCRIPT_JSON: the model makes these tool calls, turn by turn; claude
# runs them. Leaves claude's status in $status and what the model was sent
# back for each call in $BATS_TEST_TMPDIR/results (one JSON line each).
play() {
	local port="$BATS_TEST_TMPDIR/port" reqs="$BATS_TEST_TMPDIR/requests"
	printf '%s' "$1" >"$BATS_TEST_TMPDIR/script.json"
	python3 "$API" "$BATS_TEST_TMPDIR/script.json" "$port" "$reqs" 150 &
	API_PID=$!
	for _ in $(seq 100); do [ -s "$port" ] && break; sleep 0.1; done
	[ -s "$port" ] || fail "the fake Messages API did not start"
	# readguard on PATH, as the shipped settings.json expects.
	run --separate-stderr env PATH="$BATS_TEST_TMPDIR/bin:$TOP/build:$PATH" \
		ANTHROPIC_BASE_URL="http://127.0.0.1:$(cat "$port")" ANTHROPIC_API_KEY=test \
		IS_SANDBOX=1 DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1 DISABLE_ERROR_REPORTING=1 \
		CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 \
		timeout 120 "$CLAUDE" -p "do it" --output-format json --dangerously-skip-permissions
	python3 -c '
import json, sys
last = None
for line in open(sys.argv[1]):
    body = json.loads(line)["body"]
    if any(t.get("name") == "Bash" for t in body.get("tools") or []):
        last = body
for m in last["messages"]:
    for b in m["content"] if isinstance(m["content"], list) else []:
        if b.get("type") == "tool_result":
            c = b["content"]
            if isinstance(c, list):
                c = "".join(x.get("text", "") for x in c)
            print(json.dumps({"id": b["tool_use_id"], "error": bool(b.get("is_error")), "text": c}))
' "$reqs" >"$BATS_TEST_TMPDIR/results" || fail "no conversation recorded: $output $stderr"
}

# result N: what the model was sent back for its N-th tool call (0-based turn).
result() {
	python3 -c '
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["id"] == "toolu_%s_0" % sys.argv[2]:
        print(r["text"])' "$BATS_TEST_TMPDIR/results" "$1"
}

bash_call() {
	printf '{"name":"Bash","input":{"command":"%s","description":"step"}}' "$1"
}

@test "t2125.01 a blind > in the Bash tool is refused, and the model is told why" {
	mkfile notes.txt original
	play "[[$(bash_call 'echo blind > notes.txt')]]"
	assert_success
	assert_content notes.txt original
	run result 0
	assert_output --partial "readguard: refused to write 'notes.txt': $MSG_UNREAD"
	assert_output --partial "notes.txt: Permission denied"
}

@test "t2125.02 a blind > on a modified tracked file of a git repository is refused too" {
	git init -q . && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m 0
	mkfile notes.txt original
	git add notes.txt && git -c user.name=t -c user.email=t@t commit -q -m 1
	external_write notes.txt "uncommitted work"
	# Claude Code's own git runs, logged, to see that it did snapshot the tree.
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\necho "$*" >>"%s"\nexec %s "$@"\n' "$BATS_TEST_TMPDIR/git.log" "$(command -v git)" \
		>"$BATS_TEST_TMPDIR/bin/git"
	chmod +x "$BATS_TEST_TMPDIR/bin/git"
	play "[[$(bash_call 'echo blind > notes.txt')]]"
	assert_success
	assert_content notes.txt "uncommitted work"
	grep -q 'update-index --add --remove -z --stdin' "$BATS_TEST_TMPDIR/git.log" ||
		fail "Claude Code took no git snapshot of the tree: $(cat "$BATS_TEST_TMPDIR/git.log")"
	run result 0
	assert_output --partial "readguard: refused to write 'notes.txt': $MSG_UNREAD"
}

@test "t2125.03 a cat in the Bash tool, then a > in it, is allowed" {
	mkfile notes.txt original
	play "[[$(bash_call 'cat notes.txt')],[$(bash_call 'echo informed > notes.txt')]]"
	assert_success
	assert_content notes.txt informed
	run result 0
	assert_output original
	run result 1
	refute_output --partial readguard
}

@test "t2125.04 a blind Write and a blind Edit are denied, with the reason shown" {
	mkfile notes.txt original
	play "[[{\"name\":\"Write\",\"input\":{\"file_path\":\"$W/notes.txt\",\"content\":\"blind\\n\"}}],
		[{\"name\":\"Edit\",\"input\":{\"file_path\":\"$W/notes.txt\",\"old_string\":\"original\",\"new_string\":\"blind\"}}]]"
	assert_success
	assert_content notes.txt original
	run result 0
	assert_output --partial "readguard: refused to write '$W/notes.txt': $MSG_UNREAD"
	run result 1
	assert_output --partial "readguard: refused to write '$W/notes.txt': $MSG_UNREAD"
}

@test "t2125.05 Read then Write, and Read then Edit, are allowed" {
	mkfile notes.txt original
	mkfile other.txt other
	play "[[{\"name\":\"Read\",\"input\":{\"file_path\":\"$W/notes.txt\"}}],
		[{\"name\":\"Write\",\"input\":{\"file_path\":\"$W/notes.txt\",\"content\":\"written\\n\"}}],
		[{\"name\":\"Read\",\"input\":{\"file_path\":\"$W/other.txt\"}}],
		[{\"name\":\"Edit\",\"input\":{\"file_path\":\"$W/other.txt\",\"old_string\":\"other\",\"new_string\":\"edited\"}}],
		[{\"name\":\"Edit\",\"input\":{\"file_path\":\"$W/other.txt\",\"old_string\":\"edited\",\"new_string\":\"edited twice\"}}]]"
	assert_success
	assert_content notes.txt written
	assert_content other.txt "edited twice"
	for i in 1 3 4; do
		run result $i
		refute_output --partial readguard
	done
}

@test "t2125.09 readguard undo brings back what the real Write tool overwrote" {
	mkfile notes.txt original
	play "[[{\"name\":\"Read\",\"input\":{\"file_path\":\"$W/notes.txt\"}}],
		[{\"name\":\"Write\",\"input\":{\"file_path\":\"$W/notes.txt\",\"content\":\"written\\n\"}}]]"
	assert_success
	assert_content notes.txt written
	run --separate-stderr "$RG" undo --session "$(echo "$READGUARD_DIR"/readguard-claude-*)" notes.txt
	assert_success
	assert_content notes.txt original
}

@test "t2125.06 without the hooks the same blind > goes through (the control of these tests)" {
	rm "$HOME/.claude/settings.json"
	mkfile notes.txt original
	play "[[$(bash_call 'echo blind > notes.txt')]]"
	assert_success
	assert_content notes.txt blind
}

@test "t2125.07 Read unlocks a > in the Bash tool, and a Bash cat unlocks a Write: one table" {
	mkfile a.txt a
	mkfile b.txt b
	play "[[{\"name\":\"Read\",\"input\":{\"file_path\":\"$W/a.txt\"}}],
		[$(bash_call 'echo from-bash > a.txt && cat b.txt')],
		[{\"name\":\"Write\",\"input\":{\"file_path\":\"$W/b.txt\",\"content\":\"from-write\\n\"}}]]"
	assert_success
	assert_content a.txt from-bash
	assert_content b.txt from-write
	run result 2
	refute_output --partial readguard
}

@test "t2125.08 the session runs as long as claude does, not as long as the hook's sh" {
	play "[[$(bash_call 'readguard status --json')]]"
	assert_success
	run result 0
	assert_output --partial '"running":true'
	assert_output --partial "\"roots\":[\"$W\"]"
}
