#!/usr/bin/env bats
# The journal keeps a file that loses its last name (rm, git replacing it,
# mv over it) by a link, not a copy: the kept version is the old inode
# itself. These tests check that it is, and every case where it must not
# be: another name left, a change that fails, a journal on another
# filesystem.

load helper
load cli_helper
load escape

setup() {
	common_setup
	cli_setup
	J="$XDG_STATE_HOME/readguard/journal"
}

# inode FILE
inode() {
	stat -c %i "$1"
}

# sum TEXT: the SHA-256 of TEXT and a newline, as the journal names it.
sum() {
	sha256sum <<<"$1" | cut -d' ' -f1
}

@test "t1410.01 rm keeps the file by a link: the kept version is the old inode, no copy" {
	mkdir -p "$J/objects" # the first save of a journal makes its directory, by a copy
	mkfile a.txt original
	local ino
	ino=$(inode a.txt)
	rg rm a.txt
	assert_equal "$(inode "$J/objects/$(sum original)")" "$ino"
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" original
}

@test "t1410.02 mv over a file keeps the replaced inode by a link; undo brings it back" {
	mkdir -p "$J/objects"
	mkfile a.txt original
	mkfile b.txt other
	local ino
	ino=$(inode a.txt)
	rgsh 'cat a.txt >/dev/null; mv b.txt a.txt'
	assert_equal "$(inode "$J/objects/$(sum original)")" "$ino"
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" original
}

@test "t1410.03 until the run ends, the version is named by its inode; then by content, 0600" {
	mkdir -p "$J/objects"
	mkfile a.txt original
	chmod 0644 a.txt
	local ino
	ino=$(inode a.txt)
	rgsh "rm a.txt; ls '$J/objects' >'$OUT/during'"
	assert_equal "$(grep -c "^ino-[0-9]*-$ino-[0-9]*\$" "$OUT/during")" 1
	assert_equal "$(grep -c . "$OUT/during")" 1
	local linked
	linked=$(cat "$OUT/during")
	assert_equal "$(readlink "$J/objects/$linked")" "$(sum original)"
	assert_equal "$(stat -c %a "$J/objects/$(sum original)")" 600
}

@test "t1410.04 a file with a second name is copied: a write through the other name leaves the kept bytes" {
	mkdir -p "$J/objects"
	mkfile a.txt original
	ln a.txt other-name
	rgsh 'cat other-name >/dev/null; rm a.txt; echo changed through the other name >>other-name'
	assert_not_equal "$(inode "$J/objects/$(sum original)")" "$(inode other-name)"
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" original
}

@test "t1410.05 the same bytes removed twice, in two files, are stored once" {
	mkdir -p "$J/objects"
	mkfile a.txt same
	mkfile b.txt same
	rg rm a.txt b.txt
	assert_equal "$(find "$J/objects" -type f | wc -l)" 1
	"$RG" undo a.txt b.txt
	assert_equal "$(cat a.txt b.txt)" "$(printf 'same\nsame')"
}

# sticky_setup [PAD]: $D, a directory where uid 65534 may link root's
# world-writable sticky/a.txt (so the journal's link is made) but not
# remove it, with a journal and tables of that user's; skips where it cannot.
# PAD: that many zero bytes after its line.
sticky_setup() {
	setpriv --reuid=65534 --regid=65534 --clear-groups env "$RG" --version >/dev/null 2>&1 ||
		skip "uid 65534 cannot run $RG from this build tree (a private directory)"
	[ "$(id -u)" = 0 ] || skip "needs root to set up another user's file"
	command -v setpriv >/dev/null || skip "setpriv (util-linux) is not installed"
	D=$(mktemp -d /tmp/rg-t1410.XXXXXX)
	chmod 0755 "$D"
	mkdir -m 1777 "$D/sticky"
	mkdir -p "$D/state/readguard/journal/objects" "$D/tables"
	chown -R 65534:65534 "$D/state" "$D/tables"
	printf 'original\n' >"$D/sticky/a.txt"
	[ -z "${1:-}" ] || head -c "$1" /dev/zero >>"$D/sticky/a.txt"
	chmod 0666 "$D/sticky/a.txt"
}

