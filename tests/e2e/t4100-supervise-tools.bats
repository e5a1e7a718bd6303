#!/usr/bin/env bats
# Supervised mode with real programs that bypass libc: a static Go binary,
# Bun from the npm registry, and builds (make -j2, go build).

load helper

CACHE="$TOP/build/cache"

require_supervisor() {
	local out
	out=$("$RG" run --supervise -- true 2>&1) && return 0
	case $out in
	*"lacks"*) skip "supervised mode unavailable: $out" ;;
	*) fail "readguard run --supervise -- true failed: $out" ;;
	esac
}

# A static Go binary, built once outside any session. Runs at the same time
# may both build it: each into a file of its own, renamed into place.
go_tool() {
	command -v go >/dev/null 2>&1 || skip "Go is not installed (make deps-supervise installs golang-go)"
	RGGO="$CACHE/rggo"
	if [ ! -x "$RGGO" ]; then
		mkdir -p "$CACHE"
		(cd "$TOP/tests/helpers/go" && GOCACHE="$CACHE/gocache" GO111MODULE=off CGO_ENABLED=0 \
			go build -o "$RGGO.$$.tmp" rggo.go && mv -f "$RGGO.$$.tmp" "$RGGO") ||
			fail "cannot build the Go test tool"
	fi
	! ldd "$RGGO" >/dev/null 2>&1 || fail "$RGGO is not statically linked"
}

bun_tool() {
	BUN=$("$TOP/scripts/dev/fetch-npm-binary.sh" @oven/bun-linux-x64 bin/bun "$CACHE" 2>&1) ||
		skip "Bun unavailable: the npm registry cannot be reached ($BUN)"
}

setup() {
	common_setup
	require_supervisor
}

sv() { "$RG" run --supervise --log "$LOG" -- "$@"; }

@test "t4100.01 a static Go binary's blind write is refused, file intact" {
	go_tool
	mkfile f 'original'
	snapshot f
	run --separate-stderr sv "$RGGO" write f new
	[ "$status" -eq 1 ] || fail "expected status 1, got $status: $output $stderr"
	assert_output --partial 'permission denied'
	assert_refused f unread
	assert_unchanged f
}

@test "t4100.02 a static Go binary's write after its own read is allowed" {
	go_tool
	mkfile f 'original'
	run --separate-stderr sv "$RGGO" read f write f new
	assert_success
	refute_refused
	assert_content f new
}

@test "t4100.03 a read by cat unlocks a write by Go, and Go's read unlocks the shell's write" {
	go_tool
	mkfile f 'original'
	mkfile g 'original'
	run --separate-stderr sv bash -c "cat f >/dev/null && '$RGGO' write f new && '$RGGO' read g && echo new > g"
	assert_success
	refute_refused
	assert_content f new
	assert_content g new
}

@test "t4100.04 Bun's blind write is refused, file intact" {
	bun_tool
	mkfile f 'original'
	snapshot f
	run --separate-stderr sv "$BUN" -e 'require("fs").writeFileSync("f", "new\n")'
	assert_failure
	assert_refused f unread
	assert_unchanged f
}

@test "t4100.05 Bun's write after its own read is allowed" {
	bun_tool
	mkfile f 'original'
	run --separate-stderr sv "$BUN" -e 'const fs = require("fs"); fs.readFileSync("f"); fs.writeFileSync("f", "new\n")'
	assert_success
	refute_refused
	assert_content f new
}

@test "t4100.06 make -j2 of a small C project passes under --supervise, and rebuilds" {
	for i in 1 2 3 4; do printf 'int f%d(void) { return %d; }\n' "$i" "$i" >"f$i.c"; done
	printf 'int f1(void);\nint main(void) { return f1() - 1; }\n' >main.c
	cat >Makefile <<'MK'
OBJ := main.o f1.o f2.o f3.o f4.o
prog: $(OBJ)
	$(CC) -o $@ $(OBJ)
%.o: %.c
	$(CC) -O2 -c -o $@ $<
MK
	run --separate-stderr sv bash -c 'make -j2 && ./prog && touch f2.c && make -j2 && ./prog'
	assert_success
	refute_refused
	[ -x prog ] || fail "prog was not built"
}

@test "t4100.07 go build passes under --supervise" {
	go_tool
	printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("built") }\n' >main.go
	run --separate-stderr sv env GOCACHE="$CACHE/gocache" GO111MODULE=off CGO_ENABLED=0 \
		bash -c 'go build -o hello main.go && ./hello'
	assert_success
	assert_output built
	refute_refused
}

# truncate(1), busybox's and coreutils', opens O_WRONLY|O_CREAT|O_NONBLOCK
# and then ftruncates: touch(1)'s open but for O_NOCTTY. Given touch's
# read-only stand-in, its ftruncate failed EINVAL, with no reason given.
truncate_refused() { # MODE TRUNCATE...
	local mode=$1
	shift
	mkfile f 'original'
	snapshot f
	run --separate-stderr "$RG" run "$mode" --log "$LOG" -- "$@" -s 0 f
	assert_failure
	assert_refused f unread
	assert_unchanged f
	[ "$(log_count)" -eq 1 ] || fail "expected one log line, got $(cat "$LOG")"
	[ "$(log_field 1 reason)" = '"unread"' ] || fail "reason: $(log_field 1 reason)"
}

@test "t4100.08 busybox truncate of an unread file is refused with the reason (--supervise)" {
	BUSYBOX=$(command -v busybox) || skip "busybox is not installed"
	truncate_refused --supervise "$BUSYBOX" truncate
}

@test "t4100.09 busybox truncate of an unread file is refused with the reason (--strict)" {
	BUSYBOX=$(command -v busybox) || skip "busybox is not installed"
	truncate_refused --strict "$BUSYBOX" truncate
}

@test "t4100.10 coreutils truncate of an unread file is refused with the reason (--strict)" {
	truncate_refused --strict truncate
}

@test "t4100.11 touch of an unread file sets its time, keeps its bytes, prints nothing (--strict)" {
	mkfile f 'original'
	run --separate-stderr "$RG" run --strict --log "$LOG" -- touch f
	assert_success
	refute_refused
	assert_content f original
	[ "$(stat -c %Y f)" -gt "$(date -d '-1 hour' +%s)" ] || fail "the time was not set"
}

@test "t4100.12 a Go module's build, test, mod tidy and gofmt -w run again in a second supervised session" {
	go_tool
	printf 'module example.com/m\n\ngo 1.19\n' >go.mod
	printf 'package main\n\nfunc Add(a, b int) int { return a + b }\n\nfunc main() { println(Add(1, 2)) }\n' >main.go
	printf 'package main\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("sum")\n\t}\n}\n' >main_test.go
	local each='go build -o m . && go test -count=1 . >/dev/null && go mod tidy && go vet . && gofmt -w main.go'
	run --separate-stderr sv env GOCACHE="$CACHE/gocache" GOPROXY=off GOFLAGS= CGO_ENABLED=0 bash -c "$each"
	assert_success
	printf 'package main\n\nfunc   Add(a,b int) int { return a+b }\n\nfunc main() { println(Add(1, 2)) }\n' >main.go
	make_old go.mod main.go m
	run --separate-stderr sv env GOCACHE="$CACHE/gocache" GOPROXY=off GOFLAGS= CGO_ENABLED=0 bash -c "$each"
	assert_success
	refute_refused
	run grep -c 'func Add(a, b int) int { return a + b }' main.go
	assert_output 1
}
