#include "guard/tier/configured.h"
#include <string.h>

#include "core/toolmark.h"
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
    return rg_configure_output(name) && rg_configure_wrote(name, head, (size_t)n);
}
