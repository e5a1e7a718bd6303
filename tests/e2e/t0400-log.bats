#!/usr/bin/env bats
# The JSON log (--log / READGUARD_LOG), warn mode, and how the stderr line
# names the path.

load helper

# log_check PYTHON-EXPR...: each expression must hold; `L` is the list of
# parsed log objects, `W` the scratch directory. Leaves $status/$output alone.
log_check() {
	local out
	out=$("$PY3" - "$LOG" "$W" "$@" 2>&1 <<'EOF'
import json, sys
log, W = sys.argv[1], sys.argv[2]
L = [json.loads(l) for l in open(log, 'rb').read().decode('utf-8').splitlines()]
for expr in sys.argv[3:]:
    if not eval(expr):
        print('failed: %s\nlog: %r' % (expr, L))
        sys.exit(1)
EOF
) || fail "$out"
}

FIELDS='time pid prog op path decision reason recorded_mtime current_mtime recorded_size current_size'

@test "t0400.01 a refusal writes one valid JSON line to the log" {
	mkfile f original
	run --separate-stderr rg bash -c 'echo new >f'
	assert_failure
	assert_refused f unread
	assert_log_json
	assert_equal "$(log_count)" 1
}

@test "t0400.02 the log line has every field" {
	mkfile f original
	run --separate-stderr rg bash -c 'echo new >f'
	assert_failure
	assert_log_json
	local k checks=()
	for k in $FIELDS; do
		checks+=("'$k' in L[0]")
	done
	log_check "${checks[@]}"
}

@test "t0400.03 an unread refusal logs an absolute path, decision refuse, reason unread" {
	mkfile f original
	run --separate-stderr rg bash -c 'echo new >f'
	assert_failure
	assert_log_json
	log_check 'L[0]["path"] == W + "/f"' \
		'L[0]["decision"] == "refuse"' \
		'L[0]["reason"] == "unread"' \
		'L[0]["current_size"] == 9' \
		'isinstance(L[0]["op"], str) and L[0]["op"] != ""' \
		'isinstance(L[0]["prog"], str) and L[0]["prog"] != ""'
}

@test "t0400.04 the log path is absolute when the program gave a relative path from a subdirectory" {
	mkdir d
	mkfile d/f original
	run --separate-stderr rg bash -c 'cd d && echo new >./f'
	assert_failure
	assert_refused ./f unread
	assert_log_json
	log_check 'L[0]["path"] == W + "/d/f"'
}

@test "t0400.05 the log records the pid and program of the refused process" {
	mkfile f original
	snapshot f
	run --separate-stderr rg bash -c 'echo $$ >pid; exec "$T/rgprobe" open f O_WRONLY'
	assert_probe_err EACCES
	assert_refused f unread
	assert_unchanged f
	assert_log_json
	log_check "L[0]['pid'] == $(cat pid)" \
		'"rgprobe" in L[0]["prog"]'
}

@test "t0400.06 a changed refusal logs reason changed with both mtimes and sizes" {
	mkfile f original
	bg_session 'cat f >/dev/null' 'echo new >f'
	external_write f x
	bg_finish
	assert_failure
	assert_refused f changed
	assert_log_json
	assert_equal "$(log_count)" 1
	log_check 'L[0]["path"] == W + "/f"' \
		'L[0]["decision"] == "refuse"' \
		'L[0]["reason"] == "changed"' \
		'L[0]["recorded_size"] == 9' \
		'L[0]["current_size"] == 2' \
		'L[0]["recorded_mtime"] != L[0]["current_mtime"]'
}

@test "t0400.07 each refused call gets its own log line and its own stderr line" {
	mkfile f original
	mkfile g original
	snapshot f g
	run --separate-stderr rg bash -c '"$T/rgprobe" open f O_WRONLY; "$T/rgprobe" open g O_WRONLY; "$T/rgprobe" truncate f 0'
	assert_failure
	[ "${#stderr_lines[@]}" -eq 3 ] || fail "expected 3 stderr lines: $stderr"
	assert_equal "$(count_rg_lines)" 3
	assert_unchanged f g
	assert_log_json
	assert_equal "$(log_count)" 3
	log_check '[o["path"] for o in L] == [W + "/f", W + "/g", W + "/f"]'
}

