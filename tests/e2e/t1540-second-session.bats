#!/usr/bin/env bats
# A second session in a real project (issue 13): the project was built or
# run once without readguard, as every existing checkout has been; then the
# same command runs again, once bare and once in an enforce-mode session,
# from the same state. The tool must behave as it did bare: same exit
# status, same output, no refusal. What the session changed without a read
# is in the journal.
#
# The tools are Debian's (scripts/dev/install-deps.sh test installs them);
# a test whose tool is missing is skipped, never passed.

load helper

setup() {
	common_setup
	# Debian's python3, where python3-pytest, -coverage and -sphinx live,
	# before any version manager's.
	export PATH="/usr/bin:/bin:$PATH"
	export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME="$BATS_TEST_TMPDIR/home"
	export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
	unset PYTEST_ADDOPTS PYTHONDONTWRITEBYTECODE MAKEFLAGS
	mkdir -p "$HOME"
	# The log lives outside the project, as a user's does.
	LOG="$OUT/readguard.log"
}

# project IGNORES...: $W becomes a git repository whose .gitignore holds
# IGNORES, one per line, with everything else in $W committed.
project() {
	printf '%s\n' "$@" >.gitignore
	git init -q -b main .
	git add -A
	git commit -qm initial
}

# norm: output with what differs from run to run (durations) masked.
norm() {
	sed -E 's/[0-9]+(\.[0-9]+)? ?(s|sec|seconds)\b/<T>/g'
}

# second_session SCRIPT: run SCRIPT (bash) twice from the project's present
# state, bare and then in a readguard session, both in $W itself (tools
# record absolute paths). The bare run's results are kept in BARE_STATUS,
# BARE_OUT and BARE_ERR; the session's are in status, output and stderr.
second_session() {
	local first="$BATS_TEST_TMPDIR/first-run"
	cp -a "$W" "$first" || fail "cannot copy the project"
	run --separate-stderr bash -c "$1"
	BARE_STATUS=$status
	BARE_OUT=$(norm <<<"$output")
	BARE_ERR=$(norm <<<"$stderr")
	cd / && rm -rf "$W" && mv "$first" "$W" && cd "$W" || fail "cannot put the project back"
	run --separate-stderr "$RG" run --log "$LOG" -- bash -c "$1"
}

# assert_as_bare STATUS: the bare run exited STATUS, and the session's run
# did the same, with the same output and no refusal.
assert_as_bare() {
	[ "$BARE_STATUS" -eq "$1" ] ||
		fail "the bare run exited $BARE_STATUS, not $1: $BARE_OUT
$BARE_ERR"
	refute_refused
	[ "$status" -eq "$BARE_STATUS" ] || fail "exit status $status under readguard, $BARE_STATUS bare
stdout: $output
stderr: $stderr"
	assert_equal "$(norm <<<"$output")" "$BARE_OUT"
	assert_equal "$(norm <<<"$stderr")" "$BARE_ERR"
}

# assert_kept FILE...: the journal holds the version of each FILE from
# before the session changed it.
assert_kept() {
	local f
	run "$RG" history
	assert_success
	for f in "$@"; do
		grep -qF " $W/$f" <<<"$output" || fail "history does not list $f:
$output"
	done
}

# A Python package with one passing test, as the pytest tests use it.
python_project() {
	mkdir -p src/app tests
	printf 'def add(a, b):\n    return a + b\n' >src/app/__init__.py
	printf 'import sys\nsys.path.insert(0, "src")\nfrom app import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n' \
		>tests/test_add.py
	project __pycache__/ .pytest_cache/ .venv/ .coverage htmlcov/ coverage.xml coverage.json \
		report.xml '*.db' docs/_build/
}

@test "t1540.01 pytest rewrites its .pytest_cache" {
	need python3 pytest
	python_project
	python3 -m pytest -q >/dev/null
	assert_file_exist .pytest_cache/v/cache/nodeids
	second_session 'python3 -m pytest -q'
	assert_as_bare 0
}

@test "t1540.02 pytest -W error: a passing suite still exits 0" {
	need python3 pytest
	python_project
	python3 -m pytest -q >/dev/null
	second_session 'python3 -m pytest -q -W error'
	assert_as_bare 0
}

@test "t1540.03 python3 -m venv over an existing venv" {
	need python3
	python3 -c 'import venv, ensurepip' 2>/dev/null || skip "python3-venv is not installed"
	project .venv/
	python3 -m venv --without-pip .venv
	second_session 'python3 -m venv --without-pip .venv && .venv/bin/python -c "import sys; print(sys.prefix)"'
	assert_as_bare 0
	assert_kept .venv/bin/Activate.ps1
}

