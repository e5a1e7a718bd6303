#!/usr/bin/env bats
# The journaled tier outside git, for what a tool makes and writes over
# unread each run: setuptools' NAME.egg-info (its PKG-INFO begins with
# "Metadata-Version: "), a directory whose .gitignore a tool wrote to keep
# all of it out of git (a comment, then "*" as the only rule: coverage's
# htmlcov, pytest's cache, Meson's build directory), the wheel pip wheel
# saves (a zip named NAME-VERSION-PYTHON-ABI-PLATFORM.whl), and Sphinx's
# output (an html directory its .buildinfo marks, doctrees that are
# pickles named NAME.doctree), perl Makefile.PL's MYMETA.json and
# MYMETA.yml, perl Build.PL's _build/ (its build_params begins as
# Data::Dumper's code), gcc -MMD's NAME.d (an object's, or the output's it
# is named after), bear's compile_commands.json,
# Go source a generator wrote ("// Code generated ... DO NOT EDIT." first),
# npm pack's NAME-VERSION.tgz and yarn pack's NAME-vVERSION.tgz or
# package.tgz (gzip's magic first), bison's, flex's, SWIG's,
# protoc's, gperf's and xgettext's output (by their own first lines), the
# rejects GNU patch wrote (NAME.rej, its header naming NAME).
# Each test is a second session in a project that is no git work tree.

load helper

setup() {
	outside_git_setup PYTHONDONTWRITEBYTECODE COVERAGE_FILE
}

# blind PATH...: one session overwrites each PATH without reading it.
blind() {
	"$RG" run --log "$LOG" -- bash -c '
		for p in "$@"; do printf "new\n" >"$p"; done' bash "$@"
}

# egg_project: a setuptools project, its egg-info made once without readguard.
egg_project() {
	python3 -c 'import setuptools' 2>/dev/null || skip "python3-setuptools is not installed"
	mkdir -p mylib
	printf 'from setuptools import setup\nsetup(name="mylib", version="0.1", packages=["mylib"])\n' >setup.py
	printf 'X = 1\n' >mylib/__init__.py
	python3 setup.py -q egg_info >/dev/null 2>&1 || fail "setup.py egg_info failed"
	assert_file_exist mylib.egg-info/PKG-INFO mylib.egg-info/dependency_links.txt
}

@test "t1017.01 setup.py egg_info (what pip install . runs) in a second session rewrites NAME.egg-info; undo brings a file back" {
	egg_project
	printf 'kept by hand\n' >>mylib.egg-info/top_level.txt
	run --separate-stderr "$RG" run --log "$LOG" -- python3 setup.py -q egg_info
	assert_success
	refute_refused
	run grep -c 'kept by hand' mylib.egg-info/top_level.txt
	assert_output 0
	run "$RG" undo mylib.egg-info/top_level.txt
	assert_success
	run grep -c 'kept by hand' mylib.egg-info/top_level.txt
	assert_output 1
}

@test "t1017.02 a PKG-INFO beside the sources (an unpacked sdist) unlocks none of them" {
	egg_project
	cp mylib.egg-info/PKG-INFO PKG-INFO
	mkfile mylib.egg-info/data old
	run --separate-stderr blind mylib/__init__.py
	assert_failure
	assert_refused mylib/__init__.py unread
	run --separate-stderr blind mylib.egg-info/data
	assert_success
	refute_refused
}

# htmlcov DIR GITIGNORE: DIR (made) holds index.html and a .gitignore of
# GITIGNORE, by default what coverage html writes.
htmlcov() {
	mkdir -p "$1"
	printf '%s' "${2-# Created by coverage.py
*
}" >"$1/.gitignore"
	mkfile "$1/index.html" old
}

