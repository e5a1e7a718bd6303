#!/bin/bash
# A test suite nobody on this project wrote, run with and without readguard:
# CPython's own tests of the file-system layer for Debian's /usr/bin/python3,
# the 22 suites below.
#
# Each run gets the same kind of scratch directory as its working directory
# and TMPDIR, so the tests' own files are created inside the root; the
# guarded run is `readguard run --mode MODE --root SCRATCH` (enforce by
# default: the tests write their own files, read them, replace them, and a
# session that refused any of that would be in the way). The per-test
# outcomes (regrtest's JUnit XML: passed, failed, error, skipped) must be
# identical, test by test; the script prints both tallies, the wall time
# ratio and what the session refused or warned about.
# Usage: scripts/dev/test-foreign.sh [--mode enforce|warn] [SUITE]...
# Environment: FOREIGN_OPTS, more options for `readguard run` (word-split);
# FOREIGN_KEEP=DIR, where to keep the session's log and the suites' output.
set -u
cd "$(dirname "$0")/../.." || exit 2
PY=/usr/bin/python3
TESTS=(test_os test_shutil test_tempfile test_pathlib test_fileinput test_zipfile test_tarfile
    test_mailbox test_compileall test_py_compile test_gzip test_filecmp test_glob test_dbm_dumb
    test_shelve test_netrc test_zipimport test_fileio test_sqlite3 test_logging test_io test_csv)
RG=$PWD/build/readguard
mode=enforce
if [ "${1:-}" = --mode ]; then
    mode=${2:-}
    shift 2 || true
fi
case $mode in
enforce | warn) ;;
*) echo "usage: $0 [--mode enforce|warn] [SUITE]..." >&2; exit 2 ;;
esac
[ $# -eq 0 ] || TESTS=("$@")

[ -x "$RG" ] || { echo "test-foreign: build readguard first (make)" >&2; exit 2; }
[ -e /usr/lib/python3.11/test/test_os.py ] ||
    { echo "test-foreign: no CPython test suite: scripts/dev/install-deps.sh foreign" >&2; exit 2; }

# A suite Debian does not ship (libpython3.11-testsuite leaves out
# test_sqlite3) is named and left out rather than counted as a crash in both.
have=()
for t in "${TESTS[@]}"; do
    if [ -e "/usr/lib/python3.11/test/$t.py" ] || [ -e "/usr/lib/python3.11/test/$t/__init__.py" ]; then
        have+=("$t")
    else
        echo "foreign: $t: not in this Python's test suite, left out"
    fi
done
TESTS=("${have[@]}")

scratch=$(mktemp -d "${TMPDIR:-/tmp}/readguard-foreign.XXXXXX") || exit 2
trap 'rm -rf "$scratch"' EXIT

# run NAME [PREFIX...]: the suites in $scratch/NAME; prints its wall seconds.
run() {
    local name=$1 dir=$scratch/$1
    shift
    mkdir -p "$dir/tmp"
    local t0 t1
    t0=$(date +%s.%N)
    (cd "$dir" && TMPDIR=$dir/tmp "$@" "$PY" -m test --junit-xml "$scratch/$name.xml" \
        "${TESTS[@]}" >"$scratch/$name.out" 2>&1)
    t1=$(date +%s.%N)
    echo "$t0 $t1" | awk '{printf "%.2f", $2 - $1}'
}

# outcomes NAME: one "suite.test-id outcome" line per test, sorted.
outcomes() {
    "$PY" - "$scratch/$1.xml" <<'PYEOF'
import sys, xml.etree.ElementTree as ET
rows = []
for tc in ET.parse(sys.argv[1]).iter("testcase"):
    kinds = [c.tag for c in tc if c.tag in ("failure", "error", "skipped")]
    rows.append((tc.get("name"), kinds[0] if kinds else "passed"))
for name, kind in sorted(rows):
    print(name, kind)
PYEOF
}

tally() { # NAME: "N run, P passed, F failed, E errors, S skipped"
    outcomes "$1" | awk '{n++; c[$2]++} END {printf "%d run, %d passed, %d failed, %d errors, %d skipped",
        n, c["passed"], c["failure"], c["error"], c["skipped"]}'
}

counters() { # the session's counters, so a run that guarded nothing shows
    "$RG" status --session "$scratch/$mode.table" --json | "$PY" -c 'import json, sys
s = json.load(sys.stdin)
print("files tracked %(used)d, stamps %(reads)d, writes allowed %(writes_allowed)d, "
      "warnings %(warnings)d, refusals %(refusals)d" % s)'
}

status=0
plain_s=$(run plain)
# shellcheck disable=SC2086
guarded_s=$(run "$mode" "$RG" run ${FOREIGN_OPTS:-} --mode "$mode" --root "$scratch/$mode" --log "$scratch/$mode.jsonl" \
    --session "$scratch/$mode.table" --keep --)
for n in plain "$mode"; do
    [ -s "$scratch/$n.xml" ] || { echo "test-foreign: $n run wrote no results:"; tail -20 "$scratch/$n.out"; exit 1; }
done
echo "foreign: ${#TESTS[@]} suites: ${TESTS[*]}"
printf 'foreign: %-26s %s in %ss\n' "without readguard:" "$(tally plain)" "$plain_s" \
    "readguard --mode $mode:" "$(tally "$mode")" "$guarded_s"
if diff <(outcomes plain) <(outcomes "$mode") >"$scratch/diff"; then
    echo "foreign: per-test outcomes identical ($(outcomes plain | wc -l) tests)"
else
    echo "foreign: per-test outcomes DIFFER (< without, > with readguard):"
    grep '^[<>]' "$scratch/diff"
    status=1
fi
awk -v a="$plain_s" -v b="$guarded_s" -v m="$mode" \
    'BEGIN {printf "foreign: wall time ratio %s/plain: %.2f\n", m, b / a}'
echo "foreign: $mode session: $(counters)"
decision=refuse
[ "$mode" = warn ] && decision=warn
echo "foreign: ${decision} decisions by call and reason:"
grep "\"decision\":\"$decision\"" "$scratch/$mode.jsonl" 2>/dev/null |
    grep -o '"call":"[^"]*".*"reason":"[^"]*"' |
    sed -E 's/"call":"([^"]*)".*"reason":"([^"]*)"/\1 \2/' | sort | uniq -c | sed 's/^/  /'
[ -z "${FOREIGN_KEEP:-}" ] || cp "$scratch"/*.out "$scratch"/*.xml "$scratch"/*.jsonl "$FOREIGN_KEEP"/ 2>/dev/null
# A session that tracked nothing was not guarding the suite at all.
[ "$("$RG" status --session "$scratch/$mode.table" --json | "$PY" -c \
    'import json, sys; print(json.load(sys.stdin)["used"])')" -gt 0 ] ||
    { echo "foreign: the $mode session tracked no file: the shim was not loaded"; status=1; }
exit $status
