#include "guard/tier/texrun.h"
#include <limits.h>
#include <string.h>

#include "core/texmark.h"
#include "guard/tier/filehead.h"
bool rg_texrun_owned(const char *abs, const char *head, long n)
{
    if (n <= 0)
        return false;
    const char *name = strrchr(abs, '/');
    if (rg_tex_transcript(name ? name + 1 : abs, head, (size_t)n))
        return true;
    size_t stem;
    const struct rg_tex_output *o = rg_tex_output(abs, &stem);
    if (!o || !rg_tex_output_head(o, head, (size_t)n))
        return false;
    char sibling[PATH_MAX];
    size_t len = strlen(o->sibling);
    if (stem + len >= sizeof sibling)
        return false;
    memcpy(sibling, abs, stem);
    memcpy(sibling + stem, o->sibling, len + 1);
    char sh[RG_TEX_HEAD];
    long got = rg_file_head(sibling, sh, sizeof sh);
    return got > 0 && rg_tex_sibling_head(o, sh, (size_t)got);
}
