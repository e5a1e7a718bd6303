#!/usr/bin/env bats
# The hostile tree (tests/e2e/escape.bash): each vector runs a whole session
# as uid 65534 and tries to destroy a file it never read, in each mode the
# vector applies to. scripts/dev/escape-suite.sh prints the same set as a
# table. Alongside each, the ordinary use the fix must keep working.

load helper
load escape

setup_file() {
	esc_setup_file
}

teardown_file() {
	esc_drop_rg_copy
}

setup() {
	[ -x "$RG" ] || fail "$RG not built (run make)"
	[ "$(id -u)" -eq 0 ] || skip "needs root to run the session as uid 65534"
	command -v setpriv >/dev/null || skip "setpriv (util-linux) is not installed"
	ESC=
}

teardown() {
	esc_teardown
}

# --- rename laundering: a rename never makes an unread inode known ----------

@test "t6000.01 mv f x; mv x f leaves f unread: the write after is refused (preload)" {
	refused preload rename-launder
}

@test "t6000.02 mv f x; mv x f leaves f unread: the write after is refused (--supervise)" {
	refused supervise rename-launder
}

@test "t6000.03 mv f x; mv x f leaves f unread: the write after is refused (--strict)" {
	refused strict rename-launder
}

@test "t6000.04 ln f g; rm f; mv g f leaves f unread: the write after is refused (preload)" {
	refused preload link-launder
}

@test "t6000.05 ln f g; rm f; mv g f leaves f unread: the write after is refused (--supervise)" {
	refused supervise link-launder
}

@test "t6000.06 ln f g; rm f; mv g f leaves f unread: the write after is refused (--strict)" {
	refused strict link-launder
}

@test "t6000.07 a read file moved within the root stays writable under its new name (preload)" {
	allowed preload 'cat f >/dev/null && mv f g && echo OK >g' g OK
}

@test "t6000.08 a read file moved within the root stays writable under its new name (--strict)" {
	allowed strict 'cat f >/dev/null && mv f g && echo OK >g' g OK
}

@test "t6000.09 the session's atomic save (temp written, renamed over a read file) stays writable (--strict)" {
	allowed strict 'cat f >/dev/null && echo v2 >tmp && mv tmp f && echo OK >f' f OK
}

@test "t6000.10 sed -i twice on a read file: the second edit is allowed too (preload)" {
	allowed preload 'cat f >/dev/null && sed -i s/ORIGINAL/one/ f && sed -i s/one/OK/ f' f OK
}

# --- removal: the supervisor guards unlink too ---------------------------------

@test "t6000.24 a raw unlink system call of an unread file is refused with --guard-unlink (--strict)" {
	refused strict unlink-raw
}

@test "t6000.26 a file removed under --strict can be brought back with readguard undo" {
	esc_setup
	esc_session strict 'rm f' --session "$ESC/tables/s" --keep || fail "rm failed: $(cat "$ESC/out")"
	[ ! -e "$ESC/root/f" ] || fail "f was not removed"
	esc_undo_restores_f
}

# The journal is what makes a removal undoable: a tree that may remove files
# must not be able to remove, cut or move what keeps them. JOURNAL_ATTACK
# runs after 'rm f'; f must still come back.
journal_attacked() {
	esc_setup
	esc_session strict 'rm f
		J="${XDG_STATE_HOME:-$HOME/.local/state}/readguard/journal"
		'"$1" --session "$ESC/tables/s" --keep || true
	[ ! -e "$ESC/root/f" ] || fail "f was not removed: $(cat "$ESC/out")"
	grep -q "it is this session's journal" "$ESC/out" ||
		fail "the attack was not refused with the reason: $(cat "$ESC/out")"
	esc_undo_restores_f
}

@test "t6000.30 removing the journal is refused, so a removed file still comes back (--strict)" {
	journal_attacked 'rm -rf "$J"'
}

@test "t6000.31 emptying the journal's records is refused (--strict)" {
	journal_attacked 'for i in "$J"/sessions/*; do : >"$i"; done'
}

@test "t6000.32 moving the journal out of its place is refused (--strict)" {
	journal_attacked 'mv "$J" "$OUT/j" || mv "$J/objects" "$OUT/o"'
}

