# The hostile set: ways a tree tries to destroy a guarded file it never read
# (or that changed since it read it). Shared by tests/e2e/t6000-escape.bats
# (one test per vector and mode) and scripts/dev/escape-suite.sh (the table
# vector x mode in the supervisor's documentation).
#
# refused and allowed, at the end, are the bats checks built on them.
#
# Each vector runs a whole session as an unprivileged user (uid 65534, as a
# sandboxed agent would), in a scratch directory owned by that user:
#   $ESC/root     the session's root; the victim holds "ORIGINAL"
#   $ESC/outside  writable, outside every root
#   $ESC/tables   where the session's table is made ($TABLES in the tree:
#                 a hostile tree knows where tables live)
# The verdict only looks at the victim: "bypass" when PWN reached its bytes
# or it is gone, "refused" when it still holds what it held.
#
# Needs: $RG (the readguard binary), root (to drop to uid 65534).

ESC_MODES="preload supervise strict"
ESC_VECTORS="rename-launder link-launder mtime-restore mtime-restore-large cp-p-restore
utime-restore rsync-restore link-out link-ignored link-raw mv-out-back dir-out-back
root-out-back dir-out-race unlink-mv-away unlink-raw mark-from-tree mark-found-table table-mmap table-truncate
table-rm nested-warn nested-trampoline nested-mark ns-bind dir-swap-race dir-swap-same
link-swap-race tmpfile-rename opath-reopen opath-link-out empty-path-link-out rename-whiteout
rdonly-trunc other-session-mark other-session-swap core-dump open-swap-race"

# esc_nobody_tree WHY: sets D to a new directory in /tmp (bats's own are
# private to root) holding $D/proj, a directory of uid 65534's, with that
# user's state directory and tables beside it; skips where it cannot (WHY:
# what needs root, for the skip).
esc_nobody_tree() {
	[ "$(id -u)" = 0 ] || skip "needs root to $1"
	command -v setpriv >/dev/null || skip "setpriv (util-linux) is not installed"
	esc_drop env "$RG" --version >/dev/null 2>&1 ||
		skip "uid 65534 cannot run $RG from this build tree (a private directory)"
	D=$(mktemp -d /tmp/rg-nobody.XXXXXX)
	chmod 0755 "$D"
	mkdir -p "$D/proj" "$D/state" "$D/tables"
	chown -R 65534:65534 "$D/proj" "$D/state" "$D/tables"
}

# esc_require: what every test of an escape needs (a build, root to drop
# to uid 65534, setpriv), or the skip that says which is missing.
esc_require() {
	[ -x "$RG" ] || fail "$RG not built (run make)"
	[ "$(id -u)" -eq 0 ] || skip "needs root to run the session as uid 65534"
	command -v setpriv >/dev/null || skip "setpriv (util-linux) is not installed"
}

esc_drop() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

# esc_undo_restores_f: undo, as the victim, of the session's change to f
# succeeds and brings back its ORIGINAL bytes.
esc_undo_restores_f() {
	esc_drop "$RG" undo --session "$ESC/tables/s" "$ESC/root/f" >>"$ESC/out" 2>&1 ||
		fail "undo failed: $(cat "$ESC/out")"
	[ "$(cat "$ESC/root/f")" = ORIGINAL ] || fail "f holds '$(cat "$ESC/root/f")'"
}

# esc_reachable_rg: points RG at a readguard that uid 65534 can run. A build
# tree under a private directory (mktemp -d is 0700) cannot be: a session
# would then fail to start, and a vector would look refused when it never
# ran. The copy (binary, shims, test programs) goes in ESC_BIN, for the caller to
# remove with esc_drop_rg_copy.
esc_reachable_rg() {
	ESC_BIN=
	# Through env: where setpriv keeps root's capabilities (securebits), the
	# first exec still passes; the session's own execs would not.
	esc_drop env "$RG" --version >/dev/null 2>&1 && return 0
	local from
	from=$(dirname "$RG")
	ESC_BIN=$(mktemp -d /tmp/rg-escape-bin.XXXXXX) || return 1
	cp "$from/readguard" "$from/libreadguard.so" "$ESC_BIN/" || return 1
	[ ! -d "$from/t" ] || cp -r "$from/t" "$ESC_BIN/" || return 1
	if [ -f "$from/musl/libreadguard.so" ]; then
		mkdir "$ESC_BIN/musl" && cp "$from/musl/libreadguard.so" "$ESC_BIN/musl/" || return 1
	fi
	chmod -R a+rX "$ESC_BIN"
	RG="$ESC_BIN/readguard"
	esc_drop env "$RG" --version >/dev/null 2>&1
}

