#!/bin/sh
# The cost of supervised mode on a gcc/make workload: a clean `make -j2` of
# 40 small C files (each including a few system headers), bare, under
# `readguard run`, under `run --supervise` and under `run --strict`.
# Prints the median wall time of each, and the ratios to `run` and to bare.
# Usage: scripts/dev/bench-supervise.sh [ROUNDS]   (default 7)
set -eu
rounds=${1:-7}
top=$(cd "$(dirname "$0")/../.." && pwd)
rg="$top/build/readguard"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$top/scripts/dev/gen-cproject.sh" "$work" 40

# One clean build under PREFIX...: "wall cpu" in seconds, cpu being the
# user + system time of the whole tree, readguard and its supervisor
# included (steadier than wall time on a shared machine).
once() {
    make -s -C "$work" clean
    /usr/bin/time -f '%e %U %S' -o "$work/t" "$@" make -s -j2 -C "$work" >/dev/null
    awk '{printf "%s %.2f\n", $1, $2 + $3}' "$work/t"
}

median() {
    sort -n -k"$2" "$work/$1" | awk -v k="$2" '{a[NR]=$k} END {printf "%.3f\n", a[int((NR+1)/2)]}'
}

# Rounds interleave the four modes, so load from elsewhere hits them alike.
: >"$work/bare"; : >"$work/run"; : >"$work/sup"; : >"$work/strict"
once env >/dev/null # warm the caches
r=0
while [ $r -lt "$rounds" ]; do
    once env >>"$work/bare"
    once "$rg" run --root "$work" -- >>"$work/run"
    once "$rg" run --supervise --root "$work" -- >>"$work/sup"
    once "$rg" run --strict --root "$work" -- >>"$work/strict"
    r=$((r + 1))
done
for m in bare run sup strict; do
    eval "${m}_w=\$(median $m 1) ${m}_c=\$(median $m 2)"
done
echo "make -j2 of 40 C files, median of $rounds clean builds:  wall s / cpu s"
echo "  bare         $bare_w / $bare_c"
echo "  run          $run_w / $run_c"
echo "  --supervise  $sup_w / $sup_c"
echo "  --strict     $strict_w / $strict_c"
awk -v b="$bare_w" -v r="$run_w" -v s="$sup_w" -v t="$strict_w" \
    -v bc="$bare_c" -v rc="$run_c" -v sc="$sup_c" -v tc="$strict_c" 'BEGIN {
    printf "  --supervise / run: wall %.3fx cpu %.3fx\n", s / r, sc / rc
    printf "  --strict / run:    wall %.3fx cpu %.3fx\n", t / r, tc / rc
    printf "  run / bare:        wall %.3fx cpu %.3fx\n", r / b, rc / bc }'
