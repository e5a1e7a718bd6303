/* The caller's credentials. readguard opens files in the trapped process's
 * name, so it must open them with that process's rights: a process of the
 * tree that dropped privileges (runuser, setpriv, a daemon) must not read or
 * write through readguard what it could not itself. Credentials are per
 * thread in the kernel, so the handler thread takes the caller's file-system
 * uid and gid and its groups for the call (raw system calls: glibc would
 * apply setgroups to every thread) and gives them back afterwards; a root
 * caller that shed capabilities gets the file ones lowered to its own. The
 * common case, a caller with readguard's own ids, costs one stat, and
 * nothing when readguard is an unprivileged user (rg_sv_ids_own). */
#include <errno.h>
#include <linux/capability.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "supervise/supervise.h"
static long ids(const char *status, const char *name, int which)
{
    const char *p = strstr(status, name);
    if (!p)
        return -1;
    p += strlen(name);
    long v = -1;
    for (int i = 0; i <= which; i++)
        v = strtol(p, (char **)&p, 10);
    return v;
}

static int groups_of(const char *status, gid_t *out, int cap)
{
    const char *p = strstr(status, "\nGroups:");
    int n = 0;
    if (!p)
        return 0;
    p += 8;
    for (char *end; n < cap; p = end) {
        long g = strtol(p, &end, 10);
        if (end == p)
            break;
        out[n++] = (gid_t)g;
    }
    return n;
}

static bool switch_to(uid_t uid, gid_t gid, const gid_t *groups, int ngroups)
{
    if (syscall(SYS_setgroups, ngroups, groups) != 0)
        return false;
    setfsgid(gid);
    setfsuid(uid);
    /* setfs*id report the previous value, not success: ask again. */
    return (uid_t)setfsuid(uid) == uid && (gid_t)setfsgid(gid) == gid;
}

/* A readguard with one uid and one gid (real, effective and saved) and no
 * capabilities starts a tree that can never have others: the tree runs
 * with no_new_privs (launch.c), so no exec of a set-id or file-capable
 * program grants any, and without CAP_SETUID or CAP_SETGID a process can
 * only switch among the ids it has, and cannot change its groups. A user
 * namespace of the tree's own maps only those ids. Then the stat of
 * /proc/TID per call, a tenth of the supervisor's CPU, tells nothing. */
void rg_sv_ids_own(struct rg_sv_ids *own)
{
    uid_t ru, eu, su;
    gid_t rg, eg, sg;
    struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct caps[2];
    own->uid = geteuid();
    own->gid = getegid();
    own->uniform = getresuid(&ru, &eu, &su) == 0 && getresgid(&rg, &eg, &sg) == 0 && ru == eu &&
                   su == eu && rg == eg && sg == eg;
    bool got = syscall(SYS_capget, &h, caps) == 0;
    own->caps = got ? (uint64_t)caps[1].effective << 32 | caps[0].effective : 0;
    own->whole_tree = own->uniform && got && caps[0].permitted == 0 && caps[1].permitted == 0;
}

/* The capabilities that override a file's owner and mode, the kernel's
 * CAP_FS_MASK: a caller without them must not have them through readguard.
 * The others stay readguard's own (reading the caller's memory needs
 * CAP_SYS_PTRACE, whatever the caller has). */
#define CAP_BIT(c) ((uint64_t)1 << (c))
#define FS_CAPS                                                                      \
    (CAP_BIT(CAP_CHOWN) | CAP_BIT(CAP_DAC_OVERRIDE) | CAP_BIT(CAP_DAC_READ_SEARCH) | \
     CAP_BIT(CAP_FOWNER) | CAP_BIT(CAP_FSETID) | CAP_BIT(CAP_MKNOD) |                \
     CAP_BIT(CAP_LINUX_IMMUTABLE) | CAP_BIT(CAP_MAC_OVERRIDE))

/* The effective capabilities /proc/TID/status shows, or ~0 (all: nothing
 * to lower) where it cannot be read. */
static uint64_t caps_of(const char *status)
{
    const char *p = strstr(status, "\nCapEff:");
    return p ? strtoull(p + 8, NULL, 16) : ~(uint64_t)0;
}