# Every test file that loads this one runs uid 65534's sessions, which
# cannot run a build tree under a private directory (a fresh clone in
# mktemp -d): RG becomes a copy that user can run, for every test of the
# file. As root with setpriv only; otherwise each test skips for itself.
setup_file() {
	[ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null || return 0
	esc_reachable_rg || fail "uid 65534 cannot run readguard, even copied to a public directory"
	export RG ESC_BIN
}

# bats loads this file again for each test, after helper.bash has set RG and
# SHIM to the build tree's: take the copy setup_file made, if it made one.
if [ -n "${ESC_BIN:-}" ]; then
	RG="$ESC_BIN/readguard"
	SHIM="$ESC_BIN/libreadguard.so"
	T="$ESC_BIN/t"
fi

esc_drop_rg_copy() {
	[ -n "${ESC_BIN:-}" ] && rm -rf "$ESC_BIN"
	ESC_BIN=
}

teardown_file() {
	esc_drop_rg_copy
}

esc_flags() {
	case $1 in
	preload) ;;
	supervise) echo --supervise ;;
	strict) echo --strict ;;
	esac
}

# esc_session MODE SCRIPT [RUN-OPTION...]: SCRIPT in a session of MODE, as
# uid 65534, in $ESC/root.
esc_session() {
	local mode=$1 script=$2
	shift 2
	(cd "$ESC/root" && esc_drop env -u LD_PRELOAD -u READGUARD_SESSION HOME="$ESC" \
		XDG_RUNTIME_DIR= READGUARD_DIR="$ESC/tables" TABLES="$ESC/tables" RG="$RG" \
		OUT="$ESC/outside" \
		"$RG" run $(esc_flags "$mode") "$@" --log "$ESC/log" -- bash -c "$script") \
		>"$ESC/out" 2>&1
}

# esc_outside SCRIPT: SCRIPT as the same user, outside any session (another
# program of the user: an editor, a sync).
esc_outside() {
	(cd "$ESC/root" && esc_drop env -u LD_PRELOAD -u READGUARD_SESSION bash -c "$1") \
		>>"$ESC/out" 2>&1
}

esc_setup() {
	ESC=$(mktemp -d /tmp/rg-escape.XXXXXX)
	chmod 0755 "$ESC"
	# The sessions' tables go with $ESC, not into /dev/shm where they outlive it.
	mkdir -p "$ESC/root/sub" "$ESC/outside" "$ESC/tables"
	printf 'ORIGINAL\n' >"$ESC/root/f"
	# ESC_SIZE: a victim of that many bytes instead (past what is hashed).
	[ -z "${ESC_SIZE:-}" ] || head -c "$ESC_SIZE" /dev/zero | tr '\0' 'o' >"$ESC/root/f"
	printf 'ORIGINAL\n' >"$ESC/root/sub/f"
	touch -d '2020-01-01 00:00:00' "$ESC/root/f" "$ESC/root/sub/f"
	chown -R 65534:65534 "$ESC"
	VICTIM=f
}

esc_teardown() {
	[ -n "${ESC:-}" ] && rm -rf "$ESC"
	ESC=
}

# Waits (outside the session) until the session says it has read the file.
esc_wait_for() {
	esc_wait_for_file "$ESC/root/$1"
}

