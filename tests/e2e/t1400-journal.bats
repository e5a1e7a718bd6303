#!/usr/bin/env bats
# The journal: what a session destroys is kept, and `readguard undo` brings
# it back. Each test does, in a session, what an agent does by accident, and
# checks that undo restores the bytes that were there before.

load helper
load cli_helper

setup() {
	common_setup
	cli_setup
	J="$XDG_STATE_HOME/readguard/journal"
	export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
	export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
}

# repo: a git repository in $W with a.txt committed as "committed" and then
# edited, uncommitted, to "my edit".
repo() {
	git init -q .
	printf 'committed\n' >a.txt
	git add a.txt
	git commit -qm a
	printf 'my edit\n' >a.txt
}

# objects: how many versions the journal holds.
objects() {
	find "$J/objects" -type f ! -name '.*' 2>/dev/null | wc -l
}

@test "t1400.01 git reset --hard, then undo, brings the uncommitted edit back" {
	repo
	rg git reset -q --hard
	assert_file_contains a.txt '^committed$'
	run "$RG" undo a.txt
	assert_success
	assert_equal "$(cat a.txt)" "my edit"
}

@test "t1400.02 git checkout -- ., then undo" {
	repo
	rg git checkout -q -- .
	assert_equal "$(cat a.txt)" committed
	run "$RG" undo a.txt
	assert_success
	assert_equal "$(cat a.txt)" "my edit"
}

@test "t1400.03 git restore, then undo" {
	repo
	rg git restore a.txt
	assert_equal "$(cat a.txt)" committed
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" "my edit"
}

@test "t1400.04 git checkout -f to another branch, then undo" {
	repo
	git stash -q && git checkout -q -b other && printf 'other\n' >a.txt && git commit -qam o
	git checkout -q - && git stash pop -q
	rg git checkout -q -f other
	assert_equal "$(cat a.txt)" other
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" "my edit"
}

@test "t1400.05 git clean -f removes an untracked file; undo recreates it" {
	repo
	printf 'notes\n' >untracked.txt
	rg git clean -q -f
	assert_file_not_exist untracked.txt
	run "$RG" undo untracked.txt
	assert_success
	assert_equal "$(cat untracked.txt)" notes
}

@test "t1400.06 git stash, then undo, brings the edit back to the work tree" {
	repo
	rg git stash -q
	assert_equal "$(cat a.txt)" committed
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" "my edit"
}

@test "t1400.07 cp over a file the session read, then undo" {
	mkfile a.txt original
	mkfile b.txt other
	rgsh 'cat a.txt >/dev/null; cp b.txt a.txt'
	assert_equal "$(cat a.txt)" other
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" original
}

@test "t1400.08 mv over a file the session read, then undo" {
	mkfile a.txt original
	mkfile b.txt other
	rgsh 'cat a.txt >/dev/null; mv b.txt a.txt'
	assert_equal "$(cat a.txt)" other
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" original
}

@test "t1400.09 sed -i, then undo" {
	mkfile a.txt original
	rg sed -i s/original/edited/ a.txt
	assert_equal "$(cat a.txt)" edited
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" original
}

@test "t1400.10 a Python overwrite after a read, then undo" {
	mkfile a.txt original
	rg python3 -c 'p = "a.txt"; open(p).read(); open(p, "w").write("python\n")'
	assert_equal "$(cat a.txt)" python
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" original
}

@test "t1400.11 a Node overwrite after a read, then undo" {
	command -v node >/dev/null || skip "no node"
	mkfile a.txt original
	rg node -e 'const fs = require("fs"); fs.readFileSync("a.txt"); fs.writeFileSync("a.txt", "node\n")'
	assert_equal "$(cat a.txt)" node
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" original
}

@test "t1400.12 undo of an undo puts back what the undo replaced" {
	repo
	rg git reset -q --hard
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" "my edit"
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" committed
}

@test "t1400.13 undo refuses a file changed after the session, and --force restores it" {
	mkfile a.txt original
	rgsh 'cat a.txt >/dev/null; echo session >a.txt'
	external_write a.txt later
	run "$RG" undo a.txt
	assert_failure 1
	assert_output --partial "changed after session"
	assert_equal "$(cat a.txt)" later
	"$RG" undo --force a.txt
	assert_equal "$(cat a.txt)" original
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" later
}

@test "t1400.14 undo takes a relative path from the current directory, after the session ended" {
	mkdir -p sub
	mkfile sub/a.txt original
	rgsh 'cat sub/a.txt >/dev/null; echo new >sub/a.txt'
	cd "$OUT"
	run "$RG" undo "$(realpath --relative-to=. "$W/sub/a.txt")"
	assert_success
	assert_equal "$(cat "$W/sub/a.txt")" original
}

@test "t1400.15 rm of a file, then undo, recreates it with its mode" {
	mkfile a.sh '#!/bin/sh'
	chmod 0750 a.sh
	rg rm a.sh
	assert_file_not_exist a.sh
	"$RG" undo a.sh
	assert_equal "$(cat a.sh)" '#!/bin/sh'
	assert_equal "$(stat -c %a a.sh)" 750
}

@test "t1400.16 the session's later overwrites of its own write keep nothing more" {
	mkfile a.txt original
	rgsh 'cat a.txt >/dev/null; for i in 1 2 3 4 5; do echo $i >a.txt; done'
	run "$RG" history --json a.txt
	assert_equal "${#lines[@]}" 1
	assert_equal "$(objects)" 1
}

@test "t1400.17 identical versions are stored once" {
	mkfile a.txt same
	mkfile b.txt same
	rgsh 'cat a.txt b.txt >/dev/null; echo x >a.txt; echo y >b.txt'
	run "$RG" history --json
	assert_equal "${#lines[@]}" 2
	assert_equal "$(objects)" 1
	assert_equal "$(cat "$J/objects/$(sha256sum <<<same | cut -d' ' -f1)")" same
}

@test "t1400.18 the free tier is not kept: .git internals and build outputs" {
	mkdir -p build .git
	mkfile build/out.o old
	mkfile .git/config old
	rgsh 'cat build/out.o .git/config >/dev/null; echo new >build/out.o; rm .git/config'
	run --separate-stderr "$RG" history --json
	assert_output ""
	assert_equal "$(objects)" 0
}

@test "t1400.19 --no-journal keeps nothing" {
	mkfile a.txt original
	"$RG" run --no-journal -- sh -c 'cat a.txt >/dev/null; echo new >a.txt; rm a.txt'
	assert_file_not_exist "$J"
	run "$RG" undo a.txt
	assert_failure 1
	assert_output --partial "no session kept a version of it"
	assert_output --partial "no session kept it as it was moved or removed (one run with --no-journal keeps nothing)"
}

@test "t1400.20 a read-only state directory: the write goes ahead, one warning, logged as unsaved" {
	mkfile a.txt original
	mkfile b.txt original2
	mkdir -p "$J"
	local script='cat a.txt b.txt >/dev/null; echo new >a.txt; echo new2 >b.txt'
	run_in_readonly "$J" "$RG" run --log "$LOG" -- sh -c "$script"
	assert_success
	assert_equal "$(cat a.txt)" new
	assert_equal "$(cat b.txt)" new2
	assert_equal "$(grep -c 'were not kept in the journal' <<<"$stderr")" 1
	assert_equal "$(grep -c '"decision":"unsaved"' "$LOG")" 2
}

@test "t1400.21 truncate(1) of a read file, then undo" {
	mkfile a.txt original
	rgsh 'cat a.txt >/dev/null; truncate -s 0 a.txt'
	assert_equal "$(stat -c %s a.txt)" 0
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" original
}

@test "t1400.22 the journal is private: mode 0700" {
	mkfile a.txt original
	rg rm a.txt
	assert_equal "$(stat -c %a "$J")" 700
	assert_equal "$(stat -c %a "$J/objects")" 700
	assert_equal "$(stat -c %a "$J/objects/$(sha256sum <<<original | cut -d' ' -f1)")" 600
}

@test "t1400.23 history lists path, process, op and size" {
	mkfile a.txt original
	rg rm a.txt
	run --separate-stderr "$RG" history
	assert_success
	assert_line --index 1 --regexp "^[0-9T:.-]+Z  [0-9]+-[0-9]+ +rm\[[0-9]+\] +unlink +9 B  $W/a.txt$"
}

@test "t1400.24 concurrent writers of one file keep its original once" {
	mkfile a.txt original
	rgsh 'cat a.txt >/dev/null
	      for i in 1 2 3 4 5 6 7 8; do (echo "$i" >a.txt) & done; wait'
	assert_equal "$(objects)" 1
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" original
}

