#!/bin/sh
# Fetches a package that ships a native binary from the npm registry into a
# cache directory, once, and prints the binary's path.
# Usage: scripts/dev/fetch-npm-binary.sh PACKAGE PATH-IN-PACKAGE CACHE-DIR
# Exits 1 (with the reason on stderr) when the registry cannot be reached.
set -eu
pkg=$1 inpkg=$2 cache=$3
dir="$cache/$(printf '%s' "$pkg" | tr '/@' '__')"
if [ -x "$dir/package/$inpkg" ]; then
    echo "$dir/package/$inpkg"
    exit 0
fi
command -v npm >/dev/null 2>&1 || { echo "npm is not installed" >&2; exit 1; }
mkdir -p "$dir"
tmp=$(mktemp -d "$dir/.fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if ! (cd "$tmp" && timeout 300 npm pack --silent "$pkg" >pack.out 2>pack.err); then
    echo "cannot fetch $pkg from the npm registry: $(tail -n 3 "$tmp/pack.err")" >&2
    exit 1
fi
tar -xzf "$tmp"/*.tgz -C "$tmp"
rm -rf "$dir/package"
mv "$tmp/package" "$dir/package"
chmod +x "$dir/package/$inpkg"
echo "$dir/package/$inpkg"
