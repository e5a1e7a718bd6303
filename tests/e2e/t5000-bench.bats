#!/usr/bin/env bats
# The benchmark tools run and print their table (make bench, BENCHMARKS.md).
# Smoke tests only: nothing here looks at how long anything took.

load helper

RGBENCH="$TOP/build/bench/rgbench"
RGTABLE="$TOP/build/bench/rgtable"
FLOOR="$TOP/build/bench/librgfloor.so"
NOTIFY="$TOP/build/bench/rgnotify"
WORKLOADS="read_root read_fstat read_outside write_allowed write_floor write_refused fopen rename write_first write_again write_again_floor write_journaled stat fstat getpid sigmask"

# The table has a row starting with "| LABEL" that holds a ratio, or says
# the row was not run (no hyperfine). The first such row counts; awk finds
# it (a loop over the lines in the test's shell is slow under bats).
assert_row() {
	local line
	line=$(awk -v p="| $1" 'index($0, p) == 1 {print; exit}' <<<"$output")
	[ -n "$line" ] || fail "no row '$1'"
	[[ $line =~ \|\ \*\*[0-9]+\.[0-9]{3}×\*\*\ \| || $line == *"| not run |" ]] ||
		fail "row '$1' has no ratio: $line"
}

# Every workload once, as "NAME NS ITERATIONS", with a positive figure.
assert_micro_lines() {
	local w
	for w in $WORKLOADS; do
		assert_line --regexp "^$w [0-9]+\.[0-9] [0-9]+$"
	done
	[ "${#lines[@]}" -eq 16 ]
}

@test "rgbench prints one ns/op figure per workload, bare" {
	"$RGBENCH" "$W" setup
	run "$RGBENCH" "$W" 20
	assert_success
	assert_micro_lines
}

@test "rgbench under the shim is guarded: its refused write-opens are refused and logged" {
	"$RGBENCH" "$W" setup
	run --separate-stderr "$RG" run --root "$W/root" --log "$LOG" -- "$RGBENCH" "$W" 20
	assert_success
	assert_micro_lines
	# 20 timed calls and 3 warm-up calls, each refused with the reason.
	[ "$(grep -c '"decision":"refuse"' "$LOG")" -eq 23 ]
	[ "$(grep -c "refused to write '$W/root/unread'" <<<"$stderr")" -eq 23 ]
	cmp <(head -c 4096 /dev/zero | tr '\0' x) "$W/root/unread"
}

@test "rgbench runs only the workloads it is given" {
	"$RGBENCH" "$W" setup
	run "$RGBENCH" "$W" 5 stat read_root
	assert_success
	assert_equal "${#lines[@]}" 2
	assert_line --index 0 --regexp '^read_root '
	assert_line --index 1 --regexp '^stat '
}

@test "rgbench refuses an unknown workload, a bad count and a missing directory" {
	"$RGBENCH" "$W" setup
	run "$RGBENCH" "$W" 5 read_nothing
	assert_failure 2
	assert_output "rgbench: no workload 'read_nothing'"
	run "$RGBENCH" "$W" zero
	assert_failure 2
	assert_output --partial "ITERS must be a positive number"
	run "$RGBENCH" "$W/none" 5
	assert_failure 2
	assert_output --partial "rgbench: no directory $W/none"
}

@test "rgtable fill adds the entries and prints the shared memory per file" {
	"$RG" run --keep --session "$W/tab" --capacity 5000 -- true
	run "$RGTABLE" fill "$W/tab" 3000
	assert_success
	assert_line "entries 3000"
	assert_line --regexp '^bytes_per_file [0-9]+\.[0-9]$'
	run "$RG" status --session "$W/tab" --json
	assert_output --partial '"used":3000'
}

@test "rgtable fill stops at a full table and says so" {
	"$RG" run --keep --session "$W/tab" --capacity 100 -- true
	run "$RGTABLE" fill "$W/tab" 101
	assert_failure 1
	assert_output "rgtable: the table is full after 100 entries"
}