@test "t1017.03 coverage html run again in a second session rewrites htmlcov; undo brings a page back" {
	python3 -m coverage --version >/dev/null 2>&1 || skip "python3-coverage is not installed"
	printf 'print(1)\n' >app.py
	python3 -m coverage run app.py >/dev/null && python3 -m coverage html -q ||
		fail "coverage html failed"
	assert_file_exist htmlcov/.gitignore htmlcov/index.html
	printf '<!-- kept by hand -->\n' >>htmlcov/index.html
	run --separate-stderr "$RG" run --log "$LOG" -- python3 -m coverage html -q
	assert_success
	refute_refused
	run "$RG" undo htmlcov/index.html
	assert_success
	run grep -c 'kept by hand' htmlcov/index.html
	assert_output 1
}

@test "t1017.04 a .gitignore of a bare '*', as a person writes one, unlocks nothing" {
	htmlcov notes '*
'
	run --separate-stderr blind notes/index.html
	assert_failure
	assert_refused notes/index.html unread
}

@test "t1017.05 a tool's .gitignore that takes a name back unlocks nothing" {
	htmlcov out '# Created by a tool
*
!index.html
'
	run --separate-stderr blind out/index.html
	assert_failure
	assert_refused out/index.html unread
}

@test "t1017.06 a tool's .gitignore marks the directories below its own, not the one above" {
	htmlcov out/html
	mkdir -p out/html/sub
	mkfile out/html/sub/page.html old
	mkfile out/top.html old
	run --separate-stderr blind out/html/sub/page.html
	assert_success
	refute_refused
	run --separate-stderr blind out/top.html
	assert_failure
	assert_refused out/top.html unread
}

@test "t1017.07 pip wheel . run again in a second session writes over last time's wheel; undo brings it back" {
	egg_project
	python3 -m pip --version >/dev/null 2>&1 || skip "python3-pip is not installed"
	local whl=mylib-0.1-py3-none-any.whl
	python3 -m pip wheel -q --no-index --no-build-isolation --no-deps . >/dev/null 2>&1 ||
		fail "pip wheel failed"
	assert_file_exist "$whl"
	printf 'kept by hand\n' >>"$whl"
	run --separate-stderr "$RG" run --log "$LOG" -- \
		python3 -m pip wheel -q --no-index --no-build-isolation --no-deps .
	assert_success
	refute_refused
	run grep -c 'kept by hand' "$whl"
	assert_output 0
	run "$RG" undo "$whl"
	assert_success
	run grep -c 'kept by hand' "$whl"
	assert_output 1
}

@test "t1017.08 a file named as a wheel that is no zip stays guarded" {
	mkfile mylib-0.1-py3-none-any.whl 'not a zip'
	run --separate-stderr blind mylib-0.1-py3-none-any.whl
	assert_failure
	assert_refused mylib-0.1-py3-none-any.whl unread
}

@test "t1017.09 sphinx-build -M html run again in a second session rebuilds a changed page and its doctree" {
	need sphinx-build
	mkdir docs
	printf 'project = "p"\n' >docs/conf.py
	printf 'Title\n=====\n\n.. toctree::\n\n   other\n' >docs/index.rst
	printf 'Other\n=====\n\nText.\n' >docs/other.rst
	sphinx-build -M html docs docs/_build -q >/dev/null 2>&1 || fail "sphinx-build failed"
	assert_file_exist docs/_build/html/.buildinfo docs/_build/doctrees/other.doctree
	printf 'More.\n' >>docs/other.rst
	run --separate-stderr "$RG" run --log "$LOG" -- sphinx-build -M html docs docs/_build -q
	assert_success
	refute_refused
	grep -q 'More' docs/_build/html/other.html || fail "other.html was not rebuilt"
}

@test "t1017.10 a file named as a doctree that is no pickle stays guarded" {
	mkfile notes.doctree 'my notes'
	run --separate-stderr blind notes.doctree
	assert_failure
	assert_refused notes.doctree unread
}

# perl_project: a Perl module whose Makefile.PL a first session ran.
perl_project() {
	need perl make
	perl -MExtUtils::MakeMaker -e 1 2>/dev/null || skip "ExtUtils::MakeMaker is not installed"
	mkdir -p lib/Foo
	printf 'use ExtUtils::MakeMaker;\nWriteMakefile(NAME => "Foo", VERSION_FROM => "lib/Foo.pm");\n' >Makefile.PL
	printf 'package Foo;\nour $VERSION = "0.01";\n1;\n' >lib/Foo.pm
	"$RG" run --log "$LOG" -- perl Makefile.PL >/dev/null || fail "the first session's perl Makefile.PL failed"
	assert_file_exist MYMETA.json MYMETA.yml
}