# as_nobody SCRIPT: SCRIPT in a session of uid 65534's, in $D.
as_nobody() {
	run bash -c 'cd "$1" && setpriv --reuid=65534 --regid=65534 --clear-groups \
		env XDG_STATE_HOME="$1/state" READGUARD_DIR="$1/tables" XDG_RUNTIME_DIR= \
		"$2" run -- bash -c "$3"' sh "$D" "$RG" "$1"
}

# The record of the removal stays, and the session counts the bytes as
# kept: the link becomes a copy of the file (t1400.141).
@test "t1410.06 an unlink that fails leaves no link of the file in the journal, a copy of it" {
	sticky_setup
	as_nobody 'rm -f sticky/a.txt'
	local links kept
	links=$(stat -c %h "$D/sticky/a.txt")
	kept=$(find "$D/state" -name 'ino-*' -exec cmp -s {} "$D/sticky/a.txt" \; -print | wc -l)
	assert_failure
	assert_output --partial "Operation not permitted"
	assert_equal "$links" 1
	assert_equal "$kept" 1
}

@test "t1410.07 a journal on another filesystem keeps a removed file by a copy" {
	local shm
	shm=$(mktemp -d /dev/shm/rg-t1410.XXXXXX) || skip "no /dev/shm"
	[ "$(stat -c %d "$shm")" != "$(stat -c %d "$W")" ] || { rm -rf "$shm"; skip "/dev/shm is on the work tree's filesystem"; }
	mkfile a.txt original
	XDG_STATE_HOME=$shm rg rm a.txt
	local objs
	objs=$(ls "$shm/readguard/journal/objects")
	XDG_STATE_HOME=$shm "$RG" undo a.txt
	rm -rf "$shm"
	assert_equal "$objs" "$(sum original)"
	assert_equal "$(cat a.txt)" original
}

@test "t1410.08 a static program under --supervise removes a file: the supervisor keeps it, undo brings it back" {
	out=$("$RG" run --supervise -- true 2>&1) || skip "supervised mode unavailable: $out"
	mkfile a.txt original
	mkfile b.txt original-b
	run "$RG" run --supervise --log "$LOG" -- "$T/rgstatic" unlink a.txt unlink b.txt
	assert_success
	assert_file_not_exist a.txt
	run "$RG" history a.txt
	assert_output --partial "rgstatic["
	assert_output --partial "unlink"
	"$RG" undo a.txt b.txt
	assert_equal "$(cat a.txt)" original
	assert_equal "$(cat b.txt)" original-b
}

@test "t1410.09 --strict: a static program's unlink of an unread file is journaled" {
	out=$("$RG" run --strict -- true 2>&1) || skip "strict mode unavailable: $out"
	mkfile a.txt original
	run "$RG" run --strict --log "$LOG" -- "$T/rgstatic" unlink a.txt
	assert_success
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" original
}

@test "t1410.10 --supervise --guard-unlink: a static program may not remove an unread file" {
	out=$("$RG" run --supervise -- true 2>&1) || skip "supervised mode unavailable: $out"
	mkfile a.txt original
	run "$RG" run --supervise --guard-unlink --log "$LOG" -- "$T/rgstatic" unlink a.txt
	assert_failure
	assert_line "err EACCES"
	assert_equal "$(cat a.txt)" original
}


@test "t1410.11 rm through a symbolic link from outside the root keeps the file, by its real path" {
	mkdir sub
	mkfile sub/a.txt original
	ln -s "$W/sub" "$OUT/link"
	(cd "$OUT" && "$RG" run --log "$LOG" --root "$W" -- rm link/a.txt)
	assert_file_not_exists sub/a.txt
	"$RG" undo "$W/sub/a.txt"
	assert_equal "$(cat sub/a.txt)" original
}

