#!/usr/bin/env bats
# Two sessions keep into one journal while `readguard sessions --prune`
# runs again and again beside them: no kept version is lost, undo brings
# every file back. (A version under ten minutes old is never pruned, so
# this guards the prune's reading of live indexes and its lock, not the
# grace window: t1405.07-10 age objects for that.)

load helper

# churn PREFIX: a session reading and overwriting PREFIX1..40, removing
# every fourth, each kept by the journal.
churn() {
	rgsh 'for i in $(seq 40); do cat '"$1"'$i >/dev/null; if ((i % 4)); then echo new >'"$1"'$i; else rm '"$1"'$i; fi; done'
}

@test "t1418.01 two sessions keeping into one journal while sessions --prune runs beside them lose no version: undo brings back all 80 files" {
	local i p rc=0 prunes=0
	for p in a b; do
		for i in $(seq 40); do printf 'old %s%s\n' "$p" "$i" >"$p$i"; done
	done
	churn a &
	local pa=$!
	churn b &
	local pb=$!
	while kill -0 "$pa" 2>/dev/null || kill -0 "$pb" 2>/dev/null; do
		"$RG" sessions --prune >/dev/null 2>&1 || true
		prunes=$((prunes + 1))
	done
	wait "$pa" || rc=1
	wait "$pb" || rc=1
	[ "$rc" = 0 ] || fail "a session failed"
	[ "$prunes" -gt 2 ] || fail "only $prunes prunes ran beside the sessions"
	"$RG" sessions --prune >/dev/null 2>&1 || true
	for p in a b; do
		for i in $(seq 40); do
			run "$RG" undo --force "$p$i"
			assert_success
			[ "$(cat "$p$i")" = "old $p$i" ] || fail "$p$i: $(cat "$p$i" 2>&1)"
		done
	done
}