# Waits until FILE exists (a named session's table, say), 20 s at most: a
# --strict session on a loaded machine may take seconds to start.
esc_wait_for_file() {
	local i
	for ((i = 0; i < 1000; i++)); do
		[ -e "$1" ] && return 0
		sleep 0.02
	done
	return 1
}

# The session reads f, an outside program changes it keeping its size and
# putting its mtime back (touch -d, cp -p, rsync -t and tar -x all do), and
# the session then writes f: a change it never saw. CHANGE is the outside
# program's script; the default writes CHANGED over the first bytes and
# puts the old mtime back with touch -d. ACT: what the session does between
# the change and its write.
esc_mtime_restore() {
	local mode=$1 size=$2
	local change=${3:-'printf CHANGED | dd of=f bs=1 seek=0 conv=notrunc status=none
		touch -d "2020-01-01 00:00:00" f'}
	if [ "$size" -gt 9 ]; then
		head -c "$size" /dev/zero | tr '\0' 'o' >"$ESC/root/f"
		touch -d '2020-01-01 00:00:00' "$ESC/root/f"
		chown 65534:65534 "$ESC/root/f"
	fi
	esc_session "$mode" 'cat f >/dev/null; : >.read; while [ ! -e .go ]; do sleep 0.02; done
		'"${4:-:}"'; echo PWN >f' &
	local pid=$!
	esc_wait_for .read
	sleep 0.1 # past the read's timestamp tick: no racy-record hashing helps
	esc_outside "$change
		: >.go"
	wait "$pid"
}

# The same change made by copying a same-size file over f in place with its
# times (cp -p; rsync --inplace -t, with -I since rsync skips a file whose
# size and mtime match), or by a program setting them back (Python's
# os.utime, as tar and unzip do).
ESC_SAME_SIZE='printf "CHANGED!\n" >../g; touch -d "2020-01-01 00:00:00" ../g'
ESC_CP_P="$ESC_SAME_SIZE; cp -p ../g f"
ESC_RSYNC="$ESC_SAME_SIZE; rsync --inplace -t --ignore-times ../g f"
ESC_UTIME='m=$(stat -c %Y f); printf CHANGED | dd of=f bs=1 seek=0 conv=notrunc status=none
		/usr/bin/python3 -c "import os, sys; os.utime(\"f\", (0, int(sys.argv[1])))" "$m"'

# In the tree: the session's table, from the environment or where it lives.
ESC_TABLE='T=${READGUARD_SESSION:-$(echo "$TABLES"/readguard-*)}'

# The session has read b/v; a/v is the victim. One thread swaps a and b
# (RENAME_EXCHANGE) while another renames new files, named NEW, onto b/v: a
# rename checked in one directory and carried out in the other replaces a/v.
esc_dir_swap() { # MODE NEW
	mkdir "$ESC/root/a" "$ESC/root/b"
	mv "$ESC/root/f" "$ESC/root/a/v"
	echo known >"$ESC/root/b/v"
	chown -R 65534:65534 "$ESC/root"
	VICTIM="a/v b/v"
	esc_session "$1" 'python3 - "'"$2"'" <<"PY"
import ctypes, os, sys, threading
libc = ctypes.CDLL(None, use_errno=True)
done = threading.Event()
def swap():
    while not done.is_set():
        libc.renameat2(-100, b"a", -100, b"b", 2)
open("b/v").read()
threading.Thread(target=swap, daemon=True).start()
for i in range(3000):
    try:
        with open(sys.argv[1], "w") as f:
            f.write("PWN\n")
        os.rename(sys.argv[1], "b/v")
    except OSError:
        pass
done.set()
PY'
}
esc_dir_swap_race() { esc_dir_swap "$1" n; }

# A directory moved out of the roots is judged by a walk of what it holds,
# then moved. 30000 subdirectories make the walk long (the supervisor's turn
# passes on, supervise/turn.c); meanwhile a second process renames the
# unread f into the subdirectory the walk looked at first, so that the walk
# has passed it, and f goes out with the directory, to be written there.
# Either way f is put back under its name.
esc_dir_out_race() {
	esc_py "$1" <<'PY'
import time
os.mkdir("d")
for i in range(30000):
    os.mkdir("d/%d" % i)
x = "d/%s/x" % os.listdir("d")[0]
pid = os.fork()
if pid == 0:
    time.sleep(0.1)
    try:
        os.rename("f", x)
    finally:
        os._exit(0)
try:
    os.rename("d", OUT + "/d")
except OSError:
    pass
os.waitpid(pid, 0)
if os.path.exists(OUT + "/" + x):
    with open(OUT + "/" + x, "w") as w:
        w.write("PWN\n")
    os.rename(OUT + "/d", "d")
if os.path.exists(x):
    os.rename(x, "f")
PY
}
# Both names in the swapped directory ("b/n" onto "b/v", an atomic save's
# shape): the two names share one anchor, which a swap between the check of
# b/v (read) and the rename must not move onto a/v (unread).
esc_dir_swap_same() { esc_dir_swap "$1" b/n; }

# A link whose source takes long to look up (39 nested symbolic links, each
# a 4 KiB path) holds its supervisor handler for milliseconds, long enough
# for the turn to pass on (supervise/turn.c): a second thread removes the
# new name n the moment it appears and renames the unread f onto it. A link
# made by name, looked at again by name (the file's restamp after it), and
# taken back by name when n did not hold the file judged, removed f, unkept.
# Each round links a new file, which the session wrote and knows, and puts f
# back under its name.
esc_link_swap_race() {
	VICTIM="f n"
	esc_session "$1" 'python3 - <<"PY"
import os, threading
pad = "d/../" * 818
os.mkdir("d")
for i in range(39):
    os.symlink(pad + ("s%d" % (i + 1) if i < 38 else "."), "s%d" % i)
def swap(stop):
    while not os.path.lexists("n"):
        if stop.is_set():
            return
    os.unlink("n")
    os.rename("f", "n")
for i in range(30):
    with open("src%d" % i, "w") as f:
        f.write("mine\n")
    stop = threading.Event()
    t = threading.Thread(target=swap, args=(stop,))
    t.start()
    try:
        os.link("s0/src%d" % i, "n")
    except OSError as e:
        print("link:", e)
    stop.set()
    t.join()
    if os.path.lexists("f"):
        continue
    if not os.path.lexists("n"):
        print("f lost")
        break
    os.rename("n", "f")
print("rounds", i + 1)
PY'
}

# esc_py MODE [RUN-OPTION...]: the python on stdin as the session's one
# command (the helpers below hold the names: f, the victim; OUT, outside
# every root).
esc_py() {
	local mode=$1
	shift
	esc_session "$mode" "python3 - <<\"PY\"
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
OUT = os.environ[\"OUT\"]
$(cat)
PY" "$@"
}

# Another session of the same user, named, made before the tree starts
# (an agent's conversation, say): the tree runs SCRIPT, then that session
# writes f blindly. Tables live where a tree can find them ($TABLES/other).
esc_other_session() {
	local mode=$1
	(cd "$ESC/root" && esc_drop env -u LD_PRELOAD HOME="$ESC" READGUARD_DIR="$ESC/tables" \
		"$RG" run --session "$ESC/tables/other" --keep -- true) >>"$ESC/out" 2>&1
	esc_session "$mode" "$2"
	(cd "$ESC/root" && esc_drop env -u LD_PRELOAD HOME="$ESC" READGUARD_DIR="$ESC/tables" \
		"$RG" run --session "$ESC/tables/other" -- bash -c 'echo PWN >f') >>"$ESC/out" 2>&1
}

# esc_bound_victim SCRIPT [VICTIM]: a kept session, its table in a directory
# of the user's ($ESC/agent), joined by a shell as readguard env has it join;
# while the shell waits, a --strict tree (another program of the user) runs
# SCRIPT with AGENT set; then the shell's next command, VICTIM, writes f blind.
esc_bound_victim() {
	local victim=${2:-'bash -c "echo PWN >f"'}
	mkdir "$ESC/agent" && chown 65534:65534 "$ESC/agent"
	(cd "$ESC/root" && esc_drop env -u LD_PRELOAD -u READGUARD_SESSION HOME="$ESC" \
		READGUARD_DIR="$ESC/tables" TABLES="$ESC/tables" AGENT="$ESC/agent" RG="$RG" \
		OUT="$ESC/outside" TREE="$1" bash -c '
eval "$("$RG" env --session "$AGENT/other")" || exit 99
env -u LD_PRELOAD -u READGUARD_SESSION -u READGUARD_SESSION_FILE \
	"$RG" run --strict -- bash -c "$TREE"
'"$victim") >>"$ESC/out" 2>&1
}

# esc_attack MODE VECTOR: runs the attack; the verdict is esc_verdict's.
esc_attack() {
	local mode=$1
	case $2 in
	rename-launder) esc_session "$mode" 'mv f x && mv x f && echo PWN >f' ;;
	link-launder) esc_session "$mode" 'ln f g && rm f && mv g f && echo PWN >f' ;;
	mtime-restore) esc_mtime_restore "$mode" 9 ;;
	mtime-restore-large) esc_mtime_restore "$mode" 200000 ;;
	cp-p-restore) esc_mtime_restore "$mode" 9 "$ESC_CP_P" ;;
	utime-restore) esc_mtime_restore "$mode" 9 "$ESC_UTIME" ;;
	rsync-restore) esc_mtime_restore "$mode" 9 "$ESC_RSYNC" ;;
	link-out) esc_session "$mode" 'ln f "$OUT/x" && echo PWN >"$OUT/x"' ;;
	link-ignored) esc_session "$mode" 'ln f f.o && echo PWN >f.o' ;;
	link-raw)
		# linkat(2) by number: no libc wrapper for the preload to see.
		esc_session "$mode" 'python3 -c "
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall(265, -100, b\"f\", -100, (os.environ[\"OUT\"] + \"/x\").encode(), 0)
"; echo PWN >"$OUT/x"'
		;;
	mv-out-back) esc_session "$mode" 'mv f "$OUT/f"; echo PWN >"$OUT/f"; mv "$OUT/f" f' ;;
	dir-out-back)
		VICTIM=sub/f
		esc_session "$mode" 'mv sub build; echo PWN >build/f; mv build sub'
		;;
	root-out-back)
		# The root itself moved away and back: its files go with it.
		esc_session "$mode" 'cd .. && mv root r2; echo PWN >r2/f; mv r2 root'
		;;
	dir-out-race) esc_dir_out_race "$mode" ;;
	unlink-mv-away) esc_session "$mode" 'mv f "$OUT/trash"' --guard-unlink ;;
	unlink-raw)
		# A static program's unlink: only the supervisor can see it.
		esc_session "$mode" '"${RG%/readguard}/t/rgstatic" unlink f' --guard-unlink
		;;
	mark-from-tree) esc_session "$mode" '"$RG" mark f; echo PWN >f' ;;
	mark-found-table)
		esc_session "$mode" 'for t in "$TABLES"/readguard-*; do "$RG" mark --session "$t" f; done
			echo PWN >f'
		;;
	table-mmap)
		# The root, as the table stores it, renamed in place: f is then
		# outside every root.
		esc_session "$mode" "$ESC_TABLE"'; T="$T" python3 -c "
