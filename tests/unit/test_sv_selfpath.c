/* Unit tests for rg_sv_rewrite_self: the paths that name the calling
 * process are rewritten to the trapped process's /proc entries. */
#include <limits.h>

#include "check.h"
#include "supervise/supervise.h"
static const char *rw(const char *path)
{
    static char out[PATH_MAX];
    if (!rg_sv_rewrite_self(path, 100, 123, out, sizeof out))
        return NULL;
    return out;
}

TEST(proc_pid_names_the_process_below_proc)
{
    CHECK_EQ_INT(rg_sv_proc_pid("/proc/4242/cwd/f"), 4242);
    CHECK_EQ_INT(rg_sv_proc_pid("/proc/7"), 7);
    CHECK_EQ_INT(rg_sv_proc_pid("/proc/7/"), 7);
}

TEST(proc_pid_is_0_for_anything_else)
{
    CHECK_EQ_INT(rg_sv_proc_pid("/proc/self/fd/3"), 0);
    CHECK_EQ_INT(rg_sv_proc_pid("/proc/0/cwd"), 0);
    CHECK_EQ_INT(rg_sv_proc_pid("/proc/012/cwd"), 0);
    CHECK_EQ_INT(rg_sv_proc_pid("/proc/12x/cwd"), 0);
    CHECK_EQ_INT(rg_sv_proc_pid("/proc/99999999999/cwd"), 0);
    CHECK_EQ_INT(rg_sv_proc_pid("/proc/"), 0);
    CHECK_EQ_INT(rg_sv_proc_pid("/procx/12"), 0);
    CHECK_EQ_INT(rg_sv_proc_pid("proc/12"), 0);
}

TEST(proc_self_names_the_thread_group)
{
    CHECK_EQ_STR(rw("/proc/self"), "/proc/100");
    CHECK_EQ_STR(rw("/proc/self/fd/3"), "/proc/100/fd/3");
    CHECK_EQ_STR(rw("/proc/self/mem"), "/proc/100/mem");
}

TEST(thread_self_names_the_thread)
{
    CHECK_EQ_STR(rw("/proc/thread-self/fd/1"), "/proc/100/task/123/fd/1");
}

TEST(dev_fd_and_stdio_are_the_callers_descriptors)
{
    CHECK_EQ_STR(rw("/dev/fd/7"), "/proc/100/fd/7");
    CHECK_EQ_STR(rw("/dev/fd"), "/proc/100/fd");
    CHECK_EQ_STR(rw("/dev/stdin"), "/proc/100/fd/0");
    CHECK_EQ_STR(rw("/dev/stdout"), "/proc/100/fd/1");
    CHECK_EQ_STR(rw("/dev/stderr"), "/proc/100/fd/2");
}

TEST(lookalikes_are_left_alone)
{
    CHECK(rw("/proc/selfish") == NULL);
    CHECK(rw("/proc/1/fd/1") == NULL);
    CHECK(rw("/dev/fdx/1") == NULL);
    CHECK(rw("/dev/stdout/x") == NULL);
    CHECK(rw("proc/self/fd/1") == NULL);
    CHECK(rw("/dev/null") == NULL);
    CHECK(rw("") == NULL);
}

TEST(a_result_that_does_not_fit_is_not_a_rewrite)
{
    char small[8];
    CHECK(!rg_sv_rewrite_self("/proc/self/fd/1", 100, 123, small, sizeof small));
}

int main(void)
{
    RUN(proc_pid_names_the_process_below_proc);
    RUN(proc_pid_is_0_for_anything_else);
    RUN(proc_self_names_the_thread_group);
    RUN(thread_self_names_the_thread);
    RUN(dev_fd_and_stdio_are_the_callers_descriptors);
    RUN(lookalikes_are_left_alone);
    RUN(a_result_that_does_not_fit_is_not_a_rewrite);
    return check_done();
}
