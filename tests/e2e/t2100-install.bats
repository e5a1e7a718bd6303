#!/usr/bin/env bats
# make install / uninstall into a DESTDIR, and the installed readguard.

load helper
load cli_helper

setup() {
	common_setup
	D="$BATS_TEST_TMPDIR/dest"
	P=/usr/local
	make -s -C "$TOP" install DESTDIR="$D" PREFIX="$P" >/dev/null ||
		fail "make install failed"
	MA=$(cc -print-multiarch)
}

@test "t2100.01 make install puts the binary, the shim, the man page and the completion in place" {
	assert_file_executable "$D$P/bin/readguard"
	assert_exist "$D$P/lib/$MA/readguard/libreadguard.so"
	assert_exist "$D$P/share/man/man1/readguard.1"
	assert_exist "$D$P/share/bash-completion/completions/readguard"
	assert_exist "$D$P/share/readguard/claude-code-settings.json"
	assert_file_executable "$D$P/share/readguard/readguard-bwrap"
	assert_file_executable "$D$P/share/readguard/readguard-firejail"
}

@test "t2100.02 the installed readguard finds its shim and guards a command" {
	mkfile a old
	run --separate-stderr "$D$P/bin/readguard" run -- sh -c 'echo new >a'
	assert_failure
	assert_refused a unread
	assert_content a old
}

@test "t2100.03 the installed readguard names the shim through \$LIB in LD_PRELOAD" {
	run --separate-stderr "$D$P/bin/readguard" run -- sh -c 'printf %s "$LD_PRELOAD"'
	assert_success
	assert_output "$D$P/\$LIB/readguard/libreadguard.so"
}

@test "t2100.04 ld.so expands \$LIB in LD_PRELOAD to the multiarch directory" {
	run --separate-stderr env LD_DEBUG=libs \
		LD_PRELOAD="$D$P/\$LIB/readguard/libreadguard.so" /bin/true
	[[ $stderr == *"calling init: $D$P/lib/$MA/readguard/libreadguard.so"* ]] ||
		fail "not loaded: $stderr"
	[[ $stderr != *"cannot be preloaded"* ]] || fail "$stderr"
}

@test "t2100.05 readguard env from the install prints the \$LIB path" {
	export READGUARD_DIR="$BATS_TEST_TMPDIR"
	run --separate-stderr "$D$P/bin/readguard" env --pid $$
	assert_success
	assert_line --index 0 "export LD_PRELOAD='$D$P/\$LIB/readguard/libreadguard.so';"
}

@test "t2100.06 the build tree's readguard still uses the shim next to it" {
	run --separate-stderr "$RG" run -- sh -c 'printf %s "$LD_PRELOAD"'
	assert_output "$SHIM"
}

@test "t2100.07 make uninstall removes every installed file" {
	make -s -C "$TOP" uninstall DESTDIR="$D" PREFIX="$P" >/dev/null
	assert_not_exist "$D$P/bin/readguard"
	assert_not_exist "$D$P/lib/$MA/readguard"
	assert_not_exist "$D$P/share/man/man1/readguard.1"
	assert_not_exist "$D$P/share/bash-completion/completions/readguard"
	assert_not_exist "$D$P/share/readguard"
}

@test "t2100.08 the installed man page renders with man -l" {
	run --separate-stderr env MANWIDTH=80 man -l "$D$P/share/man/man1/readguard.1"
	assert_success
	assert_output --partial "readguard - refuse writes to files a process tree has not read"
}
