/* A source distribution a packer wrote: make dist (automake's
 * PACKAGE-VERSION.tar.gz, or .tar.xz, .tar.bz2, .tar.zst with dist-xz,
 * dist-bzip2, dist-zstd), npm pack (NAME-VERSION.tgz), yarn pack
 * (NAME-vVERSION.tgz; package.tgz since yarn 2), python's sdist.
 * Each run writes it over unread, in the directory it was run from, and
 * outside a git work tree (or with no ignore rule for it) no rule says it
 * is the packer's. Told by its name, NAME-VERSION and a tarball's
 * extension, and its first bytes, its compressor's magic number: nobody
 * writes a compressed archive by hand. Journaled (readguard(1), IGNORE
 * RULES, Markers), never free: a release tarball kept in a project may be
 * the only copy of it. Pure: works on bytes the caller read. */
#ifndef RG_DISTMARK_H
#define RG_DISTMARK_H

#include <stdbool.h>
#include <stddef.h>

/* The most first bytes a compressor's magic number needs (xz's six). */
#define RG_DIST_HEAD 6

/* Is name (a last component) NAME-VERSION.EXT, VERSION beginning with a
 * digit or 'v' and a digit and NAME not empty, or package.tgz, whose first n bytes are the magic
 * number of EXT's compressor (.tar.gz and .tgz: gzip; .tar.xz; .tar.bz2; .tar.zst)? */
bool rg_dist_tarball(const char *name, const char *head, size_t n);

#endif
