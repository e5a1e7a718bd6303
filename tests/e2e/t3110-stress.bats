#!/usr/bin/env bats
# An adversary of the shim's robustness: a signal handler that truncates a
# read file while the main flow is inside a write hook, or writes blind while
# main is inside a refusal (and must be refused too), vfork+exec while
# other threads hold the shim's locks, and the descriptors a process holds
# after hundreds of guarded, refused and journaled calls. Each runs as root
# and as uid 65534 (in a directory that user owns).

load helper
load escape

# as_nobody_setup: $D, a directory uid 65534 owns, with its own tables and
# state; skips where that user cannot run this build.
as_nobody_setup() {
	[ "$(id -u)" = 0 ] || skip "needs root to become uid 65534"
	command -v setpriv >/dev/null || skip "setpriv (util-linux) is not installed"
	setpriv --reuid=65534 --regid=65534 --clear-groups env "$RG" --version >/dev/null 2>&1 ||
		skip "uid 65534 cannot run $RG from this build tree (a private directory)"
	D=$(mktemp -d /tmp/rg-t3110.XXXXXX)
	mkdir -p "$D/w" "$D/state" "$D/tables"
	chmod 0755 "$D"
	chown -R 65534:65534 "$D"
}

# as_nobody CMD [ARG]...: CMD in a session of uid 65534's, in $D/w.
as_nobody() {
	run --separate-stderr bash -c 'd=$1 rg=$2; shift 2; cd "$d/w" && setpriv --reuid=65534 --regid=65534 \
		--clear-groups env XDG_STATE_HOME="$d/state" READGUARD_DIR="$d/tables" XDG_RUNTIME_DIR= \
		timeout 300 "$rg" run -- "$@"' sh "$D" "$RG" "$@"
}

# rgsigtrunc's rounds: up to 20,000, or 60 s on a machine too loaded for
# them (about 14,000 at a load of 4 on 2 cores, the handler acting in
# nearly every round). It acts once a round at most, so its 200 us timer
# cannot starve the main flow. A deadlock still meets the timeout.
SIGTRUNC_ROUNDS='20000 60'

# sigtrunc_check DIR: the handler ran, never failed, and r holds its last write.
sigtrunc_check() {
	assert_success
	[[ $output =~ ^rounds=[0-9]+\ handler=([0-9]+)\ bad=0\ last_ok=1$ ]] ||
		fail "unexpected output: $output / $stderr"
	[ "${BASH_REMATCH[1]}" -gt 10 ] || fail "the handler ran only ${BASH_REMATCH[1]} times"
	[[ $(cat "$1/r") == h* ]] || fail "r was not written by the handler: $(cat "$1/r")"
	[ -z "$stderr" ] || fail "stderr: $stderr"
}

@test "t3110.01 a SIGALRM handler truncating a read file while main writes others: no deadlock, every write lands" {
	printf 'old\n' >r
	run --separate-stderr timeout 300 "$RG" run --log "$LOG" -- "$T/rgsigtrunc" "$W" $SIGTRUNC_ROUNDS
	sigtrunc_check "$W"
}

@test "t3110.02 as uid 65534, a SIGALRM handler truncating a read file while main writes others: every write lands" {
	as_nobody_setup
	printf 'old\n' >"$D/w/r"
	chown 65534:65534 "$D/w/r"
	as_nobody "$T/rgsigtrunc" . $SIGTRUNC_ROUNDS
	sigtrunc_check "$D/w"
}

# blind_check DIR: the handler, run while main was inside a refusal, was
# refused every time, and u kept its bytes.
blind_check() {
	assert_success
	[[ $output =~ ^rounds=[0-9]+\ handler=([0-9]+)\ bad=0\ last_ok=1$ ]] ||
		fail "a handler's blind write was not refused: $output"
	[ "${BASH_REMATCH[1]}" -gt 10 ] || fail "the handler ran only ${BASH_REMATCH[1]} times"
	[ "$(cat "$1/u")" = unread ] || fail "u changed: $(cat "$1/u")"
	[ "$(cat "$1/v")" = unread ] || fail "v changed: $(cat "$1/v")"
}

@test "t3110.07 a SIGALRM handler's blind write, landing while main is inside a refusal, is refused too" {
	printf 'old\n' >r
	printf 'unread\n' >u
	printf 'unread\n' >v
	run --separate-stderr timeout 300 "$RG" run --log "$LOG" -- "$T/rgsigtrunc" "$W" $SIGTRUNC_ROUNDS blind
	blind_check "$W"
}

@test "t3110.08 as uid 65534, a SIGALRM handler's blind write, landing while main is inside a refusal, is refused too" {
	as_nobody_setup
	printf 'old\n' >"$D/w/r"
	printf 'unread\n' >"$D/w/u"
	printf 'unread\n' >"$D/w/v"
	chown 65534:65534 "$D/w/r" "$D/w/u" "$D/w/v"
	as_nobody "$T/rgsigtrunc" . $SIGTRUNC_ROUNDS blind
	blind_check "$D/w"
}

# vforkexec_check: every vfork+exec of /bin/true exited 0, no write refused.
vforkexec_check() {
	assert_success
	assert_output "ok=300"
	[ -z "$stderr" ] || fail "stderr: $stderr"
}

@test "t3110.03 vfork+exec while four threads write and rename through the hooks: every child runs, no deadlock" {
	run --separate-stderr timeout 300 "$RG" run --log "$LOG" -- "$T/rgvforkexec" "$W" 300
	vforkexec_check
	[ "$(cat dst)" = x ] || fail "dst: $(cat dst)"
}

@test "t3110.04 as uid 65534, vfork+exec while four threads write and rename through the hooks: every child runs" {
	as_nobody_setup
	as_nobody "$T/rgvforkexec" . 300
	vforkexec_check
	[ "$(cat "$D/w/dst")" = x ] || fail "dst: $(cat "$D/w/dst")"
}

# fdleak_check DIR: after the calls, and after exec, the process holds the
# descriptors a bare process holds here, and every unread write was refused.
fdleak_check() {
	local bare
	bare=$("$T/rgfdleak" . 0 child)
	bare=${bare#child fds: }
	assert_success
	assert_equal "${lines[0]}" "parent fds: $bare"
	assert_equal "${lines[1]}" "child fds: $bare"
	[[ $stderr == *"refused=200" ]] || fail "not every blind write was refused: $stderr"
	[ "$(cat "$1/u")" = unread ] || fail "u changed: $(cat "$1/u")"
}

@test "t3110.05 after 200 rounds of reads, refusals, journaled writes, renames and removals, and across exec, no descriptor is left open" {
	printf 'old\n' >k
	printf 'unread\n' >u
	run --separate-stderr timeout 300 "$RG" run --log "$LOG" -- "$T/rgfdleak" "$W" 200
	fdleak_check "$W"
}

@test "t3110.06 as uid 65534, after 200 rounds of guarded, refused and journaled calls, and across exec, no descriptor is left open" {
	as_nobody_setup
	printf 'old\n' >"$D/w/k"
	printf 'unread\n' >"$D/w/u"
	chown 65534:65534 "$D/w/k" "$D/w/u"
	as_nobody "$T/rgfdleak" . 200
	fdleak_check "$D/w"
}
