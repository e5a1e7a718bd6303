#include "guard/unguarded.h"
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "core/jrecord.h"
#include "core/report.h"
#include "core/table.h"
#include "core/text.h"
#include "os/clock.h"
#include "os/logfile.h"
#include "os/sys.h"

/* Is this the first time the session sees the program? Marks it seen. A
 * full list counts every program as new: a repeated line beats silence. */
static bool first_time(struct rg_header *h, uint64_t dev, uint64_t ino)
{
    uint64_t key = rg_header_file_key(dev, ino);
    for (unsigned i = 0; i < RG_UNGUARDED_SLOTS; i++) {
        uint64_t old = 0;
        if (atomic_compare_exchange_strong_explicit(&h->unguarded[i], &old, key,
                                                    memory_order_relaxed, memory_order_relaxed))
            return true;
        if (old == key)
            return false;
    }
    return true;
}

static const char *why(enum rg_prog kind)
{
    switch (kind) {
    case RG_PROG_STATIC: return "it is statically linked, so it never loads the preload";
    case RG_PROG_GO: return "it is a Go program, which makes its system calls itself";
    case RG_PROG_SETID: return "it is setuid or setgid, and the loader ignores LD_PRELOAD for it";
    case RG_PROG_MUSL: return "it is a musl program, and no musl build of the shim is installed";
    case RG_PROG_GLIBC: return "it is a glibc program, and no glibc build of the shim is installed";
    default: return "its dynamic linker is neither glibc's nor musl's";
    }
}

static const char *reason_name(enum rg_prog kind)
{
    switch (kind) {
    case RG_PROG_STATIC: return "static";
    case RG_PROG_GO: return "go";
    case RG_PROG_SETID: return "setid";
    case RG_PROG_MUSL: return "no-musl-shim";
    case RG_PROG_GLIBC: return "no-glibc-shim";
    default: return "other-loader";
    }
}

static void tell(const struct rg_header *h, const struct rg_unguarded *u, int err_fd)
{
    /* The tree names its programs: a newline in one must not start a line. */
    char line[PATH_MAX + 256], shown[PATH_MAX];
    rg_line_escape(shown, sizeof shown, u->path);
    int n = snprintf(line, sizeof line,
                     "readguard: '%s' runs unguarded: %s; 'readguard run --supervise' guards "
                     "it.\n",
                     shown, why(u->kind));
    if (n > 0 && err_fd >= 0) {
        ssize_t w = write(err_fd, line, (size_t)n < sizeof line ? (size_t)n : sizeof line);
        (void)w;
    }
    if (!h->log_path[0] || memchr(h->log_path, '\0', sizeof h->log_path) == NULL)
        return;
    char sid[RG_JOURNAL_ID_MAX];
    rg_journal_id(sid, h->created_ns, h->creator_pid);
    struct rg_log_line l = {
        .time_ns = rg_now_ns(),
        .pid = (int)rg_sys_getpid(),
        .prog = u->prog,
        .op = "exec",
        .call = u->call,
        .path = u->path,
        .decision = "unguarded",
        .reason = reason_name(u->kind),
        .session = sid,
    };
    char json[PATH_MAX + 1024];
    size_t len = rg_log_format(json, sizeof json, &l);
    int fd = len ? rg_log_open(h->log_path) : -1;
    if (fd >= 0) {
        ssize_t w = write(fd, json, len);
        (void)w; /* the notice is advice: a log that cannot take it changes nothing */
        rg_sys_close(fd);
    }
}

/* The header of the session's table, mapped for the moment, after the same
 * identity checks as an attach. */
static struct rg_header *map_header(const char *session_path)
{
    int fd = rg_sys_openat(AT_FDCWD, session_path, O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0);
    if (fd < 0)
        return NULL;
    struct stat st;
    void *m = MAP_FAILED;
    if (rg_sys_fstat(fd, &st) == 0 && st.st_uid == rg_sys_geteuid() &&
        (uint64_t)st.st_size >= RG_HEADER_SIZE)
        m = mmap(NULL, RG_HEADER_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    rg_sys_close(fd);
    if (m == MAP_FAILED)
        return NULL;
    struct rg_header *h = m;
    if (memcmp(h->magic, RG_MAGIC, sizeof h->magic) != 0 || h->version != RG_TABLE_VERSION ||
        h->header_size != RG_HEADER_SIZE) {
        munmap(m, RG_HEADER_SIZE);
        return NULL;
    }
    return h;
}

void rg_unguarded_notice(struct rg_header *h, const char *session_path,
                         const struct rg_unguarded *u, int err_fd)
{
    struct rg_header *mapped = NULL;
    if (!h && session_path && *session_path)
        h = mapped = map_header(session_path);
    if (!h)
        return; /* no session to keep the once-only promise in: stay quiet */
    if (first_time(h, u->dev, u->ino))
        tell(h, u, err_fd);
    if (mapped)
        munmap(mapped, RG_HEADER_SIZE);
}
