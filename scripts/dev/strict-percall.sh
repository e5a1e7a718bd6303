#!/bin/sh
# What readguard's supervisor spends per notification under --strict: a
# clean `make -j2` of FILES small C files (default 40) under
# `readguard run --strict`, the readguard process (the supervisor and its
# threads) traced from just before the build starts. Prints how many
# notifications it received, its system calls per notification by call,
# and, where perf is installed, its own CPU time and context switches over
# a second, untraced build. Counts, unlike times, barely move with the
# machine's load. (Its user-space instructions: see the bench notes;
# callgrind needs the filter installed outside valgrind.)
# Usage: scripts/dev/strict-percall.sh [FILES]
set -eu
files=${1:-40}
top=$(cd "$(dirname "$0")/../.." && pwd)
rg="$top/build/readguard"
command -v strace >/dev/null || {
    echo "strict-percall: needs strace" >&2
    exit 2
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$top/scripts/dev/gen-cproject.sh" "$work/c" "$files"

# One clean build, held back until TOOL... -p PID has attached to readguard
# (its handler threads exist once it has the listener).
watched() {
    make -s -C "$work/c" clean
    rm -f "$work/go"
    "$rg" run --strict --root "$work" --log "$work/log" -- sh -c \
        'while [ ! -e "$1" ]; do sleep 0.05; done; exec make -s -j2 -C "$2"' sh "$work/go" "$work/c" &
    pid=$!
    sleep 0.5
    "$@" -p "$pid" &
    tool=$!
    sleep 0.5
    : >"$work/go"
    wait "$pid"
    sleep 0.2
    kill -INT "$tool" 2>/dev/null || true
    wait "$tool" || true
}

watched strace -f -qq -o "$work/trace"
# Each call once: not the "<... resumed>" half of a call a switch split.
grep -v -e 'resumed>' -e '^[0-9]*  *+++' -e '^[0-9]*  *---' "$work/trace" |
    sed -n 's/^[0-9]*  *\([a-z0-9_]*\)(.*/\1/p' >"$work/calls"
n=$(grep -c 'SECCOMP_IOCTL_NOTIF_RECV.*= 0$' "$work/trace" || true)
total=$(wc -l <"$work/calls")
echo "make -j2 of $files C files under run --strict: $n notifications, $total system calls of readguard"
sort "$work/calls" | uniq -c | sort -rn |
    awk -v n="$n" 'n > 0 {printf "  %-18s %8d  %6.3f per notification\n", $2, $1, $1 / n}'
awk -v n="$n" -v t="$total" 'BEGIN { if (n > 0) printf "  %-18s %8d  %6.3f per notification\n", "all", t, t / n }'
if command -v perf >/dev/null; then
    watched perf stat -e task-clock,context-switches -o "$work/perf"
    echo "readguard itself, untraced:"
    grep -E 'task-clock|context-switches' "$work/perf" | awk '{printf "  %s %s %s\n", $1, $2, $3}'
fi