@test "t1410.12 rm by a relative path with . and .. keeps the file by the path they fold to" {
	mkdir -p sub/deep
	mkfile a.txt original
	(cd sub/deep && "$RG" run --log "$LOG" --root "$W" -- rm ./../.././a.txt)
	assert_file_not_exists a.txt
	"$RG" undo "$W/a.txt"
	assert_equal "$(cat a.txt)" original
}

@test "t1410.13 an unlink that fails leaves a file the session read writable" {
	# Too large to hash (core/content.h): what lets it be written is the
	# session's record, not its bytes.
	sticky_setup 100000
	# The journal's link and its removal move the file's ctime: the session
	# that knew the file must know it as they leave it.
	as_nobody 'cat sticky/a.txt >/dev/null; rm -f sticky/a.txt; echo appended >>sticky/a.txt'
	local text
	text=$(tr -d '\0' <"$D/sticky/a.txt")
	assert_success
	assert_output --partial "Operation not permitted"
	refute_output --partial "refused"
	assert_equal "$text" "$(printf 'original\nappended')"
}

@test "t1410.14 an unlink that fails leaves a file another program changed after the read changed" {
	sticky_setup 100000
	# The session reads the file, another program rewrites it with the same
	# size and puts its mtime back (only ctime tells), then the session's
	# unlink links it, fails and drops the link: the record of the read
	# must not be taken for the file as the link found it. An old mtime: a
	# read within its tick would hash the bytes, which would tell instead.
	touch -d '2 hours ago' "$D/sticky/a.txt"
	(
		cd "$D" && setpriv --reuid=65534 --regid=65534 --clear-groups \
			env XDG_STATE_HOME="$D/state" READGUARD_DIR="$D/tables" XDG_RUNTIME_DIR= \
			"$RG" run -- bash -c 'cat sticky/a.txt >/dev/null; : >sticky/read
				while [ ! -e sticky/go ]; do sleep 0.05; done
				rm -f sticky/a.txt; echo appended >>sticky/a.txt'
	) >"$D/out" 2>&1 &
	local bg=$! m n
	await_file "$D/sticky/read"
	m=$(stat -c %.9Y "$D/sticky/a.txt")
	n=$(stat -c %s "$D/sticky/a.txt")
	head -c "$n" /dev/zero | tr '\0' X 1<>"$D/sticky/a.txt"
	touch -d "@$m" "$D/sticky/a.txt"
	: >"$D/sticky/go"
	status=0
	wait "$bg" || status=$?
	output=$(cat "$D/out")
	local tail
	tail=$(tail -c 9 "$D/sticky/a.txt")
	assert_failure
	assert_output --partial "Operation not permitted"
	assert_output --partial "refused"
	assert_equal "$tail" XXXXXXXXX
}

@test "t1410.15 --strict: a file grown by truncate, then cut, comes back by undo" {
	out=$("$RG" run --strict -- true 2>&1) || skip "strict mode unavailable: $out"
	mkfile a.txt original
	run "$RG" run --strict --log "$LOG" -- \
		python3 -c 'import os; open("a.txt").read(); os.truncate("a.txt", 1000); os.truncate("a.txt", 0)'
	assert_success
	assert_equal "$(stat -c %s a.txt)" 0
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" original
}

# The kept version is the removed file's inode: a descriptor left open on it
# still writes to it. Undo must not restore those bytes as the old ones. A
# process of the session that writes it is seen, and the shim keeps a copy
# first: undo restores that.
write_through_open_fd() {
	python3 -c 'import os
fd = os.open("a.txt", os.O_RDONLY); os.unlink("a.txt")
w = os.open("/proc/self/fd/%d" % fd, os.O_WRONLY | os.O_TRUNC); os.write(w, b"CORRUPTED, longer")'
}

@test "t1410.16 a kept inode the session wrote to is restored, after the run, from the copy kept before the write" {
	mkdir -p "$J/objects"
	mkfile a.txt original
	rg bash -c "$(declare -f write_through_open_fd); write_through_open_fd"
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" original
	assert_equal "$(find "$J/objects" -type f -exec grep -l CORRUPTED {} + | wc -l)" 1
}

