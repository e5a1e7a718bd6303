#!/usr/bin/env bats
# The journaled tier outside git: a Python virtual environment, the
# directory whose regular pyvenv.cfg has a "home" key (what python3 -m venv,
# virtualenv and uv write first), is journaled from its root down, as a
# CACHEDIR.TAG's directory is (t1011). Debian's python3 writes no
# .gitignore into a venv. Each test is a second session in a project that
# is no git work tree.

load helper

setup() {
	outside_git_setup PYTHONDONTWRITEBYTECODE VIRTUAL_ENV
}

need_venv() {
	python3 -c 'import venv' 2>/dev/null || skip "python3's venv module is not installed"
}

# cfg DIR [CONTENT]: DIR (made) holds a pyvenv.cfg with CONTENT, by default
# what python3 -m venv writes.
cfg() {
	mkdir -p "$1"
	printf '%s\n' "${2-home = /usr/bin
include-system-site-packages = false
version = 3.11.2}" >"$1/pyvenv.cfg"
}

# control: venv/data, in a venv, beside what a test tries: what a blind
# write to it does is what a marker that counts unlocks.
control() {
	cfg venv
	mkfile venv/data old
}

# blind PATH...: one session overwrites each PATH without reading it.
blind() {
	"$RG" run --log "$LOG" "${RG_OPTS[@]}" -- bash -c '
		for p in "$@"; do printf "new\n" >"$p"; done' bash "$@"
}

@test "t1012.01 python3 -m venv run again in a second session rewrites the venv; undo brings a file back" {
	need_venv
	"$RG" run --log "$LOG" -- python3 -m venv --without-pip .venv
	printf '# kept by hand\n' >>.venv/bin/activate
	run --separate-stderr "$RG" run --log "$LOG" -- python3 -m venv --without-pip .venv
	assert_success
	refute_refused
	run grep -c 'kept by hand' .venv/bin/activate
	assert_output 0
	run "$RG" undo .venv/bin/activate
	assert_success
	run grep -c 'kept by hand' .venv/bin/activate
	assert_output 1
}

@test "t1012.02 python3 -m venv --upgrade in a second session rewrites pyvenv.cfg; undo brings it back" {
	need_venv
	"$RG" run --log "$LOG" -- python3 -m venv --without-pip .venv
	printf 'prompt = mine\n' >>.venv/pyvenv.cfg
	run --separate-stderr "$RG" run --log "$LOG" -- python3 -m venv --upgrade --without-pip .venv
	assert_success
	refute_refused
	run grep -c 'prompt = mine' .venv/pyvenv.cfg
	assert_output 0
	run "$RG" undo .venv/pyvenv.cfg
	assert_success
	run grep -c 'prompt = mine' .venv/pyvenv.cfg
	assert_output 1
}

@test "t1012.03 a script writes a module the second session never read into site-packages; undo brings it back" {
	need_venv
	python3 -m venv --without-pip .venv
	site=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
	printf 'X = 1\n' >"$site/mod.py"
	run --separate-stderr "$RG" run --log "$LOG" -- .venv/bin/python -c '
import sysconfig
open(sysconfig.get_paths()["purelib"] + "/mod.py", "w").write("X = 2\n")'
	assert_success
	refute_refused
	assert_content "$site/mod.py" 'X = 2'
	run "$RG" undo "$site/mod.py"
	assert_success
	assert_content "$site/mod.py" 'X = 1'
}

@test "t1012.04 a pyvenv.cfg without a home key unlocks nothing" {
	control
	cfg env 'version = 3.11.2
include-system-site-packages = false'
	mkfile env/data old
	snapshot env/data
	run --separate-stderr blind env/data venv/data
	assert_refused env/data unread
	assert_unchanged env/data
	assert_content venv/data new
}

@test "t1012.05 a symbolic link named pyvenv.cfg to a real one unlocks nothing" {
	control
	cfg "$OUT/real"
	mkdir env
	ln -s "$OUT/real/pyvenv.cfg" env/pyvenv.cfg
	mkfile env/data old
	snapshot env/data
	run --separate-stderr blind env/data venv/data
	assert_refused env/data unread
	assert_unchanged env/data
	assert_content venv/data new
}

