# Shared helpers for the readguard end-to-end tests.
#
# Every test runs in a fresh scratch directory ($W, under BATS_TEST_TMPDIR)
# which is also the current directory, so it is the session's default root
# (were it inside a git work tree, the tree's top would be; bats makes it
# under /tmp).
# Files outside $W (e.g. $OUT, $BATS_TEST_TMPDIR/sync.*) are outside the root.
#
# Tests run in parallel (scripts/dev/run-tests.sh runs bats --jobs), and
# other test runs may share the machine: each test gets places of its own
# for everything readguard or a tool would otherwise share (see
# common_setup), so no test ever sees another's sessions, logs or scratch
# files.
#
# Style: the helpers and the .bats files indent shell with tabs; Python and
# Rust embedded in them keep their own four spaces.

bats_require_minimum_version 1.5.0

# bats_library NAME: what `load /usr/lib/bats/NAME/load` does, without the
# fork per sourced file that load.bash's $(dirname ...) costs. Every test
# loads the libraries anew, so that was some 15 s of CPU per run. Anything
# in load.bash other than such source lines: it is loaded as it is.
bats_library() {
	local dir=/usr/lib/bats/$1 line files=()
	local re='^source "\$\(dirname "\$\{BASH_SOURCE\[0\]\}"\)/([^"]+)"$'
	while IFS= read -r line; do
		[[ -z $line || $line == '#'* ]] && continue
		if [[ $line =~ $re ]]; then
			files+=("$dir/${BASH_REMATCH[1]}")
		else
			load "$dir/load"
			return
		fi
	done <"$dir/load.bash"
	for line in "${files[@]}"; do
		# shellcheck disable=SC1090
		source "$line" || fail "cannot load $line"
	done
}
bats_library bats-support
bats_library bats-assert
bats_library bats-file

TOP="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
RG="$TOP/build/readguard"
SHIM="$TOP/build/libreadguard.so"
T="$TOP/build/t"
# The tests' own checks (JSON, table patches) use the system's Python, which
# starts in a tenth of the time of a version manager's shim that may come
# first in PATH. A test that runs python3 as a tool under readguard runs
# whatever python3 PATH names, as a user's shell would.
PY3=/usr/bin/python3
[ -x "$PY3" ] || PY3=$(command -v python3)
export RG SHIM T TOP PY3

# Readguard's refusal messages (see README / the contract).
MSG_UNREAD="it has not been read in this session. Read it first, then retry."
MSG_CHANGED="it changed since this session read it"
MSG_UNKEPT="its old bytes could not be kept in the journal: "

# common_setup: what every test starts from. A file that needs more defines
# its own setup() and calls this first.
common_setup() {
	[ -x "$RG" ] || fail "$RG not built (run make)"
	[ -f "$SHIM" ] || fail "$SHIM not built (run make)"
	unset LD_PRELOAD READGUARD_SESSION READGUARD_ROOTS READGUARD_MODE READGUARD_LOG \
		READGUARD_CAPACITY READGUARD_OWNER READGUARD_SESSION_LOG READGUARD_SESSION_ID
	# Session tables are made in, and looked for only in, READGUARD_DIR
	# (never in /dev/shm itself, $XDG_RUNTIME_DIR or /tmp, where other runs'
	# are). It is on tmpfs, as tables are by default: on ext4 a table costs
	# twice the time to make and remove. Its name has this test's pid: no
	# other test has it while this one runs. Default logs go under
	# XDG_STATE_HOME; mktemp and friends use TMPDIR.
	export XDG_STATE_HOME="$BATS_TEST_TMPDIR/state"
	export XDG_RUNTIME_DIR="$BATS_TEST_TMPDIR/run"
	export TMPDIR="$BATS_TEST_TMPDIR/tmp"
	W="$BATS_TEST_TMPDIR/w"
	OUT="$BATS_TEST_TMPDIR/outside"
	TEST_TABLES=/dev/shm/readguard-test.$$.$RANDOM
	if ! mkdir -m 700 "$TEST_TABLES" "$XDG_RUNTIME_DIR" 2>/dev/null; then
		TEST_TABLES="$BATS_TEST_TMPDIR/tables"
		mkdir -p -m 700 "$TEST_TABLES" "$XDG_RUNTIME_DIR" || fail "cannot make $TEST_TABLES"
	fi
	export READGUARD_DIR="$TEST_TABLES"
	mkdir -p "$XDG_STATE_HOME" "$TMPDIR" "$W" "$OUT" || fail "cannot make the test's directories"
	cd "$W" || fail "cannot cd to $W"
	LOG="$W/readguard.log"
	BG_PID=
	export W OUT LOG
}