@test "rgtable fill refuses a file that is not a table" {
	echo nope >"$W/tab"
	run "$RGTABLE" fill "$W/tab" 10
	assert_failure 2
	assert_output --partial "rgtable: $W/tab: it is too small to be a session table"
}

@test "rgtable session prints the create and attach times" {
	export READGUARD_DIR="$W"
	run "$RGTABLE" session 2
	assert_success
	assert_line --regexp '^create_ns [0-9]+$'
	assert_line --regexp '^attach_ns [0-9]+$'
	# It removes the tables it made.
	run find "$W" -name 'readguard-*'
	assert_output ""
}

# "TYPE NAME@VERSION" of each import LIB binds: what ld.so links at its load.
imports() { readelf -rW "$1" | awk '$3 ~ /_(JUMP_SLOT|GLOB_DAT)$/ {print $3, $5}' | sort; }

@test "startup-floor.sh makes a library with the shim's imports, versions and libraries" {
	run --separate-stderr "$TOP/scripts/dev/startup-floor.sh" "$SHIM" "$W/floor.so"
	assert_success
	assert_equal "$(imports "$W/floor.so")" "$(imports "$SHIM")"
	# environ among them: the one variable the shim links, looked up at load.
	imports "$SHIM" | grep -q '_GLOB_DAT environ@GLIBC_'
	assert_equal "$(readelf -VW "$W/floor.so" | awk '/Name: GLIBC/ {print $3}' | sort)" \
		"$(readelf -VW "$SHIM" | awk '/Name: GLIBC/ {print $3}' | sort)"
	assert_equal "$(readelf -dW "$W/floor.so" | grep NEEDED | awk '{print $NF}')" \
		"$(readelf -dW "$SHIM" | grep NEEDED | awk '{print $NF}')"
}

@test "startup-floor.sh's library runs no code when preloaded" {
	"$TOP/scripts/dev/startup-floor.sh" "$SHIM" "$W/floor.so"
	# No constructor, destructor or C start files.
	run readelf -dW "$W/floor.so"
	refute_output --regexp '\((INIT|FINI|INIT_ARRAY|FINI_ARRAY|PREINIT_ARRAY)\)'
	run env LD_PRELOAD="$W/floor.so" sh -c 'echo loaded'
	assert_success
	assert_output loaded
}

@test "startup-floor.sh fails on a file that is not a library, and on no arguments" {
	run --separate-stderr "$TOP/scripts/dev/startup-floor.sh" "$W/none.so" "$W/floor.so"
	assert_failure
	assert_file_not_exists "$W/floor.so"
	run --separate-stderr "$TOP/scripts/dev/startup-floor.sh"
	assert_failure 2
	assert_equal "$stderr" "usage: $TOP/scripts/dev/startup-floor.sh SHIM OUT.so"
}

