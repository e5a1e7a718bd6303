/* rg_envp_build and friends: the environment an exec passes on. */
#include "core/envp.h"

#include <string.h>

#include "check.h"

static const struct rg_env_need NEED = {"/opt/rg/libreadguard.so", "/dev/shm/readguard-1-x"};

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
    struct rg_env_need none = {NULL, NULL};
    char *envp[] = {"UV_USE_IO_URING=0", NULL};
    CHECK(rg_envp_complete(envp, &none));
    CHECK_EQ_INT(rg_envp_build(envp, &none, out, 16, buf, sizeof buf), 1);
}

TEST(too_small_out_fails)
{
    char *envp[] = {"A=1", "B=2", NULL};
    CHECK_EQ_INT(rg_envp_build(envp, &NEED, out, 5, buf, sizeof buf), -1);
    CHECK_EQ_INT(rg_envp_build(envp, &NEED, out, 6, buf, sizeof buf), 5);
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
    RUN(too_small_out_fails);
    RUN(too_small_buf_fails);
    RUN(preload_has_shim_matches_file_name_only);
    return check_done();
}
