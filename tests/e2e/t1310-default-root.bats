#!/usr/bin/env bats
# The default root: without --root or READGUARD_ROOTS, a session started
# inside a git work tree guards the tree's top, found as git finds it, so
# that what a git command changes outside the current directory is guarded
# and journaled. Never "/" or $HOME; outside a work tree, the current
# directory.

load helper

setup() {
	common_setup
	export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
	export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
	unset GIT_DIR GIT_WORK_TREE GIT_CEILING_DIRECTORIES GIT_DISCOVERY_ACROSS_FILESYSTEM
}

# repo DIR: a git repository at DIR with a.txt committed as "committed",
# then edited, uncommitted, to "my edit", top.txt committed, and sub/.
repo() {
	mkdir -p "$1/sub"
	git -C "$1" init -q .
	printf 'committed\n' >"$1/a.txt"
	printf 'top\n' >"$1/top.txt"
	: >"$1/sub/.keep"
	git -C "$1" add -A
	git -C "$1" commit -qm a
	printf 'my edit\n' >"$1/a.txt"
}

# blind_top_write: from the current directory, a session's blind overwrite
# of ../top.txt (made old first, so any change shows).
blind_top_write() {
	make_old ../top.txt
	snapshot ../top.txt
	run --separate-stderr "$RG" run --log "$LOG" "$@" -- sh -c 'echo blind >../top.txt'
}

@test "t1310.01 git reset --hard from a subdirectory is undone by undo --all there" {
	repo "$W/repo"
	cd "$W/repo/sub"
	rg git reset -q --hard
	assert_equal "$(cat ../a.txt)" committed
	run "$RG" undo --all
	assert_success
	assert_equal "$(cat ../a.txt)" "my edit"
}

@test "t1310.02 a blind write to the work tree's top from a subdirectory is refused" {
	repo "$W/repo"
	cd "$W/repo/sub"
	blind_top_write
	assert_failure
	assert_refused ../top.txt unread
	assert_unchanged ../top.txt
}

@test "t1310.03 a preloaded process in a subdirectory guards the work tree's top" {
	repo "$W/repo"
	cd "$W/repo/sub"
	make_old ../top.txt
	snapshot ../top.txt
	run --separate-stderr env LD_PRELOAD="$SHIM" READGUARD_LOG="$LOG" sh -c 'echo blind >../top.txt'
	assert_failure
	assert_refused ../top.txt unread
	assert_unchanged ../top.txt
}

@test "t1310.04 a linked worktree's subdirectory guards that worktree's top" {
	repo "$W/repo"
	git -C "$W/repo" worktree add -q "$W/linked"
	cd "$W/linked/sub"
	blind_top_write
	assert_failure
	assert_refused ../top.txt unread
	assert_unchanged ../top.txt
}

@test "t1310.05 status names the work tree's top as the root" {
	repo "$W/repo"
	cd "$W/repo/sub"
	run "$RG" run --keep --session "$READGUARD_DIR/t" -- true
	assert_success
	run "$RG" status --session "$READGUARD_DIR/t"
	assert_success
	assert_line --regexp "^roots +$W/repo\$"
}

@test "t1310.06 outside any work tree the root is the current directory" {
	mkdir -p "$W/plain/sub"
	printf 'top\n' >"$W/plain/top.txt"
	cd "$W/plain/sub"
	run git rev-parse --is-inside-work-tree
	assert_failure
	blind_top_write
	assert_success
	refute_refused
	assert_content ../top.txt blind
}

@test "t1310.07 a work tree whose top is HOME keeps the current directory as the root" {
	repo "$W/home"
	export HOME="$W/home"
	cd "$HOME/sub"
	blind_top_write
	assert_success
	refute_refused
	assert_content ../top.txt blind
}

@test "t1310.08 the walk up stops below a GIT_CEILING_DIRECTORIES entry" {
	repo "$W/repo"
	mkdir -p "$W/repo/sub/deep"
	cp "$W/repo/top.txt" "$W/repo/sub/top.txt"
	cd "$W/repo/sub/deep"
	export GIT_CEILING_DIRECTORIES="$W/repo"
	blind_top_write
	assert_success
	refute_refused
	assert_content ../top.txt blind
}

@test "t1310.09 an explicit --root inside a work tree is the root" {
	repo "$W/repo"
	cd "$W/repo/sub"
	blind_top_write --root .
	assert_success
	refute_refused
	assert_content ../top.txt blind
}

@test "t1310.10 a GIT_CEILING_DIRECTORIES entry above the top lets the walk reach it" {
	repo "$W/repo"
	cd "$W/repo/sub"
	export GIT_CEILING_DIRECTORIES="$W"
	blind_top_write
	assert_failure
	assert_refused ../top.txt unread
	assert_unchanged ../top.txt
}

@test "t1310.11 a work tree whose top is HOME by a symbolic link keeps the current directory" {
	repo "$W/home"
	ln -s "$W/home" "$W/link"
	export HOME="$W/link"
	cd "$W/home/sub"
	blind_top_write
	assert_success
	refute_refused
	assert_content ../top.txt blind
}

# "never / or $HOME" read as a promise about the root itself, which a run
# started in $HOME (t1310.07's current directory) breaks by design.
@test "t1310.12 run --help says a work tree's top of / or \$HOME gives way to the current directory" {
	run --separate-stderr "$RG" run --help
	assert_success
	assert_output --partial 'the git work tree holding the current directory unless
                       that is / or $HOME, else the current directory)'
}

# git passes by a .git that is no repository (setup.c's is_git_directory:
# a valid HEAD, objects/ and refs/) and goes on up; a session's tree can
# plant one (.git/ is free), and a later session started below it must
# still guard what that session's git commands change.
@test "t1310.13 a .git directory holding only a HEAD does not make a subdirectory the root" {
	repo "$W/repo"
	mkdir "$W/repo/sub/.git"
	printf 'ref: refs/heads/main\n' >"$W/repo/sub/.git/HEAD"
	cd "$W/repo/sub"
	assert_equal "$(git rev-parse --show-toplevel)" "$W/repo"
	blind_top_write
	assert_failure
	assert_refused ../top.txt unread
	assert_unchanged ../top.txt
}

@test "t1310.14 a .git file naming no repository does not make a subdirectory the root" {
	repo "$W/repo"
	printf 'gitdir: %s\n' "$W/nowhere" >"$W/repo/sub/.git"
	cd "$W/repo/sub"
	blind_top_write
	assert_failure
	assert_refused ../top.txt unread
	assert_unchanged ../top.txt
}

@test "t1310.15 a submodule's subdirectory guards the submodule's top" {
	repo "$W/inner"
	repo "$W/repo"
	git -C "$W/repo" -c protocol.file.allow=always submodule add -q "$W/inner" mod
	cd "$W/repo/mod/sub"
	assert_equal "$(git rev-parse --show-toplevel)" "$W/repo/mod"
	blind_top_write
	assert_failure
	assert_refused ../top.txt unread
	assert_unchanged ../top.txt
}