@test "t1017.11 perl Makefile.PL run again in a second session rewrites MYMETA.json and MYMETA.yml; the journal keeps them" {
	perl_project
	run --separate-stderr "$RG" run --log "$LOG" -- perl Makefile.PL
	refute_refused
	assert_success
	run "$RG" history
	assert_output --partial "$W/MYMETA.json"
	assert_output --partial "$W/MYMETA.yml"
}

@test "t1017.12 a MYMETA.json a person wrote is still refused" {
	printf '{"abstract": "mine", "name": "Foo"}\n' >MYMETA.json
	make_old MYMETA.json
	snapshot MYMETA.json
	run --separate-stderr blind MYMETA.json
	assert_failure
	assert_refused MYMETA.json unread
	assert_unchanged MYMETA.json
}

@test "t1017.13 a MYMETA.yml a person wrote is still refused" {
	printf -- '---\nname: Foo\nabstract: mine\n' >MYMETA.yml
	make_old MYMETA.yml
	snapshot MYMETA.yml
	run --separate-stderr blind MYMETA.yml
	assert_failure
	assert_refused MYMETA.yml unread
	assert_unchanged MYMETA.yml
}

@test "t1017.14 gcc -MMD run again in a second session rewrites its dependency file; the journal keeps it" {
	need gcc
	printf 'int main(void)\n{\n    return 0;\n}\n' >main.c
	"$RG" run --log "$LOG" -- gcc -MMD -c main.c || fail "the first session's gcc -MMD failed"
	assert_file_exist main.d
	run --separate-stderr "$RG" run --log "$LOG" -- gcc -MMD -c main.c
	refute_refused
	assert_success
	run "$RG" history
	assert_output --partial "$W/main.d"
}

@test "t1017.15 a D source file is still refused" {
	printf 'module main;\nvoid main() {}\n' >main.d
	make_old main.d
	snapshot main.d
	run --separate-stderr blind main.d
	assert_failure
	assert_refused main.d unread
	assert_unchanged main.d
}

@test "t1017.16 perl Build.PL run again in a second session rewrites its _build/; the journal keeps it" {
	need perl
	perl -MModule::Build -e 1 2>/dev/null || skip "Module::Build is not installed (libmodule-build-perl)"
	mkdir lib
	printf 'use Module::Build;\nModule::Build->new(module_name => "Foo", dist_version => "0.01",\n  dist_abstract => "x", license => "perl")->create_build_script;\n' >Build.PL
	printf 'package Foo;\n1;\n' >lib/Foo.pm
	"$RG" run --log "$LOG" -- perl Build.PL >/dev/null || fail "the first session's perl Build.PL failed"
	assert_file_exist _build/build_params _build/prereqs
	run --separate-stderr "$RG" run --log "$LOG" -- perl Build.PL
	refute_refused
	assert_success
	run "$RG" history
	assert_output --partial "$W/_build/prereqs"
}

@test "t1017.17 a file in a _build/ whose build_params no Module::Build wrote is still refused" {
	mkdir _build
	printf 'verbose = 1\n' >_build/build_params
	printf 'notes\n' >_build/notes
	make_old _build/notes
	snapshot _build/notes
	run --separate-stderr blind _build/notes
	assert_failure
	assert_refused _build/notes unread
	assert_unchanged _build/notes
}

@test "t1017.18 bear run again in a second session rewrites compile_commands.json; the journal keeps it" {
	need gcc
	need make
	need bear
	printf 'int main(void)\n{\n    return 0;\n}\n' >main.c
	printf 'main: main.c\n\tgcc -o main main.c\n' >Makefile
	bear -- make >/dev/null || fail "the first run of bear failed"
	assert_file_exist compile_commands.json
	run --separate-stderr "$RG" run --log "$LOG" -- bear -- make -B
	refute_refused
	assert_success
	run "$RG" history
	assert_output --partial "$W/compile_commands.json"
}

