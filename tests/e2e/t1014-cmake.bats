#!/usr/bin/env bats
# The journaled tier outside git: a CMake build tree, the directory whose
# regular CMakeCache.txt begins with the line cmake writes first, is
# journaled from its top down, as a CACHEDIR.TAG's directory is (t1011),
# whatever the tree is called (_build, cmake-build-debug, out: build/ is a
# default ignore rule already). A cache beside a CMakeLists.txt (an
# in-source build) marks nothing; its install_manifest.txt is journaled
# beside cmake's cmake_install.cmake. Each test runs in a project that is no
# git work tree; the tools are Debian's (scripts/dev/install-deps.sh test
# installs them), and a test whose tool is missing is skipped.

load helper

setup() {
	outside_git_setup MAKEFLAGS CMAKE_GENERATOR
	LOG="$OUT/readguard.log"
	need cmake cc
	printf '%s\n' 'cmake_minimum_required(VERSION 3.10)' 'project(demo C)' \
		'add_executable(demo main.c)' >CMakeLists.txt
	printf 'int main(void) { return 0; }\n' >main.c
}

# configure_and_build DIR: one session configures the project into DIR and
# builds it there, as a user's first session did.
configure_and_build() {
	"$RG" run --log "$LOG" -- bash -c 'cmake -S . -B "$1" >/dev/null && cmake --build "$1" >/dev/null' bash "$1"
}

@test "t1014.01 cmake configures and builds again into _build in a second session; the journal keeps what it rewrote" {
	configure_and_build _build
	make_old main.c
	run --separate-stderr "$RG" run --log "$LOG" -- bash -c 'cmake -S . -B _build && cmake --build _build'
	refute_refused
	assert_success
	run "$RG" history
	assert_success
	assert_output --partial "$W/_build/CMakeFiles/cmake.check_cache"
}

@test "t1014.02 a blind write to a source beside the build tree is still refused" {
	configure_and_build _build
	snapshot main.c
	run --separate-stderr "$RG" run --log "$LOG" -- bash -c 'echo blind >main.c'
	assert_failure
	assert_refused main.c unread
	assert_unchanged main.c
}

@test "t1014.03 an in-source build's CMakeCache.txt beside CMakeLists.txt unlocks no source" {
	configure_and_build .
	[ -f CMakeCache.txt ] || fail "cmake wrote no CMakeCache.txt in the source directory"
	snapshot main.c
	run --separate-stderr "$RG" run --log "$LOG" -- bash -c 'echo blind >main.c'
	assert_failure
	assert_refused main.c unread
	assert_unchanged main.c
}

@test "t1014.04 a CMakeCache.txt without cmake's first line unlocks nothing" {
	mkdir _build
	printf '# CMakeCache.txt, by hand\n' >_build/CMakeCache.txt
	mkfile _build/notes old
	snapshot _build/notes
	run --separate-stderr "$RG" run --log "$LOG" -- bash -c 'echo blind >_build/notes'
	assert_failure
	assert_refused _build/notes unread
	assert_unchanged _build/notes
}

@test "t1014.05 a symbolic link named CMakeCache.txt to a real cache unlocks nothing" {
	configure_and_build _build
	mkdir other
	ln -s ../_build/CMakeCache.txt other/CMakeCache.txt
	mkfile other/notes old
	snapshot other/notes
	run --separate-stderr "$RG" run --log "$LOG" -- bash -c 'echo blind >other/notes'
	assert_failure
	assert_refused other/notes unread
	assert_unchanged other/notes
}

@test "t1014.06 cmake reconfigures an in-source build in a second session; the journal keeps what it rewrote" {
	printf '%s\n' 'enable_testing()' 'add_test(NAME one COMMAND demo)' >>CMakeLists.txt
	configure_and_build .
	printf '%s\n' 'add_test(NAME two COMMAND demo)' >>CMakeLists.txt
	run --separate-stderr "$RG" run --log "$LOG" -- bash -c 'cmake . && cmake --build .'
	refute_refused
	assert_success
	assert_file_contains CTestTestfile.cmake 'add_test(two '
	run "$RG" history
	assert_success
	assert_output --partial "$W/CMakeFiles/cmake.check_cache"
	assert_output --partial "$W/CTestTestfile.cmake"
}

@test "t1014.07 ctest in an in-source build rewrites its Testing/Temporary logs in a second session" {
	need ctest
	printf '%s\n' 'enable_testing()' 'add_test(NAME one COMMAND demo)' >>CMakeLists.txt
	configure_and_build .
	ctest -Q
	assert_file_exist Testing/Temporary/LastTest.log
	run --separate-stderr "$RG" run --log "$LOG" -- ctest -Q
	refute_refused
	assert_success
}

@test "t1014.08 a CMakeFiles directory beside no cmake cache stays guarded" {
	mkdir CMakeFiles
	mkfile CMakeFiles/notes old
	snapshot CMakeFiles/notes
	run --separate-stderr "$RG" run --log "$LOG" -- bash -c 'echo blind >CMakeFiles/notes'
	assert_failure
	assert_refused CMakeFiles/notes unread
	assert_unchanged CMakeFiles/notes
}

@test "t1014.09 cmake regenerates a subdirectory of an in-source build in a second session" {
	mkdir sub
	mv main.c sub/
	printf '%s\n' 'cmake_minimum_required(VERSION 3.10)' 'project(demo C)' 'add_subdirectory(sub)' >CMakeLists.txt
	printf '%s\n' 'add_executable(demo main.c)' >sub/CMakeLists.txt
	configure_and_build .
	printf '%s\n' 'add_executable(demo2 main.c)' >>sub/CMakeLists.txt
	run --separate-stderr "$RG" run --log "$LOG" -- bash -c 'cmake . && cmake --build .'
	refute_refused
	assert_success
	assert_file_exist sub/demo2
}

@test "t1014.10 cmake regenerates an in-source Ninja build in a second session" {
	need ninja
	"$RG" run --log "$LOG" -- bash -c 'cmake -G Ninja . >/dev/null && ninja >/dev/null'
	printf '%s\n' 'add_executable(demo2 main.c)' >>CMakeLists.txt
	run --separate-stderr "$RG" run --log "$LOG" -- bash -c 'cmake . && ninja'
	refute_refused
	assert_success
	assert_file_contains build.ninja 'demo2'
}

@test "t1014.11 make install in an in-source build rewrites install_manifest.txt in a second session; the journal keeps it" {
	printf '%s\n' 'install(TARGETS demo DESTINATION bin)' >>CMakeLists.txt
	configure_and_build .
	"$RG" run --log "$LOG" -- make -s install DESTDIR="$W/stage" >/dev/null ||
		fail "the first session's make install failed"
	assert_file_exist install_manifest.txt
	second_run 'make -s install DESTDIR="$PWD/stage" >/dev/null' install_manifest.txt
}

@test "t1014.12 an install_manifest.txt beside no cmake_install.cmake of cmake's stays guarded" {
	mkfile install_manifest.txt /usr/local/bin/demo
	printf 'message(hi)\n' >cmake_install.cmake
	snapshot install_manifest.txt
	run --separate-stderr "$RG" run --log "$LOG" -- bash -c 'echo blind >install_manifest.txt'
	assert_failure
	assert_refused install_manifest.txt unread
	assert_unchanged install_manifest.txt
}
