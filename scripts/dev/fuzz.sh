#!/bin/bash
# The fuzzing campaign behind `make fuzz` and `make fuzz-merge`.
#   scripts/dev/fuzz.sh run RUNS HARNESS...   RUNS executions of each harness,
#       starting from its committed corpus; new inputs go to
#       build/fuzz/work/HARNESS, crashes to build/fuzz/crash-*. Prints one
#       line per harness: executions, seconds, corpus size, crashes.
#   scripts/dev/fuzz.sh merge 0 HARNESS...    minimises committed + found inputs
#       into tests/fuzz/corpus/HARNESS (libFuzzer -merge=1); run it after
#       `make fuzz`, which builds the harnesses.
set -u
cd "$(dirname "$0")/../.." || exit 2
what=${1:?usage: $0 run|merge RUNS HARNESS...} runs=${2:?} && shift 2

status=0
for h in "$@"; do
    bin=build/fuzz/$h corpus=tests/fuzz/corpus/$h work=build/fuzz/work/$h
    mkdir -p "$corpus" "$work"
    case $what in
    run)
        log=build/fuzz/$h.log
        # -timeout: a match or parse that backtracks exponentially is a bug.
        "$bin" -runs="$runs" -timeout=10 -max_len=4096 -print_final_stats=1 \
            -artifact_prefix="build/fuzz/crash-$h-" "$work" "$corpus" >"$log" 2>&1
        rc=$?
        execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log")
        crashes=$(ls build/fuzz/crash-"$h"-* 2>/dev/null | wc -l)
        echo "fuzz: $h: ${execs:-?} executions in ${secs:-?} s, corpus $(ls "$work" | wc -l) found + $(ls "$corpus" | wc -l) committed, $crashes crash file(s), exit $rc"
        if [ "$rc" -ne 0 ]; then
            grep -m5 -E 'ERROR|property failed|SUMMARY' "$log"
            status=1
        fi
        ;;
    merge)
        new=build/fuzz/merged-$h
        rm -rf "$new" && mkdir -p "$new"
        # -use_counters=0: one input per edge covered, not per hit-count
        # bucket, so the committed corpus stays a few dozen files.
        "$bin" -merge=1 -use_counters=0 -max_len=4096 "$new" "$corpus" "$work" >build/fuzz/$h.merge.log 2>&1 ||
            { echo "fuzz: $h: merge failed (build/fuzz/$h.merge.log)"; status=1; continue; }
        rm -rf "$corpus" && mv "$new" "$corpus"
        echo "fuzz: $h: corpus minimised to $(ls "$corpus" | wc -l) files"
        ;;
    esac
done
exit $status