@test "t1017.19 a compile_commands.json that is no compilation database is still refused" {
	printf '{"note": "kept by hand"}\n' >compile_commands.json
	make_old compile_commands.json
	snapshot compile_commands.json
	run --separate-stderr blind compile_commands.json
	assert_failure
	assert_refused compile_commands.json unread
	assert_unchanged compile_commands.json
}

# gen_go: a go:generate generator as a script (protoc or a project's own
# generator; Go's own are seen under --supervise), which writes its output
# whole, over unread, with Go's generated-code line first.
gen_go() {
	printf '%s\n' '#!/bin/sh' \
		'printf "// Code generated by gen.sh. DO NOT EDIT.\n\npackage p\n\nconst N = %s\n" "$1" >n_gen.go' >gen.sh
	chmod +x gen.sh
}

@test "t1017.20 a go generate output regenerated in a second session is rewritten; the journal keeps it" {
	gen_go
	"$RG" run --log "$LOG" -- ./gen.sh 1 || fail "the first session's generator failed"
	second_run './gen.sh 2' n_gen.go
	assert_content n_gen.go "$(printf '// Code generated by gen.sh. DO NOT EDIT.\n\npackage p\n\nconst N = 2')"
}

@test "t1017.21 a .go file a person wrote, the generated-code line below their own, is still refused" {
	printf '// My notes.\n// Code generated by gen.sh. DO NOT EDIT.\npackage p\n' >n_gen.go
	make_old n_gen.go
	snapshot n_gen.go
	run --separate-stderr blind n_gen.go
	assert_failure
	assert_refused n_gen.go unread
	assert_unchanged n_gen.go
}

@test "t1017.22 npm pack run again in a second session writes over last time's tarball; the journal keeps it" {
	need npm
	printf '{"name":"tiny","version":"1.0.0","files":["index.js"]}\n' >package.json
	printf 'module.exports = 1;\n' >index.js
	"$RG" run --log "$LOG" -- npm pack -q --offline >/dev/null 2>&1 || fail "the first session's npm pack failed"
	assert_file_exist tiny-1.0.0.tgz
	printf 'module.exports = 2;\n' >index.js
	second_run 'npm pack -q --offline >/dev/null' tiny-1.0.0.tgz
}

@test "t1017.23 a file named as a release tarball that is not compressed stays guarded" {
	mkfile tiny-1.0.0.tgz 'not gzip'
	run --separate-stderr blind tiny-1.0.0.tgz
	assert_failure
	assert_refused tiny-1.0.0.tgz unread
}

@test "t1017.24 gcc -MMD -o prog, compiled and linked at once, run again in a second session rewrites prog.d" {
	need gcc
	printf 'int main(void)\n{\n    return 0;\n}\n' >prog.c
	"$RG" run --log "$LOG" -- gcc -MMD -o prog prog.c || fail "the first session's gcc -MMD failed"
	assert_file_exist prog.d
	second_run 'gcc -MMD -o prog prog.c' prog.d
}

@test "t1017.25 a NAME.d whose rule names another target is still refused" {
	mkfile prog.d 'other: prog.c'
	run --separate-stderr blind prog.d
	assert_failure
	assert_refused prog.d unread
}

# grammar: a bison grammar and a flex scanner, as a C project keeps them.
grammar() {
	need bison flex
	printf '%s\n' '%{' 'int yylex(void);' 'void yyerror(const char *s) { (void)s; }' '%}' \
		'%token NUM' '%%' 's: NUM ;' '%%' >parse.y
	printf '%s\n' '%option noyywrap' '%%' '[0-9]+ { return 1; }' '%%' >scan.l
}

@test "t1017.26 bison and flex run again in a second session rewrite their parser, header and scanner; the journal keeps them" {
	grammar
	"$RG" run --log "$LOG" -- bash -c 'bison -d parse.y && flex scan.l' ||
		fail "the first session's bison or flex failed"
	assert_file_exist parse.tab.c parse.tab.h lex.yy.c
	sed -i 's/^s: NUM ;$/s: NUM | s NUM ;/' parse.y
	second_run 'bison -d parse.y && flex scan.l' parse.tab.h
	run "$RG" history
	assert_output --partial "$W/lex.yy.c"
}