setup() {
	common_setup
}

# common_teardown: undoes common_setup. A file that needs more defines its
# own teardown() and calls this last.
common_teardown() {
	# Never leave a paused background session behind.
	if [ -n "${BG_PID:-}" ]; then
		: >"$SYNC/go" 2>/dev/null || true
		kill "$BG_PID" 2>/dev/null || true
		wait "$BG_PID" 2>/dev/null || true
	fi
	if [ -n "${FIFO_PID:-}" ]; then
		kill "$FIFO_PID" 2>/dev/null || true
		wait "$FIFO_PID" 2>/dev/null || true
	fi
	# BATS_TEST_TMPDIR goes by itself; the table directory on tmpfs does not,
	# nor the public /tmp/rg-* of a test that drops to uid 65534, whatever
	# step of the test failed.
	case ${TEST_TABLES:-} in
	/dev/shm/readguard-test.*) rm -rf -- "$TEST_TABLES" ;;
	esac
	case ${D:-} in
	/tmp/rg-*) rm -rf -- "$D" ;;
	esac
}

teardown() {
	common_teardown
}

# outside_git_setup [VAR]...: common_setup for a project that is no git
# work tree (a release tarball, a project never put in git), with a HOME of
# its own, the system's tools first on PATH, and VARs unset (a user's
# settings that would change what the tools write). A git work tree around
# $W would make what these tests write journaled anyway: it fails then.
outside_git_setup() {
	common_setup
	export HOME="$BATS_TEST_TMPDIR/home" GIT_CONFIG_NOSYSTEM=1
	export PATH="/usr/bin:/bin:$PATH"
	unset GIT_CONFIG_GLOBAL XDG_CONFIG_HOME "$@"
	mkdir -p "$HOME"
	run git -C "$W" rev-parse --is-inside-work-tree
	assert_failure
}

# second_run COMMAND FILE: a second session (logging to $LOG) runs COMMAND
# unrefused, and the journal keeps the first session's FILE (under $W).
second_run() {
	run --separate-stderr "$RG" run --log "$LOG" -- bash -c "$1"
	refute_refused
	assert_success
	run "$RG" history
	assert_success
	assert_output --partial "$W/$2"
}

# assert_blind_refused FILE: a blind write to FILE, as it stands, is refused
# and changes nothing.
assert_blind_refused() {
	make_old "$1"
	snapshot "$1"
	run --separate-stderr "$RG" run --log "$LOG" -- bash -c 'echo blind >"$1"' bash "$1"
	assert_failure
	assert_refused "$1" unread
	assert_unchanged "$1"
}

# need TOOL...: skip the test (never pass it) when a tool is missing.
need() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null || skip "$t is not installed (scripts/dev/install-deps.sh test)"
	done
}

# need_strace: skip the test unless strace is installed and may trace here
# (a container's seccomp profile or yama's ptrace_scope can forbid it).
need_strace() {
	need strace
	strace -f -o /dev/null true 2>/dev/null || skip "strace cannot trace processes here"
}

# rg CMD [ARG]...: run CMD in a new readguard session, logging to $LOG.
rg() {
	"$RG" run --log "$LOG" -- "$@"
}

# rgsh SCRIPT: run a bash script in a new readguard session.
rgsh() {
	"$RG" run --log "$LOG" -- bash -c "$1"
}

# mtime_ns FILE: modification time in nanoseconds.
mtime_ns() {
	stat -c '%.9Y' -- "$1"
}

# make_old FILE...: give files an old mtime so any later change is visible.
make_old() {
	touch -d '2020-01-01 00:00:00' -- "$@"
}

