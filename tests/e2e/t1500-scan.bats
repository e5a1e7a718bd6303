#!/usr/bin/env bats
# What counts as a read (issue 17): a process that reads more than
# --scan-files files (default 8) within --scan-window (default 1 s) is
# scanning; its reads unlock writes by it and its descendants only. A look
# at a few files, or reads one at a time, still counts for the whole session.

load helper

MSG_SCANNED="it was only scanned by"

# tree N: src/f1.c .. src/fN.c, each holding its own name, with old mtimes.
tree() {
	mkdir -p src
	for i in $(seq 1 "$1"); do mkfile "src/f$i.c" "int f$i = 1; /* zzz */"; done
}

# assert_scanned PATH PROG: one refusal, naming PROG as the scanner of PATH.
assert_scanned() {
	assert_refused "$1" any
	[[ $stderr == *"refused to write '$1': $MSG_SCANNED \`$2\` (pid "* ]] ||
		fail "not refused as scanned by $2: $stderr"
}

setup_repo() {
	export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com
	export GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
	export GIT_CONFIG_NOSYSTEM=1 HOME="$BATS_TEST_TMPDIR/home"
	mkdir -p "$HOME"
	git init -q -b main .
	git config core.editor true
	echo readguard.log >>.git/info/exclude
	tree 20
	git add -A && git commit -qm initial
}

# stat_dirty: same bytes, new mtimes, so git must read every file to tell.
stat_dirty() {
	touch src/*.c
}

BLIND='echo PWN > src/f7.c'

@test "t1500.01 a blind write after grep -r is refused as scanned by grep" {
	tree 20
	snapshot src/f7.c
	run --separate-stderr rgsh "grep -r zzz . >/dev/null; $BLIND"
	assert_failure
	assert_scanned src/f7.c grep
	assert_unchanged src/f7.c
}

@test "t1500.02 a blind write after rg is refused as scanned by rg" {
	command -v rg >/dev/null || skip "ripgrep is not installed (Debian: ripgrep)"
	tree 20
	run --separate-stderr rgsh "command rg -j1 zzz . >/dev/null; $BLIND"
	assert_failure
	assert_refused src/f7.c any
	[[ $stderr == *"$MSG_SCANNED"* ]] || fail "$stderr"
	assert_content src/f7.c "int f7 = 1; /* zzz */"
}

@test "t1500.03 a blind write after git add -A is refused as scanned by git" {
	setup_repo
	for i in $(seq 21 40); do mkfile "src/f$i.c" "int f$i;"; done
	run --separate-stderr rgsh "git add -A; echo PWN > src/f30.c"
	assert_failure
	assert_scanned src/f30.c git
	assert_content src/f30.c "int f30;"
}

@test "t1500.04 a blind write after git status is refused as scanned by git" {
	setup_repo
	stat_dirty
	run --separate-stderr rgsh "git status --porcelain; $BLIND"
	assert_failure
	assert_scanned src/f7.c git
}

@test "t1500.05 a blind write after git diff is refused as scanned by git" {
	setup_repo
	stat_dirty
	run --separate-stderr rgsh "git diff --stat; $BLIND"
	assert_failure
	assert_scanned src/f7.c git
}

@test "t1500.06 a blind write after find | xargs grep is refused as scanned by grep" {
	tree 20
	run --separate-stderr rgsh "find . -name '*.c' | xargs grep -l zzz >/dev/null; $BLIND"
	assert_failure
	assert_scanned src/f7.c grep
}

