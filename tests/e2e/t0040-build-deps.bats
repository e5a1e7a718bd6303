#!/usr/bin/env bats
# A build on a machine without the -dev packages says, in one line, what is
# missing and how to install it (scripts/dev/check-build-deps.sh).

load helper

CHECK="$TOP/scripts/dev/check-build-deps.sh"

# A compiler that finds only the headers in $W/include (-nostdinc).
hide_headers() {
	mkdir -p "$W/include"
	CC="${CC:-cc} -nostdinc -isystem $W/include"
}

@test "t0040.01 make without libbsd-dev and uthash-dev names both, and no compiler error" {
	hide_headers
	run make -C "$TOP" --no-print-directory B="$W/build" CC="$CC" all
	assert_failure
	assert_line 'readguard: cannot build without libbsd-dev (<bsd/stdlib.h>) and uthash-dev (<uthash.h>): apt-get install libbsd-dev uthash-dev (or scripts/dev/install-deps.sh build)'
	refute_output --partial 'error:'
	assert [ ! -e "$W/build/readguard" ]
}

@test "t0040.02 with uthash.h there, only libbsd-dev is named" {
	hide_headers
	: >"$W/include/uthash.h"
	CC="$CC" run "$CHECK"
	assert_failure
	assert_output 'readguard: cannot build without libbsd-dev (<bsd/stdlib.h>): apt-get install libbsd-dev (or scripts/dev/install-deps.sh build)'
}

@test "t0040.03 with bsd/stdlib.h there, only uthash-dev is named" {
	hide_headers
	mkdir "$W/include/bsd"
	: >"$W/include/bsd/stdlib.h"
	CC="$CC" run "$CHECK"
	assert_failure
	assert_output 'readguard: cannot build without uthash-dev (<uthash.h>): apt-get install uthash-dev (or scripts/dev/install-deps.sh build)'
}

@test "t0040.04 without a compiler, the check says so" {
	CC="$W/no-such-cc" run "$CHECK"
	assert_failure
	assert_output "readguard: cannot build: no C compiler '$W/no-such-cc'; install one with: apt-get install gcc"
}

@test "t0040.05 with both headers there, the check passes silently" {
	run "$CHECK"
	assert_success
	assert_output ''
}