@test "t1400.25 kill -9 during saves leaves each file untouched or its bytes kept whole" {
	for i in $(seq 1 200); do head -c 20000 /dev/urandom >"f$i"; done
	sha256sum f* >"$OUT/before"
	"$RG" run --log "$LOG" -- sh -c 'for f in f*; do rm "$f"; done' &
	local pid=$! i
	# The kill waits for the first removal, so it lands among the saves.
	for ((i = 0; i < 500; i++)); do
		[ "$(ls f* | wc -l)" -lt 200 ] && break
		sleep 0.01
	done
	pkill -KILL -P "$pid" sh 2>/dev/null || true
	kill -KILL "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	# A removed file is kept by a link, named by its inode until a run
	# ends normally and names it by content (this one was killed). An rm
	# may still be running: the files gone are listed before the objects.
	while read -r sum f; do
		if [ -e "$f" ]; then
			assert_equal "$(sha256sum <"$f" | cut -d' ' -f1)" "$sum"
		else
			echo "$sum $f"
		fi
	done <"$OUT/before" >"$OUT/gone"
	for o in "$J"/objects/*; do
		sha256sum <"$o" | cut -d' ' -f1
	done >"$OUT/kept"
	while read -r sum f; do
		grep -qx "$sum" "$OUT/kept" || fail "$f is gone, its bytes not kept"
	done <"$OUT/gone"
	local gone
	gone=$(wc -l <"$OUT/gone")
	[ "$gone" -gt 0 ] && [ "$gone" -lt 200 ] || fail "the kill did not land among the saves ($gone of 200 gone)"
	for o in "$J"/objects/[0-9a-f]*; do
		[ -e "$o" ] || continue # every removal kept by a link: none named by content yet
		assert_equal "$(sha256sum <"$o" | cut -d' ' -f1)" "$(basename "$o")"
	done
}

@test "t1400.26 undo of a file no session changed says so" {
	mkfile a.txt original
	run "$RG" undo a.txt
	assert_failure 1
	assert_output --partial "no session kept a version of it"
}

@test "t1400.27 a static program under --supervise overwrites a file; undo brings it back" {
	out=$("$RG" run --supervise -- true 2>&1) || skip "supervised mode unavailable: $out"
	mkfile a.txt original
	mkfile b.txt original-b
	run "$RG" run --supervise --log "$LOG" -- "$T/rgstatic" read a.txt write a.txt static read b.txt truncate b.txt
	assert_success
	assert_equal "$(cat a.txt)" static
	assert_equal "$(stat -c %s b.txt)" 0
	"$RG" undo a.txt b.txt
	assert_equal "$(cat a.txt)" original
	assert_equal "$(cat b.txt)" original-b
	run "$RG" history a.txt
	assert_output --partial "rgstatic["
}

@test "t1400.28 opening a read file for writing again and again, without writing, keeps it once" {
	mkfile a.txt original
	rgsh 'cat a.txt >/dev/null; for i in 1 2 3 4; do exec 3<>a.txt; exec 3>&-; done'
	run "$RG" history --json a.txt
	assert_equal "${#lines[@]}" 1
}

@test "t1400.29 switching branches back and forth, a session each time, stores each version once" {
	repo
	local base
	base=$(git symbolic-ref --short HEAD)
	git add a.txt && git commit -qm edit && git checkout -q -b other HEAD~1
	printf 'other\n' >a.txt && git commit -qam other
	for i in 1 2 3; do
		rg git checkout -q "$base"
		rg git checkout -q other
	done
	run "$RG" history --json a.txt
	assert_equal "${#lines[@]}" 6
	assert_equal "$(objects)" 2
}

@test "t1400.30 diff shows the kept version against the file now, as diff -u" {
	printf 'one\ntwo\n' >a.txt
	rg sed -i s/two/three/ a.txt
	run "$RG" diff a.txt
	assert_failure 1
	assert_line --index 0 --regexp '^--- a.txt \(before session [0-9]+-[0-9]+\)$'
	assert_line --index 1 '+++ a.txt'
	assert_line -- '-two'
	assert_line -- '+three'
}

@test "t1400.31 diff of a removed file shows every line removed" {
	printf 'one\ntwo\n' >a.txt
	rg rm a.txt
	run "$RG" diff a.txt
	assert_failure 1
	assert_line -- '-one'
	assert_line -- '-two'
}

@test "t1400.32 diff of a file no session changed says so, exit 2 as diff(1) of a missing file, not 1 for differs" {
	mkfile a.txt x
	run "$RG" diff a.txt
	assert_failure 2
	assert_output --partial "no session kept a version of it"
}

@test "t1400.33 undo --all restores every file the last session changed, and leaves its new files" {
	mkfile a.txt a-original
	mkfile b.txt b-original
	mkfile c.txt c-original
	rgsh 'cat a.txt b.txt >/dev/null; echo x >a.txt; rm b.txt; echo new >new.txt'
	run "$RG" undo --all
	assert_success
	assert_equal "$(cat a.txt)" a-original
	assert_equal "$(cat b.txt)" b-original
	assert_equal "$(cat c.txt)" c-original
	assert_file_exist new.txt
}

@test "t1400.34 undo --all --session ID undoes that session, not a later one" {
	mkfile a.txt first
	mkfile b.txt other
	rg rm a.txt
	rg rm b.txt
	local id
	id=$("$RG" history --json "$W/a.txt" | sed -n 's/^{"session":"\([^"]*\)".*/\1/p')
	run "$RG" undo --all --session "$id"
	assert_success
	assert_equal "$(cat a.txt)" first
	assert_file_not_exist b.txt
}

@test "t1400.35 undo --all with a FILE, or neither, is a usage error" {
	run "$RG" undo --all a.txt
	assert_failure 2
	run "$RG" undo
	assert_failure 2
}

@test "t1400.36 git switch behaves as bare: exit 0, the branch's files, nothing refused" {
	repo
	git commit -qam edit
	local base
	base=$(git symbolic-ref --short HEAD)
	git checkout -q -b other && printf 'other\n' >a.txt && git commit -qam o && git checkout -q "$base"
	run --separate-stderr rg git switch -q other
	assert_success
	assert_equal "$stderr" ""
	assert_equal "$(cat a.txt)" other
	assert_equal "$(git status --porcelain)" ""
}

@test "t1400.37 sessions older than READGUARD_JOURNAL_DAYS are pruned when a run ends" {
	mkfile a.txt old
	rg rm a.txt
	local old_id=0001000000000000000-1
	mv "$J/sessions/"*.jsonl "$J/sessions/$old_id.jsonl"
	touch -d '2020-01-01' "$J/objects/"*
	rm "$J/.pruned" # pruning runs at most once an hour
	mkfile b.txt new
	rg rm b.txt
	assert_file_not_exist "$J/sessions/$old_id.jsonl"
	assert_file_not_exist "$J/objects/$(sha256sum <<<old | cut -d' ' -f1)"
	assert_file_exist "$J/objects/$(sha256sum <<<new | cut -d' ' -f1)"
	run "$RG" undo b.txt
	assert_success
}

@test "t1400.38 a journal over READGUARD_JOURNAL_MAX drops its oldest sessions, never the last" {
	for f in a b c; do
		mkfile $f.txt "$f content"
		rm -f "$J/.pruned"
		READGUARD_JOURNAL_MAX=1 rg rm $f.txt
	done
	run "$RG" history --json
	assert_equal "${#lines[@]}" 1
	assert_output --partial "$W/c.txt"
	run "$RG" undo a.txt
	assert_failure 1
	"$RG" undo c.txt
	assert_equal "$(cat c.txt)" "c content"
}

@test "t1400.39 --journal-max-file: a larger file the session read is overwritten, logged as too-large, and not kept" {
	head -c 5000 /dev/urandom >big
	mkfile small x
	run --separate-stderr "$RG" run --journal-max-file 4K --log "$LOG" -- \
		sh -c 'cat big small >/dev/null && echo new >big && echo new >small'
	assert_success
	assert_content big new
	assert_output ""
	[[ $stderr == *"too-large"* ]] || fail "no too-large warning: $stderr"
	grep -q '"decision":"unsaved","reason":"too-large"' "$LOG"
	run "$RG" undo big
	assert_failure 1
	assert_output --partial "not kept (too-large)"
	"$RG" undo small
	assert_content small x
}

@test "t1400.40 --journal-max-file rejects a size that is not one" {
	run "$RG" run --journal-max-file 0 -- true
	assert_failure 125
	run "$RG" run --journal-max-file 12Q -- true
	assert_failure 125
}

# A name that is not UTF-8 (Latin-1 "café", and a '%', which the journal's
# byte escape uses itself).
latin1=$'caf\xe9 100%.txt'

@test "t1400.41 a file whose name is not UTF-8: history and diff find it by that name, and --json stays JSON" {
	printf 'old\n' >"$latin1"
	rg sh -c 'cat "$1" >/dev/null && printf "new\n" >"$1"' sh "$latin1"
	run "$RG" history "$latin1"
	assert_success
	assert_output --partial "$W/$latin1"
	run "$RG" history --json "$latin1"
	assert_success
	run python3 -c 'import json, sys; print(json.loads(sys.stdin.readline())["path_bytes"])' <<<"$output"
	assert_success
	assert_output "$W/caf%e9 100%25.txt"
	run "$RG" diff "$latin1"
	assert_failure 1
	assert_line -- "-old"
	assert_line -- "+new"
}

@test "t1400.42 a file whose name is not UTF-8: undo brings back its bytes, overwritten or removed" {
	printf 'old\n' >"$latin1"
	rg sh -c 'cat "$1" >/dev/null && printf "new\n" >"$1"' sh "$latin1"
	"$RG" undo "$latin1"
	assert_equal "$(cat "$latin1")" old
	rg rm "$latin1"
	assert_file_not_exist "$latin1"
	"$RG" undo "$latin1"
	assert_equal "$(cat "$latin1")" old
	assert_equal "$(ls)" "$latin1"
}

@test "t1400.43 undo --all after an undo of another file undoes the last session, not that undo" {
	mkfile a.txt a-original
	mkfile c.txt c-original
	rgsh 'cat c.txt >/dev/null; echo x >c.txt'
	rgsh 'cat a.txt >/dev/null; echo x >a.txt'
	"$RG" undo c.txt
	run "$RG" undo --all
	assert_success
	assert_equal "$(cat a.txt)" a-original
	assert_equal "$(cat c.txt)" c-original
}

@test "t1400.44 undo --all picks the newest session that changed a file under the current directory" {
	mkdir p q
	mkfile p/a.txt p-original
	mkfile q/a.txt q-original
	(cd p && rgsh 'cat a.txt >/dev/null; echo x >a.txt')
	(cd q && rgsh 'cat a.txt >/dev/null; echo y >a.txt')
	cd p
	run "$RG" undo --all
	assert_success
	assert_equal "$(cat a.txt)" p-original
	assert_equal "$(cat ../q/a.txt)" y
}

@test "t1400.45 undo --all says which session it picked, and how many files, before restoring" {
	mkfile a.txt a
	mkfile b.txt b
	rgsh 'cat a.txt b.txt >/dev/null; echo x >a.txt; rm b.txt'
	local id
	id=$("$RG" history --json "$W/a.txt" | sed -n 's/^{"session":"\([^"]*\)".*/\1/p')
	run --separate-stderr "$RG" undo --all
	assert_success
	assert_equal "${stderr_lines[0]}" "readguard: undoing session $id: 2 files under '$(pwd -P)'"
}

@test "t1400.46 undo --all where no session changed a file says so, exit 1" {
	mkfile a.txt a
	rgsh 'cat a.txt >/dev/null; echo x >a.txt'
	mkdir elsewhere && cd elsewhere
	run "$RG" undo --all
	assert_failure 1
	assert_output --partial "no session changed a file under"
	assert_equal "$(cat ../a.txt)" x
}

@test "t1400.47 history of a file no session kept a version of says so on stderr, exit 0" {
	mkfile a.txt a
	mkfile b.txt b
	rgsh 'cat a.txt >/dev/null; echo x >a.txt'
	run --separate-stderr "$RG" history a.txt b.txt
	assert_success
	assert_line --partial "$W/a.txt"
	assert_equal "$stderr" "readguard: history: 'b.txt': no session kept a version of it"
}

@test "t1400.48 history of an empty journal says so on stderr, exit 0" {
	run --separate-stderr "$RG" history
	assert_success
	assert_output ""
	assert_equal "$stderr" "readguard: history: no session kept a file in the journal"
}

