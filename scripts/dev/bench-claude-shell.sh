#!/bin/sh
# What guarding Claude Code's Bash tool shell costs per command: the command
# line Claude Code 2.1.x runs (bash -c "... && <env file> && eval CMD &&
# pwd -P >| cwdfile"), timed with no readguard, with the shim in the
# command's children only (the env file before), and with the shell
# re-executing itself under the shim (the env file that
# `readguard hook claude-code SessionStart` writes). Runs interleaved; prints
# the median of each.
# Usage: scripts/dev/bench-claude-shell.sh [RUNS]   (default 400)
set -eu
runs=${1:-400}
top=$(cd "$(dirname "$0")/../.." && pwd)
rg="$top/build/readguard"
[ -x "$rg" ] || { echo "build readguard first (make)" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/w"
echo data >"$dir/w/f"
: >"$dir/env"
printf '{"session_id":"bench","cwd":"%s"}' "$dir/w" |
    CLAUDE_ENV_FILE="$dir/env" CLAUDE_PID=$$ READGUARD_DIR="$dir" \
        "$rg" hook claude-code SessionStart >/dev/null
cd "$dir/w"
DIR=$dir RUNS=$runs SHIM="$top/build/libreadguard.so" python3 - <<'PY'
import os, statistics, subprocess, time
d = os.environ["DIR"]
env_file = open(d + "/env").read()
def line(pasted):
    return ("source /dev/null 2>/dev/null || true && " + pasted + "\n: && "
            "eval 'cat f >/dev/null' < /dev/null && pwd -P >| " + d + "/cwd")
plain = dict(os.environ)
children = dict(os.environ, LD_PRELOAD=os.environ["SHIM"],
                READGUARD_SESSION=d + "/readguard-claude-bench")
cases = [("no readguard", line(":"), plain),
         ("shim in the command's children only", line(":"), children),
         ("the shell re-executed under the shim", line(env_file), plain)]
times = {name: [] for name, _, _ in cases}
for _ in range(int(os.environ["RUNS"])):
    for name, cmd, env in cases:
        t = time.perf_counter()
        subprocess.run(["bash", "-c", cmd], env=env, check=True)
        times[name].append(time.perf_counter() - t)
for name, _, _ in cases:
    print("%-40s median %.2f ms" % (name, statistics.median(times[name]) * 1000))
PY