@test "t6000.33 a kept version cannot be overwritten in the journal (--strict)" {
	journal_attacked 'for i in "$J"/objects/*; do echo PWN >"$i"; done'
}

# A rename's two names in one directory are judged on one reading of its
# path (supervise/jseal.c): both are in the journal, both refused.
@test "t6000.39 renaming a kept version within the journal's own directory is refused (--strict)" {
	journal_attacked 'cd "$J/objects" && for i in *; do mv "$i" "$i.x" && mv "$i.x" "$i"; mv "$i" x; done'
}

# A bare name from the cwd is judged on readguard's own descriptor of that
# cwd (supervise/open.c), not on a second open of it.
@test "t6000.40 writing or creating by bare name with the cwd in the journal is refused (--strict)" {
	journal_attacked 'cd "$J/objects" && for i in *; do echo PWN >"$i"; done; echo PWN >planted'
	# Refused before the create, not once the file was made.
	[ ! -e "${XDG_STATE_HOME:-$ESC/.local/state}/readguard/journal/objects/planted" ] ||
		fail "planted was created in the journal"
}

@test "t6000.34 a name planted where the journal would keep a removed file does not stand in for it (--strict)" {
	esc_setup
	esc_session strict 'J="${XDG_STATE_HOME:-$HOME/.local/state}/readguard/journal"
		mkdir -p "$J/objects"
		ln -s /nonexistent "$J/objects/$(stat -c "ino-%d-%i-" f)$(python3 -c "import os; print(os.stat(\"f\").st_ctime_ns)")"
		rm f' --session "$ESC/tables/s" --keep || true
	[ ! -e "$ESC/root/f" ] || fail "f was not removed: $(cat "$ESC/out")"
	esc_undo_restores_f
}

@test "t6000.35 a name planted where the journal would store a version by content does not stand in for it (--strict)" {
	esc_setup
	# A symbolic link as long as f's bytes, under the name of their SHA-256.
	esc_session strict 'J="${XDG_STATE_HOME:-$HOME/.local/state}/readguard/journal"
		mkdir -p "$J/objects"
		ln -s /nonexist "$J/objects/$(sha256sum <f | cut -d" " -f1)"
		cat f >/dev/null && echo PWN >f' --session "$ESC/tables/s" --keep || true
	[ "$(cat "$ESC/root/f")" = PWN ] || fail "f was not overwritten: $(cat "$ESC/out")"
	esc_undo_restores_f
}

@test "t6000.36 a name planted where a removed file's version is named when the run ends does not replace it (--strict)" {
	esc_setup
	esc_session strict 'J="${XDG_STATE_HOME:-$HOME/.local/state}/readguard/journal"
		mkdir -p "$J/objects"
		ln -s /nonexistent "$J/objects/$(sha256sum <f | cut -d" " -f1)"
		rm f' --session "$ESC/tables/s" --keep || true
	[ ! -e "$ESC/root/f" ] || fail "f was not removed: $(cat "$ESC/out")"
	esc_undo_restores_f
}

# --- the session's state: out of a --strict tree's reach ---------------------

@test "t6000.11 readguard mark from inside the tree cannot unlock a file (--strict)" {
	refused strict mark-from-tree
}

@test "t6000.12 readguard mark --session on the table found where tables live is refused (--strict)" {
	refused strict mark-found-table
}

@test "t6000.13 the table mapped read-write to move the roots is refused (--strict)" {
	refused strict table-mmap
}

@test "t6000.27 a process started after the table is removed guards the session's roots, not its directory (preload)" {
	refused preload table-rm
}

@test "t6000.28 a process started after the table is removed guards the session's roots, not its directory (--supervise)" {
	refused supervise table-rm
}

@test "t6000.29 removing the table is refused, and the write after it too (--strict)" {
	refused strict table-rm
	grep -q "refused to remove '.*readguard-.*': it is this session's own table" "$ESC/out" ||
		fail "the removal was not refused with the reason: $(cat "$ESC/out")"
}

@test "t6000.14 truncating the table is refused, says why, and the session goes on (--strict)" {
	esc_setup
	esc_session strict "$ESC_TABLE"'; truncate -s 0 "$T"; echo "truncate=$?"
		cat f >/dev/null && echo OK >f' || true
	grep -q 'truncate=1' "$ESC/out" || fail "the truncate was not refused: $(cat "$ESC/out")"
	grep -q "refused to write '.*readguard-.*': it is this session's own table" "$ESC/out" ||
		fail "no reason given: $(cat "$ESC/out")"
	[ "$(cat "$ESC/root/f")" = OK ] || fail "the session stopped working: $(cat "$ESC/out")"
}

@test "t6000.15 the supervisor survives the tree truncating its table, and still refuses (--supervise)" {
	"$RG" run --supervise -- true 2>/dev/null || skip "supervised mode unavailable here"
	esc_setup
	cp "$T/rgstatic" "$ESC/rgstatic"
	chown 65534:65534 "$ESC/rgstatic"
	esc_session supervise 'truncate -s 0 "$READGUARD_SESSION" 2>/dev/null
		"$HOME/rgstatic" write f PWN; "$HOME/rgstatic" read g 2>/dev/null; echo done' || true
	grep -q 'err EACCES' "$ESC/out" || fail "the supervisor did not answer: $(cat "$ESC/out")"
	[ "$(cat "$ESC/root/f")" = ORIGINAL ] || fail "f lost its bytes"
}

@test "t6000.16 a session steered from outside the tree still works (--strict)" {
	esc_setup
	esc_session strict 'while [ ! -e .go ]; do sleep 0.02; done; echo OK >f' --session "$ESC/tables/s" &
	local pid=$!
	esc_wait_for_file "$ESC/tables/s"
	esc_drop "$RG" mark --session "$ESC/tables/s" "$ESC/root/f" >>"$ESC/out" 2>&1 ||
		fail "mark from outside failed: $(cat "$ESC/out")"
	touch "$ESC/root/.go"
	wait "$pid" || true
	[ "$(cat "$ESC/root/f")" = OK ] || fail "the outside mark did not count: $(cat "$ESC/out")"
}

# --- namespaces: a --strict tree sees paths as the supervisor does ------------

@test "t6000.17 a bind mount of the root in a namespace of the tree's own cannot write f (--strict)" {
	command -v unshare >/dev/null || skip "unshare (util-linux) is not installed"
	refused strict ns-bind
}

@test "t6000.18 unshare -U under --strict is refused with the reason" {
	command -v unshare >/dev/null || skip "unshare (util-linux) is not installed"
	esc_setup
	esc_session strict 'unshare -Ur true; echo "unshare=$?"' || true
	grep -q 'unshare=1' "$ESC/out" || fail "unshare was not refused: $(cat "$ESC/out")"
	grep -q 'readguard: refused unshare(CLONE_NEWUSER): under --strict no process may make a user or mount namespace' "$ESC/out" ||
		fail "no reason given: $(cat "$ESC/out")"
}

@test "t6000.19 fork and threads still work where clone3 is refused (--strict)" {
	allowed strict 'cat f >/dev/null; python3 -c "
import threading, os
t = threading.Thread(target=lambda: None); t.start(); t.join()
if os.fork() == 0: os._exit(0)
os.wait()
" && echo OK >f' f OK
}

# --- renames act on the names they checked -----------------------------------

@test "t6000.20 swapping directories during renames cannot redirect one onto an unread file (--strict)" {
	refused strict dir-swap-race
}

@test "t6000.21 swapping directories during renames cannot redirect one onto an unread file (preload)" {
	refused preload dir-swap-race
}

@test "t6000.37 swapping the directory of a same-directory rename cannot redirect it onto an unread file (--strict)" {
	refused strict dir-swap-same
}

@test "t6000.38 swapping the directory of a same-directory rename cannot redirect it onto an unread file (preload)" {
	refused preload dir-swap-same
}

@test "t6000.22 a read file moved into a directory and back stays writable (--strict)" {
	allowed strict 'cat f >/dev/null && mkdir -p d && mv f d/g && mv d/g ./f && mv f d/ &&
		mv d/f f && echo OK >f' f OK
}

@test "t6000.23 a read file moved into a directory and back stays writable (preload)" {
	allowed preload 'cat f >/dev/null && mkdir -p d && mv f d/g && mv d/g ./f && mv f d/ &&
		mv d/f f && echo OK >f' f OK
}
