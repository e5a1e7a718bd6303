#include "guard/wheel.h"
#include <string.h>

#include "core/toolmark.h"
#include "guard/filehead.h"
bool rg_wheel_owned(const char *abs, int fd)
{
    const char *name = strrchr(abs, '/');
    name = name ? name + 1 : abs;
    /* The name first: any other file costs no read. */
    if (!rg_wheel_name(name))
        return false;
    char head[RG_WHEEL_HEAD];
    long n = rg_fd_head(fd, head, sizeof head);
    if (n < 0)
        n = rg_file_head(abs, head, sizeof head);
    return n > 0 && rg_wheel_head(head, (size_t)n);
}
