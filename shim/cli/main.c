#include <bsd/stdlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

#ifndef RG_VERSION
#define RG_VERSION "0.1.0"
#endif

static const char usage[] =
    "Usage: readguard run [OPTION]... [--] COMMAND [ARG]...\n"
    "       readguard --help | --version\n"
    "\n"
    "Refuse writes to files a process tree has not read, or that changed since it\n"
    "read them. 'readguard run' starts a session and runs COMMAND in it.\n"
    "\n"
    "Run 'readguard run --help' for the options of run.\n";

void rg_err(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", getprogname());
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int main(int argc, char **argv)
{
    setprogname(argv[0]);
    if (argc < 2) {
        fputs(usage, stderr);
        return RG_EXIT_FAILURE;
    }
    const char *verb = argv[1];
    if (strcmp(verb, "--help") == 0 || strcmp(verb, "-h") == 0 || strcmp(verb, "help") == 0) {
        fputs(usage, stdout);
        return 0;
    }
    if (strcmp(verb, "--version") == 0) {
        printf("readguard %s\n", RG_VERSION);
        return 0;
    }
    if (strcmp(verb, "run") == 0)
        return rg_cmd_run(argc - 1, argv + 1);
    rg_err("unknown command '%s'\nTry 'readguard --help'.", verb);
    return RG_EXIT_FAILURE;
}