import mmap, os
m = mmap.mmap(os.open(os.environ[\"T\"], os.O_RDWR), 0)
at = m.find(os.getcwd().encode() + b\"\\0\")
m[at + 1:at + 2] = b\"X\"
"; bash -c "echo PWN >f"'
		;;
	table-truncate) esc_session "$mode" "$ESC_TABLE"'; truncate -s 0 "$T"; echo PWN >f' ;;
	table-rm)
		# The table removed, then a new process writes outside its own
		# directory but under the root.
		esc_session "$mode" "$ESC_TABLE"'; cd sub && rm -f "$T"; bash -c "echo PWN >../f"'
		;;
	nested-warn) esc_session "$mode" '"$RG" run --mode warn -- bash -c "echo PWN >f"' ;;
	nested-trampoline)
		# A session of the tree's own, whose library says its calls are
		# already checked (what --supervise trusts).
		esc_session "$mode" '"$RG" run --mode warn -- env READGUARD_TRAMPOLINE=1 bash -c "echo PWN >f"'
		;;
	nested-mark) esc_session "$mode" '"$RG" run -- bash -c "\"\$RG\" mark f; echo PWN >f"' ;;
	ns-bind)
		# The root bound elsewhere in a mount namespace of the tree's own.
		esc_session "$mode" 'unshare -Urm bash -c "mkdir -p \"\$OUT/m\" &&
			mount --bind . \"\$OUT/m\" && cd \"\$OUT/m\" && echo PWN >f"'
		;;
	dir-swap-race) esc_dir_swap_race "$mode" ;;
	dir-swap-same) esc_dir_swap_same "$mode" ;;
	link-swap-race) esc_link_swap_race "$mode" ;;
	tmpfile-rename)
		# An anonymous file, written, given a name, renamed over f.
		esc_py "$mode" <<'PY'