# mkfile FILE CONTENT: create FILE (outside any session) with CONTENT plus a
# newline, and an old mtime.
mkfile() {
	printf '%s\n' "$2" >"$1"
	make_old "$1"
}

# external_write FILE TEXT: overwrite FILE with TEXT (plus newline) from a
# process that is not part of any readguard session.
external_write() {
	env -u LD_PRELOAD -u READGUARD_SESSION -u READGUARD_ROOTS -u READGUARD_MODE \
		-u READGUARD_LOG sh -c 'printf "%s\n" "$2" >"$1"' sh "$1" "$2"
}

# run_in_readonly DIR CMD...: `run --separate-stderr CMD...` with DIR not
# writable. Root writes through any mode, so for root DIR is bound read-only
# in a mount namespace of the command's own; others get mode 0500 for the
# run (and 0700 back).
run_in_readonly() {
	local dir=$1
	shift
	if [ "$(id -u)" = 0 ]; then
		run --separate-stderr unshare -m sh -c 'mount --bind "$1" "$1" &&
			mount -o remount,bind,ro "$1" && shift && exec "$@"' sh "$dir" "$@"
	else
		chmod 0500 "$dir"
		run --separate-stderr "$@"
		chmod 0700 "$dir"
	fi
}

# snapshot FILE...: remember content, mtime (ns) and inode of each FILE.
declare -gA SNAP_CONTENT SNAP_MTIME SNAP_INO
snapshot() {
	local f
	for f in "$@"; do
		SNAP_CONTENT[$f]="$(od -An -tx1 -v -- "$f")"
		SNAP_MTIME[$f]="$(mtime_ns "$f")"
		SNAP_INO[$f]="$(stat -c %i -- "$f")"
	done
}

# assert_unchanged FILE...: content, mtime and inode equal the snapshot.
assert_unchanged() {
	local f
	for f in "$@"; do
		[ -e "$f" ] || fail "'$f' no longer exists"
		[ "$(od -An -tx1 -v -- "$f")" = "${SNAP_CONTENT[$f]}" ] ||
			fail "content of '$f' changed; now: $(cat -v -- "$f")"
		[ "$(mtime_ns "$f")" = "${SNAP_MTIME[$f]}" ] ||
			fail "mtime of '$f' changed: ${SNAP_MTIME[$f]} -> $(mtime_ns "$f")"
		[ "$(stat -c %i -- "$f")" = "${SNAP_INO[$f]}" ] ||
			fail "'$f' was replaced (inode ${SNAP_INO[$f]} -> $(stat -c %i -- "$f"))"
	done
}

# assert_content FILE TEXT: FILE holds exactly TEXT (a trailing newline is
# ignored, as with $(cat)).
assert_content() {
	[ -e "$1" ] || fail "'$1' does not exist"
	local got
	got="$(cat -- "$1")"
	[ "$got" = "$2" ] || fail "content of '$1': expected '$2', got '$got'"
}

# assert_has_line TEXT: a line of $output is exactly TEXT, as assert_line
# TEXT checks, but looked for by grep: bats traces every command the test's
# own shell runs (some 0.2 ms each), so a loop over thousands of lines there
# costs seconds.
assert_has_line() {
	grep -qxF -- "$1" <<<"$output" ||
		fail "no line '$1' in the output ($(wc -l <<<"$output") lines)"
}

# count_rg_lines: number of "readguard: refused" lines in $stderr (from
# `run --separate-stderr`) or, failing that, in $output.
count_rg_lines() {
	local l n=0 src
	if [ -n "${stderr+set}" ]; then src="$stderr"; else src="$output"; fi
	while IFS= read -r l; do
		[[ $l == "readguard: refused to write "* ]] && n=$((n + 1))
	done <<<"$src"
	echo "$n"
}