@test "t1410.17 a kept inode the session wrote to is restored, during the session, from the copy kept before the write" {
	mkdir -p "$J/objects"
	mkfile a.txt original
	rgsh "$(declare -f write_through_open_fd); write_through_open_fd; '$RG' undo a.txt 2>'$OUT/err'; echo \$? >'$OUT/rc'"
	assert_equal "$(cat "$OUT/rc")" 0
	assert_equal "$(cat a.txt)" original
}

# The same, with bytes of the very size the file had: only its mtime tells.
# A process of the session that writes the removed file makes the shim keep
# a copy of it first, which undo restores instead. SCRIPT opens a.txt on
# descriptor 4, then changes it (rm, mv over it); then "CORRUPTE\n", as
# long as "original\n", goes through that descriptor.
same_size_through_fd() {
	printf '%s\n' "exec 4<a.txt; $1; printf 'CORRUPTE\n' >/proc/self/fd/4"
}

@test "t1410.18 a kept inode the session wrote to the same size is restored from the copy kept before the write" {
	mkdir -p "$J/objects"
	mkfile a.txt original
	rgsh "$(same_size_through_fd 'rm a.txt'); '$RG' undo a.txt 2>'$OUT/err'; echo \$? >'$OUT/rc'"
	assert_equal "$(cat "$OUT/rc")" 0
	assert_equal "$(cat a.txt)" original
}

@test "t1410.19 a kept inode the session wrote to the same size is not named by its new bytes when the run ends; undo restores the copy" {
	mkdir -p "$J/objects"
	mkfile a.txt original
	rgsh "$(same_size_through_fd 'rm a.txt')"
	assert_file_not_exists "$J/objects/$(sum CORRUPTE)"
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" original
}

@test "t1410.20 a file mv replaced, then written to the same size through a descriptor left open on it, comes back as it was" {
	mkdir -p "$J/objects"
	mkfile a.txt original
	mkfile b.txt replacement
	rgsh "$(same_size_through_fd 'mv b.txt a.txt')"
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" original
}

# removed_under_writer [WRAPPER...]: a.txt, held open for writing by a
# process outside any session (unseen by the journal), is removed by a run
# (run through WRAPPER); write_through_it then has that process write it
# to the same size, once the run has ended.
removed_under_writer() {
	mkfile a.txt original
	env -u LD_PRELOAD -u READGUARD_SESSION -u READGUARD_ROOTS -u READGUARD_MODE bash -c '
		exec 4<>a.txt; : >opened
		for i in $(seq 1200); do [ -e go ] && break; sleep 0.05; done
		printf "CORRUPTE\n" >&4; : >written' >/dev/null 2>&1 3>&- &
	await_file opened
	"$@" "$RG" run --log "$LOG" -- rm a.txt
}

write_through_it() {
	: >go
	await_file written
}

written_same_size() {
	echo "readguard: undo: 'a.txt': the kept version was written to after it was kept (through a descriptor left open on the removed file, or the name it was moved to); not restoring"
}

@test "t1410.26 undo --all restores a removed file the session wrote through a descriptor left open on it, and makes no 'a.txt (deleted)'" {
	mkdir -p "$J/objects"
	mkfile a.txt original
	rgsh "$(same_size_through_fd 'rm a.txt')"
	run --separate-stderr "$RG" undo --all
	assert_success
	assert_equal "$(cat a.txt)" original
	assert_file_not_exists "a.txt (deleted)"
}

@test "t1410.21 a kept inode named by its bytes, then written to the same size, is not restored as the old version" {
	mkdir -p "$J/objects"
	removed_under_writer
	assert_file_exists "$J/objects/$(sum original)"
	write_through_it
	run --separate-stderr "$RG" undo a.txt
	assert_failure 2
	assert_equal "$stderr" "readguard: undo: 'a.txt': the kept version's bytes no longer match their name: it was written to after it was kept (through a descriptor left open on the removed file, or the name it was moved to), or a power cut damaged it; not restoring"
	assert_file_not_exists a.txt
}

