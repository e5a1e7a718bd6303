#!/bin/bash
# Runs the C unit tests (TAP) and then the bats end-to-end suites, and ends
# with one summary line: "tests: N passed, N failed, N skipped".
# Usage: scripts/dev/run-tests.sh [--unit-only] UNIT_BINARY...
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
        echo "# e2e: bats ${#suites[@]} files"
        tally < <(bats --tap "${suites[@]}" 2>&1)
    fi
fi

echo "tests: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
