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
#   git_checkout: bench.sh's journal row on a 1,100-file tree whose branch
#     co differs in 1,000 files, `git checkout -q co` in a kept session's
#     second round (as bench.sh's later rounds), every process counted,
#     against bare, per differing file.
#
# Usage: scripts/dev/cg-rows.sh TOP WORKDIR   (TOP: a built checkout)
#   N=2000, WL="read_root write_allowed read_outside", NOGREP=1 to skip grep,
#   NOCHECKOUT=1 to skip git checkout.
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

sum_totals() { local f t=0; for f in "$@"; do t=$((t + $(total "$f"))); done; echo "$t"; }
grep_row() {
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
}

checkout_row() {
    local c=$w/co side first
    local tree=$c/tree
    if [ ! -d "$tree" ]; then
        python3 "$top/scripts/dev/gen-tree.py" "$tree" 1100
        git -C "$tree" init -q -b base
        git -C "$tree" add -A
        git -C "$tree" -c user.name=cg -c user.email=cg@localhost commit -qm tree
        git -C "$tree" checkout -q -b co
        for f in "$tree"/src/d0[01][0-9]/f0[01][0-9][0-9][0-9].txt; do
            [[ $f == */d000/* ]] || echo changed >>"$f"
        done
        git -C "$tree" -c user.name=cg -c user.email=cg@localhost commit -qam co
        git -C "$tree" checkout -q base
    fi
    rm -f "$c".tab*
    # Its journal outside the root and apart from the user's, as bench.sh keeps it.
    XDG_STATE_HOME=$c.state "$rg" run --keep --session "$c.tab" --root "$c" --log "$c.log" -- true
    declare -A g=()
    for side in bare rg; do
        pre=(env)
        [ $side = bare ] || pre=(env LD_PRELOAD="$shim" READGUARD_SESSION="$c.tab" READGUARD_ROOTS="$c" UV_USE_IO_URING=0)
        # A first round, not counted, then the counted one: the bare
        # checkout back makes the files new to the session each time.
        for first in 1 0; do
            git -C "$tree" checkout -q base
            # Racily clean files would be read again on one side only.
            sleep 1
            git -C "$tree" status -s >/dev/null
            rm -f "$w"/cgc.*
            if [ $first = 1 ]; then
                "${pre[@]}" git -C "$tree" checkout -q co
            else
                "${pre[@]}" valgrind --tool=callgrind --trace-children=yes --child-silent-after-fork=yes \
                    --callgrind-out-file="$w/cgc.%p" sh -c "git -C $tree checkout -q co" >/dev/null 2>&1
            fi
        done
        g[$side]=$(sum_totals "$w"/cgc.*)
    done
    git -C "$tree" checkout -q base
    rm -rf "$c".tab* "$c.state"
    echo "git_checkout: bare $((g[bare] / 1000)) a differing file, shim over bare $(((g[rg] - g[bare]) / 1000))"
}

[ -n "${NOGREP:-}" ] || grep_row
[ -n "${NOCHECKOUT:-}" ] || checkout_row
