#!/usr/bin/env bats
# Real developer workflows in enforce mode, rooted at a scratch git repository,
# with the built-in ignore rules. Each runs in one session and ends with a
# blind overwrite of a tracked source file, which must be the only refusal.

load helper

setup_repo() {
	export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com
	export GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
	export GIT_CONFIG_NOSYSTEM=1 HOME="$BATS_TEST_TMPDIR/home"
	mkdir -p "$HOME" src
	git init -q -b main .
	git config core.editor true
	echo readguard.log >>.git/info/exclude
	mkfile src/keep.c 'int keep;'
	mkfile a.txt one
	mkfile b.txt two
	git add -A && git commit -qm initial
	# Settle the index on old mtimes so git has no reason to read keep.c.
	make_old src/keep.c a.txt b.txt
	git update-index -q --refresh
}

# Ends a workflow run: the workflow went through, and the only refusal is the
# blind overwrite of src/keep.c, which is unchanged.
assert_only_blind_write_refused() {
	assert_failure
	assert_refused src/keep.c unread
	assert_content src/keep.c 'int keep;'
}

BLIND='echo blind > src/keep.c'

@test "t1200.01 git: add, commit, amend, stash, stash pop, checkout -b, rebase" {
	setup_repo
	run --separate-stderr rgsh "set -e
		cat a.txt >/dev/null && echo edited > a.txt
		git add a.txt && git commit -qm edit
		git commit -q --amend -m 'edit, amended'
		cat b.txt >/dev/null && echo wip > b.txt
		git stash -q && git stash pop -q
		git commit -qam wip
		git checkout -q -b feature
		echo f1 > f1.txt && git add f1.txt && git commit -qm f1
		echo f2 > f2.txt && git add f2.txt && git commit -qm f2
		git checkout -q main
		echo m1 > m1.txt && git add m1.txt && git commit -qm m1
		git checkout -q feature
		git rebase -q main
		$BLIND"
	assert_only_blind_write_refused
	assert_equal "$(git log --format=%s | tr '\n' ' ')" "f2 f1 m1 wip edit, amended initial "
	assert_content b.txt wip
	[ -z "$(git status --porcelain)" ] || fail "worktree not clean: $(git status --porcelain)"
}

@test "t1200.02 make: build twice, after a touch, and with -j2" {
	setup_repo
	cat >Makefile <<'MK'
prog: main.o util.o
	$(CC) -o $@ main.o util.o
%.o: %.c util.h
	$(CC) -c -o $@ $<
MK
	printf '#include "util.h"\nint main(void) { return util(); }\n' >main.c
	printf 'int util(void);\n' >util.h
	printf '#include "util.h"\nint util(void) { return 0; }\n' >util.c
	git add -A && git commit -qm c && make_old Makefile main.c util.h util.c
	run --separate-stderr rgsh "set -e
		make -s && make -s && touch util.h && make -s
		make -s -B -j2 && ./prog
		$BLIND"
	assert_only_blind_write_refused
	assert_file_executable prog
}

@test "t1200.03 python: compileall, then running a package twice rewrites its pyc" {
	setup_repo
	mkdir pkg
	printf '' >pkg/__init__.py
	printf 'X = 1\n' >pkg/mod.py
	printf 'from pkg import mod\nprint(mod.X)\n' >pkg/__main__.py
	git add -A && git commit -qm py
	# pyc files are validated by mtime in seconds and size: keep the edit visible.
	make_old pkg/*.py
	unset PYTHONDONTWRITEBYTECODE
	run --separate-stderr rgsh "set -e
		python3 -m compileall -q pkg
		python3 -m pkg
		cat pkg/mod.py >/dev/null && echo 'X = 22' > pkg/mod.py
		python3 -m pkg
		python3 -m compileall -q -f pkg
		$BLIND"
	assert_only_blind_write_refused
	assert_equal "${lines[*]}" "1 22"
	compgen -G 'pkg/__pycache__/mod.*.pyc' >/dev/null || fail "no pyc was written"
}

@test "t1200.04 npm: init -y and install of a local package, twice" {
	command -v npm >/dev/null || skip "npm is not installed"
	setup_repo
	mkdir fixture-pkg
	printf '{"name":"fixture-pkg","version":"1.0.0","main":"index.js"}\n' >fixture-pkg/package.json
	printf 'module.exports = 42;\n' >fixture-pkg/index.js
	git add -A && git commit -qm fixture
	export npm_config_cache="$BATS_TEST_TMPDIR/npm-cache" npm_config_offline=true
	export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
	run --separate-stderr rgsh "set -e
		for i in 1 2; do npm init -y >/dev/null && npm install --no-progress ./fixture-pkg >/dev/null; done
		node -e 'process.exit(require(\"fixture-pkg\") === 42 ? 0 : 1)'
		$BLIND"
	assert_only_blind_write_refused
	grep -q '"fixture-pkg"' package.json || fail "package.json: $(cat package.json)"
	assert_file_exist package-lock.json
}

@test "t1200.05 vim -es and ex edit a file in place" {
	command -v vim >/dev/null || skip "vim is not installed"
	setup_repo
	run --separate-stderr rgsh "set -e
		vim -es -u NONE -c '%s/one/uno/' -c wq a.txt
		ex -s -u NONE -c '%s/two/dos/' -c wq b.txt
		$BLIND"
	assert_only_blind_write_refused
	assert_content a.txt uno
	assert_content b.txt dos
}

@test "t1200.06 tar -x --overwrite over unread files is refused, and tar says so" {
	setup_repo
	mkdir in && echo new-a >in/a.txt && echo new-b >in/b.txt
	tar -cf "$OUT/x.tar" -C in a.txt b.txt
	snapshot a.txt b.txt
	run --separate-stderr rg tar --overwrite -xf "$OUT/x.tar"
	assert_failure 2
	[[ $stderr == *"readguard: refused to write 'a.txt': $MSG_UNREAD"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"tar: a.txt: Cannot open: Permission denied"* ]] || fail "stderr: $stderr"
	assert_unchanged a.txt b.txt
}

@test "t1200.07 tar -x with --guard-unlink over unread files is refused, and tar says so" {
	setup_repo
	mkdir in && echo new-a >in/a.txt
	tar -cf "$OUT/x.tar" -C in a.txt
	snapshot a.txt
	run --separate-stderr "$RG" run --log "$LOG" --guard-unlink -- tar -xf "$OUT/x.tar"
	assert_failure 2
	[[ $stderr == *"readguard: refused to remove 'a.txt': $MSG_UNREAD"* ]] || fail "stderr: $stderr"
	[[ $stderr == *"tar: a.txt: Cannot open: File exists"* ]] || fail "stderr: $stderr"
	assert_unchanged a.txt
}

@test "t1200.08 tar -x over files the session read goes through" {
	setup_repo
	mkdir in && echo new-a >in/a.txt && echo new-b >in/b.txt
	tar -cf "$OUT/x.tar" -C in a.txt b.txt
	run --separate-stderr "$RG" run --log "$LOG" --guard-unlink -- bash -c "set -e
		cat a.txt b.txt >/dev/null
		tar -xf '$OUT/x.tar' && tar --overwrite -xf '$OUT/x.tar'
		$BLIND"
	assert_only_blind_write_refused
	assert_content a.txt new-a
	assert_content b.txt new-b
}
