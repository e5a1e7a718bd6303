/* readguard doctor: can the preload guard this program? Reads the program's
 * ELF headers (never runs it) and names what the dynamic linker's
 * LD_PRELOAD cannot reach, with what to do instead. */
#include "cli/verbs.h"
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/elfscan.h"
#include "cli/launch/shim_path.h"
#include "cli/shown.h"
#include "cli/verbs.h"
#include "core/envp.h"
#include "core/progkind.h"
static const char usage[] =
    "Usage: readguard doctor [COMMAND]\n"
    "Say whether COMMAND (looked up on PATH; scripts are followed to their\n"
    "interpreter) can be guarded by the preload, one line per finding, each with\n"
    "what to do instead:\n"
    "  static (no ELF interpreter), setuid or setgid, 32-bit, Go, Bun,\n"
    "  a dynamic linker with no shim (musl without 'make musl', or another),\n"
    "  io_uring users (imports of io_uring_* or liburing; libuv programs such as\n"
    "  node when UV_USE_IO_URING is set).\n"
    "A glibc or musl program is named with the shim that guards it. A script\n"
    "cannot be told: it may run native programs (node_modules/.bin/tsc runs a\n"
    "Go binary), which a session names when they run.\n"
    "Without COMMAND, check readguard itself: the shim, and where tables go.\n"
    "\n"
    "  -h, --help           show this help and exit\n"
    "\n"
    "Exit status: 0 if nothing stands in the way (or it cannot be told), 1 if\n"
    "something does, 2 if COMMAND cannot be found or read.\n";

static const char supervise[] = "run it with 'readguard run --supervise' (seccomp), which "
                                "does not depend on the preload";

/* One run's tally: what decides the exit status. */
struct doctor {
    int findings;
};

static void finding(struct doctor *d, const char *path, const char *what, const char *instead)
{
    printf("%s: %s; %s.\n", path, what, instead);
    d->findings++;
}

/* The shim of each build that is installed: glibc's, and musl's beside it. */
static bool shim_of(enum rg_libc libc, char *out, size_t cap)
{
    char shim[PATH_MAX];
    if (rg_find_shim(shim, sizeof shim) < 0)
        return false;
    bool musl = rg_shim_libc(shim, strlen(shim)) == RG_LIBC_MUSL;
    if (libc == RG_LIBC_MUSL && !musl) {
        char *slash = strrchr(shim, '/');
        *slash = '\0';
        if (snprintf(out, cap, "%s/musl/libreadguard.so", shim) >= (int)cap)
            return false;
        return access(out, R_OK) == 0;
    }
    if (libc == RG_LIBC_GLIBC && musl) {
        *strrchr(shim, '/') = '\0';
        char *up = strrchr(shim, '/');
        if (!up)
            return false;
        *up = '\0';
        return snprintf(out, cap, "%s/libreadguard.so", shim) < (int)cap && access(out, R_OK) == 0;
    }
    return snprintf(out, cap, "%s", shim) < (int)cap;
}

/* A dynamic program with nothing else in the way: which shim its loader
 * takes, if one is installed. */
static void name_shim(struct doctor *d, const char *path, const char *loader)
{
    enum rg_prog kind = rg_interp_kind(loader);
    char shim[PATH_MAX];
    if (kind == RG_PROG_OTHER_LD) {
        finding(d, path,
                "its dynamic linker is neither glibc's nor musl's, and readguard has no "
                "shim for it",
                supervise);
        return;
    }
    enum rg_libc libc = kind == RG_PROG_MUSL ? RG_LIBC_MUSL : RG_LIBC_GLIBC;
    const char *name = libc == RG_LIBC_MUSL ? "musl" : "glibc";
    if (!shim_of(libc, shim, sizeof shim)) {
        char what[128];
        snprintf(what, sizeof what, "a %s program, and no %s build of the shim is installed", name,
                 name);
        finding(d, path, what,
                libc == RG_LIBC_MUSL ? "build and install it ('make musl', then 'make install'), "
                                       "or use 'readguard run --supervise'"
                                     : supervise);
        return;
    }
    printf("%s: a dynamically linked 64-bit %s program: the preload can guard it (%s).\n", path,
           name, shim);
}

