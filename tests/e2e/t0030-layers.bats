#!/usr/bin/env bats
# The shim's folders are its layers, used one way (scripts/dev/check-layers.sh):
# core <- os <- guard <- {preload, supervise} <- cli.

load helper

CHECK="$TOP/scripts/dev/check-layers.sh"

# A copy of shim/ to break.
copy_shim() {
	cp -r "$TOP/shim" "$W/shim"
}

@test "t0030.01 every include in shim/ points to its own layer or one below" {
	run "$CHECK" "$TOP/shim"
	assert_success
	assert_output ''
}

@test "t0030.02 an include of a layer above fails the check, naming the file" {
	copy_shim
	echo '#include "guard/ctx.h"' >>"$W/shim/core/table.c"
	run "$CHECK" "$W/shim"
	assert_failure
	assert_output --partial 'core/table.c includes "guard/ctx.h": core/ may use only core'
}

@test "t0030.03 the supervisor may not use the preload, nor the preload the supervisor" {
	copy_shim
	echo '#include "preload/context.h"' >>"$W/shim/supervise/notify.c"
	echo '#include "supervise/supervise.h"' >>"$W/shim/preload/context.c"
	run "$CHECK" "$W/shim"
	assert_failure
	assert_output --partial 'supervise/notify.c includes "preload/context.h"'
	assert_output --partial 'preload/context.c includes "supervise/supervise.h"'
}

@test "t0030.04 two files of one layer that include each other fail the check" {
	copy_shim
	echo '#include "guard/restamp.h"' >>"$W/shim/guard/ask.h"
	run "$CHECK" "$W/shim"
	assert_failure
	assert_output --partial 'in a loop: guard/ask guard/restamp'
}

@test "t0030.05 an include without its layer's folder fails the check" {
	copy_shim
	echo '#include "table.h"' >>"$W/shim/core/text.c"
	run "$CHECK" "$W/shim"
	assert_failure
	assert_output --partial 'core/text.c includes "table.h": name its layer ("core/table.h")'
}

@test "t0030.06 a folder that is not a layer fails the check" {
	copy_shim
	mkdir "$W/shim/misc"
	run "$CHECK" "$W/shim"
	assert_failure
	assert_output --partial 'misc/ is not a layer'
}
