/* readguard run --session PATH: a session at a path the user chose (or,
 * given a running session's id, that session's table). */
#ifndef RG_NAMED_H
#define RG_NAMED_H

#include <stdint.h>

struct rg_settings;
/* Joins the session at PATH, or creates it there with s, owned by owner (or
 * taken over by owner if its owner is gone). Writes the absolute path to
 * out. Returns 1 if it created the session, 0 if it joined one, -1 after
 * reporting. */
int rg_session_open_named(const char *path, const struct rg_settings *s, int32_t owner, char *out,
                          unsigned long cap);

#endif