@test "t1410.22 a kept inode written to the same size before it was named by its bytes is not restored, nor named by them later" {
	command -v flock >/dev/null || skip "flock is not installed"
	mkdir -p "$J/objects"
	# A prune holding the journal as the run ends leaves the naming to later.
	removed_under_writer flock -o "$J"
	local linked
	linked=$(ls "$J/objects")
	write_through_it
	run --separate-stderr "$RG" undo a.txt
	assert_failure 2
	assert_equal "$stderr" "$(written_same_size)"
	touch -d '2 hours ago' "$J/.pruned"
	"$RG" run --log "$LOG" -- true # a prune, which names what it can
	assert [ -f "$J/objects/$linked" ]
	refute [ -L "$J/objects/$linked" ]
	assert_file_not_exists "$J/objects/$(sum CORRUPTE)"
	run --separate-stderr "$RG" undo a.txt
	assert_failure 2
	assert_equal "$stderr" "$(written_same_size)"
	assert_file_not_exists a.txt
}

# killed_naming: a.txt removed by a run killed -9 as it names the kept
# inode by its bytes, between the link that names it and the rename that
# points its linked name there; then a session keeps the same bytes, which
# claims that object and moves the inode's mtime (fresh .pruned: no prune
# finishes the naming meanwhile). linked: the record's name.
killed_naming() {
	mkdir -p "$J/objects"
	mkfile a.txt original
	run strace -o /dev/null -e trace=rename -e inject=rename:signal=KILL:when=1 \
		"$RG" run --log "$LOG" -- rm a.txt
	assert_equal "$status" 137
	linked=$(grep -ho '"object":"ino-[^"]*"' "$J/sessions/"*.jsonl | tail -1 | cut -d'"' -f4)
	assert_equal "$(inode "$J/objects/$linked")" "$(inode "$J/objects/$(sum original)")"
	touch "$J/.pruned"
	mkfile b.txt original
	rgsh 'cat b.txt >/dev/null; echo changed >b.txt'
	assert [ -f "$J/objects/$linked" ]
	refute [ -L "$J/objects/$linked" ]
	assert_not_equal "$(stat -c %Y "$J/objects/$linked")" 1577836800 # mkfile's 2020
}

@test "t1410.23 a kept inode a killed run named by its bytes, whose mtime a claim then moved, is restored by undo" {
	need_strace
	killed_naming
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" original
}

@test "t1410.24 a kept inode a killed run named by its bytes, whose mtime a claim then moved, is named by them at the next prune" {
	need_strace
	killed_naming
	touch -d '2 hours ago' "$J/.pruned"
	"$RG" run --log "$LOG" -- true
	assert_equal "$(readlink "$J/objects/$linked")" "$(sum original)"
}

@test "t1410.25 diff does not show a kept inode written to the same size as the old side: it says so and exits 2" {
	command -v flock >/dev/null || skip "flock is not installed"
	mkdir -p "$J/objects"
	removed_under_writer flock -o "$J"
	write_through_it
	run --separate-stderr "$RG" diff a.txt
	assert_failure 2
	assert_output ''
	assert_equal "$stderr" "readguard: diff: 'a.txt': the kept version was written to after it was kept (through a descriptor left open on the removed file, or the name it was moved to); undo refuses it too"
}

@test "t1410.27 a removed file the session's standard output appends to is kept by a copy: undo brings its old bytes back" {
	mkdir -p "$J/objects"
	mkfile a.txt original
	rgsh 'rm a.txt; echo later' >>a.txt
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" original
}

@test "t1410.28 a file the session's standard error writes, replaced by mv, is kept by a copy: undo brings its old bytes back" {
	mkdir -p "$J/objects"
	mkfile a.txt original
	mkfile b.txt other
	rgsh 'cat a.txt >/dev/null; mv b.txt a.txt; echo later >&2' 2>>a.txt
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" original
}

