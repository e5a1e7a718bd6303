#!/usr/bin/env bats
# The hooks the shim exports are exactly those shim/preload/hooks.def lists,
# and the shim never calls one of them itself.

load helper

DEF="$TOP/shim/preload/hooks.def"
PIC="$TOP/build/pic"

# listed: "symbol family" for each row of hooks.def.
listed() {
	"${CC:-cc}" -E -P -x c -D'RG_HOOK(family, shape, symbol)=symbol family' "$DEF" | grep .
}

# exported_functions LIB: the functions a shared object exports.
exported_functions() {
	nm -D --defined-only "$1" | awk '$2 ~ /^[TWi]$/ { print $3 }' | sort -u
}

# default_visibility OBJECT...: functions the objects define with default
# visibility, which only a hook may have (-fvisibility=hidden).
default_visibility() {
	readelf -W -s "$@" | awk '$4 == "FUNC" && $5 != "LOCAL" && $6 == "DEFAULT" && $7 != "UND" { print $8 }' |
		sort -u
}

# self_calls OBJECT...: "object symbol" for each reference an object makes to
# a listed hook (a call into the shim's own export, not into libc).
self_calls() {
	local hooks o
	hooks=$(listed | awk '{ print $1 }')
	for o in "$@"; do
		objdump -r "$o" | awk 'NF == 3 { sub(/[-+]0x[0-9a-f]+$/, "", $3); print $3 }' | sort -u |
			grep -Fxf <(printf '%s\n' $hooks) | sed "s|^|${o#"$TOP"/} |"
	done
}

shim_objects() {
	[ -d "$PIC" ] || fail "$PIC not built (run make)"
	find "$PIC" -name '*.o' | sort
}

@test "t0020.01 hooks.def lists each hook once" {
	run bash -c "'${CC:-cc}' -E -P -x c -D'RG_HOOK(f, s, symbol)=symbol' '$DEF' | grep . | sort | uniq -d"
	assert_output ''
}

@test "t0020.02 the shim exports exactly the hooks hooks.def lists" {
	diff <(listed | awk '{ print $1 }' | sort) <(exported_functions "$SHIM") ||
		fail "< listed but not exported, > exported but not listed"
}

@test "t0020.03 each hook is defined by the file of its family, with default visibility" {
	local sym family obj
	while read -r sym family; do
		obj="$PIC/preload/hooks/$family.o"
		[ -f "$obj" ] || fail "$sym: no hooks/$family.c (family '$family')"
		default_visibility "$obj" | grep -qFx "$sym" || fail "$sym is not defined by hooks/$family.c"
	done < <(listed)
}

@test "t0020.04 no object of the shim gives any other function default visibility" {
	local objects
	objects=$(shim_objects)
	# shellcheck disable=SC2086
	diff <(listed | awk '{ print $1 }' | sort) <(default_visibility $objects) ||
		fail "> exported from an object but not listed in hooks.def"
}

@test "t0020.05 the shim never calls one of its own hooks" {
	local objects
	objects=$(shim_objects)
	# shellcheck disable=SC2086
	run self_calls $objects
	assert_success
	assert_output ''
}

# The two checks above on an object that breaks both rules, so they can fail.
@test "t0020.06 the checks catch a hook left out of hooks.def and a call to a hook" {
	cat >"$W/bad.c" <<-'EOF'
		#include <unistd.h>
		__attribute__((visibility("default"))) int not_listed(int fd) { return close(fd); }
	EOF
	"${CC:-cc}" -O2 -fPIC -fvisibility=hidden -c -o "$W/bad.o" "$W/bad.c"
	run default_visibility "$W/bad.o"
	assert_output not_listed
	run self_calls "$W/bad.o"
	assert_output --partial 'bad.o close'
}

# Each symbol version the shim needs from libc is checked by ld.so in every
# process it is loaded into, used or not; these functions were each the only
# import of their version (GLIBC_2.14, 2.17, 2.32 on x86_64), so the shim
# finds them on first use (os/clock.c, os/errname.c) or does without
# (preload/memcpy.c).
@test "t0020.07 the shim imports none of the libc functions that alone cost it a symbol version" {
	run bash -c "nm -D --undefined-only '$SHIM' | awk '{ print \$2 }' | sed 's/@.*//' |
		grep -Fx -e memcpy -e clock_gettime -e strerrorname_np"
	assert_output ''
}

@test "t0020.08 the shim needs no GLIBC_2.34: dlsym, dladdr and pthread_once are bound to their first version" {
	[ "$(uname -m)" = x86_64 ] || skip "the first version is GLIBC_2.2.5 on x86_64 only"
	run bash -c "objdump -p '$SHIM' | sed -n '/Version References/,\$p' | grep -o 'GLIBC_[0-9.]*' | sort -V | tail -1"
	assert_success
	assert_output GLIBC_2.3.2
}

@test "t0020.09 the shim's constant tables hold no pointers: ld.so relocates a handful of words at load" {
	# Each pointer stored in the shim is a relocation that ld.so carries
	# out in every process; a table of 40 strings made 40 of them.
	run bash -c "readelf -rW '$SHIM' | grep -c R_X86_64_RELATIVE"
	[ "$output" -le 8 ] || fail "$output relative relocations"
}

@test "t0020.10 the shim's writable segment has no zero-fill part: ld.so maps no anonymous .bss for it" {
	# A segment larger in memory than in the file makes ld.so map the rest
	# anonymously, one MAP_FIXED mmap more in every process.
	run bash -c "readelf -lW '$SHIM' | awk '\$1 == \"LOAD\" && \$7 ~ /W/ && \$5 != \$6 {print}'"
	assert_success
	assert_output ""
}
