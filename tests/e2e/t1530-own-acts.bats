#!/usr/bin/env bats
# The session's own acts keep a file known: setting the times of a file it
# wrote (copies, archive extraction) is its own doing, not a change by
# someone else. Setting the times of a file it does not know proves nothing.

load helper

PY=/usr/bin/python3

setup_file_src() {
	mkfile src.txt original
}

@test "t1530.01 shutil.copy2 then an edit of the copy is allowed" {
	setup_file_src
	run --separate-stderr rg "$PY" -c '
import shutil
shutil.copy2("src.txt", "dst.txt")
open("dst.txt", "w").write("edited\n")'
	assert_success
	refute_refused
	assert_content dst.txt edited
}

@test "t1530.02 shutil.copytree then an edit inside the copy is allowed" {
	mkdir -p tree/sub
	mkfile tree/sub/x.txt old
	run --separate-stderr rg "$PY" -c '
import shutil
shutil.copytree("tree", "copy")
open("copy/sub/x.txt", "w").write("edited\n")'
	assert_success
	refute_refused
	assert_content copy/sub/x.txt edited
}

@test "t1530.03 tarfile extraction then an edit of an extracted file is allowed" {
	setup_file_src
	"$PY" -c 'import tarfile; t = tarfile.open("a.tar", "w"); t.add("src.txt"); t.close()'
	mkdir ex
	run --separate-stderr rg "$PY" -c '
import tarfile
with tarfile.open("a.tar") as t:
    t.extractall("ex")
open("ex/src.txt", "w").write("edited\n")'
	assert_success
	refute_refused
	assert_content ex/src.txt edited
}

@test "t1530.04 unzip then an edit of an unzipped file is allowed" {
	setup_file_src
	"$PY" -c 'import zipfile; z = zipfile.ZipFile("a.zip", "w"); z.write("src.txt"); z.close()'
	mkdir ex
	run --separate-stderr rgsh 'cd ex && unzip -q ../a.zip && echo edited > src.txt'
	assert_success
	refute_refused
	assert_content ex/src.txt edited
}

@test "t1530.05 GNU tar -x then an edit of an extracted file is allowed" {
	setup_file_src
	tar -cf a.tar src.txt
	mkdir ex
	run --separate-stderr rgsh 'tar -C ex -xf a.tar && echo edited > ex/src.txt'
	assert_success
	refute_refused
	assert_content ex/src.txt edited
}

@test "t1530.06 os.utime on an unread file does not make it known" {
	mkfile f.txt original
	run --separate-stderr rg "$PY" -c '
import os
os.utime("f.txt", (0, 0))
open("f.txt", "w").write("blind\n")'
	assert_failure
	assert_refused f.txt unread
	assert_content f.txt original
}

@test "t1530.07 utime after an external change does not hide the change" {
	mkfile f.txt original
	bg_session 'cat f.txt >/dev/null' "$PY"' -c "import os; os.utime(\"f.txt\", (0, 0))"; echo mine > f.txt'
	external_write f.txt "someone else's"
	bg_finish
	assert_failure
	assert_refused f.txt changed
	assert_content f.txt "someone else's"
}

@test "t1530.08 touch -d and futimens on a file the session wrote keep it known" {
	run --separate-stderr rgsh 'echo one > f.txt && touch -d 2001-01-01 f.txt &&
		'"$PY"' -c "import os; fd = os.open(\"f.txt\", os.O_RDONLY); os.utime(fd, (5, 5)); os.close(fd)" &&
		echo two > f.txt'
	assert_success
	refute_refused
	assert_content f.txt two
}

@test "t1530.09 a chmod while the session writes a file it read keeps its next write allowed" {
	# The read hashes the new bytes; the chmod comes after a same-size
	# rewrite, so the record's hash is of bytes that are gone.
	run --separate-stderr rg "$PY3" -c '
import os
with open("f", "w") as fh: fh.write("aaaa")
with open("f") as fh: fh.read()
with open("f", "r+") as fh:
    fh.write("bbbb"); fh.flush()
    os.chmod("f", 0o644)
with open("f", "r+") as fh: fh.write("cccc")
'
	assert_success
	refute_refused
	assert_content f cccc
}

