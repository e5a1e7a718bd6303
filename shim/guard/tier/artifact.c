#include "guard/tier/artifact.h"
#include <string.h>

#include "core/depmark.h"
#include "core/distmark.h"
#include "core/genmark.h"
#include "core/gomark.h"
#include "core/rejmark.h"
#include "core/toolmark.h"
bool rg_artifact_owned(const char *abs, const char *head, long n)
{
    const char *name = strrchr(abs, '/');
    name = name ? name + 1 : abs;
    if (n <= 0)
        return false;
    if (rg_wheel_name(name))
        return rg_wheel_head(head, (size_t)n);
    if (rg_mo_name(name))
        return rg_mo_head(head, (size_t)n);
    if (rg_gcov_data(name, head, (size_t)n) || rg_depfile(name, head, (size_t)n) ||
        rg_compdb(name, head, (size_t)n) || rg_go_generated(name, head, (size_t)n) ||
        rg_dist_tarball(name, head, (size_t)n) || rg_generator_wrote(name, head, (size_t)n) ||
        rg_patch_rejects(name, head, (size_t)n))
        return true;
    return rg_doctree_name(name) && rg_pickle_head(head, (size_t)n);
}
