#!/usr/bin/env bats
# readguard sessions [--prune], and run --session/--keep.

load helper
load cli_helper

setup() {
	common_setup
	cli_setup
}

@test "t2070.01 sessions lists running sessions with pid, time and root" {
	new_session
	run --separate-stderr "$RG" sessions
	assert_success
	assert_output --regexp "^$S  running  pid $$  since [0-9-]+T[0-9:.]+Z  root $W$"
}

@test "t2070.02 sessions with none says so on stderr, prints nothing, and exits 0" {
	run --separate-stderr "$RG" sessions
	assert_success
	assert_output ''
	assert_equal "$stderr" "readguard: no sessions"
}

@test "t2070.03 a session whose owner is gone is listed as ended" {
	ended_session
	run --separate-stderr "$RG" sessions
	assert_output --partial "$S  ended  pid "
}

@test "t2070.15 env --pid of a process that does not exist exits 125" {
	run --separate-stderr "$RG" env --pid 999999999
	assert_equal "$status" 125
	[[ $stderr == *"no such process"* ]] || fail "$stderr"
}

@test "t2070.04 sessions --prune removes ended sessions and keeps running ones" {
	new_session
	local live=$S
	ended_session
	local dead=$S
	run --separate-stderr "$RG" sessions --prune
	assert_success
	assert_line "removed $dead"
	assert_not_exist "$dead"
	assert_exist "$live"
}

@test "t2070.05 a broken table file is listed as broken, and pruned only once it is old" {
	local junk="$TABLES/readguard-$(id -u)-00000000000000ff"
	head -c 40000 /dev/zero >"$junk"
	run --separate-stderr "$RG" sessions --prune
	assert_output --partial "$junk  broken  (it is not a readguard session table (wrong magic))"
	assert_exist "$junk"
	touch -d '10 minutes ago' "$junk"
	run --separate-stderr "$RG" sessions --prune
	assert_line "removed $junk"
	assert_not_exist "$junk"
}

@test "t2070.06 sessions --json prints one object per session" {
	new_session
	run --separate-stderr "$RG" sessions --json
	assert_success
	"$PY3" -c '
import json, sys
o = json.loads(sys.argv[1])
assert o["session"] == sys.argv[2] and o["state"] == "running" and o["roots"] == [sys.argv[3]], o
assert o["pid"] > 0 and o["created"].endswith("Z"), o
' "$output" "$S" "$W" || fail "$output"
}

@test "t2070.17 sessions --json gives each session's id, as history prints it" {
	new_session
	mkfile a old
	in_session sh -c 'cat a >/dev/null; echo x >a'
	local id
	id=$("$RG" history --json a | sed -n 's/^{"session":"\([^"]*\)".*/\1/p')
	run --separate-stderr "$RG" sessions --json
	assert_success
	"$PY3" -c '
import json, sys
assert json.loads(sys.argv[1])["id"] == sys.argv[2], sys.argv[1]
' "$output" "$id" || fail "$output (history: $id)"
}

@test "t2070.16 sessions --json reports a broken table with its problem" {
	head -c 40000 /dev/zero >"$TABLES/readguard-$(id -u)-00000000000000ff"
	run --separate-stderr "$RG" sessions --json
	assert_success
	"$PY3" -c '
import json, sys
o = json.loads(sys.argv[1])
assert o["state"] == "broken" and "wrong magic" in o["problem"], o
' "$output" || fail "$output"
}

@test "t2070.07 files of other names in the table directory are not sessions" {
	printf 'x' >"$TABLES/readguard-$(id -u)-notatable"
	printf 'x' >"$TABLES/other"
	run --separate-stderr "$RG" sessions
	assert_output ''
}

@test "t2070.08 run --session --keep keeps the reads for the next run" {
	mkfile a old
	"$RG" run --session "$TABLES/agent" --keep -- cat a >/dev/null
	assert_exist "$TABLES/agent"
	run --separate-stderr "$RG" run --session "$TABLES/agent" -- sh -c 'echo new >a'
	assert_success
	assert_content a new
}

@test "t2070.09 run --session without --keep removes a session it created" {
	"$RG" run --session "$TABLES/once" -- true
	assert_not_exist "$TABLES/once"
}

@test "t2070.10 run --session joining a kept session never removes it" {
	dead_session "$TABLES/kept"
	"$RG" run --session "$TABLES/kept" -- true
	assert_exist "$TABLES/kept"
}