@test "t0400.08 allowed writes are not logged" {
	mkfile f original
	run --separate-stderr rg bash -c 'cat f >/dev/null; echo new >f; echo brand-new >g'
	assert_success
	refute_refused
	assert_equal "$(log_count)" 0
}

@test "t0400.09 warn mode lets the write through and logs decision warn" {
	mkfile f original
	run --separate-stderr "$RG" run --mode warn --log "$LOG" -- bash -c 'echo new >f'
	assert_success
	assert_content f new
	assert_log_json
	assert_equal "$(log_count)" 1
	log_check 'L[0]["path"] == W + "/f"' \
		'L[0]["decision"] == "warn"' \
		'L[0]["reason"] == "unread"'
}

@test "t0400.10 warn mode lets a write to a changed file through and logs reason changed" {
	mkfile f original
	bg_session 'cat f >/dev/null' 'echo new >f' --mode warn
	external_write f 'changed outside'
	bg_finish
	assert_success
	assert_content f new
	assert_log_json
	log_check 'L[0]["decision"] == "warn"' 'L[0]["reason"] == "changed"'
}

@test "t0400.11 warn mode: every entry point succeeds (rename, truncate, fopen)" {
	mkfile f original
	mkfile g original
	mkfile h original
	mkfile src replacement
	run --separate-stderr "$RG" run --mode warn --log "$LOG" -- bash -c '
		"$T/rgprobe" fopen f a && "$T/rgprobe" truncate g 1 && "$T/rgprobe" rename src h'
	assert_success
	assert_content h replacement
	assert_file_size_equals g 1
	assert_log_json
	assert_equal "$(log_count)" 3
	log_check 'all(o["decision"] == "warn" for o in L)'
}

@test "t0400.12 READGUARD_MODE=warn and READGUARD_LOG work for a preloaded process without a session" {
	mkfile f original
	run --separate-stderr env LD_PRELOAD="$SHIM" READGUARD_ROOTS="$W" READGUARD_MODE=warn READGUARD_LOG="$LOG" \
		bash -c 'echo new >f'
	assert_success
	assert_content f new
	assert_log_json
	log_check 'L[0]["decision"] == "warn"' 'L[0]["path"] == W + "/f"'
}

@test "t0400.13 READGUARD_LOG gets refusals of a preloaded process without a session" {
	mkfile f original
	snapshot f
	run --separate-stderr env LD_PRELOAD="$SHIM" READGUARD_ROOTS="$W" READGUARD_LOG="$LOG" bash -c 'echo new >f'
	assert_failure
	assert_refused f unread
	assert_unchanged f
	assert_log_json
	log_check 'L[0]["decision"] == "refuse"' 'L[0]["reason"] == "unread"'
}