static void check_elf64(struct doctor *d, const char *path, const struct rg_image *m)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)m->p;
    int before = d->findings;
    char loader[PATH_MAX];
    bool interp = rg_elf_interp(m, loader);
    struct rg_elf_traits t;
    rg_elf_traits(m, &t);
    if (!interp && eh->e_type == ET_EXEC)
        finding(d, path, "statically linked (no ELF interpreter): LD_PRELOAD never loads",
                supervise);
    else if (!interp && eh->e_type == ET_DYN)
        finding(d, path, "no ELF interpreter (static-pie, or a library): LD_PRELOAD never loads",
                supervise);
    if (t.go)
        finding(d, path,
                "a Go program: Go makes system calls itself, not through libc, so its "
                "reads and writes are not seen",
                supervise);
    if (t.bun)
        finding(d, path,
                "a Bun executable: Bun makes most system calls itself on Linux, so its "
                "reads are not seen, while some of its writes (rename) are checked and "
                "may be refused (for Claude Code, use its hooks: see INTEGRATIONS in readguard(1))",
                supervise);
    if (t.uring)
        finding(d, path,
                "uses io_uring (imports io_uring_* or links liburing): files opened "
                "through the ring are not seen",
                "turn io_uring off in the program if it can, or use 'readguard run "
                "--supervise'");
    /* libuv opens files through io_uring only when asked to, so this is a
     * finding only in an environment that asks. */
    const char *uv = getenv("UV_USE_IO_URING");
    if (t.libuv && uv && *uv && strcmp(uv, "0") != 0)
        finding(d, path,
                "uses libuv, and UV_USE_IO_URING is set: files opened through the ring "
                "are not seen",
                "unset UV_USE_IO_URING (or set it to 0) for the session");
    if (d->findings == before)
        name_shim(d, path, loader);
}

static int check_image(struct doctor *d, const char *path, const struct rg_image *m)
{
    if (m->size < EI_NIDENT || memcmp(m->p, ELFMAG, SELFMAG) != 0) {
        printf("%s: not an ELF program; nothing the preload would miss.\n", path);
        return 0;
    }
    if (m->p[EI_CLASS] == ELFCLASS32) {
        finding(d, path, "a 32-bit program: the installed shim is 64-bit",
                "install a 32-bit libreadguard.so under lib/i386-linux-gnu/readguard/ (the "
                "LD_PRELOAD path names $LIB), or use 'readguard run --supervise'");
        return 0;
    }
    if (m->p[EI_CLASS] != ELFCLASS64 || m->size < sizeof(Elf64_Ehdr)) {
        printf("%s: an ELF file readguard does not understand.\n", path);
        return 0;
    }
    check_elf64(d, path, m);
    return 0;
}

/* execvp goes on past a directory of the command's name (its execve fails
 * with EACCES): "doctor ." must not find one of PATH's directories. */
static bool runnable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* COMMAND as execvp would find it. */
static bool resolve(const char *cmd, char *out, size_t cap)
{
    if (strchr(cmd, '/'))
        return snprintf(out, cap, "%s", cmd) < (int)cap && access(out, F_OK) == 0;
    const char *path = getenv("PATH");
    for (const char *p = path && *path ? path : "/usr/local/bin:/usr/bin:/bin"; *p;) {
        size_t n = strcspn(p, ":");
        if (snprintf(out, cap, "%.*s%s%s", (int)n, p, n ? "/" : "", cmd) < (int)cap &&
            runnable(out))
            return true;
        p += n + (p[n] == ':');
    }
    return false;
}

static int diagnose(struct doctor *d, const char *cmd, int depth);

