#!/usr/bin/env bats
# readguard doctor: what the preload cannot reach.

load helper

# fake_section NAME OUT: a copy of /bin/true carrying an extra ELF section.
fake_section() {
	printf 'fixture' >blob
	objcopy --add-section "$1=blob" --set-section-flags "$1=noload,readonly" /bin/true "$2" ||
		skip "objcopy cannot add sections here"
}

@test "t2080.01 doctor of an ordinary dynamic program finds nothing and exits 0" {
	run --separate-stderr "$RG" doctor true
	assert_success
	assert_output --partial "a dynamically linked 64-bit glibc program: the preload can guard it ($SHIM)."
}

@test "t2080.02 doctor finds a static program and suggests --supervise" {
	[ -e /usr/lib/x86_64-linux-gnu/libc.a ] || skip "no static libc (libc6-dev)"
	printf 'int main(void){return 0;}\n' >s.c
	cc -static -o static s.c || skip "cannot link statically"
	run --separate-stderr "$RG" doctor ./static
	assert_equal "$status" 1
	assert_output --partial "./static: statically linked (no ELF interpreter)"
	assert_output --partial "readguard run --supervise"
}

@test "t2080.03 doctor finds a setuid program" {
	cp /bin/true suid
	chmod u+s suid
	run --separate-stderr "$RG" doctor ./suid
	assert_equal "$status" 1
	assert_output --partial "./suid: setuid: the dynamic linker ignores LD_PRELOAD"
}

@test "t2080.04 doctor finds a setgid program" {
	cp /bin/true sgid
	chmod g+s sgid
	run --separate-stderr "$RG" doctor ./sgid
	assert_equal "$status" 1
	assert_output --partial "./sgid: setgid"
}

@test "t2080.05 doctor finds a 32-bit program and names the \$LIB install path" {
	"$PY3" -c '
import struct, sys
h = b"\x7fELF" + bytes([1, 1, 1]) + bytes(9)
h += struct.pack("<HHIIIIIHHHHHH", 2, 3, 1, 0, 0, 0, 0, 52, 0, 0, 0, 0, 0)
open(sys.argv[1], "wb").write(h)' elf32
	chmod +x elf32
	run --separate-stderr "$RG" doctor ./elf32
	assert_equal "$status" 1
	assert_output --partial "./elf32: a 32-bit program"
	assert_output --partial "lib/i386-linux-gnu/readguard/"
}

@test "t2080.06 doctor finds a Go program by its .go.buildinfo section" {
	fake_section .go.buildinfo gofake
	run --separate-stderr "$RG" doctor ./gofake
	assert_equal "$status" 1
	assert_output --partial "./gofake: a Go program"
}

@test "t2080.07 doctor finds a Bun executable by its .bun section" {
	fake_section .bun bunfake
	run --separate-stderr "$RG" doctor ./bunfake
	assert_equal "$status" 1
	assert_output --partial "./bunfake: a Bun executable"
}

@test "t2080.20 doctor's Bun finding points to the man page's INTEGRATIONS, which is installed" {
	fake_section .bun bunfake
	run --separate-stderr "$RG" doctor ./bunfake
	assert_output --partial "use its hooks: see INTEGRATIONS in readguard(1)"
}

@test "t2080.08 doctor finds a program that imports io_uring" {
	printf 'int io_uring_queue_init(unsigned e, void *r, unsigned f){return 0;}\n' >uring.c
	cc -shared -fPIC -Wl,-soname,liburing.so.2 -o liburing.so uring.c
	printf 'int io_uring_queue_init(unsigned, void *, unsigned);\nint main(void){return io_uring_queue_init(8, 0, 0);}\n' >user.c
	cc -o user user.c -L. -luring
	run --separate-stderr "$RG" doctor ./user
	assert_equal "$status" 1
	assert_output --partial "./user: uses io_uring"
}

# uv_user: a program that imports uv_loop_init from a stub libuv.so.1.
uv_user() {
	printf 'int uv_loop_init(void *l){return 0;}\n' >uv.c
	cc -shared -fPIC -Wl,-soname,libuv.so.1 -o libuv.so uv.c
	printf 'int uv_loop_init(void *);\nint main(void){return uv_loop_init(0);}\n' >uvuser.c
	cc -o uvuser uvuser.c -L. -luv
}

