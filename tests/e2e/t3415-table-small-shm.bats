#!/usr/bin/env bats
# Where a session's table goes when /dev/shm is small (64 MiB in a Docker
# container): a table is backed as it fills, so /dev/shm is chosen if it has
# room for what creation takes, not for the whole 80 MiB; one with less
# than that is passed over for $XDG_RUNTIME_DIR, as before.

load helper

# in_small_shm SIZE: "$RG" run -- (read f, then print the table's path) with
# no READGUARD_DIR, in a mount namespace of the test's own whose /dev/shm
# is a tmpfs of SIZE. Skips where that cannot be had.
in_small_shm() {
	unshare -m true 2>/dev/null || skip "no mount namespaces here"
	local ns=(unshare -m)
	[ "$(id -u)" = 0 ] || ns=(unshare -rm)
	mkfile f "content"
	run --separate-stderr "${ns[@]}" sh -c 'mount -t tmpfs -o size="$1" tmpfs /dev/shm || exit 77
unset READGUARD_DIR
"$2" run -- sh -c "cat f >/dev/null && echo \$READGUARD_SESSION"' sh "$1" "$RG"
	[ "$status" != 77 ] || skip "cannot mount a tmpfs on /dev/shm here"
}

@test "t3415.01 a session's table goes to a /dev/shm too small for the whole table" {
	in_small_shm 16m
	assert_success
	[[ $output == /dev/shm/readguard-* ]] || fail "table at '$output': $stderr"
	assert_equal "$stderr" ""
}

@test "t3415.02 a /dev/shm without room for a table's header is passed over for XDG_RUNTIME_DIR" {
	in_small_shm 16k
	assert_success
	[[ $output == "$XDG_RUNTIME_DIR"/readguard-* ]] || fail "table at '$output': $stderr"
}
