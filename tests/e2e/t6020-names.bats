#!/usr/bin/env bats
# Scope belongs to the inode (issue 14): a new name outside guarded scope
# for a file the session never read (a hard link, a rename out of the root
# or under an ignored name, its directory or the root itself moved out) is
# a write to that file, refused in every mode. Each vector of
# tests/e2e/escape.bash runs as uid 65534; alongside, the ordinary moves an
# agent makes within the root stay allowed.

load helper
load escape

setup() {
	esc_require
	ESC=
}

teardown() {
	esc_teardown
}

# --- a hard link outside the roots or under an ignored name --------------------

@test "t6020.01 ln f \$OUT/x of an unread f is refused, so \$OUT/x cannot write it (preload)" {
	refused preload link-out
}

@test "t6020.02 ln f \$OUT/x of an unread f is refused, so \$OUT/x cannot write it (--supervise)" {
	refused supervise link-out
}

@test "t6020.03 ln f \$OUT/x of an unread f is refused, so \$OUT/x cannot write it (--strict)" {
	refused strict link-out
}

@test "t6020.04 ln f f.o (an ignored name) of an unread f is refused (preload)" {
	refused preload link-ignored
}

@test "t6020.05 ln f f.o (an ignored name) of an unread f is refused (--supervise)" {
	refused supervise link-ignored
}

@test "t6020.06 ln f f.o (an ignored name) of an unread f is refused (--strict)" {
	refused strict link-ignored
}

@test "t6020.07 linkat by syscall number to \$OUT of an unread f is refused (preload)" {
	refused preload link-raw
}

@test "t6020.08 linkat by syscall number to \$OUT of an unread f is refused (--supervise)" {
	refused supervise link-raw
}

@test "t6020.09 linkat by syscall number to \$OUT of an unread f is refused (--strict)" {
	refused strict link-raw
}

# --- a rename out of the roots, and back ---------------------------------------

@test "t6020.10 mv f \$OUT/f of an unread f is refused, so it cannot come back written (preload)" {
	refused preload mv-out-back
}

@test "t6020.11 mv f \$OUT/f of an unread f is refused, so it cannot come back written (--supervise)" {
	refused supervise mv-out-back
}

@test "t6020.12 mv f \$OUT/f of an unread f is refused, so it cannot come back written (--strict)" {
	refused strict mv-out-back
}

# --- a directory, or the root itself, moved out of scope -----------------------

@test "t6020.13 mv sub build (ignored) of a directory holding an unread file is refused (preload)" {
	refused preload dir-out-back
}

@test "t6020.14 mv sub build (ignored) of a directory holding an unread file is refused (--supervise)" {
	refused supervise dir-out-back
}

@test "t6020.15 mv sub build (ignored) of a directory holding an unread file is refused (--strict)" {
	refused strict dir-out-back
}

@test "t6020.16 moving the root itself away while it holds an unread file is refused (preload)" {
	refused preload root-out-back
}

@test "t6020.17 moving the root itself away while it holds an unread file is refused (--supervise)" {
	refused supervise root-out-back
}

@test "t6020.18 moving the root itself away while it holds an unread file is refused (--strict)" {
	refused strict root-out-back
}

# --- --guard-unlink: removal by moving away ------------------------------------

@test "t6020.19 with --guard-unlink, mv f \$OUT/trash of an unread f is refused (preload)" {
	refused preload unlink-mv-away
}

@test "t6020.20 with --guard-unlink, mv f \$OUT/trash of an unread f is refused (--supervise)" {
	refused supervise unlink-mv-away
}

@test "t6020.21 with --guard-unlink, mv f \$OUT/trash of an unread f is refused (--strict)" {
	refused strict unlink-mv-away
}

@test "t6020.22 with --guard-unlink, a static program's unlink of an unread f is refused (--supervise)" {
	refused supervise unlink-raw
}

@test "t6020.23 with --guard-unlink, a static program's unlink of an unread f is refused (--strict)" {
	refused strict unlink-raw
}

# --- what the refusal says -----------------------------------------------------

@test "t6020.24 the refusal of a move out names the file and says it leaves the guarded files" {
	esc_setup
	esc_attack preload mv-out-back || true
	grep -q "readguard: refused to move 'f' out of the guarded files: it has not been read" \
		"$ESC/out" || fail "$(cat "$ESC/out")"
	grep -q '"op":"link","call":"rename' "$ESC/log" || fail "$(cat "$ESC/log")"
}

