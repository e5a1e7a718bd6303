/*
 * librgloadwait.so: a library whose constructor holds the dynamic loader's
 * lock for as long as a test needs, for rgforkload.
 *
 * dlopen() runs constructors with the loader's lock held. This one writes a
 * byte to the descriptor named by RGLOADWAIT_IN ("I am inside") and then
 * waits for a byte on RGLOADWAIT_GO before it returns.
 */
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void wait_inside(void)
{
    const char *in = getenv("RGLOADWAIT_IN"), *go = getenv("RGLOADWAIT_GO");
    char b = 'x';
    if (!in || !go || write(atoi(in), &b, 1) != 1)
        return;
    while (read(atoi(go), &b, 1) < 0)
        ;
}