@test "t2070.11 the launcher that joins an ended session becomes its owner" {
	dead_session "$TABLES/kept"
	run --separate-stderr "$RG" run --session "$TABLES/kept" -- "$RG" status --session "$TABLES/kept"
	assert_success
	assert_line --regexp '^state +running'
}

@test "t2070.12 a relative --session path is made absolute for the children" {
	run --separate-stderr "$RG" run --session rel.table -- sh -c 'echo "$READGUARD_SESSION"'
	assert_success
	assert_output "$W/rel.table"
}

@test "t2070.13 run --session on a file that is not a table exits 125 and leaves it alone" {
	printf 'precious\n' >notatable
	run --separate-stderr "$RG" run --session notatable -- true
	assert_equal "$status" 125
	[[ $stderr == *"it is too small to be a session table"* ]] || fail "$stderr"
	assert_content notatable precious
}

@test "t2070.14 run --session in a missing directory exits 125, naming the directory" {
	run --separate-stderr "$RG" run --session no/such/dir/t -- true
	assert_equal "$status" 125
	[[ $stderr == *"--session 'no/such/dir/t': the directory 'no/such/dir' does not exist"* ]] || fail "$stderr"
}

@test "t2070.18 run --session joining with settings warns, naming the options the table overrides" {
	dead_session "$TABLES/kept"
	run --separate-stderr "$RG" run --session "$TABLES/kept" -m warn --log "$LOG" --read-ttl 5 --keep -- true
	assert_success
	assert_equal "$stderr" "readguard: warning: joined the existing session '$TABLES/kept', which keeps its own settings: --mode, --log, --read-ttl ignored"
	run --separate-stderr "$RG" status --json --session "$TABLES/kept"
	[[ $output == *'"mode":"enforce"'* ]] || fail "$output"
}

@test "t2070.19 run --session joining with only --keep says nothing" {
	dead_session "$TABLES/kept"
	run --separate-stderr "$RG" run --session "$TABLES/kept" --keep -- true
	assert_success
	assert_equal "$stderr" ""
}

@test "t2070.20 env --session joining with settings warns, as run does" {
	dead_session "$TABLES/kept"
	run --separate-stderr "$RG" env --pid $$ --session "$TABLES/kept" --mode warn
	assert_success
	assert_equal "$stderr" "readguard: warning: joined the existing session '$TABLES/kept', which keeps its own settings: --mode ignored"
}

# killed_launcher: a `readguard run` whose launcher is killed with SIGKILL
# once its tree has read f; the tree runs on (at most a minute) until the
# test makes the file go, then overwrites f and makes done. $S: the table.
killed_launcher() {
	mkfile f original
	"$RG" run -- bash -c 'cat f >/dev/null && : >started
		for _ in $(seq 1200); do [ -e go ] && break; sleep 0.05; done
		echo new >f; : >done' 3>&- &
	local launcher=$!
	for _ in $(seq 400); do [ -e started ] && break; sleep 0.05; done
	[ -e started ] || fail "the tree did not start"
	S=$(echo "$TABLES"/readguard-*)
	[ -f "$S" ] || fail "no table: $S"
	kill -KILL "$launcher"
	wait "$launcher" 2>/dev/null || true
}

# tree_finishes: lets the tree of killed_launcher go on, and waits for it.
tree_finishes() {
	: >go
	for _ in $(seq 400); do [ -e done ] && break; sleep 0.05; done
	[ -e done ] || fail "the tree did not finish"
}

@test "t2070.21 a session whose launcher was killed with SIGKILL is running while its tree runs" {
	killed_launcher
	run --separate-stderr "$RG" sessions
	assert_output --partial "$S  running  pid "
	tree_finishes
}

@test "t2070.22 sessions --prune keeps the table of a live tree whose launcher was killed, and its writes work" {
	killed_launcher
	run --separate-stderr "$RG" sessions --prune
	assert_success
	assert_file_exist "$S"
	tree_finishes
	assert_content f new
}

@test "t2070.23 a new session keeps the table of a live tree whose launcher was killed" {
	killed_launcher
	"$RG" run -- true
	assert_file_exist "$S"
	tree_finishes
	assert_content f new
}

@test "t2070.24 once the tree of a killed launcher is gone, its session is ended and pruned" {
	killed_launcher
	tree_finishes
	# Its last process exits just after it made done.
	for _ in $(seq 200); do "$RG" sessions | grep -q "  ended  " && break; sleep 0.05; done
	run --separate-stderr "$RG" sessions --prune
	assert_output --partial "$S  ended  pid "
	assert_file_not_exist "$S"
}

