#!/usr/bin/env bats
# The three tiers: guarded (refused unless read), journaled (allowed unread,
# the old bytes kept first: what the project's git ignore rules match) and
# free (the built-in defaults). Each test is a second session in a project
# that exists already, as every checkout does.

load helper

setup() {
	common_setup
	export HOME="$BATS_TEST_TMPDIR/home"
	mkdir -p "$HOME"
	export GIT_CONFIG_NOSYSTEM=1
	unset GIT_CONFIG_GLOBAL XDG_CONFIG_HOME
	export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
}

# project: a git work tree with a tracked source, a git-ignored notes/ and
# *.db, and a build output.
project() {
	git init -q .
	printf 'notes/\n*.db\n' >.gitignore
	mkdir -p notes build
	mkfile main.c 'int main;'
	mkfile notes/todo.txt 'my notes'
	mkfile app.db 'rows'
	mkfile build/out.o 'object'
	git add .gitignore main.c
	git commit -qm init
}

# blind PATH...: one session overwrites each PATH without reading it.
blind() {
	"$RG" run --log "$LOG" "${RG_OPTS[@]}" -- bash -c '
		for p in "$@"; do printf "new\n" >"$p"; done' bash "$@"
}

@test "t1010.01 guarded: a blind write to a git-tracked file is still refused" {
	project
	snapshot main.c
	run --separate-stderr blind main.c
	assert_refused main.c unread
	assert_unchanged main.c
}

@test "t1010.02 journaled: a git-ignored file is written unread, and undo brings it back" {
	project
	run --separate-stderr blind notes/todo.txt app.db
	assert_success
	refute_refused
	assert_content notes/todo.txt new
	assert_content app.db new
	run "$RG" undo notes/todo.txt app.db
	assert_success
	assert_content notes/todo.txt 'my notes'
	assert_content app.db rows
}

@test "t1010.03 free: a build output is written unread and nothing is kept" {
	project
	run --separate-stderr blind build/out.o
	assert_success
	refute_refused
	assert_content build/out.o new
	run "$RG" undo build/out.o
	assert_failure
	assert_content build/out.o new
}

@test "t1010.04 a project without any .gitignore refuses the same files, with the reason" {
	git init -q .
	mkdir notes
	mkfile notes/todo.txt 'my notes'
	mkfile app.db rows
	snapshot notes/todo.txt app.db
	run --separate-stderr blind app.db
	assert_refused app.db unread
	run --separate-stderr blind notes/todo.txt
	assert_refused notes/todo.txt unread
	assert_unchanged notes/todo.txt app.db
}

@test "t1010.05 a project that is no git work tree at all is guarded" {
	printf '*.db\n' >.gitignore
	mkfile app.db rows
	snapshot app.db
	run --separate-stderr blind app.db
	assert_refused app.db unread
	assert_unchanged app.db
}

@test "t1010.06 guard notes/ in .readguardignore guards a git-ignored directory whole" {
	project
	mkdir -p notes/deep
	mkfile notes/deep/plan.txt plan
	printf 'guard notes/\n' >.readguardignore
	snapshot notes/todo.txt notes/deep/plan.txt
	run --separate-stderr blind notes/todo.txt
	assert_refused notes/todo.txt unread
	run --separate-stderr blind notes/deep/plan.txt
	assert_refused notes/deep/plan.txt unread
	assert_unchanged notes/todo.txt notes/deep/plan.txt
	run --separate-stderr blind app.db
	refute_refused
}

@test "t1010.07 --ignore 'guard PATTERN' guards a git-ignored file" {
	project
	snapshot app.db
	RG_OPTS=(--ignore 'guard *.db')
	run --separate-stderr blind app.db
	assert_refused app.db unread
	assert_unchanged app.db
}

@test "t1010.08 --ignore 'journal PATTERN' journals a file git does not ignore" {
	mkfile data.csv 'a,b'
	RG_OPTS=(--ignore 'journal *.csv')
	run --separate-stderr blind data.csv
	refute_refused
	run "$RG" undo data.csv
	assert_success
	assert_content data.csv 'a,b'
}