@test "librgfloor keeps each removed file by a link and one index record, as the journal does" {
	mkdir -p "$W/j/objects" "$W/j/sessions"
	printf one >"$W/a"
	printf two >"$W/b"
	local ia ib
	ia=$(stat -c %i "$W/a") ib=$(stat -c %i "$W/b")
	LD_PRELOAD=$FLOOR RG_FLOOR_JOURNAL="$W/j" rm "$W/a" "$W/b"
	assert_file_not_exists "$W/a"
	assert_file_not_exists "$W/b"
	run stat -c %i "$W/j/objects"/*
	assert_output "$(printf '%s\n' "$ia" "$ib" | sort)"
	[ "$(grep -c '"op":"unlink"' "$W/j/sessions/floor.jsonl")" -eq 2 ]
}

# KEYS: the keys of a JSON line on stdin, in order.
keys() { grep -o '"[a-z_]*":' | tr -d '":' | tr '\n' ' '; }

@test "librgfloor with RG_FLOOR_SHIM writes the journal's record: its fields, the file's absolute path" {
	mkdir -p "$W/j/objects" "$W/j/sessions" "$W/t"
	printf one >"$W/t/a"
	printf two >"$W/t/b"
	(cd "$W/t" && "$RG" run -- rm a)
	(cd "$W/t" && env LD_PRELOAD="$FLOOR" RG_FLOOR_JOURNAL="$W/j" RG_FLOOR_SHIM=1 rm b)
	local journal floor
	journal=$(head -1 "$XDG_STATE_HOME"/readguard/journal/sessions/*.jsonl)
	floor=$(head -1 "$W/j/sessions/floor.jsonl")
	assert_equal "$(keys <<<"$floor")" "$(keys <<<"$journal")"
	[[ $floor == *'"path":"'"$W/t/b"'"'* ]] || fail "no absolute path: $floor"
}

@test "librgfloor with RG_FLOOR_JOURNAL and RG_FLOOR_SHIM fstats descriptors 0-2 before each link, as the journal does" {
	need_strace
	mkdir -p "$W/j/objects" "$W/j/sessions"
	printf one >"$W/a"
	strace -f -e trace=fstat,linkat -o "$W/floor.tr" \
		env LD_PRELOAD="$FLOOR" RG_FLOOR_JOURNAL="$W/j" RG_FLOOR_SHIM=1 rm "$W/a"
	assert_file_not_exists "$W/a"
	run awk '/linkat\(/ {exit} /fstat\([012],/ {print $2}' "$W/floor.tr"
	assert_output "$(printf 'fstat(0,\nfstat(1,\nfstat(2,')"
}

@test "librgfloor with RG_FLOOR_SHIM asks the access mode of descriptor 0-2 only where it is the file kept, as the journal does" {
	need_strace
	mkdir -p "$W/j/objects" "$W/j/sessions"
	printf one >"$W/a"
	printf two >"$W/b"
	strace -f -e trace=fcntl,linkat -o "$W/other.tr" \
		env LD_PRELOAD="$FLOOR" RG_FLOOR_JOURNAL="$W/j" RG_FLOOR_SHIM=1 rm "$W/a" >"$W/log" 2>&1
	run awk '/linkat\(/ {exit} /fcntl\([012],/' "$W/other.tr"
	assert_output ''
	strace -f -e trace=fcntl,linkat -o "$W/own.tr" \
		env LD_PRELOAD="$FLOOR" RG_FLOOR_JOURNAL="$W/j" RG_FLOOR_SHIM=1 rm "$W/b" >>"$W/b"
	run awk '/linkat\(/ {exit} /fcntl\([012],/ {print $2, $3}' "$W/own.tr"
	assert_output 'fcntl(1, F_GETFL)'
}

@test "librgfloor leaves no link of a file whose unlink fails" {
	[ "$(id -u)" = 0 ] || skip "needs root to run as another user"
	command -v setpriv >/dev/null || skip "setpriv (util-linux) is not installed"
	# uid 65534's own file, in a directory it may not write: the link into
	# its journal is made, the unlink fails.
	local d
	d=$(mktemp -d /tmp/rg-t5000.XXXXXX)
	chmod 0755 "$d"
	mkdir -p "$d/j/objects" "$d/j/sessions" "$d/ro"
	printf one >"$d/ro/a"
	chown -R 65534:65534 "$d/j" "$d/ro/a"
	chmod 0555 "$d/ro"
	cp "$FLOOR" "$d/floor.so"
	run setpriv --reuid=65534 --regid=65534 --clear-groups \
		env LD_PRELOAD="$d/floor.so" RG_FLOOR_JOURNAL="$d/j" rm -f "$d/ro/a"
	local kept left index
	kept=$(find "$d/j/objects" -type f | wc -l) left=$(cat "$d/ro/a")
	index=$(cat "$d/j/sessions/floor.jsonl" 2>/dev/null || echo none)
	rm -rf "$d"
	assert_failure
	assert_output --partial "Permission denied"
	refute_output --partial "preload"
	assert_equal "$left" one
	assert_equal "$kept" 0
	# The link was made (and its record written) before the unlink failed.
	[[ $index == *'"op":"unlink"'* ]]
}

@test "librgfloor makes one fstat after each read-mode open, none after a write-mode one" {
	need_strace
	printf one >"$W/a"
	run strace -f -e trace=fstat -o "$W/bare.tr" cat "$W/a"
	run strace -f -e trace=fstat -o "$W/floor.tr" env LD_PRELOAD="$FLOOR" RG_FLOOR_READ=1 cat "$W/a"
	assert_output one
	[ $(($(grep -c fstat "$W/floor.tr") - $(grep -c fstat "$W/bare.tr"))) -eq 1 ]
	run strace -f -e trace=fstat -o "$W/floor.tr" env LD_PRELOAD="$FLOOR" RG_FLOOR_READ=1 cp "$W/a" "$W/b"
	run strace -f -e trace=fstat -o "$W/bare.tr" cp "$W/a" "$W/c"
	[ $(($(grep -c fstat "$W/floor.tr") - $(grep -c fstat "$W/bare.tr"))) -eq 1 ]
}

@test "librgfloor with RG_FLOOR_ROOT makes no fstat after a read-mode open of an absolute path outside it" {
	need_strace
	mkdir -p "$W/in" "$W/inner"
	printf one >"$W/in/a"
	printf two >"$W/inner/b"
	run strace -e trace=openat,fstat -o "$W/floor.tr" env LD_PRELOAD="$FLOOR" RG_FLOOR_READ=1 \
		RG_FLOOR_ROOT="$W/in/" cat "$W/in/a" "$W/inner/b"
	assert_output onetwo
	# Its fstat follows the open of a, none that of b (a sibling whose
	# name starts alike).
	run awk '/^openat/ && /"[^"]*\/(in\/a|inner\/b)"/ { f = $0 ~ /in\/a"/ ? "a" : "b"; next }
		f && /^fstat/ { print f } { f = "" }' "$W/floor.tr"
	assert_output a
}

@test "librgfloor with RG_FLOOR_SHIM makes fstat and getpid at a write-open and at its close, and no mask" {
	need_strace
	printf one >"$W/a"
	local calls=rt_sigprocmask,fstat,getpid
	strace -f -e trace=$calls -o "$W/bare.tr" cp "$W/a" "$W/b"
	strace -f -e trace=$calls -o "$W/floor.tr" env LD_PRELOAD="$FLOOR" RG_FLOOR_SHIM=1 cp "$W/a" "$W/c"
	assert_equal "$(cat "$W/c")" one
	# cp's write-open of a new file (O_CREAT|O_EXCL) has nothing to judge:
	# fstat and getpid at the open, getpid and fstat at its close, no mask.
	[ $(($(grep -c rt_sigprocmask "$W/floor.tr") - $(grep -c rt_sigprocmask "$W/bare.tr"))) -eq 0 ]
	[ $(($(grep -c getpid "$W/floor.tr") - $(grep -c getpid "$W/bare.tr"))) -eq 2 ]
	[ $(($(grep -c 'fstat(' "$W/floor.tr") - $(grep -c 'fstat(' "$W/bare.tr"))) -eq 2 ]
	# Over an existing file (O_TRUNC) too: the shim judges an allowed
	# write lock-free, and masks signals only for one it may refuse or keep.
	strace -f -e trace=$calls -o "$W/bare.tr" cp "$W/a" "$W/b"
	strace -f -e trace=$calls -o "$W/floor.tr" env LD_PRELOAD="$FLOOR" RG_FLOOR_SHIM=1 cp "$W/a" "$W/c"
	[ $(($(grep -c rt_sigprocmask "$W/floor.tr") - $(grep -c rt_sigprocmask "$W/bare.tr"))) -eq 0 ]
	[ $(($(grep -c getpid "$W/floor.tr") - $(grep -c getpid "$W/bare.tr"))) -eq 2 ]
}

@test "librgfloor with RG_FLOOR_SHIM counts the close of a write made by syscall(SYS_close), as libuv's" {
	need_strace
	[ "$(uname -m)" = x86_64 ] || skip "SYS_close is 3 on x86_64 only"
	local py='import ctypes, os, sys
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT, 0o644)
os.write(fd, b"one")
sys.exit(ctypes.CDLL(None).syscall(3, fd))'
	run strace -e trace=openat,getpid,fstat,close -o "$W/floor.tr" env LD_PRELOAD="$FLOOR" RG_FLOOR_SHIM=1 python3 -c "$py" "$W/b"
	assert_success
	assert_equal "$(cat "$W/b")" one
	# From the write-open to its close: fstat and getpid at the open, then
	# getpid and fstat before the close (python makes none in between).
	run awk -v b="\"$W/b\"" 'index($0, b) { on = 1 } on { sub(/\(.*/, ""); print } on && /^close/ { exit }' "$W/floor.tr"
	assert_output "$(printf '%s\n' openat fstat getpid getpid fstat close)"
}