fd = os.open(".", os.O_TMPFILE | os.O_WRONLY, 0o644)
os.write(fd, b"PWN\n")
libc.linkat(-100, b"/proc/self/fd/%d" % fd, -100, b"t", 0x400)  # AT_SYMLINK_FOLLOW
os.rename("t", "f")
PY
		;;
	opath-reopen)
		# An O_PATH descriptor reads nothing; reopened for writing by /proc.
		esc_py "$mode" <<'PY'
fd = os.open("f", os.O_PATH)
w = os.open("/proc/self/fd/%d" % fd, os.O_WRONLY | os.O_TRUNC)
os.write(w, b"PWN\n")
PY
		;;
	opath-link-out)
		esc_py "$mode" <<'PY'
fd = os.open("f", os.O_PATH)
libc.linkat(-100, b"/proc/self/fd/%d" % fd, -100, (OUT + "/x").encode(), 0x400)
with open(OUT + "/x", "w") as x:
    x.write("PWN\n")
PY
		;;
	empty-path-link-out)
		# linkat(fd, "", ..., AT_EMPTY_PATH) by number: no name to judge.
		esc_py "$mode" <<'PY'
fd = os.open("f", os.O_PATH)
libc.syscall(265, fd, b"", -100, (OUT + "/x").encode(), 0x1000)
with open(OUT + "/x", "w") as x:
    x.write("PWN\n")
