#include "core/syscall.h"
#include <fcntl.h>
#include <sys/syscall.h>

/* Names are arrays, not pointers: a table of pointers would cost every
 * process that loads the shim a relocation per name. */
struct row {
    long nr;
    char name[24];
    char via_syscall[40];
    enum rg_op op;
    int flags;
    unsigned char args[6]; /* enum rg_sc_arg */
};

#define RG_UNPAREN(...) __VA_ARGS__
#define RG_SYSCALL(name, op, flags, args) \
    {SYS_##name, #name, "syscall(SYS_" #name ")", op, flags, {RG_UNPAREN args}},
static const struct row rows[] = {
#include "core/syscalls.def"
};
#undef RG_SYSCALL

bool rg_syscall_decode(long nr, const uint64_t args[6], struct rg_syscall *out)
{
    const struct row *r = rows, *end = rows + sizeof rows / sizeof *rows;
    while (r < end && r->nr != nr)
        r++;
    if (r == end)
        return false;
    *out = (struct rg_syscall){.nr = nr,
                               .name = r->name,
                               .via_syscall = r->via_syscall,
                               .op = r->op,
                               .dirfd = AT_FDCWD,
                               .flags = r->flags,
                               .olddirfd = AT_FDCWD};
    for (int i = 0; i < 6; i++) {
        uint64_t x = args[i];
        switch ((enum rg_sc_arg)r->args[i]) {
        case RG_SC_NONE: break;
        case RG_SC_DIRFD: out->dirfd = (int)x; break;
        case RG_SC_PATH: out->path = x; break;
        case RG_SC_FLAGS: out->flags = (int)x; break;
        case RG_SC_MODE: out->mode = (mode_t)x; break;
        case RG_SC_OLDDIRFD: out->olddirfd = (int)x; break;
        case RG_SC_OLDPATH: out->oldpath = x; break;
        case RG_SC_HOW:
            out->how = x;
            out->flags_in_memory = true;
            break;
        case RG_SC_HOW_SIZE: out->how_size = x; break;
        case RG_SC_LENGTH: out->length = (int64_t)x; break;
        case RG_SC_OWNER: out->owner = (uint32_t)x; break;
        case RG_SC_GROUP: out->group = (uint32_t)x; break;
        case RG_SC_TIMES: out->times = x; break;
        case RG_SC_XNAME: out->xname = x; break;
        case RG_SC_XVALUE: out->xvalue = x; break;
        case RG_SC_XSIZE: out->xsize = x; break;
        case RG_SC_XFLAGS: out->xflags = (int)x; break;
        }
    }
    return true;
}
