#!/bin/sh
# DIR FILES: a make project of FILES small C files in DIR, each including a
# few system headers, whose `make -j2` the supervised-mode measurements
# time (bench-supervise.sh) and trace (strict-percall.sh).
# Usage: scripts/dev/gen-cproject.sh DIR FILES
set -eu
dir=$1 files=$2
mkdir -p "$dir"
i=0
while [ $i -lt "$files" ]; do
    printf '#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\nint f%d(const char *s) { char b[64]; snprintf(b, sizeof b, "%%s%d", s); return (int)strlen(b) + atoi(s); }\n' $i $i >"$dir/f$i.c"
    i=$((i + 1))
done
printf 'SRC := $(wildcard f*.c)\nall: $(SRC:.c=.o)\n%%.o: %%.c\n\t$(CC) -O1 -c -o $@ $<\nclean:\n\trm -f *.o\n' >"$dir/Makefile"
