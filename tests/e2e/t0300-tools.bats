#!/usr/bin/env bats
# Real tools in a session: shells, coreutils, sed, perl, python3, node.
# Each refusal checks the exit status, the readguard line and that the file
# is unchanged; each allowed write checks the new content.

load helper

need_node() {
	command -v node >/dev/null || skip "node not installed"
}

# --- shells --------------------------------------------------------------

@test "t0300.01 bash '>' onto an unread file is refused" {
	mkfile f original
	snapshot f
	run --separate-stderr rg bash -c 'echo new >f'
	assert_failure
	assert_refused f unread
	assert_unchanged f
}

@test "t0300.02 bash '>' is allowed after cat" {
	mkfile f original
	run --separate-stderr rg bash -c 'cat f >/dev/null; echo new >f'
	assert_success
	refute_refused
	assert_content f new
}

@test "t0300.03 bash '>>' onto an unread file is refused" {
	mkfile f original
	snapshot f
	run --separate-stderr rg bash -c 'echo new >>f'
	assert_failure
	assert_refused f unread
	assert_unchanged f
}

@test "t0300.04 bash '>>' is allowed after cat" {
	mkfile f original
	run --separate-stderr rg bash -c 'cat f >/dev/null; echo new >>f'
	assert_success
	refute_refused
	assert_content f $'original\nnew'
}

@test "t0300.05 bash '<>' (read-write redirection) onto an unread file is refused" {
	mkfile f original
	snapshot f
	run --separate-stderr rg bash -c 'echo X 1<>f'
	assert_failure
	assert_refused f unread
	assert_unchanged f
}

@test "t0300.06 dash '>' onto an unread file is refused, and allowed after cat" {
	command -v dash >/dev/null || skip "dash not installed"
	mkfile f original
	snapshot f
	run --separate-stderr rg dash -c 'echo new >f'
	assert_failure
	assert_refused f unread
	assert_unchanged f
	run --separate-stderr rg dash -c 'cat f >/dev/null; echo new >f'
	assert_success
	refute_refused
	assert_content f new
}

@test "t0300.07 bash 'set -o noclobber' on an existing file still fails without a refusal" {
	mkfile f original
	snapshot f
	run --separate-stderr rg bash -c 'set -o noclobber; echo new >f'
	assert_failure
	refute_refused
	assert_unchanged f
}

# --- coreutils --------------------------------------------------------------

@test "t0300.08 cp onto an unread file is refused; source and target intact" {
	mkfile f original
	mkfile src replacement
	snapshot f src
	run --separate-stderr rg cp src f
	assert_failure
	assert_refused f unread
	assert_unchanged f src
}

@test "t0300.09 cp onto a file is allowed after reading it" {
	mkfile f original
	mkfile src replacement
	run --separate-stderr rg bash -c 'cat f >/dev/null && cp src f'
	assert_success
	refute_refused
	assert_content f replacement
}

@test "t0300.10 cp to a new file is allowed" {
	mkfile src content
	run --separate-stderr rg cp src dst
	assert_success
	refute_refused
	assert_content dst content
}

@test "t0300.11 mv onto an unread file is refused; both files intact" {
	mkfile f original
	mkfile src replacement
	snapshot f src
	run --separate-stderr rg mv src f
	assert_failure
	assert_refused f unread
	assert_unchanged f src
}

@test "t0300.12 mv onto a file is allowed after reading it" {
	mkfile f original
	mkfile src replacement
	run --separate-stderr rg bash -c 'cat f >/dev/null && mv src f'
	assert_success
	refute_refused
	assert_not_exist src
	assert_content f replacement
}

@test "t0300.13 mv -f onto an unread file is refused too" {
	mkfile f original
	mkfile src replacement
	snapshot f src
	run --separate-stderr rg mv -f src f
	assert_failure
	assert_refused f unread
	assert_unchanged f src
}

@test "t0300.14 tee onto an unread file is refused" {
	mkfile f original
	snapshot f
	run --separate-stderr rg bash -c 'echo new | tee f'
	assert_failure
	assert_refused f unread
	assert_unchanged f
}

@test "t0300.15 tee -a is allowed after reading the file" {
	mkfile f original
	run --separate-stderr rg bash -c 'cat f >/dev/null && echo new | tee -a f >/dev/null'
	assert_success
	refute_refused
	assert_content f $'original\nnew'
}

