#include "guard/artifact.h"
#include <string.h>

#include "core/toolmark.h"
#include "guard/filehead.h"
_Static_assert(RG_ARTIFACT_HEAD >= RG_WHEEL_HEAD && RG_ARTIFACT_HEAD >= RG_PICKLE_HEAD,
               "the head read holds every artifact's");
bool rg_artifact_owned(const char *abs, int fd)
{
    const char *name = strrchr(abs, '/');
    name = name ? name + 1 : abs;
    /* The name first: any other file costs no read. */
    bool wheel = rg_wheel_name(name);
    if (!wheel && !rg_doctree_name(name))
        return false;
    char head[RG_ARTIFACT_HEAD];
    long n = rg_fd_head(fd, head, sizeof head);
    if (n < 0)
        n = rg_file_head(abs, head, sizeof head);
    return n > 0 && (wheel ? rg_wheel_head(head, (size_t)n) : rg_pickle_head(head, (size_t)n));
}
