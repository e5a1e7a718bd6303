#!/bin/bash
# Runs the C unit tests (TAP) and then the bats end-to-end suites, and ends
# with one summary line: "tests: N passed, N failed, N skipped".
# Usage: scripts/dev/run-tests.sh [--unit-only] UNIT_BINARY...
#
# The bats files run READGUARD_TEST_JOBS at a time (default 3): many of
# their tests wait on processes, FIFOs or timeouts, so a 2-core machine is
# busiest with a few more jobs than cores. Each file's tests run in order:
# bats 1.8 hands out its within-file job slots by polling once a second,
# which costs more than it saves on tests that take a tenth of that.
set -u
cd "$(dirname "$0")/../.." || exit 2

unit_only=0
if [ "${1:-}" = --unit-only ]; then unit_only=1; shift; fi

passed=0 failed=0 skipped=0
tally() { # reads TAP on stdin, echoes it, counts results
    local line
    while IFS= read -r line; do
        printf '%s\n' "$line"
        case "$line" in
            "not ok "*) failed=$((failed + 1)) ;;
            "ok "*"# skip"*|"ok "*"# SKIP"*) skipped=$((skipped + 1)) ;;
            "ok "*) passed=$((passed + 1)) ;;
        esac
    done
}

for t in "$@"; do
    echo "# unit: ${t##*/}"
    before=$failed
    out=$("$t" 2>&1)
    rc=$?
    tally <<<"$out"
    # A crash or a non-zero exit that reported no failing case still fails.
    if [ "$rc" -ne 0 ] && [ "$failed" -eq "$before" ]; then
        echo "not ok - ${t##*/} exited with status $rc"
        failed=$((failed + 1))
    fi
done

if [ "$unit_only" = 0 ]; then
    suites=(tests/e2e/*.bats)
    if [ -e "${suites[0]}" ]; then
        jobs=${READGUARD_TEST_JOBS:-3}
        case $jobs in
        '' | *[!0-9]* | 0) echo "run-tests: READGUARD_TEST_JOBS must be a positive number, not '$jobs'" >&2; exit 2 ;;
        esac
        if [ "$jobs" -gt 1 ] && ! command -v parallel >/dev/null 2>&1; then
            echo "# e2e: GNU parallel is not installed (scripts/dev/install-deps.sh test): one file at a time"
            jobs=1
        fi
        par=()
        [ "$jobs" -gt 1 ] && par=(--jobs "$jobs" --no-parallelize-within-files)
        echo "# e2e: bats ${#suites[@]} files, $jobs at a time"
        tally < <(bats --tap "${par[@]}" "${suites[@]}" 2>&1)
    fi
fi

echo "tests: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