@test "librgfloor with RG_FLOOR_SHIM looks at a file before its unlink, inside a mask pair" {
	need_strace
	printf one >"$W/a"
	printf one >"$W/b"
	local calls=rt_sigprocmask,openat,fstat,close
	strace -f -e trace=$calls -o "$W/bare.tr" rm "$W/a"
	strace -f -e trace=$calls -o "$W/floor.tr" env LD_PRELOAD="$FLOOR" RG_FLOOR_SHIM=1 rm "$W/b"
	[ ! -e "$W/b" ]
	# The journal's look: an O_PATH open of the file, its fstat and close.
	grep -q "O_PATH) = [0-9]" "$W/floor.tr"
	[ $(($(grep -c rt_sigprocmask "$W/floor.tr") - $(grep -c rt_sigprocmask "$W/bare.tr"))) -eq 2 ]
	[ $(($(grep -c 'fstat(' "$W/floor.tr") - $(grep -c 'fstat(' "$W/bare.tr"))) -eq 1 ]
}

@test "librgfloor with RG_FLOOR_RENAME makes the shim's calls around a rename onto a free name" {
	need_strace
	mkdir "$W/d"
	printf one >"$W/d/a.tmp"
	local calls=rt_sigprocmask,openat,newfstatat,rename,renameat,renameat2,close
	run strace -e trace=$calls -o "$W/floor.tr" env LD_PRELOAD="$FLOOR" RG_FLOOR_RENAME=1 \
		python3 -c 'import os, sys; os.replace(sys.argv[1], sys.argv[2])' "$W/d/a.tmp" "$W/d/a"
	assert_success
	assert_equal "$(cat "$W/d/a")" one
	# From python's call on, as guard/rename.c makes it: the mask, the
	# directory the two names share opened once, a look at each name, the
	# rename kept off a file that appears meanwhile, a look at the new name.
	# (The hook's mask blocks all but the synchronous signals.)
	run awk '/^rt_sigprocmask\(SIG_BLOCK, ~\[ILL TRAP BUS FPE SEGV SYS/ { on = 1 } on { l = $0; sub(/\(.*/, "", l); print l } on && /^rt_sigprocmask\(SIG_SETMASK/ { exit }' "$W/floor.tr"
	assert_output "$(printf '%s\n' rt_sigprocmask openat newfstatat newfstatat renameat2 newfstatat close rt_sigprocmask)"
	grep -q "^openat(AT_FDCWD, \"$W/d/\", O_RDONLY|O_CLOEXEC|O_PATH|O_DIRECTORY) = [0-9]" "$W/floor.tr"
	grep -q '^renameat2(.*RENAME_NOREPLACE) *= 0' "$W/floor.tr"
	# Onto a name that is taken: no RENAME_NOREPLACE, and the file replaced.
	printf two >"$W/d/b.tmp"
	run strace -e trace=renameat2 -o "$W/floor.tr" env LD_PRELOAD="$FLOOR" RG_FLOOR_RENAME=1 \
		python3 -c 'import os, sys; os.replace(sys.argv[1], sys.argv[2])' "$W/d/b.tmp" "$W/d/a"
	assert_success
	assert_equal "$(cat "$W/d/a")" two
	grep -q '^renameat2(.*, 0) *= 0' "$W/floor.tr"
}

