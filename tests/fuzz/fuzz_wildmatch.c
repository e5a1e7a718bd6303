/* The gitignore matcher (shim/wildmatch.c, shim/ignore.c). Input: a
 * pattern, a NUL, a path. Properties: matching terminates quickly (libFuzzer's
 * timeout catches exponential backtracking), a pattern without wildcards or
 * escapes matches exactly itself, "**" matches everything, and the ignore
 * rules built from the pattern answer without overrunning. */
#include "core/ignore.h"
#include "core/wildmatch.h"
#include "fuzz.h"
static bool literal(const char *p) { return !strpbrk(p, "*?[\\"); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char pattern[512], text[1024];
    fuzz_take_string(&data, &size, pattern, sizeof pattern);
    fuzz_take_string(&data, &size, text, sizeof text);
    bool m = rg_wildmatch(pattern, text, true);
    bool loose = rg_wildmatch(pattern, text, false);
    if (literal(pattern))
        FUZZ_CHECK(m == (strcmp(pattern, text) == 0) && loose == m);
    FUZZ_CHECK(rg_wildmatch(text, text, true) || !literal(text));
    FUZZ_CHECK(rg_wildmatch("**", text, true));

    char buf[2048];
    struct rg_ignore_list l = {.buf = buf, .cap = sizeof buf};
    if (rg_ignore_add_lines(&l, RG_IGN_EVERY_ROOT, pattern, strlen(pattern))) {
        char abs[1100];
        snprintf(abs, sizeof abs, "/root/%s", text[0] ? text : "x");
        rg_ignored(l.buf, l.len, "/root", 0, abs);
    }
    return 0;
}