@test "t2070.25 launchers creating one named session at once all join it whole" {
	local i
	for i in $(seq 12); do
		"$RG" run --session "$TABLES/race" --keep -- true 2>"err.$i" &
	done
	wait
	for i in $(seq 12); do
		[ ! -s "err.$i" ] || fail "launcher $i: $(cat "err.$i")"
	done
	run "$RG" status --session "$TABLES/race"
	assert_success
}

@test "t2070.26 a named session leaves no temporary file beside its table" {
	run "$RG" run --session "$TABLES/one" --keep -- true
	assert_success
	assert_equal "$(cd "$TABLES" && echo one*)" one
}

# aged_log TABLE [DAYS]: the default log of session table TABLE, in the
# state directory ($STATE), last changed DAYS (40) days ago; its path in $L.
aged_log() {
	STATE="$XDG_STATE_HOME/readguard"
	mkdir -p -m 700 "$STATE"
	L="$STATE/$(basename "$1").log"
	printf '{"decision":"refuse"}\n' >"$L"
	touch -d "${2:-40} days ago" "$L"
}

@test "t2070.27 sessions --prune removes the old log of a session that refused a write and ended" {
	mkfile r.txt r
	"$RG" run -- sh -c 'echo x >r.txt' 2>/dev/null || true
	L=$(echo "$XDG_STATE_HOME"/readguard/readguard-*.log)
	[ -f "$L" ] || fail "no default log: $L"
	touch -d '40 days ago' "$L"
	run --separate-stderr "$RG" sessions --prune
	assert_success
	assert_line "removed $L"
	assert_file_not_exist "$L"
}

@test "t2070.28 sessions --prune removes an ended session's table, then its old log" {
	ended_session
	aged_log "$S"
	run --separate-stderr "$RG" sessions --prune
	assert_success
	assert_line --index 1 "removed $S"
	assert_line --index 2 "removed $L"
	assert_file_not_exist "$L"
}

@test "t2070.29 sessions --prune keeps a running session's log, however old" {
	new_session
	aged_log "$S" 400
	run --separate-stderr "$RG" sessions --prune
	assert_success
	refute_output --partial removed
	assert_file_exist "$L"
}

@test "t2070.30 sessions --prune keeps the log of a session running from a table directory it does not look in" {
	local other=$BATS_TEST_TMPDIR/other out
	mkdir -m 700 "$other"
	out=$(READGUARD_DIR=$other "$RG" env --pid $$) || fail "$out"
	S=$(sed -n "s/^export READGUARD_SESSION='\(.*\)';$/\1/p" <<<"$out")
	# Its one process, which READGUARD_DIR=$TABLES cannot see the table of.
	in_session sh -c 'echo $$ >member.tmp && mv member.tmp member && exec sleep 60' &
	local bg=$!
	for _ in $(seq 200); do [ -s member ] && break; sleep 0.05; done
	[ -s member ] || fail "the session's process did not start"
	aged_log "$S"
	run --separate-stderr "$RG" sessions --prune
	kill "$(cat member)"
	wait "$bg" 2>/dev/null || true
	assert_success
	assert_file_exist "$L"
}

@test "t2070.31 sessions --prune keeps an ended session's log changed within READGUARD_JOURNAL_DAYS" {
	ended_session
	aged_log "$S" 10
	run --separate-stderr "$RG" sessions --prune
	refute_output --partial "removed $L"
	assert_file_exist "$L"
}

@test "t2070.32 READGUARD_JOURNAL_DAYS shortens how long an ended session's log is kept" {
	ended_session
	aged_log "$S" 10
	READGUARD_JOURNAL_DAYS=5 run --separate-stderr "$RG" sessions --prune
	assert_line "removed $L"
	assert_file_not_exist "$L"
}

@test "t2070.33 a READGUARD_JOURNAL_DAYS that is not a number of days keeps logs the default 30" {
	ended_session
	aged_log "$S" 10
	READGUARD_JOURNAL_DAYS=soon run --separate-stderr "$RG" sessions --prune
	assert_file_exist "$L"
	READGUARD_JOURNAL_DAYS=-1 run --separate-stderr "$RG" sessions --prune
	assert_file_exist "$L"
}