@test "rgnotify sends each open to its listener and lets it through" {
	printf one >"$W/a"
	run env RG_NOTIFY_COUNT="$W/n1" "$NOTIFY" cat "$W/a"
	assert_success
	assert_output one
	run env RG_NOTIFY_COUNT="$W/n5" "$NOTIFY" cat "$W/a" "$W/a" "$W/a" "$W/a" "$W/a"
	assert_output oneoneoneoneone
	# Four more opens by cat, four more round trips.
	assert_equal $(($(cat "$W/n5") - $(cat "$W/n1"))) 4
}

@test "rgnotify lets the library's own opens, from its trampoline, past its listener" {
	printf one >"$W/a"
	local tr="READGUARD_TRAMPOLINE=1"
	run "$RG" run --root "$W" -- env $tr RG_NOTIFY_COUNT="$W/n1" "$NOTIFY" cat "$W/a"
	assert_output one
	run "$RG" run --root "$W" -- env $tr RG_NOTIFY_COUNT="$W/n5" "$NOTIFY" cat "$W/a" "$W/a" "$W/a" "$W/a" "$W/a"
	assert_output oneoneoneoneone
	assert_equal "$(cat "$W/n5")" "$(cat "$W/n1")"
	# The loader's opens still go to it.
	[ "$(cat "$W/n1")" -ge 2 ]
}

