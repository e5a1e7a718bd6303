#include "core/corepat.h"
#include <stddef.h>

bool rg_core_names_file(const char *pattern)
{
    if (!pattern)
        return true;
    return pattern[0] != '\0' && pattern[0] != '\n' && pattern[0] != '|';
}