@test "t1400.49 history starts with a header, and its columns line up with it" {
	mkfile a.txt original
	seq 1 2000 >b.txt
	rgsh 'cat a.txt b.txt >/dev/null; rm a.txt; echo x >b.txt'
	run --separate-stderr "$RG" history
	assert_success
	assert_line --index 0 --regexp '^TIME +SESSION +PROCESS +OP +SIZE  PATH$'
	local path_at
	path_at=$(awk 'NR == 1 { print index($0, "PATH") }' <<<"$output")
	assert_equal "$(cut -c"$path_at"- <<<"${lines[1]}")" "$W/a.txt"
	assert_equal "$(cut -c"$path_at"- <<<"${lines[2]}")" "$W/b.txt"
	assert_line --index 2 --partial " 8.7 KiB  $W/b.txt"
}

@test "t1400.50 history --json has no header" {
	mkfile a.txt original
	rg rm a.txt
	run --separate-stderr "$RG" history --json
	assert_equal "${#lines[@]}" 1
	[[ ${lines[0]} == '{"session":'* ]] || fail "$output"
}

@test "t1400.51 diff of a removed file labels the new side /dev/null" {
	printf 'one\n' >a.txt
	rg rm a.txt
	run "$RG" diff a.txt
	assert_failure 1
	assert_line --index 1 '+++ /dev/null'
}

# projects: files in p/ (one of them in p/sub/), p2/ and q/, each removed in
# a session, so the journal holds one version of each.
projects() {
	mkdir -p p/sub p2 q
	mkfile p/a.txt pa
	mkfile p/sub/b.txt pb
	mkfile p2/c.txt p2c
	mkfile q/d.txt qd
	rg rm p/a.txt p/sub/b.txt p2/c.txt q/d.txt
}

@test "t1400.52 history DIR lists only the versions of files under DIR, under the header" {
	projects
	run --separate-stderr "$RG" history p
	assert_success
	assert_equal "$stderr" ""
	assert_equal "${#lines[@]}" 3
	assert_line --index 0 --regexp '^TIME +SESSION +PROCESS +OP +SIZE  PATH$'
	assert_line --index 1 --regexp "  $W/p/a.txt$"
	assert_line --index 2 --regexp "  $W/p/sub/b.txt$"
}

@test "t1400.53 history --json DIR prints only the records of files under DIR" {
	projects
	run --separate-stderr "$RG" history --json "$W/q"
	assert_success
	assert_equal "${#lines[@]}" 1
	"$PY3" -c 'import json, sys; o = json.loads(sys.argv[1]); assert o["path"] == sys.argv[2], o' \
		"${lines[0]}" "$W/q/d.txt" || fail "$output"
}

@test "t1400.54 history DIR leaves out a sibling whose name starts with DIR's" {
	projects
	run --separate-stderr "$RG" history p
	refute_output --partial "$W/p2/"
}

@test "t1400.55 history DIR/ of a directory that is gone lists what was kept under it" {
	projects
	rm -r q
	run --separate-stderr "$RG" history q/
	assert_success
	assert_equal "${#lines[@]}" 2
	assert_line --index 1 --regexp "  $W/q/d.txt$"
}

@test "t1400.56 history DIR through a symbolic link lists the versions under its target" {
	projects
	ln -s "$W/p/sub" "$OUT/link"
	run --separate-stderr "$RG" history "$OUT/link"
	assert_success
	assert_equal "${#lines[@]}" 2
	assert_line --index 1 --regexp "  $W/p/sub/b.txt$"
}

@test "t1400.57 history of a directory no session kept a version under says so on stderr, exit 0" {
	projects
	mkdir empty
	run --separate-stderr "$RG" history empty p
	assert_success
	assert_line --partial "$W/p/a.txt"
	assert_equal "$stderr" "readguard: history: 'empty': no session kept a version of a file under it"
}

# STATE: where default logs go. refused_log: a session that refused a write
# and has ended, its default log ($L) last changed 40 days ago.
refused_log() {
	STATE="$XDG_STATE_HOME/readguard"
	mkfile r.txt r
	"$RG" run -- sh -c 'echo x >r.txt' 2>/dev/null || true
	L=$(echo "$STATE"/readguard-*.log)
	[ -f "$L" ] || fail "no default log: $L"
	touch -d '40 days ago' "$L"
}

@test "t1400.58 an ended session's default log older than READGUARD_JOURNAL_DAYS is removed when a run ends" {
	refused_log
	rm "$STATE/.pruned-logs" # pruning runs at most once an hour
	"$RG" run -- true
	assert_file_not_exist "$L"
}

@test "t1400.59 a run prunes the default logs at most once an hour" {
	refused_log # its run ended by pruning, which it stamped
	assert_file_exist "$STATE/.pruned-logs"
	"$RG" run -- true
	assert_file_exist "$L"
}

@test "t1400.60 undo --all run twice: the second says the files are already restored, exit 0" {
	mkfile a.txt a-original
	rgsh 'cat a.txt >/dev/null; echo x >a.txt'
	"$RG" undo --all 2>/dev/null
	run "$RG" undo --all
	assert_success
	assert_output --partial "'$(pwd -P)/a.txt' is already as it was before session"
	refute_output --partial "changed after session"
	assert_equal "$(cat a.txt)" a-original
}

@test "t1400.61 undo still refuses a file changed since to other bytes than the kept ones" {
	mkfile a.txt a-original
	rgsh 'cat a.txt >/dev/null; echo x >a.txt'
	"$RG" undo --all 2>/dev/null
	external_write a.txt later
	run "$RG" undo --all
	assert_failure 1
	assert_output --partial "changed after session"
	assert_equal "$(cat a.txt)" later
}

@test "t1400.62 undo of a directory says undo takes files, and points to history DIR" {
	mkdir d
	mkfile d/a.txt a
	rgsh 'cat d/a.txt >/dev/null; echo x >d/a.txt'
	run "$RG" undo d
	assert_failure 1
	assert_output --partial "undo: 'd' is a directory: undo takes files ('readguard history d'"
	refute_output --partial "no session kept a version of it"
	assert_equal "$(cat d/a.txt)" x
}

@test "t1400.63 diff of a directory says diff takes files, and points to history DIR" {
	mkdir d
	mkfile d/a.txt a
	rgsh 'cat d/a.txt >/dev/null; echo x >d/a.txt'
	run "$RG" diff d
	assert_failure 2
	assert_output --partial "diff: 'd' is a directory: diff takes files ('readguard history d'"
	refute_output --partial "no session kept a version of it"
}

@test "t1400.64 undo of a file renamed away since the session says it is gone, not changed" {
	mkfile a.txt original
	rgsh 'cat a.txt >/dev/null; echo session >a.txt'
	mv a.txt elsewhere.txt
	run "$RG" undo a.txt
	assert_failure 1
	assert_output --partial "undo: 'a.txt': it was removed or renamed after session"
	assert_output --partial "--force recreates it anyway"
	assert_file_not_exist a.txt
}

@test "t1400.65 undo --all --session with an id no session had says so, exit 1" {
	mkfile a.txt original
	rgsh 'cat a.txt >/dev/null; echo x >a.txt'
	run "$RG" undo --all --session 123-456
	assert_failure 1
	assert_output "readguard: undo: session 123-456 kept no file in the journal (see 'readguard history')"
	assert_equal "$(cat a.txt)" x
}

@test "t1400.66 history --session with an id no session had names that id" {
	mkfile a.txt original
	rgsh 'cat a.txt >/dev/null; echo x >a.txt'
	run --separate-stderr "$RG" history --session 123-456
	assert_success
	assert_output ""
	assert_equal "$stderr" "readguard: history: session 123-456 kept no file in the journal"
}

@test "t1400.67 history of a gone directory named without its / points to DIR/" {
	projects
	rm -r q
	run --separate-stderr "$RG" history q
	assert_success
	assert_output ""
	assert_equal "$stderr" "readguard: history: 'q': no session kept a version of it, but of files under it: a directory then, gone now ('readguard history q/' lists them)"
}

@test "t1400.68 undo of an undo says it restored the file as it was before the undo" {
	repo
	rg git reset -q --hard
	"$RG" undo a.txt 2>/dev/null
	run "$RG" undo a.txt
	assert_success
	assert_output --regexp "^readguard: restored 'a.txt' as it was before the undo [0-9]+-[0-9]+ changed it$"
	assert_equal "$(cat a.txt)" committed
}

# A file losing its last name is kept by a link to its inode: that takes no
# room, so the per-file cap, which is about copies, does not apply.
@test "t1400.90 rm of a file larger than --journal-max-file keeps it by a link; undo brings it back" {
	head -c 300K /dev/urandom >big
	cp big "$OUT/big.orig"
	run --separate-stderr "$RG" run --journal-max-file 100K --log "$LOG" -- rm big
	assert_success
	assert_file_not_exist big
	[[ $stderr != *"not kept"* ]] || fail "rm warned: $stderr"
	run "$RG" undo big
	assert_success
	cmp big "$OUT/big.orig"
}

@test "t1400.91 git checkout -- of an edited file larger than --journal-max-file keeps it by a link" {
	git init -q .
	head -c 300K /dev/urandom >big
	git add big
	git commit -qm big
	head -c 300K /dev/urandom >big
	cp big "$OUT/big.edit"
	run --separate-stderr "$RG" run --journal-max-file 100K --log "$LOG" -- git checkout -q -- big
	assert_success
	[[ $stderr != *"not kept"* ]] || fail "git checkout warned: $stderr"
	run "$RG" undo big
	assert_success
	cmp big "$OUT/big.edit"
}

@test "t1400.92 undo of a file moved where no session kept it says so, and where to look" {
	mkfile a.txt original
	mv a.txt b.txt
	run --separate-stderr "$RG" undo a.txt
	assert_failure 1
	assert_equal "$stderr" "readguard: undo: 'a.txt': no session kept a version of it (see 'readguard history'); it is not there now, and no session kept it as it was moved or removed (one run with --no-journal keeps nothing): if it was moved, look for it under its new name"
	assert_content b.txt original
}

@test "t1400.93 history of a file moved where no session kept it says so, exit 0" {
	mkfile a.txt original
	"$RG" run --no-journal -- mv a.txt b.txt
	run --separate-stderr "$RG" history a.txt
	assert_success
	assert_output ''
	[[ $stderr == "readguard: history: 'a.txt': no session kept a version of it; it is not there now, and no session kept it as it was moved or removed"* ]] || fail "$stderr"
}

@test "t1400.94 undo of a file that is there and was never kept names --no-journal as a reason" {
	mkfile a.txt original
	run --separate-stderr "$RG" undo a.txt
	assert_failure 1
	assert_equal "$stderr" "readguard: undo: 'a.txt': no session kept a version of it (see 'readguard history'); a session run with --no-journal keeps nothing"
}