# assert_refused PATH unread|changed|unkept|any: exactly one readguard refusal line on
# stderr, naming PATH as the program gave it, with the right reason.
# Use after `run --separate-stderr`.
assert_refused() {
	local path=$1 reason=$2 want n
	case $reason in
	unread) want="readguard: refused to write '$path': $MSG_UNREAD" ;;
	changed) want="readguard: refused to write '$path': $MSG_CHANGED (read at " ;;
	unkept) want="readguard: refused to write '$path': $MSG_UNKEPT" ;;
	any) want="readguard: refused to write '$path': it " ;;
	*) fail "assert_refused: bad reason '$reason'" ;;
	esac
	n=$(count_rg_lines)
	[ "$n" -eq 1 ] || fail "expected exactly 1 readguard refusal line on stderr, got $n:
stderr: ${stderr-}
output: $output"
	[[ ${stderr-$output} == *"$want"* ]] || fail "stderr lacks: $want
stderr: ${stderr-}
output: $output"
}

# refute_refused: no readguard refusal line at all.
refute_refused() {
	local n
	n=$(count_rg_lines)
	[ "$n" -eq 0 ] || fail "expected no readguard refusal, got $n:
stderr: ${stderr-}
output: $output"
}

# assert_probe_ok / assert_probe_err ENAME: check rgprobe's verdict and exit
# status (its stdout holds only the verdict; stderr is separate).
assert_probe_ok() {
	[ "$status" -eq 0 ] || fail "expected rgprobe ok (status 0), got status $status
stdout: $output
stderr: ${stderr-}"
	assert_line --regexp '^ok( [0-9]+)?$'
}
assert_probe_err() {
	[ "$status" -eq 1 ] || fail "expected rgprobe failure (status 1), got status $status
stdout: $output
stderr: ${stderr-}"
	assert_line "err $1"
}

# assert_log_json: every line of $LOG parses as JSON (strict UTF-8).
# (Does not touch $status/$output.)
assert_log_json() {
	[ -s "$LOG" ] || fail "log $LOG is missing or empty"
	local out
	out=$("$PY3" - "$LOG" 2>&1 <<'EOF'
import json, sys
data = open(sys.argv[1], 'rb').read()
text = data.decode('utf-8')          # strict: invalid UTF-8 is an error
lines = text.split('\n')
assert lines[-1] == '', 'log does not end with a newline'
for i, l in enumerate(lines[:-1], 1):
    obj = json.loads(l)
    assert isinstance(obj, dict), 'line %d is not an object' % i
EOF
) || fail "log is not valid JSON lines: $out
$(cat -v "$LOG")"
}

# assert_lost_refusal LOGFILE PATH [ID]: LOGFILE holds one line, the refusal
# of a write to PATH by a process that found its session's table unusable,
# naming the session ID as its launcher passed it on (none without ID).
assert_lost_refusal() {
	[ -s "$1" ] || fail "log $1 is missing or empty"
	local out
	out=$("$PY3" - "$1" "$2" "${3-}" 2>&1 <<'EOF'
import json, sys
lines = open(sys.argv[1], 'rb').read().decode('utf-8').split('\n')
assert lines[-1] == '' and len(lines) == 2, 'not one line'
o = json.loads(lines[0])
assert (o['decision'], o['reason'], o['path']) == ('refuse', 'no-table', sys.argv[2]), o
assert o.get('session', '') == sys.argv[3], 'session %r, not %r' % (o.get('session'), sys.argv[3])
EOF
) || fail "log $1 lacks the refusal of $2: $out
$(cat -v "$1")"
}

# status_id FILE: the session id in FILE, which 'readguard status --json'
# wrote.
status_id() {
	"$PY3" -c 'import json, sys; print(json.load(open(sys.argv[1]))["id"])' "$1" ||
		fail "no session id in $1: $(cat "$1")"
}

# log_count: number of lines in $LOG (0 if it does not exist).
log_count() {
	if [ -e "$LOG" ]; then wc -l <"$LOG"; else echo 0; fi
}

# log_field N KEY: print field KEY of log line N (1-based), JSON-encoded.
log_field() {
	"$PY3" -c '
import json, sys
lines = open(sys.argv[1], "rb").read().decode("utf-8").splitlines()
obj = json.loads(lines[int(sys.argv[2]) - 1])
print(json.dumps(obj[sys.argv[3]], ensure_ascii=False))' "$LOG" "$1" "$2"
}