@test "rgnotify with RG_NOTIFY_ALL sends the trampoline's opens to its listener too" {
	printf one >"$W/a"
	local tr="READGUARD_TRAMPOLINE=1 RG_NOTIFY_ALL=1"
	run "$RG" run --root "$W" -- env $tr RG_NOTIFY_COUNT="$W/n1" "$NOTIFY" cat "$W/a"
	assert_output one
	run "$RG" run --root "$W" -- env $tr RG_NOTIFY_COUNT="$W/n5" "$NOTIFY" cat "$W/a" "$W/a" "$W/a" "$W/a" "$W/a"
	assert_output oneoneoneoneone
	assert_equal $(($(cat "$W/n5") - $(cat "$W/n1"))) 4
}

@test "rgnotify with RG_NOTIFY_CARRY opens each file itself and hands the descriptor over" {
	# /proc/self in an open carried out is the listener's process.
	run env RG_NOTIFY_ALL=1 RG_NOTIFY_CARRY=1 "$NOTIFY" cat /proc/self/comm
	assert_success
	assert_output rgnotify
}

@test "rgnotify with RG_NOTIFY_CARRY opens relative paths from the caller's directory, with its errors" {
	mkdir "$W/d"
	echo one >"$W/d/a"
	cd "$W/d"
	run env RG_NOTIFY_ALL=1 RG_NOTIFY_CARRY=1 "$NOTIFY" sh -c 'cat a && echo two >b && ls && cat missing'
	assert_failure 1
	assert_line --index 0 one
	assert_line --index 1 a
	assert_line --index 2 b
	assert_line --partial "missing: No such file or directory"
	assert_equal "$(cat b)" two
}

@test "rgnotify exits with its command's status, and says what it needs" {
	run "$NOTIFY" sh -c 'exit 3'
	assert_failure 3
	run "$NOTIFY"
	assert_failure 2
	assert_output "usage: rgnotify COMMAND [ARG]..."
}

