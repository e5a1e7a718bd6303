/* Unit tests for os/nextsym.c: the walk of the loader's list finds what
 * dlsym(RTLD_NEXT) finds. Here the code is in the test program itself, so
 * "next" is every object after it: libc for each function the shim hooks. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "os/nextsym.h"

/* Every symbol hooks.def names (musl lacks a few: NULL both ways), and
 * some with more than one version in glibc. */
static const char *const HOOKED[] = {
#define RG_HOOK(family, shape, symbol) #symbol,
#include "preload/hooks.def"
#undef RG_HOOK
    "posix_spawn", "posix_spawnp", "execvpe", "system", "popen", "fopen", "fclose", "realpath",
};

TEST(finds_what_dlsym_next_finds)
{
    for (size_t i = 0; i < sizeof HOOKED / sizeof *HOOKED; i++) {
        void *walked = rg_next_func(HOOKED[i]);
        if (!check_true(walked == dlsym(RTLD_NEXT, HOOKED[i]), __FILE__, __LINE__,
                        "walked == dlsym(RTLD_NEXT)"))
            fprintf(stderr, "#     %s\n", HOOKED[i]);
    }
}

TEST(finds_the_spawns_and_the_shell_calls)
{
    CHECK(rg_next_func("posix_spawn") == dlsym(RTLD_NEXT, "posix_spawn"));
    CHECK(rg_next_func("posix_spawnp") == dlsym(RTLD_NEXT, "posix_spawnp"));
    CHECK(rg_next_func("system") == dlsym(RTLD_NEXT, "system"));
    CHECK(rg_next_func("popen") == dlsym(RTLD_NEXT, "popen"));
}

TEST(a_name_nothing_defines_is_null)
{
    CHECK(rg_next_func("rg_no_such_function_anywhere") == NULL);
    CHECK(rg_next_func("") == NULL);
}

/* glibc picks memcpy for the CPU with an IFUNC resolver: when dlsym finds
 * glibc's (no sanitizer's interceptor first), the walk leaves it to dlsym.
 * musl has no IFUNC. */
TEST(an_ifunc_is_left_to_dlsym)
{
    void *next = dlsym(RTLD_NEXT, "memcpy");
    Dl_info at;
#ifdef __GLIBC__
    if (dladdr(next, &at) && strstr(at.dli_fname, "/libc.so")) {
        CHECK(rg_next_func("memcpy") == NULL);
        return;
    }
#endif
    (void)at;
    CHECK(rg_next_func("memcpy") == next);
}

/* A library dlopen'ed later with RTLD_LOCAL is on the loader's list but
 * not in the scope RTLD_NEXT searches (and a dlclose in another thread can
 * unmap it under a walk): a name libc lacks is left to dlsym (NULL), never
 * found there. libm's cbrt is a plain function libc does not define (under
 * ASan libm is loaded at start, after libc: dlsym finds it, the walk
 * leaves it to dlsym); on musl libm is libc, and there is nothing to
 * dlopen. */
TEST(a_library_dlopened_locally_is_not_searched)
{
    void *m = dlopen("libm.so.6", RTLD_NOW | RTLD_LOCAL);
    if (!m)
        return;
    void *walked = rg_next_func("cbrt");
    CHECK(walked == NULL || walked == dlsym(RTLD_NEXT, "cbrt"));
    CHECK(rg_next_func("open") == dlsym(RTLD_NEXT, "open"));
    dlclose(m);
}

/* Before main()'s arguments are noted the walk does not know where the
 * program is (glibc; musl asks getauxval). Run first. */
TEST(nothing_before_the_start_is_noted)
{
#ifdef __GLIBC__
    CHECK(rg_next_func("posix_spawn") == NULL);
#else
    CHECK(rg_next_func("posix_spawn") == dlsym(RTLD_NEXT, "posix_spawn"));
#endif
}

/* A copy of the environment is not where the auxiliary vector follows:
 * it is not noted (a dlopen after a setenv hands constructors one). */
TEST(an_environment_elsewhere_is_not_noted)
{
    /* After its NULL, what would read as AT_PHDR 1: a crash if noted. */
    static char *env[] = {"A=1", NULL, (char *)3, (char *)1, NULL, NULL};
    char *argv[] = {"prog", NULL};
    rg_next_note_start(1, argv, env);
#ifdef __GLIBC__
    CHECK(rg_next_func("posix_spawn") == NULL);
#endif
}

/* glibc's unsetenv shifts the start-up environment down in place: the
 * NULLs it leaves before the auxiliary vector are passed over. Run right
 * after the note, before a walk that answers is remembered. */
TEST(an_environment_unset_in_place_is_still_read)
{
    extern char **environ;
    char name[256];
    size_t n = environ && environ[0] ? strcspn(environ[0], "=") : sizeof name;
    if (n >= sizeof name)
        return; /* nothing to unset */
    memcpy(name, environ[0], n);
    name[n] = '\0';
    CHECK(unsetenv(name) == 0);
    CHECK(rg_next_func("posix_spawn") == dlsym(RTLD_NEXT, "posix_spawn"));
}

int main(int argc, char **argv, char **envp)
{
    RUN(nothing_before_the_start_is_noted);
    RUN(an_environment_elsewhere_is_not_noted);
    rg_next_note_start(argc, argv, envp);
    RUN(an_environment_unset_in_place_is_still_read);
    RUN(finds_what_dlsym_next_finds);
    RUN(finds_the_spawns_and_the_shell_calls);
    RUN(a_name_nothing_defines_is_null);
    RUN(an_ifunc_is_left_to_dlsym);
    RUN(a_library_dlopened_locally_is_not_searched);
    return check_done();
}