@test "t1540.04 python3 -m venv --upgrade rewrites pyvenv.cfg" {
	need python3
	python3 -c 'import venv, ensurepip' 2>/dev/null || skip "python3-venv is not installed"
	project .venv/
	python3 -m venv --without-pip .venv
	second_session 'python3 -m venv --upgrade --without-pip .venv && cat .venv/pyvenv.cfg'
	assert_as_bare 0
}

@test "t1540.05 sqlite3 INSERT into the app's database; undo takes it back" {
	need sqlite3
	project '*.db'
	sqlite3 app.db 'CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES ("first");'
	second_session 'sqlite3 app.db "INSERT INTO notes VALUES (\"second\"); SELECT count(*) FROM notes;"'
	assert_as_bare 0
	assert_equal "$output" 2
	assert_kept app.db
	run "$RG" undo app.db
	assert_success
	assert_equal "$(sqlite3 app.db 'SELECT count(*) FROM notes;')" 1
}

@test "t1540.06 coverage html, xml and json overwrite their last report" {
	need python3 pytest python3-coverage
	python_project
	python3 -m coverage run -m pytest -q >/dev/null
	python3 -m coverage html -q && python3 -m coverage xml -q && python3 -m coverage json -q
	second_session 'set -e
		python3 -m coverage run -m pytest -q
		python3 -m coverage html
		python3 -m coverage xml
		python3 -m coverage json'
	assert_as_bare 0
	assert_kept coverage.xml coverage.json htmlcov/index.html
}

@test "t1540.07 pytest --junitxml overwrites its last report" {
	need python3 pytest
	python_project
	python3 -m pytest -q --junitxml=report.xml >/dev/null
	second_session 'python3 -m pytest -q --junitxml=report.xml'
	assert_as_bare 0
	assert_file_contains report.xml 'tests="1"'
	assert_kept report.xml
}

@test "t1540.08 sphinx-build rebuilds into docs/_build" {
	need sphinx-build
	mkdir docs
	printf 'project = "demo"\nextensions = []\n' >docs/conf.py
	printf 'Demo\n====\n\nFirst words.\n' >docs/index.rst
	project docs/_build/
	sphinx-build -q -b html docs docs/_build/html
	# The page changed since the last build, as it has when one rebuilds.
	printf 'Demo\n====\n\nSecond words.\n' >docs/index.rst
	second_session 'sphinx-build -q -b html docs docs/_build/html && grep -c "Second words" docs/_build/html/index.html'
	assert_as_bare 0
	assert_kept docs/_build/html/index.html
}

# A CMake project that checks for a header, as most do.
cmake_project() {
	printf '%s\n' 'cmake_minimum_required(VERSION 3.13)' 'project(demo C)' \
		'include(CheckIncludeFile)' 'check_include_file(stdio.h HAVE_STDIO_H)' \
		'add_executable(demo main.c)' >CMakeLists.txt
	printf 'int main(void) { return 0; }\n' >main.c
	project "$@"
}

@test "t1540.09 cmake configures again into cmake-build-debug/" {
	need cmake cc
	cmake_project 'cmake-build-*/'
	cmake -S . -B cmake-build-debug >/dev/null
	second_session 'cmake -S . -B cmake-build-debug && cmake --build cmake-build-debug'
	assert_as_bare 0
}

@test "t1540.10 cmake configures again into out/" {
	need cmake cc
	cmake_project out/
	cmake -S . -B out >/dev/null
	second_session 'cmake -S . -B out && cmake --build out'
	assert_as_bare 0
}

# An autotools project, bootstrapped and configured once.
autotools_project() {
	printf '%s\n' 'AC_INIT([demo], [1.0])' 'AM_INIT_AUTOMAKE([foreign])' 'AC_PROG_CC' \
		'AC_CONFIG_FILES([Makefile])' 'AC_OUTPUT' >configure.ac
	printf '%s\n' 'bin_PROGRAMS = demo' 'demo_SOURCES = main.c' >Makefile.am
	printf 'int main(void) { return 0; }\n' >main.c
	project autom4te.cache/ aclocal.m4 configure config.log config.status Makefile Makefile.in \
		compile depcomp install-sh missing .deps/ '*.o' demo
	autoreconf -i >/dev/null 2>&1 || fail "autoreconf failed"
	./configure -q || fail "configure failed"
}

@test "t1540.11 a second ./configure rewrites config.log and config.status" {
	need autoreconf automake cc make
	autotools_project
	second_session './configure -q && make -s'
	assert_as_bare 0
	assert_kept config.log
}

@test "t1540.12 autoreconf again, over its autom4te.cache" {
	need autoreconf automake
	autotools_project
	second_session 'autoreconf -i'
	assert_as_bare 0
}