@test "t1530.10 dbm.dumb recreates its database and writes it again" {
	run --separate-stderr rg "$PY3" -c '
import dbm.dumb, os
for i in range(3):
    with dbm.dumb.open("db", "c") as db:
        db[b"k"] = b"v" * (i + 1)
    with dbm.dumb.open("db", "r") as db:
        assert db[b"k"] == b"v" * (i + 1)
    for ext in (".dat", ".dir", ".bak"):
        os.unlink("db" + ext)
'
	assert_success
	refute_refused
}

# Larger than 64 KiB: no hash of the read can vouch for the bytes, only the
# stamp, so each own act that moves ctime must keep the file known itself.
big_file() {
	head -c 70000 /dev/zero >"$1"
	make_old "$1"
}

@test "t1530.11 mv over a file with a second name keeps that name writable" {
	big_file f
	head -c 70000 /dev/zero | tr '\0' b >new
	run --separate-stderr rg bash -c 'cat f >/dev/null && ln f g && mv new f && echo edited >g'
	assert_success
	refute_refused
	assert_content g edited
}

@test "t1530.12 a descriptor on a file the session's mv replaced can still be written" {
	big_file f
	head -c 70000 /dev/zero | tr '\0' b >new
	run --separate-stderr rg bash -c 'exec 3<f; cat f >/dev/null && mv new f && echo lost >/proc/self/fd/3'
	assert_success
	refute_refused
	[ "$(stat -c %s f)" -eq 70000 ] || fail "f is not the file moved over it"
}

@test "t1530.13 an external change to a file with a second name is still refused after the session's mv" {
	big_file f
	head -c 70000 /dev/zero | tr '\0' b >new
	bg_session 'cat f >/dev/null && ln f g && mv new f' '"$T/rgprobe" open g O_WRONLY'
	m=$(stat -c %.9Y g)
	env -u LD_PRELOAD -u READGUARD_SESSION sh -c \
		'printf X | dd of="$1" bs=1 seek=69000 conv=notrunc status=none; touch -d "@$2" -- "$1"' \
		sh g "$m"
	snapshot g
	bg_finish
	assert_probe_err EACCES
	assert_refused g changed
	assert_unchanged g
}

@test "t1530.14 writes through interleaved descriptors on three files leave each file writable" {
	# Each write-open and close looks up its own file's record: a close
	# restamping another file's record would leave the next write refused.
	mkfile a.txt a
	mkfile b.txt bb
	mkfile c.txt ccc
	run --separate-stderr rg "$PY" -c '
for n in ("a.txt", "b.txt", "c.txt"):
    open(n).read()
for rnd in range(3):
    fa = open("a.txt", "w"); fb = open("b.txt", "w")
    fa.write("a" * (10 + rnd)); fa.flush()
    fc = open("c.txt", "w"); fc.write("c" * (30 + rnd)); fb.write("b" * (20 + rnd))
    fa.close(); fc.close(); fb.close()'
	assert_success
	refute_refused
	assert_content a.txt aaaaaaaaaaaa
	assert_content c.txt "$(printf 'c%.0s' {1..32})"
}

@test "t1530.15 closing a memory stream amid a write leaves the write's descriptor to restamp its file" {
	# glibc leaves a memory stream's descriptor field unset (heap garbage,
	# here the write's own descriptor number): fclose must not take it for
	# that descriptor and end its write early, or the bytes written after
	# are never restamped and the session's next write is refused.
	mkfile f start
	run --separate-stderr rg bash -c 'cat f >/dev/null; "$T/rgmemstream" f && echo c >>f'
	assert_success
	refute_refused
	assert_content f "$(printf 'start\na\nb\nc')"
}

