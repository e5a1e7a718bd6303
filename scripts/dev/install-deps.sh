#!/bin/sh
# Installs the Debian packages that building and testing readguard need, and
# only those that are missing, so `make test` works on a fresh Debian 12.
# Usage: scripts/dev/install-deps.sh [build|test|bench|supervise|musl|lint|fuzz|foreign|all]
set -eu

build_pkgs="gcc make libbsd-dev uthash-dev"
test_pkgs="bats bats-assert bats-support bats-file python3 perl git groff-base man-db bash-completion binutils bubblewrap"
# make deb and its test (t2140): dpkg-deb comes with dpkg; lintian checks the package
test_pkgs="$test_pkgs lintian"
# issue 3 workflow tests: vim/ex and tar; npm only where no other node owns it
test_pkgs="$test_pkgs vim tar"
# issue 18: musl programs (and the musl build of the shim) in the tests
test_pkgs="$test_pkgs musl-tools"
# issue 17 scan tests: real scanners
test_pkgs="$test_pkgs ripgrep python3-pytest"
# issue 13: the project's own tools in a second session (t1540)
test_pkgs="$test_pkgs python3-coverage python3-sphinx python3-venv sqlite3 cmake autoconf automake patch"
# issue 12 journal tests: rsync replacing and deleting files
test_pkgs="$test_pkgs rsync"
# t1420.07: the journal reflinks on a file system that shares extents (XFS on a loop device)
test_pkgs="$test_pkgs xfsprogs"
# t1019: a LaTeX document's and a message catalog's second run (pdflatex, bibtex, latexmk, msgfmt)
test_pkgs="$test_pkgs texlive-latex-base latexmk gettext"
# t1018.24: valgrind's log in a second supervised session
test_pkgs="$test_pkgs valgrind"
# t1017.16: perl Build.PL's _build/ in a second session
test_pkgs="$test_pkgs libmodule-build-perl"
# t4100: a static busybox's truncate(1) and touch(1) under --supervise
test_pkgs="$test_pkgs busybox-static"
# t1017.26-30: generators run again in a second session (bison, flex, swig, protoc, gperf)
test_pkgs="$test_pkgs bison flex swig protobuf-compiler gperf"
# t1018.26: mypy --junit-xml in a second session
test_pkgs="$test_pkgs mypy"
# The system calls a change makes, counted by strace (the journal's, the exec
# path's: need_strace), and gdb -p on a process outside a --strict tree (t6050.02)
test_pkgs="$test_pkgs strace gdb"
# t2130: the firejail recipe (it skips where firejail cannot make a sandbox)
test_pkgs="$test_pkgs firejail"
# bats --jobs (scripts/dev/run-tests.sh runs the suites in parallel) needs GNU parallel.
test_pkgs="$test_pkgs parallel"
command -v npm >/dev/null 2>&1 || test_pkgs="$test_pkgs npm"
bench_pkgs="hyperfine valgrind python3 git tar"
# The process-heavy macro rows: a real ./configure, pytest, npm install.
bench_pkgs="$bench_pkgs autoconf python3-pytest"
command -v npm >/dev/null 2>&1 || bench_pkgs="$bench_pkgs npm"
# Supervised-mode tests build a static Go tool and run go build (they skip
# without Go).
supervise_pkgs="golang-go"
# make lint (clang-format is the one of .clang-format: 14 on Debian 12); make fuzz (libFuzzer ships in clang's runtime package); make
# test-foreign runs CPython's own tests for Debian's /usr/bin/python3.
lint_pkgs="cppcheck clang-tidy clang-format"
fuzz_pkgs="clang libclang-rt-14-dev"
foreign_pkgs="python3 libpython3.11-testsuite"

case "${1:-test}" in
    build) want="$build_pkgs" ;;
    test)  want="$build_pkgs $test_pkgs" ;;
    bench) want="$build_pkgs $bench_pkgs" ;;
    supervise) want="$supervise_pkgs" ;;
    musl)  want="musl-tools" ;;
    lint)  want="$lint_pkgs" ;;
    fuzz)  want="$build_pkgs $fuzz_pkgs" ;;
    foreign) want="$build_pkgs $foreign_pkgs" ;;
    all)   want="$build_pkgs $test_pkgs $bench_pkgs $supervise_pkgs $lint_pkgs $fuzz_pkgs $foreign_pkgs" ;;
    *) echo "usage: $0 [build|test|bench|supervise|musl|lint|fuzz|foreign|all]" >&2; exit 2 ;;
esac

missing=""
for p in $want; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
        missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
    echo "readguard: missing packages:$missing" >&2
    echo "readguard: install them with: sudo apt-get install$missing" >&2
    exit 1
fi
echo "installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >&2
