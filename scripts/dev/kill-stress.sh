#!/usr/bin/env bash
# kill-stress.sh KILLS: kill -9 session processes at random while eight of
# them record reads at full speed, then check that the session still
# records reads and decides writes right.
#
# Each worker (build/t/rgthreads spin) reads shared and own files, rewrites
# what it read, creates files and is refused a write to a file the session
# never read; it exits 1 at the first wrong answer. The driver, inside the
# session, kills a random worker every few milliseconds and starts another.
# Afterwards, from outside: the table is whole (readguard status --json),
# a file never read is refused, a read recorded after the kills unlocks its
# write, and a change made outside the session is caught.
#
# Prints one line of counts; exits 0 if every check held, 1 if not.
set -euo pipefail

kills=${1:?usage: kill-stress.sh KILLS}
top=$(cd "$(dirname "$0")/../.." && pwd)
rg=$top/build/readguard
spin=$top/build/t/rgthreads
[ -x "$rg" ] && [ -x "$spin" ] || { echo "kill-stress: run 'make check-build' first" >&2; exit 2; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/rg-kill-stress.XXXXXX")
work=$dir/w
table=$dir/table
cleanup() { rm -rf "$dir"; }
trap cleanup EXIT
mkdir "$work"
for k in $(seq 0 9); do echo "shared $k" >"$work/s.$k"; done
echo "never read" >"$work/unread"
echo "read later" >"$work/fresh"
touch -d '2020-01-01' "$work"/*

# READGUARD_DIR: the default ignore rules skip /tmp, where the work dir
# may be; the root is named explicitly.
# No process substitution in the driver: with tens of thousands of them,
# bash lost track of a killed child and waited forever.
driver='
set -u
workers=8 kills=$1 spin=$2 dir=$3
declare -a pid
# A FIFO nobody writes: read -t on it is a sleep without a process.
mkfifo "$dir/../tick"
exec 9<>"$dir/../tick"
# Workers say why they stop on stderr; the refusals they expect go there too.
start() { "$spin" spin "w$1" "$dir" 2>>"$dir/../worker-stderr" & pid[$1]=$!; }
for i in $(seq 0 $((workers - 1))); do start "$i"; done
done_kills=0 failures=0
while [ "$done_kills" -lt "$kills" ]; do
	read -rt "0.00$((RANDOM % 5 + 1))" -u 9 || true
	i=$((RANDOM % workers))
	kill -9 "${pid[$i]}" 2>/dev/null || true
	st=0
	wait "${pid[$i]}" || st=$?
	if [ "$st" -eq 137 ]; then done_kills=$((done_kills + 1)); else failures=$((failures + 1)); fi
	start "$i"
done
for i in $(seq 0 $((workers - 1))); do kill -9 "${pid[$i]}" 2>/dev/null || true; wait "${pid[$i]}" 2>/dev/null || true; done
echo "$done_kills $failures"
'
cd "$work"
read -r done_kills failures < <("$rg" run --session "$table" --keep --root "$work" --log "$dir/log" \
	-- bash -c "$driver" driver "$kills" "$spin" "$work" 2>/dev/null)

ok=1
bad() { echo "kill-stress: $*" >&2; ok=0; }
[ "$failures" -eq 0 ] || bad "$failures workers stopped on a wrong answer: $(grep -v "^readguard: refused to write .*/unread. it has not been read" "$dir/worker-stderr" | sort | uniq -c | head -5)"

status=$("$rg" status --session "$table" --json) || bad "status failed"
tracked=$(sed -n 's/.*"tracked":\([0-9]*\).*/\1/p' <<<"$status")
full=$(sed -n 's/.*"full":\([a-z]*\).*/\1/p' <<<"$status")
[ "$full" = false ] || bad "the table is full"
[ "${tracked:-0}" -ge 11 ] || bad "only ${tracked:-0} files tracked"

"$rg" check -q --session "$table" unread && bad "a file never read is allowed"
"$rg" check -q --session "$table" fresh && bad "fresh is allowed before its read"
"$rg" run --session "$table" -- cat fresh >/dev/null || bad "cannot read fresh"
"$rg" check -q --session "$table" fresh || bad "the read of fresh after the kills was not recorded"
"$rg" run --session "$table" -- sh -c 'echo new >fresh' 2>/dev/null || bad "the write after the read was refused"
echo "changed outside" >fresh
"$rg" check -q --session "$table" fresh && bad "a change made outside the session is not caught"
"$rg" run --session "$table" -- sh -c 'echo blind >unread' 2>/dev/null && bad "a blind write went through"
[ "$(cat unread)" = "never read" ] || bad "unread was changed"

echo "kills=$done_kills worker-failures=$failures tracked=$tracked full=$full checks=$([ $ok = 1 ] && echo ok || echo FAILED)"
[ "$ok" = 1 ]