# A C project whose units include their headers, as real ones do.
c_project() {
	mkdir -p inc
	local i j
	for i in $(seq 1 10); do mkfile "inc/h$i.h" "int h$i(void);"; done
	for i in 1 2 3; do
		{
			for j in $(seq 1 10); do echo "#include \"h$j.h\""; done
			echo "int u$i(void) { return h1 != 0; }"
		} >"u$i.c"
	done
	echo 'int main(void) { return 0; }' >>u1.c
	cat >Makefile <<'MK'
prog: u1.o u2.o u3.o
	$(CC) -o $@ $^
%.o: %.c
	$(CC) -Iinc -c -o $@ $<
MK
	make_old Makefile u*.c inc/*
}

@test "t1500.07 a blind write after make is refused as scanned by the compiler" {
	c_project
	snapshot inc/h4.h u2.c
	run --separate-stderr rgsh "make -s >/dev/null; echo PWN > inc/h4.h"
	assert_failure
	assert_refused inc/h4.h any
	[[ $stderr == *"$MSG_SCANNED \`cc1\`"* ]] || fail "$stderr"
	run --separate-stderr rgsh "make -s -B >/dev/null; echo PWN > u2.c"
	assert_failure
	assert_scanned u2.c cc1
	assert_unchanged inc/h4.h u2.c
}

@test "t1500.08 make rebuilding its own outputs keeps working" {
	c_project
	run --separate-stderr rgsh "set -e; make -s; touch inc/h2.h; make -s; make -s -B -j2; ./prog"
	assert_success
	refute_refused
}

# PY: a python3 that has pytest (Debian's python3-pytest), or skip.
need_pytest() {
	PY=/usr/bin/python3
	[ -x "$PY" ] || PY=$(command -v python3)
	"$PY" -c 'import pytest' 2>/dev/null || skip "pytest is not installed (Debian: python3-pytest)"
}

@test "t1500.09 a blind write after python -m pytest is refused as scanned by python" {
	need_pytest
	mkdir tests
	for i in $(seq 1 6); do
		mkfile "mod$i.py" "V = $i"
		printf 'import mod%d\n\ndef test_%d():\n    assert mod%d.V == %d\n' "$i" "$i" "$i" "$i" >"tests/test_$i.py"
	done
	make_old tests/*.py
	run --separate-stderr rgsh "'$PY' -m pytest -q -p no:cacheprovider tests >/dev/null; echo PWN > mod3.py"
	assert_failure
	assert_refused mod3.py any
	[[ $stderr == *"$MSG_SCANNED"* ]] || fail "$stderr"
	assert_content mod3.py "V = 3"
}

@test "t1500.10 sed -i over many files it scanned goes through" {
	tree 30
	run --separate-stderr rgsh 'sed -i s/zzz/yyy/ src/*.c'
	assert_success
	refute_refused
	assert_content src/f30.c "int f30 = 1; /* yyy */"
}

@test "t1500.11 perl -pi over many files goes through" {
	tree 30
	run --separate-stderr rgsh 'perl -pi -e s/zzz/ppp/ src/*.c'
	assert_success
	refute_refused
	assert_content src/f1.c "int f1 = 1; /* ppp */"
}