@test "bench.sh --smoke prints every row of the table and cleans up" {
	# Its tables go to this test's own READGUARD_DIR (helper.bash), so only
	# this run's leftovers are counted, whatever else runs on the machine.
	TMPDIR="$W" run --separate-stderr "$TOP/scripts/dev/bench.sh" --smoke
	assert_success
	for row in "1. open + read 4 KiB + close, inside a root" "1a. floor of 1" "3a. floor of 3" \
		"2. the same outside all roots" \
		"3. allowed write-open + close" "4. refused write-open" "5. fopen + fclose" \
		"6. rename over an allowed file" "7. stat + lstat + access" \
		"git status" "git diff" "grep -r over them" "make -j2" "python3 -m compileall" \
		"tar -x" "floor of tar -x: every system call the shim adds" "tar -x against that floor" \
		"floor of compileall: every system call the shim adds" "compileall against that floor" \
		"bash loop of 5 /bin/true" "the same against an empty preloaded library" \
		"3b. floor of 3, measured" "./configure (autoconf), 4 checks" "floor of configure: an empty preloaded library" \
		"floor of configure: a library with the shim's imports" "configure against that floor" \
		"pytest, 5 tests" \
		"npm install, 3 local packages" "floor of npm install: an empty preloaded library" \
		"floor of npm install: every system call the shim adds" "npm install against that floor" \
		"6a. first overwrite of a read 4 KiB file" "6c. the session's later overwrites of that file" \
		"6d. floor of 6c, measured" \
		"git checkout between branches differing in 100 files" "git switch, 200 files" \
		"floor of git switch, every system call the shim adds" "git switch against that floor" \
		"floor of grep -r: bare + an fstat after each read-mode open, no shim (measured)" \
		"floor of git checkout: bare + the journal's kernel work per file" \
		"floor of git checkout, every system call the shim adds" \
		"the same under readguard run --supervise" "floor of --supervise: the same under a plain readguard run" \
		"floor of --supervise with its round trips" \
		"make -j2, 5 C files, under readguard run --strict" "floor of --strict: the same under a plain readguard run" \
		"floor of --strict with its round trips" "--strict against that floor, with its round trips" \
		"floor of start-up: a library with the shim's imports" "the shim against that floor" \
		"1 against that floor" "3 against that floor" "6c against that floor" "grep -r against that floor" \
		"git checkout against that floor" "--supervise against that floor"; do
		assert_row "$row"
	done
	# grep -r's whole run is counted too, the steady measure of that row.
	if command -v valgrind >/dev/null && command -v hyperfine >/dev/null; then
		assert_line --regexp '^\| grep -r over them \|.*[0-9.]+M / [0-9.]+M instructions, [-+][0-9.]+M'
		# And the part of it in the shim's own code, which no other part of
		# the run moves.
		assert_line --regexp "^\\| grep -r over them \\|.*, of which the shim's own code [0-9.]+M \\([0-9]+ per file\\)"
	fi
	assert_line --regexp '^\| read inside a root, with 1000 / 10000 / 100000 files in the table \(ns/op\) \| [0-9.]+ / [0-9.]+ / [0-9.]+ \|'
	assert_line --regexp '^\| 100000-file table vs 1000-file \| \*\*[0-9.]+×\*\* \|'
	assert_line --regexp '^\| shared memory per tracked file, at 100000 files .* \| [0-9.]+ B \|'
	assert_line --regexp '^\| one fstat / one getpid / one rt_sigprocmask, bare .* \| [0-9.]+ / [0-9.]+ / [0-9.]+ \|'
	assert_line --regexp '^\| attach to it .* \| [0-9.]+ µs \|'
	run find "$W" "$READGUARD_DIR" -mindepth 1 -maxdepth 1 -name 'rgbench.*' -o -name 'readguard-*'
	assert_output ""
}

@test "bench.sh --out writes the machine, the table and the notes" {
	TMPDIR="$W" run "$TOP/scripts/dev/bench.sh" --smoke --out "$W/B.md"
	assert_success
	grep -q '^## Machine' "$W/B.md"
	# The tables were made where READGUARD_DIR says.
	[[ $(grep '^- workloads in ' "$W/B.md") == *", tables in "*" ($READGUARD_DIR)" ]]
	grep -q '^| 1. open + read 4 KiB' "$W/B.md"
	grep -qF "$(head -1 "$TOP/scripts/dev/bench-notes.md")" "$W/B.md"
	[ ! -e "$W/B.md.tmp" ]
}

@test "bench.sh refuses an unknown option" {
	run "$TOP/scripts/dev/bench.sh" --fast
	assert_failure 2
	assert_output --partial "usage:"
}

@test "bench-claude-shell.sh times the three Bash tool shells and cleans up" {
	TMPDIR="$W" run --separate-stderr "$TOP/scripts/dev/bench-claude-shell.sh" 3
	assert_success
	assert_line --regexp '^no readguard +median [0-9.]+ ms$'
	assert_line --regexp "^shim in the command's children only +median [0-9.]+ ms$"
	assert_line --regexp '^the shell re-executed under the shim +median [0-9.]+ ms$'
	run find "$W" -mindepth 1 -maxdepth 1 -name 'tmp.*'
	assert_output ""
}
