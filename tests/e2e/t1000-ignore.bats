#!/usr/bin/env bats
# Ignore rules: gitignore syntax, built-in defaults, --ignore,
# --no-default-ignores and .readguardignore. An ignored path is not guarded;
# reads of it are still recorded.

load helper
load escape

# blind_writes PATH...: in one session, overwrite each PATH without reading
# it and print the ones the session let through.
blind_writes() {
	"$RG" run --log "$LOG" "${RG_OPTS[@]}" -- bash -c '
		for p in "$@"; do { printf x >"$p"; } 2>/dev/null && printf "%s\n" "$p"; done
		true' bash "$@"
}

@test "t1000.01 ignore rules mean what git check-ignore says they mean" {
	cat >.gitignore <<'RULES'
*.log
!keep.log
/top.txt
doc/*.txt
**/gen/**
out/
!out/keep.c
a/**/b.dat
*.[oa]
cache[0-9]/
\#hash
sp\ ace
foo?bar
**/deep
!**/deep/keep
[!x]y.z
trail.txt   
RULES
	cp .gitignore .readguardignore
	local paths=(a.log keep.log d/keep.log d/x.log top.txt sub/top.txt doc/a.txt
		doc/sub/a.txt x/doc/a.txt gen/a x/y/gen/z/a x/gen out/keep.c out/other a/b.dat
		a/p/q/b.dat b/a/b.dat m.o m.a m.c cache1/f cache/f '#hash' 'sp ace' fooXbar
		deep/f q/deep/keep ay.z xy.z trail.txt src/main.c)
	local p
	for p in "${paths[@]}"; do
		mkdir -p "$(dirname "$p")"
		mkfile "$p" original
	done
	git init -q .
	local want got
	want=$(printf '%s\n' "${paths[@]}" | git check-ignore --no-index --stdin | sort)
	[ -n "$want" ] || fail "git check-ignore matched nothing"
	RG_OPTS=(--no-default-ignores)
	got=$(blind_writes "${paths[@]}" | sort)
	[ "$got" = "$want" ] || fail "readguard and git disagree
git ignores:
$want
readguard let through:
$got"
}

@test "t1000.02 defaults: git, build and cache outputs are written without a read" {
	mkdir -p .git src/__pycache__ node_modules/p build
	for f in .git/COMMIT_EDITMSG src/main.o src/__pycache__/m.cpython-311.pyc \
		node_modules/p/index.js build/app .main.c.swp; do mkfile "$f" original; done
	RG_OPTS=()
	run blind_writes .git/COMMIT_EDITMSG src/main.o src/__pycache__/m.cpython-311.pyc \
		node_modules/p/index.js build/app .main.c.swp
	assert_success
	assert_equal "${#lines[@]}" 6
}

@test "t1000.03 defaults still guard a tracked source file" {
	mkdir -p src && mkfile src/main.c original
	snapshot src/main.c
	run --separate-stderr rg bash -c 'echo blind > src/main.c'
	assert_failure
	assert_refused src/main.c unread
	assert_unchanged src/main.c
}

@test "t1000.04 --no-default-ignores guards .git too" {
	mkdir .git && mkfile .git/COMMIT_EDITMSG original
	snapshot .git/COMMIT_EDITMSG
	run --separate-stderr "$RG" run --log "$LOG" --no-default-ignores -- \
		bash -c 'echo blind > .git/COMMIT_EDITMSG'
	assert_failure
	assert_refused .git/COMMIT_EDITMSG unread
	assert_unchanged .git/COMMIT_EDITMSG
}

@test "t1000.05 --ignore PATTERN is repeatable and lets matching paths through" {
	mkdir -p data && mkfile data/a.csv original && mkfile notes.md original && mkfile keep.c c
	run --separate-stderr "$RG" run --log "$LOG" --ignore 'data/' -i '*.md' -- \
		bash -c 'echo new > data/a.csv && echo new > notes.md && echo new > keep.c'
	assert_failure
	assert_refused keep.c unread
	assert_content data/a.csv new
	assert_content notes.md new
	assert_content keep.c c
}

@test "t1000.06 --ignore with '!' re-includes a default and wins over it" {
	mkdir build && mkfile build/handwritten.txt original
	snapshot build/handwritten.txt
	run --separate-stderr "$RG" run --log "$LOG" --ignore '!build/' -- \
		bash -c 'echo blind > build/handwritten.txt'
	assert_failure
	assert_refused build/handwritten.txt unread
	assert_unchanged build/handwritten.txt
}