@test "t1530.16 a write descriptor that an exec closes (O_CLOEXEC) restamps its file" {
	# exec closes it without a close() call and runs no destructor: the exec
	# hook restamps it, or the session's next write is refused.
	mkfile f start
	run --separate-stderr rg bash -c 'cat f >/dev/null
"$0" -c "import os
fd = os.open(\"f\", os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC)
os.write(fd, b\"a\\n\")
os.execv(\"/bin/true\", [\"true\"])" && echo b >>f' "$PY"
	assert_success
	refute_refused
	assert_content f "$(printf 'start\na\nb')"
}

@test "t1530.17 GNU tar -x sets the times of the files it wrote without a scan of /proc/PID/fd" {
	need_strace
	mkdir src ex
	for i in 1 2 3 4 5; do mkfile "src/f$i" "content $i"; done
	tar -cf a.tar -C src .
	strace -f -e trace=openat -o "$W/tar.tr" "$RG" run --log "$LOG" -- \
		sh -c 'tar -C ex -xf a.tar && echo edited > ex/f3'
	assert_content ex/f3 edited
	# futimens through the descriptor tar wrote by names the holder itself.
	run grep -c '"/proc/[0-9]*/fd"' "$W/tar.tr"
	assert_output 0
}

@test "t1530.18 GNU tar -x sets times, owner and mode through its writing descriptor with no fstat or mask call around them" {
	need_strace
	mkdir src ex
	for i in 1 2 3 4 5; do mkfile "src/f$i" "content $i"; done
	tar -cf a.tar -C src .
	strace -f -e trace=write,getpid,fstat,rt_sigprocmask,utimensat,fchown,fchmod -o "$W/tar.tr" \
		"$RG" run --log "$LOG" -- sh -c 'tar -C ex -xf a.tar && echo edited > ex/f3'
	assert_content ex/f3 edited
	# Each call through the descriptor tar wrote by (futimens, fchown,
	# fchmod), and the system call on either side of it.
	run awk '{ sub(/^[0-9]+ +/, "") }
		prev ~ /^(utimensat\([0-9]+, NULL|fchown\([0-9]+,|fchmod\([0-9]+,)/ { calls++; if ($0 ~ /^(fstat|rt_sigprocmask)\(/) around++ }
		$0 ~ /^(utimensat\([0-9]+, NULL|fchown\([0-9]+,|fchmod\([0-9]+,)/ && prev ~ /^(fstat|rt_sigprocmask)\(/ { around++ }
		{ prev = $0 }
		END { if (calls < 5) print "only " calls + 0 " calls"; else print around + 0 " beside them" }' "$W/tar.tr"
	# futimens for each of the five files (fchown too as root, fchmod where
	# the mode differs from the umask's), and nothing of the shim's beside.
	assert_output "0 beside them"
}

@test "t1530.19 a file whose times and mode were set through its write descriptor stays writable after an exit that never closed it" {
	# Nothing restamps at the metadata calls: the exit's restamp must.
	run --separate-stderr rgsh "$PY"' -c "
import os
fd = os.open(\"f\", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
os.write(fd, b\"one\")
os.fchmod(fd, 0o640)
os.utime(fd, (1000000000, 1000000000))
" && echo two > f'
	assert_success
	refute_refused
	assert_content f two
}

@test "t1530.20 a forked child setting the mode through an inherited write descriptor leaves the file writable" {
	run --separate-stderr rgsh "$PY"' -c "
import os
fd = os.open(\"f\", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
os.write(fd, b\"one\")
pid = os.fork()
if pid == 0:
    os.fchmod(fd, 0o640)
    os._exit(0)
os.waitpid(pid, 0)
os.write(fd, b\" more\")
os.close(fd)
" && echo two > f'
	assert_success
	refute_refused
	assert_content f two
}

@test "t1530.21 a sibling writes a file whose writer set its mode through the descriptor it still holds" {
	mkfile f old
	run --separate-stderr rg "$PY" -c '
import os, subprocess
open("f").read()
fd = os.open("f", os.O_WRONLY | os.O_TRUNC)
os.write(fd, b"new\n")
os.fchmod(fd, 0o640)
subprocess.run(["sh", "-c", "echo sibling >> f"], check=True)
os.close(fd)
open("f", "a").write("last\n")'
	assert_success
	refute_refused
	assert_content f "$(printf 'new\nsibling\nlast')"
}

@test "t1530.22 renaming a file the renamer still holds open for writing does not wait for its own restamp" {
	# rustc's incremental cache: dep-graph.part.bin written, renamed to
	# dep-graph.bin, then closed. Its own close comes only after the rename.
	run --separate-stderr rg "$PY" -c '
import os, time
f = open("part.bin", "wb"); f.write(b"x" * 4096); f.flush()
t = time.monotonic(); os.rename("part.bin", "graph.bin"); took = time.monotonic() - t
f.write(b"y"); f.close()
open("graph.bin", "ab").write(b"z")
print("%.3f" % took)'
	assert_success
	refute_refused
	(( $(printf '%s\n' "$output" | awk '{ print ($1 < 0.5) }') )) || fail "the rename took ${output}s"
}