# await_file FILE: waits up to twenty seconds for FILE, which a background
# process makes once it is ready, and fails the test if it never comes.
await_file() {
	local i
	for ((i = 0; i < 400; i++)); do
		[ -e "$1" ] && return 0
		sleep 0.05
	done
	fail "'$1' never appeared"
}

# await CMD [ARG]...: waits up to twenty seconds until CMD succeeds (a
# state some other process is to reach), and fails the test if it never
# does.
await() {
	local i
	for ((i = 0; i < 400; i++)); do
		"$@" && return 0
		sleep 0.05
	done
	fail "never came true: $*"
}

# await_trace FILE CALLS [N]: waits up to twenty seconds until strace,
# writing to FILE, shows the Nth (default first) entry to any of CALLS (an
# ERE: "rename|renameat2"), and fails the test if it never comes. strace
# prints a call as it enters it, before a delay_enter injection holds it: a
# test that acts while a call is held waits on this, never on a sleep,
# which a loaded machine outlasts before the call is reached.
await_trace() {
	await_trace_line "$1" "(^|[[:space:]])($2)\\(" "${3:-1}"
}

# await_trace_exit FILE CALLS: as await_trace, until a call to any of CALLS
# has been carried out and is held by a delay_exit injection: strace prints
# its result, with "(DELAYED)", before the delay (on the line of its entry,
# or on one of its own if another process's line came between).
await_trace_exit() {
	await_trace_line "$1" "(^|[[:space:]])(($2)\\(|<\\.\\.\\. ($2) resumed>).*\\(DELAYED\\)$" 1
}

await_trace_line() {
	local i n
	for ((i = 0; i < 400; i++)); do
		n=$(grep -cEs "$2" "$1") || :
		[ "${n:-0}" -ge "$3" ] && return 0
		sleep 0.05
	done
	fail "strace never showed line $3 matching '$2' in '$1'"
}

# await_prune TABLE: until sessions --prune has removed TABLE, which the
# processes left running keep until they are gone, 20 s at most.
await_prune() {
	local i
	for ((i = 0; i < 400; i++)); do
		"$RG" sessions --prune >/dev/null 2>&1
		[ -e "$1" ] || return 0
		sleep 0.05
	done
	fail "the table '$1' was never pruned"
}

# Paused sessions: bg_session PHASE1 PHASE2 [readguard-run-options...]
# starts `readguard run` in the background on a bash script that runs
# PHASE1, then waits until the test calls bg_finish, then runs PHASE2.
# Meanwhile the test can act from outside the session (e.g. external_write,
# or another session).  bg_finish sets status/output/stderr/lines like
# `run --separate-stderr`. Both sides wait 6000 polls (a minute or more):
# a guard against a hang, long enough that no load on the machine ends
# the pause early.
bg_session() {
	local p1=$1 p2=$2
	shift 2
	SYNC="$BATS_TEST_TMPDIR/sync.$RANDOM$RANDOM"
	mkdir -p "$SYNC"
	local script="$p1
: >'$SYNC/ready'
n=0; until [ -e '$SYNC/go' ] || [ \$n -ge 6000 ]; do sleep 0.01; n=\$((n+1)); done
$p2"
	"$RG" run --log "$LOG" "$@" -- bash -c "$script" >"$SYNC/out" 2>"$SYNC/err" 3>&- &
	BG_PID=$!
	local i=0
	until [ -e "$SYNC/ready" ]; do
		if ! kill -0 "$BG_PID" 2>/dev/null; then
			wait "$BG_PID" || true
			BG_PID=
			fail "background session ended before PHASE1 finished: $(cat "$SYNC/err")"
		fi
		i=$((i + 1))
		[ $i -lt 6000 ] || fail "background session never became ready"
		sleep 0.01
	done
}

bg_finish() {
	: >"$SYNC/go"
	local rc=0
	wait "$BG_PID" || rc=$?
	BG_PID=
	status=$rc
	output="$(cat "$SYNC/out")"
	stderr="$(cat "$SYNC/err")"
	lines=()
	stderr_lines=()
	[ -z "$output" ] || mapfile -t lines <<<"$output"
	[ -z "$stderr" ] || mapfile -t stderr_lines <<<"$stderr"
}