@test "t0300.16 dd of= onto an unread file is refused" {
	mkfile f original
	snapshot f
	run --separate-stderr rg bash -c 'echo new | dd of=f status=none'
	assert_failure
	assert_refused f unread
	assert_unchanged f
}

@test "t0300.17 dd of= is allowed after reading the file" {
	mkfile f original
	run --separate-stderr rg bash -c 'cat f >/dev/null && echo new | dd of=f status=none'
	assert_success
	refute_refused
	assert_content f new
}

@test "t0300.18 truncate -s of an unread file is refused" {
	mkfile f original
	snapshot f
	run --separate-stderr rg truncate -s 0 f
	assert_failure
	assert_refused f unread
	assert_unchanged f
}

@test "t0300.19 truncate -s is allowed after reading the file" {
	mkfile f original
	run --separate-stderr rg bash -c 'cat f >/dev/null && truncate -s 4 f'
	assert_success
	refute_refused
	assert_content f orig
}

@test "t0300.20 head reading part of a file counts as a read" {
	mkfile f $'line1\nline2\nline3'
	run --separate-stderr rg bash -c 'head -n1 f >/dev/null && echo new >f'
	assert_success
	refute_refused
	assert_content f new
}

# --- sed ----------------------------------------------------------------

@test "t0300.21 sed 'w FILE' onto an unread file is refused" {
	mkfile f original
	mkfile src 'from src'
	snapshot f
	run --separate-stderr rg sed -n 'w f' src
	assert_failure
	assert_refused f unread
	assert_unchanged f
}

@test "t0300.22 sed output redirected onto an unread file is refused" {
	mkfile f original
	mkfile src 'from src'
	snapshot f
	run --separate-stderr rg bash -c 'sed s/src/sed/ src >f'
	assert_failure
	assert_refused f unread
	assert_unchanged f
}

@test "t0300.23 sed -i reads the file itself, so it may edit a file not read before (rule 1)" {
	# sed -i opens the file read-only before it renames its temp file over
	# it; that open is a read of this exact inode in this session.
	mkfile f 'hello world'
	run --separate-stderr rg sed -i s/world/there/ f
	assert_success
	refute_refused
	assert_content f 'hello there'
}

@test "t0300.24 sed -i after a read works, twice in a row" {
	mkfile f 'hello world'
	run --separate-stderr rg bash -c 'cat f >/dev/null && sed -i s/hello/goodbye/ f && sed -i s/world/moon/ f'
	assert_success
	refute_refused
	assert_content f 'goodbye moon'
}

@test "t0300.25 a file edited with sed -i, then changed outside the session, is refused as changed" {
	mkfile f 'hello world'
	bg_session 'sed -i s/hello/goodbye/ f' 'echo blind >f'
	external_write f 'changed outside the session'
	snapshot f
	bg_finish
	assert_failure
	assert_refused f changed
	assert_unchanged f
}

# --- perl ----------------------------------------------------------------

@test "t0300.26 perl open '>' onto an unread file is refused" {
	mkfile f original
	snapshot f
	run --separate-stderr rg perl -e 'open(my $fh, ">", "f") or die "open: $!\n"; print $fh "new\n"; close $fh or die'
	assert_failure
	assert_output ''
	[[ $stderr == *"open: Permission denied"* ]] || fail "perl did not see EACCES: $stderr"
	assert_refused f unread
	assert_unchanged f
}

@test "t0300.27 perl open '>' is allowed after reading the file" {
	mkfile f original
	run --separate-stderr rg perl -e 'open(my $in, "<", "f") or die; my @l = <$in>; close $in;
		open(my $fh, ">", "f") or die "open: $!\n"; print $fh "new\n"; close $fh or die'
	assert_success
	refute_refused
	assert_content f new
}

@test "t0300.28 perl -pi -e after a read works, twice in a row" {
	mkfile f 'hello world'
	run --separate-stderr rg bash -c 'cat f >/dev/null && perl -pi -e s/hello/goodbye/ f && perl -pi -e s/world/moon/ f'
	assert_success
	refute_refused
	assert_content f 'goodbye moon'
}

@test "t0300.29 perl rename onto an unread file is refused" {
	mkfile f original
	mkfile src replacement
	snapshot f src
	run --separate-stderr rg perl -e 'rename("src", "f") or die "rename: $!\n"'
	assert_failure
	[[ $stderr == *"rename: Permission denied"* ]] || fail "perl did not see EACCES: $stderr"
	assert_refused f unread
	assert_unchanged f src
}