@test "t1500.12 a python script that reads then rewrites 60 files goes through" {
	tree 60
	run --separate-stderr rgsh "python3 -c '
import glob
for p in sorted(glob.glob(\"src/*.c\")):
    s = open(p).read()
    open(p, \"w\").write(s.replace(\"zzz\", \"qqq\"))
'"
	assert_success
	refute_refused
	assert_content src/f60.c "int f60 = 1; /* qqq */"
}

@test "t1500.13 grep -rl | xargs sed -i: the last scanner writes what it scanned" {
	tree 20
	run --separate-stderr rgsh 'grep -rl zzz src | xargs sed -i s/zzz/yyy/'
	assert_success
	refute_refused
	assert_content src/f20.c "int f20 = 1; /* yyy */"
}

@test "t1500.14 a scanner's children write what it scanned; its siblings do not" {
	tree 20
	run --separate-stderr rgsh "python3 -c '
import glob, subprocess
for p in glob.glob(\"src/*.c\"):
    open(p).read()
subprocess.run([\"sh\", \"-c\", \"echo child > src/f1.c\"], check=True)
'; $BLIND"
	assert_failure
	assert_scanned src/f7.c python3
	assert_content src/f1.c child
}

@test "t1500.15 git checkout, rebase and stash after a scan keep working" {
	setup_repo
	run --separate-stderr rgsh "set -e
		grep -r zzz . >/dev/null
		git checkout -q -b feature
		sed -i s/zzz/feature/ src/f1.c && git commit -qam feature
		git checkout -q main
		sed -i s/zzz/main/ src/f2.c && git commit -qam main
		git checkout -q feature && git rebase -q main
		sed -i s/zzz/wip/ src/f3.c && git stash -q && git stash pop -q
		git commit -qam wip
		git status --porcelain"
	assert_success
	refute_refused
	assert_content src/f3.c "int f3 = 1; /* wip */"
	assert_equal "$(git log --format=%s | tr '\n' ' ')" "wip feature main initial "
}

@test "t1500.16 npm install of a local package after a scan goes through" {
	command -v npm >/dev/null || skip "npm is not installed"
	tree 20
	mkdir fixture-pkg
	printf '{"name":"fixture-pkg","version":"1.0.0","main":"index.js"}\n' >fixture-pkg/package.json
	printf 'module.exports = 42;\n' >fixture-pkg/index.js
	export npm_config_cache="$BATS_TEST_TMPDIR/npm-cache" npm_config_offline=true
	export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
	export HOME="$BATS_TEST_TMPDIR/home" && mkdir -p "$HOME"
	run --separate-stderr rgsh "set -e; grep -r zzz . >/dev/null
		for i in 1 2; do npm init -y >/dev/null && npm install --no-progress ./fixture-pkg >/dev/null; done
		node -e 'process.exit(require(\"fixture-pkg\") === 42 ? 0 : 1)'"
	assert_success
	refute_refused
}

@test "t1500.17 a viewer reading a file every quarter second has a child write two of them" {
	tree 20
	run --separate-stderr rgsh "python3 -c '
import subprocess, time
for i in range(1, 21):
    open(\"src/f%d.c\" % i).read()
    time.sleep(0.25)
subprocess.run([\"sh\", \"-c\", \"echo a > src/f3.c; echo b > src/f17.c\"], check=True)
'; echo sibling > src/f9.c"
	assert_success
	refute_refused
	assert_content src/f3.c a
	assert_content src/f17.c b
	assert_content src/f9.c sibling
}

@test "t1500.18 an MCP server reading many files one by one writes one of them" {
	tree 20
	local req='{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"bats","version":"0"}}}' i
	for i in $(seq 1 20); do
		req+=$'\n''{"jsonrpc":"2.0","id":'$i',"method":"tools/call","params":{"name":"read_file","arguments":{"path":"src/f'$i'.c"}}}'
	done
	req+=$'\n''{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"src/f12.c","content":"edited"}}}'
	run --separate-stderr "$RG" run --log "$LOG" -- python3 "$TOP/tests/e2e/fixtures/mcp-fs-server.py" <<<"$req"
	assert_success
	refute_refused
	[[ $output != *'"isError": true'* && $output != *'"isError":true'* ]] || fail "$output"
	assert_content src/f12.c edited
}

@test "t1500.19 cat of a few files counts for the whole session" {
	tree 3
	run --separate-stderr rgsh 'cat src/f1.c src/f2.c src/f3.c >/dev/null; echo x > src/f2.c'
	assert_success
	refute_refused
	assert_content src/f2.c x
}

@test "t1500.20 a look after a scan counts for the whole session" {
	tree 20
	run --separate-stderr rgsh "grep -r zzz . >/dev/null; cat src/f7.c >/dev/null; $BLIND"
	assert_success
	refute_refused
	assert_content src/f7.c PWN
}

@test "t1500.21 a scan never takes back another process's look" {
	tree 20
	run --separate-stderr rgsh "cat src/f1.c >/dev/null; grep -r zzz src >/dev/null; echo x > src/f1.c"
	assert_success
	refute_refused
	assert_content src/f1.c x
}

@test "t1500.22 the first reads of a burst count as scanned too" {
	tree 20
	run rgsh "python3 -c '
for i in range(1, 21):
    open(\"src/f%d.c\" % i).read()
'; '$RG' check src/f1.c src/f2.c src/f9.c src/f20.c"
	assert_failure 1
	assert_line --partial "refused to write 'src/f1.c': $MSG_SCANNED \`python3\`"
	assert_line --partial "refused to write 'src/f2.c': $MSG_SCANNED"
	assert_line --partial "refused to write 'src/f9.c': $MSG_SCANNED"
	assert_line --partial "refused to write 'src/f20.c': $MSG_SCANNED"
}

@test "t1500.23 status --files shows scans, check explains them" {
	tree 20
	run rgsh "grep -r zzz src >/dev/null; cat src/f5.c >/dev/null; '$RG' status --files; '$RG' check src/f5.c src/f6.c"
	assert_failure 1
	assert_line --regexp "^scanned .*src/f6.c$"
	assert_line --regexp "^read .*src/f5.c$"
	assert_line "allowed to write 'src/f5.c': it was read in this session and has not changed since."
	assert_line --regexp "^refused to write 'src/f6.c': $MSG_SCANNED \`grep\` \(pid [0-9]+, one of many files read at once\)\. Read it to write it, then retry\.$"
	assert_output --partial "scan        more than 8 files within 1.000 s"
}

@test "t1500.24 a refusal after a scan is logged with reason scanned" {
	tree 20
	run rgsh "grep -r zzz src >/dev/null; $BLIND"
	assert_failure
	grep -q '"reason":"scanned"' "$LOG" || fail "$(cat "$LOG")"
}

@test "t1500.25 --scan-files 0 makes every read count, as before" {
	tree 20
	run --separate-stderr "$RG" run --scan-files 0 --log "$LOG" -- bash -c "grep -r zzz . >/dev/null; $BLIND"
	assert_success
	refute_refused
}

@test "t1500.26 --scan-files and --scan-window set the pace" {
	tree 6
	run --separate-stderr "$RG" run --scan-files 3 --scan-window 5 --log "$LOG" -- \
		bash -c "cat src/f1.c src/f2.c src/f3.c src/f4.c >/dev/null; echo x > src/f4.c"
	assert_failure
	assert_scanned src/f4.c cat
}

@test "t1500.27 bad scan settings are refused with a reason" {
	run --separate-stderr "$RG" run --scan-files 64 -- true
	assert_failure 125
	[[ $stderr == *"--scan-files '64': expected a number of files from 0 to 63"* ]] || fail "$stderr"
	run --separate-stderr "$RG" run --scan-files=-1 -- true
	assert_failure 125
	run --separate-stderr "$RG" run --scan-window 0 -- true
	assert_failure 125
	[[ $stderr == *"--scan-window '0': expected a number of seconds"* ]] || fail "$stderr"
}

@test "t1500.28 a write by a process whose scanner has exited is refused" {
	tree 20
	# The scanner's child outlives it and is handed to a reaper: its line no
	# longer reaches the scanner, so its scan does not unlock the write.
	# The child writes once the scanner is gone; the session waits for it.
	run --separate-stderr rgsh "python3 -c '
import glob, os, subprocess
for p in glob.glob(\"src/*.c\"):
    open(p).read()
subprocess.Popen([\"sh\", \"-c\", \"while kill -0 \$0 2>/dev/null; do sleep 0.05; done; echo orphan > src/f7.c; : >\\\"\$OUT/wrote\\\"\", str(os.getpid())])
'; for i in \$(seq 400); do [ -e \"\$OUT/wrote\" ] && break; sleep 0.05; done"
	[[ $stderr == *"refused to write 'src/f7.c': $MSG_SCANNED \`python3\`"* ]] || fail "$stderr"
	assert_content src/f7.c "int f7 = 1; /* zzz */"
}

# The Claude Code hooks (t2120): a Bash tool scan does not unlock the Write
# tool, and the Read tool's look at a scanned file does.
claude_hooks() {
	export READGUARD_DIR="$BATS_TEST_TMPDIR/tables" SID=abc-123
	export CLAUDE_ENV_FILE="$BATS_TEST_TMPDIR/claude.env"
	mkdir -p "$READGUARD_DIR" && : >"$CLAUDE_ENV_FILE"
	sleep 600 &
	CLAUDE_PID=$! BG_PID=$!
	export CLAUDE_PID
	hook SessionStart '{"session_id":"abc-123","cwd":"'"$W"'","hook_event_name":"SessionStart","source":"startup"}' >/dev/null
}

hook() {
	printf '%s' "$2" | /bin/sh -c '"$0" hook claude-code "$1"' "$RG" "$1"
}

# tool EVENT TOOL FILE: a tool hook's input for FILE (under $W).
tool() {
	hook "$1" '{"session_id":"abc-123","cwd":"'"$W"'","hook_event_name":"'"$1"'","tool_name":"'"$2"'","tool_input":{"file_path":"'"$W/$3"'","content":"x"}}'
}

@test "t1500.29 Claude Code hooks: a Write after a grep -r in the Bash tool is denied as scanned" {
	tree 20
	claude_hooks
	bash -c "$(cat "$CLAUDE_ENV_FILE")
grep -r zzz src >/dev/null"
	run --separate-stderr tool PreToolUse Write src/f7.c
	assert_success
	assert_output --partial '"permissionDecision":"deny"'
	assert_output --partial "$MSG_SCANNED \`grep\`"
}

@test "t1500.30 Claude Code hooks: a Read of a scanned file unlocks the Write" {
	tree 20
	claude_hooks
	bash -c "$(cat "$CLAUDE_ENV_FILE")
grep -r zzz src >/dev/null"
	tool PostToolUse Read src/f7.c
	run --separate-stderr tool PreToolUse Write src/f7.c
	assert_success
	assert_output ""
}

@test "t1500.31 readguard mark of a file only scanned unlocks it for the whole session" {
	tree 20
	run --separate-stderr rgsh "grep -r zzz . >/dev/null; \"$RG\" mark src/f7.c && $BLIND"
	assert_success
	assert_content src/f7.c PWN
}

# A toolchain in a hidden directory outside the roots (~/.pyenv, ~/.nvm):
# its modules are no files of the project, and count towards no scan.
@test "t1500.32 a script reading its modules from a hidden directory outside the roots is no scanner" {
	mkfile a.txt old
	mkdir -p "$BATS_TEST_TMPDIR/.tool/lib"
	for i in $(seq 1 20); do echo "x = $i" >"$BATS_TEST_TMPDIR/.tool/lib/m$i.py"; done
	run --separate-stderr rgsh "python3 -c 'import sys
for i in range(1, 21): open(sys.argv[1] + \"/m%d.py\" % i).read()
open(\"a.txt\").read()' '$BATS_TEST_TMPDIR/.tool/lib'; echo new > a.txt"
	assert_success
	assert_content a.txt new
}

@test "t1500.33 a scanner's rename of a file it only scanned does not unlock it" {
	tree 20
	cat >scan.py <<-'PY'
		import os
		for i in range(1, 21):
		    open("src/f%d.c" % i).read()
		os.rename("src/f7.c", "src/g7.c")
	PY
	run --separate-stderr rgsh "python3 scan.py; echo PWN > src/g7.c"
	assert_failure
	assert_scanned src/g7.c python3
	assert_file_contains src/g7.c zzz
}

# The default pace, as README and readguard(1) give it: more than 8 files
# within a second is a scan; 8 is a look.
@test "t1500.34 by default a process reading 8 files at once looks: its reads count for the whole session" {
	tree 8
	run --separate-stderr rgsh 'cat src/f*.c >/dev/null; echo x > src/f8.c'
	assert_success
	refute_refused
	assert_content src/f8.c x
}

@test "t1500.35 by default a process reading 9 files at once scans: a sibling's blind write is refused" {
	tree 9
	run --separate-stderr rgsh 'cat src/f*.c >/dev/null; echo x > src/f9.c'
	assert_failure
	assert_scanned src/f9.c cat
}
