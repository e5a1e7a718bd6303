#include "guard/tier/configured.h"
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "core/toolmark.h"
#include "guard/tier/filehead.h"

/* cmake's install step writes install_manifest.txt beside the
 * cmake_install.cmake it ran: that script's own first line tells it. */
static bool cmake_installed(const char *abs, size_t dir_len)
{
    static const char script[] = "cmake_install.cmake";
    char path[PATH_MAX], head[RG_CONFIGURE_HEAD];
    int len = snprintf(path, sizeof path, "%.*s/%s", (int)dir_len, abs, script);
    if (len < 0 || (size_t)len >= sizeof path)
        return false;
    long n = rg_file_head(path, head, sizeof head);
    return n > 0 && rg_cmake_wrote(script, head, (size_t)n);
}
bool rg_configured_owned(const char *abs, const char *head, long n)
{
    const char *name = strrchr(abs, '/');
    name = name ? name + 1 : abs;
    if (n <= 0)
        return false;
    if (rg_perl_mymeta(name, head, (size_t)n))
        return true;
    if (rg_cmake_output(name))
        return rg_cmake_wrote(name, head, (size_t)n);
    if (rg_cmake_manifest(name, head, (size_t)n))
        return cmake_installed(abs, (size_t)(name - abs - (name > abs)));
    return rg_configure_output(name) && rg_configure_wrote(name, head, (size_t)n);
}