@test "t2070.34 sessions --prune keeps a log named with --log, even in the state directory" {
	STATE="$XDG_STATE_HOME/readguard"
	mkfile r.txt r
	"$RG" run --log "$STATE/mine.log" -- sh -c 'echo x >r.txt' 2>/dev/null || true
	[ -s "$STATE/mine.log" ] || fail "nothing logged to $STATE/mine.log"
	touch -d '400 days ago' "$STATE/mine.log"
	run --separate-stderr "$RG" sessions --prune
	assert_file_exist "$STATE/mine.log"
}

@test "t2070.35 sessions --prune keeps an old log named for another user's session" {
	aged_log "readguard-$(($(id -u) + 1))-0123456789abcdef"
	run --separate-stderr "$RG" sessions --prune
	assert_file_exist "$L"
}

@test "t2070.36 a symbolic link named as a default log is not followed, and its target survives prune" {
	aged_log "readguard-$(id -u)-0123456789abcdef"
	rm "$L"
	printf 'precious\n' >"$OUT/precious"
	touch -d '400 days ago' "$OUT/precious"
	ln -s "$OUT/precious" "$L"
	touch -h -d '400 days ago' "$L"
	run --separate-stderr "$RG" sessions --prune
	assert_success
	assert_content "$OUT/precious" precious
	assert [ -L "$L" ]
}

@test "t2070.37 sessions --prune names a log it cannot remove, and exits 2" {
	ended_session
	aged_log "$S"
	run_in_readonly "$STATE" "$RG" sessions --prune
	assert_failure 2
	[[ $stderr == *"readguard: sessions: cannot remove '$L': Read-only file system"* ||
		$stderr == *"readguard: sessions: cannot remove '$L': Permission denied"* ]] || fail "$stderr"
	assert_file_exist "$L"
}

@test "t2070.38 sessions --prune --json prints nothing for a log it removes" {
	aged_log "readguard-$(id -u)-0123456789abcdef"
	run --separate-stderr "$RG" sessions --prune --json
	assert_success
	assert_output ""
	assert_file_not_exist "$L"
}

@test "t2070.39 sessions --prune that removed only a log does not say 'no sessions'" {
	aged_log "readguard-$(id -u)-0123456789abcdef"
	run --separate-stderr "$RG" sessions --prune
	assert_success
	assert_output "removed $L"
	assert_equal "$stderr" ""
}

@test "t2070.40 sessions --prune keeps an old log of a named session that ended, however old" {
	STATE="$XDG_STATE_HOME/readguard"
	mkfile r.txt r
	"$RG" run --session "$TABLES/agent" -- sh -c 'echo x >r.txt' 2>/dev/null || true
	[ ! -e "$TABLES/agent" ] || fail "the named session's table is still there"
	[ -s "$STATE/agent.log" ] || fail "nothing logged to $STATE/agent.log"
	touch -d '400 days ago' "$STATE/agent.log"
	run --separate-stderr "$RG" sessions --prune
	assert_success
	assert_file_exist "$STATE/agent.log"
}

# sid PATH: the id of the session whose table is PATH, as status prints it.
sid() {
	"$RG" status --json --session "$1" | "$PY3" -c 'import json, sys; print(json.load(sys.stdin)["id"])'
}

@test "t2070.41 run --session ID of a running session joins its table, creating no file named ID" {
	mkfile a old
	new_session
	local id
	id=$(sid "$S")
	in_session cat a >/dev/null
	run --separate-stderr "$RG" run --session "$id" -- sh -c 'echo "$READGUARD_SESSION"; echo new >a'
	assert_success
	assert_line "$S"
	assert_content a new
	assert_not_exist "$W/$id"
	assert_exist "$S"
}

@test "t2070.42 env --session ID of a running session exports that session's table" {
	new_session
	local first=$S id
	id=$(sid "$first")
	run --separate-stderr "$RG" env --pid $$ --session "$id"
	assert_success
	assert_line "export READGUARD_SESSION='$first';"
	assert_not_exist "$W/$id"
}

@test "t2070.43 run --session with an id no table has exits 125, creates nothing, and names ./ID" {
	run --separate-stderr "$RG" run --session 1795468256807933359-12987 -- true
	assert_equal "$status" 125
	assert_equal "$stderr" "readguard: --session '1795468256807933359-12987': no table of this user's has that session id (the session has ended); to create a session table of that name here, give './1795468256807933359-12987'"
	assert_not_exist "$W/1795468256807933359-12987"
}

