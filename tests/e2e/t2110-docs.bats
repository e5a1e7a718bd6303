#!/usr/bin/env bats
# The docs: the man page, the README files and the bash completion.

load helper

MAN="$TOP/shim/cli/readguard.1"

@test "t2110.01 groff -ww renders the man page without a single warning" {
	command -v groff >/dev/null || skip "groff is not installed (groff-base)"
	run --separate-stderr groff -ww -man -Tutf8 "$MAN"
	assert_success
	[ -z "$stderr" ] || fail "groff warned: $stderr"
}

@test "t2110.02 man -l renders the man page without warnings" {
	command -v man >/dev/null || skip "man is not installed (man-db)"
	run --separate-stderr env MANWIDTH=80 man --warnings -l "$MAN"
	assert_success
	[ -z "$stderr" ] || fail "man warned: $stderr"
	assert_output --partial "READGUARD(1)"
}

@test "t2110.03 the man page covers every verb, every option of --help, and every variable" {
	local text verb opt
	text=$(MANWIDTH=200 man -l "$MAN" 2>/dev/null)
	for verb in run env end status reset forget mark check log sessions doctor hook history undo diff; do
		[[ $text == *"readguard $verb"* ]] || fail "no section for $verb"
		for opt in $("$RG" "$verb" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
			[[ $text == *"$opt"* ]] || fail "$verb: $opt is not in the man page"
		done
	done
	for var in READGUARD_SESSION READGUARD_ROOTS READGUARD_MODE READGUARD_LOG \
		READGUARD_CAPACITY READGUARD_DIR XDG_STATE_HOME LD_PRELOAD; do
		[[ $text == *"$var"* ]] || fail "$var is not in the man page"
	done
	for section in "EXIT STATUS" "LOG FORMAT" "EXAMPLES" "ENVIRONMENT"; do
		[[ $text == *"$section"* ]] || fail "no $section section"
	done
}

# complete WORDS...: what the completion offers for the last word.
complete_words() {
	[ -r /usr/share/bash-completion/bash_completion ] ||
		skip "bash-completion is not installed"
	PATH=${RG%/*}:$PATH bash -c '
		source /usr/share/bash-completion/bash_completion
		source "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_readguard readguard "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}"' _ "$TOP/scripts/share/readguard.bash-completion" "$@"
}

@test "t2110.04 bash completion offers the verbs" {
	run complete_words readguard s
	assert_success
	assert_line status
	assert_line sessions
	refute_line run
}

@test "t2110.05 bash completion offers a verb's options" {
	run complete_words readguard status --
	assert_line -- --json
	assert_line -- --files
	assert_line -- --session
}

# verb_options VERB: the long options VERB's --help lists (env: and run's,
# but those that need a command), one a line, without the dashes.
verb_options() {
	{
		"$RG" "$1" --help
		[ "$1" != env ] || "$RG" run --help | grep -vE -- '--(supervise|strict|help) '
	} | sed -nE 's/^ {2,6}(-[a-zA-Z], )?--([a-z][a-z-]*).*/\2/p' | sort -u
}

# takes_value VERB OPT: does VERB's getopt give --OPT a value? Asked with a
# value and an unknown option after it, so that the verb stops at the
# unknown option and does nothing.
takes_value() {
	local err
	err=$("$RG" "$1" "--$2=x" --no-such-option 2>&1 >/dev/null </dev/null)
	[[ $err != *"unrecognized option '--$2"* ]] || fail "$1: getopt does not know --$2"
	[[ $err != *"doesn't allow an argument"* ]]
}

VERBS_WITH_OPTIONS="run env end status reset forget mark check log sessions doctor history undo diff"

@test "t2110.17 bash completion offers every long option of every verb's --help" {
	local verb opt offered
	for verb in $VERBS_WITH_OPTIONS; do
		offered=$(complete_words readguard "$verb" -)
		for opt in $(verb_options "$verb"); do
			grep -qx -- "--$opt" <<<"$offered" || fail "$verb: --$opt is not offered"
		done
	done
}

@test "t2110.18 bash completion takes the next word as the value of each option that has one" {
	local verb opt n=0
	for verb in $VERBS_WITH_OPTIONS; do
		for opt in $(verb_options "$verb"); do
			if takes_value "$verb" "$opt"; then
				n=$((n + 1))
				! complete_words readguard "$verb" "--$opt" - | grep -q -- '^--' ||
					fail "$verb: the value of --$opt is completed as an option"
			else
				complete_words readguard "$verb" "--$opt" - | grep -qx -- --help ||
					fail "$verb: after --$opt, which takes no value, no option is offered"
			fi
		done
	done
	[ "$n" -ge 10 ] || fail "only $n options take a value"
}

@test "t2110.06 bash completion offers the modes after --mode" {
	run complete_words readguard run --mode ''
	assert_line enforce
	assert_line warn
}

# --- the README files --------------------------------------------------------

# The README files a reader follows links through: the top one, tests/, and
# one per layer folder under shim/.
readme_files() {
	printf '%s\n' "$TOP/README.md" "$TOP/tests/README.md"
	find "$TOP/shim" -name README.md | sort
}

# section FILE HEADING: the lines of a markdown section, up to the next
# second-level heading.
section() {
	awk -v h="$2" '$0 == h { on = 1; next } on && /^## / { exit } on' "$1"
}

@test "t2110.07 README.md is at most 250 lines" {
	local n
	n=$(wc -l <"$TOP/README.md")
	[ "$n" -le 250 ] || fail "README.md has $n lines; the reference belongs in readguard.1"
}

@test "t2110.08 README.md keeps its Quick start: make test, then a guarded shell" {
	run section "$TOP/README.md" "## Quick start"
	assert_success
	assert_line --regexp '^make test +#'
	assert_line --regexp '^build/readguard run -- bash +#'
	assert_line --partial "readguard: refused to write 'notes.txt': it has not been read in this session."
}

@test "t2110.09 every relative link in the README files points to a file that exists" {
	local f link target dir bad=
	while read -r f; do
		dir=$(dirname "$f")
		while read -r link; do
			case $link in
			http://* | https://* | mailto:* | '#'*) continue ;;
			esac
			target=${link%%#*}
			[ -e "$dir/$target" ] || bad+="${f#"$TOP"/}: ($link) "
		done < <(grep -oE '\]\([^)]+\)' "$f" | sed 's/^](//; s/)$//')
	done < <(readme_files)
	[ -z "$bad" ] || fail "broken links: $bad"
}

@test "t2110.10 every in-page link of a README file names one of its headings" {
	local f anchor slugs bad=
	while read -r f; do
		slugs=$(grep -E '^#+ ' "$f" | sed -E 's/^#+ +//' | tr 'A-Z' 'a-z' |
			sed -E 's/[^a-z0-9 _-]//g; s/ /-/g')
		while read -r anchor; do
			grep -qxF -- "$anchor" <<<"$slugs" || bad+="${f#"$TOP"/}: #$anchor "
		done < <(grep -oE '\]\(#[^)]+\)' "$f" | sed 's/^](#//; s/)$//')
	done < <(readme_files)
	[ -z "$bad" ] || fail "anchors with no heading: $bad"
}

@test "t2110.11 every layer folder under shim/ has a README.md that shim/README.md links to" {
	local d name bad=
	for d in "$TOP"/shim/*/; do
		name=$(basename "$d")
		[ -f "$d/README.md" ] || bad+="shim/$name has no README.md; "
		grep -qF "($name/README.md)" "$TOP/shim/README.md" ||
			bad+="shim/README.md does not link to $name/README.md; "
	done
	[ -z "$bad" ] || fail "$bad"
}

# readme_of FILE: the README.md of the nearest folder above FILE that has one.
readme_of() {
	local d
	d=$(dirname "$1")
	until [ -f "$d/README.md" ]; do d=$(dirname "$d"); done
	echo "$d/README.md"
}

# parts FILE: the first cells of the rows of FILE's tables headed "part" or
# "file", each name in them on a line of its own, without backquotes.
parts() {
	awk -F'|' '/^\| *(part|file) *\|/ { on = 1; next } !/^\|/ { on = 0 } on && !/^\|-/ { print $2 }' "$1" |
		tr -d '`' | tr ',' '\n' | sed 's/^ *//; s/ *$//; s:/$::'
}

@test "t2110.22 every source file under shim/ is named in its folder's README" {
	local f name readme bad=
	while read -r f; do
		name=$(basename "$f")
		readme=$(readme_of "$f")
		grep -qwF -- "${name%.*}" "$readme" || bad+="${f#"$TOP"/} (${readme#"$TOP"/}); "
	done < <(find "$TOP/shim" -type f \( -name '*.[ch]' -o -name '*.def' -o -name '*.ld' \))
	[ -z "$bad" ] || fail "not named in their README: $bad"
}

@test "t2110.23 every part a shim/ README's table lists is a file or folder there" {
	local readme dir part bad=
	while read -r readme; do
		dir=$(dirname "$readme")
		while read -r part; do
			# export.map is made by the build, in build/.
			[ -n "$part" ] && [ "$part" != export.map ] || continue
			[ -e "$dir/$part" ] || compgen -G "$dir/$part.*" >/dev/null ||
				bad+="${readme#"$TOP"/}: $part; "
		done < <(parts "$readme")
	done < <(find "$TOP/shim" -mindepth 2 -name README.md)
	[ -z "$bad" ] || fail "parts with no file: $bad"
}

@test "t2110.12 every verb of readguard --help has a man page section and a line in README's usage" {
	local verbs verb text usage
	verbs=$("$RG" --help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit }
		on && /^  [a-z]/ { print $1 }')
	[ -n "$verbs" ] || fail "no verbs found in readguard --help"
	text=$(MANWIDTH=200 man -l "$MAN" 2>/dev/null)
	usage=$(section "$TOP/README.md" "## Usage")
	for verb in $verbs; do
		grep -qE "^ {0,3}readguard $verb( |$)" <<<"$text" || fail "readguard.1: no section for $verb"
		grep -qE "readguard $verb( |\)|$)" <<<"$usage" || fail "README.md usage: no line for $verb"
	done
}

@test "t2110.13 every READGUARD_ variable in the code is in the man page's ENVIRONMENT" {
	local vars var envsec
	vars=$(grep -rhoE 'READGUARD_[A-Z_]+' "$TOP/shim" --include='*.c' --include='*.h' | sort -u)
	[ -n "$vars" ] || fail "no READGUARD_ variable found in shim/"
	envsec=$(MANWIDTH=200 man -l "$MAN" 2>/dev/null | awk '/^ENVIRONMENT/ { on = 1; next }
		on && /^[A-Z]/ { exit } on')
	for var in $vars; do
		grep -qE "^ +$var([^A-Z_]|$)" <<<"$envsec" || fail "$var is not described in ENVIRONMENT"
	done
}

@test "t2110.14 every option README's usage names is one readguard accepts" {
	local opts opt helps verb
	opts=$(section "$TOP/README.md" "## Usage" | grep -oE -- '--[a-z][a-z-]+' | sort -u)
	[ -n "$opts" ] || fail "no options found in README's usage"
	helps=$(for verb in run env end status reset forget mark check log sessions doctor history undo diff; do
		"$RG" "$verb" --help
	done)
	for opt in $opts; do
		grep -qE -- "$opt([ ,=]|$)" <<<"$helps" || fail "README.md names $opt, which no verb has"
	done
}

@test "t2110.15 bash completion offers Claude Code's hook events" {
	run complete_words readguard hook claude-code Pre
	assert_line PreToolUse
	assert_line PreCompact
	refute_line SessionStart
}

@test "t2110.16 the man page's SYNOPSIS names every verb of readguard --help" {
	local verbs verb synopsis
	verbs=$("$RG" --help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit }
		on && /^  [a-z]/ { print $1 }' | sort -u)
	synopsis=$(MANWIDTH=200 man -l "$MAN" 2>/dev/null | awk '/^SYNOPSIS/ { on = 1; next }
		on && /^[A-Z]/ { exit } on')
	for verb in $verbs; do
		grep -qE "readguard $verb( |\)|$)" <<<"$synopsis" || fail "SYNOPSIS: no $verb"
	done
}

@test "t2110.19 the man page's EXAMPLES do not run Claude Code under run, which INTEGRATIONS says covers less" {
	local examples
	examples=$(MANWIDTH=200 man -l "$MAN" 2>/dev/null | sed -n '/^EXAMPLES/,/^LIMITATIONS/p')
	[ -n "$examples" ] || fail "no EXAMPLES section"
	[[ $examples != *"readguard run -- claude"* ]] || fail "$examples"
	[[ $examples == *"INTEGRATIONS"* ]] || fail "$examples"
}

@test "t2110.20 no verb's --help sends the reader to the README, which make install does not install" {
	local verbs verb bad=
	verbs=$("$RG" --help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit }
		on && /^  [a-z]/ { print $1 }')
	[ -n "$verbs" ] || fail "no verbs found in readguard --help"
	for verb in $verbs; do
		"$RG" "$verb" --help | grep -q README && bad+=" $verb"
	done
	[ -z "$bad" ] || fail "--help naming README:$bad"
}

@test "t2110.21 readguard --help and every verb's --help fit an 80-column terminal" {
	local verbs verb long
	verbs=$("$RG" --help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit }
		on && /^  [a-z]/ { print $1 }' | sort -u)
	[ -n "$verbs" ] || fail "no verbs found in readguard --help"
	long=$({ "$RG" --help; for verb in $verbs; do "$RG" "$verb" --help; done; } 2>&1 |
		awk 'length($0) > 80')
	[ -z "$long" ] || fail "lines longer than 80 columns: $long"
}

# run returns when its command exits, leaving what runs in the background in
# the session (readguard(1), run): its --help said the session ended, table
# removed, only once every process of the tree had exited.
@test "t2110.24 run --help says run returns with its command, as the man page does" {
	run "$RG" run --help
	assert_output --partial "run returns when COMMAND exits"
	refute_output --partial "when every process of the tree"
}