@test "t1400.95 undo, history and diff inside a --no-journal session say that it keeps nothing" {
	mkfile a.txt original
	local v
	for v in undo history diff; do
		run --separate-stderr "$RG" run --no-journal -- sh -c 'cat a.txt >/dev/null; echo new >a.txt; "$0" "$1" a.txt' "$RG" "$v"
		[[ ${stderr_lines[0]} == "readguard: note: session "*" runs with --no-journal: it keeps nothing in the journal, and what it changes cannot be undone" ]] ||
			fail "$v: $stderr"
	done
}

@test "t1400.96 undo inside a session that keeps a journal adds no note about --no-journal" {
	mkfile a.txt original
	run --separate-stderr "$RG" run -- sh -c 'cat a.txt >/dev/null; echo new >a.txt; "$0" undo a.txt' "$RG"
	assert_success
	refute [ -z "$stderr" ]
	[[ $stderr != *"--no-journal"* ]] || fail "$stderr"
	assert_content a.txt original
}

@test "t1400.97 undo of a file under a running --no-journal session's root names that session" {
	mkfile a.txt original
	new_session --no-journal
	in_session sh -c 'cat a.txt >/dev/null; echo new >a.txt'
	local id
	id=$("$RG" status --json --session "$S" | "$PY3" -c 'import json, sys; print(json.load(sys.stdin)["id"])')
	run --separate-stderr "$RG" undo a.txt
	assert_failure 1
	assert_equal "$stderr" "readguard: undo: 'a.txt': no session kept a version of it (see 'readguard history'); session $id, run with --no-journal over it, keeps nothing"
}

@test "t1400.98 undo of a file outside a running --no-journal session's roots does not name it" {
	mkdir -p other
	mkfile a.txt original
	new_session --no-journal --root "$W/other"
	run --separate-stderr "$RG" undo a.txt
	assert_failure 1
	[[ $stderr != *"run with --no-journal over it"* ]] || fail "$stderr"
}

@test "t1400.99 history of a file under a running --no-journal session's root names that session" {
	mkfile a.txt original
	new_session --no-journal
	run --separate-stderr "$RG" history a.txt
	assert_success
	[[ $stderr == "readguard: history: 'a.txt': no session kept a version of it; session "*", run with --no-journal over it, keeps nothing" ]] || fail "$stderr"
}

@test "t1400.100 a process with another state directory keeps versions in its session's fresh journal" {
	mkfile a.txt original
	local st=$BATS_TEST_TMPDIR/elsewhere
	new_session
	HOME=$st XDG_STATE_HOME=$st in_session sh -c 'cat a.txt >/dev/null; echo new >a.txt'
	run --separate-stderr "$RG" undo a.txt
	assert_success
	assert_content a.txt original
}

@test "t1400.101 a read-only journal's warning names the journal and what to do" {
	mkfile a.txt original
	mkdir -p "$J"
	run_in_readonly "$J" "$RG" run -- sh -c 'cat a.txt >/dev/null; echo new >a.txt'
	assert_success
	[[ $stderr == *"were not kept in the journal '$J'"*"--no-journal"* ]] || fail "$stderr"
}

@test "t1400.102 a record cut short by a full index (RLIMIT_FSIZE) hides no version kept after it" {
	local i
	for i in 1 2 3 4 5 6 7 8; do mkfile "f$i" "f$i"; done
	mkfile last.txt 'last content'
	# The limited subshell's appends reach 1 KiB mid-record: a short write,
	# then none; the last rm, unlimited, appends after the cut record.
	rgsh 'trap "" XFSZ; (ulimit -f 1; rm f1 f2 f3 f4 f5 f6 f7 f8) 2>/dev/null; rm last.txt'
	run tail -c 1 "$J/sessions/"*.jsonl
	assert_output ''
	"$RG" undo last.txt
	assert_equal "$(cat last.txt)" 'last content'
}

# a.txt, overwritten by a session, whose kept version is what a power cut
# can leave of a copy nothing fsync'd: part of it.
damage_kept_version() {
	mkfile a.txt 'original content'
	rgsh 'cat a.txt >/dev/null && echo new >a.txt'
	local obj
	obj="$J/objects/$(printf 'original content\n' | sha256sum | cut -d' ' -f1)"
	assert_file_exist "$obj"
	truncate -s 3 "$obj"
}

@test "t1400.103 undo refuses a kept version whose bytes no longer match their name, and leaves the file as it is" {
	damage_kept_version
	run --separate-stderr "$RG" undo a.txt
	assert_failure 2
	assert_equal "$(cat a.txt)" new
	assert_equal "$stderr" "readguard: undo: 'a.txt': the kept version is damaged (its bytes no longer match their name: part of a copy a power cut cut short?); not restoring"
	run "$RG" history --json a.txt
	refute_output --partial '"op":"undo"'
}

@test "t1400.104 an undo whose keep of the file now runs into a file size limit says so and restores nothing" {
	mkfile a.txt old
	rgsh 'cat a.txt >/dev/null && head -c 300000 /dev/zero >a.txt'
	run --separate-stderr bash -c 'trap "" XFSZ; ulimit -f 100; "$RG" undo a.txt'
	assert_failure
	assert_equal "$stderr" "readguard: undo: 'a.txt': cannot keep its content now in the journal, so not restoring: File too large"
	assert_equal "$(stat -c %s a.txt)" 300000
}

@test "t1400.105 a write that lands while undo keeps the file's content is not lost: undo restores nothing, exit 1" {
	need_strace
	mkfile a.txt old
	rgsh 'cat a.txt >/dev/null && echo current >a.txt'
	local obj
	obj="$J/objects/$(printf 'current\n' | sha256sum | cut -d' ' -f1)"
	# Held as it publishes its copy of "current" (kept already: a claim),
	# while another program writes the file.
	strace -f -o "$BATS_TEST_TMPDIR/tr" -P "$obj" -e trace=utimensat,renameat2 \
		-e inject=utimensat:delay_exit=1500000 -e inject=renameat2:delay_exit=1500000 \
		"$RG" undo a.txt 2>"$BATS_TEST_TMPDIR/undo.err" &
	local undo=$!
	await_trace_exit "$BATS_TEST_TMPDIR/tr" 'utimensat|renameat2'
	external_write a.txt 'late write'
	local rc=0
	wait "$undo" || rc=$?
	assert_equal "$rc" 1
	assert_equal "$(cat a.txt)" 'late write'
	run cat "$BATS_TEST_TMPDIR/undo.err"
	assert_output "readguard: undo: 'a.txt': it changed while undo kept its content; nothing restored (run undo again)"
}

@test "t1400.106 diff does not show a damaged kept version as the old side: it says so and exits 2" {
	damage_kept_version
	run --separate-stderr "$RG" diff a.txt
	assert_failure 2
	assert_output ''
	assert_equal "$stderr" "readguard: diff: 'a.txt': the kept version is damaged (its bytes no longer match their name: part of a copy a power cut cut short?); undo refuses it too"
}