@test "t1540.13 make's regenerate rules after configure.ac changed" {
	need autoreconf automake cc make
	autotools_project
	make -s >/dev/null
	sed -i 's/\[1.0\]/[1.1]/' configure.ac
	second_session 'make -s && grep -c "PACKAGE_VERSION = 1.1" Makefile'
	assert_as_bare 0
	assert_kept aclocal.m4 Makefile.in
}

# A Makefile that generates version.h from VERSION.
version_project() {
	echo 1.0 >VERSION
	printf '#include <stdio.h>\n#include "version.h"\nint main(void) { puts(VERSION); return 0; }\n' >main.c
	printf '%s\n' 'prog: main.c version.h' '	$(CC) -o $@ main.c' 'version.h: VERSION' \
		"	sed 's/.*/#define VERSION \"&\"/' VERSION > \$@" >Makefile
	project version.h prog
	make -s >/dev/null
}

@test "t1540.14 make regenerates version.h after VERSION changed" {
	need cc make
	version_project
	echo 1.1 >VERSION
	second_session 'make -s && ./prog'
	assert_as_bare 0
	assert_equal "$output" 1.1
	assert_kept version.h
}

@test "t1540.15 make -B regenerates version.h" {
	need cc make
	version_project
	second_session 'make -s -B && ./prog'
	assert_as_bare 0
	assert_equal "$output" 1.0
	assert_kept version.h
}

@test "t1540.16 a blind write to a git-tracked file is still refused" {
	need python3 pytest
	python_project
	python3 -m pytest -q >/dev/null
	snapshot tests/test_add.py
	run --separate-stderr "$RG" run --log "$LOG" -- bash -c 'python3 -m pytest -q >/dev/null; echo > tests/test_add.py'
	assert_failure 1
	assert_refused tests/test_add.py unread
	assert_unchanged tests/test_add.py
}

@test "t1540.17 sed -i.bak with last time's backup present" {
	mkfile notes.txt 'one two'
	project
	sed -i.bak s/one/uno/ notes.txt
	second_session 'sed -i.bak s/two/dos/ notes.txt && cat notes.txt notes.txt.bak'
	assert_as_bare 0
	assert_equal "${lines[*]}" "uno dos uno two"
	assert_kept notes.txt.bak
}

@test "t1540.18 perl -pi.orig with last time's backup present" {
	need perl
	mkfile notes.txt 'one two'
	project
	perl -pi.orig -e s/one/uno/ notes.txt
	second_session 'perl -pi.orig -e s/two/dos/ notes.txt && cat notes.txt notes.txt.orig'
	assert_as_bare 0
	assert_equal "${lines[*]}" "uno dos uno two"
	assert_kept notes.txt.orig
}

@test "t1540.19 patch -b with last time's backup present" {
	need patch
	printf 'one\ntwo\n' >notes.txt
	project
	printf 'one\ntwo\n' >old && printf 'uno\ntwo\n' >new
	diff -u old new | sed '1,2c --- notes.txt\n+++ notes.txt' >"$OUT/1.patch"
	printf 'uno\ntwo\n' >old && printf 'uno\ndos\n' >new
	diff -u old new | sed '1,2c --- notes.txt\n+++ notes.txt' >"$OUT/2.patch"
	rm old new
	patch -s -b notes.txt "$OUT/1.patch"
	second_session "patch -b notes.txt '$OUT/2.patch' && cat notes.txt notes.txt.orig"
	assert_as_bare 0
	assert_equal "${lines[*]}" "patching file notes.txt uno dos uno two"
	assert_kept notes.txt.orig
}

@test "t1540.20 make's regenerate rules with last time's configure~ present" {
	need autoreconf automake cc make
	autotools_project
	make -s >/dev/null
	sed -i 's/\[1.0\]/[1.1]/' configure.ac
	make -s >/dev/null
	assert_file_exist configure~
	sed -i 's/\[1.1\]/[1.2]/' configure.ac
	second_session 'make -s && grep -c "PACKAGE_VERSION = 1.2" Makefile'
	assert_as_bare 0
	assert_kept configure~
}

@test "t1540.21 a git-ignored file moved unread onto its backup name replaces that backup, journaled" {
	mkfile gen.txt new
	mkfile gen.txt~ 'last time'
	project gen.txt
	run --separate-stderr "$RG" run --log "$LOG" -- mv gen.txt gen.txt~
	assert_success
	refute_refused
	assert_content gen.txt~ new
	"$RG" undo gen.txt~
	assert_content gen.txt~ 'last time'
}

@test "t1540.22 a tracked file moved unread onto its backup name is still refused" {
	mkfile src.txt mine
	mkfile src.txt~ 'last time'
	project
	snapshot src.txt src.txt~
	run --separate-stderr "$RG" run --log "$LOG" -- mv src.txt src.txt~
	assert_failure
	assert_refused src.txt~ unread
	assert_unchanged src.txt src.txt~
}
