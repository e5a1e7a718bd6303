#!/usr/bin/env bats
# The journaled tier outside git: the reports a project's test and coverage
# tools write over, unread, each run (coverage.py, pytest, mypy, eslint,
# istanbul, go test, gcov, valgrind), told by what the tool writes first
# (core/reportmark.c), never by their name. A second session's run of the
# same tool must not be refused, and the journal keeps the last report;
# a file a person wrote under the same name stays guarded. Each test runs
# in a project that is no git work tree; the tools are Debian's
# (scripts/dev/install-deps.sh test installs them), and a test whose tool
# is missing is skipped, never passed.

load helper

setup() {
	outside_git_setup PYTEST_ADDOPTS COVERAGE_FILE COVERAGE_RCFILE GOFLAGS
	LOG="$OUT/readguard.log"
}

# A Python package with one passing test, measured once by coverage.py in
# a first session.
python_project() {
	need python3-coverage
	python3 -c 'import coverage, pytest' 2>/dev/null || skip "python3-coverage or python3-pytest is not installed"
	mkdir -p src/app tests
	printf 'def add(a, b):\n    return a + b\n' >src/app/__init__.py
	printf 'import sys\nsys.path.insert(0, "src")\nfrom app import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n' \
		>tests/test_add.py
	"$RG" run --log "$LOG" -- python3 -m coverage run --source=src -m pytest -q -p no:cacheprovider >/dev/null ||
		fail "the first session's coverage run failed"
}

# first_report COMMAND: the first session writes a report with COMMAND.
first_report() {
	"$RG" run --log "$LOG" -- bash -c "$1" >/dev/null || fail "the first session's '$1' failed"
}

@test "t1018.01 coverage xml run again in a second session rewrites coverage.xml; the journal keeps it" {
	python_project
	first_report 'python3 -m coverage xml -q'
	second_run 'python3 -m coverage xml -q' coverage.xml
}

@test "t1018.02 a Cobertura coverage.xml coverage.py did not write is still refused" {
	printf '%s\n' '<?xml version="1.0" ?>' '<coverage version="1.9" line-rate="1">' \
		'	<sources><source>.</source></sources>' '</coverage>' >coverage.xml
	assert_blind_refused coverage.xml
}

@test "t1018.03 coverage json run again in a second session rewrites coverage.json; the journal keeps it" {
	python_project
	first_report 'python3 -m coverage json -q'
	second_run 'python3 -m coverage json -q' coverage.json
}

@test "t1018.04 coverage json --pretty-print run again rewrites its indented report" {
	python_project
	first_report 'python3 -m coverage json -q --pretty-print'
	second_run 'python3 -m coverage json -q --pretty-print' coverage.json
}

@test "t1018.05 a JSON file with a meta object of its own is still refused" {
	printf '%s\n' '{"meta": {"version": "1.0", "author": "me"}, "files": {}}' >coverage.json
	assert_blind_refused coverage.json
}

@test "t1018.06 coverage lcov run again in a second session rewrites coverage.lcov; the journal keeps it" {
	python_project
	first_report 'python3 -m coverage lcov -q'
	second_run 'python3 -m coverage lcov -q' coverage.lcov
}

@test "t1018.07 an lcov.info as istanbul writes it (jest --coverage) is rewritten in a second session" {
	# jest is not installable beside a node Debian does not own: the bytes
	# istanbul-reports' lcovonly writes, by a stand-in.
	printf 'TN:\nSF:%s/index.js\nFN:1,add\nFNF:1\nFNH:1\nend_of_record\n' "$W" >lcov.info
	make_old lcov.info
	second_run 'printf "TN:\nSF:index.js\nend_of_record\n" >lcov.info' lcov.info
}

@test "t1018.08 a file of notes that begins with TN: is still refused" {
	printf '%s\n' 'TN: ask about the release' '' 'SF: the new office' >lcov.info
	assert_blind_refused lcov.info
}

@test "t1018.09 pytest --junitxml run again in a second session rewrites report.xml; the journal keeps it" {
	python_project
	first_report 'python3 -m pytest -q -p no:cacheprovider --junitxml=report.xml'
	second_run 'python3 -m pytest -q -p no:cacheprovider --junitxml=report.xml' report.xml
}

@test "t1018.10 a pretty-printed JUnit XML fixture a person keeps is still refused" {
	printf '%s\n' '<?xml version="1.0" encoding="utf-8"?>' '<testsuites>' \
		'  <testsuite name="pytest" errors="0" failures="0" skipped="0" tests="1" time="0.1">' \
		'  </testsuite>' '</testsuites>' >report.xml
	assert_blind_refused report.xml
}

