#include "guard/namehint.h"
#include <fcntl.h>
#include <unistd.h>

#include "core/namehint.h"
#include "guard/workdir.h"
#include "os/birth.h"
static bool named(int dirfd, const char *path)
{
    return path && path[0] && (dirfd == AT_FDCWD || path[0] == '/');
}

void rg_namehint_note(struct rg_ctx *c, int dirfd, const char *path, const struct rg_entry *e)
{
    if (e && named(dirfd, path))
        rg_table_name_note(&c->table, rg_name_key(path), e);
}

static enum rg_reason ask(struct rg_ctx *c, const char *name, const struct rg_file *f, int64_t born,
                          struct rg_record *was)
{
    struct rg_entry *e = rg_table_name_find(&c->table, rg_name_key(name));
    if (!e)
        return RG_WHY_UNREAD;
    struct rg_named then = {e->dev, e->ino, rg_entry_load(&c->table, e)};
    enum rg_reason r = rg_unread_reason(f, born, &then);
    if (r == RG_WHY_REPLACED)
        *was = then.rec;
    return r;
}

enum rg_reason rg_namehint_reason(struct rg_ctx *c, const struct rg_request *req, const char *abs,
                                  const struct rg_file *f, struct rg_record *was)
{
    if (c->table_state == RG_TABLE_BROKEN || !c->table.names)
        return RG_WHY_UNREAD;
    bool located = abs && abs[0] == '/';
    int64_t born = located ? rg_birth_ns(AT_FDCWD, abs, f->dev, f->ino)
                   : named(req->dirfd, req->path)
                       ? rg_birth_ns(req->dirfd, req->path, f->dev, f->ino)
                       : 0;
    char cwd[PATH_MAX];
    /* Relative to the working directory, as a read by a relative name noted it. */
    const char *rel =
        located && !c->actor && getcwd(cwd, sizeof cwd) ? rg_workdir_rel(abs, cwd) : NULL;
    enum rg_reason r =
        named(req->dirfd, req->path) ? ask(c, req->path, f, born, was) : RG_WHY_UNREAD;
    if (r == RG_WHY_UNREAD && located)
        r = ask(c, abs, f, born, was);
    if (r == RG_WHY_UNREAD && rel)
        r = ask(c, rel, f, born, was);
    return r;
}
