/*
 * rgexecvp: run FILE through one of libc's PATH searches, with the
 * environment as it is, and say how it failed, for the readguard
 * end-to-end tests that compare the shim's search with glibc's.
 *
 *   rgexecvp VIA FILE [ARG]...   VIA: execvp, execvpe or execlp (with at
 *                                most three ARGs)
 *
 * Exit status: the program's when it ran; 120 after printing the errno's
 * name (ENOENT, EACCES...) on stdout when the exec failed; 2 usage.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3 || (strcmp(argv[1], "execlp") == 0 && argc > 6))
        return fprintf(stderr, "usage: rgexecvp VIA FILE [ARG]...\n"), 2;
    const char *via = argv[1], *file = argv[2];
    char **args = argv + 2;
    if (strcmp(via, "execvp") == 0)
        execvp(file, args);
    else if (strcmp(via, "execvpe") == 0)
        execvpe(file, args, environ);
    else if (strcmp(via, "execlp") == 0) {
        char *a[4] = {NULL, NULL, NULL, NULL};
        for (int i = 0; i < 4 && args[i]; i++)
            a[i] = args[i];
        execlp(file, a[0], a[1], a[2], a[3], (char *)NULL);
    } else
        return fprintf(stderr, "rgexecvp: no call %s\n", via), 2;
    printf("%s\n", strerrorname_np(errno));
    return 120;
}
