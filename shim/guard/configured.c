#include "guard/configured.h"
#include <string.h>

#include "core/toolmark.h"
#include "guard/filehead.h"
bool rg_configured_owned(const char *abs, int fd)
{
    const char *name = strrchr(abs, '/');
    name = name ? name + 1 : abs;
    /* The name first: any other file costs no read. */
    bool cmake = rg_cmake_output(name);
    if (!cmake && !rg_configure_output(name))
        return false;
    char head[RG_CONFIGURE_HEAD];
    long n = rg_fd_head(fd, head, sizeof head);
    if (n < 0)
        n = rg_file_head(abs, head, sizeof head);
    return n > 0 && (cmake ? rg_cmake_wrote(name, head, (size_t)n)
                           : rg_configure_wrote(name, head, (size_t)n));
}
