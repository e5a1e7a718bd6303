#!/bin/sh
# Builds the Debian package from a build tree: make install into a staging
# root with PREFIX=/usr, plus what Debian asks of a package (control file,
# copyright, compressed changelog and man page, stripped binaries).
# Usage: scripts/dev/deb/build.sh OUTDIR VERSION   (run by `make deb`)
set -eu
out=$1 version=$2
mkdir -p "$out"
out=$(cd "$out" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
arch=$(dpkg --print-architecture)
stage="$out/stage"

rm -rf "$stage"
make -s -C "$top" install DESTDIR="$stage" PREFIX=/usr >/dev/null
# Debian policy: binaries stripped, man pages and changelogs compressed with
# gzip -9n (no name or time stamp, so the build is reproducible).
strip --remove-section=.comment --remove-section=.note --strip-unneeded \
    "$stage/usr/bin/readguard" "$stage"/usr/lib/*/readguard/libreadguard.so
# The musl build of the shim (make musl), for musl programs: it links
# musl's libc.so, which lintian does not count as a libc.
for musl in "$stage"/usr/lib/*/readguard/musl/libreadguard.so; do
    [ -f "$musl" ] || continue
    strip --remove-section=.comment --remove-section=.note --strip-unneeded "$musl"
    install -d -m 0755 "$stage/usr/share/lintian/overrides"
    printf 'readguard: library-not-linked-against-libc [%s]\n' "${musl#"$stage"/}" \
        >"$stage/usr/share/lintian/overrides/readguard"
    chmod 0644 "$stage/usr/share/lintian/overrides/readguard"
done
gzip -9nf "$stage/usr/share/man/man1/readguard.1"
doc="$stage/usr/share/doc/readguard"
install -d -m 0755 "$doc"
install -m 0644 "$here/copyright" "$doc/copyright"
date=$(date -R -d "@${SOURCE_DATE_EPOCH:-$(git -C "$top" log -1 --format=%ct 2>/dev/null || date +%s)}")
printf 'readguard (%s) unstable; urgency=medium\n\n  * Built from the readguard source tree; see CHANGELOG.md upstream.\n\n -- readguard developers <readguard@example.org>  %s\n' \
    "$version" "$date" | gzip -9n >"$doc/changelog.gz"
chmod 0644 "$doc/changelog.gz"

install -d -m 0755 "$stage/DEBIAN"
size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" \
    "$here/control.in" >"$stage/DEBIAN/control"
(cd "$stage" && find usr -type f -exec md5sum {} + | sort -k2) >"$stage/DEBIAN/md5sums"
chmod 0644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"

deb="$out/readguard_${version}_$arch.deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
rm -rf "$stage"
echo "$deb"
