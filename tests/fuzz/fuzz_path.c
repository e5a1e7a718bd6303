/* Path joining and normalisation (rg_path_join, rg_path_under in
 * shim/text.c). Input: a base, a NUL, a path, and the output capacity in the
 * last byte. Properties: the result fits, is absolute and normal (no "//",
 * no "." or ".." component, no trailing slash), joining it again changes
 * nothing, and it lies under every leading part of itself. */
#include "core/text.h"
#include "fuzz.h"
#define MAX 1024

static void check_normal(const char *p)
{
    FUZZ_CHECK(p[0] == '/');
    size_t n = strlen(p);
    FUZZ_CHECK(n == 1 || p[n - 1] != '/');
    for (const char *c = p; *c;) {
        const char *e = strchrnul(c + 1, '/');
        size_t len = (size_t)(e - c - 1);
        if (n > 1) {
            FUZZ_CHECK(len > 0);
            FUZZ_CHECK(!(len == 1 && c[1] == '.'));
            FUZZ_CHECK(!(len == 2 && c[1] == '.' && c[2] == '.'));
        }
        c = e;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t cap = size ? 1 + data[size - 1] % 200 : MAX;
    if (size && data[size - 1] >= 200)
        cap = MAX; /* most inputs get room enough to succeed */
    size -= size > 0;
    char base[MAX], path[MAX];
    base[0] = '/';
    fuzz_take_string(&data, &size, base + 1, sizeof base - 1); /* base is absolute */
    fuzz_take_string(&data, &size, path, sizeof path);

    char *out = malloc(cap); /* exact size: ASan sees any overrun */
    FUZZ_CHECK(out);
    if (rg_path_join(out, cap, base, path)) {
        size_t n = strlen(out);
        FUZZ_CHECK(n < cap);
        check_normal(out);
        char again[MAX];
        FUZZ_CHECK(rg_path_join(again, sizeof again, "/", out));
        FUZZ_CHECK(strcmp(again, out) == 0);
        FUZZ_CHECK(rg_path_under(out, "/"));
        FUZZ_CHECK(rg_path_under(out, out));
        /* Every prefix ending before a slash is a directory above it. */
        for (size_t i = 1; i < n; i++)
            if (out[i] == '/') {
                out[i] = '\0';
                char root[MAX];
                memcpy(root, out, i + 1);
                out[i] = '/';
                FUZZ_CHECK(rg_path_under(out, root));
                FUZZ_CHECK(!rg_path_under(root, out));
            }
    }
    free(out);
    return 0;
}