/* "#!/usr/bin/env node" → node; "#!/bin/sh -e" → /bin/sh. */
static int follow_script(struct doctor *d, const char *path, const struct rg_image *m, int depth)
{
    char line[PATH_MAX];
    /* The mapping ends where the file does: a script with no newline and no
     * NUL must not be read past its last byte. */
    const unsigned char *nl = memchr(m->p + 2, '\n', m->size - 2);
    size_t n = nl ? (size_t)(nl - (m->p + 2)) : m->size - 2;
    if (n >= sizeof line)
        n = sizeof line - 1;
    memcpy(line, m->p + 2, n);
    line[n] = '\0';
    char *save, *interp = strtok_r(line, " \t", &save), *arg = strtok_r(NULL, " \t", &save);
    if (!interp)
        return 0;
    const char *base = strrchr(interp, '/');
    if (strcmp(base ? base + 1 : interp, "env") == 0)
        while (arg && arg[0] == '-')
            arg = strtok_r(NULL, " \t", &save);
    const char *target = strcmp(base ? base + 1 : interp, "env") == 0 && arg ? arg : interp;
    printf("%s: a script run by %s\n", path, target);
    int r = depth < 3 ? diagnose(d, target, depth + 1) : 0;
    if (r == RG_EXIT_OK && depth == 0)
        printf("%s: cannot tell whether what it runs can be guarded: a script may run a native "
               "program (node_modules/.bin/tsc runs a Go binary); a session names each one it "
               "cannot guard when it runs.\n",
               path);
    return r;
}

static int diagnose(struct doctor *d, const char *cmd, int depth)
{
    char path[PATH_MAX];
    if (!resolve(cmd, path, sizeof path)) {
        rg_err("doctor: '%s': not found%s", rg_shown(cmd), strchr(cmd, '/') ? "" : " on PATH");
        return RG_EXIT_TROUBLE;
    }
    struct stat st;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        rg_err("doctor: '%s': %s", rg_shown(path), fd < 0 ? strerror(errno) : "not a regular file");
        if (fd >= 0)
            close(fd);
        return RG_EXIT_TROUBLE;
    }
    if (st.st_mode & (S_ISUID | S_ISGID))
        finding(d, path,
                st.st_mode & S_ISUID ? "setuid: the dynamic linker ignores LD_PRELOAD"
                                     : "setgid: the dynamic linker ignores LD_PRELOAD",
                "run it outside the session, or use a copy without the bit");
    struct rg_image m = {NULL, (size_t)st.st_size};
    void *map = m.size ? mmap(NULL, m.size, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
    close(fd);
    if (map == MAP_FAILED) {
        printf("%s: empty or unreadable; nothing to check.\n", path);
        return RG_EXIT_OK;
    }
    m.p = map;
    int r = m.size > 2 && m.p[0] == '#' && m.p[1] == '!' ? follow_script(d, path, &m, depth)
                                                         : check_image(d, path, &m);
    munmap(map, m.size);
    return r;
}

/* Without a command: is readguard itself in order? */
static int self_check(struct doctor *d)
{
    char shim[PATH_MAX], preload[PATH_MAX];
    if (rg_find_shim(shim, sizeof shim) < 0 || rg_preload_path(preload, sizeof preload) < 0) {
        finding(d, "readguard", "libreadguard.so is not next to the binary nor in ../lib/",
                "reinstall with 'make install'");
        return RG_EXIT_NO;
    }
    printf("shim: %s\nLD_PRELOAD for a session: %s\n", shim, preload);
    const char *dir = getenv("READGUARD_DIR");
    if (dir && *dir && access(dir, W_OK | X_OK) != 0)
        finding(d, dir, "READGUARD_DIR is not a writable directory",
                "point it at a directory every process of the session can write");
    else
        printf("session tables go to: %s\n", dir && *dir ? dir : "/dev/shm (if it has room)");
    return d->findings ? RG_EXIT_NO : RG_EXIT_OK;
}

int rg_cmd_doctor(int argc, char **argv)
{
    static const struct option longs[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int ch;
    while ((ch = rg_getopt(argc, argv, "+h", longs)) != -1) {
        if (ch == 'h') {
            fputs(usage, stdout);
            return RG_EXIT_OK;
        }
        fputs("Try 'readguard doctor --help'.\n", stderr);
        return RG_EXIT_TROUBLE;
    }
    struct doctor d = {0};
    if (optind >= argc)
        return self_check(&d);
    if (optind + 1 < argc) {
        fprintf(stderr, "readguard: doctor: one COMMAND at a time\n");
        fputs("Try 'readguard doctor --help'.\n", stderr);
        return RG_EXIT_TROUBLE;
    }
    int r = diagnose(&d, argv[optind], 0);
    if (r != RG_EXIT_OK)
        return r;
    return d.findings ? RG_EXIT_NO : RG_EXIT_OK;
}