@test "t6020.25 in warn mode a move out of an unread file goes ahead with a warning in the log" {
	esc_setup
	esc_session preload 'mv f "$OUT/f"' --mode warn
	[ -e "$ESC/outside/f" ] || fail "not moved: $(cat "$ESC/out")"
	grep -q '"op":"link".*"decision":"warn"' "$ESC/log" || fail "$(cat "$ESC/log")"
}

# --- ordinary work: names inside the roots, and files the session read ---------

@test "t6020.26 mv of an unread file within the root is allowed (preload)" {
	allowed preload 'mv f g' g ORIGINAL
}

@test "t6020.27 mv of an unread file within the root is allowed (--strict)" {
	allowed strict 'mv f g' g ORIGINAL
}

@test "t6020.28 mv of a directory within the root is allowed (--supervise)" {
	allowed supervise 'mv sub sub2' sub2/f ORIGINAL
}

@test "t6020.29 ln of an unread file within the root is allowed (--strict)" {
	allowed strict 'ln f g' g ORIGINAL
}

@test "t6020.30 git mv of an unread file is allowed (preload)" {
	command -v git >/dev/null || skip "git is not installed"
	allowed preload 'git init -q && git add f sub/f &&
		git -c user.name=a -c user.email=a@a commit -qm one && git mv f g && git mv sub sub2' \
		sub2/f ORIGINAL
}

@test "t6020.31 the atomic save (temp file written, renamed over a read file) is allowed (preload)" {
	allowed preload 'cat f >/dev/null && echo v2 >f.tmp && mv f.tmp f' f v2
}

@test "t6020.32 a file the session read may be moved out of the root (--strict)" {
	allowed strict 'cat f >/dev/null && mv f "$OUT/f"' ../outside/f ORIGINAL
}

@test "t6020.33 a directory whose files the session read may be moved out of the root (preload)" {
	allowed preload 'cat sub/f >/dev/null && mv sub "$OUT/sub"' ../outside/sub/f ORIGINAL
}

@test "t6020.34 a file the session wrote may be linked outside the root (--supervise)" {
	allowed supervise 'echo new >n && ln n "$OUT/n"' ../outside/n new
}

@test "t6020.35 files already outside the roots move and link freely (preload)" {
	allowed preload 'echo o >"$OUT/a" && ln "$OUT/a" "$OUT/b" && mv "$OUT/b" "$OUT/c"' \
		../outside/c o
}

# --- names made before the session ---------------------------------------------

# bind_alias_write MODE: the root bound (by root, before the session, in a
# mount namespace of this test's own) at $OUT/alias, and the session's
# blind write to f by that path. A second name made before the session, as
# a hard link made then is: judged by the name the write uses.
bind_alias_write() {
	command -v unshare >/dev/null || skip "unshare (util-linux) is not installed"
	[ "$1" = preload ] || "$RG" run "$(esc_flags "$1")" -- true 2>/dev/null ||
		skip "supervised mode unavailable here"
	esc_setup
	mkdir "$ESC/outside/alias"
	ESC=$ESC unshare -m --propagation private bash -c "$(declare -f esc_session esc_drop esc_flags)"'
		mount --bind "$ESC/root" "$ESC/outside/alias" || exit 99
		esc_session "$1" "echo PWN >\"\$OUT/alias/f\""' _ "$1" ||
		[ $? -ne 99 ] || skip "cannot bind mount here"
}

@test "t6020.36 a write by the path of a bind mount of the root made before the session is not checked (preload, documented)" {
	bind_alias_write preload
	assert_equal "$(esc_verdict)" bypass
}

@test "t6020.37 a write by the path of a bind mount of the root made before the session is not checked (--strict, documented)" {
	bind_alias_write strict
	assert_equal "$(esc_verdict)" bypass
}

# prelinked_write MODE: f given a second name under an ignored directory
# (build/f) before the session, and the session's blind write by that name.
prelinked_write() {
	esc_setup
	mkdir "$ESC/root/build"
	chown 65534:65534 "$ESC/root/build"
	ln "$ESC/root/f" "$ESC/root/build/f"
	esc_session "$1" 'echo PWN >build/f'
}

@test "t6020.38 a write by a free name of f, a hard link made before the session, is not checked (preload, documented)" {
	prelinked_write preload
	assert_equal "$(esc_verdict)" bypass
}

@test "t6020.39 a write by a free name of f, a hard link made before the session, is not checked (--strict, documented)" {
	prelinked_write strict
	assert_equal "$(esc_verdict)" bypass
}
