#!/bin/sh
# Names, in one line, what a build of readguard lacks (a C compiler, the
# libbsd and uthash headers), before the compiler stops on a missing header.
# The Makefile runs it once per build tree. Usage: [CC=cc] check-build-deps.sh
cc=${CC:-cc}
if ! command -v "${cc%% *}" >/dev/null 2>&1; then
    echo "readguard: cannot build: no C compiler '${cc%% *}'; install one with: apt-get install gcc" >&2
    exit 1
fi

# has HEADER: does the compiler find it? ($cc may carry flags: split it.)
has() {
    # shellcheck disable=SC2086
    printf '#include <%s>\n' "$1" | $cc -E -x c -o /dev/null - 2>/dev/null
}

missing=""
has bsd/stdlib.h || missing="$missing libbsd-dev (<bsd/stdlib.h>)"
has uthash.h || missing="${missing:+$missing and} uthash-dev (<uthash.h>)"
[ -z "$missing" ] && exit 0
packages=$(echo "$missing" | sed 's/ (<[^>]*>)//g; s/ and / /')
echo "readguard: cannot build without${missing}: apt-get install${packages}" \
    "(or scripts/dev/install-deps.sh build)" >&2
exit 1
