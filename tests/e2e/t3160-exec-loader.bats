#!/usr/bin/env bats
# The loader of each program exec'd in a session: a program whose dynamic
# linker cannot load the shim (musl's cannot load glibc's) is handed the build
# it can load, or none, and starts; a program the preload cannot guard
# (static, Go, setuid, musl without a musl shim) is named once per session.
#
# Here readguard runs from a copy with no musl build beside its shim (see
# t3170 for the musl build). Musl programs are built with musl-gcc in the
# test; those tests skip without it.

load helper

setup_file() {
	B="$BATS_FILE_TMPDIR/bin"
	mkdir -p "$B"
	cp "$TOP/build/readguard" "$TOP/build/libreadguard.so" "$B/"
	if command -v musl-gcc >/dev/null; then
		musl-gcc -O2 -o "$B/rgm" "$TOP/tests/helpers/musl/rgm.c"
	fi
	export B
}

# rgn CMD...: a session run by the copy without a musl shim.
rgn() {
	"$B/readguard" run --log "$LOG" -- "$@"
}

need_musl() {
	[ -x "$B/rgm" ] || skip "musl-gcc (Debian musl-tools) is not installed"
}

NOTICE="runs unguarded"

@test "t3160.01 a musl program started by readguard run starts, and is named unguarded" {
	need_musl
	mkfile f old
	run --separate-stderr rgn "$B/rgm" read f
	assert_success
	assert_output ok
	[[ $stderr == *"'$B/rgm' $NOTICE: it is a musl program, and no musl build of the shim is installed; 'readguard run --supervise' guards it."* ]] ||
		fail "no notice: $stderr"
	[[ $stderr != *"Error relocating"* ]] || fail "$stderr"
}

@test "t3160.02 a musl program starts through every exec and spawn entry point of a glibc process" {
	need_musl
	mkfile f old
	# rgexec empties the environment, PATH too: the searching forms get a
	# relative path.
	cp "$B/rgm" .
	local via
	for via in execve execv execvp execvpe execl execlp execle execveat fexecve posix_spawn posix_spawnp vfork-execve; do
		run --separate-stderr rgn "$T/rgexec" "$via" \
			"$(case $via in execvp | execlp | posix_spawnp) echo ./rgm ;; *) echo "$B/rgm" ;; esac)" read f
		assert_success
		assert_output ok
	done
}

@test "t3160.03 a musl program run by a glibc shell starts" {
	need_musl
	mkfile f old
	run --separate-stderr rgn bash -c '"$0" read f && "$0" read f' "$B/rgm"
	assert_success
	assert_output $'ok\nok'
}

@test "t3160.04 a script whose interpreter is a musl program starts" {
	need_musl
	printf '#!%s\n' "$B/rgm" >s
	chmod +x s
	mkfile f old
	# The kernel runs "rgm ./s read f": "./s" is an unknown op, so rgm fails
	# with its own message, which means it started.
	run --separate-stderr rgn bash -c './s read f'
	assert_output "err Invalid argument"
	[[ $stderr != *"Error relocating"* ]] || fail "$stderr"
}

@test "t3160.05 a musl program is named once per session, across processes" {
	need_musl
	mkfile f old
	run --separate-stderr rgn bash -c '"$0" read f; "$0" read f; bash -c "\"$0\" read f"' "$B/rgm"
	assert_success
	[ "$(grep -c "$NOTICE" <<<"$stderr")" -eq 1 ] || fail "not once: $stderr"
	run grep -c '"decision":"unguarded"' "$LOG"
	assert_output 1
	run grep -F '"reason":"no-musl-shim"' "$LOG"
	assert_success
	assert_output --partial "\"path\":\"$B/rgm\""
}

@test "t3160.06 each new session names the program again" {
	need_musl
	mkfile f old
	run --separate-stderr rgn "$B/rgm" read f
	[[ $stderr == *"$NOTICE"* ]] || fail "first session: $stderr"
	run --separate-stderr rgn "$B/rgm" read f
	[[ $stderr == *"$NOTICE"* ]] || fail "second session: $stderr"
}

