#!/usr/bin/env bats
# The bubblewrap and firejail recipes: the table in a directory both sides see.

load helper
load cli_helper

BWRAP_RECIPE="$TOP/scripts/share/integrations/sandbox/readguard-bwrap"
FIREJAIL_RECIPE="$TOP/scripts/share/integrations/sandbox/readguard-firejail"

setup() {
	common_setup
	cli_setup
	export READGUARD="$RG"
	case $BATS_TEST_DESCRIPTION in
	*firejail*)
		command -v firejail >/dev/null || skip "firejail is not installed"
		timeout 20 firejail --quiet --noprofile true 2>/dev/null ||
			skip "firejail cannot create a sandbox here"
		;;
	*)
		command -v bwrap >/dev/null || skip "bwrap is not installed (bubblewrap)"
		bwrap --ro-bind / / --dev /dev true 2>/dev/null ||
			skip "bwrap cannot create a sandbox here"
		;;
	esac
}

@test "t2130.01 inside the bwrap recipe a blind overwrite is refused" {
	mkfile a old
	run --separate-stderr "$BWRAP_RECIPE" "$W" sh -c 'echo new >a'
	assert_failure
	assert_refused a unread
	assert_content a old
}

@test "t2130.02 inside the bwrap recipe a read file may be written" {
	mkfile a old
	run --separate-stderr "$BWRAP_RECIPE" "$W" sh -c 'cat a >/dev/null; echo new >a'
	assert_success
	assert_content a new
}

@test "t2130.03 the recipe keeps the sandbox read-only outside DIR" {
	run --separate-stderr "$BWRAP_RECIPE" "$W" sh -c "echo x >'$OUT/escape'"
	assert_failure
	assert_not_exist "$OUT/escape"
}

@test "t2130.04 a table the sandbox cannot see makes writes fail closed, with the reason" {
	mkfile a old
	# The table goes to READGUARD_DIR; a tmpfs over it hides it, as a
	# sandbox's own /dev hides /dev/shm.
	run --separate-stderr "$RG" run -- bwrap --ro-bind / / --dev /dev --proc /proc \
		--tmpfs "$READGUARD_DIR" --bind "$W" "$W" --chdir "$W" -- sh -c 'cat a >/dev/null; echo new >a'
	assert_failure
	[ "$(count_rg_lines)" -eq 1 ] || fail "$stderr"
	[[ $stderr == *"the session table is unusable (it does not exist"* ]] || fail "$stderr"
	assert_content a old
}

@test "t2130.05 inside the firejail recipe a blind overwrite is refused, a read one allowed" {
	mkfile a old
	mkfile b old
	run --separate-stderr "$FIREJAIL_RECIPE" "$W" sh -c 'echo new >a'
	assert_failure
	assert_refused a unread
	assert_content a old
	run --separate-stderr "$FIREJAIL_RECIPE" "$W" sh -c 'cat b >/dev/null; echo new >b'
	assert_success
	assert_content b new
}

@test "t2130.06 the firejail recipe keeps the sandbox read-only outside DIR" {
	run --separate-stderr "$FIREJAIL_RECIPE" "$W" sh -c "echo x >'$OUT/escape'"
	assert_failure
	assert_not_exist "$OUT/escape"
}

@test "t2130.07 a shim under /tmp stays loaded inside the bwrap recipe's own /tmp" {
	case $BATS_TEST_TMPDIR in /tmp/*) ;; *) skip "BATS_TEST_TMPDIR is not under /tmp" ;; esac
	mkdir "$BATS_TEST_TMPDIR/bin"
	cp "$RG" "$(dirname "$RG")/libreadguard.so" "$BATS_TEST_TMPDIR/bin/"
	mkfile a old
	READGUARD="$BATS_TEST_TMPDIR/bin/readguard" \
		run --separate-stderr "$BWRAP_RECIPE" "$W" sh -c 'echo new >a'
	assert_failure
	assert_refused a unread
	assert_content a old
}

# --strict cannot run bwrap (no user namespaces in the tree), but runs
# inside one: the sandbox keeps the outside services (a tmux server,
# systemd --user) out of the tree's reach, --strict the files in it.
@test "t2130.08 readguard run --strict inside bwrap --unshare-all refuses a blind overwrite and keeps a removal for undo outside" {
	mkfile a old
	mkfile b kept
	run --separate-stderr bwrap --unshare-all --die-with-parent --ro-bind / / --dev /dev \
		--bind "$READGUARD_DIR" "$READGUARD_DIR" --proc /proc \
		--bind "$BATS_TEST_TMPDIR" "$BATS_TEST_TMPDIR" --chdir "$W" -- \
		"$RG" run --strict -- sh -c '(echo new >a) && echo wrote; rm b && echo removed'
	[[ $output == removed ]] || fail "$output / $stderr"
	assert_refused a unread
	assert_content a old
	assert_not_exist b
	run --separate-stderr "$RG" undo b
	assert_success
	assert_content b kept
}

@test "t2130.09 the firejail recipe keeps its table out of a READGUARD_DIR under /dev, which the sandbox hides" {
	mkfile a old
	READGUARD_DIR=$READGUARD_DIR/under-dev
	case $READGUARD_DIR in /dev/*) ;; *) READGUARD_DIR=/dev/shm/rg-t2130.$$ ;; esac
	run --separate-stderr "$FIREJAIL_RECIPE" "$W" sh -c 'echo new >a'
	rm -rf "$READGUARD_DIR"
	assert_failure
	assert_refused a unread
	assert_content a old
}
