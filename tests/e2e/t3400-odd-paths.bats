#!/usr/bin/env bats
# Odd paths: as long as the kernel takes, one byte longer, with newlines,
# quotes and bytes that are not UTF-8, and directory descriptors that are
# closed or point at a removed directory. The errno the kernel gives is the
# program's; a refusal's stderr message stays one line and its log line
# stays one valid JSON object.

load helper

# long_path LEN: creates directories under $W and prints a relative path of
# exactly LEN bytes whose parent exists (the file itself is not created).
long_path() {
	local len=$1 p="" comp
	comp=$(printf 'd%.0s' $(seq 200))
	while [ $((${#p} + 201 + 1 + 1)) -lt "$len" ]; do
		p="${p:+$p/}$comp"
	done
	mkdir -p "$p"
	local rest=$((len - ${#p} - 1))
	printf '%s/%s' "$p" "$(printf 'f%.0s' $(seq "$rest"))"
}

# one_line_refusal PATH-AS-SHOWN: exactly one stderr line, the refusal, and
# it names the path as shown.
one_line_refusal() {
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "expected one stderr line, got ${#stderr_lines[@]}: $stderr"
	[[ ${stderr_lines[0]} == "readguard: refused to write '$1': $MSG_UNREAD" ]] ||
		fail "unexpected stderr: ${stderr_lines[0]}"
}

@test "t3400.01 a 4095-byte path to an unread file is refused, one stderr line, one JSON line" {
	p=$(long_path 4095)
	assert_equal "${#p}" 4095
	printf 'original\n' >"$p"
	snapshot "$p"
	run --separate-stderr rg "$T/rgprobe" open "$p" O_WRONLY
	assert_probe_err EACCES
	one_line_refusal "$p"
	assert_unchanged "$p"
	assert_log_json
	assert_equal "$(log_count)" 1
}

@test "t3400.02 a 4095-byte path that was read may be written" {
	p=$(long_path 4095)
	printf 'original\n' >"$p"
	run --separate-stderr rg bash -c '"$T/rgprobe" read "$1" && "$T/rgprobe" write "$1" new' _ "$p"
	assert_success
	refute_refused
	assert_content "$p" new
}

@test "t3400.03 a 4096-byte path still gets ENAMETOOLONG from every guarded call" {
	p=$(long_path 4096)
	assert_equal "${#p}" 4096
	run --separate-stderr rg bash -c '
		for args in "open $1 O_WRONLY" "open $1 O_RDONLY" "open $1 O_WRONLY|O_CREAT|O_TRUNC" \
			"creat $1" "fopen $1 w" "truncate $1 0" "rename $0 $1"; do
			"$T/rgprobe" $args
		done' "$W/src" "$p"
	refute_refused
	[ "${#lines[@]}" -eq 7 ] || fail "expected 7 results: $output"
	for l in "${lines[@]}"; do
		[ "$l" = "err ENAMETOOLONG" ] || fail "expected ENAMETOOLONG each time: $output"
	done
}

@test "t3400.04 a newline in a file name: the stderr message stays one line, the log line is exact" {
	n=$'new\nline'
	mkfile "$n" original
	snapshot "$n"
	run --separate-stderr rg "$T/rgprobe" open "$n" O_WRONLY
	assert_probe_err EACCES
	one_line_refusal 'new\nline'
	assert_unchanged "$n"
	assert_log_json
	assert_equal "$(log_count)" 1
	assert_equal "$(log_field 1 path)" "\"$W/new\\nline\""
}

@test "t3400.05 other control characters (tab, CR, ESC) are escaped on stderr" {
	n=$'a\tb\rc\033[31md'
	mkfile "$n" original
	run --separate-stderr rg "$T/rgprobe" open "$n" O_WRONLY
	assert_probe_err EACCES
	one_line_refusal 'a\tb\x0dc\x1b[31md'
	assert_log_json
}

@test "t3400.06 quotes in a file name are shown as given and logged exactly" {
	n=$'it\'s "quoted"'
	mkfile "$n" original
	snapshot "$n"
	run --separate-stderr rg "$T/rgprobe" open "$n" O_WRONLY
	assert_probe_err EACCES
	one_line_refusal "$n"
	assert_unchanged "$n"
	assert_log_json
	assert_equal "$(log_field 1 path)" "\"$W/it's \\\"quoted\\\"\""
}

@test "t3400.07 invalid UTF-8 in a file name: bytes kept on stderr, U+FFFD in valid JSON" {
	n=$'inv\xff\xfealid'
	mkfile "$n" original
	snapshot "$n"
	run --separate-stderr rg "$T/rgprobe" open "$n" O_WRONLY
	assert_probe_err EACCES
	one_line_refusal "$n"
	assert_unchanged "$n"
	assert_log_json
	r=$'\xef\xbf\xbd' # U+FFFD
	assert_equal "$(log_field 1 path)" "\"$W/inv$r${r}alid\""
}

# dirfd_probe PYTHON: run python3 in a session; it prints the errno name of
# the OSError the snippet raised, or "ok".
dirfd_probe() {
	run --separate-stderr rg python3 -c "
import errno, os
try:
$1
    print('ok')
except OSError as e:
    print(errno.errorcode[e.errno])"
}

@test "t3400.08 a write-open through a closed dirfd gives EBADF" {
	mkfile f original
	snapshot f
	dirfd_probe "    os.open('f', os.O_WRONLY | os.O_TRUNC, dir_fd=987)"
	assert_output EBADF
	refute_refused
	assert_unchanged f
}

@test "t3400.09 a read-open through a closed dirfd gives EBADF" {
	mkfile f original
	dirfd_probe "    os.open('f', os.O_RDONLY, dir_fd=987)"
	assert_output EBADF
}

@test "t3400.10 a rename onto a name under a closed dirfd gives EBADF, both files intact" {
	mkfile f original
	mkfile src source
	snapshot f src
	dirfd_probe "    os.rename('src', 'f', dst_dir_fd=987)"
	assert_output EBADF
	refute_refused
	assert_unchanged f src
}

@test "t3400.11 a create through a dirfd on a removed directory gives ENOENT" {
	mkdir gone
	dirfd_probe "    d = os.open('gone', os.O_RDONLY | os.O_DIRECTORY)
    os.rmdir('gone')
    os.open('f', os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644, dir_fd=d)"
	assert_output ENOENT
	refute_refused
}

@test "t3400.12 a rename from a name under a closed dirfd gives EBADF, both files intact" {
	mkfile f original
	mkfile src source
	snapshot f src
	dirfd_probe "    os.rename('src', 'f', src_dir_fd=987)"
	assert_output EBADF
	refute_refused
	assert_unchanged f src
}

@test "t3400.13 a rename onto a name under a dirfd on a file gives ENOTDIR" {
	mkfile plain text
	mkfile src source
	snapshot src
	dirfd_probe "    d = os.open('plain', os.O_RDONLY)
    os.rename('src', 'new', dst_dir_fd=d)"
	assert_output ENOTDIR
	refute_refused
	assert_unchanged src
}

@test "t3400.14 a rename onto an empty name under a closed dirfd gives ENOENT" {
	mkfile src source
	snapshot src
	dirfd_probe "    os.rename('src', '', dst_dir_fd=987)"
	assert_output ENOENT
	refute_refused
	assert_unchanged src
}

@test "t3400.15 a link to a name under a closed dirfd gives EBADF, no name made" {
	mkfile src source
	snapshot src
	dirfd_probe "    os.link('src', 'new', dst_dir_fd=987)"
	assert_output EBADF
	refute_refused
	assert_unchanged src
	assert_file_not_exists new
}

@test "t3400.16 a link to a 4096-byte name gives ENAMETOOLONG" {
	p=$(long_path 4096)
	mkfile src source
	dirfd_probe "    os.link('src', '$p')"
	assert_output ENAMETOOLONG
	refute_refused
	assert_equal "$(stat -c %h src)" 1
}

@test "t3400.17 every rename entry point gives ENAMETOOLONG for a 4096-byte new name" {
	p=$(long_path 4096)
	run --separate-stderr rg bash -c '
		for args in "renameat $0 $1" "renameat2 $0 $1 0" "renameat2 $0 $1 RENAME_NOREPLACE" \
			"sys_rename $0 $1" "sys_renameat2 $0 $1 0"; do
			"$T/rgprobe" $args
		done' "$W/src" "$p"
	refute_refused
	[ "${#lines[@]}" -eq 5 ] || fail "expected 5 results: $output"
	for l in "${lines[@]}"; do
		[ "$l" = "err ENAMETOOLONG" ] || fail "expected ENAMETOOLONG each time: $output"
	done
}

@test "t3400.18 a read file renamed onto a 4096-byte path stays where it was" {
	p=$(long_path 4096)
	mkfile src source
	snapshot src
	run --separate-stderr rg bash -c '"$T/rgprobe" read src >/dev/null && "$T/rgprobe" rename src "$1"' _ "$p"
	assert_probe_err ENAMETOOLONG
	refute_refused
	assert_unchanged src
	assert_equal "$(ls -A "${p%/*}")" ""
}

@test "t3400.19 log, history and status --files show a newline or tab in a name escaped, one line per entry" {
	mkfile $'a\nb' original
	mkfile $'c\td' original
	run --separate-stderr rgsh 'echo x >$'"'"'a\nb'"'"'; cat $'"'"'c\td'"'"' >/dev/null; echo y >$'"'"'c\td'"'"'
		"$RG" status --files | grep "^written"; "$RG" log'
	assert_equal "${#lines[@]}" 2
	[[ ${lines[0]} == *"/c\\td" ]] || fail "status --files: $output"
	[[ ${lines[1]} == *"'$W/a\\nb': not read in this session" ]] || fail "log: $output"
	run --separate-stderr "$RG" history
	assert_success
	assert_equal "${#lines[@]}" 2
	[[ ${lines[1]} == *"  $W/c\\td" ]] || fail "history: $output"
}

@test "t3400.20 diff and undo show a newline in a name escaped: one header or message line each" {
	mkfile $'c\nd' original
	rgsh 'cat $'"'"'c\nd'"'"' >/dev/null; echo new >$'"'"'c\nd'"'"
	run --separate-stderr "$RG" diff $'c\nd'
	assert_failure 1
	# As diff -u heads a name that needs it: escaped, in double quotes.
	[[ ${lines[0]} == '--- "c\nd" (before session '*')' ]] || fail "diff: $output"
	assert_equal "${lines[1]}" '+++ "c\nd"'
	run --separate-stderr "$RG" undo $'c\nd'
	assert_success
	assert_equal "${#stderr_lines[@]}" 1
	[[ ${stderr_lines[0]} == "readguard: restored 'c\\nd' as it was before session "*" changed it" ]] ||
		fail "undo: $stderr"
	assert_equal "$(cat $'c\nd')" original
	run --separate-stderr "$RG" undo $'x\ty'
	assert_failure 1
	assert_equal "${#stderr_lines[@]}" 1
	[[ ${stderr_lines[0]} == "readguard: undo: 'x\\ty': no session kept a version of it"* ]] ||
		fail "undo: $stderr"
}

@test "t3400.21 check and mark show a newline in a name escaped, one line each" {
	mkfile $'e\nf' original
	run --separate-stderr rgsh '"$RG" check $'"'"'e\nf'"'"'; "$RG" mark $'"'"'g\nh'"'"
	assert_equal "${#lines[@]}" 1
	assert_equal "${lines[0]}" "refused to write 'e\\nf': $MSG_UNREAD"
	assert_equal "${#stderr_lines[@]}" 1
	[[ ${stderr_lines[0]} == "readguard: mark: 'g\\nh': "* ]] || fail "mark: $stderr"
}

@test "t3400.22 undo's errors about a directory on the way show a newline in it escaped, one line" {
	mkdir -p $'s\nt/deep' elsewhere
	mkfile $'s\nt/deep/f' old
	rg rm -r $'s\nt/deep'
	mv $'s\nt' away
	ln -s elsewhere $'s\nt'
	run --separate-stderr "$RG" undo --all
	assert_failure 1
	# The session's heading, then the error.
	assert_equal "${#stderr_lines[@]}" 2
	[[ ${stderr_lines[1]} == "readguard: undo: '$W/s\\nt/deep/f': '$W/s\\nt' on its way is a symbolic link now,"* ]] ||
		fail "undo: $stderr"
}

@test "t3400.23 diff heads a name that is not UTF-8 with octal escapes, as git does" {
	mkfile $'f\377' original
	rgsh 'cat f* >/dev/null; echo new >f*'
	run --separate-stderr "$RG" diff $'f\377'
	assert_failure 1
	[[ ${lines[0]} == '--- "f\377" (before session '*')' ]] || fail "diff: $output"
	assert_equal "${lines[1]}" '+++ "f\377"'
}

@test "t3400.24 diff quotes a name with a double quote or backslash, escaped, so patch reads it back" {
	mkfile 'a"b\c' original
	rgsh 'cat a* >/dev/null; echo new >a*'
	run --separate-stderr "$RG" diff 'a"b\c'
	assert_failure 1
	assert_equal "${lines[1]}" '+++ "a\"b\\c"'
	"$RG" diff 'a"b\c' | sed 's/ (before .*//' | patch -s -R
	assert_equal "$(cat 'a"b\c')" original
}

# A program's name is the tree's to choose (its file's name, prctl
# PR_SET_NAME): shown as a name is, escaped, it cannot start a false line.

@test "t3400.25 log and history show a newline in a program's name escaped, one line per entry" {
	mkfile g original
	cp "$(command -v dash || command -v sh)" $'s\nFAKE'
	run --separate-stderr rgsh './$'"'"'s\nFAKE'"'"' -c "echo x >g"; "$RG" log
		./$'"'"'s\nFAKE'"'"' -c "cat g >/dev/null; echo y >g"'
	assert_equal "${#lines[@]}" 1
	[[ ${lines[0]} == *' s\nFAKE['*"'$W/g': not read in this session" ]] || fail "log: $output"
	run --separate-stderr "$RG" history g
	assert_success
	assert_equal "${#lines[@]}" 2
	[[ ${lines[1]} == *'  s\nFAKE['*"  $W/g" ]] || fail "history: $output"
}

@test "t3400.26 a refusal naming a scanner whose name holds a newline stays one stderr line" {
	mkdir src
	for i in $(seq 1 12); do mkfile "src/f$i" "zzz $i"; done
	cp "$(command -v cat)" $'c\nFAKE'
	run --separate-stderr rgsh './$'"'"'c\nFAKE'"'"' src/* >/dev/null; echo PWN >src/f7'
	assert_failure
	assert_equal "${#stderr_lines[@]}" 2
	[[ ${stderr_lines[0]} == "readguard: refused to write 'src/f7': it was only scanned by \`c\\nFAKE\` (pid "* ]] ||
		fail "stderr: $stderr"
	assert_content src/f7 "zzz 7"
}

# deep MODE: python3 walks 25 directories of 200 bytes each by openat, so
# the file at the bottom is past PATH_MAX, and makes it (make), or reads
# then overwrites it (readwrite), or removes it (rm), or prints it (cat).
deep() {
	python3 - "$1" <<'PY'
import os, sys
fd = os.open(".", os.O_RDONLY | os.O_DIRECTORY)
for _ in range(25):
    if sys.argv[1] == "make":
        os.mkdir("d" * 200, dir_fd=fd)
    fd = os.open("d" * 200, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
if sys.argv[1] == "make":
    os.write(os.open("f", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd), b"original\n")
elif sys.argv[1] == "readwrite":
    os.read(os.open("f", os.O_RDONLY, dir_fd=fd), 100)
    os.write(os.open("f", os.O_WRONLY | os.O_TRUNC, dir_fd=fd), b"new\n")
elif sys.argv[1] == "rm":
    os.unlink("f", dir_fd=fd)
else:
    sys.stdout.write(os.read(os.open("f", os.O_RDONLY, dir_fd=fd), 100).decode())
PY
}

@test "t3400.27 a read file past PATH_MAX is overwritten with a warning that undo cannot bring it back, no version under a name undo never finds" {
	deep make
	run --separate-stderr rg bash -c "$(declare -f deep); deep readwrite"
	assert_success
	[[ $stderr == *"the old bytes of 'f' were not kept in the journal"*"(journal-unwritable: ENAMETOOLONG); the change goes ahead, and \`readguard undo\` cannot bring them back."* ]] ||
		fail "stderr: $stderr"
	[[ $stderr != *"Make the journal writable"* ]] || fail "stderr: $stderr"
	assert_equal "$(deep cat)" new
	# --all: the record names f only as the session gave it, under no project.
	run --separate-stderr "$RG" history --all --json
	assert_output --partial '"object":null,"unsaved":"journal-unwritable"'
}

@test "t3400.28 --strict: removing an unread file past PATH_MAX is refused, as the journal cannot keep it where undo finds it" {
	local out
	out=$("$RG" run --strict -- true 2>&1) || skip "strict mode unavailable: $out"
	deep make
	run --separate-stderr "$RG" run --strict --log "$LOG" -- bash -c "$(declare -f deep); deep rm"
	assert_failure
	[[ $stderr == *"refused to remove 'f': its old bytes could not be kept in the journal: its path is longer than the journal can name (ENAMETOOLONG)"* ]] ||
		fail "stderr: $stderr"
	assert_equal "$(deep cat)" original
}

# strict_json: standard input is UTF-8, and JSON: one document, or one per line.
strict_json() {
	python3 -c '
import json, sys
text = sys.stdin.buffer.read().decode("utf-8")
try:
    json.loads(text)
except ValueError:
    [json.loads(line) for line in text.splitlines() if line.strip()]
'
}

@test "t3400.29 status --json --files gives a name that is not UTF-8 by its bytes too, and it and sessions --json stay UTF-8 JSON" {
	mkdir $'r\377\nx'
	cd $'r\377\nx'
	mkfile $'f\377' original
	"$RG" run --session "$W/t" --keep -- bash -c 'cat f* >/dev/null; echo new >f*'
	"$RG" status --json --files --session "$W/t" | strict_json
	"$RG" status --json --files --session "$W/t" | grep -qF '"path_bytes":"'"$W"'/r%ff\nx/f%ff"' ||
		fail "the name's bytes are not in: $("$RG" status --json --files --session "$W/t")"
	"$RG" sessions --json | strict_json
}

@test "t3400.30 the notice naming a static program whose name holds a newline stays one line" {
	mkfile data original
	cp "$T/rgstatic" $'s\nFAKE'
	run --separate-stderr rg ./$'s\nFAKE' read data
	assert_equal "${#stderr_lines[@]}" 1
	[[ ${stderr_lines[0]} == "readguard: './s\\nFAKE' runs unguarded: it is statically linked"* ]] ||
		fail "stderr: $stderr"
}

# ctl MODE: like deep, but 15 directories of 200 control bytes (\x01) each:
# 3,000 bytes, within PATH_MAX, whose JSON escape (\u0001) is six times that.
ctl() {
	python3 - "$1" <<'PY'
import os, sys
d = "\x01" * 200
p = os.path.join(*[d] * 15)
if sys.argv[1] == "make":
    os.makedirs(p)
    open(os.path.join(p, "f"), "w").write("original\n")
elif sys.argv[1] == "readwrite":
    os.chdir(p)
    open("f").read()
    open("f", "w").write("new\n")
elif sys.argv[1] == "rm":
    os.unlink(os.path.join(p, "f"))
else:
    sys.stdout.write(open(os.path.join(p, "f")).read())
PY
}

@test "t3400.31 a read file whose escaped path outgrows a journal record is overwritten with a warning, not kept under a cut name" {
	ctl make
	run --separate-stderr rg bash -c "$(declare -f ctl); ctl readwrite"
	assert_success
	[[ $stderr == *"were not kept in the journal"*"(journal-unwritable: ENAMETOOLONG); the change goes ahead"* ]] ||
		fail "stderr: $stderr"
	assert_equal "$(ctl cat)" new
	run --separate-stderr "$RG" history --all --json
	refute_output --partial '"object":"'
}

@test "t3400.32 --strict: removing an unread file whose escaped path outgrows a journal record is refused" {
	local out
	out=$("$RG" run --strict -- true 2>&1) || skip "strict mode unavailable: $out"
	ctl make
	run --separate-stderr "$RG" run --strict --log "$LOG" -- bash -c "$(declare -f ctl); ctl rm"
	assert_failure
	[[ $stderr == *"refused to remove"*"its old bytes could not be kept in the journal: its path is longer than the journal can name (ENAMETOOLONG)"* ]] ||
		fail "stderr: $stderr"
	assert_equal "$(ctl cat)" original
}