@test "t1010.09 'journal build/' moves a default-free directory into the journal" {
	project
	RG_OPTS=(--ignore 'journal build/')
	run --separate-stderr blind build/out.o
	refute_refused
	run "$RG" undo build/out.o
	assert_success
	assert_content build/out.o object
}

@test "t1010.10 a changed .gitignore is noticed within the session, by the same process" {
	project
	mkfile data.csv 'a,b'
	run --separate-stderr "$RG" run --log "$LOG" -- bash -c '
		{ printf "1\n" >data.csv; } 2>/dev/null || echo refused-before
		cat .gitignore >/dev/null
		printf "*.csv\n" >>.gitignore
		printf "2\n" >data.csv && echo written-after'
	assert_success
	assert_line refused-before
	assert_line written-after
	assert_content data.csv 2
}

@test "t1010.11 a .gitignore in a subdirectory and its negations count, as in git" {
	project
	mkdir -p sub/keep
	printf '*.tmp\n!keep/\n' >sub/.gitignore
	mkfile sub/a.tmp a
	mkfile sub/keep/b.tmp b
	mkfile c.tmp c
	run --separate-stderr blind sub/a.tmp
	refute_refused
	run --separate-stderr blind sub/keep/b.tmp
	refute_refused
	snapshot c.tmp
	run --separate-stderr blind c.tmp
	assert_refused c.tmp unread
	assert_unchanged c.tmp
}

@test "t1010.12 .git/info/exclude and core.excludesFile count" {
	project
	printf '*.local\n' >>.git/info/exclude
	printf '[core]\n\texcludesFile = ~/global-ignore\n' >"$HOME/.gitconfig"
	printf '*.cache\n' >"$HOME/global-ignore"
	mkfile a.local a
	mkfile b.cache b
	run --separate-stderr blind a.local b.cache
	assert_success
	refute_refused
	assert_content a.local new
	assert_content b.cache new
}

@test "t1010.13 without a journal, a git-ignored file is guarded" {
	project
	snapshot app.db
	RG_OPTS=(--no-journal)
	run --separate-stderr blind app.db
	assert_refused app.db unread
	assert_unchanged app.db
}

@test "t1010.14 a git-ignored file renamed over is journaled too" {
	project
	run --separate-stderr "$RG" run --log "$LOG" -- bash -c 'printf "v2\n" >tmp.new && mv tmp.new app.db'
	assert_success
	refute_refused
	assert_content app.db v2
	run "$RG" undo app.db
	assert_success
	assert_content app.db rows
}

@test "t1010.15 a git work tree above the root still lends its rules" {
	project
	mkdir -p sub
	mkfile sub/x.db x
	cd sub
	run --separate-stderr blind x.db
	refute_refused
	assert_content x.db new
}

@test "t1010.16 one process writing across directories gets each directory's own tier, in either order" {
	project
	# dist/ is free by the built-in rules, docs/ guarded: names of one length.
	mkdir dist docs
	mkfile dist/a.txt old
	mkfile docs/a.txt old
	snapshot docs/a.txt
	run --separate-stderr blind dist/a.txt docs/a.txt dist/b.txt
	assert_refused docs/a.txt unread
	assert_unchanged docs/a.txt
	assert_content dist/a.txt new
	assert_content dist/b.txt new
	mkfile dist/a.txt old
	run --separate-stderr blind docs/a.txt dist/a.txt
	assert_refused docs/a.txt unread
	assert_content dist/a.txt new
}

# A journaled file is written unread only because its old bytes are kept:
# where the journal cannot keep them, nothing would, and it is refused.
@test "t1010.17 journaled: a git-ignored file larger than --journal-max-file is refused unread, saying it is too large" {
	project
	head -c 300K /dev/urandom >big.db
	snapshot big.db
	RG_OPTS=(--journal-max-file 100K)
	run --separate-stderr blind big.db
	assert_failure
	assert_refused big.db unkept
	[[ $stderr == *"${MSG_UNKEPT}it is too large (307200 bytes; --journal-max-file is 102400)"* ]] ||
		fail "the refusal does not say why: $stderr"
	assert_unchanged big.db
	assert_equal "$(log_field 1 reason)" '"unkept"'
}

