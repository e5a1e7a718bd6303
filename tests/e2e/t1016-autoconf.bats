#!/usr/bin/env bats
# A second session in an autoconf project that is no git work tree (a
# release tarball, a project never put in git): what autoreconf and
# ./configure rewrite in place, unread, each time they run must not be
# refused, while the project's own sources stay guarded.
#
# The tools are Debian's (scripts/dev/install-deps.sh test installs them);
# a test whose tool is missing is skipped, never passed.

load helper

setup() {
	outside_git_setup MAKEFLAGS CONFIG_SITE
	LOG="$OUT/readguard.log"
}

# A small autoconf project with a config header, bootstrapped once by
# autoreconf in a first session.
autoconf_project() {
	need autoreconf aclocal autoheader cc make
	printf '%s\n' 'AC_INIT([demo], [1.0])' 'AC_CONFIG_HEADERS([config.h])' 'AC_PROG_CC' \
		'AC_CHECK_HEADERS([unistd.h])' 'AC_CONFIG_FILES([Makefile])' 'AC_OUTPUT' >configure.ac
	printf '%s\n' 'CC = @CC@' 'demo: main.c config.h' '	$(CC) -o $@ main.c' >Makefile.in
	printf '#include "config.h"\nint main(void) { return 0; }\n' >main.c
	"$RG" run --log "$LOG" -- autoreconf -i 2>/dev/null || fail "autoreconf failed"
	[ -f autom4te.cache/requests ] || fail "autoreconf left no autom4te.cache/requests"
}

# automake_project [MACRO]: autoconf_project's, made an automake project
# (calling MACRO too: LT_INIT) and configured in a first session.
automake_project() {
	autoconf_project
	sed -i "s/^AC_INIT(\\[demo\\], \\[1.0\\])\$/&\\nAM_INIT_AUTOMAKE([foreign])${1:+\\n$1}/" configure.ac
	printf '%s\n' 'bin_PROGRAMS = demo' 'demo_SOURCES = main.c' >Makefile.am
	rm Makefile.in
	"$RG" run --log "$LOG" -- bash -c 'autoreconf -fi && ./configure -q' >/dev/null 2>&1 ||
		fail "the first session could not configure the automake project"
}

@test "t1016.01 autoreconf run again in a second session rewrites its autom4te.cache" {
	autoconf_project
	run --separate-stderr "$RG" run --log "$LOG" -- autoreconf -i
	refute_refused
	assert_success
}

@test "t1016.02 a blind write to configure.ac beside autom4te.cache is still refused" {
	autoconf_project
	snapshot configure.ac
	run --separate-stderr "$RG" run --log "$LOG" -- bash -c 'echo "AC_INIT" >configure.ac'
	assert_failure
	assert_refused configure.ac unread
	assert_unchanged configure.ac
}

# configure_once: a first session configures the project and builds it.
configure_once() {
	autoconf_project
	"$RG" run --log "$LOG" -- bash -c './configure -q && make -s' || fail "the first session's build failed"
}

@test "t1016.03 ./configure run again in a second session rewrites config.log and config.status; the journal keeps them" {
	configure_once
	run --separate-stderr "$RG" run --log "$LOG" -- bash -c './configure -q && make -s'
	refute_refused
	assert_success
	run "$RG" history
	assert_success
	assert_output --partial "$W/config.log"
	assert_output --partial "$W/config.status"
}

@test "t1016.04 a config.log configure did not write is still refused" {
	configure_once
	mkfile config.log 'notes kept by hand'
	snapshot config.log
	run --separate-stderr "$RG" run --log "$LOG" -- bash -c 'echo blind >config.log'
	assert_failure
	assert_refused config.log unread
	assert_unchanged config.log
}

@test "t1016.05 a blind write to a source beside configure's outputs is still refused" {
	configure_once
	snapshot main.c
	run --separate-stderr "$RG" run --log "$LOG" -- bash -c 'echo blind >main.c'
	assert_failure
	assert_refused main.c unread
	assert_unchanged main.c
}

@test "t1016.06 autoreconf -fi run again in a second session moves configure and config.h.in onto last time's backups" {
	autoconf_project
	"$RG" run --log "$LOG" -- autoreconf -fi 2>/dev/null || fail "the first autoreconf -fi failed"
	[ -f configure~ ] && [ -f config.h.in~ ] || fail "autoreconf -fi left no backups"
	run --separate-stderr "$RG" run --log "$LOG" -- autoreconf -fi
	refute_refused
	assert_success
}

@test "t1016.07 a hand-written configure script is still refused" {
	printf '#!/bin/sh\n# configure: written by hand, as many projects without autoconf do\n' >configure
	make_old configure
	snapshot configure
	run --separate-stderr "$RG" run --log "$LOG" -- bash -c 'echo blind >configure'
	assert_failure
	assert_refused configure unread
	assert_unchanged configure
}

@test "t1016.08 ./configure of an automake project run again rewrites its stamp-h1" {
	need automake
	automake_project
	[ -f stamp-h1 ] || fail "configure left no stamp-h1"
	run --separate-stderr "$RG" run --log "$LOG" -- bash -c './configure -q && make -s'
	refute_refused
	assert_success
}

@test "t1016.09 ./configure of a libtool project run again moves libtoolT onto last time's libtool; the journal keeps it" {
	need automake libtoolize
	automake_project LT_INIT
	[ -f libtool ] || fail "configure left no libtool"
	run --separate-stderr "$RG" run --log "$LOG" -- ./configure -q
	refute_refused
	assert_success
	run "$RG" history
	assert_success
	assert_output --partial "$W/libtool"
}

@test "t1016.10 a libtool script configure did not write is still refused" {
	printf '#!/bin/sh\n# libtool: a wrapper kept by hand\nexec /usr/bin/libtool "$@"\n' >libtool
	make_old libtool
	snapshot libtool
	run --separate-stderr "$RG" run --log "$LOG" -- bash -c 'echo blind >libtool'
	assert_failure
	assert_refused libtool unread
	assert_unchanged libtool
}

@test "t1016.11 make dist run again in a second session writes over last time's tarball; the journal keeps it" {
	need automake
	automake_project
	"$RG" run --log "$LOG" -- make -s dist >/dev/null 2>&1 || fail "the first session's make dist failed"
	assert_file_exist demo-1.0.tar.gz
	echo '/* 2 */' >>main.c
	second_run 'make -s dist >/dev/null' demo-1.0.tar.gz
}
