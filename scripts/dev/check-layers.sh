#!/bin/bash
# Checks that the shim's layers depend one way, as their folders say:
#
#   core <- os <- guard <- {preload, supervise} <- cli
#
# A file may include headers of its own layer and of the layers below it,
# named with their folder ("core/table.h"), and no two files may include
# each other, directly or around a loop. Usage: check-layers.sh [SHIM_DIR]
set -u
shim=${1:-shim}
declare -A below=(
    [core]="core"
    [os]="core os"
    [guard]="core os guard"
    [preload]="core os guard preload"
    [supervise]="core os guard supervise"
    [cli]="core os guard supervise cli"
)
bad=0
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT

for dir in "$shim"/*/; do
    layer=$(basename "$dir")
    # Not a layer: what musl-gcc lacks, put in front of the layers by the
    # musl build's -include and -I, never included by name.
    [ "$layer" = musl ] && continue
    if [ -z "${below[$layer]:-}" ]; then
        echo "check-layers: $shim/$layer/ is not a layer (core, os, guard, preload, supervise, cli)" >&2
        bad=1
        continue
    fi
    while IFS= read -r file; do
        rel=${file#"$shim"/}
        module=${rel%.*}
        echo "$module $module" >>"$edges"
        while IFS= read -r inc; do
            target=${inc%%/*}
            if [ "$target" = "$inc" ]; then
                echo "check-layers: $rel includes \"$inc\": name its layer (\"$layer/$inc\")" >&2
                bad=1
            elif [[ " ${below[$layer]} " != *" $target "* ]]; then
                echo "check-layers: $rel includes \"$inc\": $layer/ may use only ${below[$layer]// /, }" >&2
                bad=1
            fi
            [ "${inc%.*}" != "$module" ] && echo "$module ${inc%.*}" >>"$edges"
        done < <(sed -n 's/^#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$file")
    done < <(find "$dir" -type f \( -name '*.c' -o -name '*.h' -o -name '*.def' \) | sort)
done

# tsort names, on stderr, the files of each loop it has to break.
loop=$(tsort "$edges" 2>&1 >/dev/null | grep -v 'input contains a loop' | sed 's/^tsort: //' |
    sort -u | tr '\n' ' ')
if [ -n "$loop" ]; then
    echo "check-layers: these files include each other in a loop: $loop" >&2
    bad=1
fi
exit "$bad"