@test "t1018.11 a clover.xml as istanbul writes it (jest --coverage) is rewritten in a second session" {
	# As t1018.07: the bytes istanbul-reports' clover writes, by a stand-in.
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<coverage generated="1795764889491" clover="3.2.0">\n  <project timestamp="1795764889491" name="All files">\n' >clover.xml
	make_old clover.xml
	second_run 'echo "<coverage/>" >clover.xml' clover.xml
}

@test "t1018.12 a clover.xml without istanbul's generated time is still refused" {
	printf '%s\n' '<?xml version="1.0" encoding="UTF-8"?>' '<coverage clover="3.2.0">' '</coverage>' >clover.xml
	assert_blind_refused clover.xml
}

# A Go module with one passing test; go test makes its own system calls,
# which only a supervised session sees.
go_project() {
	command -v go >/dev/null 2>&1 || skip "Go is not installed (make deps-supervise installs golang-go)"
	local out
	out=$("$RG" run --supervise -- true 2>&1) || skip "supervised mode unavailable: $out"
	export GOCACHE="$TOP/build/cache/gocache" GOPROXY=off GO111MODULE=on GOTOOLCHAIN=local
	printf 'module example.com/m\n\ngo 1.19\n' >go.mod
	printf 'package m\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n' >m.go
	printf 'package m\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(Add(1, 2))\n\t}\n}\n' \
		>m_test.go
}

@test "t1018.13 go test -coverprofile run again in a second supervised session rewrites cover.out" {
	go_project
	"$RG" run --supervise --log "$LOG" -- go test -coverprofile=cover.out . >/dev/null ||
		fail "the first session's go test failed"
	run --separate-stderr "$RG" run --supervise --log "$LOG" -- go test -coverprofile=cover.out .
	refute_refused
	assert_success
	run "$RG" history
	assert_success
	assert_output --partial "$W/cover.out"
}

@test "t1018.14 a file that begins with mode: set and no coverage block is still refused" {
	printf '%s\n' 'mode: set' 'theme: dark' >settings.txt
	assert_blind_refused settings.txt
}

# istanbul_html DIR: write the report istanbul-reports' html reporter
# writes into DIR (jest --coverage's coverage/lcov-report, c8
# --reporter=html's coverage), by a stand-in as in t1018.07: its pages
# from one template, then its stylesheet.
istanbul_html() {
	mkdir -p "$1/src"
	local page
	for page in index.html src/a.js.html; do
		printf '\n<!doctype html>\n<html lang="en">\n\n<head>\n    <title>Code coverage report for %s</title>\n' \
			"$page" >"$1/$page"
	done
	printf 'body { margin:0; padding: 0; }\n' >"$1/base.css"
}

@test "t1018.15 an html report as istanbul writes it (jest --coverage, c8) is rewritten in a second session, its assets too" {
	istanbul_html coverage/lcov-report
	make_old coverage/lcov-report/index.html coverage/lcov-report/src/a.js.html coverage/lcov-report/base.css
	second_run "$(declare -f istanbul_html); istanbul_html coverage/lcov-report" coverage/lcov-report/base.css
}

@test "t1018.16 a stylesheet beside an index.html a person wrote is still refused" {
	mkdir site
	printf '<!doctype html>\n<html lang="en">\n<head>\n<title>Code coverage notes</title>\n' >site/index.html
	printf 'body { margin: 0; }\n' >site/base.css
	assert_blind_refused site/base.css
}

@test "t1018.17 a coverage-final.json as istanbul writes it is rewritten in a second session" {
	mkdir coverage
	printf '{"%s/a.js": {"path":"%s/a.js","all":false,"statementMap":{}}}' "$W" "$W" >coverage/coverage-final.json
	make_old coverage/coverage-final.json
	second_run 'echo "{}" >coverage/coverage-final.json' coverage/coverage-final.json
}

@test "t1018.18 a JSON file keyed by paths a person wrote is still refused" {
	printf '{"%s/a.js": {"path": "%s/a.js", "owner": "me"}}\n' "$W" "$W" >owners.json
	assert_blind_refused owners.json
}

# A C program built once by gcc --coverage, run and annotated by gcov in a
# first session: its main.gcno, main.gcda and main.c.gcov are there.
gcov_project() {
	need gcc gcov
	printf 'int main(void)\n{\n    return 0;\n}\n' >main.c
	first_report 'gcc --coverage -c main.c && gcc --coverage -o app main.o && ./app && gcov main.c'
	[ -f main.gcno ] && [ -f main.gcda ] && [ -f main.c.gcov ] || fail "gcc --coverage left no notes, counts or report"
}