# hold_undo_restore [INJECT]: a.txt is "old", overwritten by a session with
# "current"; `readguard undo a.txt` runs in the background (undoer) under
# strace, its renames of a.txt (by path, or in its directory, where undo
# acts) held 3 s as they enter (INJECT replaces that); the test waits until
# the held rename is entered, undo having kept a.txt's content now, so the
# write it makes next lands between that look and the restore. strace's own
# lines go to $BATS_TEST_TMPDIR/strace, undo's stderr to undo.err.
hold_undo_restore() {
	need_strace
	mkfile a.txt old
	rgsh 'cat a.txt >/dev/null && echo current >a.txt'
	local abs spec=${1:-rename,renameat,renameat2:delay_enter=3000000:when=1} when=1
	abs=$(realpath a.txt)
	[[ $spec =~ :when=([0-9]+) ]] && when=${BASH_REMATCH[1]}
	strace -f -o "$BATS_TEST_TMPDIR/strace" -P "$abs" -P "$W" -e trace=rename,renameat,renameat2 -e "inject=$spec" \
		"$RG" undo a.txt 2>"$BATS_TEST_TMPDIR/undo.err" &
	undoer=$!
	await_trace "$BATS_TEST_TMPDIR/strace" "$(spec=${spec%%:*} && echo "${spec//,/|}")" "$when"
	grep -qs '"op":"undo"' "$J/sessions/"*.jsonl || fail "undo kept nothing: $(cat "$BATS_TEST_TMPDIR/undo.err")"
}

# assert_renamed_after_einval: undo's exchange failed with the injected
# EINVAL, and a plain rename put the restored version in place.
assert_renamed_after_einval() {
	run grep -c 'RENAME_EXCHANGE.*EINVAL.*(INJECTED)' "$BATS_TEST_TMPDIR/strace"
	assert_output 1
	run grep -c '^[0-9]* *renameat(.*[/"]a.txt") = 0$' "$BATS_TEST_TMPDIR/strace"
	assert_output 1
}

@test "t1400.107 a write that lands between undo's keep and its restore is kept in the journal, and undo brings it back" {
	hold_undo_restore
	external_write a.txt 'late write'
	local status=0
	wait "$undoer" || status=$?
	assert_equal "$status" 1
	assert_equal "$(cat a.txt)" old
	run cat "$BATS_TEST_TMPDIR/undo.err"
	assert_output "readguard: undo: 'a.txt': a write landed on it as undo restored it: restored, and the bytes that write left are kept in the journal ('readguard undo a.txt' brings them back)"
	run ls -A
	assert_output a.txt
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" 'late write'
}

@test "t1400.108 a file that replaces the one undo kept, by a rename, before the restore is kept in the journal" {
	hold_undo_restore
	printf 'replaced\n' >b.new
	mv b.new a.txt
	local status=0
	wait "$undoer" || status=$?
	assert_equal "$status" 1
	assert_equal "$(cat a.txt)" old
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" replaced
}

@test "t1400.109 where the filesystem cannot exchange (EINVAL), undo renames, and a write that landed before is still kept" {
	hold_undo_restore 'renameat2:error=EINVAL:delay_enter=3000000:when=1'
	external_write a.txt 'late write'
	local status=0
	wait "$undoer" || status=$?
	assert_equal "$status" 1
	assert_renamed_after_einval
	assert_equal "$(cat a.txt)" old
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" 'late write'
}

@test "t1400.110 a file created where undo recreates a removed one, before the restore, is kept in the journal" {
	need_strace
	mkfile a.txt old
	rg rm a.txt
	local abs i
	abs=$(realpath -m a.txt)
	strace -f -o "$BATS_TEST_TMPDIR/tr" -P "$abs" -P "$W" -e trace=rename,renameat,renameat2 \
		-e inject=rename,renameat,renameat2:delay_enter=3000000:when=1 \
		"$RG" undo a.txt 2>"$BATS_TEST_TMPDIR/undo.err" &
	undoer=$!
	# Staged: undo's look finds nothing to keep, and its restore is held.
	await_trace "$BATS_TEST_TMPDIR/tr" 'rename|renameat|renameat2'
	printf 'new file\n' >a.txt
	local status=0
	wait "$undoer" || status=$?
	assert_equal "$status" 1
	assert_equal "$(cat a.txt)" old
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" 'new file'
}

@test "t1400.111 a write caught by undo's restore that the journal cannot take is left beside the file, and undo says where" {
	hold_undo_restore
	external_write a.txt 'late write'
	# The journal's objects/ is no directory by the time undo keeps it.
	mv "$J/objects" "$J/objects.away" && : >"$J/objects"
	local status=0
	wait "$undoer" || status=$?
	assert_equal "$status" 2
	assert_equal "$(cat a.txt)" old
	run cat "$BATS_TEST_TMPDIR/undo.err"
	assert_output --regexp "^readguard: undo: 'a.txt': a write landed on it as undo restored it: restored, but the bytes that write left cannot be kept in the journal \(Not a directory\); they are in '$W/\.a\.txt\.rg-undo-[0-9]+'$"
	assert_equal "$(cat .a.txt.rg-undo-*)" 'late write'
}

@test "t1400.112 after a rename fallback, a caught write the journal cannot take is left beside the file" {
	hold_undo_restore 'renameat2:error=EINVAL:delay_enter=3000000:when=1'
	external_write a.txt 'late write'
	mv "$J/objects" "$J/objects.away" && : >"$J/objects"
	local status=0
	wait "$undoer" || status=$?
	assert_equal "$status" 2
	assert_renamed_after_einval
	assert_equal "$(cat a.txt)" old
	run cat "$BATS_TEST_TMPDIR/undo.err"
	assert_output --regexp "they are in '$W/\.a\.txt\.rg-undo-[0-9]+'$"
	assert_equal "$(cat .a.txt.rg-undo-*)" 'late write'
}

@test "t1400.113 a write in the window that leaves the kept file's size and mtime (a same-tick rewrite) is told by its bytes, and kept" {
	hold_undo_restore
	local mtime
	mtime=$(stat -c '%.9Y' a.txt)
	external_write a.txt 'CURRENT'
	touch -m -d "@$mtime" a.txt
	local status=0
	wait "$undoer" || status=$?
	assert_equal "$status" 1
	assert_equal "$(cat a.txt)" old
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" CURRENT
}

# hold_open REDIR [CMD]: a.txt is "old", overwritten by a session with
# "current"; then a process outside any session (holder) opens it as fd 3
# with bash's REDIR (">>", "<") and waits for "$BATS_TEST_TMPDIR/go" to be
# written before it runs CMD.
hold_open() {
	mkfile a.txt old
	rgsh 'cat a.txt >/dev/null && echo current >a.txt'
	mkfifo "$BATS_TEST_TMPDIR/go"
	bash -c "exec 3$1a.txt; read -r _ <\"\$1\"; ${2:-}" _ "$BATS_TEST_TMPDIR/go" &
	holder=$!
	await holds_open "$holder" 3
}

# holds_open PID FD: PID has a.txt open as FD.
holds_open() {
	[ "$(readlink "/proc/$1/fd/$2")" = "$W/a.txt" ]
}

# maps_closed PID: PID maps a.txt, and has closed every descriptor of it.
maps_closed() {
	grep -q "$W/a.txt" "/proc/$1/maps" 2>/dev/null || return 1
	local fd
	for fd in "/proc/$1/fd/"*; do
		[ "$(readlink "$fd")" != "$W/a.txt" ] || return 1
	done
}

# release PID: lets the process waiting on "$BATS_TEST_TMPDIR/go" go on,
# and waits for it; a minute at most, should it have died before opening it.
release() {
	timeout 60 bash -c 'echo go >"$1"' _ "$BATS_TEST_TMPDIR/go"
	wait "$1"
}

@test "t1400.114 a process holding the file open for writing across undo finds its later writes beside it, and undo says it restored the file and names the process" {
	hold_open '>>' 'echo late >&3'
	run --separate-stderr "$RG" undo a.txt
	release "$holder"
	assert_failure 1
	assert_equal "$(cat a.txt)" old
	assert_regex "$stderr" "^readguard: undo: 'a.txt': restored, but process $holder \\(bash\\) still has the file undo replaced open for writing: it stays at '$W/\.a\.txt\.rg-undo-[0-9]+', where that process's writes from now on go \(remove it once the process is done\)$"
	assert_equal "$(cat .a.txt.rg-undo-*)" "current
late"
}

@test "t1400.115 a process holding the file open only for reading across undo leaves nothing beside it" {
	hold_open '<'
	run --separate-stderr "$RG" undo a.txt
	release "$holder"
	assert_success
	run ls -A
	assert_output a.txt
}

@test "t1400.116 a process writing a.txt through a shared map whose descriptor it closed finds its later writes beside it" {
	mkfile a.txt old
	rgsh 'cat a.txt >/dev/null && echo current >a.txt'
	mkfifo "$BATS_TEST_TMPDIR/go"
	# mmap(2) itself, through ctypes: Python's mmap module keeps a descriptor.
	python3 - "$BATS_TEST_TMPDIR/go" <<-'PY' &
		import ctypes, os, sys
		libc = ctypes.CDLL(None, use_errno=True)
		libc.mmap.restype = ctypes.c_void_p
		libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
		                      ctypes.c_int, ctypes.c_long]
		fd = os.open("a.txt", os.O_RDWR)
		p = libc.mmap(None, 8, 3, 1, fd, 0)  # PROT_READ|PROT_WRITE, MAP_SHARED
		os.close(fd)
		open(sys.argv[1]).read()
		ctypes.memmove(p, b"LATEMAP", 7)
		libc.msync(ctypes.c_void_p(p), 8, 4)  # MS_SYNC
	PY
	local mapper=$!
	await maps_closed "$mapper"
	run --separate-stderr "$RG" undo a.txt
	release "$mapper"
	assert_failure 1
	assert_regex "$stderr" "^readguard: undo: 'a.txt': restored, but a process \(another user's, or a shared memory map\) still has the file undo replaced open for writing: it stays at "
	assert_equal "$(cat a.txt)" old
	assert_equal "$(cat .a.txt.rg-undo-*)" LATEMAP
}

@test "t1400.117 where the kernel grants undo no lease (not the file's owner), it finds the process writing by /proc" {
	need_strace
	hold_open '>>' 'echo late >&3'
	run --separate-stderr strace -o /dev/null -e trace=fcntl -e inject=fcntl:error=EACCES "$RG" undo a.txt
	release "$holder"
	assert_failure 1
	assert_regex "$stderr" "^readguard: undo: 'a.txt': restored, but process $holder \\(bash\\) still has the file undo replaced open for writing"
	assert_equal "$(cat .a.txt.rg-undo-*)" "current
late"
}

@test "t1400.118 where the file system cannot exchange, a process still writing the replaced file finds its later writes beside it, linked there before the rename" {
	need_strace
	hold_open '>>' 'echo late >&3'
	run --separate-stderr strace -o /dev/null -P "$W/a.txt" -P "$W" -e trace=renameat2 \
		-e inject=renameat2:error=EINVAL:when=1 "$RG" undo a.txt
	release "$holder"
	assert_failure 1
	assert_equal "$(cat a.txt)" old
	assert_regex "$stderr" "^readguard: undo: 'a.txt': restored, but process $holder \\(bash\\) still has the file undo replaced open for writing: it stays at '$W/\.a\.txt\.rg-undo-[0-9]+', where that process's writes from now on go \(remove it once the process is done\)$"
	assert_equal "$(cat .a.txt.rg-undo-*)" "current
late"
}

# sid FILE: the session that kept the newest version of FILE.
sid() {
	"$RG" history --json "$W/$1" | sed -n 's/^{"session":"\([^"]*\)".*/\1/p' | tail -n 1
}

@test "t1400.119 undo --session of a file only other sessions kept names that session, not 'no session'" {
	mkfile a.txt a-old
	mkfile b.txt b-old
	rg rm a.txt
	local a_sid
	a_sid=$(sid a.txt)
	rg rm b.txt
	run --separate-stderr "$RG" undo --session "$a_sid" b.txt
	assert_failure 1
	assert_equal "$stderr" "readguard: undo: 'b.txt': session $a_sid kept no version of it (other sessions did: see 'readguard history b.txt')"
	assert_file_not_exist b.txt
}

@test "t1400.120 diff --session of a file only other sessions kept names that session, exit 2" {
	mkfile a.txt a-old
	mkfile b.txt b-old
	rg rm a.txt
	local a_sid
	a_sid=$(sid a.txt)
	rg rm b.txt
	run --separate-stderr "$RG" diff --session "$a_sid" b.txt
	assert_failure 2
	assert_output ""
	assert_equal "$stderr" "readguard: diff: 'b.txt': session $a_sid kept no version of it (other sessions did: see 'readguard history b.txt')"
}

@test "t1400.121 history --session of a file only other sessions kept says none in that session" {
	mkfile a.txt a-old
	mkfile b.txt b-old
	rg rm a.txt
	local a_sid
	a_sid=$(sid a.txt)
	rg rm b.txt
	run --separate-stderr "$RG" history --session "$a_sid" b.txt
	assert_success
	assert_output ""
	assert_equal "$stderr" "readguard: history: 'b.txt': session $a_sid kept no version of it"
}

@test "t1400.122 undo of a file changed after an undo names the undo, not a session the user never ran" {
	repo
	rg git reset -q --hard
	"$RG" undo a.txt 2>/dev/null
	external_write a.txt 'written after the undo'
	run --separate-stderr "$RG" undo a.txt
	assert_failure 1
	[[ $stderr =~ ^"readguard: undo: 'a.txt': it changed after the undo "[0-9]+-[0-9]+" last wrote it; --force restores it anyway (its content now is kept)"$ ]] ||
		fail "stderr: $stderr"
	assert_equal "$(cat a.txt)" 'written after the undo'
}

@test "t1400.123 diff after an undo labels the old side as before the undo" {
	repo
	rg git reset -q --hard
	"$RG" undo a.txt 2>/dev/null
	run "$RG" diff a.txt
	assert_failure 1
	assert_line --index 0 --regexp '^--- a.txt \(before the undo [0-9]+-[0-9]+\)$'
	assert_line --index 1 '+++ a.txt'
}