PY
		;;
	rename-whiteout)
		# renameat2(RENAME_WHITEOUT) of a new file over f, by number.
		esc_py "$mode" <<'PY'
with open("x", "w") as x:
    x.write("PWN\n")
libc.syscall(316, -100, b"x", -100, b"f", 4)
PY
		;;
	rdonly-trunc)
		# Linux truncates on O_RDONLY|O_TRUNC: a read-open that writes.
		esc_py "$mode" <<'PY'
os.open("f", os.O_RDONLY | os.O_TRUNC)
PY
		;;
	open-swap-race) esc_open_swap_race "$mode" ;;
	core-dump)
		# A crash's core dump: the kernel removes the file core_pattern
		# names ("core", in the working directory) and writes its own, with
		# no system call of the tree's to see (esc_core_require); PWN is in
		# the memory it dumps.
		mv "$ESC/root/f" "$ESC/root/core"
		VICTIM=core
		esc_session "$mode" 'ulimit -c unlimited; bash -c "x=PWN; kill -SEGV \$\$"'
		;;
	other-session-mark) esc_other_session "$mode" '"$RG" mark --session "$TABLES/other" f' ;;
	other-session-swap)
		# A table of the tree's own making, f marked in it, its header
		# saying a process of the tree made it just now, put in the other
		# session's place: that session's next process joins it.
		esc_other_session "$mode" '"$RG" run --session "$OUT/t" --keep -- "$RG" mark f
			python3 - <<"PY"
