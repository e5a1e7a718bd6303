#!/bin/bash
# What content hashing costs a read: user-space instruction counts of a
# read-open loop (build/t/openloop) under the shim, by callgrind. Needs
# valgrind (not installed by make test). Usage: scripts/dev/bench-hash.sh [BUILD]
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
B=$(cd "${1:-$TOP/build}" && pwd)
command -v valgrind >/dev/null || { echo "bench-hash: needs valgrind" >&2; exit 2; }
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
cd "$D"
head -c 16384 /dev/urandom >f16k
for i in $(seq 1 50); do
	head -c 8000 /dev/urandom >small$i
	head -c 60000 /dev/urandom >mid$i
	head -c 100000 /dev/urandom >large$i
done
touch -d 2020-01-01 ./* # not racy
LOOP="$TOP/build/t/openloop"
count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 | sed -n 's/.*Collected : //p'; }
shim() {
	rm -f "$D/tbl"
	"$B/readguard" run --session "$D/tbl" --keep --root "$D" -- true
	READGUARD_SESSION="$D/tbl" LD_PRELOAD="$B/libreadguard.so" count "$@"
	rm -f "$D/tbl"
}
echo "A 1000 x open, read 4 KiB, close of one 16 KiB file: $(shim "$LOOP" 1000 f16k)"
echo "B first reads of 50 files of 8000 bytes:            $(shim "$LOOP" 1 small*)"
echo "C first reads of 50 files of 60000 bytes:           $(shim "$LOOP" 1 mid*)"
echo "D first reads of 50 files of 100000 bytes:          $(shim "$LOOP" 1 large*)"
echo "E A without the shim:                               $(count "$LOOP" 1000 f16k)"
echo "F B without the shim:                               $(count "$LOOP" 1 small*)"