@test "t1400.124 undo of a removed file whose name is a directory now says so, --force too, exit 1" {
	mkfile a.txt original
	rg rm a.txt
	mkdir a.txt
	touch a.txt/inside
	local f
	for f in "" --force; do
		run --separate-stderr "$RG" undo $f a.txt
		assert_failure 1
		[[ $stderr =~ ^"readguard: undo: 'a.txt' is a directory now, not the file session "[0-9]+-[0-9]+" changed: move it away, then undo again"$ ]] ||
			fail "undo $f: $stderr"
	done
	assert_file_exist a.txt/inside
	rm -r a.txt
	"$RG" undo a.txt 2>/dev/null
	assert_equal "$(cat a.txt)" original
}

@test "t1400.125 undo, diff and history --session naming neither a table nor an id say so in one line, exit 2" {
	mkfile a.txt original
	rg rm a.txt
	local verb
	for verb in undo diff history; do
		run --separate-stderr "$RG" "$verb" --session nope a.txt
		assert_failure 2
		assert_equal "$stderr" "readguard: session 'nope': no such table, nor a session id (as 'readguard history' prints them)"
	done
	assert_file_not_exist a.txt
}

@test "t1400.126 undo --force over a symbolic link another program made keeps the link: undo again brings it back" {
	mkfile a.txt original
	mkfile b.txt target
	rg rm a.txt
	ln -s b.txt a.txt
	run --separate-stderr "$RG" undo a.txt
	assert_failure 1
	[[ $stderr =~ ^"readguard: undo: 'a.txt': it is a symbolic link now, made after session "[0-9]+-[0-9]+" last wrote it; --force replaces it anyway (the link is kept)"$ ]] ||
		fail "stderr: $stderr"
	assert_link_exist a.txt
	"$RG" undo --force a.txt 2>/dev/null
	assert_equal "$(cat a.txt)" original
	assert_equal "$(cat b.txt)" target
	"$RG" undo a.txt 2>/dev/null
	assert_link_exist a.txt
	assert_equal "$(readlink a.txt)" b.txt
}

# "$FILE" with FILE unset: not the current directory.
@test "t1400.127 undo, diff and history of an empty name say it is not a usable path, exit 2" {
	mkfile a.txt original
	rg rm a.txt
	local verb
	for verb in undo diff history; do
		run --separate-stderr "$RG" "$verb" ''
		assert_failure 2
		assert_equal "$stderr" "readguard: $verb: '': not a usable path"
	done
	assert_file_not_exist a.txt
}

@test "t1400.128 undo of a kept file's name with a trailing slash restores nothing: it names a directory" {
	mkfile a.txt original
	rgsh 'cat a.txt >/dev/null; echo x >a.txt'
	run --separate-stderr "$RG" undo a.txt/
	assert_failure 1
	assert_equal "$stderr" "readguard: undo: 'a.txt/' names a directory: undo takes files ('readguard history a.txt/' lists those kept under it; 'undo --all' restores a session's files)"
	assert_equal "$(cat a.txt)" x
	run --separate-stderr "$RG" diff a.txt/
	assert_failure 2
	assert_output ""
}

# The staged copy's name adds to the file's: a name near NAME_MAX has no room.
@test "t1400.129 undo restores a file whose name is as long as a name can be" {
	local n
	n=$(printf 'a%.0s' {1..255})
	mkfile "$n" original
	rgsh "cat $n >/dev/null; echo x >$n"
	run --separate-stderr "$RG" undo "$n"
	assert_success
	assert_equal "$(cat "$n")" original
	assert_equal "$(ls -A | wc -l)" 1
}

# chattr +i: a directory where even root can make no file, around a file
# that stays writable.
@test "t1400.130 undo in a directory where no file can be made names the directory, and restores nothing" {
	[ "$(id -u)" -eq 0 ] || skip "needs root for chattr +i"
	mkdir d
	mkfile d/f original
	rgsh 'cat d/f >/dev/null; echo x >d/f'
	chattr +i d 2>/dev/null || skip "chattr +i does not work here"
	run --separate-stderr "$RG" undo d/f
	chattr -i d
	assert_failure 2
	assert_equal "$stderr" "readguard: undo: 'd/f': cannot write the version to restore beside it, in '$W/d': Operation not permitted"
	assert_equal "$(cat d/f)" x
}

# A truncate that loses no byte still makes the file the session's own, and
# the journal keeps nothing over the session's own bytes: it must keep them
# before such a truncate too.
@test "t1400.131 a file grown by truncate, then cut, comes back by undo" {
	mkfile a.txt original
	rg python3 -c 'import os; open("a.txt").read(); os.truncate("a.txt", 1000); os.truncate("a.txt", 0)'
	assert_equal "$(stat -c %s a.txt)" 0
	run "$RG" undo a.txt
	assert_success
	assert_equal "$(cat a.txt)" original
}

@test "t1400.132 a file truncated to its own size, then overwritten, comes back by undo" {
	mkfile a.txt original
	rg python3 -c 'import os; open("a.txt").read(); os.truncate("a.txt", 9); open("a.txt", "w").write("new\n")'
	assert_equal "$(cat a.txt)" new
	run "$RG" undo a.txt
	assert_success
	assert_equal "$(cat a.txt)" original
}

@test "t1400.133 a file read, renamed and then removed comes back by undo under its new name" {
	mkfile a.txt original
	rg sh -c 'cat a.txt >/dev/null && mv a.txt b.txt && rm b.txt'
	assert_not_exists b.txt
	run "$RG" undo b.txt
	assert_success
	assert_equal "$(cat b.txt)" original
}

@test "t1400.134 a file read, renamed and then overwritten comes back by undo" {
	mkfile a.txt original
	rg sh -c 'cat a.txt >/dev/null && mv a.txt b.txt && echo new >b.txt'
	assert_equal "$(cat b.txt)" new
	run "$RG" undo b.txt
	assert_success
	assert_equal "$(cat b.txt)" original
}

@test "t1400.135 under --supervise, a file read, renamed and then removed comes back by undo" {
	mkfile a.txt original
	run "$RG" run --supervise -- sh -c 'cat a.txt >/dev/null && mv a.txt b.txt && rm b.txt'
	assert_success
	run "$RG" undo b.txt
	assert_success
	assert_equal "$(cat b.txt)" original
}

@test "t1400.136 a file the session's output is appended to, read and then overwritten, comes back by undo" {
	mkfile a.txt original
	"$RG" run --log "$LOG" -- sh -c 'cat a.txt >/dev/null; /bin/true; echo new >a.txt' >>a.txt
	assert_equal "$(cat a.txt)" new
	run "$RG" undo a.txt
	assert_success
	assert_equal "$(cat a.txt)" original
}

@test "t1400.137 undo of a file whose directory became a symbolic link names the link, not a missing version" {
	mkdir sub
	mkfile sub/c.txt original
	rg sh -c 'cat sub/c.txt >/dev/null && echo new >sub/c.txt && mv sub sub2 && ln -s sub2 sub'
	run "$RG" undo sub/c.txt
	assert_failure
	assert_output --partial "on its way is a symbolic link now"
	refute_output --partial "no session kept"
	assert_equal "$(cat sub2/c.txt)" new
	rm sub && mv sub2 sub
	run "$RG" undo sub/c.txt
	assert_success
	assert_equal "$(cat sub/c.txt)" original
}

@test "t1400.138 a file the session wrote, then another program rewrote at the same size and mtime, is kept before rm" {
	mkfile a.txt original
	S="$BATS_TEST_TMPDIR/agent"
	"$RG" run --session "$S" --keep -- sh -c 'cat a.txt >/dev/null && echo one >a.txt'
	# Same size, and the mtime put back: only the ctime tells.
	mtime=$(stat -c %.9Y a.txt)
	external_write a.txt two
	touch -d "@$mtime" a.txt
	"$RG" run --session "$S" -- rm a.txt
	run "$RG" history --json a.txt
	assert_success
	[ "$(grep -c '"op"' <<<"$output")" = 2 ] || fail "not kept again before rm: $output"
	grep -rqx two "$J/objects" || fail "the other program's version is in no object"
}

@test "t1400.139 undo of a file sed -i~ replaced where no session kept it names the backup that holds its old bytes" {
	mkfile a.txt original
	"$RG" run --no-journal -- sed -i~ s/original/new/ a.txt
	assert_equal "$(cat a.txt~)" original
	run --separate-stderr "$RG" undo a.txt
	assert_failure 1
	assert_equal "$stderr" "readguard: undo: 'a.txt': no session kept a version of it (see 'readguard history'); 'a.txt~' beside it may hold its old bytes (sed -i~, mv -b and editors move the original to a backup name)"
}

@test "t1400.140 undo and diff of a directory that is gone, named without its /, point to its kept files" {
	projects
	rm -r q
	for verb in undo diff; do
		run --separate-stderr "$RG" $verb q
		assert_failure $([ $verb = undo ] && echo 1 || echo 2)
		assert_equal "$stderr" "readguard: $verb: 'q' was a directory, gone now: $verb takes files ('readguard history q/' lists those kept under it$([ $verb = undo ] && echo "; 'undo --all' restores a session's files"))"
	done
	assert_file_not_exist q
}