@test "t1410.29 a removed file the session inherited as its output, removed by a process whose own output goes elsewhere, is kept by a copy: undo brings its old bytes back" {
	mkdir -p "$J/objects"
	mkfile a.txt original
	rgsh 'rm a.txt >/dev/null 2>&1 </dev/null; echo later' >>a.txt
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" original
}

@test "t1410.30 a file the session inherited as descriptor 3, replaced by mv, is kept by a copy: undo brings its old bytes back" {
	mkdir -p "$J/objects"
	mkfile a.txt original
	mkfile b.txt other
	rgsh 'cat a.txt >/dev/null; mv b.txt a.txt; echo later >&3' 3>>a.txt
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" original
}

@test "t1410.31 a removed file a run joining a named session inherited as its output is kept by a copy: undo brings its old bytes back" {
	mkdir -p "$J/objects"
	mkfile a.txt original
	"$RG" run --keep --session "$OUT/s" --log "$LOG" -- true
	"$RG" run --session "$OUT/s" -- bash -c 'rm a.txt >/dev/null; echo later' >>a.txt
	"$RG" undo --session "$OUT/s" a.txt
	assert_equal "$(cat a.txt)" original
}

@test "t1410.32 a removed file a preloaded program had as its output when it made its session is kept by a copy: undo brings its old bytes back" {
	mkdir -p "$J/objects"
	mkfile a.txt original
	env LD_PRELOAD="$SHIM" READGUARD_ROOTS="$W" bash -c 'rm a.txt >/dev/null; echo later' >>a.txt
	"$RG" undo a.txt
	assert_equal "$(cat a.txt)" original
}

@test "t1410.33 a removed file no process of the session writes is still kept by a link" {
	mkdir -p "$J/objects"
	mkfile a.txt original
	local ino
	ino=$(inode a.txt)
	rgsh 'rm a.txt; echo later' >>"$OUT/log"
	assert_equal "$(inode "$J/objects/$(sum original)")" "$ino"
}

@test "t1410.34 an unlink of a missing name fails ENOENT at the journal's look: no second look, no unlink" {
	need_strace
	run strace -f -o "$W/trace" -e trace=unlink,unlinkat,newfstatat,openat2 "$RG" run --log "$LOG" -- \
		python3 -c 'import errno, os
try:
    os.unlink("missing.txt")
except OSError as e:
    print(errno.errorcode[e.errno])'
	assert_success
	assert_output ENOENT
	[ "$(grep -c 'openat2(.*"missing.txt"' "$W/trace")" -eq 1 ]
	[ "$(grep -Ec '(unlink|unlinkat|newfstatat)\(.*"missing.txt"' "$W/trace")" -eq 0 ]
}

@test "t1410.35 a removal the journal leaves alone (an ignored *.o) asks nothing of descriptors 0-2" {
	need_strace
	mkfile b.o object
	run strace -f -o "$W/trace" -e trace=openat2,fstat,fcntl,unlinkat "$RG" run --log "$LOG" -- rm b.o
	assert_success
	refute [ -e b.o ]
	run awk '/openat2\(.*"b\.o"/ {on = 1} /unlinkat\(.*"b\.o"/ {on = 0} on && /(fstat|fcntl)\([012],/' "$W/trace"
	assert_output ''
}

@test "t1410.36 a removed file a preloaded program joining a session by its variable has as its output is kept by a copy: undo brings its old bytes back" {
	mkdir -p "$J/objects"
	mkfile a.txt original
	"$RG" run --keep --session "$OUT/s" --log "$LOG" -- true
	env LD_PRELOAD="$SHIM" READGUARD_SESSION="$OUT/s" READGUARD_ROOTS="$W" \
		bash -c 'rm a.txt; echo later' >>a.txt
	"$RG" undo --session "$OUT/s" a.txt
	assert_equal "$(cat a.txt)" original
}

