#!/usr/bin/env python3
"""gen-tree.py DIR FILES: the benchmarks' source tree, FILES text files of 24
lines in directories of 100 (DIR/src/dNNN/fNNNNN.txt), one line in 24 files
holding "needle" for grep. Used by bench.sh and cg-rows.sh."""
import os
import sys

top, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    d = os.path.join(top, "src", "d%03d" % (i // 100))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "f%05d.txt" % i), "w") as f:
        for j in range(24):
            f.write("line %d of file %d: the quick brown fox %s\n" % (j, i, "needle" if j == i % 24 == 7 else "jumps"))