# A rename over a read file that fails leaves the file in place: its kept
# version (a link to the inode) must outlive the failure, as the session
# counts those bytes as kept and keeps nothing at the next change.
@test "t1400.141 a rename over a read file that fails, then its removal: undo brings the old bytes back" {
	mkfile x old
	mkfile y new
	rgsh 'cat x >/dev/null; "$PY3" -c "import os
try:
    os.rename(\"missing\", \"x\")
except FileNotFoundError:
    pass"; cp --remove-destination y x'
	assert_equal "$(cat x)" new
	run --separate-stderr "$RG" undo x
	assert_success
	assert_equal "$(cat x)" old
}

@test "t1400.142 mv across file systems onto a read file: undo brings the old bytes back" {
	local other
	other=$(mktemp /dev/shm/rg-t1400.XXXXXX)
	[ "$(stat -c %d /dev/shm)" != "$(stat -c %d .)" ] || { rm -f "$other"; skip "/dev/shm is on this file system"; }
	mkfile f old
	echo new >"$other"
	rgsh 'cat f >/dev/null; mv '"$other"' f'
	assert_equal "$(cat f)" new
	run --separate-stderr "$RG" undo f
	assert_success
	assert_equal "$(cat f)" old
}

# The default per-file cap, as README, --help and readguard(1) give it:
# 64 MiB is copied, a byte more is not.
@test "t1400.143 by default a read file of 64 MiB that is overwritten is kept, and undo brings it back" {
	head -c $((64 << 20)) /dev/zero >big
	rg sh -c 'cat big >/dev/null && echo new >big'
	assert_content big new
	"$RG" undo big
	assert_equal "$(stat -c %s big)" $((64 << 20))
}

@test "t1400.144 by default a read file of 64 MiB and one byte that is overwritten is logged too-large and not kept" {
	head -c $(((64 << 20) + 1)) /dev/zero >big
	run --separate-stderr "$RG" run --log "$LOG" -- sh -c 'cat big >/dev/null && echo new >big'
	assert_success
	assert_content big new
	grep -q '"decision":"unsaved","reason":"too-large"' "$LOG"
	run "$RG" undo big
	assert_failure 1
	assert_output --partial "not kept (too-large)"
}

@test "t1400.145 without XDG_STATE_HOME the journal is ~/.local/state/readguard/journal, where undo finds it" {
	unset XDG_STATE_HOME
	export HOME="$BATS_TEST_TMPDIR/home"
	mkdir -p "$HOME"
	mkfile a.txt old
	rg sh -c 'cat a.txt >/dev/null && echo new >a.txt'
	run find "$HOME/.local/state/readguard/journal/objects" -type f ! -name '.*'
	assert_equal "${#lines[@]}" 1
	"$RG" undo a.txt
	assert_content a.txt old
}

@test "t1400.146 undo --all in a directory restores the last session's files under it, and leaves its others changed" {
	mkdir p q
	mkfile p/a.txt p-original
	mkfile q/a.txt q-original
	rgsh 'cat p/a.txt q/a.txt >/dev/null; echo x >p/a.txt; echo y >q/a.txt'
	cd p
	run "$RG" undo --all
	assert_success
	assert_equal "$(cat a.txt)" p-original
	assert_equal "$(cat ../q/a.txt)" y
}

@test "t1400.147 undo refuses a file changed after a preloaded agent's session ended" {
	mkfile a.txt original
	LD_PRELOAD="$SHIM" bash -c 'cat a.txt >/dev/null; echo agent >a.txt'
	external_write a.txt later
	run "$RG" undo a.txt
	assert_failure 1
	assert_output --partial "changed after session"
	assert_equal "$(cat a.txt)" later
}

@test "t1400.148 undo refuses a file changed after readguard end ended the shell's session" {
	mkfile a.txt original
	bash -c 'eval "$("$RG" env)" && bash -c "cat a.txt >/dev/null; echo agent >a.txt" &&
		eval "$("$RG" end)"'
	external_write a.txt later
	run "$RG" undo a.txt
	assert_failure 1
	assert_output --partial "changed after session"
	assert_equal "$(cat a.txt)" later
}

@test "t1400.149 undo --force restores a file edited the moment a preloaded agent's session ended" {
	mkfile a.txt original
	LD_PRELOAD="$SHIM" bash -c 'cat a.txt >/dev/null; echo agent >a.txt'
	external_write a.txt "later, by hand"
	run "$RG" undo a.txt
	assert_failure 1
	run "$RG" undo --force a.txt
	assert_success
	assert_equal "$(cat a.txt)" original
}

@test "t1400.150 undo refuses a file removed after a preloaded agent's session ended" {
	mkfile a.txt original
	LD_PRELOAD="$SHIM" bash -c 'cat a.txt >/dev/null; echo agent >a.txt'
	rm a.txt
	run "$RG" undo a.txt
	assert_failure 1
	assert_output --partial "removed or renamed after session"
	assert_file_not_exist a.txt
}

@test "t1400.151 a preloaded agent's session records how it left each file it changed, once each" {
	mkfile a.txt original
	mkfile b.txt original
	LD_PRELOAD="$SHIM" bash -c 'cat a.txt b.txt >/dev/null; echo x >a.txt; echo y >b.txt;
		rm a.txt; echo z >b.txt'
	run grep -c '"op":"end"' "$J/sessions/"*.jsonl
	assert_output 2
	run grep -c '"op":"end".*"path":"'"$W"'/a.txt".*"exists":false' "$J/sessions/"*.jsonl
	assert_output 1
}

@test "t1400.152 a preloaded agent's session that kept nothing leaves nothing in the journal" {
	mkfile a.txt original
	LD_PRELOAD="$SHIM" bash -c 'cat a.txt >/dev/null; echo new >b.txt'
	assert_file_not_exist "$J/sessions"
}

# overlapping_sessions: session A starts first and waits; session B, started
# after it, rewrites f.txt ("orig" -> "B") and ends; then A rewrites it
# ("B" -> "A") and ends. A changed f.txt last, though B started last.
overlapping_sessions() {
	local a
	mkfile f.txt orig
	"$RG" run --log "$LOG" -- sh -c \
		'touch started; until [ -e go ]; do sleep 0.05; done; cat f.txt >/dev/null; echo A >f.txt' &
	a=$!
	await_file started
	rg sh -c 'cat f.txt >/dev/null; echo B >f.txt'
	touch go
	wait "$a"
	assert_equal "$(cat f.txt)" A
}

@test "t1400.153 undo of a file two overlapping sessions changed undoes the later change, not the later-started session's" {
	overlapping_sessions
	run --separate-stderr "$RG" undo f.txt
	assert_success
	assert_equal "$(cat f.txt)" B
}

@test "t1400.154 diff of a file two overlapping sessions changed shows the change the later one made" {
	overlapping_sessions
	run --separate-stderr "$RG" diff f.txt
	assert_failure 1
	assert_line -- '-B'
	assert_line -- '+A'
}

@test "t1400.155 history lists the versions of overlapping sessions oldest first" {
	overlapping_sessions
	run --separate-stderr "$RG" history f.txt
	assert_success
	assert_line --index 1 --regexp ' 5 B  .*/f\.txt$'
	assert_line --index 2 --regexp ' 2 B  .*/f\.txt$'
}

@test "t1400.156 undo --all from a directory the session removed restores it, by the name \$PWD gives it" {
	mkdir sub
	mkfile sub/s.txt s
	cd sub
	"$RG" run --root "$W" --log "$LOG" -- rm -r "$W/sub"
	run --separate-stderr "$RG" undo --all
	assert_success
	assert_equal "$(cat "$W/sub/s.txt")" s
}

@test "t1400.157 history of a directory a file took the name of says it is a file now" {
	projects
	rm -r q
	mkfile q file
	run --separate-stderr "$RG" history q
	assert_success
	assert_output ""
	assert_equal "$stderr" "readguard: history: 'q': no session kept a version of it, but of files under it: a directory then, a file now ('readguard history q/' lists them)"
}

@test "t1400.158 undo of a file whose directory a file took the name of is refused, exit 1, the file left" {
	projects
	rm -r q
	mkfile q file
	run --separate-stderr "$RG" undo q/d.txt
	assert_failure 1
	assert_equal "$stderr" "readguard: undo: 'q/d.txt': '$W/q' on its way is not a directory now, as it was when the session changed it: undo does not remove what took its name"
	assert_equal "$(cat q)" file
}

@test "t1400.159 undo of a directory a file took the name of says it was a directory, a file now" {
	projects
	rm -r q
	mkfile q file
	run --separate-stderr "$RG" undo q
	assert_failure 1
	assert_equal "$stderr" "readguard: undo: 'q' was a directory, a file now: undo takes files ('readguard history q/' lists those kept under it; 'undo --all' restores a session's files)"
}

@test "t1400.160 undo --all that refuses a file changed since ends by saying how many it restored" {
	mkfile a.txt a
	mkfile b.txt b
	rgsh 'cat a.txt b.txt >/dev/null; echo x >a.txt; echo y >b.txt'
	sleep 0.01
	external_write b.txt outside
	run --separate-stderr "$RG" undo --all
	assert_failure 1
	assert_equal "${stderr_lines[-1]}" "readguard: undo: 1 of 2 files restored; each other one is named above, with why"
	assert_equal "$(cat a.txt)" a
	assert_equal "$(cat b.txt)" outside
}

# A preloaded agent killed with -9 records no end: its table, which the kill
# leaves behind, says how the session left each file.
killed_agent() {
	LD_PRELOAD="$SHIM" bash -c "$1; kill -9 \$\$" || true
}

@test "t1400.161 undo refuses a file changed after a preloaded agent was killed with -9" {
	mkfile a.txt original
	killed_agent 'cat a.txt >/dev/null; echo agent >a.txt'
	external_write a.txt "later, by hand"
	run "$RG" undo a.txt
	assert_failure 1
	assert_output --partial "changed after session"
	assert_equal "$(cat a.txt)" "later, by hand"
}

@test "t1400.162 undo restores a file a preloaded agent killed with -9 left as it wrote it" {
	mkfile a.txt original
	mkfile b.txt original-b
	killed_agent 'cat a.txt b.txt >/dev/null; echo agent >a.txt; echo x >tmp; mv tmp b.txt'
	run "$RG" undo a.txt b.txt
	assert_success
	assert_equal "$(cat a.txt b.txt)" "$(printf 'original\noriginal-b')"
}

@test "t1400.163 once a killed agent's table is pruned, undo cannot tell a later change and asks for --force" {
	mkfile a.txt original
	killed_agent 'cat a.txt >/dev/null; echo agent >a.txt'
	"$RG" run -- true # a new session prunes the ended table
	run "$RG" undo a.txt
	assert_failure 1
	assert_output --partial "cannot tell whether the file changed since; --force"
	assert_equal "$(cat a.txt)" agent
	run "$RG" undo --force a.txt
	assert_success
	assert_equal "$(cat a.txt)" original
}

# t1400.25's removals are kept by links; an overwrite is kept by a copy,
# published whole (O_TMPFILE, then linkat) before the open truncates. The
# kill waits for the first overwrite, so it lands among the copies; on a
# loaded machine the poll can wake too late, so a try where it landed after
# the last copy is made again, with fresh files.
kill_among_copies() {
	local i
	rm -f f*
	for i in $(seq 1 200); do head -c 20000 /dev/urandom >"f$i"; done
	sha256sum f* >"$OUT/before"
	"$RG" run --log "$LOG" -- sh -c 'for f in f*; do cat "$f" >/dev/null; echo x >"$f"; done' &
	local pid=$!
	for ((i = 0; i < 500; i++)); do
		[ "$(stat -c %s f1)" = 2 ] && break
		sleep 0.01
	done
	pkill -KILL -P "$pid" sh 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
}

@test "t1400.164 kill -9 during copies leaves each file untouched or its old bytes kept whole" {
	local try changed kept
	for try in 1 2 3 4 5; do
		kill_among_copies
		changed=0 kept=0
		while read -r sum f; do
			[ "$(sha256sum <"$f" | cut -d' ' -f1)" = "$sum" ] && continue
			changed=$((changed + 1))
			[ -e "$J/objects/$sum" ] || fail "$f was overwritten, its bytes not kept"
			assert_equal "$(sha256sum <"$J/objects/$sum" | cut -d' ' -f1)" "$sum"
			kept=$((kept + 1))
		done <"$OUT/before"
		[ "$changed" -lt 200 ] && break
	done
	[ "$changed" -gt 0 ] && [ "$changed" -lt 200 ] || fail "the kill did not land among the saves ($changed of 200 changed, 5 tries)"
	assert_equal "$kept" "$changed"
}

@test "t1400.165 renameat2 RENAME_EXCHANGE of two read files keeps both, and undo brings both back" {
	mkfile a.txt A
	mkfile b.txt B
	rg bash -c '"$T/rgprobe" read a.txt >/dev/null && "$T/rgprobe" read b.txt >/dev/null &&
		"$T/rgprobe" renameat2 a.txt b.txt RENAME_EXCHANGE'
	assert_equal "$(cat a.txt b.txt)" "$(printf 'B\nA')"
	run "$RG" history
	assert_equal "$(grep -c ' exchange ' <<<"$output")" 2
	"$RG" undo a.txt b.txt
	assert_equal "$(cat a.txt b.txt)" "$(printf 'A\nB')"
}

# A named session's table may lie where no listing of tables looks: given
# by --session, it tells how the killed session left the file.
@test "t1400.166 undo --session PATH restores a file a named session killed with -9 left as it wrote it" {
	mkfile a.txt original
	mkdir "$OUT/named"
	run "$RG" run --session "$OUT/named/s" -- sh -c 'cat a.txt >/dev/null; echo new >a.txt; kill -9 $PPID; sleep 1'
	assert_failure 137
	run --separate-stderr "$RG" undo --session "$OUT/named/s" a.txt
	assert_success
	assert_equal "$(cat a.txt)" original
}

@test "t1400.167 undo --session of a running env session, run twice: the second says the file is already as before, and keeps nothing" {
	mkfile a.txt original
	run --separate-stderr bash -c 'eval "$("$RG" env)" && bash -c "cat a.txt >/dev/null; echo agent >a.txt" &&
		"$RG" undo --session "$READGUARD_SESSION" a.txt 2>/dev/null &&
		"$RG" undo --session "$READGUARD_SESSION" a.txt'
	assert_success
	[[ $stderr == "readguard: 'a.txt' is already as it was before session "*" changed it" ]] || fail "$stderr"
	assert_equal "$(cat a.txt)" original
	run "$RG" history a.txt
	assert_equal "$(grep -c ' undo ' <<<"$output")" 1
}

@test "t1400.168 undo --all restores a file an undo of an undo left with the session's bytes" {
	mkfile a.txt original
	mkfile b.txt b-original
	rgsh 'cat a.txt b.txt >/dev/null; echo agent >a.txt; echo agent >b.txt'
	"$RG" undo a.txt 2>/dev/null
	"$RG" undo a.txt 2>/dev/null
	assert_equal "$(cat a.txt)" agent
	run --separate-stderr "$RG" undo --all
	assert_success
	assert_equal "$(cat a.txt b.txt)" "$(printf 'original\nb-original')"
}

@test "t1400.169 undo --all still refuses a file edited after an undo of an undo, and keeps the edit" {
	mkfile a.txt original
	rgsh 'cat a.txt >/dev/null; echo agent >a.txt'
	"$RG" undo a.txt 2>/dev/null
	"$RG" undo a.txt 2>/dev/null
	external_write a.txt later
	run --separate-stderr "$RG" undo --all
	assert_failure 1
	[[ $stderr == *"a.txt': it changed after session"* ]] || fail "$stderr"
	assert_equal "$(cat a.txt)" later
}

# A tree's truncate -s 20G takes no room on disk; undo copying it byte by
# byte into the journal, to keep what it replaces, would fill the disk.
@test "t1400.170 undo of a file grown past the journal's per-file cap copies nothing and says to move it away" {
	mkfile a.txt original
	rgsh 'cat a.txt >/dev/null; truncate -s 1M a.txt'
	run --separate-stderr env READGUARD_JOURNAL_MAX_FILE=4K "$RG" undo a.txt
	assert_failure 1
	[[ $stderr == *"undo: 'a.txt': it is larger now than the journal keeps of a file (READGUARD_JOURNAL_MAX_FILE), so undo cannot keep its content; nothing restored (move it away, then undo again)" ]] ||
		fail "stderr: $stderr"
	assert_equal "$(stat -c %s a.txt)" 1048576
	run find "$XDG_STATE_HOME/readguard/journal" -type f -size +100k
	assert_output ""
	mv a.txt a.big
	"$RG" undo --force a.txt
	assert_content a.txt original
}

# Without --strict a session's tree may plant records (LIMITATIONS): one
# whose path climbs out through ".." passes the "under here" of --all by
# its letters, yet nothing outside is written (the path, resolved, names a
# file no record holds; and undo's walk down from / takes no "..").
@test "t1400.171 a record planted with a path through .. makes undo --all write nothing outside the work tree" {
	mkdir sub "$BATS_TEST_TMPDIR/elsewhere"
	printf 'mine\n' >"$BATS_TEST_TMPDIR/elsewhere/x"
	mkfile a.txt original
	rgsh 'cat a.txt >/dev/null; echo new >a.txt'
	local idx planted
	idx=$(ls "$J/sessions/"*.jsonl)
	planted=$(sed "s#\"path\":\"$W/a.txt\"#\"path\":\"$W/sub/../../elsewhere/x\"#" "$idx")
	printf '%s\n' "$planted" >>"$idx"
	run --separate-stderr "$RG" undo --all --force
	assert_equal "$(cat "$BATS_TEST_TMPDIR/elsewhere/x")" mine
	assert_content a.txt original
}

# A tree still running (a process left behind) may grow the file while
# undo copies it to keep it; a truncate -s takes no room, the copy would.
@test "t1400.172 a file grown while undo keeps it is not copied past the size it had: undo restores nothing, exit 1" {
	need_strace
	mkfile a.txt original
	rgsh 'cat a.txt >/dev/null; echo new >a.txt'
	# Undo's copy is held at its first read, as the file grows to 64 MiB.
	strace -f -o "$W/tr" -P "$W/a.txt" -e trace=read -e inject=read:delay_enter=1500000:when=1 \
		"$RG" undo a.txt 2>"$W/undo.err" &
	local undo=$!
	await_trace "$W/tr" read
	truncate -s 64M a.txt
	local rc=0
	wait "$undo" || rc=$?
	assert_equal "$rc" 1
	run cat "$W/undo.err"
	assert_output --partial "it changed while undo kept its content; nothing restored"
	run grep -c '^[0-9]* *read(' "$W/tr"
	[ "$output" -le 3 ] || fail "undo read the grown file: $output reads"
	assert_equal "$(stat -c %s a.txt)" 67108864
}

# A write that lands during undo is kept like the file undo replaces, so it
# is held to the same cap: a truncate -s 20G then takes no room, its copy would.
@test "t1400.173 a write during undo that grows the file past the journal's per-file cap is not copied into the journal, but left beside it" {
	export READGUARD_JOURNAL_MAX_FILE=4K
	hold_undo_restore
	truncate -s 1M a.txt
	local status=0
	wait "$undoer" || status=$?
	assert_equal "$status" 2
	assert_equal "$(cat a.txt)" old
	run cat "$BATS_TEST_TMPDIR/undo.err"
	assert_output --regexp "cannot be kept in the journal \(File too large\); they are in '$W/\.a\.txt\.rg-undo-[0-9]+'$"
	run find "$J" -type f -size +100k
	assert_output ""
	assert_equal "$(stat -c %s .a.txt.rg-undo-*)" 1048576
}

@test "t1400.174 after a rename fallback, a caught write past the journal's per-file cap is left beside the file, by a link, not a copy" {
	export READGUARD_JOURNAL_MAX_FILE=4K
	hold_undo_restore 'renameat2:error=EINVAL:delay_enter=3000000:when=1'
	truncate -s 1M a.txt
	local ino
	ino=$(stat -c %i a.txt)
	# The journal cannot take it, whatever its size: a name beside is all.
	mv "$J/objects" "$J/objects.away" && : >"$J/objects"
	local status=0
	wait "$undoer" || status=$?
	assert_equal "$status" 2
	assert_renamed_after_einval
	assert_equal "$(cat a.txt)" old
	run cat "$BATS_TEST_TMPDIR/undo.err"
	assert_output --regexp "cannot be kept in the journal \(File too large\); they are in '$W/\.a\.txt\.rg-undo-[0-9]+'$"
	assert_equal "$(stat -c %i .a.txt.rg-undo-*)" "$ino"
	assert_equal "$(stat -c %s .a.txt.rg-undo-*)" 1048576
	run find "$J" -type f -size +100k
	assert_output ""
}

# other_project: a session in a second directory, beside $W, kept o.txt.
other_project() {
	mkdir "$BATS_TEST_TMPDIR/other"
	(cd "$BATS_TEST_TMPDIR/other" && mkfile o.txt theirs && rg rm o.txt)
}

@test "t1400.175 history with no FILE lists only the versions under the current directory's project, not another directory's" {
	other_project
	mkfile a.txt original
	rg rm a.txt
	run --separate-stderr "$RG" history
	assert_success
	assert_equal "${#lines[@]}" 2
	assert_line --index 1 --partial "  $W/a.txt"
	run --separate-stderr "$RG" history --json
	assert_equal "${#lines[@]}" 1
	assert_line --index 0 --partial "\"path\":\"$W/a.txt\""
}

@test "t1400.176 history --all lists every directory's versions; --session S lists S's wherever they are" {
	other_project
	mkfile a.txt original
	rg rm a.txt
	run --separate-stderr "$RG" history --all
	assert_success
	assert_equal "${#lines[@]}" 3
	assert_line --partial "  $BATS_TEST_TMPDIR/other/o.txt"
	assert_line --partial "  $W/a.txt"
	local sid
	sid=$(awk 'NR == 2 { print $2 }' <<<"$output")
	run --separate-stderr "$RG" history --session "$sid"
	assert_equal "${#lines[@]}" 2
	assert_line --index 1 --partial "  $BATS_TEST_TMPDIR/other/o.txt"
	run --separate-stderr "$RG" history --all a.txt
	assert_failure 2
}

@test "t1400.177 history with no FILE where nothing was kept under here, but elsewhere, says so and points to --all" {
	other_project
	run --separate-stderr "$RG" history
	assert_success
	assert_output ""
	assert_equal "$stderr" "readguard: history: no session kept a file under '$W' ('readguard history --all' lists every directory's)"
}
