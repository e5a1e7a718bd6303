/* Naming by content the versions the shim kept by a link (guard/journal/link.h):
 * the shim keeps a file that loses its last name under a name that says
 * which inode it was, so that git replacing a thousand files hashes
 * nothing. Later, here, outside the session's hot path, each such version
 * gets its SHA-256 name and the linked name becomes a symlink to it: the
 * same bytes kept twice are stored once, and the object is 0600 like every
 * other. Readers follow the symlink and never need to know. */
#ifndef RG_JSETTLE_H
#define RG_JSETTLE_H

#include "cli/journal/store.h"
/* Is a linked object, by its name in objects/, one to settle? A prune
 * that has listed objects/ already knows, with no lstat of each. */
typedef bool rg_jsettle_wanted_fn(const char *object, void *arg);

/* Settles every linked version that l's records name (those wanted says
 * are, or all when wanted is NULL), in journal dir,
 * which the caller holds locked as a prune does (a flock of dir, prune.c).
 * Best effort: what cannot be settled now stays a whole file under its
 * linked name, and is tried again next time; one written to since it was
 * kept stays so for good. */
void rg_jsettle(const char *dir, const struct rg_jlist *l, rg_jsettle_wanted_fn *wanted, void *arg);

/* The same for session id's records, read from dir, under that lock: when
 * a run ends. Nothing, while a prune holds it. */
void rg_jsettle_session(const char *dir, const char *id);

#endif