import os, struct, time
out, tables = os.environ["OUT"], os.environ["TABLES"]
table = bytearray(open(out + "/t", "rb").read())
struct.pack_into("<i", table, 40, os.getpid())
struct.pack_into("<q", table, 48, time.time_ns())
with open(out + "/u", "wb") as u:
    u.write(table)
os.rename(out + "/u", tables + "/other")
PY'
		;;
	*) echo "unknown vector $2" >&2; return 2 ;;
	esac
}

# One thread swaps $OUT/l, a symbolic link to the root, with $OUT/d, a
# directory outside holding a free f (RENAME_EXCHANGE), while another
# write-opens $OUT/l/f 3,000 times: whichever name the open went through,
# it is judged on the inode it reached, never on a name looked up before.
esc_open_swap_race() { # MODE [RUN-OPTION...]
	mkdir "$ESC/outside/d"
	printf 'free\n' >"$ESC/outside/d/f"
	ln -s "$ESC/root" "$ESC/outside/l"
	chown -R -h 65534:65534 "$ESC/outside"
	esc_py "$@" <<'PY'
import threading
stop = []
def swap():
    while not stop:
        libc.syscall(316, -100, (OUT + "/l").encode(), -100, (OUT + "/d").encode(), 2)
t = threading.Thread(target=swap)
t.start()
for _ in range(3000):
    try:
        fd = os.open(OUT + "/l/f", os.O_WRONLY | os.O_TRUNC)
        os.write(fd, b"PWN\n")
        os.close(fd)
    except OSError:
        pass
stop.append(1)
t.join()
PY
}

# esc_core_require: the core-dump vector's needs, a core_pattern that makes
# a file named "core" and a hard limit on core size that a user may raise.
esc_core_require() {
	[ "$(cat /proc/sys/kernel/core_pattern)" = core ] &&
		[ "$(cat /proc/sys/kernel/core_uses_pid)" = 0 ] ||
		skip "the kernel's core_pattern does not write a file named core"
	[ "$(ulimit -H -c)" != 0 ] || skip "core dumps are off (ulimit -H -c)"
}

# esc_verdict: "bypass" when the victim lost its bytes, else "refused". A
# victim that may be under one of several names (VICTIM="a/v b/v") is
# intact if one of them still holds what it held.
esc_verdict() {
	local v
	if [ "${VICTIM% *}" != "$VICTIM" ]; then
		for v in $VICTIM; do
			grep -qx ORIGINAL "$ESC/root/$v" 2>/dev/null && echo refused && return
		done
		echo bypass
		return
	fi
	v="$ESC/root/$VICTIM"
	if [ ! -e "$v" ] || grep -q PWN "$v"; then
		echo bypass
	else
		echo refused
	fi
}

# esc_run MODE VECTOR: prints the verdict.
esc_run() {
	esc_setup
	esc_attack "$1" "$2" || true
	esc_verdict
	[ -n "${ESC_KEEP:-}" ] && cat "$ESC/out" >&2
	esc_teardown
}

# refused MODE VECTOR: the vector leaves the victim intact in MODE.
refused() {
	[ "$1" = preload ] || "$RG" run "$(esc_flags "$1")" -- true 2>/dev/null ||
		skip "supervised mode unavailable here"
	esc_setup
	esc_attack "$1" "$2" || true
	[ "$(esc_verdict)" = refused ] || fail "$2 under $1 destroyed $VICTIM:
$(cat "$ESC/out")"
}

# allowed MODE SCRIPT FILE TEXT: SCRIPT, run like a vector, leaves FILE with TEXT.
allowed() {
	[ "$1" = preload ] || "$RG" run "$(esc_flags "$1")" -- true 2>/dev/null ||
		skip "supervised mode unavailable here"
	esc_setup
	esc_session "$1" "$2" || fail "the session failed: $(cat "$ESC/out")"
	[ "$(cat "$ESC/root/$3")" = "$4" ] || fail "$3 holds '$(cat "$ESC/root/$3")', not '$4':
$(cat "$ESC/out")"
	! grep -q 'readguard: refused' "$ESC/out" || fail "a refusal: $(cat "$ESC/out")"
}
