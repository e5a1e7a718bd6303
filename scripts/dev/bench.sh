#!/bin/bash
# What readguard costs: every workload bare and under the shim, interleaved
# (A B A B...), medians and ratios. See BENCHMARKS.md for what each row is.
#
# Usage: scripts/dev/bench.sh [--quick | --smoke] [--out FILE]
#   (default)  the full run, several minutes
#   --quick    fewer rounds and smaller trees, a minute or two
#   --smoke    tiny sizes, one round: checks that every tool runs (the tests)
#   --out FILE write BENCHMARKS.md-style output (notes from
#              scripts/dev/bench-notes.md) to FILE instead of the table to stdout
#   RG_BENCH_BUDGET=SECONDS  start no macro workload after that long: the rows
#              not run say so (a loaded machine can take an hour)
#   RG_BENCH_ONLY="git_checkout compileall ..."  time only these macro rows
#              (the names macro() is called with below); the micro and
#              scale rows always run. The others say not run.
#   RG_BENCH_HEAVY_ROUNDS=N  rounds of configure and of make -j2 under --strict
#   RG_BENCH_NPM_ROUNDS=N    rounds of npm install (a round runs it 4 times)
#   RG_BENCH_CG_MACRO="grep_r pytest ..."  the macro rows to count under
#              callgrind (default: grep -r, git switch and checkout, pytest,
#              npm install, configure;
#              --smoke: grep -r); empty: none
#
# Whole commands are timed by hyperfine; per-call figures come from
# tests/bench/rgbench (ns/op) and, when valgrind is installed, callgrind's
# instruction counts of the same loops, which a noisy machine cannot skew.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
RG=$top/build/readguard
SHIM=$top/build/libreadguard.so
RGBENCH=$top/build/bench/rgbench
RGTABLE=$top/build/bench/rgtable
FLOOR=$top/build/bench/librgfloor.so
NOTIFY=$top/build/bench/rgnotify

level=full out=
while [ $# -gt 0 ]; do
    case $1 in
    --quick) level=quick ;;
    --smoke) level=smoke ;;
    --out) out=$2; shift ;;
    *) echo "usage: $0 [--quick|--smoke] [--out FILE]" >&2; exit 2 ;;
    esac
    shift
done

#           rounds micro_iters cg_iters tree  cfiles pyfiles tarfiles loop table_sizes
case $level in
full)  set -- 11   20000       2000     20000 200    400     10000    1000 1000 100000 1000000 ;;
quick) set -- 5    5000        500      5000  60     100     3000     300  1000 100000 1000000 ;;
# Small tables: a CI container's /dev/shm may hold less than 64 MiB.
smoke) set -- 1    200         50       200   4      4       100      5    1000 10000 100000 ;;
esac
# The process-heavy rows: configure checks, pytest tests, npm packages, and
# their rounds (each takes seconds to a minute on a loaded 2-core machine).
# npm install takes about 2 s a run, and how often V8 collects its heap moves
# a run's time by more than the shim does (see the notes): more rounds.
case $level in
full) conf_checks=100 py_tests=300 npm_pkgs=200 heavy_rounds=3 npm_rounds=9 ;;
quick) conf_checks=50 py_tests=100 npm_pkgs=50 heavy_rounds=3 npm_rounds=5 ;;
smoke) conf_checks=4 py_tests=5 npm_pkgs=3 heavy_rounds=1 npm_rounds=1 ;;
esac
heavy_rounds=${RG_BENCH_HEAVY_ROUNDS:-$heavy_rounds}
npm_rounds=${RG_BENCH_NPM_ROUNDS:-$npm_rounds}
rounds=$1 iters=$2 cg_iters=$3 tree_files=$4 c_files=$5 py_files=$6 tar_files=$7 loop=$8
sizes="$9 ${10} ${11}" small=$9 large=${11}
# Under valgrind every process costs a fraction of a second: the smoke run
# (make test) counts instructions of two workloads only, read_root for the
# floor row and rename for its own loop's name, and of shorter /bin/true
# loops. Their rows still print, the other workloads with "-".
cg_names=""
cg_loops="10 30"
[ "$level" = smoke ] && cg_names="read_root rename" cg_loops="0 1"
# The macro rows whose whole command callgrind counts, each right after its
# timed runs (on a loaded 2-core machine: grep -r seconds, pytest a minute
# or two, npm install and configure several minutes a side).
cg_macro="grep_r git_switch git_checkout pytest npm_install configure"
[ "$level" = smoke ] && cg_macro="grep_r"
cg_macro=${RG_BENCH_CG_MACRO-$cg_macro}

for f in "$RG" "$SHIM" "$RGBENCH" "$RGTABLE" "$FLOOR" "$NOTIFY"; do
    [ -x "$f" ] || [ -f "$f" ] || { echo "bench: $f is not built (make all $RGBENCH $RGTABLE $FLOOR $NOTIFY)" >&2; exit 2; }
done
have() { command -v "$1" >/dev/null 2>&1; }
PY=/usr/bin/python3
[ -x $PY ] || PY=$(command -v python3 || true)

load_at_start=$(cut -d' ' -f1-3 /proc/loadavg)
skipped=""
work=$(mktemp -d "${TMPDIR:-/tmp}/rgbench.XXXXXX")
# Kept tables live where every session's do: $READGUARD_DIR if set (a test
# gives each run its own), else tmpfs. The name keeps them out of the
# stale-table pruning ("readguard-UID-...") of sessions made meanwhile.
tabdir=${READGUARD_DIR:-/dev/shm}
tabs=$tabdir/readguard-bench-$$
cleanup() { rm -rf "$work"; rm -f "$tabs".*; }
trap cleanup EXIT
res=$work/res
# The journal of the guarded runs, kept apart from the user's.
export XDG_STATE_HOME=$work/state
mkdir -p "$res"
log() { printf 'bench: %s\n' "$*" >&2; }