@test "t0300.30 perl truncate of an unread file is refused" {
	mkfile f original
	snapshot f
	run --separate-stderr rg perl -e 'truncate("f", 0) or die "truncate: $!\n"'
	assert_failure
	assert_refused f unread
	assert_unchanged f
}

# --- python3 ------------------------------------------------------------

@test "t0300.31 python3 open('w') onto an unread file is refused" {
	mkfile f original
	snapshot f
	run --separate-stderr rg python3 -c 'open("f", "w").write("new\n")'
	assert_failure
	[[ $stderr == *PermissionError* ]] || fail "python did not raise PermissionError: $stderr"
	assert_refused f unread
	assert_unchanged f
}

@test "t0300.32 python3 open('w') is allowed after reading the file" {
	mkfile f original
	run --separate-stderr rg python3 -c 'open("f").read(); open("f", "w").write("new\n")'
	assert_success
	refute_refused
	assert_content f new
}

@test "t0300.33 python3 pathlib write_text onto an unread file is refused" {
	mkfile f original
	snapshot f
	run --separate-stderr rg python3 -c 'import pathlib; pathlib.Path("f").write_text("new\n")'
	assert_failure
	[[ $stderr == *PermissionError* ]] || fail "python did not raise PermissionError: $stderr"
	assert_refused f unread
	assert_unchanged f
}

@test "t0300.34 python3 pathlib read_text then write_text twice is allowed" {
	mkfile f original
	run --separate-stderr rg python3 -c 'import pathlib; p = pathlib.Path("f"); p.read_text(); p.write_text("one\n"); p.write_text("two\n")'
	assert_success
	refute_refused
	assert_content f two
}

@test "t0300.35 python3 os.open(O_WRONLY) onto an unread file is refused with EACCES" {
	mkfile f original
	snapshot f
	run --separate-stderr rg python3 -c '
import errno, os, sys
try:
    os.open("f", os.O_WRONLY)
except OSError as e:
    print(errno.errorcode[e.errno]); sys.exit(1)'
	assert_failure
	assert_output EACCES
	assert_refused f unread
	assert_unchanged f
}

@test "t0300.36 python3 os.replace onto an unread file is refused; both files intact" {
	mkfile f original
	mkfile src replacement
	snapshot f src
	run --separate-stderr rg python3 -c 'import os; os.replace("src", "f")'
	assert_failure
	[[ $stderr == *PermissionError* ]] || fail "python did not raise PermissionError: $stderr"
	assert_refused f unread
	assert_unchanged f src
}

@test "t0300.37 python3 temp file + os.replace save after a read, then another write, is allowed" {
	mkfile f original
	run --separate-stderr rg python3 -c '
import os
open("f").read()
with open("f.tmp", "w") as t:
    t.write("saved\n")
os.replace("f.tmp", "f")
with open("f", "a") as a:
    a.write("appended\n")'
	assert_success
	refute_refused
	assert_content f $'saved\nappended'
}

@test "t0300.38 python3 os.truncate of an unread file is refused" {
	mkfile f original
	snapshot f
	run --separate-stderr rg python3 -c 'import os; os.truncate("f", 0)'
	assert_failure
	assert_refused f unread
	assert_unchanged f
}

@test "t0300.39 python3 subprocess children share the session's reads" {
	mkfile f original
	run --separate-stderr rg python3 -c '
import subprocess
subprocess.run(["cat", "f"], check=True, stdout=subprocess.DEVNULL)
open("f", "w").write("new\n")'
	assert_success
	refute_refused
	assert_content f new
}

# --- node ----------------------------------------------------------------

@test "t0300.40 node fs.writeFileSync onto an unread file is refused" {
	need_node
	mkfile f original
	snapshot f
	run --separate-stderr rg node -e 'require("fs").writeFileSync("f", "new\n")'
	assert_failure
	[[ $stderr == *EACCES* ]] || fail "node did not see EACCES: $stderr"
	assert_refused f unread
	assert_unchanged f
}

@test "t0300.41 node fs.writeFileSync is allowed after fs.readFileSync" {
	need_node
	mkfile f original
	run --separate-stderr rg node -e 'const fs = require("fs"); fs.readFileSync("f"); fs.writeFileSync("f", "one\n"); fs.writeFileSync("f", "two\n")'
	assert_success
	refute_refused
	assert_content f two
}

