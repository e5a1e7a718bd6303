#!/bin/bash
# Instructions the shim adds to three of issue 15's rows, by callgrind (user
# space: the shim and libc, not the kernel): the steady measure on a loaded
# machine, where wall times move by more than one change. Quicker than
# bench.sh's full run, so each change can be counted before and after with
# the same command.
#   read_root, write_allowed, read_outside: rgbench's loop (valgrind
#     --toggle-collect=wl_NAME), N and 2N calls under `readguard run --root`
#     against bare; "over" is per call at N, "marginal" the extra N calls'.
#   grep_r: `grep -rc needle` over 2,000 files (bench.sh's tree) in a kept
#     session, its second run (the entries exist, as in bench.sh's rounds),
#     the whole command against bare, per file.
#
# Usage: scripts/dev/cg-rows.sh TOP WORKDIR   (TOP: a built checkout)
#   N=2000, WL="read_root write_allowed read_outside", NOGREP=1 to skip grep.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 TOP WORKDIR" >&2; exit 2; }
top=$1 w=$2 n=${N:-2000}
rg=$top/build/readguard shim=$top/build/libreadguard.so rgb=$top/build/bench/rgbench
mkdir -p "$w/micro"
[ -d "$w/micro/root" ] || "$rgb" "$w/micro" setup >/dev/null
total() { awk '/^totals:/ {print $2}' "$1"; }

for wl in ${WL:-read_root write_allowed read_outside}; do
    declare -A b=() r=()
    for k in "$n" $((2 * n)); do
        vg=(valgrind --tool=callgrind --toggle-collect="wl_$wl")
        "${vg[@]}" --callgrind-out-file="$w/cg.bare" "$rgb" "$w/micro" "$k" "$wl" >/dev/null 2>&1
        "$rg" run --root "$w/micro/root" --log "$w/micro.log" -- "${vg[@]}" \
            --callgrind-out-file="$w/cg.rg.$wl.$k" "$rgb" "$w/micro" "$k" "$wl" >/dev/null 2>&1
        b[$k]=$(total "$w/cg.bare") r[$k]=$(total "$w/cg.rg.$wl.$k")
    done
    m=$((2 * n))
    echo "$wl: bare $((b[$n] / n)) a call, shim over bare $(((r[$n] - b[$n]) / n))" \
        "(marginal $((((r[$m] - r[$n]) - (b[$m] - b[$n])) / n)))"
done

[ -z "${NOGREP:-}" ] || exit 0
t=$w/mac
if [ ! -d "$t/tree" ]; then
    python3 "$top/scripts/dev/gen-tree.py" "$t/tree" 2000
fi
rm -f "$t".tab*
"$rg" run --keep --session "$t.tab" --root "$t" --log "$t.log" -- true
declare -A g=()
for side in bare rg; do
    pre=(env)
    [ $side = bare ] || pre=(env LD_PRELOAD="$shim" READGUARD_SESSION="$t.tab" READGUARD_ROOTS="$t" UV_USE_IO_URING=0)
    "${pre[@]}" grep -rc needle "$t/tree/src" >/dev/null 2>&1 || true
    "${pre[@]}" valgrind --tool=callgrind --callgrind-out-file="$w/cgm.$side" \
        grep -rc needle "$t/tree/src" >/dev/null 2>&1 || true
    g[$side]=$(total "$w/cgm.$side")
done
rm -f "$t".tab*
echo "grep_r: bare $((g[bare] / 2000)) a file, shim over bare $(((g[rg] - g[bare]) / 2000))"