@test "t1018.19 gcc --coverage run again in a second session rewrites its .gcno; the journal keeps it" {
	gcov_project
	second_run 'gcc --coverage -c main.c' main.gcno
}

@test "t1018.20 a program gcc --coverage built, run again in a second session, adds to its .gcda" {
	gcov_project
	second_run './app' main.gcda
}

@test "t1018.21 gcov run again in a second session rewrites its annotated source; the journal keeps it" {
	gcov_project
	second_run 'gcov main.c' main.c.gcov
}

@test "t1018.22 a file named .gcno that is no gcc notes file is still refused" {
	printf 'notes on the gcc port\n' >port.gcno
	assert_blind_refused port.gcno
}

@test "t1018.23 a .gcov a person wrote is still refused" {
	printf 'Source: main.c, reviewed\n' >main.c.gcov
	assert_blind_refused main.c.gcov
}

# valgrind runs its tool statically linked, which only a supervised
# session sees; a first one leaves its log.
valgrind_project() {
	need gcc valgrind
	local out
	out=$("$RG" run --supervise -- true 2>&1) || skip "supervised mode unavailable: $out"
	printf 'int main(void)\n{\n    return 0;\n}\n' >main.c
	gcc -o app main.c || fail "gcc failed"
	"$RG" run --supervise --log "$LOG" -- valgrind --log-file=vg.log ./app ||
		fail "the first session's valgrind failed"
}

@test "t1018.24 valgrind --log-file run again in a second supervised session rewrites its log" {
	valgrind_project
	run --separate-stderr "$RG" run --supervise --log "$LOG" -- valgrind --log-file=vg.log ./app
	refute_refused
	assert_success
	run "$RG" history
	assert_success
	assert_output --partial "$W/vg.log"
}

@test "t1018.25 a file of notes whose first line looks like valgrind's is still refused" {
	printf '==2024== the year in review\nplans\n' >notes.txt
	assert_blind_refused notes.txt
}

# A typed module mypy checks; a first session writes its JUnit report.
mypy_project() {
	need mypy
	printf 'def add(a: int, b: int) -> int:\n    return a + b\n' >app.py
	first_report 'mypy --no-incremental --junit-xml mypy.xml app.py'
}

@test "t1018.26 mypy --junit-xml run again in a second session rewrites its report; the journal keeps it" {
	mypy_project
	second_run 'mypy --no-incremental --junit-xml mypy.xml app.py' mypy.xml
}

@test "t1018.27 a JUnit XML of another suite, in mypy's attribute order, is still refused" {
	printf '%s\n' '<?xml version="1.0" encoding="utf-8"?>' \
		'<testsuite errors="0" failures="0" name="lint" skips="0" tests="1" time="0.1">' \
		'</testsuite>' >mypy.xml
	assert_blind_refused mypy.xml
}

# eslint (from npm: Debian's pulls in 75 packages, so it is not installed
# for CI and these skip there) on one file with a config of its own; a
# first session writes its JSON and JUnit reports.
eslint_project() {
	command -v eslint >/dev/null || skip "eslint is not installed (npm install eslint@8)"
	mkdir -p src
	printf 'const x = 1;\nmodule.exports = x;\n' >src/a.js
	printf '{"root": true, "parserOptions": {"ecmaVersion": 2020}, "env": {"node": true}, "rules": {}}\n' >.eslintrc.json
	first_report 'eslint --no-eslintrc -c .eslintrc.json -f json -o eslint.json src &&
		eslint --no-eslintrc -c .eslintrc.json -f junit -o eslint.xml src'
	assert_file_exist eslint.json eslint.xml
}

@test "t1018.28 eslint -f json -o run again in a second session rewrites its report; the journal keeps it" {
	eslint_project
	second_run 'eslint --no-eslintrc -c .eslintrc.json -f json -o eslint.json src' eslint.json
}

@test "t1018.29 eslint -f junit -o run again in a second session rewrites its report; the journal keeps it" {
	eslint_project
	second_run 'eslint --no-eslintrc -c .eslintrc.json -f junit -o eslint.xml src' eslint.xml
}

@test "t1018.30 a pretty-printed JSON list of files and messages a person keeps is still refused" {
	printf '%s\n' '[' '  {' '    "filePath": "/w/src/a.js",' '    "messages": []' '  }' ']' >eslint.json
	assert_blind_refused eslint.json
}