median() { # FILE: median of the numbers in FILE, one a line
    sort -g "$1" | awk '{a[NR] = $1} END {
        if (NR == 0) print "nan"; else if (NR % 2) print a[(NR + 1) / 2];
        else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

# A kept session whose root is $2, at $tabs.$1; prints its path. The
# variables `readguard run` exports into it are kept in $tabs.$1.env, taken
# from the run itself so that they cannot drift from what it really sets.
session() {
    local tab=$tabs.$1
    "$RG" run --keep --session "$tab" --root "$2" --log "$work/$1.log" -- env |
        grep '^READGUARD_' >"$tab.env"
    echo "$tab"
}
# The variables a guarded shell's commands carry in session TAB: what its
# `readguard run` exported (see session()). UV_USE_IO_URING=0 too: without it
# every exec the shell makes rebuilds the environment to add it, which no
# real session does (about 3 page faults a command more).
session_env() { echo "$(tr '\n' ' ' <"$1.env")UV_USE_IO_URING=0"; }
# CMD... run inside an existing session, as a guarded shell's commands run.
# shellcheck disable=SC2046 # the variables, one word each
guarded() { env LD_PRELOAD="$SHIM" $(session_env "$1") "${@:2}"; }

# --- micro: per call, in one process ----------------------------------------
micro_names="read_root read_fstat read_outside write_allowed write_floor write_refused fopen rename write_first write_again write_again_floor write_journaled stat"
[ -n "$cg_names" ] || cg_names=$micro_names
m=$work/micro
mkdir -p "$m"
"$RGBENCH" "$m" setup
log "micro: $rounds rounds of $iters calls each"
for r in $(seq "$rounds"); do
    "$RGBENCH" "$m" "$iters" >"$work/bare.out"
    # A fresh session each round: the refusals are logged, and renames make
    # new inodes, so a kept one would grow from round to round.
    "$RG" run --root "$m/root" --log "$work/micro.log" -- "$RGBENCH" "$m" "$iters" \
        >"$work/rg.out" 2>/dev/null
    while read -r name ns _; do echo "$ns" >>"$res/$name.bare"; done <"$work/bare.out"
    while read -r name ns _; do echo "$ns" >>"$res/$name.rg"; done <"$work/rg.out"
done

# A preloaded library that does nothing: the floor of the start-up rows.
printf 'int rg_bench_empty;\n' >"$work/empty.c"
"${CC:-cc}" -shared -fPIC -O2 -o "$work/libempty.so" "$work/empty.c" 2>/dev/null || rm -f "$work/libempty.so"
# The floor of the shim's start-up above that: a library with the shim's
# imports, bound alike to the same versions, and no code (made from the
# shim's relocations, scripts/dev/startup-floor.sh), preloaded with the
# variables of a session (see session_env()), which ld.so's start-up reads too.
# At a path as long as the shim's where $work allows: ld.so compares each
# loaded object's name with each name it needs (_dl_name_match_p), and
# strcmp's cost there moves by some 300 instructions a process with where
# the names fall in a page, which a name of another length moves.
sfloor=$work/f
sfloor=$sfloor$(printf '%*s' $((${#SHIM} - ${#sfloor} - 3)) '' | tr ' ' f).so
[ "${#sfloor}" = "${#SHIM}" ] || sfloor=$work/libstartfloor.so
"$top/scripts/dev/startup-floor.sh" "$SHIM" "$sfloor" ||
    log "start-up: no floor library (above); its rows say not run"
# shellcheck disable=SC2046 # the variables, one word each
startfloor() { env LD_PRELOAD="$sfloor" $(session_env "$1") "${@:2}"; }

# Instructions per call (user space: libc and the shim, not the kernel).
cg_count() { # OUTFILE WORKLOAD: instructions per iteration in OUTFILE's loop
    local total n
    total=$(awk '/^totals:/ {print $2}' "$1")
    n=$(awk -v w="$2" '$1 == w {print $3 * ($1 == "stat" ? 3 : 1)}' "$1.out")
    awk -v t="$total" -v n="$n" 'BEGIN {printf "%.0f\n", t / n}'
}
if have valgrind; then
    log "micro: instruction counts (callgrind, $cg_iters calls)"
    for w in $cg_names; do
        fn=wl_$w
        [ "$w" = rename ] && fn=rename_over
        [ "$w" = write_first ] && fn=overwrite_first
        [ "$w" = write_journaled ] && fn=overwrite_journaled
        vg=(valgrind --tool=callgrind --toggle-collect="$fn")
        "${vg[@]}" --callgrind-out-file="$work/cg.bare" "$RGBENCH" "$m" "$cg_iters" "$w" \
            >"$work/cg.bare.out" 2>/dev/null
        "$RG" run --root "$m/root" --log "$work/micro.log" -- "${vg[@]}" \
            --callgrind-out-file="$work/cg.rg" "$RGBENCH" "$m" "$cg_iters" "$w" \
            >"$work/cg.rg.out" 2>/dev/null
        cg_count "$work/cg.bare" "$w" >"$res/$w.ir_bare"
        cg_count "$work/cg.rg" "$w" >"$res/$w.ir_rg"
    done
fi

# Process start-up: user instructions per iteration of the /bin/true loop,
# every process of the tree counted (bash, its forked child, /bin/true), as
# the difference between two loops of $cg_loops iterations. Output goes to
# /dev/null, as in the timed row: a process whose stdout is a regular file
# attaches the session at exit to restamp it, which costs more (see the notes).
loop_count() { # PREFIX...: prints instructions per iteration
    local n t f
    for n in $cg_loops; do
        rm -f "$work"/cgl.*
        "$@" valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$work/cgl.%p" \
            bash -c "for i in \$(seq $n); do /bin/true; done" >/dev/null 2>&1
        t=0
        for f in "$work"/cgl.*; do t=$((t + $(awk '/^totals:/ {print $2}' "$f"))); done
        echo "$n $t"
    done | awk 'NR == 1 {n = $1; a = $2} NR == 2 {printf "%.0f\n", ($2 - a) / ($1 - n)}'
}
if have valgrind; then
    log "start-up: instruction counts of the /bin/true loop (callgrind)"
    ltab=$(session loop "$m/root")
    loop_count env >"$res/true_loop.ir_bare"
    loop_count guarded "$ltab" >"$res/true_loop.ir_rg"
    if [ -f "$work/libempty.so" ]; then
        loop_count env LD_PRELOAD="$work/libempty.so" >"$res/true_loop_empty.ir_bare"
        cp "$res/true_loop.ir_rg" "$res/true_loop_empty.ir_rg"
        [ ! -f "$sfloor" ] || loop_count startfloor "$ltab" >"$res/true_loop_empty.ir_floor"
    fi
    rm -f "$ltab"
fi

# --- scale: the same read with 1k, 100k and 1M files in the table ------------
log "scale: per-read cost by table size"
for n in $sizes; do
    tab=$(session "s$n" "$m/root")
    "$RGTABLE" fill "$tab" "$n" >"$work/fill.$n"
done
for r in $(seq "$rounds"); do
    for n in $sizes; do
        guarded "$tabs.s$n" "$RGBENCH" "$m" "$iters" read_root | awk '{print $2}' >>"$res/scale.$n"
    done
done
awk '/bytes_per_file/ {print $2}' "$work/fill.$large" >"$res/bytes_per_file"
rm -f "$tabs".s*
"$RGTABLE" session $((rounds * 2 + 1)) >"$work/session.out"

# --- macro: whole commands, by hyperfine ---------------------------------------
gen_tree() { # DIR FILES: a source tree in git, FILES files in 100 per directory
    "$PY" "$top/scripts/dev/gen-tree.py" "$1" "$2"
    git -C "$1" init -q
    git -C "$1" add -A
    git -C "$1" -c user.name=bench -c user.email=bench@localhost commit -qm tree
    # A few edits, so that git diff has something to show.
    for f in "$1"/src/d000/f0000[0-9].txt; do echo edited >>"$f"; done
}
gen_branch() { # DIR NAME FILES: a branch NAME of DIR's HEAD with FILES files changed
    local base
    base=$(git -C "$1" symbolic-ref --short HEAD)
    git -C "$1" checkout -q -b "$2"
    "$PY" - "$1" "$3" <<'EOF'
import os, sys
top, n = sys.argv[1], int(sys.argv[2])
for i in range(100, 100 + n):
    with open(os.path.join(top, "src", "d%03d" % (i // 100), "f%05d.txt" % i), "a") as f:
        f.write("changed on the branch\n")
EOF
    git -C "$1" add src
    git -C "$1" reset -q -- src/d000
    git -C "$1" -c user.name=bench -c user.email=bench@localhost commit -qm "$2"
    git -C "$1" checkout -q "$base"
}
gen_cproj() { # DIR FILES
    mkdir -p "$1"
    for i in $(seq "$2"); do
        printf '#include <stdio.h>\n#include <string.h>\n#include <stdlib.h>\nint f%d(const char *s)\n{\n\tchar b[64];\n\tsnprintf(b, sizeof b, "%%s-%d", s);\n\treturn (int)strlen(b) + atoi(s);\n}\n' "$i" "$i" >"$1/f$i.c"
    done
    printf 'int main(void) { return 0; }\n' >"$1/main.c"
    printf 'OBJ := $(patsubst %%.c,%%.o,$(wildcard *.c))\nprog: $(OBJ)\n\t$(CC) -o $@ $^\n%%.o: %%.c\n\t$(CC) -O1 -c -o $@ $<\nclean:\n\trm -f *.o prog\n' >"$1/Makefile"
}
# DIR CHECKS: an autoconf project whose ./configure makes about CHECKS checks
# (headers, functions, type sizes; each compiles and often links a program).
gen_configure() {
    local h f t n=0 heads="" funcs="" types=""
    mkdir -p "$1"
    for h in stdio.h stdlib.h string.h strings.h unistd.h fcntl.h errno.h limits.h stdint.h \
        inttypes.h sys/types.h sys/stat.h sys/time.h sys/wait.h sys/socket.h sys/mman.h \
        sys/ioctl.h sys/select.h sys/resource.h sys/uio.h netinet/in.h arpa/inet.h netdb.h \
        poll.h signal.h time.h locale.h langinfo.h wchar.h wctype.h dirent.h pwd.h grp.h \
        termios.h dlfcn.h pthread.h sched.h math.h float.h stddef.h; do
        [ $n -lt $(($2 * 2 / 5)) ] && heads="$heads $h" && n=$((n + 1))
    done
    for f in malloc realloc calloc free memcpy memmove memset strchr strrchr strdup strndup \
        strerror strsignal strtol strtoul strtoll strtod snprintf vsnprintf asprintf getline \
        open openat close read write pread pwrite lseek fstat stat lstat mkdir rmdir unlink \
        rename link symlink readlink realpath getcwd chdir fork execve waitpid pipe dup2 \
        poll select mmap munmap mprotect gettimeofday clock_gettime nanosleep setlocale; do
        [ $n -lt $(($2 * 9 / 10)) ] && funcs="$funcs $f" && n=$((n + 1))
    done
    for t in int long "long long" short "void *" size_t off_t time_t pid_t uid_t; do
        [ $n -lt "$2" ] && types="$types$(printf 'AC_CHECK_SIZEOF([%s])\n' "$t")" && n=$((n + 1))
    done
    {
        printf 'AC_INIT([rgbench], [1.0])\nAC_CONFIG_SRCDIR([main.c])\nAC_CONFIG_HEADERS([config.h])\n'
        printf 'AC_PROG_CC\nAC_CHECK_HEADERS([%s])\nAC_CHECK_FUNCS([%s])\n' "$heads" "$funcs"
        printf '%b' "$types"
        printf 'AC_CONFIG_FILES([Makefile])\nAC_OUTPUT\n'
    } >"$1/configure.ac"
    printf 'int main(void) { return 0; }\n' >"$1/main.c"
    printf 'all:\n\t@CC@ -o main main.c\n' >"$1/Makefile.in"
    (cd "$1" && autoheader && autoconf)
}
# DIR TESTS: a Python project of TESTS pytest tests, ten to a module.
gen_pytest() {
    mkdir -p "$1/pkg" "$1/tests"
    printf 'def add(a, b):\n    return a + b\n' >"$1/pkg/__init__.py"
    # A conftest.py at the top puts the project on sys.path, as in most.
    printf '# the project root, for pytest\n' >"$1/conftest.py"
    "$PY" - "$1" "$2" <<'PYEOF'
import os, sys
top, n = sys.argv[1], int(sys.argv[2])
for m in range((n + 9) // 10):
    with open(os.path.join(top, "tests", "test_m%03d.py" % m), "w") as f:
        f.write("import pkg\n\n")
        for t in range(min(10, n - m * 10)):
            f.write("def test_%d():\n    assert pkg.add(%d, %d) == %d\n\n" % (t, m, t, m + t))
PYEOF
}
# DIR PACKAGES: an npm project depending on PACKAGES local tarballs (file:
# specs; no registry, no network), each a small package of its own.
gen_npm() {
    mkdir -p "$1/app" "$1/tgz"
    "$PY" - "$1" "$2" <<'PYEOF'
import io, json, os, sys, tarfile
top, n = sys.argv[1], int(sys.argv[2])
deps = {}
for i in range(n):
    name = "rgb-p%03d" % i
    path = os.path.join(top, "tgz", name + "-1.0.0.tgz")
    files = {"package/package.json": json.dumps({"name": name, "version": "1.0.0", "main": "index.js"}),
             "package/index.js": "module.exports = function () { return %d; };\n" % i,
             "package/README.md": "# %s\n\nA fixture of the readguard benchmark.\n" % name}
    with tarfile.open(path, "w:gz") as t:
        for fname, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(fname)
            info.size, info.mode, info.mtime = len(data), 0o644, 1700000000
            t.addfile(info, io.BytesIO(data))
    deps[name] = "file:../tgz/%s-1.0.0.tgz" % name
with open(os.path.join(top, "app", "package.json"), "w") as f:
    json.dump({"name": "rgb-app", "version": "1.0.0", "private": True, "dependencies": deps}, f)
PYEOF
}
gen_py() { # DIR FILES
    mkdir -p "$1"
    for i in $(seq "$2"); do
        printf 'import os\n\n\nclass C%d:\n    def __init__(self, x):\n        self.x = x\n\n    def f(self, y):\n        return [self.x + k * y for k in range(%d)]\n\n\ndef g(p):\n    return os.path.join(p, "%d")\n' "$i" "$i" "$i" >"$1/m$i.py"
    done
}

nco=1000 # files differing between the checkout row's branches
if have hyperfine; then
    mac=$work/mac
    mkdir -p "$mac"
    log "macro: generating the trees"
    gen_tree "$mac/tree" "$tree_files"
    gen_cproj "$mac/c" "$c_files"
    gen_py "$mac/py" "$py_files"
    mkdir -p "$mac/tarsrc"
    "$PY" -c 'import os, sys
for i in range(int(sys.argv[2])):
    d = os.path.join(sys.argv[1], "d%02d" % (i // 500)); os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "t%05d" % i), "w").write("x" * 200)' "$mac/tarsrc" "$tar_files"
    tar -cf "$mac/a.tar" -C "$mac/tarsrc" .
    mtab=$(session macro "$mac")

    # NAME PREPARE COMMAND [ROUNDS [BARE_ENV [FLOOR_ENV...]]]: one hyperfine
    # call per round, bare (with BARE_ENV, if given), guarded, then with each
    # FLOOR_ENV (tests/bench/rgfloor.c: a floor of the row, measured; into
    # NAME.floor, NAME.floor2, ...).
    past_budget() { # NAME: true, and NAME noted as skipped, once past RG_BENCH_BUDGET
        [ -n "${RG_BENCH_BUDGET:-}" ] && [ "$SECONDS" -gt "$RG_BENCH_BUDGET" ] || return 1
        log "macro: $1 skipped, past RG_BENCH_BUDGET ($RG_BENCH_BUDGET s)"
        skipped="$skipped $1"
    }
    not_chosen() { # NAME: true when RG_BENCH_ONLY names other rows
        [ -n "${RG_BENCH_ONLY:-}" ] || return 1
        case " $RG_BENCH_ONLY " in *" ${1%/callgrind} "*) return 1 ;; esac
    }
    # The guarded side runs in the kept session, unless GUARD (set for the
    # one call) is a prefix of its own, such as a supervised readguard run.
    macro() {
        local name=$1 prep=$2 cmd=$3 n=${4:-$rounds} r k f kinds="bare rg cbare crg"
        local cmds=("env ${5:-} $cmd" "${GUARD:-env LD_PRELOAD=$SHIM $(session_env "$mtab")} $cmd")
        not_chosen "$name" && return
        past_budget "$name" && return
        log "macro: $name"
        printf '%s' "$prep" >"$work/$name.prep"
        printf '%s' "$cmd" >"$work/$name.cmd"
        shift $(($# < 5 ? $# : 5))
        for k in $(seq $#); do
            f=floor
            [ "$k" = 1 ] || f=floor$k
            cmds+=("env ${!k} $cmd") kinds="$kinds $f c$f"
        done
        for r in $(seq 0 "$n"); do
            hyperfine -N --runs 1 --prepare "$prep" --export-csv "$work/h.csv" "${cmds[@]}" \
                >/dev/null 2>"$work/h.err" || {
                log "macro: $name failed (hyperfine --show-output shows why):"
                cat "$work/h.err" >&2
                exit 1
            }
            [ "$r" = 0 ] && continue # the first round warms the caches and the table
            # command,mean,stddev,median,user,system,min,max
            awk -F, -v o="$res/$name" 'NR == 2 {print $2 >(o ".bare"); print $5 + $6 >(o ".cbare")}
                NR == 3 {print $2 >(o ".rg"); print $5 + $6 >(o ".crg")}
                NR >= 4 {f = "floor" (NR > 4 ? NR - 3 : ""); print $2 >(o "." f); print $5 + $6 >(o ".c" f)}' "$work/h.csv"
            for k in $kinds; do cat "$res/$name.$k" >>"$res/$name.all.$k"; done
        done
        for k in $kinds; do mv "$res/$name.all.$k" "$res/$name.$k"; done
    }
    # FILE...: the instructions callgrind counted in the shim's own code (its
    # functions' self cost; not the libc calls it makes), every file summed.
    # Node's runs differ by more than the shim's count between two runs of
    # the same side (when V8 collects its heap), so this is that row's
    # steady measure. Object names are defined once, "ob=(N) path", then
    # used as "ob=(N)"; a cost line right after "calls=" is a callee's.
    shim_ir() {
        awk -v so="/${SHIM##*/}" '
            FNR == 1 { in_so = call = 0 }
            /^c?ob=/ {
                s = substr($0, index($0, "=") + 1)
                if (match(s, /^\([0-9]+\)/)) {
                    id = substr(s, 1, RLENGTH); rest = substr(s, RLENGTH + 1); sub(/^ /, "", rest)
                    if (rest != "") obj[id] = rest
                    s = obj[id]
                }
                if (/^ob=/) in_so = substr(s, length(s) - length(so) + 1) == so
                next
            }
            /^calls=/ { call = 1; next }
            /^[0-9+*-]/ { if (!call && in_so) t += $NF; call = 0 }
            END { print t + 0 }' "$@"
    }
    # NAME UNITS UNIT: the user-space instructions of one run of the row's
    # command, every process of it counted, bare then guarded: the steady
    # measure beside the timed row (callgrind's counts barely move between
    # runs, so one run of each side is enough). A forked child starts with
    # its parent's counts, so one that does not exec is left out (else the
    # parent would be counted once per subshell), and what a child does
    # before its exec is lost (valgrind starts afresh there): on both sides.
    macro_ir() {
        local name=$1 units="$2 $3" side f t prep cmd
        have valgrind && [ -f "$res/$name.bare" ] || return 0
        past_budget "$name/callgrind" && return
        log "macro: $name, instruction counts (callgrind)"
        prep=$(cat "$work/$name.prep") cmd=$(cat "$work/$name.cmd")
        for side in bare rg; do
            sh -c "$prep"
            rm -f "$work"/cgm.*
            # A fixed hash seed: Python's random one moves its counts by more
            # than the shim adds to them.
            set -- env PYTHONHASHSEED=0
            # shellcheck disable=SC2046 # the variables, one word each
            [ $side = bare ] || set -- "$@" LD_PRELOAD="$SHIM" $(session_env "$mtab")
            "$@" valgrind --tool=callgrind --trace-children=yes --child-silent-after-fork=yes \
                --callgrind-out-file="$work/cgm.%p" \
                sh -c "$cmd" >/dev/null 2>"$work/cg-macro.err" || {
                log "macro: $name failed under callgrind:"
                tail -5 "$work/cg-macro.err" >&2
                exit 1
            }
            t=0
            for f in "$work"/cgm.*; do t=$((t + $(awk '/^totals:/ {print $2}' "$f"))); done
            echo "$t" >"$res/$name.irt_$side"
            [ $side = bare ] || shim_ir "$work"/cgm.* >"$res/$name.irshim"
        done
        echo "$units" >"$res/$name.ir_units"
    }
    # Right after the row's own timed runs, when RG_BENCH_CG_MACRO names it:
    # under RG_BENCH_BUDGET a row is then timed and counted, or neither.
    counted() { # NAME UNITS UNIT
        case " $cg_macro " in *" $1 "*) macro_ir "$@" ;; esac
    }
    macro git_status true "git -C $mac/tree status"
    macro git_diff true "git -C $mac/tree diff"
    # Its floor: an fstat after each read-mode open, as the shim's record of
    # a read needs, and nothing else (tests/bench/rgfloor.c).
    macro grep_r true "grep -rc needle $mac/tree/src" "$rounds" "" "LD_PRELOAD=$FLOOR RG_FLOOR_READ=1"
    counted grep_r "$tree_files" file
    macro true_loop true "bash -c 'for i in \$(seq $loop); do /bin/true; done'"
    # The same against a preloaded library that does nothing: what loading
    # one more object costs, which no shim can go below; and in the same
    # rounds the floor of the shim's imports (startfloor()).
    if [ -f "$work/libempty.so" ]; then
        sf=()
        [ ! -f "$sfloor" ] ||
            sf=("LD_PRELOAD=$sfloor $(session_env "$mtab")")
        macro true_loop_empty true "bash -c 'for i in \$(seq $loop); do /bin/true; done'" \
            "$rounds" "LD_PRELOAD=$work/libempty.so" "${sf[@]}"
    fi
    if have autoconf; then
        gen_configure "$mac/conf" "$conf_checks"
        # Its floors, as the start-up rows' (a process is most of what a
        # check costs): the empty library, then the floor of the shim's
        # imports; both or neither, so each keeps its name.
        cf=()
        [ ! -f "$work/libempty.so" ] || [ ! -f "$sfloor" ] ||
            cf=("LD_PRELOAD=$work/libempty.so" "LD_PRELOAD=$sfloor $(session_env "$mtab")")
        macro configure "sh -c 'cd $mac/conf && rm -f config.cache config.status config.log config.h'" \
            "sh -c 'cd $mac/conf && ./configure -q'" "$heavy_rounds" "" "${cf[@]}"
        counted configure "$conf_checks" check
    fi
    if "$PY" -c 'import pytest' 2>/dev/null; then
        gen_pytest "$mac/pyt" "$py_tests"
        # Under half a second a run, one process: as many rounds as the loops,
        # for with three a busy neighbour's second moved the median by 10 %.
        macro pytest true "$PY -m pytest -q -p no:cacheprovider $mac/pyt" "$rounds"
        counted pytest "$py_tests" test
    fi
    if have npm; then
        gen_npm "$mac/npm" "$npm_pkgs"
        # Each side its own npm cache (RG_NPM_CACHE names a floor's): npm
        # appends to the index files of a cache, and the guarded session
        # would rightly refuse appends to files the bare run wrote and it
        # never read. Its floors (one node process: start-up is not its
        # cost): every system call the shim adds (tests/bench/rgfloor.c),
        # with the variable a session sets; then an empty preloaded library.
        nf=("LD_PRELOAD=$FLOOR RG_FLOOR_READ=1 RG_FLOOR_ROOT=$mac RG_FLOOR_SHIM=1 UV_USE_IO_URING=0 RG_NPM_CACHE=floor")
        [ ! -f "$work/libempty.so" ] || nf+=("LD_PRELOAD=$work/libempty.so RG_NPM_CACHE=empty")
        macro npm_install "rm -rf $mac/npm/app/node_modules $mac/npm/app/package-lock.json" \
            "sh -c 'c=\${RG_NPM_CACHE:-bare}; [ -z \"\${READGUARD_SESSION:-}\" ] || c=rg; exec npm install --prefix $mac/npm/app --offline --no-audit --no-fund --ignore-scripts --cache $mac/npm/cache-\$c --loglevel=error'" \
            "$npm_rounds" "" "${nf[@]}"
        counted npm_install "$npm_pkgs" package
    fi
    macro make_j2 "make -s -C $mac/c clean" "make -s -j2 -C $mac/c"
    # The supervised modes, each a whole readguard run (a session of its
    # own, its supervisor's threads in the CPU time), against bare, and
    # against a plain readguard run in the same rounds: what the supervisor
    # adds over the preload alone. The loop's second floor adds the round
    # trips and nothing else: the same plain run under rgnotify, which sends
    # what --supervise's filter sends (each open not from the library's
    # trampoline) to a listener that lets it through at once. The make's
    # sends every open, as --strict's filter does, to a listener that
    # carries each out (the caller's directory from /proc, the open, ADDFD),
    # as --strict must, judging and recording nothing.
    plain="$RG run --root $mac --log $work/plain.log --"
    GUARD="$RG run --supervise --root $mac --log $work/supervise.log --" \
        macro true_loop_supervise true "bash -c 'for i in \$(seq $loop); do /bin/true; done'" \
        "$rounds" "" "$plain" "$plain env READGUARD_TRAMPOLINE=1 $NOTIFY"
    GUARD="$RG run --strict --root $mac --log $work/strict.log --" \
        macro make_j2_strict "make -s -C $mac/c clean" "make -s -j2 -C $mac/c" "$heavy_rounds" "" "$plain" \
        "$plain env RG_NOTIFY_ALL=1 RG_NOTIFY_CARRY=1 $NOTIFY"
    # Its floor: every system call the shim adds per module (an fstat after
    # the module's open; fstat and getpid after its .pyc's temporary file's
    # open and before its close; around the rename onto the .pyc, a mask
    # pair, the directory's O_PATH open and close and three looks), no shim
    # (tests/bench/rgfloor.c). ext4's create of each .pyc is most of the run.
    macro compileall "find $mac/py -name __pycache__ -prune -exec rm -rf {} +" \
        "$PY -m compileall -q $mac/py" "$rounds" "" \
        "LD_PRELOAD=$FLOOR RG_FLOOR_READ=1 RG_FLOOR_SHIM=1 RG_FLOOR_RENAME=1 RG_FLOOR_ROOT=$mac"
    # Its floor: every system call the shim adds (an fstat and a getpid
    # after each new file's open and before its close, an fstat after the
    # archive's open), no shim (tests/bench/rgfloor.c). ext4's inode
    # allocator is most of the run, and the rounds' rm -rf moves it.
    macro tar_x "sh -c 'rm -rf $mac/x && mkdir $mac/x'" "tar -xf $mac/a.tar -C $mac/x" \
        "$rounds" "" "LD_PRELOAD=$FLOOR RG_FLOOR_READ=1 RG_FLOOR_SHIM=1 RG_FLOOR_ROOT=$mac"
    # The journal's rows: git replaces each differing file (unlink, create),
    # and the session keeps the old bytes of each, every round (the bare
    # checkout back in --prepare makes them new to the session again).
    base=$(git -C "$mac/tree" symbolic-ref --short HEAD)
    nco=$((tree_files - 100 < 1000 ? tree_files - 100 : 1000))
    gen_branch "$mac/tree" co "$nco"
    gen_branch "$mac/tree" sw 10
    # Then a second, and git status: files written in the index's own second
    # are "racily clean", and the next command reads them all again, on one
    # side and not the other (a tenth more instructions, by chance).
    settle="sleep 1 && git -C $mac/tree status -s >/dev/null"
    # Its floors (tests/bench/rgfloor.c): before each unlink the journal's
    # link and index record; then every system call the shim adds. Each
    # floor keeps into a journal of its own, on the session journal's
    # filesystem and as deep, so that its objects/ grows as the session's
    # does and the kernel walks paths as long as the journal's.
    floor_journal() { echo "$work/floor$1/readguard/journal"; }
    mkdir -p "$(floor_journal 1)/objects" "$(floor_journal 1)/sessions" "$(floor_journal 2)/objects" "$(floor_journal 2)/sessions" \
        "$(floor_journal 3)/objects" "$(floor_journal 3)/sessions"
    macro git_checkout "sh -c 'git -C $mac/tree checkout -q $base && $settle'" "git -C $mac/tree checkout -q co" \
        "$rounds" "" "LD_PRELOAD=$FLOOR RG_FLOOR_JOURNAL=$(floor_journal 1)" \
        "LD_PRELOAD=$FLOOR RG_FLOOR_JOURNAL=$(floor_journal 2) RG_FLOOR_READ=1 RG_FLOOR_SHIM=1"
    counted git_checkout "$nco" file
    # Its floor as the checkout's second: one git process whose lstats of
    # the 20,000 files are not hooked; what the shim adds is the journal's
    # work for the 10 files and an fstat per read.
    macro git_switch "sh -c 'git -C $mac/tree switch -q $base && $settle'" "git -C $mac/tree switch -q sw" \
        "$rounds" "" "LD_PRELOAD=$FLOOR RG_FLOOR_JOURNAL=$(floor_journal 3) RG_FLOOR_READ=1 RG_FLOOR_SHIM=1"
    counted git_switch "$tree_files" file
    git -C "$mac/tree" checkout -q "$base"

    rm -f "$mtab"
else
    log "macro: skipped, hyperfine is not installed (scripts/dev/install-deps.sh bench)"
fi

# --- the table ---------------------------------------------------------------
# LABEL KIND NAME TARGET [BASE: the workload a floor row is the floor of;
# for an mvsfloor row, the floor workload NAME is held to; for an mfloor or
# vsfloor row, which of macro NAME's floors: floor (default), floor2]
row() {
    local label=$1 kind=$2 name=$3 target=$4 base=${5:-read_root} a b ratio ok ia ib
    case $kind in
    micro)
        a=$(median "$res/$name.bare") b=$(median "$res/$name.rg")
        ia=- ib=-
        if [ -f "$res/$name.ir_bare" ]; then
            ia=$(cat "$res/$name.ir_bare") ib=$(cat "$res/$name.ir_rg")
            ib="$ib (+$((ib - ia)))"
        fi
        ;;
    mfloor) # a floor of macro row NAME, measured in its rounds, against its bare runs
        base=${5:-floor}
        if [ ! -f "$res/$name.$base" ]; then
            printf '| %s | n/a | n/a | n/a | n/a | - | not run |\n' "$label"
            return
        fi
        a=$(median "$res/$name.bare") b=$(median "$res/$name.$base")
        ia=$(awk -v a="$(median "$res/$name.cbare")" -v b="$(median "$res/$name.c$base")" \
            'BEGIN {printf "cpu %.3fx", (a > 0 ? b / a : 0)}')
        if [ -f "$res/$name.ir_$base" ] && [ -f "$res/$name.ir_bare" ]; then
            ia="$ia; $(cat "$res/$name.ir_bare") / $(cat "$res/$name.ir_$base") (+$(($(cat "$res/$name.ir_$base") - $(cat "$res/$name.ir_bare")))) instructions per iteration"
        fi
        printf '| %s | %s | %s | **%s×** | %s | - | - |\n' "$label" \
            "$(awk -v x="$a" 'BEGIN {printf "%.1f ms", x * 1000}')" \
            "$(awk -v x="$b" 'BEGIN {printf "%.1f ms", x * 1000}')" \
            "$(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.3f", b / a}')" "$ia"
        return
        ;;
    mvsfloor) # micro NAME guarded against its measured floor BASE (the bare column); TARGET: that ratio
        a=$(median "$res/$base.bare") b=$(median "$res/$name.rg")
        ia=- ib=-
        if [ -f "$res/$base.ir_bare" ] && [ -f "$res/$name.ir_rg" ]; then
            ia=$(cat "$res/$base.ir_bare") ib=$(cat "$res/$name.ir_rg")
            ib="$ib (+$((ib - ia)))"
        fi
        ;;
    vsfloor | vsfloor_cpu) # macro NAME guarded against its floor BASE (the bare column); TARGET: that ratio
        base=${5:-floor}
        if [ ! -f "$res/$name.$base" ]; then
            printf '| %s | n/a | n/a | n/a | n/a | %s× | not run |\n' "$label" "$target"
            return
        fi
        a=$(median "$res/$name.$base") b=$(median "$res/$name.rg")
        ratio=$(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.3f", b / a}')
        ia=$(awk -v a="$(median "$res/$name.c$base")" -v b="$(median "$res/$name.crg")" \
            'BEGIN {printf "cpu %.3fx", (a > 0 ? b / a : 0)}')
        if [ "$kind" = vsfloor_cpu ]; then # CPU time is the row's figure, the wall ratio beside it
            ia="wall ${ratio}x"
            a=$(median "$res/$name.c$base") b=$(median "$res/$name.crg")
            ratio=$(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.3f", (a > 0 ? b / a : 0)}')
        fi
        ok=$(awk -v r="$ratio" -v t="${target#≤ }" 'BEGIN {print (r <= t + 0 ? "met" : "missed")}')
        printf '| %s | %s | %s | **%s×** | %s | %s× | %s |\n' "$label" \
            "$(awk -v x="$a" 'BEGIN {printf "%.1f ms", x * 1000}')" \
            "$(awk -v x="$b" 'BEGIN {printf "%.1f ms", x * 1000}')" "$ratio" "$ia" "$target" "$ok"
        return
        ;;
    overfloor) # macro NAME guarded against its floor (the bare column); TARGET: instructions above it
        if [ ! -f "$res/$name.floor" ]; then
            printf '| %s | n/a | n/a | n/a | n/a | ≤ +%s instructions | not run |\n' "$label" "$target"
            return
        fi
        a=$(median "$res/$name.floor") b=$(median "$res/$name.rg")
        ia=$(awk -v a="$(median "$res/$name.cfloor")" -v b="$(median "$res/$name.crg")" \
            'BEGIN {printf "cpu %.3fx", (a > 0 ? b / a : 0)}')
        ok=-
        if [ -f "$res/$name.ir_floor" ] && [ -f "$res/$name.ir_rg" ]; then
            ia="$ia; $(cat "$res/$name.ir_floor") / $(cat "$res/$name.ir_rg") (+$(($(cat "$res/$name.ir_rg") - $(cat "$res/$name.ir_floor")))) instructions per iteration"
            ok=$(($(cat "$res/$name.ir_rg") - $(cat "$res/$name.ir_floor") <= target))
            ok=$([ "$ok" = 1 ] && echo met || echo missed)
        fi
        printf '| %s | %s | %s | **%s×** | %s | ≤ +%s instructions | %s |\n' "$label" \
            "$(awk -v x="$a" 'BEGIN {printf "%.1f ms", x * 1000}')" \
            "$(awk -v x="$b" 'BEGIN {printf "%.1f ms", x * 1000}')" \
            "$(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.3f", b / a}')" "$ia" \
            "$(awk -v n="$target" 'BEGIN {printf(n >= 1000 ? "%d,%03d" : "%d", n / 1000, n % 1000)}')" "$ok"
        return
        ;;
    floor) # the bare cost of workload BASE plus the system calls the shim adds, against BASE
        a=$(median "$res/$base.bare") b=$(median "$res/$name.bare")
        ia=$(cat "$res/$base.ir_bare" 2>/dev/null || echo -) ib=$(cat "$res/$name.ir_bare" 2>/dev/null || echo -)
        printf '| %s | %s | %s | **%s×** | %s / %s | %s | %s |\n' "$label" "$a" "$b" \
            "$(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.3f", b / a}')" "$ia" "$ib" - -
        return
        ;;
    macro | macro_cpu)
        if [ ! -f "$res/$name.bare" ]; then
            printf '| %s | n/a | n/a | n/a | n/a | %s | not run |\n' "$label" "$target"
            return
        fi
        a=$(median "$res/$name.bare") b=$(median "$res/$name.rg")
        ia=$(awk -v a="$(median "$res/$name.cbare")" -v b="$(median "$res/$name.crg")" \
            'BEGIN {printf "cpu %.3fx", (a > 0 ? b / a : 0)}')
        ib=
        if [ -f "$res/$name.ir_bare" ]; then
            ia="$ia; $(cat "$res/$name.ir_bare") / $(cat "$res/$name.ir_rg") (+$(($(cat "$res/$name.ir_rg") - $(cat "$res/$name.ir_bare")))) instructions per iteration"
        fi
        if [ -f "$res/$name.ir_units" ]; then
            ia="$ia; $(awk -v a="$(cat "$res/$name.irt_bare")" -v b="$(cat "$res/$name.irt_rg")" \
                -v n="$(cut -d' ' -f1 "$res/$name.ir_units")" -v u="$(cut -d' ' -f2 "$res/$name.ir_units")" \
                'BEGIN {printf "%.1fM / %.1fM instructions, %+.2fM (%+.1f%%; %+.0f per %s, start-up included)",
                    a / 1e6, b / 1e6, (b - a) / 1e6, (b - a) * 100 / a, (b - a) / n, u}')"
            [ ! -f "$res/$name.irshim" ] || ia="$ia$(awk -v t="$(cat "$res/$name.irshim")" \
                -v n="$(cut -d' ' -f1 "$res/$name.ir_units")" -v u="$(cut -d' ' -f2 "$res/$name.ir_units")" \
                'BEGIN {printf ", of which the shim'"'"'s own code %.2fM (%.0f per %s)", t / 1e6, t / n, u}')"
        fi
        a=$(awk -v x="$a" 'BEGIN {printf "%.1f ms", x * 1000}')
        b=$(awk -v x="$(median "$res/$name.rg")" 'BEGIN {printf "%.1f ms", x * 1000}')
        ;;
    esac
    # Against the bare run of the same workload, or of its floor.
    [ "$kind" = mvsfloor ] || base=$name
    ratio=$(awk -v a="$(median "$res/$base.bare")" -v b="$(median "$res/$name.rg")" \
        'BEGIN {printf "%.3f", b / a}')
    if [ "$kind" = macro_cpu ]; then # the CPU time ratio is the row's, the wall one beside it
        ia="wall ${ratio}x"
        a=$(awk -v x="$(median "$res/$name.cbare")" 'BEGIN {printf "%.1f ms", x * 1000}')
        b=$(awk -v x="$(median "$res/$name.crg")" 'BEGIN {printf "%.1f ms", x * 1000}')
        ratio=$(awk -v a="$(median "$res/$name.cbare")" -v b="$(median "$res/$name.crg")" \
            'BEGIN {printf "%.3f", (a > 0 ? b / a : 0)}')
    fi
    ok=$(awk -v r="$ratio" -v t="${target#≤ }" 'BEGIN {
        if (t == "-") print "-"; else print (r <= t + 0 ? "met" : "missed") }')
    [ "$target" = - ] || target="$target×"
    printf '| %s | %s | %s | **%s×** | %s | %s | %s |\n' "$label" "$a" "$b" "$ratio" \
        "$ia${ib:+ / $ib}" "$target" "$ok"
}

# LABEL NAME FSTATS GETPIDS [SIGMASKS]: the bare median of micro workload
# NAME plus the system calls the shim adds (the bare cost of each measured
# above).
floor_row() {
    local a f g m
    a=$(median "$res/$2.bare") f=$(median "$res/fstat.bare") g=$(median "$res/getpid.bare")
    m=$(median "$res/sigmask.bare")
    awk -v a="$a" -v f="$f" -v g="$g" -v m="$m" -v nf="$3" -v ng="$4" -v nm="${5:-0}" -v l="$1" 'BEGIN {
        b = a + nf * f + ng * g + nm * m
        printf "| %s | %.1f | %.1f | **%.3f×** | - | - | - |\n", l, a, b, b / a }'
}

table() {
    echo "| workload | bare | readguard | ratio | instructions/op bare / readguard (+added); macro: CPU time ratio | target | |"
    echo "|---|---|---|---|---|---|---|"
    row "1. open + read 4 KiB + close, inside a root (ns/op)" micro read_root "≤ 1.20"
    row "1a. floor of 1: the same plus one fstat, no shim (ns/op; bare column: 1 bare)" floor read_fstat -
    row "1 against that floor (bare column: the floor, 1a; target: within 5%)" mvsfloor read_root "≤ 1.05" read_fstat
    row "2. the same outside all roots (ns/op)" micro read_outside "≤ 1.03"
    row "3. allowed write-open + close (ns/op)" micro write_allowed "≤ 1.30"
    floor_row "3a. floor of 3: bare + 2 fstat + 2 getpid (computed)" write_allowed 2 2
    row "3b. floor of 3, measured: the same loop making every system call the shim adds (2 fstat, 2 getpid), no shim (ns/op; bare column: 3 bare)" floor write_floor - write_allowed
    row "3 against that floor (bare column: the floor, 3b; target: within 5%)" mvsfloor write_allowed "≤ 1.05" write_floor
    row "4. refused write-open (ns/op; bare: the open succeeds)" micro write_refused -
    row "5. fopen + fclose, read mode (ns/op)" micro fopen -
    row "6. rename over an allowed file (ns/op)" micro rename -
    row "6a. first overwrite of a read 4 KiB file: journal keeps it (ns/op)" micro write_first "≤ 3"
    row "6b. the same, unread but git-ignored: asks git's rules, journaled (ns/op)" micro write_journaled -
    row "6c. the session's later overwrites of that file: kept already, within the write row (ns/op)" micro write_again "≤ 1.30"
    row "6d. floor of 6c, measured: the same loop making every system call the shim adds (2 fstat, 2 getpid), no shim; its fstat makes the next write's timestamp fine-grained (ns/op; bare column: 6c bare)" floor write_again_floor - write_again
    row "6c against that floor (bare column: the floor, 6d; target: within 5%)" mvsfloor write_again "≤ 1.05" write_again_floor
    row "7. stat + lstat + access, no open (ns/call)" micro stat -
    row "git status, $tree_files files" macro git_status "≤ 1.05"
    row "git diff, $tree_files files" macro git_diff "≤ 1.05"
    row "grep -r over them" macro grep_r "≤ 1.07"
    row "floor of grep -r: bare + an fstat after each read-mode open, no shim (measured)" mfloor grep_r -
    row "grep -r against that floor (bare column: the floor; target: within 5%)" vsfloor grep_r "≤ 1.05" floor
    row "make -j2, $((c_files + 1)) C files" macro make_j2 "≤ 1.05"
    row "python3 -m compileall, $py_files modules" macro compileall "≤ 1.05"
    row "floor of compileall: every system call the shim adds (an fstat after each module's open; fstat and getpid after each .pyc's temporary file's open and before its close; around its rename onto the .pyc a signal mask pair, the directory's O_PATH open and close, a look at each name and at the new one after), no shim (rgfloor, measured)" mfloor compileall -
    row "compileall against that floor (bare column: the floor; target: within 5%)" vsfloor compileall "≤ 1.05" floor
    row "tar -x, $tar_files files" macro tar_x "≤ 1.05"
    row "floor of tar -x: every system call the shim adds (fstat and getpid after each new file's open and before its close; an fstat after the archive's open), no shim (rgfloor, measured)" mfloor tar_x -
    row "tar -x against that floor (bare column: the floor; target: within 5%)" vsfloor tar_x "≤ 1.05" floor
    row "bash loop of $loop /bin/true" macro true_loop "≤ 1.05"
    row "the same against an empty preloaded library (bare column: that library)" macro true_loop_empty "≤ 1.02"
    row "floor of start-up: a library with the shim's imports and symbol versions and no code, with the session's variables, against the empty library (generated: scripts/dev/startup-floor.sh; measured)" mfloor true_loop_empty -
    row "the shim against that floor (bare column: the floor; target: the shim's own instructions per command)" overfloor true_loop_empty 3000
    row "the same under readguard run --supervise (a session of its own)" macro true_loop_supervise "≤ 1.20"
    row "floor of --supervise: the same under a plain readguard run, no supervisor (measured)" mfloor true_loop_supervise -
    row "floor of --supervise with its round trips: that plain run, each open the filter sends answered at once by a listener that judges nothing (rgnotify, measured)" mfloor true_loop_supervise - floor2
    row "--supervise against that floor, with its round trips (bare column: the floor; target: within 5%)" vsfloor true_loop_supervise "≤ 1.05" floor2
    row "make -j2, $((c_files + 1)) C files, under readguard run --strict (CPU time of the whole tree and readguard; wall ratio beside it)" macro_cpu make_j2_strict "≤ 1.25"
    row "floor of --strict: the same under a plain readguard run, no supervisor (measured)" mfloor make_j2_strict -
    row "floor of --strict with its round trips: that plain run, every open sent to a listener that carries it out (the caller's directory from /proc, the open, ADDFD) and judges nothing (rgnotify, measured)" mfloor make_j2_strict - floor2
    row "--strict against that floor, with its round trips (bare column: the floor, CPU time, wall ratio beside it; target: within 5%)" vsfloor_cpu make_j2_strict "≤ 1.05" floor2
    row "./configure (autoconf), $conf_checks checks" macro configure "≤ 1.05"
    row "floor of configure: an empty preloaded library, no shim (measured)" mfloor configure -
    row "floor of configure: a library with the shim's imports and symbol versions and no code, with the session's variables (generated: scripts/dev/startup-floor.sh; measured)" mfloor configure - floor2
    row "configure against that floor (bare column: the floor; target: within 5%)" vsfloor configure "≤ 1.05" floor2
    row "pytest, $py_tests tests" macro pytest "≤ 1.05"
    row "npm install, $npm_pkgs local packages" macro npm_install "≤ 1.05"
    row "floor of npm install: an empty preloaded library, no shim (measured)" mfloor npm_install - floor2
    row "floor of npm install: every system call the shim adds (an fstat per read-mode open under the root; fstat and getpid at a write-open and at its close; the look before an unlink, in a mask pair), no shim (rgfloor, measured)" mfloor npm_install -
    row "npm install against that floor (bare column: the floor; target: within 5%)" vsfloor npm_install "≤ 1.05" floor
    row "git checkout between branches differing in $nco files (journal)" macro git_checkout "≤ 1.15"
    row "floor of git checkout: bare + the journal's kernel work per file (O_PATH open, fstat, linkat, index open/write/close, close), no shim (measured)" mfloor git_checkout -
    row "floor of git checkout, every system call the shim adds: the journal's, the masks, getcwd, getpid, the new file's write path, an fstat per read; no shim (measured)" mfloor git_checkout - floor2
    row "git checkout against that floor, every system call the shim adds (bare column: the floor; target: within 5%)" vsfloor git_checkout "≤ 1.05" floor2
    row "git switch, $tree_files files, 10 differing (journal)" macro git_switch "≤ 1.05"
    row "floor of git switch, every system call the shim adds: the journal's for the 10 files, the masks, getcwd, getpid, an fstat per read; no shim (rgfloor, measured)" mfloor git_switch -
    row "git switch against that floor (bare column: the floor; target: within 5%)" vsfloor git_switch "≤ 1.05" floor
    echo
    echo "| scale | value | target |"
    echo "|---|---|---|"
    local n vals= names=
    for n in $sizes; do
        vals="$vals${vals:+ / }$(median "$res/scale.$n")" names="$names${names:+ / }$n"
    done
    printf '| read inside a root, with %s files in the table (ns/op) | %s | |\n' "$names" "$vals"
    awk -v a="$(median "$res/scale.$small")" -v b="$(median "$res/scale.$large")" \
        -v s="$small" -v l="$large" 'BEGIN {r = b / a
        printf "| %d-file table vs %d-file | **%.3f×** | ≤ 1.10× %s |\n", l, s, r, r <= 1.10 ? "met" : "missed"}'
    awk -v b="$(cat "$res/bytes_per_file")" -v l="$large" 'BEGIN {
        printf "| shared memory per tracked file, at %d files (resident table pages / entries) | %.1f B | ≤ 64 B %s |\n", l, b, b <= 64 ? "met" : "missed"}'
    printf '| one fstat / one getpid / one rt_sigprocmask, bare (ns; the system calls the shim adds) | %s / %s / %s | |\n' \
        "$(median "$res/fstat.bare")" "$(median "$res/getpid.bare")" "$(median "$res/sigmask.bare")"
    awk '/create_ns/ {c = $2} /attach_ns/ {a = $2} END {
        printf "| create a session table (default capacity) | %.1f µs | |\n", c / 1000
        printf "| attach to it (open, map, validate; once per process) | %.1f µs | |\n", a / 1000}' \
        "$work/session.out"
}

