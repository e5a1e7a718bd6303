#!/usr/bin/env bats
# The hostile tree (tests/e2e/escape.bash): each vector runs a whole session
# as uid 65534 and tries to destroy a file it never read, in each mode the
# vector applies to. scripts/dev/escape-suite.sh prints the same set as a
# table. Alongside each, the ordinary use the fix must keep working.

load helper
load escape

setup() {
	[ -x "$RG" ] || fail "$RG not built (run make)"
	[ "$(id -u)" -eq 0 ] || skip "needs root to run the session as uid 65534"
	command -v setpriv >/dev/null || skip "setpriv (util-linux) is not installed"
	ESC=
}

teardown() {
	esc_teardown
}

# --- rename laundering: a rename never makes an unread inode known ----------

@test "t6000.01 mv f x; mv x f leaves f unread: the write after is refused (preload)" {
	refused preload rename-launder
}

@test "t6000.02 mv f x; mv x f leaves f unread: the write after is refused (--supervise)" {
	refused supervise rename-launder
}

@test "t6000.03 mv f x; mv x f leaves f unread: the write after is refused (--strict)" {
	refused strict rename-launder
}

@test "t6000.04 ln f g; rm f; mv g f leaves f unread: the write after is refused (preload)" {
	refused preload link-launder
}

@test "t6000.05 ln f g; rm f; mv g f leaves f unread: the write after is refused (--supervise)" {
	refused supervise link-launder
}

@test "t6000.07 a read file moved within the root stays writable under its new name (preload)" {
	allowed preload 'cat f >/dev/null && mv f g && echo OK >g' g OK
}

@test "t6000.08 a read file moved within the root stays writable under its new name (--strict)" {
	allowed strict 'cat f >/dev/null && mv f g && echo OK >g' g OK
}

@test "t6000.09 the session's atomic save (temp written, renamed over a read file) stays writable (--strict)" {
	allowed strict 'cat f >/dev/null && echo v2 >tmp && mv tmp f && echo OK >f' f OK
}

@test "t6000.10 sed -i twice on a read file: the second edit is allowed too (preload)" {
	allowed preload 'cat f >/dev/null && sed -i s/ORIGINAL/one/ f && sed -i s/one/OK/ f' f OK
}