@test "t0300.42 node fs.renameSync onto an unread file is refused; both files intact" {
	need_node
	mkfile f original
	mkfile src replacement
	snapshot f src
	run --separate-stderr rg node -e 'require("fs").renameSync("src", "f")'
	assert_failure
	[[ $stderr == *EACCES* ]] || fail "node did not see EACCES: $stderr"
	assert_refused f unread
	assert_unchanged f src
}

@test "t0300.43 node fs.renameSync onto a file that was read is allowed" {
	need_node
	mkfile f original
	mkfile src replacement
	run --separate-stderr rg node -e 'const fs = require("fs"); fs.readFileSync("f"); fs.renameSync("src", "f")'
	assert_success
	refute_refused
	assert_content f replacement
}

@test "t0300.44 node async fs.promises.writeFile onto an unread file is refused" {
	need_node
	mkfile f original
	snapshot f
	run --separate-stderr rg node -e 'require("fs").promises.writeFile("f", "new\n").then(() => process.exit(0), (e) => { console.error(e.code); process.exit(1); })'
	assert_failure
	[[ $stderr == *EACCES* ]] || fail "node did not see EACCES: $stderr"
	assert_refused f unread
	assert_unchanged f
}

# libuv closes with syscall(SYS_close): npm appends to its cache's index
# files so, run after run.
@test "t0300.44a a file one node process wrote stays writable to the next" {
	need_node
	run --separate-stderr rg bash -c 'for t in one two; do node -e "require(\"fs\").appendFileSync(\"f\", \"$t\n\")" || exit; done'
	assert_success
	refute_refused
	assert_content f "$(printf 'one\ntwo')"
}

@test "t0300.45 an external command writing its redirected stdout keeps the file writable" {
	mkfile f original
	run --separate-stderr rg bash -c 'cat f >/dev/null; seq 3 >f; seq 5 >f'
	assert_success
	refute_refused
	assert_content f "$(seq 5)"
}

@test "t0300.46 a command that writes stdout through stdio keeps the file writable" {
	mkfile f original
	run --separate-stderr rg bash -c 'cat f >/dev/null; printf "a\n" >f; python3 -c "print(2)" >f; ls -d . >f'
	assert_success
	refute_refused
	assert_content f .
}

@test "t0300.47 a program whose only output is stdio left for exit keeps its redirected stdout writable" {
	# rgprobe print makes no hooked call: its bytes are written by stdio
	# after the shim's exit restamp, which must flush them first.
	mkfile f original
	run --separate-stderr rg bash -c 'cat f >/dev/null; "$T/rgprobe" print 1 >f; "$T/rgprobe" print 22 >f'
	assert_success
	refute_refused
	assert_content f 22
}

@test "t0300.47a a program whose buffered stderr is left for exit keeps its redirected stderr writable" {
	mkfile f original
	run --separate-stderr rg bash -c 'cat f >/dev/null; "$T/rgprobe" print_err 1 2>f; "$T/rgprobe" print_err 22 2>f'
	assert_success
	refute_refused
	assert_content f 22
}

@test "t0300.47c a program that lets go of its redirected stdout and then stderr keeps both writable" {
	# rgprobe makes no hooked call before its fclose of stdout, so the
	# first let-go attaches the table and the second restamps on it.
	mkfile f original
	mkfile g original
	run --separate-stderr rg bash -c 'cat f g >/dev/null; for v in 1 22; do "$T/rgprobe" print_close_both $v >f 2>g || exit; done'
	assert_success
	refute_refused
	assert_content f 22
	assert_content g 22
}

@test "t0300.47d a program that lets go of its redirected stdout and leaves stderr for exit keeps both writable" {
	mkfile f original
	mkfile g original
	run --separate-stderr rg bash -c 'cat f g >/dev/null; for v in 1 22; do "$T/rgprobe" print_close_out $v >f 2>g || exit; done'
	assert_success
	refute_refused
	assert_content f 22
	assert_content g 22
}

@test "t0300.47b a second stream on stdout left for exit keeps the redirected file writable" {
	mkfile f original
	run --separate-stderr rg bash -c 'cat f >/dev/null; "$T/rgprobe" print_fd1 1 >f; "$T/rgprobe" print_fd1 22 >f'
	assert_success
	refute_refused
	assert_content f 22
}
