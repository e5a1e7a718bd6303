/* A tiny header-only test harness with TAP output. A failed CHECK prints
 * file:line and the expression to stderr as a TAP comment; the test goes on.
 * RUN prints "ok N - name" or "not ok N - name"; check_done prints the plan
 * "1..N" and returns the exit status, 1 if any test failed. */
#ifndef CHECK_H
#define CHECK_H

#include <stdio.h>
#include <string.h>

static int check_tests, check_failures, check_failed_now;

#define TEST(name) static void name(void)
#define RUN(name) check_run(name, #name)
#define CHECK(cond) check_true(!!(cond), __FILE__, __LINE__, #cond)
#define CHECK_EQ_INT(a, b) \
    check_eq_int((long long)(a), (long long)(b), __FILE__, __LINE__, #a " == " #b)
#define CHECK_EQ_STR(a, b) check_eq_str((a), (b), __FILE__, __LINE__, #a " == " #b)

static inline int check_true(int ok, const char *file, int line, const char *expr)
{
    if (!ok)
        fprintf(stderr, "#   %s:%d: check failed: %s\n", file, line, expr);
    check_failed_now |= !ok;
    return ok;
}

static inline void check_eq_int(long long a, long long b, const char *f, int l, const char *e)
{
    if (!check_true(a == b, f, l, e))
        fprintf(stderr, "#     left:  %lld (%#llx)\n#     right: %lld (%#llx)\n", a,
                (unsigned long long)a, b, (unsigned long long)b);
}

static inline void check_put_str(const char *label, const char *s)
{
    fprintf(stderr, s ? "#     %s\"" : "#     %sNULL\n", label);
    for (const unsigned char *p = (const unsigned char *)s; p && *p; p++)
        fprintf(stderr, *p < 0x20 || *p >= 0x7f || *p == '"' ? "\\x%02x" : "%c", *p);
    if (s)
        fputs("\"\n", stderr);
}

static inline void check_eq_str(const char *a, const char *b, const char *f, int l, const char *e)
{
    if (!check_true(a && b ? strcmp(a, b) == 0 : a == b, f, l, e))
        check_put_str("left:  ", a), check_put_str("right: ", b);
}

static inline void check_run(void (*fn)(void), const char *name)
{
    check_failed_now = 0;
    fflush(stdout);
    fn();
    check_failures += check_failed_now;
    printf("%sok %d - %s\n", check_failed_now ? "not " : "", ++check_tests, name);
    fflush(stdout);
}

static inline int check_done(void) { return printf("1..%d\n", check_tests), !!check_failures; }

#endif