@test "t2070.44 a launcher that finds no named session, and then its table made by another, joins it" {
	need_strace
	# The first launcher's look finds nothing, and is held there while a
	# second launcher creates the table: t2070.25's race, made certain.
	strace -o st -P "$TABLES/race" -e trace=openat -e inject=openat:delay_exit=2000000:when=1 \
		"$RG" run --session "$TABLES/race" --keep -- true 2>err &
	local first=$!
	await_file st
	local i
	for ((i = 0; i < 200; i++)); do
		grep -q ENOENT st && break
		sleep 0.05
	done
	grep -q ENOENT st || fail "the first launcher never looked: $(cat st)"
	"$RG" run --session "$TABLES/race" --keep -- true
	wait "$first"
	assert_equal "$(cat err)" ""
	run "$RG" status --session "$TABLES/race"
	assert_success
}

# rejoined ARGS...: a kept session at $TABLES/agent that ran ARGS... (a
# command for sh -c each) one after another, each run started after the one
# before exited, so each later run takes the session over from a gone owner.
rejoined() {
	local cmd
	for cmd in "$@"; do
		"$RG" run --session "$TABLES/agent" --keep -- sh -c "$cmd" 2>/dev/null || true
	done
}

@test "t2070.45 a kept named session reports the same id after a later run rejoins it" {
	rejoined true
	local id
	id=$(sid "$TABLES/agent")
	rejoined true
	assert_equal "$(sid "$TABLES/agent")" "$id"
}

@test "t2070.46 undo --session after a rejoin restores the file the first run wrote" {
	mkfile f old
	rejoined 'cat f >/dev/null; echo new >f' true
	run --separate-stderr "$RG" undo --session "$TABLES/agent" f
	assert_success
	assert_content f old
}

@test "t2070.47 log --session ID of a rejoined session shows the refusals of both runs" {
	mkfile a old
	mkfile b old
	rejoined 'echo new >a' 'echo new >b'
	run --separate-stderr "$RG" log --session "$(sid "$TABLES/agent")"
	assert_success
	assert_output --partial "refused open '$W/a'"
	assert_output --partial "refused open '$W/b'"
}

@test "t2070.48 history lists the versions kept by both runs of a rejoined session under one session" {
	mkfile a old
	mkfile b old
	rejoined 'cat a >/dev/null; echo new >a' 'cat b >/dev/null; echo new >b'
	run --separate-stderr "$RG" history --json
	assert_success
	assert_equal "${#lines[@]}" 2
	assert_equal "$(sed -n 's/^{"session":"\([^"]*\)".*/\1/p' <<<"$output" | sort -u | wc -l)" 1
}

@test "t2070.49 a run that rejoins a kept session exports the id the first run exported" {
	rejoined 'echo "$READGUARD_SESSION_ID" >id1' 'echo "$READGUARD_SESSION_ID" >id2'
	[ -s id1 ] || fail "the first run exported no READGUARD_SESSION_ID"
	assert_equal "$(cat id2)" "$(cat id1)"
}

@test "t2070.50 sessions writes a root with a newline in its name as \\n, keeping one line per session" {
	local root="$W/a
b"
	mkdir "$root"
	new_session --root "$root"
	run --separate-stderr "$RG" sessions
	assert_success
	assert_equal "${#lines[@]}" 1
	assert_output --partial "  root $W/a\\nb"
}

# READGUARD_DIR is the only directory looked in: a typo in it listed
# "no sessions", exit 0, as if none ran.
@test "t2070.51 sessions with a READGUARD_DIR that is no directory names it and exits 2" {
	READGUARD_DIR="$BATS_TEST_TMPDIR/none" run --separate-stderr "$RG" sessions
	assert_equal "$status" 2
	assert_output ''
	[[ $stderr == *"readguard: sessions: READGUARD_DIR '$BATS_TEST_TMPDIR/none', the only directory looked in: No such file or directory" ]] ||
		fail "$stderr"
}

@test "t2070.52 run --keep without --session warns that its table lasts only until the next session" {
	run --separate-stderr "$RG" run --keep -- sh -c 'echo "$READGUARD_SESSION"'
	assert_success
	assert_exist "$output"
	assert_equal "$stderr" "readguard: warning: --keep without --session: the table '$output' is kept only until the next session made beside it removes it; to continue a session later, name its table: 'readguard run --session PATH --keep'"
}

@test "t2070.53 run --session --keep says nothing of the table it keeps" {
	run --separate-stderr "$RG" run --session "$TABLES/agent" --keep -- true
	assert_success
	assert_equal "$stderr" ""
}