@test "t2080.15 doctor flags a libuv program when UV_USE_IO_URING is set" {
	uv_user
	UV_USE_IO_URING=1 run --separate-stderr "$RG" doctor ./uvuser
	assert_equal "$status" 1
	assert_output --partial "./uvuser: uses libuv, and UV_USE_IO_URING is set"
}

@test "t2080.16 doctor lets a libuv program pass when UV_USE_IO_URING is unset or 0" {
	uv_user
	env -u UV_USE_IO_URING "$RG" doctor ./uvuser
	UV_USE_IO_URING=0 run --separate-stderr "$RG" doctor ./uvuser
	assert_success
	assert_output --partial "the preload can guard it"
}

@test "t2080.09 doctor follows a script to its interpreter through env" {
	printf '#!/usr/bin/env -S bash -e\necho hi\n' >script
	chmod +x script
	run --separate-stderr "$RG" doctor ./script
	assert_success
	assert_line --index 0 "./script: a script run by bash"
	assert_line --index 1 --partial "bash: a dynamically linked 64-bit glibc program"
}

@test "t2080.17 doctor says it cannot tell what a script like node_modules/.bin/tsc runs" {
	mkdir -p node_modules/.bin
	printf '#!/usr/bin/env sh\nexec "$(dirname "$0")/native" "$@"\n' >node_modules/.bin/tsc
	chmod +x node_modules/.bin/tsc
	run --separate-stderr "$RG" doctor node_modules/.bin/tsc
	assert_success
	assert_line --index 0 "node_modules/.bin/tsc: a script run by sh"
	assert_line --partial "node_modules/.bin/tsc: cannot tell whether what it runs can be guarded"
	refute_line --partial "node_modules/.bin/tsc: a dynamically linked"
}

@test "t2080.18 doctor names a musl program and the musl shim that guards it" {
	command -v musl-gcc >/dev/null || skip "musl-gcc (Debian musl-tools) is not installed"
	[ -f "$TOP/build/musl/libreadguard.so" ] || skip "no musl build of the shim (make musl)"
	printf 'int main(void) { return 0; }\n' >m.c
	musl-gcc -o m m.c
	run --separate-stderr "$RG" doctor ./m
	assert_success
	assert_output "./m: a dynamically linked 64-bit musl program: the preload can guard it ($TOP/build/musl/libreadguard.so)."
}

@test "t2080.19 doctor finds a musl program when no musl shim is installed" {
	command -v musl-gcc >/dev/null || skip "musl-gcc (Debian musl-tools) is not installed"
	printf 'int main(void) { return 0; }\n' >m.c
	musl-gcc -o m m.c
	mkdir bin
	cp "$RG" "$SHIM" bin/
	run --separate-stderr bin/readguard doctor ./m
	assert_failure 1
	assert_output --partial "./m: a musl program, and no musl build of the shim is installed; build and install it ('make musl', then 'make install'), or use 'readguard run --supervise'."
}

@test "t2080.10 doctor of a command not on PATH exits 2" {
	run --separate-stderr "$RG" doctor no-such-command-rg
	assert_equal "$status" 2
	[[ $stderr == *"'no-such-command-rg': not found on PATH"* ]] || fail "$stderr"
}

@test "t2080.11 doctor of a directory exits 2" {
	mkdir d
	run --separate-stderr "$RG" doctor ./d
	assert_equal "$status" 2
	[[ $stderr == *"not a regular file"* ]] || fail "$stderr"
}

@test "t2080.21 doctor passes over a directory on PATH named as the command, as execvp does" {
	mkdir -p dirs/tool progs
	cp /bin/true progs/tool
	PATH="$PWD/dirs:$PWD/progs:$PATH" run --separate-stderr "$RG" doctor tool
	assert_success
	assert_output --partial "$PWD/progs/tool: a dynamically linked"
}

@test "t2080.12 doctor of a truncated ELF file does not crash" {
	head -c 100 /bin/true >trunc
	run --separate-stderr "$RG" doctor ./trunc
	[ "$status" -le 1 ] || fail "status $status: $stderr"
}

@test "t2080.13 doctor with no command checks readguard itself" {
	run --separate-stderr "$RG" doctor
	assert_success
	assert_line "shim: $SHIM"
}

@test "t2080.14 doctor with two commands exits 2" {
	run --separate-stderr "$RG" doctor true false
	assert_equal "$status" 2
}
