#!/usr/bin/env bats
# make deb: the Debian package, checked by lintian, installed with dpkg -i
# into a scratch root, used as the README's Quick start says, and removed
# with dpkg -r without a trace.

load helper
load cli_helper

setup_file() {
	command -v dpkg-deb >/dev/null || skip "dpkg-deb is not installed"
	DEB=$(make -s -C "$TOP" deb | tail -n 1)
	export DEB
}

setup() {
	common_setup
	[ -f "${DEB:-}" ] || fail "make deb built no package: ${DEB:-}"
	R="$BATS_TEST_TMPDIR/root"
	mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates"
	: >"$R/var/lib/dpkg/status"
}

# rdpkg ARG...: dpkg on the scratch root, whose libc is the system's own.
rdpkg() {
	dpkg --root="$R" --force-depends --log=/dev/null "$@"
}

@test "t2140.01 the package holds the binary, the shim under \$LIB, the man page, completion and integrations" {
	run dpkg-deb -c "$DEB"
	assert_success
	local ma
	ma=$(cc -print-multiarch)
	for f in ./usr/bin/readguard "./usr/lib/$ma/readguard/libreadguard.so" \
		./usr/share/man/man1/readguard.1.gz ./usr/share/bash-completion/completions/readguard \
		./usr/share/readguard/claude-code-settings.json ./usr/share/readguard/readguard-bwrap \
		./usr/share/readguard/readguard-firejail ./usr/share/doc/readguard/copyright; do
		assert_line --partial " $f"
	done
	run dpkg-deb -f "$DEB" Package Architecture Depends
	assert_line "Package: readguard"
	assert_line "Architecture: $(dpkg --print-architecture)"
}

@test "t2140.02 lintian finds no error and no warning in the package" {
	command -v lintian >/dev/null || skip "lintian is not installed (scripts/dev/install-deps.sh test)"
	run --separate-stderr lintian --fail-on error,warning "$DEB"
	assert_success
	refute_output --regexp '^[EW]: '
}

@test "t2140.03 the installed copy runs the README's Quick start" {
	rdpkg -i "$DEB" >/dev/null 2>&1 || fail "dpkg -i failed: $(rdpkg -i "$DEB" 2>&1)"
	mkfile notes.txt original
	run --separate-stderr "$R/usr/bin/readguard" run -- bash -c '
		echo new > notes.txt && exit 7
		cat notes.txt > /dev/null
		echo new > notes.txt'
	assert_success
	assert_refused notes.txt unread
	assert_content notes.txt new
	run "$R/usr/bin/readguard" run -- sh -c 'printf %s "$LD_PRELOAD"'
	assert_output "$R/usr/\$LIB/readguard/libreadguard.so"
}

@test "t2140.04 dpkg -r removes every file and directory the package installed" {
	rdpkg -i "$DEB" >/dev/null 2>&1 || fail "dpkg -i failed"
	[ -x "$R/usr/bin/readguard" ] || fail "not installed"
	rdpkg -r readguard >/dev/null 2>&1 || fail "dpkg -r failed: $(rdpkg -r readguard 2>&1)"
	run find "$R" -mindepth 1 -not -path "$R/var" -not -path "$R/var/lib" -not -path "$R/var/lib/dpkg*"
	assert_success
	assert_output ""
	run dpkg-query --admindir="$R/var/lib/dpkg" -W -f='${Status}' readguard
	refute_output --partial "installed"
}
