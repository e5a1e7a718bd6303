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
# The verdict only looks at the victim: "bypass" when PWN reached its bytes
# or it is gone, "refused" when it still holds what it held.
#
# Needs: $RG (the readguard binary), root (to drop to uid 65534).

ESC_MODES="preload supervise strict"
ESC_VECTORS="rename-launder link-launder mtime-restore mtime-restore-large cp-p-restore
utime-restore rsync-restore link-out link-ignored link-raw mv-out-back dir-out-back
root-out-back unlink-mv-away unlink-raw mark-from-tree table-mmap table-truncate nested-warn nested-mark"

esc_drop() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
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
		XDG_RUNTIME_DIR= READGUARD_DIR="$ESC/tables" RG="$RG" OUT="$ESC/outside" \
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
	local i
	for i in $(seq 1 200); do
		[ -e "$ESC/root/$1" ] && return 0
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
	unlink-mv-away) esc_session "$mode" 'mv f "$OUT/trash"' --guard-unlink ;;
	unlink-raw)
		# A static program's unlink: only the supervisor can see it.
		esc_session "$mode" '"${RG%/readguard}/t/rgstatic" unlink f' --guard-unlink
		;;
	mark-from-tree) esc_session "$mode" '"$RG" mark f; echo PWN >f' ;;
	table-mmap)
		# The header's mode field (offset 44) set to warn.
		esc_session "$mode" 'python3 -c "
import mmap, os
fd = os.open(os.environ[\"READGUARD_SESSION\"], os.O_RDWR)
m = mmap.mmap(fd, 0)
m[44:48] = (1).to_bytes(4, \"little\")
"; bash -c "echo PWN >f"'
		;;
	table-truncate) esc_session "$mode" 'truncate -s 0 "$READGUARD_SESSION"; echo PWN >f' ;;
	nested-warn) esc_session "$mode" '"$RG" run --mode warn -- bash -c "echo PWN >f"' ;;
	nested-mark) esc_session "$mode" '"$RG" run -- bash -c "\"\$RG\" mark f; echo PWN >f"' ;;
	*) echo "unknown vector $2" >&2; return 2 ;;
	esac
}

# esc_verdict: "bypass" when the victim lost its bytes, else "refused".
esc_verdict() {
	local v="$ESC/root/$VICTIM"
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
