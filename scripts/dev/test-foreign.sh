#!/bin/bash
# A test suite nobody on this project wrote, run with and without readguard:
# CPython's own tests of the file-system layer (test_os, test_shutil,
# test_tempfile, test_fileio) for Debian's /usr/bin/python3.
#
# Each run gets the same kind of scratch directory as its working directory
# and TMPDIR, so the tests' own files are created inside the root; the
# guarded run is `readguard run --mode warn --root SCRATCH`. The per-test
# outcomes (regrtest's JUnit XML: passed, failed, error, skipped) must be
# identical, test by test; the script prints both tallies, the wall time
# ratio and what warn mode logged. With --enforce it also runs the suite in
# enforce mode and reports what was refused and which tests that changed
# (informative: tests that overwrite their own files blind are expected to
# be refused there).
# Usage: scripts/dev/test-foreign.sh [--enforce]
set -u
cd "$(dirname "$0")/../.." || exit 2
PY=/usr/bin/python3
TESTS=(test_os test_shutil test_tempfile test_fileio)
RG=$PWD/build/readguard

[ -x "$RG" ] || { echo "test-foreign: build readguard first (make)" >&2; exit 2; }
[ -e /usr/lib/python3.11/test/test_os.py ] ||
    { echo "test-foreign: no CPython test suite: scripts/dev/install-deps.sh foreign" >&2; exit 2; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/readguard-foreign.XXXXXX") || exit 2
trap 'rm -rf "$scratch"' EXIT

# run NAME [PREFIX...]: the suite in $scratch/NAME; prints its wall seconds.
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

# outcomes NAME: one "test-id outcome" line per test, sorted.
outcomes() {
    "$PY" - "$scratch/$1.xml" <<'PYEOF'
import sys, xml.etree.ElementTree as ET
for tc in sorted(ET.parse(sys.argv[1]).iter("testcase"), key=lambda t: t.get("name")):
    kinds = [c.tag for c in tc if c.tag in ("failure", "error", "skipped")]
    print(tc.get("name"), kinds[0] if kinds else "passed")
PYEOF
}

tally() { # NAME: "N run, P passed, F failed, E errors, S skipped"
    outcomes "$1" | awk '{n++; c[$2]++} END {printf "%d run, %d passed, %d failed, %d errors, %d skipped",
        n, c["passed"], c["failure"], c["error"], c["skipped"]}'
}

guarded() { # NAME MODE: the suite under readguard; log and table kept aside
    run "$1" "$RG" run --mode "$2" --root "$scratch/$1" --log "$scratch/$1.jsonl" \
        --session "$scratch/$1.table" --keep --
}

counters() { # NAME: what the session recorded, so a run that guarded nothing shows
    "$RG" status --session "$scratch/$1.table" --json | "$PY" -c 'import json, sys
s = json.load(sys.stdin)
print("files tracked %(used)d, stamps %(reads)d, writes allowed %(writes_allowed)d, "
      "warnings %(warnings)d, refusals %(refusals)d" % s)'
}

status=0
plain_s=$(run plain)
warn_s=$(guarded warn warn)
for n in plain warn; do
    [ -s "$scratch/$n.xml" ] || { echo "test-foreign: $n run wrote no results:"; tail -20 "$scratch/$n.out"; exit 1; }
done
echo "foreign: without readguard:      $(tally plain) in ${plain_s}s"
echo "foreign: readguard --mode warn:  $(tally warn) in ${warn_s}s"
if diff <(outcomes plain) <(outcomes warn) >"$scratch/diff"; then
    echo "foreign: per-test outcomes identical ($(outcomes plain | wc -l) tests)"
else
    echo "foreign: per-test outcomes DIFFER (< without, > with readguard):"
    grep '^[<>]' "$scratch/diff"
    status=1
fi
awk -v a="$plain_s" -v b="$warn_s" 'BEGIN {printf "foreign: wall time ratio warn/plain: %.2f\n", b / a}'
echo "foreign: warn session: $(counters warn)"
warned=$(grep -c '"decision":"warn"' "$scratch/warn.jsonl" 2>/dev/null)
echo "foreign: warn mode logged ${warned:-0} writes that enforce mode would refuse"
# A session that tracked nothing was not guarding the suite at all.
[ "$("$RG" status --session "$scratch/warn.table" --json | "$PY" -c \
    'import json, sys; print(json.load(sys.stdin)["used"])')" -gt 0 ] ||
    { echo "foreign: the warn session tracked no file: the shim was not loaded"; status=1; }

if [ "${1:-}" = --enforce ]; then
    enforce_s=$(guarded enforce enforce)
    echo "foreign: readguard enforce:      $(tally enforce) in ${enforce_s}s"
    echo "foreign: enforce session: $(counters enforce)"
    refused=$(grep -c '"decision":"refuse"' "$scratch/enforce.jsonl" 2>/dev/null)
    echo "foreign: enforce refused ${refused:-0} writes; outside the root: $(
        grep '"decision":"refuse"' "$scratch/enforce.jsonl" 2>/dev/null |
            grep -vc "\"path\":\"$scratch/enforce/")"
    echo "foreign: refusals by call and reason:"
    grep -o '"call":"[^"]*".*"reason":"[^"]*"' "$scratch/enforce.jsonl" 2>/dev/null |
        sed -E 's/"call":"([^"]*)".*"reason":"([^"]*)"/\1 \2/' | sort | uniq -c | sed 's/^/  /'
    echo "foreign: tests whose outcome enforce mode changed:"
    diff <(outcomes plain) <(outcomes enforce) | grep '^>' | sed 's/^> /  /'
fi
exit $status
