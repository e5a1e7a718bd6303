/* rg_envp_build and friends: the environment an exec passes on. */
#include "core/envp.h"
#include <string.h>

#include "check.h"
#include "core/settings.h"
#include "core/tablebind.h"
static const struct rg_env_need NEED = {"/opt/rg/libreadguard.so", "/dev/shm/readguard-1-x",
                                        RG_LIBC_GLIBC, NULL};
#define GLIBC_SHIM "/opt/rg/libreadguard.so"
#define MUSL_SHIM "/opt/rg/musl/libreadguard.so"
#define LIB_SHIM "/opt/$LIB/readguard/libreadguard.so"

static char *out[16];
static char buf[512];

static long build(char *const *envp)
{
    memset(out, 0, sizeof out);
    return rg_envp_build(envp, &NEED, out, 16, buf, sizeof buf);
}

/* The position of NAME=... in out, or -1. */
static int find(const char *entry)
{
    for (int i = 0; out[i]; i++)
        if (strcmp(out[i], entry) == 0)
            return i;
    return -1;
}

static int count_prefix(const char *prefix)
{
    int n = 0;
    for (int i = 0; out[i]; i++)
        n += strncmp(out[i], prefix, strlen(prefix)) == 0;
    return n;
}

TEST(empty_env_gets_all_three)
{
    char *envp[] = {NULL};
    CHECK_EQ_INT(build(envp), 3);
    CHECK(find("LD_PRELOAD=/opt/rg/libreadguard.so") >= 0);
    CHECK(find("READGUARD_SESSION=/dev/shm/readguard-1-x") >= 0);
    CHECK(find("UV_USE_IO_URING=0") >= 0);
    CHECK(out[3] == NULL);
}

TEST(null_envp_is_an_empty_one)
{
    CHECK_EQ_INT(build(NULL), 3);
    CHECK(!rg_envp_complete(NULL, &NEED));
}

TEST(other_variables_are_kept_in_order)
{
    char *envp[] = {"A=1", "PATH=/bin", "B=", NULL};
    CHECK_EQ_INT(build(envp), 6);
    CHECK_EQ_STR(out[0], "A=1");
    CHECK_EQ_STR(out[1], "PATH=/bin");
    CHECK_EQ_STR(out[2], "B=");
}

TEST(shim_is_prepended_to_another_preload)
{
    char *envp[] = {"LD_PRELOAD=/usr/lib/libfoo.so", NULL};
    build(envp);
    CHECK(find("LD_PRELOAD=/opt/rg/libreadguard.so:/usr/lib/libfoo.so") >= 0);
    CHECK_EQ_INT(count_prefix("LD_PRELOAD="), 1);
}

TEST(a_preload_with_the_shim_is_left_alone)
{
    char *envp[] = {"LD_PRELOAD=/usr/lib/libfoo.so /x/$LIB/readguard/libreadguard.so", NULL};
    build(envp);
    CHECK_EQ_STR(out[0], envp[0]);
    CHECK_EQ_INT(count_prefix("LD_PRELOAD="), 1);
}

TEST(empty_preload_and_session_are_replaced)
{
    char *envp[] = {"LD_PRELOAD=", "READGUARD_SESSION=", NULL};
    CHECK_EQ_INT(build(envp), 3);
    CHECK(find("LD_PRELOAD=/opt/rg/libreadguard.so") >= 0);
    CHECK(find("READGUARD_SESSION=/dev/shm/readguard-1-x") >= 0);
}

TEST(a_session_already_set_is_kept)
{
    char *envp[] = {"READGUARD_SESSION=/dev/shm/other", NULL};
    build(envp);
    CHECK(find("READGUARD_SESSION=/dev/shm/other") >= 0);
    CHECK_EQ_INT(count_prefix("READGUARD_SESSION="), 1);
}

TEST(io_uring_is_forced_off_once)
{
    char *envp[] = {"UV_USE_IO_URING=1", "X=y", "UV_USE_IO_URING=1", NULL};
    build(envp);
    CHECK_EQ_INT(count_prefix("UV_USE_IO_URING="), 1);
    CHECK(find("UV_USE_IO_URING=0") >= 0);
}