@test "t3160.07 the glibc children of a musl program keep the session when the shim is named through \$LIB" {
	need_musl
	# An install names the shim through $LIB, which musl's loader cannot
	# expand: it skips the entry, and passes it on to its children.
	local D="$BATS_TEST_TMPDIR/dest" P=/usr/local
	make -s -C "$TOP" install DESTDIR="$D" PREFIX="$P" MUSL_SHIM= >/dev/null || fail "make install failed"
	rm -rf "$D$P/lib/"*/readguard/musl
	mkfile f old
	snapshot f
	run --separate-stderr "$D$P/bin/readguard" run -- "$B/rgm" exec /bin/sh -c 'echo new >f'
	assert_failure
	assert_refused f unread
	assert_unchanged f
}

@test "t3160.08 a glibc program exec'd by a musl program with an emptied environment starts" {
	need_musl
	mkfile f old
	run --separate-stderr rgn "$B/rgm" scrub-exec /bin/cat f
	assert_success
	assert_output old
}

@test "t3160.09 a statically linked program is named, with --supervise" {
	mkfile f old
	run --separate-stderr rgn bash -c '"$0" read f; "$0" read f' "$T/rgstatic"
	assert_success
	[ "$(grep -c "'$T/rgstatic' $NOTICE: it is statically linked" <<<"$stderr")" -eq 1 ] ||
		fail "not once: $stderr"
	[[ $stderr == *"'readguard run --supervise' guards it."* ]] || fail "$stderr"
	run grep -F '"reason":"static"' "$LOG"
	assert_success
}

@test "t3160.10 a Go program is named as one" {
	command -v go >/dev/null || skip "Go is not installed"
	mkdir gop && cd gop
	printf 'package main\nfunc main() {}\n' >main.go
	printf 'module gop\n' >go.mod
	GOFLAGS=-mod=mod CGO_ENABLED=0 go build -o ../goprog . 2>/dev/null || skip "go build failed"
	cd ..
	run --separate-stderr rgn bash -c './goprog'
	assert_success
	[[ $stderr == *"'./goprog' $NOTICE: it is a Go program"* ]] || fail "$stderr"
	run grep -F '"reason":"go"' "$LOG"
	assert_success
}

@test "t3160.11 a setuid program owned by someone else is named" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to make a setuid copy"
	command -v setpriv >/dev/null || skip "setpriv (util-linux) is not installed"
	cp /bin/true suid-true
	chown 65534 suid-true
	chmod 4755 suid-true
	run --separate-stderr rgn bash -c './suid-true'
	assert_success
	[[ $stderr == *"'./suid-true' $NOTICE: it is setuid or setgid"* ]] || fail "$stderr"
}

@test "t3160.12 a dynamically linked glibc program is not named" {
	mkfile f old
	run --separate-stderr rgn bash -c 'cat f >/dev/null; /bin/true; env true'
	assert_success
	[[ $stderr != *"$NOTICE"* ]] || fail "$stderr"
	[ ! -e "$LOG" ] || run ! grep -q unguarded "$LOG"
}

@test "t3160.13 a supervised session names nothing, and its musl programs start" {
	need_musl
	local out
	out=$("$B/readguard" run --supervise -- true 2>&1) || skip "supervised mode unavailable: $out"
	mkfile f old
	run --separate-stderr "$B/readguard" run --supervise -- bash -c '"$0" read f; "$1" read f' "$B/rgm" "$T/rgstatic"
	assert_success
	assert_output $'ok\nok'
	[[ $stderr != *"$NOTICE"* ]] || fail "$stderr"
}

@test "t3160.14 a supervised session refuses a musl program's blind write, and allows it after a read" {
	need_musl
	local out
	out=$("$B/readguard" run --supervise -- true 2>&1) || skip "supervised mode unavailable: $out"
	mkfile f old
	snapshot f
	run --separate-stderr "$B/readguard" run --supervise -- "$B/rgm" write f new
	assert_failure
	assert_output "err EACCES"
	assert_unchanged f
	run --separate-stderr "$B/readguard" run --supervise -- "$B/rgm" read f write f new
	assert_success
	assert_content f new
}