/* Sets this thread's effective capabilities (capset acts on the calling
 * thread alone) to eff, within what it may have. */
static bool cap_to(uint64_t eff)
{
    struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct d[2];
    if (syscall(SYS_capget, &h, d) != 0)
        return false;
    d[0].effective = d[0].permitted & (uint32_t)eff;
    d[1].effective = d[1].permitted & (uint32_t)(eff >> 32);
    return syscall(SYS_capset, &h, d) == 0;
}

/* Each id argument -1 (kept) or the id all of them already are. */
static bool kept(uint32_t id, const uint64_t *args, int n)
{
    for (int i = 0; i < n; i++)
        if ((uint32_t)args[i] != (uint32_t)-1 && (uint32_t)args[i] != id)
            return false;
    return true;
}

/* A call that sets every id to the one it already is changes nothing: make
 * calls setresuid(-1, 0, -1) in each child it starts, as root. The ids
 * are in the registers, which the kernel uses as they are; setgroups' list
 * is in memory, another thread may rewrite it, and it always counts. */
void rg_sv_ids_note(struct rg_sv_ids *own, long nr, const uint64_t args[6])
{
    bool same = false;
    if (own->uniform) {
        switch (nr) {
        case SYS_setuid:
        case SYS_setfsuid: same = kept(own->uid, args, 1); break;
        case SYS_setreuid: same = kept(own->uid, args, 2); break;
        case SYS_setresuid: same = kept(own->uid, args, 3); break;
        case SYS_setgid:
        case SYS_setfsgid: same = kept(own->gid, args, 1); break;
        case SYS_setregid: same = kept(own->gid, args, 2); break;
        case SYS_setresgid: same = kept(own->gid, args, 3); break;
        default: break;
        }
    }
    if (!same)
        atomic_store(&own->moved, true);
}

int rg_sv_creds_enter(const struct rg_sv_target *t, const struct rg_sv_ids *own,
                      struct rg_sv_creds *c)
{
    struct stat st;
    char path[64], status[4096];
    c->switched = c->capped = false;
    if (own->whole_tree || !atomic_load(&own->moved))
        return 0;
    snprintf(path, sizeof path, "/proc/%d", (int)t->tid);
    /* Our own ids are no answer where we have capabilities the caller may
     * have dropped. */
    if (!own->caps && stat(path, &st) == 0 && st.st_uid == own->uid && st.st_gid == own->gid)
        return 0;
    int r = rg_sv_read_status(t->tid, status, sizeof status);
    if (r < 0)
        return r;
    long uid = ids(status, "\nUid:", 3), gid = ids(status, "\nGid:", 3);
    gid_t groups[RG_SV_GROUPS_MAX];
    int n = groups_of(status, groups, RG_SV_GROUPS_MAX);
    if (uid < 0 || gid < 0)
        return -ESRCH;
    if ((uid_t)uid != own->uid || (gid_t)gid != own->gid) {
        c->uid = own->uid;
        c->gid = own->gid;
        c->ngroups = getgroups(RG_SV_GROUPS_MAX, c->groups);
        c->switched = true;
        if (c->ngroups < 0 || !switch_to((uid_t)uid, (gid_t)gid, groups, n)) {
            rg_sv_creds_leave(c);
            return -EACCES; /* readguard cannot act as that user: refuse */
        }
    }
    /* After the ids, which need CAP_SETUID and CAP_SETGID to change. */
    uint64_t caps = caps_of(status) | ~FS_CAPS;
    c->caps = own->caps;
    if ((own->caps & ~caps) && !(c->capped = cap_to(own->caps & caps))) {
        rg_sv_creds_leave(c);
        return -EACCES; /* nor with that caller's capabilities */
    }
    return 0;
}

void rg_sv_creds_leave(struct rg_sv_creds *c)
{
    if (c->capped) /* first: the ids need them to change back */
        cap_to(c->caps);
    c->capped = false;
    if (c->switched)
        switch_to(c->uid, c->gid, c->groups, c->ngroups < 0 ? 0 : c->ngroups);
    c->switched = false;
}