TEST(duplicates_of_a_rebuilt_variable_go)
{
    char *envp[] = {"LD_PRELOAD=/a.so", "LD_PRELOAD=/b.so", NULL};
    build(envp);
    CHECK_EQ_INT(count_prefix("LD_PRELOAD="), 1);
    CHECK(find("LD_PRELOAD=/opt/rg/libreadguard.so:/a.so") >= 0);
}

TEST(complete_env_needs_nothing)
{
    char *envp[] = {"LD_PRELOAD=/opt/rg/libreadguard.so", "READGUARD_SESSION=/s",
                    "UV_USE_IO_URING=0", NULL};
    CHECK(rg_envp_complete(envp, &NEED));
    char *no_uring[] = {"LD_PRELOAD=/opt/rg/libreadguard.so", "READGUARD_SESSION=/s", NULL};
    CHECK(!rg_envp_complete(no_uring, &NEED));
}

TEST(null_needs_leave_those_variables)
{
    struct rg_env_need none = {NULL, NULL, RG_LIBC_GLIBC, NULL};
    char *envp[] = {"UV_USE_IO_URING=0", NULL};
    CHECK(rg_envp_complete(envp, &none));
    CHECK_EQ_INT(rg_envp_build(envp, &none, out, 16, buf, sizeof buf), 1);
}

#define BINDING "0000000000000801:0000000000000abc:00000000deadbeef"
static const struct rg_env_need BOUND = {"/opt/rg/libreadguard.so", "/dev/shm/readguard-1-x",
                                         RG_LIBC_GLIBC, BINDING};

static long build_bound(char *const *envp)
{
    memset(out, 0, sizeof out);
    return rg_envp_build(envp, &BOUND, out, 16, buf, sizeof buf);
}

TEST(an_emptied_env_gets_the_binding_with_the_session)
{
    char *envp[] = {NULL};
    CHECK(!rg_envp_complete(envp, &BOUND));
    CHECK_EQ_INT(build_bound(envp), 4);
    CHECK(find("READGUARD_SESSION=/dev/shm/readguard-1-x") >= 0);
    CHECK(find("READGUARD_SESSION_FILE=" BINDING) >= 0);
}

TEST(a_session_put_back_replaces_a_binding_left_behind)
{
    char *envp[] = {"READGUARD_SESSION_FILE=left", "READGUARD_SESSION=", NULL};
    build_bound(envp);
    CHECK_EQ_INT(count_prefix("READGUARD_SESSION_FILE="), 1);
    CHECK(find("READGUARD_SESSION_FILE=" BINDING) >= 0);
}

TEST(a_session_without_its_binding_gets_it)
{
    char *envp[] = {"LD_PRELOAD=/opt/rg/libreadguard.so",
                    "READGUARD_SESSION=/dev/shm/readguard-1-x", "UV_USE_IO_URING=0", NULL};
    CHECK(!rg_envp_complete(envp, &BOUND));
    CHECK_EQ_INT(build_bound(envp), 4);
    CHECK(find("READGUARD_SESSION_FILE=" BINDING) >= 0);
}

TEST(a_binding_already_set_is_kept)
{
    char *envp[] = {"LD_PRELOAD=/opt/rg/libreadguard.so", "READGUARD_SESSION=/s",
                    "READGUARD_SESSION_FILE=mine", "UV_USE_IO_URING=0", NULL};
    CHECK(rg_envp_complete(envp, &BOUND));
    char *no_uring[] = {"READGUARD_SESSION=/s", "READGUARD_SESSION_FILE=mine", NULL};
    build_bound(no_uring);
    CHECK(find("READGUARD_SESSION_FILE=mine") >= 0);
    CHECK_EQ_INT(count_prefix("READGUARD_SESSION_FILE="), 1);
}