@test "t1000.07 .readguardignore at a root applies under that root only" {
	mkdir -p r1 r2
	printf '# generated data\n*.dat\n' >r1/.readguardignore
	mkfile r1/x.dat original && mkfile r2/x.dat original
	snapshot r2/x.dat
	run --separate-stderr "$RG" run --log "$LOG" -r r1 -r r2 -- \
		bash -c 'echo new > r1/x.dat; echo new > r2/x.dat'
	assert_failure
	assert_refused r2/x.dat unread
	assert_content r1/x.dat new
	assert_unchanged r2/x.dat
}

@test "t1000.08 a read of an ignored path is still recorded" {
	mkfile src.c original
	ln src.c obj.o # the same inode under an ignored name
	run --separate-stderr rg bash -c 'cat obj.o >/dev/null && echo new > src.c'
	assert_success
	refute_refused
	assert_content src.c new
}

@test "t1000.09 an ignored-looking symlink is judged by where its data lives" {
	mkfile main.c original
	ln -s main.c link.o
	snapshot main.c
	run --separate-stderr rg bash -c 'echo blind > link.o'
	assert_failure
	assert_refused link.o unread
	assert_unchanged main.c
}

@test "t1000.10 the session's own log is never guarded" {
	mkfile "$LOG" '{"old":1}'
	run --separate-stderr rg bash -c 'echo "{}" >> "$LOG"'
	assert_success
	refute_refused
}

@test "t1000.11 /tmp is ignored below a root that holds it, guarded when it is the root" {
	# The test's root ($W) is inside /tmp: a root chosen there is guarded.
	[[ $W == /tmp/* ]] || skip "BATS_TEST_TMPDIR is not under /tmp"
	mkfile f original
	snapshot f
	run --separate-stderr rg bash -c 'echo blind > f'
	assert_failure
	assert_refused f unread
	assert_unchanged f
	# With / as the root, the same file is under the ignored /tmp.
	run --separate-stderr "$RG" run --log "$LOG" -r / -- bash -c "echo new > '$W/f'"
	assert_success
	refute_refused
	assert_content f new
}

@test "t1000.12 an empty --ignore pattern is a usage error" {
	run --separate-stderr "$RG" run --ignore '' -- true
	assert_failure 125
	[[ $stderr == *"--ignore: the pattern is empty"* ]] || fail "stderr: $stderr"
}

@test "t1000.13 an unreadable .readguardignore stops the session from starting" {
	local as=()
	# Root reads any file: as root, the session is uid 65534's, in a project of its own.
	if [ "$(id -u)" -eq 0 ]; then
		esc_nobody_tree "be a user who cannot read a file"
		cd "$D/proj" || fail "no $D/proj"
		as=(esc_drop env XDG_STATE_HOME="$D/state" READGUARD_DIR="$D/tables" XDG_RUNTIME_DIR=)
	fi
	printf '*.x\n' >.readguardignore
	chown --reference=. .readguardignore
	chmod 000 .readguardignore
	run --separate-stderr "${as[@]}" "$RG" run -- true
	assert_failure 125
	[[ $stderr == *".readguardignore"* ]] || fail "stderr: $stderr"
}

@test "t1000.14 a .readguardignore that is a directory stops the session from starting" {
	mkdir .readguardignore
	run --separate-stderr "$RG" run -- true
	assert_failure 125
	[[ $stderr == *"cannot read"*".readguardignore"* ]] || fail "stderr: $stderr"
}

# README's free tier names each default; every one of them, and not a name
# near one, lets a blind write through.
@test "t1000.15 every default README's free tier names is written without a read; a name near one is guarded" {
	local names
	names=$(grep -o '^| free | .*' "$TOP/README.md" | grep -o '`\.git/[^`]*`' | tr -d '`')
	assert_equal "$names" '.git/ .hg/ .svn/ *.o *.a *.so *.class *.pyc __pycache__/ node_modules/ target/ build/ dist/ .cache/ *.swp autom4te.cache/'
	local paths=(.git/f .hg/f .svn/f x.o x.a x.so x.class x.pyc __pycache__/f node_modules/f
		target/f build/f dist/f .cache/f .x.swp autom4te.cache/requests)
	local p
	for p in "${paths[@]}" x.c x.oo x.classes cache/f; do
		mkdir -p "$(dirname "$p")"
		mkfile "$p" original
	done
	RG_OPTS=()
	run blind_writes "${paths[@]}" x.c x.oo cache/f
	assert_success
	assert_equal "$output" "$(printf '%s\n' "${paths[@]}")"
}
