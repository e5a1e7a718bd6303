/* rgsigtrunc DIR N SECONDS [blind]: a SIGALRM handler truncates and
 * rewrites the read file r while the main flow writes other files, N rounds
 * or for SECONDS, whichever ends first; prints rounds=R handler=H bad=B
 * last_ok=L. With blind, main write-opens the unread file v and the handler
 * the unread file u, and the handler counts as bad every open that is not
 * refused with EACCES: a handler that interrupts a hook must be guarded like
 * any other call. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
static volatile sig_atomic_t hits, bad, last, round_no, acted = -1;
static int blind;
/* The blind handler's open: refused is right; anything else is bad. */
static void blind_open(void)
{
    int fd = open("u", O_WRONLY | O_TRUNC);
    if (fd >= 0) {
        bad++;
        close(fd);
    } else if (errno != EACCES) {
        bad++;
    }
    hits++;
}
static void on_alarm(int sig)
{
    (void)sig;
    /* Once per round of main's: on a loaded machine a handler slower than
     * the timer's 200 us ran back to back, and main never got past its
     * first open (t3110.01 hit its timeout so). */
    if (acted == round_no)
        return;
    acted = round_no;
    int e = errno;
    if (blind) {
        blind_open();
        errno = e;
        return;
    }
    int fd = open("r", O_WRONLY | O_TRUNC);
    char b[16];
    if (fd < 0) {
        bad++;
        errno = e;
        return;
    }
    int n = snprintf(b, sizeof b, "h%d\n", (int)hits);
    if (write(fd, b, n) != n)
        bad++;
    close(fd);
    last = hits++;
    errno = e;
}
/* One round of main's: writes m0-m3 in turn, which the session made. */
static int main_write(int i)
{
    char name[16];
    int fd;
    snprintf(name, sizeof name, "m%d", i % 4);
    do
        fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        fprintf(stderr, "main open %s: %s\n", name, strerror(errno));
        return 0;
    }
    if (write(fd, name, strlen(name)) < 0 && errno != EINTR)
        return 0;
    close(fd);
    return 1;
}

/* Blind, main write-opens the unread v: a refusal keeps the thread inside
 * the shim for its whole report, the window a handler must not slip into
 * unguarded (main's own writes are judged without entering). */
static int main_refused(void)
{
    int fd;
    do
        fd = open("v", O_WRONLY | O_TRUNC);
    while (fd < 0 && errno == EINTR);
    if (fd >= 0 || errno != EACCES) {
        fprintf(stderr, "main open v: %s\n", fd >= 0 ? "allowed" : strerror(errno));
        return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    char b[64], name[16];
    int n, fd, i;
    struct timespec t0, now;
    if (argc < 4 || (n = atoi(argv[2])) < 0 || chdir(argv[1]) || (fd = open("r", O_RDONLY)) < 0)
        return 3;
    long budget = atol(argv[3]);
    blind = argc > 4 && !strcmp(argv[4], "blind");
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (read(fd, b, sizeof b) < 0)
        return 3;
    close(fd);
    signal(SIGALRM, on_alarm);
    struct itimerval it = {{0, 200}, {0, 200}};
    setitimer(ITIMER_REAL, &it, 0);
    for (i = 0; i < n; i++, round_no = i) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - t0.tv_sec >= budget)
            break;
        if (blind ? !main_refused() : !main_write(i))
            return 4;
    }
    memset(&it, 0, sizeof it);
    setitimer(ITIMER_REAL, &it, 0);
    fd = open("r", O_RDONLY);
    ssize_t k = read(fd, b, sizeof b - 1);
    close(fd);
    b[k > 0 ? k : 0] = 0;
    snprintf(name, sizeof name, "h%d\n", (int)last);
    printf("rounds=%d handler=%d bad=%d last_ok=%d\n", i, (int)hits, (int)bad,
           blind || hits == 0 || !strcmp(b, name));
    return 0;
}