@test "t1010.18 journaled: with a read-only journal a blind write to a git-ignored file is refused, saying so" {
	project
	local J="$XDG_STATE_HOME/readguard/journal" script='printf "new\n" >app.db'
	mkdir -p "$J"
	snapshot app.db
	run_in_readonly "$J" "$RG" run --log "$LOG" -- sh -c "$script"
	assert_failure
	assert_refused app.db unkept
	[[ $stderr == *"${MSG_UNKEPT}the journal cannot be written (E"* ]] ||
		fail "the refusal does not say why: $stderr"
	assert_unchanged app.db
}

@test "t1010.19 a git-ignored file too large to keep, once read, is written and logged as unsaved" {
	project
	head -c 300K /dev/urandom >big.db
	run --separate-stderr "$RG" run --journal-max-file 100K --log "$LOG" -- \
		bash -c 'cat big.db >/dev/null && printf "new\n" >big.db'
	assert_success
	refute_refused
	assert_content big.db new
	grep -q '"decision":"unsaved","reason":"too-large"' "$LOG"
}

@test "t1010.20 a git-ignored file larger than --journal-max-file renamed over is kept by a link" {
	project
	head -c 300K /dev/urandom >big.db
	cp big.db "$OUT/big.orig"
	run --separate-stderr "$RG" run --journal-max-file 100K --log "$LOG" -- \
		bash -c 'printf "v2\n" >tmp.new && mv tmp.new big.db'
	assert_success
	refute_refused
	[[ $stderr != *"not kept"* ]] || fail "the rename warned: $stderr"
	assert_content big.db v2
	run "$RG" undo big.db
	assert_success
	cmp big.db "$OUT/big.orig"
}

# Opens the C library makes itself (freopen, a spawned child's file action)
# are judged by path first: the old bytes are kept then, or not at all.
@test "t1010.21 journaled: freopen over a git-ignored file keeps its old bytes, and undo brings them back" {
	project
	run --separate-stderr "$RG" run --log "$LOG" -- "$T/rgprobe" freopen app.db w
	assert_success
	assert_output --partial ok
	[ ! -s app.db ] || fail "freopen did not truncate: $(cat app.db)"
	run "$RG" undo app.db
	assert_success
	assert_content app.db rows
}

@test "t1010.22 journaled: freopen over a git-ignored file too large to keep is refused" {
	project
	head -c 300K /dev/urandom >big.db
	snapshot big.db
	run --separate-stderr "$RG" run --journal-max-file 100K --log "$LOG" -- "$T/rgprobe" freopen big.db w
	assert_probe_err EACCES
	assert_refused big.db unkept
	assert_unchanged big.db
}

@test "t1010.23 journaled: a spawned child's open of a git-ignored file keeps its old bytes first" {
	project
	run --separate-stderr "$RG" run --log "$LOG" -- "$PY3" -c '
import os
pid = os.posix_spawn("/bin/echo", ["echo", "new"], os.environ,
    file_actions=[(os.POSIX_SPAWN_OPEN, 1, "app.db", os.O_WRONLY | os.O_TRUNC, 0o644)])
os.waitpid(pid, 0)'
	assert_success
	assert_content app.db new
	run "$RG" undo app.db
	assert_success
	assert_content app.db rows
}

@test "t1010.24 free goes by name: a git-tracked file under build/ is written unread" {
	project
	mkfile build/deploy.sh 'echo deploy'
	git add -f build/deploy.sh
	git commit -qm deploy
	run --separate-stderr blind build/deploy.sh
	refute_refused
	assert_content build/deploy.sh new
}

@test "t1010.25 guard build/ in .readguardignore guards a tracked build/ again" {
	project
	mkfile build/deploy.sh 'echo deploy'
	git add -f build/deploy.sh
	git commit -qm deploy
	printf 'guard build/\n' >.readguardignore
	snapshot build/deploy.sh
	run --separate-stderr blind build/deploy.sh
	assert_refused build/deploy.sh unread
	assert_unchanged build/deploy.sh
}