TEST(env_vars_tells_the_binding_from_the_session)
{
    char *envp[] = {"READGUARD_SESSION_FILE=b", "READGUARD_SESSION=s", NULL};
    struct rg_env_vars v = rg_env_vars(envp);
    CHECK_EQ_STR(v.session, "s");
    CHECK_EQ_STR(v.binding, "b");
}

/* rg_env_vars compares "READGUARD_" once, then each name's rest, the
 * binding's after the session's: the names must keep that shape. */
TEST(env_vars_finds_each_of_ours_by_its_full_name)
{
    CHECK(strncmp(RG_ENV_SESSION_FILE, RG_ENV_SESSION, strlen(RG_ENV_SESSION)) == 0);
    char *envp[] = {RG_ENV_ROOTS "=/r",       RG_ENV_SESSION_LOG "=l", RG_ENV_SESSION_ID "=i",
                    RG_ENV_SESSION_FILE "=b", RG_ENV_OWNER "=12",      RG_ENV_TRAMPOLINE "=1",
                    RG_ENV_SESSION "=s",      "LD_PRELOAD=/p",         "UV_USE_IO_URING=0",
                    RG_ENV_SESSION "=second", RG_ENV_OWNER "=second",  NULL};
    struct rg_env_vars v = rg_env_vars(envp);
    CHECK_EQ_STR(v.session, "s");
    CHECK_EQ_STR(v.binding, "b");
    CHECK_EQ_STR(v.owner, "12");
    CHECK_EQ_STR(v.trampoline, "1");
    CHECK_EQ_STR(v.preload, "/p");
    CHECK_EQ_STR(v.uring, "0");
}

TEST(env_vars_takes_no_name_that_only_starts_or_ends_alike)
{
    char *envp[] = {"READGUARD_SESSIONX=a",
                    "READGUARD_SESSION_FILEX=a",
                    "READGUARD_SESSION_FIL=a",
                    "READGUARD_OWNE=a",
                    "READGUARD_=a",
                    "READGUARD",
                    "R",
                    "XREADGUARD_SESSION=a",
                    "LD_PRELOAD_X=a",
                    "L",
                    "ld_preload=a",
                    "\xcc\x44_PRELOAD=a" /* a byte above 127, as any other */,
                    "UV_USE_IO_URIN=a",
                    "READGUARD_TRAMPOLINE",
                    NULL};
    struct rg_env_vars v = rg_env_vars(envp);
    CHECK(!v.session && !v.binding && !v.owner && !v.trampoline && !v.preload && !v.uring);
}

TEST(out_without_room_for_the_binding_fails)
{
    char *envp[] = {"A=1", NULL};
    memset(out, 0, sizeof out);
    CHECK_EQ_INT(rg_envp_build(envp, &BOUND, out, 1 + RG_ENV_ADDS, buf, sizeof buf), -1);
    CHECK_EQ_INT(rg_envp_build(envp, &BOUND, out, 2 + RG_ENV_ADDS, buf, sizeof buf), 5);
}

TEST(too_small_out_fails)
{
    char *envp[] = {"A=1", "B=2", NULL};
    CHECK_EQ_INT(rg_envp_build(envp, &NEED, out, 2 + RG_ENV_ADDS, buf, sizeof buf), -1);
    CHECK_EQ_INT(rg_envp_build(envp, &NEED, out, 3 + RG_ENV_ADDS, buf, sizeof buf), 5);
}

TEST(too_small_buf_fails)
{
    char *envp[] = {NULL};
    char small[20];
    CHECK_EQ_INT(rg_envp_build(envp, &NEED, out, 16, small, sizeof small), -1);
}

TEST(preload_has_shim_matches_file_name_only)
{
    CHECK(rg_preload_has_shim("/x/libreadguard.so"));
    CHECK(rg_preload_has_shim("libreadguard.so"));
    CHECK(rg_preload_has_shim("/a.so:/x/libreadguard.so"));
    CHECK(rg_preload_has_shim("/a.so /x/libreadguard.so "));
    CHECK(!rg_preload_has_shim("/x/notlibreadguard.so"));
    CHECK(!rg_preload_has_shim("/x/libreadguard.so.1"));
    CHECK(!rg_preload_has_shim(""));
    CHECK(!rg_preload_has_shim(NULL));
}