@test "t1012.06 a FIFO named pyvenv.cfg unlocks nothing, and is not opened" {
	control
	mkdir env
	mkfifo env/pyvenv.cfg
	mkfile env/data old
	snapshot env/data
	# A FIFO's open would wait for a writer: timeout tells a hang.
	run --separate-stderr timeout 20 "$RG" run --log "$LOG" -- bash -c '
		printf "new\n" >env/data; printf "new\n" >venv/data'
	assert_refused env/data unread
	assert_unchanged env/data
	assert_content venv/data new
}

@test "t1012.07 a pyvenv.cfg above the root says nothing of the root's files" {
	cfg .
	mkdir sub
	mkfile sub/data old
	snapshot sub/data
	cd sub
	control
	run --separate-stderr blind data venv/data
	assert_refused data unread
	assert_content venv/data new
	cd "$W"
	assert_unchanged sub/data
}

@test "t1012.08 a pyvenv.cfg marks the directories below its own" {
	cfg .venv
	mkdir -p .venv/lib/python3.11/site-packages
	mkfile .venv/lib/python3.11/site-packages/mod.py old
	run --separate-stderr blind .venv/lib/python3.11/site-packages/mod.py
	assert_success
	refute_refused
	run "$RG" undo .venv/lib/python3.11/site-packages/mod.py
	assert_success
	assert_content .venv/lib/python3.11/site-packages/mod.py old
}

@test "t1012.09 without a journal, a file in a venv is guarded" {
	cfg .venv
	mkfile .venv/data old
	snapshot .venv/data
	RG_OPTS=(--no-journal)
	run --separate-stderr blind .venv/data
	assert_refused .venv/data unread
	assert_unchanged .venv/data
}

@test "t1012.10 a file in a venv larger than the per-file cap is refused, saying why" {
	cfg .venv
	head -c 8192 /dev/zero >.venv/big
	snapshot .venv/big
	RG_OPTS=(--journal-max-file 4K)
	run --separate-stderr blind .venv/big
	assert_refused .venv/big unkept
	assert_unchanged .venv/big
}

@test "t1012.11 a static program under --supervise writes a file in a venv; undo brings it back" {
	out=$("$RG" run --supervise -- true 2>&1) || skip "supervised mode unavailable: $out"
	cfg .venv
	mkfile .venv/data old
	run --separate-stderr "$RG" run --supervise --log "$LOG" -- "$T/rgstatic" write .venv/data static
	assert_success
	refute_refused
	assert_content .venv/data static
	run "$RG" undo .venv/data
	assert_success
	assert_content .venv/data old
}

@test "t1012.12 --strict: a pyvenv.cfg a hostile program writes only journals the files beside it" {
	out=$("$RG" run --strict -- true 2>&1) || skip "strict mode unavailable: $out"
	mkdir d
	mkfile d/data old
	run --separate-stderr "$RG" run --strict --log "$LOG" -- bash -c '
		printf "home = /usr/bin\n" >d/pyvenv.cfg && "$1" write d/data gone' bash "$T/rgstatic"
	assert_success
	assert_content d/data gone
	run "$RG" undo d/data
	assert_success
	assert_content d/data old
}

@test "t1012.13 --strict: a FIFO named pyvenv.cfg unlocks nothing, and stalls no write" {
	out=$("$RG" run --strict -- true 2>&1) || skip "strict mode unavailable: $out"
	control
	mkdir env
	mkfifo env/pyvenv.cfg
	mkfile env/data old
	snapshot env/data
	# The supervisor opening the FIFO would wait for a writer: timeout
	# tells a hang.
	run --separate-stderr timeout 30 "$RG" run --strict --log "$LOG" -- bash -c '
		"$1" write env/data x; "$1" write venv/data new' bash "$T/rgstatic"
	assert_refused env/data unread
	assert_unchanged env/data
	assert_content venv/data new
}

@test "t1012.14 a file in a venv too large to keep: the refusal says a tool owns it, not git" {
	cfg .venv
	head -c 8192 /dev/zero >.venv/big
	RG_OPTS=(--journal-max-file 4K)
	run --separate-stderr blind .venv/big
	assert_refused .venv/big unkept
	[[ $stderr == *"a journaled file (one git ignores or a tool owns) is written without a read only once they are."* ]] ||
		fail "the refusal does not say a tool owns it: $stderr"
}
