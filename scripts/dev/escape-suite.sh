#!/bin/bash
# Runs the hostile set (tests/e2e/escape.bash) in every mode and prints the
# table vector x mode -> refused/bypass that the documentation shows.
# Needs root (each session runs as uid 65534) and a built tree (make).
# Usage: scripts/dev/escape-suite.sh [VECTOR...]
set -u
cd "$(dirname "$0")/../.." || exit 2
RG="$PWD/build/readguard"
[ -x "$RG" ] || { echo "escape-suite: build first (make)" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "escape-suite: run as root (sessions run as uid 65534)" >&2; exit 2; }
. tests/e2e/escape.bash
esc_reachable_rg || { echo "escape-suite: uid 65534 cannot run $RG" >&2; exit 2; }
trap esc_drop_rg_copy EXIT
vectors=${*:-$ESC_VECTORS}
printf '| %-20s |' vector
for m in $ESC_MODES; do printf ' %-9s |' "$m"; done
printf '\n|%s|' "----------------------"
for m in $ESC_MODES; do printf '%s|' "-----------"; done
echo
for v in $vectors; do
    printf '| %-20s |' "$v"
    for m in $ESC_MODES; do printf ' %-9s |' "$(esc_run "$m" "$v")"; done
    echo
done