/* The environment a program of `loader` gets, built with need. */
static long build_for(char *const *envp, const char *preload, enum rg_libc loader)
{
    struct rg_env_need need = {preload, "/s", loader, NULL};
    memset(out, 0, sizeof out);
    return rg_envp_build(envp, &need, out, 16, buf, sizeof buf);
}

TEST(a_musl_program_gets_the_musl_shim_in_place_of_glibcs)
{
    char *envp[] = {"LD_PRELOAD=" GLIBC_SHIM ":/usr/lib/libfoo.so", "READGUARD_SESSION=/s", NULL};
    struct rg_env_need need = {MUSL_SHIM, "/s", RG_LIBC_MUSL, NULL};
    CHECK(!rg_envp_complete(envp, &need));
    build_for(envp, MUSL_SHIM, RG_LIBC_MUSL);
    CHECK(find("LD_PRELOAD=" MUSL_SHIM ":/usr/lib/libfoo.so") >= 0);
    CHECK_EQ_INT(count_prefix("LD_PRELOAD="), 1);
}

TEST(a_glibc_program_gets_the_glibc_shim_in_place_of_musls)
{
    char *envp[] = {"LD_PRELOAD=" MUSL_SHIM, NULL};
    build_for(envp, GLIBC_SHIM, RG_LIBC_GLIBC);
    CHECK(find("LD_PRELOAD=" GLIBC_SHIM) >= 0);
    CHECK_EQ_INT(count_prefix("LD_PRELOAD="), 1);
}

TEST(a_lib_entry_survives_a_musl_program)
{
    char *envp[] = {"LD_PRELOAD=" LIB_SHIM, NULL};
    struct rg_env_need need = {MUSL_SHIM, "/s", RG_LIBC_MUSL, NULL};
    build_for(envp, MUSL_SHIM, RG_LIBC_MUSL);
    CHECK(find("LD_PRELOAD=" MUSL_SHIM ":" LIB_SHIM) >= 0);
    char *both[] = {"LD_PRELOAD=" MUSL_SHIM ":" LIB_SHIM, "READGUARD_SESSION=/s",
                    "UV_USE_IO_URING=0", NULL};
    CHECK(rg_envp_complete(both, &need));
}

TEST(a_musl_program_without_a_musl_shim_loses_an_absolute_glibc_entry)
{
    char *envp[] = {"LD_PRELOAD=" GLIBC_SHIM, "A=1", NULL};
    CHECK_EQ_INT(build_for(envp, NULL, RG_LIBC_MUSL), 3);
    CHECK_EQ_INT(count_prefix("LD_PRELOAD="), 0);
    CHECK(find("READGUARD_SESSION=/s") >= 0);
    char *other[] = {"LD_PRELOAD=/a.so " GLIBC_SHIM " /b.so", NULL};
    build_for(other, NULL, RG_LIBC_MUSL);
    CHECK(find("LD_PRELOAD=/a.so:/b.so") >= 0);
}

TEST(shim_libc_is_told_by_the_musl_directory)
{
    CHECK_EQ_INT(rg_shim_libc(MUSL_SHIM, strlen(MUSL_SHIM)), RG_LIBC_MUSL);
    CHECK_EQ_INT(rg_shim_libc(GLIBC_SHIM, strlen(GLIBC_SHIM)), RG_LIBC_GLIBC);
    CHECK_EQ_INT(rg_shim_libc("/x/notmusl/libreadguard.so", 26), RG_LIBC_GLIBC);
}

TEST(choose_hands_each_loader_its_build)
{
    struct rg_env_need n = {NULL, "/s", RG_LIBC_GLIBC, NULL};
    CHECK(rg_env_choose(&n, RG_PROG_MUSL, true, RG_LIBC_GLIBC, GLIBC_SHIM, MUSL_SHIM));
    CHECK_EQ_STR(n.preload, MUSL_SHIM);
    CHECK_EQ_INT(n.loader, RG_LIBC_MUSL);
    CHECK(rg_env_choose(&n, RG_PROG_GLIBC, true, RG_LIBC_MUSL, GLIBC_SHIM, MUSL_SHIM));
    CHECK_EQ_STR(n.preload, GLIBC_SHIM);
    CHECK_EQ_INT(n.loader, RG_LIBC_GLIBC);
}