machine() {
    local cpu
    cpu=$(awk -F': *' '/^model name/ {print $2; exit}' /proc/cpuinfo)
    echo "- $(nproc) CPUs: ${cpu:-unknown}; $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo) RAM"
    echo "- Linux $(uname -r), $(ldd --version | head -1 | sed 's/^ldd //'), gcc $(gcc -dumpfullversion)"
    echo "- workloads in $(df -T "$work" | awk 'NR == 2 {print $2}') (${TMPDIR:-/tmp}), tables in $(df -T "$tabdir" | awk 'NR == 2 {print $2}') ($tabdir)"
    echo "- $(date -u +%Y-%m-%d), readguard $(git -C "$top" describe --always --dirty 2>/dev/null || echo '?')"
}

if [ -n "$out" ]; then
    {
        echo "# Benchmarks"
        echo
        echo "Generated by \`make bench\` (\`scripts/dev/bench.sh --out BENCHMARKS.md\`); do not edit by hand:"
        echo "the prose after the tables is \`scripts/dev/bench-notes.md\`."
        echo
        echo "## Machine"
        echo
        machine
        echo
        echo "## Results"
        echo
        if [ "$level" != full ]; then
            echo "**A \`--$level\` run: fewer rounds and smaller trees than \`make bench\`.**"
            echo
        fi
        echo "Median of $rounds interleaved rounds (bare, guarded, bare, ...); micro: $iters calls per"
        echo "round in one process; macro: one run per round by \`hyperfine -N --runs 1\`, after a"
        echo "warm-up round, inside one kept session (as a guarded shell's commands run); the"
        echo "process-heavy rows (configure, make -j2 under --strict) are the median of $heavy_rounds rounds, npm install of $npm_rounds."
        echo "Load average when the run began: $load_at_start, when it ended: $(cut -d' ' -f1-3 /proc/loadavg) (the machine has $(nproc) CPUs)."
        if [ -n "$skipped" ]; then
            echo "**Not run, past the time budget (RG_BENCH_BUDGET=$RG_BENCH_BUDGET s):$skipped.**"
        fi
        if [ -n "${RG_BENCH_ONLY:-}" ]; then
            echo "**Of the macro rows, only these ran (RG_BENCH_ONLY): $RG_BENCH_ONLY.**"
        fi
        echo "Instructions are callgrind's counts of user-space instructions (libc and the shim, not"
        echo "the kernel) per call of the same loop, $cg_iters calls; for a macro row, of one whole run of"
        echo "its command, every process of it (bare, then guarded in the same session)."
        echo
        table
        echo
        cat "$top/scripts/dev/bench-notes.md"
    } >"$out.tmp"
    mv "$out.tmp" "$out"
    log "wrote $out"
else
    table
fi