@test "t1410.37 an unlink of a missing name before the process sets up fails ENOENT: the table is not attached for it" {
	need_strace
	mkfile there.txt kept
	# Output to /dev/null: a regular file on 1 or 2 is restamped at exit,
	# which attaches the table for that alone.
	strace -ff -o "$W/tr" -e trace=execve,openat,openat2,newfstatat,unlink,unlinkat \
		"$RG" run --log "$LOG" -- rm -f missing.txt there.txt >/dev/null 2>&1
	local t missing table
	t=$(grep -l '^execve("[^"]*/rm"' "$W"/tr.*)
	[ "$(grep -Ec '(unlink|unlinkat|openat2)\(.*"missing.txt"' "$t")" -eq 0 ]
	# Attached once, for the name that is there, which is judged as before.
	missing=$(grep -n '"missing.txt"' "$t" | tail -1 | cut -d: -f1)
	table=$(grep -n '/readguard-[0-9]*-[0-9a-f]*", O_RDWR' "$t" | cut -d: -f1)
	[ "$table" -gt "$missing" ]
	[ ! -e there.txt ]
	assert_equal "$(cat "$J/objects/$(sum kept)")" kept
}

# killed_at_unlink FILE: FILE removed by an rm killed -9 between the link
# that keeps it and its unlink, so the kept inode has a second name a
# process left behind can still write through; the run's own settle is held
# off (the journal's lock), so the next prune settles it. linked: its name.
killed_at_unlink() {
	mkdir -p "$J/objects"
	flock "$J" strace -f -o /dev/null -P "$W/$1" -e trace=unlink,unlinkat \
		-e inject=unlink,unlinkat:signal=KILL:when=1 "$RG" run --log "$LOG" -- rm "$W/$1" || :
	linked=$(grep -ho '"object":"ino-[^"]*"' "$J/sessions/"*.jsonl | tail -1 | cut -d'"' -f4)
	assert_equal "$(stat -c %h "$J/objects/$linked")" 2
	refute [ -L "$J/objects/$linked" ]
}

@test "t1410.38 a kept inode with a second name larger than the per-file cap is not copied to name it by its bytes" {
	need_strace
	head -c 1M /dev/urandom >a.txt
	killed_at_unlink a.txt
	READGUARD_JOURNAL_MAX_FILE=4K "$RG" sessions --prune >/dev/null
	run find "$J" -type f -size +100k
	assert_output "$J/objects/$linked"
	refute [ -L "$J/objects/$linked" ]
}

@test "t1410.39 a kept inode with a second name, grown through it as the prune copies it, is not copied past the size it had" {
	need_strace
	mkfile a.txt original
	killed_at_unlink a.txt
	# The settle hashes it (two reads), then copies it: its first read is held.
	strace -f -o "$W/tr" -P "$J/objects/$linked" -e trace=read \
		-e inject=read:delay_enter=1500000:when=3 "$RG" sessions --prune >/dev/null &
	local prune=$!
	await_trace "$W/tr" read 3
	truncate -s 64M a.txt
	wait "$prune"
	run grep -c '^[0-9]* *read(' "$W/tr"
	[ "$output" -le 5 ] || fail "the settle read the grown file: $output reads"
	run find "$J" -type f -size +100k ! -name "$linked" # it grew, taking no room
	assert_output ""
	refute [ -L "$J/objects/$linked" ]
}

@test "t1410.40 a removal the journal links, with output and errors going to files, asks those descriptors' flags only of the file kept" {
	need_strace
	mkdir -p "$J/objects"
	mkfile a.txt original
	local ino
	ino=$(inode a.txt)
	strace -f -o "$W/trace" -e trace=openat2,fcntl,unlinkat "$RG" run --log "$LOG" -- rm a.txt \
		>"$OUT/out.log" 2>"$OUT/err.log"
	assert_equal "$(inode "$J/objects/$(sum original)")" "$ino"
	run awk '/openat2\(.*"a\.txt"/ {on = 1} /unlinkat\(.*"a\.txt"/ {on = 0} on && /fcntl\([012],/' "$W/trace"
	assert_output ''
}