TEST(choose_names_a_musl_program_without_its_build_unguarded)
{
    struct rg_env_need n = {NULL, "/s", RG_LIBC_GLIBC, NULL};
    CHECK(!rg_env_choose(&n, RG_PROG_MUSL, true, RG_LIBC_GLIBC, GLIBC_SHIM, NULL));
    CHECK(n.preload == NULL);
    CHECK(!rg_env_choose(&n, RG_PROG_MUSL, true, RG_LIBC_GLIBC, LIB_SHIM, NULL));
    CHECK_EQ_STR(n.preload, LIB_SHIM); /* for its glibc children */
    CHECK(!rg_env_choose(&n, RG_PROG_MUSL, false, RG_LIBC_GLIBC, GLIBC_SHIM, MUSL_SHIM));
}

TEST(choose_names_static_go_and_setid_unguarded_and_keeps_the_session)
{
    enum rg_prog kinds[] = {RG_PROG_STATIC, RG_PROG_GO, RG_PROG_SETID, RG_PROG_OTHER_LD};
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        struct rg_env_need n = {NULL, "/s", RG_LIBC_MUSL, NULL};
        CHECK(!rg_env_choose(&n, kinds[i], true, RG_LIBC_GLIBC, GLIBC_SHIM, MUSL_SHIM));
        CHECK_EQ_STR(n.preload, GLIBC_SHIM);
        CHECK_EQ_INT(n.loader, RG_LIBC_GLIBC);
    }
    struct rg_env_need n = {NULL, "/s", RG_LIBC_GLIBC, NULL};
    CHECK(rg_env_choose(&n, RG_PROG_UNKNOWN, false, RG_LIBC_GLIBC, GLIBC_SHIM, MUSL_SHIM));
    CHECK_EQ_STR(n.preload, GLIBC_SHIM);
}

int main(void)
{
    RUN(empty_env_gets_all_three);
    RUN(null_envp_is_an_empty_one);
    RUN(other_variables_are_kept_in_order);
    RUN(shim_is_prepended_to_another_preload);
    RUN(a_preload_with_the_shim_is_left_alone);
    RUN(empty_preload_and_session_are_replaced);
    RUN(a_session_already_set_is_kept);
    RUN(io_uring_is_forced_off_once);
    RUN(duplicates_of_a_rebuilt_variable_go);
    RUN(complete_env_needs_nothing);
    RUN(null_needs_leave_those_variables);
    RUN(an_emptied_env_gets_the_binding_with_the_session);
    RUN(a_session_put_back_replaces_a_binding_left_behind);
    RUN(a_session_without_its_binding_gets_it);
    RUN(a_binding_already_set_is_kept);
    RUN(env_vars_tells_the_binding_from_the_session);
    RUN(env_vars_finds_each_of_ours_by_its_full_name);
    RUN(env_vars_takes_no_name_that_only_starts_or_ends_alike);
    RUN(out_without_room_for_the_binding_fails);
    RUN(too_small_out_fails);
    RUN(too_small_buf_fails);
    RUN(preload_has_shim_matches_file_name_only);
    RUN(a_musl_program_gets_the_musl_shim_in_place_of_glibcs);
    RUN(a_glibc_program_gets_the_glibc_shim_in_place_of_musls);
    RUN(a_lib_entry_survives_a_musl_program);
    RUN(a_musl_program_without_a_musl_shim_loses_an_absolute_glibc_entry);
    RUN(shim_libc_is_told_by_the_musl_directory);
    RUN(choose_hands_each_loader_its_build);
    RUN(choose_names_a_musl_program_without_its_build_unguarded);
    RUN(choose_names_static_go_and_setid_unguarded_and_keeps_the_session);
    return check_done();
}