@test "t0400.14 odd paths (newline, double quote, backslash, \\xff) give valid JSON" {
	names=($'new\nline' 'dq"uote' 'back\slash' $'inv\xffalid')
	for n in "${names[@]}"; do
		mkfile "$n" original
	done
	snapshot "${names[@]}"
	run --separate-stderr rg bash -c 'for n in "$@"; do "$T/rgprobe" open "$n" O_WRONLY; done' _ "${names[@]}"
	assert_failure
	[ "${#lines[@]}" -eq 4 ] || fail "expected 4 probe results: $output"
	[[ $output != *ok* ]] || fail "a write was allowed: $output"
	[ "$(grep -o "readguard: refused to write '" <<<"$stderr" | wc -l)" -eq 4 ] ||
		fail "expected 4 refusal messages: $stderr"
	assert_unchanged "${names[@]}"
	assert_log_json
	assert_equal "$(log_count)" 4
	log_check 'L[0]["path"] == W + "/new\nline"' \
		'L[1]["path"] == W + "/dq\"uote"' \
		'L[2]["path"] == W + "/back\\slash"' \
		'L[3]["path"].startswith(W + "/inv") and L[3]["path"].endswith("alid")'
}

@test "t0400.15 the stderr line quotes a relative path as given" {
	mkfile f original
	snapshot f
	run --separate-stderr rg "$T/rgprobe" open f O_WRONLY
	assert_probe_err EACCES
	assert_refused f unread
	assert_unchanged f
	[[ $stderr == "readguard: refused to write 'f': $MSG_UNREAD" ]] || fail "unexpected line: $stderr"
}

@test "t0400.16 the stderr line keeps a dotted relative path as given" {
	mkdir d
	mkfile f original
	snapshot f
	run --separate-stderr rg "$T/rgprobe" open ./d/../f O_WRONLY
	assert_probe_err EACCES
	assert_refused ./d/../f unread
	assert_unchanged f
}

@test "t0400.17 the stderr line keeps an absolute path as given" {
	mkfile f original
	snapshot f
	run --separate-stderr rg "$T/rgprobe" open "$W/f" O_WRONLY
	assert_probe_err EACCES
	assert_refused "$W/f" unread
	assert_unchanged f
}

@test "t0400.18 the stderr line for rename names the destination as given" {
	mkfile f original
	mkfile src replacement
	snapshot f src
	run --separate-stderr rg "$T/rgprobe" rename src ./f
	assert_probe_err EACCES
	assert_refused ./f unread
	assert_unchanged f src
	assert_log_json
	log_check 'L[0]["path"] == W + "/f"'
}

@test "t0400.19 the changed message names the read time, the modification time and both sizes" {
	mkfile f original
	bg_session '"$T/rgprobe" read f >/dev/null' '"$T/rgprobe" open f O_WRONLY'
	external_write f 'new and longer content'
	snapshot f
	bg_finish
	assert_probe_err EACCES
	assert_refused f changed
	assert_unchanged f
	[[ $stderr =~ ^"readguard: refused to write 'f': it changed since this session read it (read at ".+", now modified ".+", size 9 -> 23). Read it again, then retry."$ ]] ||
		fail "unexpected line: $stderr"
}

@test "t0400.20 a log path inside the guarded root does not disturb the session" {
	# $LOG lives in the scratch directory, which is the root: the shim's own
	# log writes must never be refused or recorded as the program's.
	mkfile f original
	snapshot f
	run --separate-stderr rg bash -c 'echo 1 >f; echo 2 >f'
	assert_failure
	assert_equal "$(count_rg_lines)" 2
	assert_equal "$(log_count)" 2
	assert_log_json
	run --separate-stderr rg bash -c 'echo 3 >f'
	assert_failure
	assert_refused f unread
	assert_equal "$(log_count)" 3
	assert_log_json
	assert_unchanged f
}

@test "t0400.21 without --log no log file appears in the working directory" {
	mkfile f original
	snapshot f
	run --separate-stderr "$RG" run -- bash -c 'echo new >f'
	assert_failure
	assert_refused f unread
	assert_unchanged f
	run find . -name '*.log' -o -name '*.json'
	assert_output ''
}

@test "t0400.22 --log in a directory that does not exist exits 125, naming it, and makes nothing" {
	run --separate-stderr "$RG" run --log "$W/no/dir/x.log" -- true
	assert_failure 125
	assert_equal "$stderr" "readguard: --log '$W/no/dir/x.log': the directory '$W/no/dir' does not exist"
	assert_not_exist "$W/no"
}

@test "t0400.23 a log under the state directory gets its missing directories, 0700" {
	mkfile f original
	local log="$XDG_STATE_HOME/readguard/sub/x.log"
	run --separate-stderr "$RG" run --log "$log" -- sh -c 'echo new >f'
	assert_failure
	assert_file_exist "$log"
	assert_equal "$(stat -c %a "$XDG_STATE_HOME/readguard/sub")" 700
}

@test "t0400.24 a preloaded process never makes READGUARD_LOG's missing directory" {
	mkfile f original
	run --separate-stderr env LD_PRELOAD="$SHIM" READGUARD_ROOTS="$W" READGUARD_LOG="$W/no/dir/x.log" bash -c 'echo new >f'
	assert_failure
	assert_refused f unread
	assert_not_exist "$W/no"
}

@test "t0400.25 without --log the log is \$XDG_STATE_HOME/readguard/TABLE.log, as run --help says" {
	mkfile f original
	run --separate-stderr "$RG" run -- sh -c 'printf %s "$READGUARD_SESSION" >table; echo new >f'
	assert_failure
	local log
	log="$XDG_STATE_HOME/readguard/$(basename "$(cat table)").log"
	assert_file_exist "$log"
	LOG=$log log_check 'L[0]["decision"] == "refuse"'
	run "$RG" run --help
	assert_output --partial 'default: $XDG_STATE_HOME/readguard/TABLE.log'
}

@test "t0400.26 without --log or XDG_STATE_HOME the log is ~/.local/state/readguard/TABLE.log" {
	mkfile f original
	local home=$BATS_TEST_TMPDIR/home
	mkdir "$home"
	HOME=$home run --separate-stderr env -u XDG_STATE_HOME "$RG" run -- sh -c \
		'printf %s "$READGUARD_SESSION" >table; echo new >f'
	assert_failure
	assert_file_exist "$home/.local/state/readguard/$(basename "$(cat table)").log"
}

# A name relative to a directory descriptor other than the working
# directory's means nothing on its own: cp and mv of coreutils 9 write
# `cp f d/` as openat(fd of d, "f"), and a line naming 'f' sends the reader
# to the source, which reading cannot unlock.
@test "t0400.27 cp into a directory over an unread file names the file in that directory, not the source" {
	mkdir d
	mkfile f source
	mkfile d/f original
	snapshot d/f
	run --separate-stderr rg cp f d/
	assert_failure
	assert_refused d/f unread
	assert_unchanged d/f
}

@test "t0400.28 mv into a directory over an unread file names the file in that directory, not the source" {
	mkdir d
	mkfile f source
	mkfile d/f original
	snapshot f d/f
	run --separate-stderr rg mv f d/
	assert_failure
	assert_refused d/f unread
	assert_unchanged f d/f
}

@test "t0400.29 --strict: a refused change of the sealed log is logged with the log's path" {
	out=$("$RG" run --strict -- true 2>&1) || skip "strict mode unavailable: $out"
	run "$RG" run --strict --log "$LOG" -- bash -c ': >"$1"' _ "$LOG"
	grep -q '"reason":"sealed"' "$LOG" || fail "the refusal is not logged: $(cat "$LOG")"
	grep '"reason":"sealed"' "$LOG" | grep -qF "\"path\":\"$(realpath "$LOG")\"" ||
		fail "not the log's path: $(cat "$LOG")"
}

@test "t0400.30 --strict: a refused removal in the sealed journal is logged with the path named" {
	out=$("$RG" run --strict -- true 2>&1) || skip "strict mode unavailable: $out"
	local j="$XDG_STATE_HOME/readguard/journal"
	mkdir -p "$j/objects"
	echo planted >"$j/objects/x"
	run "$RG" run --strict --log "$LOG" -- rm -f "$j/objects/x"
	assert_failure
	grep '"reason":"sealed"' "$LOG" | grep -qF "\"path\":\"$(realpath "$j/objects/x")\"" ||
		fail "not the path named: $(cat "$LOG")"
}

@test "t0400.31 a FIFO with no reader at the log's path: the refusal is told, one warning, and nothing hangs" {
	mkfile f original
	mkfifo "$LOG"
	run --separate-stderr timeout -s KILL 20 "$RG" run --log "$LOG" -- sh -c 'echo new >f; echo new >f'
	assert_failure
	assert_equal "$(grep -c "refused to write 'f'" <<<"$stderr")" 2
	assert_equal "$(grep -c "cannot write the log" <<<"$stderr")" 1
}

@test "t0400.32 --strict: a FIFO planted at the log's path is moved aside, and the refusal logged" {
	out=$("$RG" run --strict -- true 2>&1) || skip "strict mode unavailable: $out"
	mkfile f original
	local log="$XDG_STATE_HOME/readguard/planted.log"
	mkdir -p "${log%/*}"
	run --separate-stderr timeout -s KILL 20 "$RG" run --strict --log "$log" -- \
		sh -c 'mkfifo "$1"; echo new >f' _ "$log"
	assert_failure
	[ -f "$log" ] || fail "no log file: $(ls -la "${log%/*}")"
	grep -q '"reason":"unread"' "$log"
}

# Accepted, a directory left the session without a log, told only at its
# first refusal (EISDIR), after the command had long started.
@test "t0400.33 --log naming a directory exits 125 before the command runs" {
	run --separate-stderr "$RG" run --log "$W" -- sh -c 'echo ran'
	assert_failure 125
	assert_output ''
	assert_equal "$stderr" "readguard: --log '$W': is a directory: name the log file"
}