@test "t1017.27 a C file whose #line names another file is still refused" {
	mkfile scan.c "$(printf '#line 2 "scan.l"\nint x;')"
	run --separate-stderr blind scan.c
	assert_failure
	assert_refused scan.c unread
}

@test "t1017.28 swig run again in a second session rewrites its wrapper and module; the journal keeps them" {
	need swig
	printf '%s\n' '%module example' '%{' 'int fact(int n);' '%}' 'int fact(int n);' >example.i
	"$RG" run --log "$LOG" -- swig -python example.i || fail "the first session's swig failed"
	assert_file_exist example_wrap.c example.py
	printf '%s\n' 'int twice(int n);' >>example.i
	second_run 'swig -python example.i' example_wrap.c
	run "$RG" history
	assert_output --partial "$W/example.py"
}

@test "t1017.29 protoc run again in a second session rewrites its C++ and Python; the journal keeps them" {
	need protoc
	printf '%s\n' 'syntax = "proto3";' 'message M { int32 a = 1; }' >m.proto
	"$RG" run --log "$LOG" -- protoc --cpp_out=. --python_out=. m.proto ||
		fail "the first session's protoc failed"
	assert_file_exist m.pb.cc m.pb.h m_pb2.py
	sed -i 's/a = 1;/a = 1; int32 b = 2;/' m.proto
	second_run 'protoc --cpp_out=. --python_out=. m.proto' m.pb.cc
	run "$RG" history
	assert_output --partial "$W/m_pb2.py"
}

@test "t1017.30 gperf run again in a second session rewrites its hash function; the journal keeps it" {
	need gperf
	printf '%s\n' '%%' 'foo' 'bar' '%%' >kw.gperf
	"$RG" run --log "$LOG" -- gperf --output-file=kw.c kw.gperf || fail "the first session's gperf failed"
	assert_file_exist kw.c
	sed -i 's/^bar$/baz/' kw.gperf
	second_run 'gperf --output-file=kw.c kw.gperf' kw.c
}

@test "t1017.31 xgettext run again in a second session rewrites its template; a translation stays guarded" {
	need xgettext
	printf '%s\n' '#include <libintl.h>' 'const char *s(void) { return gettext("hi"); }' >a.c
	"$RG" run --log "$LOG" -- xgettext -o messages.pot a.c || fail "the first session's xgettext failed"
	assert_file_exist messages.pot
	cp messages.pot de.po
	sed -i 's/"hi"/"ho"/' a.c
	second_run 'xgettext -o messages.pot a.c' messages.pot
	assert_blind_refused de.po
}

# rejects_project: a.txt whose first of two hunks a.diff cannot apply, and
# a first session's patch, which left a.txt.rej (and a.txt.orig) behind.
rejects_project() {
	need patch
	seq 1 40 | sed 's/^/line /' >a.orig-text
	sed 's/^line 5$/line five/; s/^line 35$/line thirty-five/' a.orig-text >a.new-text
	diff -u a.orig-text a.new-text | sed '1s/^--- [^\t]*/--- a.txt/; 2s/^+++ [^\t]*/+++ a.txt/' >a.diff
	sed 's/^line 5$/line FIVE/' a.orig-text >a.txt
	run "$RG" run --log "$LOG" -- patch -i a.diff
	assert_failure 1
	assert_file_exist a.txt.rej a.txt.orig
	sed 's/^line 5$/line FIVE/' a.orig-text >a.txt
}

@test "t1017.32 patch retried in a second session rewrites last time's rejects, so no patch is left half applied" {
	rejects_project
	run --separate-stderr "$RG" run --log "$LOG" -- patch -i a.diff
	refute_refused
	assert_failure 1 # a hunk failed, as it did bare
	run grep -c 'thirty-five' a.txt
	assert_output 1
	run grep -c '^-line 5$' a.txt.rej
	assert_output 1
	run "$RG" history
	assert_success
	assert_output --partial "$W/a.txt.rej"
}

