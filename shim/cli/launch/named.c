/* Sessions with a name the user chose: `readguard run --session PATH`, so
 * an agent that restarts can come back to the reads it made. */
#include "cli/launch/named.h"
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/pick.h"
#include "cli/shown.h"
#include "os/procfd.h"
#include "os/session.h"
/* Children run in other directories, so READGUARD_SESSION must be
 * absolute; the file itself may not exist yet. */
static int absolute(const char *path, char *out, size_t cap)
{
    char dir[PATH_MAX], base[PATH_MAX], real[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    snprintf(base, sizeof base, "%s", path);
    const char *name = basename(base);
    const char *parent = dirname(dir);
    if (!realpath(parent, real)) {
        /* As --log does: the user must make the directory, so name it. */
        rg_err("--session '%s': the directory '%s' %s", rg_shown(path), rg_shown(parent),
               errno == ENOENT ? "does not exist" : strerror(errno));
        return -1;
    }
    if (!*name || strcmp(name, "/") == 0 || strcmp(name, ".") == 0 || strcmp(name, "..") == 0 ||
        snprintf(out, cap, "%s/%s", strcmp(real, "/") ? real : "", name) >= (int)cap) {
        rg_err("--session '%s': not a usable file name", rg_shown(path));
        return -1;
    }
    return 0;
}

/* Only the owner moves: the creator names the session (core/table.h). */
static void take_over(const char *path, int32_t owner)
{
    struct rg_table t;
    if (rg_session_attach(path, &t))
        return;
    if (!rg_session_owner_alive(t.hdr))
        atomic_store(&t.hdr->owner_pid, owner);
    rg_session_detach(&t);
}

int rg_session_open_named(const char *path, const struct rg_settings *s, int32_t owner, char *out,
                          unsigned long cap)
{
    /* --session means here what it means to every verb (pick.h): an id
     * joins that session's table, wherever it is, instead of creating a
     * file named after the id here. An id no table has is refused: that
     * session has ended, and a new table named so would pass for it. */
    struct rg_session_ref ref;
    rg_session_resolve(path, &ref);
    if (ref.id[0] && !ref.table) {
        rg_err("--session '%s': no table of this user's has that session id (the session has "
               "ended); to create a session table of that name here, give './%s'",
               rg_shown(path), rg_shown(path));
        return -1;
    }
    if (absolute(ref.table, out, cap) < 0)
        return -1;
    for (int tries = 0; tries < 3; tries++) {
        struct rg_table t;
        const char *why = rg_session_attach(out, &t);
        if (!why) {
            /* Joined. Its tree gets this launcher's descriptors too. The
             * owner is what keeps a session alive: take the role over only
             * from one that is gone. */
            rg_outputs_note(t.hdr);
            rg_session_detach(&t);
            take_over(out, owner);
            return 0;
        }
        bool there = access(out, F_OK) == 0;
        if (there && tries == 0)
            continue; /* another launcher made it since the attach looked */
        if (there || errno != ENOENT) {
            rg_err("--session '%s': %s", rg_shown(out), why);
            return -1;
        }
        char err[512];
        int r = rg_session_create_at(s, owner, out, err, sizeof err);
        if (r == 0)
            return 1;
        if (r != -EEXIST) { /* EEXIST: another launcher won; join it */
            rg_err("%s", err);
            return -1;
        }
    }
    rg_err("--session '%s': cannot create or join it", rg_shown(out));
    return -1;
}