@test "t1017.33 a .rej a person keeps, a diff of another file, is still refused" {
	printf '%s\n' '--- b.txt' '+++ b.txt' '@@ -1 +1 @@' '-old' '+new' >a.txt.rej
	assert_blind_refused a.txt.rej
}

# yarn_pack_project MAJOR: a package yarn packs, yarn on PATH being of
# MAJOR version (1, or 2 for any later); yarn is npm's (Debian's pulls in
# hundreds of packages, so CI skips these). A first session packs it.
yarn_pack_project() {
	command -v yarn >/dev/null || skip "yarn is not installed (npm install yarn)"
	local v
	v=$(cd / && yarn --version 2>/dev/null) || skip "yarn --version failed"
	if [ "$1" = 1 ]; then [ "${v%%.*}" = 1 ] || skip "yarn $v is not yarn 1"; else [ "${v%%.*}" != 1 ] || skip "yarn $v is yarn 1"; fi
	printf '{"name":"tiny","version":"1.0.0","license":"MIT","files":["index.js"]}\n' >package.json
	printf 'module.exports = 1;\n' >index.js
	[ "$1" = 1 ] || : >yarn.lock
	"$RG" run --log "$LOG" -- yarn pack >/dev/null 2>&1 || fail "the first session's yarn pack failed"
	printf 'module.exports = 2;\n' >index.js
}

@test "t1017.34 yarn 1's pack run again in a second session writes over last time's NAME-vVERSION.tgz" {
	yarn_pack_project 1
	assert_file_exist tiny-v1.0.0.tgz
	second_run 'yarn pack >/dev/null' tiny-v1.0.0.tgz
}

@test "t1017.35 yarn 2's pack run again in a second session writes over last time's package.tgz" {
	yarn_pack_project 2
	assert_file_exist package.tgz
	second_run 'yarn pack >/dev/null' package.tgz
}

@test "t1017.36 a package.tgz that is no gzip stays guarded" {
	mkfile package.tgz 'not gzip'
	run --separate-stderr blind package.tgz
	assert_failure
	assert_refused package.tgz unread
}

@test "t1017.37 gcc -save-temps run again in a second session rewrites its .i and .s; the journal keeps them" {
	need gcc
	printf 'int add(int a, int b)\n{\n    return a + b;\n}\n' >add.c
	"$RG" run --log "$LOG" -- gcc -save-temps -c add.c || fail "the first session's gcc -save-temps failed"
	assert_file_exist add.i add.s
	printf 'int sub(int a, int b)\n{\n    return a - b;\n}\n' >>add.c
	second_run 'gcc -save-temps -c add.c' add.i
	assert_output --partial "$W/add.s"
}

@test "t1017.38 a hand-written .s, its .file naming itself, is still refused" {
	mkfile start.s "$(printf '\t.file\t"start.s"\n\t.text')"
	run --separate-stderr blind start.s
	assert_failure
	assert_refused start.s unread
}

@test "t1017.39 git format-patch run again in a second session rewrites its patches; the journal keeps them" {
	need git
	export GIT_CONFIG_NOSYSTEM=1 HOME="$BATS_TEST_TMPDIR/home"
	mkdir -p "$HOME"
	git init -q -b main .
	git config user.name t && git config user.email t@t
	printf 'one\n' >a.txt && git add a.txt && git commit -qm one
	printf 'two\n' >a.txt && git commit -qam two
	"$RG" run --log "$LOG" -- git format-patch -q --cover-letter -1 || fail "the first session's format-patch failed"
	assert_file_exist 0001-two.patch 0000-cover-letter.patch
	git commit -q --amend -m two -m 'Why it changed.'
	second_run 'git format-patch -q --cover-letter -1' 0001-two.patch
	assert_output --partial "$W/0000-cover-letter.patch"
}

@test "t1017.40 a .patch a person keeps, a plain diff, is still refused" {
	mkfile fix.patch "$(printf -- '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+two')"
	run --separate-stderr blind fix.patch
	assert_failure
	assert_refused fix.patch unread
}
